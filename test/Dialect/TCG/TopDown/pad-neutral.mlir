// Padding lanes of a reduction hold the reduction's neutral element (Rieber
// 2022, §3.3.2: an operator is padded to a multiple of the intrinsic's size;
// the padded lanes must not change the result): 0 for add, 1 for mul, -inf
// for max. Each kernel reduces 6 (or 7) points with a 16-lane intrinsic, so
// 10 (9) lanes are padding; the inputs are negative for the maxima (a zero
// fill would give 0) and the products are checked against NumPy (a zero
// fill would give 0).
// RUN: raf-opt %s --tcg-topdown-embed="intrinsics=red.max.16,red.mul.16,dot.add.max.16" -o %t.emb.mlir
// RUN: raf-opt %t.emb.mlir --tcg-apply-strategy -o %t.applied.mlir
// RUN: FileCheck %s --input-file=%t.applied.mlir
// RUN: %python %S/Inputs/oracle.py input %t.neg.npy 4x6 negative
// RUN: %python %S/Inputs/oracle.py input %t.negy.npy 6 negative
// RUN: %python %S/Inputs/oracle.py input %t.x.npy 4x6
// RUN: %python %S/Inputs/oracle.py input %t.blog.npy 8x4 negative
// RUN: raf-run %t.applied.mlir --entry=row_max --input=%t.neg.npy --output=%t.max.npy
// RUN: %python %S/Inputs/oracle.py check rowmax %t.neg.npy %t.max.npy | FileCheck %s --check-prefix=OK-MAX
// RUN: raf-run %t.applied.mlir --entry=row_prod --input=%t.x.npy --output=%t.prod.npy
// RUN: %python %S/Inputs/oracle.py check rowprod %t.x.npy %t.prod.npy | FileCheck %s --check-prefix=OK-PROD
// RUN: raf-run %t.applied.mlir --entry=add_max --input=%t.neg.npy --input=%t.negy.npy --output=%t.addmax.npy
// RUN: %python %S/Inputs/oracle.py check addmax %t.neg.npy %t.negy.npy %t.addmax.npy | FileCheck %s --check-prefix=OK-ADDMAX
// RUN: raf-run %t.applied.mlir --entry=capsule_max --input=%t.blog.npy --output=%t.cap.npy
// RUN: %python %S/Inputs/oracle.py check rowmax %t.blog.npy %t.cap.npy | FileCheck %s --check-prefix=OK-CAP

// Strided reductions (topdown.stride) of other kinds than add, padded too.
// RUN: raf-opt %S/Inputs/pad-neutral-strided.mlir --tcg-topdown-embed="intrinsics-file=%S/Inputs/strided-intrinsics.mlir intrinsics=red.max.s2,red.mul.s3" -o %t.s.emb.mlir
// RUN: raf-opt %t.s.emb.mlir --tcg-print-embeddings="intrinsics=%S/Inputs/strided-intrinsics.mlir" -o /dev/null | FileCheck %s --check-prefix=STRIDED
// RUN: raf-opt %t.s.emb.mlir --tcg-apply-strategy="intrinsics=%S/Inputs/strided-intrinsics.mlir" -o %t.s.applied.mlir
// RUN: %python %S/Inputs/oracle.py input %t.neg32.npy 4x32 negative
// RUN: %python %S/Inputs/oracle.py input %t.x32.npy 4x32
// RUN: raf-run %t.s.applied.mlir --entry=even_max --input=%t.neg32.npy --output=%t.evenmax.npy
// RUN: %python %S/Inputs/oracle.py check evenmax %t.neg32.npy %t.evenmax.npy | FileCheck %s --check-prefix=OK-EVENMAX
// RUN: raf-run %t.s.applied.mlir --entry=third_prod --input=%t.x32.npy --output=%t.thirdprod.npy
// RUN: %python %S/Inputs/oracle.py check thirdprod %t.x32.npy %t.thirdprod.npy | FileCheck %s --check-prefix=OK-THIRDPROD

// Bodies that do not yield the neutral element on the padding are refused
// at the kernel: a sum of exp(x) would count exp(0) = 1 per padded lane, and
// a maximum of x * y gets +inf (or NaN) from a padded -inf times y <= 0.
// RUN: not raf-opt %S/Inputs/pad-neutral-refusals.mlir --tcg-topdown-embed="intrinsics=dot.exp.add.16,dot.mul.max.16" --tcg-apply-strategy -o /dev/null 2>&1 | FileCheck %s --check-prefix=REFUSED

// The lane fill: -inf for max (after the appended zero of the gather),
// 1 for mul, and for add_max both operands.
// CHECK-LABEL: func.func @row_max(
// CHECK:         relay.nn.pad %{{.*}} {pad_width = array<i64: 0, 1>}
// CHECK:         relay.nn.pad %{{.*}} {pad_value = 0xFFF0000000000000 : f64, pad_width = array<i64: 0, 1>}
// CHECK-LABEL: func.func @row_prod(
// CHECK:         relay.nn.pad %{{.*}} {pad_value = 1.000000e+00 : f64
// CHECK-LABEL: func.func @add_max(
// CHECK:         relay.nn.pad %{{.*}} {pad_value = 0xFFF0000000000000 : f64
// CHECK:         relay.nn.pad %{{.*}} {pad_value = 0xFFF0000000000000 : f64, pad_width = array<i64: 0, 10>}
// CHECK-LABEL: func.func @capsule_max(
// CHECK:         relay.nn.pad %{{.*}} {pad_value = 0xFFF0000000000000 : f64

// OK-MAX: rowmax: ok
// OK-PROD: rowprod: ok
// OK-ADDMAX: addmax: ok
// OK-CAP: rowmax: ok
// STRIDED: embedding of red.max.s2 (topdown) into even_max
// STRIDED:   padding: k 6 -> 16
// STRIDED: embedding of red.mul.s3 (topdown) into third_prod
// STRIDED:   padding: k 7 -> 16
// OK-EVENMAX: evenmax: ok
// OK-THIRDPROD: thirdprod: ok
// REFUSED: pad-neutral-refusals.mlir:4:8: error: cannot derive the strategy of 'dot.exp.add.16' (candidate 0): reduction iterator k is padded from 6 to 16 points, but the body does not yield the neutral element of add on the padding
// REFUSED: pad-neutral-refusals.mlir:18:8: error: cannot derive the strategy of 'dot.mul.max.16' (candidate 0): reduction iterator k is padded from 6 to 16 points, but the body does not yield the neutral element of max on the padding

func.func @row_max(%x_in: tensor<4x6xf32>) -> tensor<4xf32> {
  %r = tcg.kernel "row_max" (%x = %x_in : tensor<4x6xf32>) -> tensor<4xf32> attributes {arg_names = ["x"]} {
    %0 = tcg.tensor %m in [0, 4) name "m" -> tensor<4xf32> {
      %1 = tcg.reduce max %k in [0, 6) name "k" -> f32 {
        %v = tcg.input %x[%m, %k] : tensor<4x6xf32>
        tcg.yield %v : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
func.func @row_prod(%x_in: tensor<4x6xf32>) -> tensor<4xf32> {
  %r = tcg.kernel "row_prod" (%x = %x_in : tensor<4x6xf32>) -> tensor<4xf32> attributes {arg_names = ["x"]} {
    %0 = tcg.tensor %m in [0, 4) name "m" -> tensor<4xf32> {
      %1 = tcg.reduce mul %k in [0, 6) name "k" -> f32 {
        %v = tcg.input %x[%m, %k] : tensor<4x6xf32>
        tcg.yield %v : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
func.func @add_max(%x_in: tensor<4x6xf32>, %y_in: tensor<6xf32>) -> tensor<4xf32> {
  %r = tcg.kernel "add_max" (%x = %x_in : tensor<4x6xf32>, %y = %y_in : tensor<6xf32>) -> tensor<4xf32> attributes {arg_names = ["x", "y"]} {
    %0 = tcg.tensor %m in [0, 4) name "m" -> tensor<4xf32> {
      %1 = tcg.reduce max %k in [0, 6) name "k" -> f32 {
        %v = tcg.input %x[%m, %k] : tensor<4x6xf32>
        %w = tcg.input %y[%k] : tensor<6xf32>
        %s = tcg.compute add %v, %w : (f32, f32) -> f32
        tcg.yield %s : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
// Capsule routing's statement capsule_routing.0 (the row maximum of b before
// the softmax, bench/topdown/operators.mlir) alone: j is padded 4 -> 16.
func.func @capsule_max(%arg0: tensor<8x4xf32>) -> tensor<8xf32> {
  %0 = tcg.kernel "capsule_routing.0" (%b = %arg0 : tensor<8x4xf32>) -> tensor<8xf32> attributes {arg_names = ["b"], result_name = "capsule_routing.0"} {
    %11 = tcg.tensor %i in [0, 8) name "i" -> tensor<8xf32> {
      %12 = tcg.reduce max %j in [0, 4) name "j" -> f32 {
        %13 = tcg.input %b[%i, %j] : tensor<8x4xf32>
        tcg.yield %13 : f32
      }
      tcg.yield %12 : f32
    }
    tcg.yield %11 : tensor<8xf32>
  }
  return %0 : tensor<8xf32>
}
