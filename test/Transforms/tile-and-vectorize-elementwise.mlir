// RUN: raf-opt --split-input-file --raf-tile-and-vectorize %s | FileCheck %s

// An elementwise epilogue over 14x14 planes with per-channel operands
// ([C, 1, 1] indexed through unit dimensions): the operands lose their unit
// dimensions and the two trailing loops become one of 196.

// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[CH:.*]] = affine_map<(d0, d1, d2) -> (d1)>
// CHECK-DAG: #[[SCALAR:.*]] = affine_map<(d0, d1, d2) -> ()>
// CHECK-LABEL: func.func @per_channel
// CHECK-DAG: %[[S:.*]] = tensor.collapse_shape %arg1 {{\[\[}}0, 1, 2]] : tensor<8x1x1xf32> into tensor<8xf32>
// CHECK-DAG: %[[X:.*]] = tensor.collapse_shape %arg0 {{\[\[}}0], [1], [2, 3]] : tensor<1x8x14x14xf32> into tensor<1x8x196xf32>
// CHECK: %[[G:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[CH]], #[[SCALAR]], #[[ID]]], iterator_types = ["parallel", "parallel", "parallel"]}
// CHECK-SAME: ins(%[[X]], %[[S]], %arg2 : tensor<1x8x196xf32>, tensor<8xf32>, tensor<f32>)
// CHECK: tensor.expand_shape %[[G]] {{\[\[}}0], [1], [2, 3]] output_shape [1, 8, 14, 14]
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>
#scalar = affine_map<(d0, d1, d2, d3) -> ()>
func.func @per_channel(%x: tensor<1x8x14x14xf32>, %s: tensor<8x1x1xf32>, %m: tensor<f32>) -> tensor<1x8x14x14xf32> {
  %empty = tensor.empty() : tensor<1x8x14x14xf32>
  %0 = linalg.generic {indexing_maps = [#id, #ch, #scalar, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
         ins(%x, %s, %m : tensor<1x8x14x14xf32>, tensor<8x1x1xf32>, tensor<f32>) outs(%empty : tensor<1x8x14x14xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %out: f32):
    %1 = arith.mulf %a, %b : f32
    %2 = arith.minimumf %1, %c : f32
    linalg.yield %2 : f32
  } -> tensor<1x8x14x14xf32>
  return %0 : tensor<1x8x14x14xf32>
}

// -----

// Same-shaped operands (with an i1 result): one loop over everything.

// CHECK-LABEL: func.func @flat
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel"]
// CHECK-SAME: ins(%{{.*}}, %{{.*}} : tensor<1568xf32>, tensor<1568xf32>)
// CHECK-SAME: outs(%{{.*}} : tensor<1568xi1>)
// CHECK: tensor.expand_shape
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @flat(%x: tensor<1x8x14x14xf32>, %y: tensor<1x8x14x14xf32>) -> tensor<1x8x14x14xi1> {
  %empty = tensor.empty() : tensor<1x8x14x14xi1>
  %0 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
         ins(%x, %y : tensor<1x8x14x14xf32>, tensor<1x8x14x14xf32>) outs(%empty : tensor<1x8x14x14xi1>) {
  ^bb0(%a: f32, %b: f32, %out: i1):
    %1 = arith.cmpf ole, %a, %b : f32
    linalg.yield %1 : i1
  } -> tensor<1x8x14x14xi1>
  return %0 : tensor<1x8x14x14xi1>
}

// -----

// A transposed operand breaks contiguity: nothing is merged.

// CHECK-LABEL: func.func @transposed
// CHECK-NOT: tensor.collapse_shape
// CHECK: iterator_types = ["parallel", "parallel"]
#t = affine_map<(d0, d1) -> (d1, d0)>
#i2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @transposed(%x: tensor<4x6xf32>) -> tensor<6x4xf32> {
  %empty = tensor.empty() : tensor<6x4xf32>
  %0 = linalg.generic {indexing_maps = [#t, #i2], iterator_types = ["parallel", "parallel"]}
         ins(%x : tensor<4x6xf32>) outs(%empty : tensor<6x4xf32>) {
  ^bb0(%a: f32, %out: f32):
    linalg.yield %a : f32
  } -> tensor<6x4xf32>
  return %0 : tensor<6x4xf32>
}

// -----

// An operand sliced with stride 2 is not contiguous across its trailing
// dimensions (merging them would copy the slice): nothing is merged. A
// unit-stride slice that is full-size only along its last dimension lets
// the last two loops merge, not all three.

// CHECK-LABEL: func.func @sliced
// CHECK: %[[STRIDED:.*]] = tensor.extract_slice %arg0[0, 1, 1] [4, 4, 8] [1, 2, 2]
// CHECK-NOT: tensor.collapse_shape %[[STRIDED]]
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel"]
// CHECK-SAME: ins(%[[STRIDED]], %arg1 : tensor<4x4x8xf32>, tensor<4x4x8xf32>)
// CHECK: %[[PARTIAL:.*]] = tensor.extract_slice %arg2[0, 2, 0] [4, 4, 8] [1, 1, 1]
// CHECK: tensor.collapse_shape %[[PARTIAL]] {{\[\[}}0], [1, 2]] : tensor<4x4x8xf32> into tensor<4x32xf32>
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @sliced(%x: tensor<4x9x17xf32>, %y: tensor<4x4x8xf32>, %z: tensor<4x9x8xf32>) -> (tensor<4x4x8xf32>, tensor<4x4x8xf32>) {
  %s = tensor.extract_slice %x[0, 1, 1] [4, 4, 8] [1, 2, 2] : tensor<4x9x17xf32> to tensor<4x4x8xf32>
  %e = tensor.empty() : tensor<4x4x8xf32>
  %0 = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %y : tensor<4x4x8xf32>, tensor<4x4x8xf32>) outs(%e : tensor<4x4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<4x4x8xf32>
  %p = tensor.extract_slice %z[0, 2, 0] [4, 4, 8] [1, 1, 1] : tensor<4x9x8xf32> to tensor<4x4x8xf32>
  %1 = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%p, %y : tensor<4x4x8xf32>, tensor<4x4x8xf32>) outs(%e : tensor<4x4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.addf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<4x4x8xf32>
  return %0, %1 : tensor<4x4x8xf32>, tensor<4x4x8xf32>
}
