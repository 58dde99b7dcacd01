// An operation parser that fails without a diagnostic (upstream TOSA's
// attribute dictionary of tosa.clamp, cut short; found by raf-fuzz-mlir-parse,
// bench/results/fuzzing.md) is an error naming the input in raf-opt, not a
// silent exit 1. LLVM 22's own mlir-opt prints nothing on it.

// RUN: not raf-opt %s 2>&1 | FileCheck %s
// RUN: not raf-opt < %s 2>&1 | FileCheck %s --check-prefix=STDIN
// CHECK: silent-parse-failure.mlir: error: failed without a diagnostic (an operation's parser or a pass gave up without saying why)
// STDIN: -: error: failed without a diagnostic

// An error that is reported is not repeated.
// RUN: not raf-opt %S/Inputs/unknown-op.mlir 2>&1 | FileCheck %s --check-prefix=LOUD
// LOUD: error: custom op 'relay.no_such_op' is unknown
// LOUD-NOT: failed without a diagnostic

func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tosa.clamp %x {32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
