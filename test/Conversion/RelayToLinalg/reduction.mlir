// RUN: raf-opt %s --convert-relay-to-linalg | FileCheck %s
// The result bufferizes and lowers to LLVM IR:
// RUN: raf-opt %s --convert-relay-to-linalg | mlir-opt %lower_to_llvm \
// RUN:   | mlir-translate --mlir-to-llvmir -o /dev/null

// Reductions (ReductionToLinalg.cpp): linalg.reduce over the reduced axes,
// tensor.expand_shape for keepdims.

// Maps of @argmax.
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[KEPT:.*]] = affine_map<(d0, d1, d2) -> (d0)>

// CHECK-LABEL: func.func @sum_keepdims
func.func @sum_keepdims(%x: tensor<2x3x4xf32>) -> tensor<2x1x4xf32> {
  // CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
  // CHECK: %[[INIT:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.*}} : tensor<2x4xf32>)
  // CHECK: %[[SUM:.*]] = linalg.reduce ins(%arg0 : tensor<2x3x4xf32>) outs(%[[INIT]] : tensor<2x4xf32>) dimensions = [1]
  // CHECK: arith.addf
  // CHECK: tensor.expand_shape %[[SUM]] {{\[\[}}0], [1, 2]] output_shape [2, 1, 4]
  %0 = relay.sum %x {axis = array<i64: -2>, keepdims = true} : (tensor<2x3x4xf32>)
  return %0 : tensor<2x1x4xf32>
}

// exclude reduces the axes not listed; no axis reduces all of them.
// CHECK-LABEL: func.func @sum_exclude_and_all
func.func @sum_exclude_and_all(%x: tensor<2x3x4xi32>) -> (tensor<3xi32>, tensor<i32>) {
  // CHECK: linalg.reduce ins(%arg0 : tensor<2x3x4xi32>) outs(%{{.*}} : tensor<3xi32>) dimensions = [0, 2]
  // CHECK: arith.addi
  %0 = relay.sum %x {axis = array<i64: 1>, exclude = true} : (tensor<2x3x4xi32>)
  // CHECK: linalg.reduce ins(%arg0 : tensor<2x3x4xi32>) outs(%{{.*}} : tensor<i32>) dimensions = [0, 1, 2]
  %1 = relay.sum %x : (tensor<2x3x4xi32>)
  return %0, %1 : tensor<3xi32>, tensor<i32>
}

// CHECK-LABEL: func.func @mean
func.func @mean(%x: tensor<2x3x4xf32>) -> tensor<3xf32> {
  // CHECK: %[[SUM:.*]] = linalg.reduce ins(%arg0 : tensor<2x3x4xf32>) outs(%{{.*}} : tensor<3xf32>) dimensions = [0, 2]
  // CHECK: linalg.generic {{.*}} ins(%[[SUM]] : tensor<3xf32>)
  // CHECK: arith.constant 8.000000e+00 : f32
  // CHECK: arith.divf
  %0 = relay.mean %x {axis = array<i64: 0, 2>} : (tensor<2x3x4xf32>)
  return %0 : tensor<3xf32>
}

// CHECK-LABEL: func.func @max
func.func @max(%x: tensor<2x3xf32>, %i: tensor<2x3xi8>) -> (tensor<2xf32>, tensor<3xi8>) {
  // CHECK: %[[NEG_INF:.*]] = arith.constant 0xFF800000 : f32
  // CHECK: linalg.fill ins(%[[NEG_INF]] : f32)
  // CHECK: linalg.reduce
  // CHECK: arith.maximumf
  %0 = relay.max %x {axis = array<i64: 1>} : (tensor<2x3xf32>)
  // CHECK: %[[MIN:.*]] = arith.constant -128 : i8
  // CHECK: linalg.fill ins(%[[MIN]] : i8)
  // CHECK: arith.maxsi
  %1 = relay.max %i {axis = array<i64: 0>} : (tensor<2x3xi8>)
  return %0, %1 : tensor<2xf32>, tensor<3xi8>
}

// argmax keeps the first maximum (strictly greater moves the index; NaN
// counts as the maximum) and numbers positions row-major within the
// reduced axes.
// CHECK-LABEL: func.func @argmax
func.func @argmax(%x: tensor<2x3x4xf32>) -> tensor<2x1x1xi32> {
  // CHECK: %[[VALUES:.*]] = linalg.fill {{.*}} -> tensor<2xf32>
  // CHECK: %[[INDICES:.*]] = linalg.fill {{.*}} -> tensor<2xi32>
  // CHECK: %[[ARG:.*]]:2 = linalg.generic {indexing_maps = [#[[ID]], #[[KEPT]], #[[KEPT]]], iterator_types = ["parallel", "reduction", "reduction"]} ins(%arg0 : tensor<2x3x4xf32>) outs(%[[VALUES]], %[[INDICES]] : tensor<2xf32>, tensor<2xi32>)
  // CHECK: linalg.index 1
  // CHECK: linalg.index 2
  // CHECK: arith.cmpf ogt
  // CHECK: arith.cmpf uno
  // CHECK: tensor.expand_shape %[[ARG]]#1 {{\[\[}}0, 1, 2]] output_shape [2, 1, 1]
  %0 = relay.argmax %x {axis = array<i64: 1, 2>, keepdims = true} : (tensor<2x3x4xf32>)
  return %0 : tensor<2x1x1xi32>
}
