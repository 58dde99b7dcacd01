// RUN: raf-opt %s --raf-autocast=inference=true | FileCheck %s

// Category `follow` (split): the input becomes f16 only if it already is;
// otherwise it keeps its type. The parts have the input's type.

// CHECK-LABEL: func.func @split_low(
// CHECK:        %[[P:.*]] = relay.nn.matmul
// CHECK-NEXT:   %[[S:.*]]:2 = relay.split %[[P]] {axis = 1 : i64, sections = 2 : i64} : (tensor<4x8xf16>) -> (tensor<4x4xf16>, tensor<4x4xf16>)
// CHECK-NEXT:   %[[T:.*]] = relay.transpose %[[S]]#1 : (tensor<4x4xf16>) -> tensor<4x4xf16>
// CHECK-NEXT:   return %[[S]]#0, %[[T]] : tensor<4x4xf16>, tensor<4x4xf16>
func.func @split_low(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %p = relay.nn.matmul %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>)
  %s:2 = relay.split %p {axis = 1 : i64, sections = 2 : i64} : (tensor<4x8xf32>)
  %t = relay.transpose %s#1 : (tensor<4x4xf32>)
  return %s#0, %t : tensor<4x4xf32>, tensor<4x4xf32>
}

// An f32 input stays f32: the f16 part consumer casts for itself.
// CHECK-LABEL: func.func @split_f32(
// CHECK-SAME: %[[X:.*]]: tensor<4x8xf32>
// CHECK-NEXT:   %[[S:.*]]:2 = relay.split %[[X]] {axis = 1 : i64, sections = 2 : i64} : (tensor<4x8xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>)
// CHECK-NEXT:   %[[A:.*]] = relay.cast %[[S]]#0 {dtype = f16}
// CHECK-NEXT:   %[[B:.*]] = relay.cast %[[S]]#1 {dtype = f16}
// CHECK-NEXT:   %[[M:.*]] = relay.nn.matmul %[[A]], %[[B]]
// CHECK-NEXT:   return %[[M]] : tensor<4x4xf16>
func.func @split_f32(%x: tensor<4x8xf32>) -> tensor<4x4xf32> {
  %s:2 = relay.split %x {axis = 1 : i64, sections = 2 : i64} : (tensor<4x8xf32>)
  %m = relay.nn.matmul %s#0, %s#1 {transpose_b = true} : (tensor<4x4xf32>, tensor<4x4xf32>)
  return %m : tensor<4x4xf32>
}
