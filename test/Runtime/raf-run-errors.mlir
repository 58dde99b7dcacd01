// Bad input to raf-run: every case is a diagnostic and exit code 1.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/x23.npy', np.ones((2, 3), np.float32)); np.save('%t/x32.npy', np.ones((3, 2), np.float32)); np.save('%t/i23.npy', np.ones((2, 3), np.int32))"
// RUN: printf 'PK\003\004 not numpy' > %t/corrupt.npy
// RUN: %python -c "open('%t/short.npy', 'wb').write(open('%t/x23.npy', 'rb').read()[:-4])"

// A missing function lists the functions that exist.
// RUN: not raf-run %s --entry=nope 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: raf-run-errors.mlir:0:0: error: no function @nope in '{{.*}}raf-run-errors.mlir' (functions: @add, @tuple_result, @closure, @private_fn)

// Wrong number of inputs.
// RUN: not raf-run %s --entry=add --input=%t/x23.npy 2>&1 | FileCheck %s --check-prefix=COUNT
// COUNT: error: @add takes 2 argument(s) but 1 --input file(s) were given

// Wrong shape, wrong dtype (both types are printed).
// RUN: not raf-run %s --entry=add --input=%t/x23.npy --input=%t/x32.npy 2>&1 | FileCheck %s --check-prefix=SHAPE
// SHAPE: error: argument #1 from '{{.*}}x32.npy' is tensor<3x2xf32> but @add expects 'tensor<2x3xf32>'
// RUN: not raf-run %s --entry=add --target=interp --input=%t/i23.npy --input=%t/x23.npy 2>&1 | FileCheck %s --check-prefix=DTYPE
// DTYPE: error: argument #0 from '{{.*}}i23.npy' is tensor<2x3xi32> but @add expects 'tensor<2x3xf32>'

// Corrupt and truncated .npy files.
// RUN: not raf-run %s --entry=add --input=%t/corrupt.npy --input=%t/x23.npy 2>&1 | FileCheck %s --check-prefix=CORRUPT
// CORRUPT: error: cannot read argument #0: {{.*}}corrupt.npy: not a .npy file (missing the \x93NUMPY magic)
// RUN: not raf-run %s --entry=add --input=%t/short.npy --input=%t/x23.npy 2>&1 | FileCheck %s --check-prefix=SHORT
// SHORT: error: cannot read argument #0: {{.*}}short.npy: data is 20 bytes but shape and type tensor<2x3xf32> need 24
// RUN: not raf-run %s --entry=add --input=%t/missing.npy --input=%t/x23.npy 2>&1 | FileCheck %s --check-prefix=NOFILE
// NOFILE: error: cannot read argument #0: {{.*}}missing.npy: cannot open

// More --output files than results.
// RUN: not raf-run %s --entry=add --output=%t/a.npy --output=%t/b.npy 2>&1 | FileCheck %s --check-prefix=OUTPUTS
// OUTPUTS: error: 2 --output file(s) given but @add has 1 result tensor(s)

// The CPU target returns tensors only; structural ops do not lower.
// RUN: not raf-run %s --entry=tuple_result --target=cpu 2>&1 | FileCheck %s --check-prefix=TUPLE
// TUPLE: error: result #0 has type 'tuple<tensor<2x3xf32>, tensor<2x3xf32>>'; --target=cpu returns only statically shaped tensors
// RUN: not raf-run %s --entry=closure --target=cpu 2>&1 | FileCheck %s --check-prefix=CLOSURE
// CLOSURE: raf-run-errors.mlir:{{[0-9]+}}:{{[0-9]+}}: error: relay.fn has no lowering to linalg yet
// CLOSURE: error: compiling for the CPU failed
// RUN: not raf-run %s --entry=private_fn --target=cpu 2>&1 | FileCheck %s --check-prefix=PRIVATE
// PRIVATE: error: @private_fn is private; only public functions can be called

// Bad pipeline options and random ranges.
// RUN: not raf-run %s --entry=add --pipeline-options="bogus=1" 2>&1 | FileCheck %s --check-prefix=OPTIONS
// OPTIONS: error: invalid --pipeline-options 'bogus=1'
// RUN: not raf-run %s --entry=add --random-range=1,0 2>&1 | FileCheck %s --check-prefix=RANGE
// RANGE: error: --random-range takes two numbers low,high with low < high

// The same program runs on both targets when the input is right.
// RUN: raf-run %s --entry=add --target=cpu --input=%t/x23.npy --input=%t/x23.npy --print-results | FileCheck %s --check-prefix=OK
// RUN: raf-run %s --entry=add --target=interp --input=%t/x23.npy --input=%t/x23.npy --print-results | FileCheck %s --check-prefix=OK
// OK: result #0: tensor<2x3xf32>
// OK-NEXT: {{\[\[}}2, 2, 2],
// OK-NEXT: [2, 2, 2]]

func.func @add(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %r = relay.add %x, %y : (tensor<2x3xf32>, tensor<2x3xf32>)
  return %r : tensor<2x3xf32>
}

func.func @tuple_result(%x: tensor<2x3xf32>)
    -> tuple<tensor<2x3xf32>, tensor<2x3xf32>> {
  %t = relay.tuple(%x, %x) : tensor<2x3xf32>, tensor<2x3xf32>
  return %t : tuple<tensor<2x3xf32>, tensor<2x3xf32>>
}

func.func @closure(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %f = relay.fn(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
    %n = relay.negative %a : (tensor<2x3xf32>)
    relay.return %n : tensor<2x3xf32>
  }
  %r = relay.call %f(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

func.func private @private_fn(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  return %x : tensor<2x3xf32>
}
