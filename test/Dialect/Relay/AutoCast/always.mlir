// RUN: raf-opt %s --raf-autocast=inference=true | FileCheck %s

// Category `always` (conv2d, conv2d_transpose, dense, matmul, batch_matmul):
// the float operands are cast to f16, the product is f16. The consumers'
// fusion kind is out-elementwise-fusable, beyond injective, so each value
// is cast once and the cast is shared. Functions without gradients are
// converted because of inference=true; out-dtype defaults to f16.

// CHECK-LABEL: func.func @products(
// CHECK-SAME: %[[X:.*]]: tensor<4x8xf32>, %[[W:.*]]: tensor<16x8xf32>, %[[B:.*]]: tensor<2x4x8xf32>)
// CHECK-SAME: -> (tensor<4x16xf16>, tensor<4x4xf16>, tensor<2x4x4xf16>)
// CHECK-NEXT:   %[[XH:.*]] = relay.cast %[[X]] {dtype = f16} : (tensor<4x8xf32>) -> tensor<4x8xf16>
// CHECK-NEXT:   %[[WH:.*]] = relay.cast %[[W]] {dtype = f16} : (tensor<16x8xf32>) -> tensor<16x8xf16>
// CHECK-NEXT:   %[[D:.*]] = relay.nn.dense %[[XH]], %[[WH]] : (tensor<4x8xf16>, tensor<16x8xf16>) -> tensor<4x16xf16>
// CHECK-NEXT:   %[[M:.*]] = relay.nn.matmul %[[XH]], %[[XH]] {transpose_b = true} : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<4x4xf16>
// CHECK-NEXT:   %[[BH:.*]] = relay.cast %[[B]] {dtype = f16} : (tensor<2x4x8xf32>) -> tensor<2x4x8xf16>
// CHECK-NEXT:   %[[BM:.*]] = relay.nn.batch_matmul %[[BH]], %[[BH]] : (tensor<2x4x8xf16>, tensor<2x4x8xf16>) -> tensor<2x4x4xf16>
// CHECK-NEXT:   return %[[D]], %[[M]], %[[BM]]
func.func @products(%x: tensor<4x8xf32>, %w: tensor<16x8xf32>, %b: tensor<2x4x8xf32>)
    -> (tensor<4x16xf32>, tensor<4x4xf32>, tensor<2x4x4xf32>) {
  %d = relay.nn.dense %x, %w : (tensor<4x8xf32>, tensor<16x8xf32>)
  %m = relay.nn.matmul %x, %x {transpose_b = true} : (tensor<4x8xf32>, tensor<4x8xf32>)
  %bm = relay.nn.batch_matmul %b, %b : (tensor<2x4x8xf32>, tensor<2x4x8xf32>)
  return %d, %m, %bm : tensor<4x16xf32>, tensor<4x4xf32>, tensor<2x4x4xf32>
}

// CHECK-LABEL: func.func @convolutions(
// CHECK-SAME: %[[X:.*]]: tensor<1x2x6x6xf32>, %[[W:.*]]: tensor<3x2x3x3xf32>, %[[T:.*]]: tensor<3x2x3x3xf32>)
// CHECK-NEXT:   %[[XH:.*]] = relay.cast %[[X]] {dtype = f16}
// CHECK-NEXT:   %[[WH:.*]] = relay.cast %[[W]] {dtype = f16}
// CHECK-NEXT:   %[[C:.*]] = relay.nn.conv2d %[[XH]], %[[WH]] {{.*}} -> tensor<1x3x6x6xf16>
// CHECK-NEXT:   %[[TH:.*]] = relay.cast %[[T]] {dtype = f16}
// CHECK-NEXT:   %[[CT:.*]] = relay.nn.conv2d_transpose %[[C]], %[[TH]] {{.*}} -> tensor<1x2x6x6xf16>
// CHECK-NEXT:   return %[[CT]] : tensor<1x2x6x6xf16>
func.func @convolutions(%x: tensor<1x2x6x6xf32>, %w: tensor<3x2x3x3xf32>, %t: tensor<3x2x3x3xf32>)
    -> tensor<1x2x6x6xf32> {
  %c = relay.nn.conv2d %x, %w {padding = array<i64: 1>} : (tensor<1x2x6x6xf32>, tensor<3x2x3x3xf32>)
  %ct = relay.nn.conv2d_transpose %c, %t {padding = array<i64: 1>} : (tensor<1x3x6x6xf32>, tensor<3x2x3x3xf32>)
  return %ct : tensor<1x2x6x6xf32>
}

// Hints apply to float tensors only: an integer product is left alone, and
// its out_dtype is kept. A product already in f16 needs no cast.
// CHECK-LABEL: func.func @not_float(
// CHECK-NEXT:   %[[D:.*]] = relay.nn.dense %arg0, %arg1 {out_dtype = i32} : (tensor<4x8xi8>, tensor<2x8xi8>) -> tensor<4x2xi32>
// CHECK-NEXT:   %[[H:.*]] = relay.nn.dense %arg2, %arg2 : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<4x4xf16>
// CHECK-NEXT:   return %[[D]], %[[H]]
func.func @not_float(%a: tensor<4x8xi8>, %b: tensor<2x8xi8>, %h: tensor<4x8xf16>)
    -> (tensor<4x2xi32>, tensor<4x4xf16>) {
  %d = relay.nn.dense %a, %b {out_dtype = i32} : (tensor<4x8xi8>, tensor<2x8xi8>)
  %e = relay.nn.dense %h, %h : (tensor<4x8xf16>, tensor<4x8xf16>)
  return %d, %e : tensor<4x2xi32>, tensor<4x4xf16>
}
