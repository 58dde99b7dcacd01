// A user intrinsic library (intrinsics=path.mlir, the format of the
// built-in one): a 4x4x4 GEMM embedded into DeepBench layer 3
// (bench/embedding/deepbench_108.tsv: 79x341 input, 32 channels, 32 5x10
// filters, stride 2), here as torch-mlir's linalg convolution.
//
// RUN: raf-opt %s --tcg-dataflow-embed="intrinsics=%S/Inputs/gemm-4x4x4.mlir intrinsic=user.gemm.4x4x4 mode=strict" --tcg-print-embeddings="intrinsics=%S/Inputs/gemm-4x4x4.mlir" -o /dev/null | FileCheck %s --check-prefix=STRICT
// RUN: raf-opt %s --tcg-dataflow-embed="intrinsics=%S/Inputs/gemm-4x4x4.mlir intrinsic=user.gemm.4x4x4 mode=relaxed max-candidates=1" --tcg-print-embeddings="intrinsics=%S/Inputs/gemm-4x4x4.mlir" -o /dev/null | FileCheck %s --check-prefix=RELAXED
// The built-in intrinsics stay available next to a user file:
// RUN: raf-opt %s --tcg-dataflow-embed="intrinsics=%S/Inputs/gemm-4x4x4.mlir intrinsic=vta.gemm.1x16x16 mode=strict" --tcg-print-embeddings -o /dev/null | FileCheck %s --check-prefix=BUILTIN
//
// Bad files: located errors, and the pass fails.
// RUN: not raf-opt %s --tcg-dataflow-embed="intrinsics=%S/Inputs/missing.mlir" -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not raf-opt %s --tcg-dataflow-embed="intrinsics=%S/Inputs/intrinsics-bad-syntax.mlir" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SYNTAX
// RUN: not raf-opt %s --tcg-dataflow-embed="intrinsics=%S/Inputs/intrinsics-duplicate.mlir intrinsic=user.dot.4" -o /dev/null 2>&1 | FileCheck %s --check-prefix=DUPLICATE
// RUN: not raf-opt %s --tcg-dataflow-embed="intrinsics=%S/Inputs/intrinsics-unnamed.mlir" -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNNAMED
// RUN: not raf-opt %s --tcg-dataflow-embed="intrinsics=%S/Inputs/intrinsics-empty.mlir" -o /dev/null 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: not raf-opt %s --tcg-dataflow-embed="intrinsics=%S/Inputs/gemm-4x4x4.mlir intrinsic=user.gemm.8x8x8" -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// A report of a user intrinsic's embedding needs the file:
// RUN: not raf-opt %s --tcg-dataflow-embed="intrinsics=%S/Inputs/gemm-4x4x4.mlir intrinsic=user.gemm.4x4x4 mode=strict" --tcg-print-embeddings -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOFILE

// STRICT: embedding of user.gemm.4x4x4 (strict) into linalg.conv_2d_nchw_fchw
// STRICT-NEXT:   x: n 4
// STRICT-NEXT:   y: oc 4
// STRICT-NEXT:   z: ic 4
// STRICT:   padding: n 1 -> 4
// STRICT-NEXT:   cost 972090400: MAC 1291878400 / 322969600 (x4.000)
// STRICT:   search: optimal

// Relaxed mode packs output rows and columns on x instead of padding the
// batch: no MAC overhead.
// RELAXED: embedding of user.gemm.4x4x4 (relaxed) into linalg.conv_2d_nchw_fchw
// RELAXED-NEXT:   x: ow 2, oh 2
// RELAXED-NEXT:   y: oc 4
// RELAXED-NEXT:   z: ic 4
// RELAXED:   cost 2469280: MAC 322969600 / 322969600 (x1.000)
// RELAXED:   search: optimal, 1 candidate(s)

// BUILTIN: embedding of vta.gemm.1x16x16 (strict) into linalg.conv_2d_nchw_fchw

// MISSING: error: cannot read the intrinsic file '{{.*}}missing.mlir': {{.*}}
// SYNTAX: intrinsics-bad-syntax.mlir:3:32: error: expected ')'
// SYNTAX: error: the intrinsic file '{{.*}}intrinsics-bad-syntax.mlir' does not parse
// DUPLICATE: intrinsics-duplicate.mlir:17:8: error: intrinsic 'user.dot.4' is defined twice in '{{.*}}intrinsics-duplicate.mlir'
// DUPLICATE: intrinsics-duplicate.mlir:2:8: note: first defined here
// UNNAMED: intrinsics-unnamed.mlir:2:8: error: an intrinsic of '{{.*}}intrinsics-unnamed.mlir' needs a name (tcg.kernel "name" (...))
// EMPTY: error: the intrinsic file '{{.*}}intrinsics-empty.mlir' holds no tcg.kernel
// UNKNOWN: error: unknown intrinsic 'user.gemm.8x8x8'; in '{{.*}}gemm-4x4x4.mlir': user.gemm.4x4x4; built in: vta.gemm.1x16x16, vta.gemm.8x8x8,
// NOFILE: error: unknown intrinsic 'user.gemm.4x4x4'; known intrinsics: vta.gemm.1x16x16,

func.func @layer3(%x: tensor<1x32x79x341xi8>, %w: tensor<32x32x5x10xi8>) -> tensor<1x32x38x166xi32> {
  %c0 = arith.constant 0 : i32
  %e = tensor.empty() : tensor<1x32x38x166xi32>
  %f = linalg.fill ins(%c0 : i32) outs(%e : tensor<1x32x38x166xi32>) -> tensor<1x32x38x166xi32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
    ins(%x, %w : tensor<1x32x79x341xi8>, tensor<32x32x5x10xi8>) outs(%f : tensor<1x32x38x166xi32>) -> tensor<1x32x38x166xi32>
  return %r : tensor<1x32x38x166xi32>
}
