// RUN: raf-opt --convert-tosa-to-relay %s | FileCheck %s
// RUN: raf-opt --convert-tosa-to-relay %s | raf-opt | FileCheck %s

// TOSA reductions keep the reduced axis with size 1 (relay keepdims).
// CHECK-LABEL: func.func @reduce
// CHECK-NEXT: %[[S:.*]] = relay.sum %arg0 {axis = array<i64: 1>, keepdims = true} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
// CHECK-NEXT: %[[M:.*]] = relay.max %arg0 {axis = array<i64: 2>, keepdims = true} : (tensor<2x3x4xf32>) -> tensor<2x3x1xf32>
// CHECK-NEXT: return %[[S]], %[[M]]
func.func @reduce(%x: tensor<2x3x4xf32>) -> (tensor<2x1x4xf32>, tensor<2x3x1xf32>) {
  %0 = tosa.reduce_sum %x {axis = 1 : i32} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
  %1 = tosa.reduce_max %x {axis = 2 : i32} : (tensor<2x3x4xf32>) -> tensor<2x3x1xf32>
  return %0, %1 : tensor<2x1x4xf32>, tensor<2x3x1xf32>
}

// min(x) = -max(-x).
// CHECK-LABEL: func.func @reduce_min
// CHECK-NEXT: %[[N:.*]] = relay.negative %arg0 : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[M:.*]] = relay.max %[[N]] {axis = array<i64: 0>, keepdims = true} : (tensor<2x3xf32>) -> tensor<1x3xf32>
// CHECK-NEXT: %[[R:.*]] = relay.negative %[[M]] : (tensor<1x3xf32>) -> tensor<1x3xf32>
// CHECK-NEXT: return %[[R]]
func.func @reduce_min(%x: tensor<2x3xf32>) -> tensor<1x3xf32> {
  %0 = tosa.reduce_min %x {axis = 0 : i32} : (tensor<2x3xf32>) -> tensor<1x3xf32>
  return %0 : tensor<1x3xf32>
}

// argmax drops the axis; relay's i32 index is cast to a wider TOSA result.
// CHECK-LABEL: func.func @argmax
// CHECK-NEXT: %[[A:.*]] = relay.argmax %arg0 {axis = array<i64: 1>} : (tensor<2x3xf32>) -> tensor<2xi32>
// CHECK-NEXT: %[[B:.*]] = relay.argmax %arg0 {axis = array<i64: 0>} : (tensor<2x3xf32>) -> tensor<3xi32>
// CHECK-NEXT: %[[C:.*]] = relay.cast %[[B]] {dtype = i64} : (tensor<3xi32>) -> tensor<3xi64>
// CHECK-NEXT: return %[[A]], %[[C]]
func.func @argmax(%x: tensor<2x3xf32>) -> (tensor<2xi32>, tensor<3xi64>) {
  %0 = tosa.argmax %x {axis = 1 : i32} : (tensor<2x3xf32>) -> tensor<2xi32>
  %1 = tosa.argmax %x {axis = 0 : i32} : (tensor<2x3xf32>) -> tensor<3xi64>
  return %0, %1 : tensor<2xi32>, tensor<3xi64>
}
