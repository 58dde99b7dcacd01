// RUN: raf-opt %s --convert-relay-to-linalg | FileCheck %s
// The result bufferizes and lowers to LLVM IR:
// RUN: raf-opt %s --convert-relay-to-linalg | mlir-opt %lower_to_llvm \
// RUN:   | mlir-translate --mlir-to-llvmir -o /dev/null

// Shape and layout operators (ShapeToLinalg.cpp).

// Maps of @strided_slice_backwards and @take.
// CHECK-DAG: #[[BACKWARDS:.*]] = affine_map<(d0, d1) -> (d0, d1 * -2 + 3)>
// CHECK-DAG: #[[TAKE_INDICES:.*]] = affine_map<(d0, d1, d2, d3) -> (d1, d2)>
// Maps of @transpose_blocked and @transpose_operand_order.
// CHECK-DAG: #[[BLOCKED_IN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d5, d4)>
// CHECK-DAG: #[[BLOCKED_OUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d4, d2, d3, d5)>
// CHECK-DAG: #[[IDENTITY4:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[UNPACK4:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d1, d2)>

// CHECK-LABEL: func.func @reshapes
func.func @reshapes(%x: tensor<2x3x4xf32>) -> (tensor<6x4xf32>, tensor<4x6xf32>, tensor<2x1x3x4x1xf32>, tensor<2x3x4xf32>) {
  // CHECK: tensor.collapse_shape %arg0 {{\[\[}}0, 1], [2]] : tensor<2x3x4xf32> into tensor<6x4xf32>
  %0 = relay.reshape %x {newshape = array<i64: 6, -1>} : (tensor<2x3x4xf32>)
  // No single reassociation: through 1-D.
  // CHECK: %[[FLAT:.*]] = tensor.collapse_shape %arg0 {{\[\[}}0, 1, 2]] : tensor<2x3x4xf32> into tensor<24xf32>
  // CHECK: tensor.expand_shape %[[FLAT]] {{\[\[}}0, 1]] output_shape [4, 6] : tensor<24xf32> into tensor<4x6xf32>
  %1 = relay.reshape %x {newshape = array<i64: 4, 6>} : (tensor<2x3x4xf32>)
  // CHECK: %[[E:.*]] = tensor.expand_shape %arg0 {{.*}} into tensor<2x1x3x4xf32>
  %2 = relay.expand_dims %x {axis = 1 : i64} : (tensor<2x3x4xf32>)
  // CHECK: %[[E2:.*]] = tensor.expand_shape %[[E]] {{.*}} into tensor<2x1x3x4x1xf32>
  %3 = relay.expand_dims %2 {axis = -1 : i64} : (tensor<2x1x3x4xf32>)
  // CHECK: tensor.collapse_shape %[[E2]] {{.*}} : tensor<2x1x3x4x1xf32> into tensor<2x3x4xf32>
  %4 = relay.squeeze %3 : (tensor<2x1x3x4x1xf32>)
  return %0, %1, %3, %4 : tensor<6x4xf32>, tensor<4x6xf32>, tensor<2x1x3x4x1xf32>, tensor<2x3x4xf32>
}

// CHECK-LABEL: func.func @transpose
func.func @transpose(%x: tensor<2x3x4xf32>) -> (tensor<3x4x2xf32>, tensor<4x3x2xf32>) {
  // CHECK: linalg.transpose ins(%arg0 : tensor<2x3x4xf32>) outs(%{{.*}} : tensor<3x4x2xf32>) permutation = [1, 2, 0]
  %0 = relay.transpose %x {axes = array<i64: 1, -1, 0>} : (tensor<2x3x4xf32>)
  // CHECK: linalg.transpose ins(%arg0 : tensor<2x3x4xf32>) outs(%{{.*}} : tensor<4x3x2xf32>) permutation = [2, 1, 0]
  %1 = relay.transpose %x : (tensor<2x3x4xf32>)
  return %0, %1 : tensor<3x4x2xf32>, tensor<4x3x2xf32>
}

// Permutations that keep the axes longer than 1 in order move no element:
// reshapes (views once bufferized), not copies. Relay's weight gradient of a
// grouped convolution moves the batch axis of a batch-1 tensor this way.
// CHECK-LABEL: func.func @transpose_unit_axes
func.func @transpose_unit_axes(%x: tensor<1x1x32x7x7xf32>, %y: tensor<1x96x1x5xf32>) -> (tensor<32x1x1x7x7xf32>, tensor<96x5x1x1xf32>, tensor<5x96x1x1xf32>) {
  // CHECK-NOT: linalg.transpose
  // CHECK: %[[FLAT:.*]] = tensor.collapse_shape %arg0 {{\[\[}}0, 1, 2, 3, 4]] : tensor<1x1x32x7x7xf32> into tensor<1568xf32>
  // CHECK: tensor.expand_shape %[[FLAT]] {{\[\[}}0, 1, 2, 3, 4]] output_shape [32, 1, 1, 7, 7] : tensor<1568xf32> into tensor<32x1x1x7x7xf32>
  %0 = relay.transpose %x {axes = array<i64: 2, 1, 0, 3, 4>} : (tensor<1x1x32x7x7xf32>)
  // CHECK: tensor.collapse_shape %arg1
  // CHECK: tensor.expand_shape
  // CHECK-SAME: into tensor<96x5x1x1xf32>
  %1 = relay.transpose %y {axes = array<i64: 1, 3, 0, 2>} : (tensor<1x96x1x5xf32>)
  // 96 and 5 exchange places: a copy.
  // CHECK: linalg.transpose ins(%arg1 : tensor<1x96x1x5xf32>) outs(%{{.*}} : tensor<5x96x1x1xf32>) permutation = [3, 1, 0, 2]
  %2 = relay.transpose %y {axes = array<i64: 3, 1, 0, 2>} : (tensor<1x96x1x5xf32>)
  return %0, %1, %2 : tensor<32x1x1x7x7xf32>, tensor<96x5x1x1xf32>, tensor<5x96x1x1xf32>
}

// The operand's innermost axis (16) is shorter than the result's (224): the
// result's innermost axis is split into blocks of 32 (two cache lines of
// i32), and the loops run over (..., blocks, operand's innermost, block).
// CHECK-LABEL: func.func @transpose_blocked
func.func @transpose_blocked(%x: tensor<1x4x224x224x16xi32>) -> tensor<1x4x16x224x224xi32> {
  // CHECK: %[[IN:.*]] = tensor.expand_shape %arg0 {{\[\[}}0], [1], [2], [3, 4], [5]] output_shape [1, 4, 224, 7, 32, 16]
  // CHECK: %[[T:.*]] = linalg.generic {indexing_maps = [#[[BLOCKED_IN]], #[[BLOCKED_OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%[[IN]] : tensor<1x4x224x7x32x16xi32>) outs(%{{.*}} : tensor<1x4x16x224x7x32xi32>)
  // CHECK-NEXT: ^bb0(%[[V:.*]]: i32, %{{.*}}: i32):
  // CHECK-NEXT: linalg.yield %[[V]] : i32
  // CHECK: tensor.collapse_shape %[[T]] {{\[\[}}0], [1], [2], [3], [4, 5]] : tensor<1x4x16x224x7x32xi32> into tensor<1x4x16x224x224xi32>
  %0 = relay.transpose %x {axes = array<i64: 0, 1, 4, 2, 3>} : (tensor<1x4x224x224x16xi32>)
  return %0 : tensor<1x4x16x224x224xi32>
}

// No block size divides 79: the loops follow the operand (identity map on
// the operand, permuted result).
// CHECK-LABEL: func.func @transpose_operand_order
func.func @transpose_operand_order(%x: tensor<1x3x79x16xi32>) -> tensor<1x16x3x79xi32> {
  // CHECK: linalg.generic {indexing_maps = [#[[IDENTITY4]], #[[UNPACK4]]], {{.*}} ins(%arg0 : tensor<1x3x79x16xi32>) outs(%{{.*}} : tensor<1x16x3x79xi32>)
  %0 = relay.transpose %x {axes = array<i64: 0, 3, 1, 2>} : (tensor<1x3x79x16xi32>)
  return %0 : tensor<1x16x3x79xi32>
}

// CHECK-LABEL: func.func @concatenate_split
func.func @concatenate_split(%a: tensor<2x3xf32>, %b: tensor<2x1xf32>) -> (tensor<2x4xf32>, tensor<2x1xf32>, tensor<2x3xf32>) {
  // CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<2x4xf32>
  // CHECK: %[[A:.*]] = tensor.insert_slice %arg0 into %[[EMPTY]][0, 0] [2, 3] [1, 1]
  // CHECK: %[[AB:.*]] = tensor.insert_slice %arg1 into %[[A]][0, 3] [2, 1] [1, 1]
  %0 = relay.concatenate %a, %b {axis = -1 : i64} : (tensor<2x3xf32>, tensor<2x1xf32>)
  // CHECK: tensor.extract_slice %[[AB]][0, 0] [2, 1] [1, 1] : tensor<2x4xf32> to tensor<2x1xf32>
  // CHECK: tensor.extract_slice %[[AB]][0, 1] [2, 3] [1, 1] : tensor<2x4xf32> to tensor<2x3xf32>
  %1:2 = relay.split %0 {indices = array<i64: 1>, axis = 1 : i64} : (tensor<2x4xf32>)
  return %0, %1#0, %1#1 : tensor<2x4xf32>, tensor<2x1xf32>, tensor<2x3xf32>
}

// CHECK-LABEL: func.func @strided_slice
func.func @strided_slice(%x: tensor<5x6xf32>) -> tensor<3x2xf32> {
  // CHECK: tensor.extract_slice %arg0[1, 0] [3, 2] [1, 4] : tensor<5x6xf32> to tensor<3x2xf32>
  %0 = relay.strided_slice %x {begin = array<i64: 1, -100>, end = array<i64: -1, 100>, strides = array<i64: 1, 4>} : (tensor<5x6xf32>)
  return %0 : tensor<3x2xf32>
}

// A negative stride reads x[i, 3 - 2 j].
// CHECK-LABEL: func.func @strided_slice_backwards
func.func @strided_slice_backwards(%x: tensor<5x6xf32>) -> tensor<5x2xf32> {
  // CHECK: linalg.generic {indexing_maps = [#[[BACKWARDS]], {{.*}}]{{.*}} ins(%arg0 : tensor<5x6xf32>) outs(%{{.*}} : tensor<5x2xf32>)
  %0 = relay.strided_slice %x {begin = array<i64: 3>, end = array<i64: 0>, strides = array<i64: -2>, axes = array<i64: 1>} : (tensor<5x6xf32>)
  return %0 : tensor<5x2xf32>
}

// clip (the default) clamps the index into [0, 2]; wrap takes it modulo 3.
// CHECK-LABEL: func.func @take
func.func @take(%x: tensor<2x3x4xf32>, %i: tensor<2x5xi32>) -> (tensor<2x2x5x4xf32>, tensor<2x2x5x4xf32>) {
  // CHECK: linalg.generic {indexing_maps = [#[[TAKE_INDICES]], {{.*}}]{{.*}} ins(%arg1 : tensor<2x5xi32>) outs(%{{.*}} : tensor<2x2x5x4xf32>)
  // CHECK: arith.extsi
  // CHECK: arith.constant 2 : i64
  // CHECK: arith.minsi
  // CHECK: arith.maxsi
  // CHECK: %[[N:.*]] = linalg.index 0
  // CHECK: %[[K:.*]] = arith.index_cast
  // CHECK: %[[M:.*]] = linalg.index 3
  // CHECK: tensor.extract %arg0[%[[N]], %[[K]], %[[M]]] : tensor<2x3x4xf32>
  %0 = relay.take %x, %i {axis = 1 : i64} : (tensor<2x3x4xf32>, tensor<2x5xi32>)
  // CHECK: arith.constant 3 : i64
  // CHECK: arith.remsi
  // CHECK: arith.addi
  // CHECK: arith.remsi
  %1 = relay.take %x, %i {axis = 1 : i64, mode = #relay.take_mode<wrap>} : (tensor<2x3x4xf32>, tensor<2x5xi32>)
  return %0, %1 : tensor<2x2x5x4xf32>, tensor<2x2x5x4xf32>
}

// Without an axis the data is flattened first.
// CHECK-LABEL: func.func @take_flat
func.func @take_flat(%x: tensor<2x3xf32>, %i: tensor<4xi64>) -> tensor<4xf32> {
  // CHECK: %[[FLAT:.*]] = tensor.collapse_shape %arg0 {{\[\[}}0, 1]] : tensor<2x3xf32> into tensor<6xf32>
  // CHECK: arith.constant 5 : i64
  // CHECK: tensor.extract %[[FLAT]]
  %0 = relay.take %x, %i : (tensor<2x3xf32>, tensor<4xi64>)
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @pad
func.func @pad(%x: tensor<2x3xf32>, %i: tensor<2x3xi32>) -> (tensor<3x6xf32>, tensor<3x6xi32>, tensor<3x6xf32>, tensor<3x6xf32>) {
  // constant: the result filled with the value, the operand copied into its
  // interior (one buffer, no tensor.pad).
  // CHECK-NOT: tensor.pad
  // CHECK: %[[VALUE:.*]] = arith.constant 1.500000e+00 : f32
  // CHECK: %[[FILLED:.*]] = linalg.fill ins(%[[VALUE]] : f32) outs(%{{.*}} : tensor<3x6xf32>)
  // CHECK: %[[INTERIOR:.*]] = tensor.extract_slice %[[FILLED]][0, 2] [2, 3] [1, 1] : tensor<3x6xf32> to tensor<2x3xf32>
  // CHECK: %[[COPIED:.*]] = linalg.copy ins(%arg0 : tensor<2x3xf32>) outs(%[[INTERIOR]] : tensor<2x3xf32>)
  // CHECK: tensor.insert_slice %[[COPIED]] into %[[FILLED]][0, 2] [2, 3] [1, 1] : tensor<2x3xf32> into tensor<3x6xf32>
  %0 = relay.nn.pad %x {pad_width = array<i64: 0, 1, 2, 1>, pad_value = 1.5 : f64} : (tensor<2x3xf32>)
  // CHECK: arith.fptosi
  // CHECK: linalg.fill
  // CHECK: linalg.copy ins(%arg1 : tensor<2x3xi32>)
  %1 = relay.nn.pad %i {pad_width = array<i64: 0, 1, 2, 1>, pad_value = -2.0 : f64} : (tensor<2x3xi32>)
  // edge clamps the source index.
  // CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<3x6xf32>)
  // CHECK: arith.minsi
  // CHECK: arith.maxsi
  // CHECK: tensor.extract %arg0
  %2 = relay.nn.pad %x {pad_width = array<i64: 0, 1, 2, 1>, pad_mode = #relay.pad_mode<edge>} : (tensor<2x3xf32>)
  // reflect mirrors without repeating the edge.
  // CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<3x6xf32>)
  // CHECK: arith.cmpi slt
  // CHECK: arith.cmpi sgt
  // CHECK: tensor.extract %arg0
  %3 = relay.nn.pad %x {pad_width = array<i64: 0, 1, 2, 1>, pad_mode = #relay.pad_mode<reflect>} : (tensor<2x3xf32>)
  return %0, %1, %2, %3 : tensor<3x6xf32>, tensor<3x6xi32>, tensor<3x6xf32>, tensor<3x6xf32>
}

// The stretched size-1 axis is collapsed away, then linalg.broadcast adds it
// back with the new leading axis.
// CHECK-LABEL: func.func @broadcast_to
func.func @broadcast_to(%x: tensor<3x1xf32>) -> tensor<2x3x4xf32> {
  // CHECK: %[[C:.*]] = tensor.collapse_shape %arg0 {{\[\[}}0, 1]] : tensor<3x1xf32> into tensor<3xf32>
  // CHECK: linalg.broadcast ins(%[[C]] : tensor<3xf32>) outs(%{{.*}} : tensor<2x3x4xf32>) dimensions = [0, 2]
  %0 = relay.broadcast_to %x {shape = array<i64: 2, 3, 4>} : (tensor<3x1xf32>)
  return %0 : tensor<2x3x4xf32>
}
