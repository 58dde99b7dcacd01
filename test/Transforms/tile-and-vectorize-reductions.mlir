// RUN: raf-opt --split-input-file --raf-tile-and-vectorize=vector-bits=512 %s | FileCheck %s

// A batch-norm statistic: a sum over the N, H, W of each channel. The H, W
// loops are merged into one of 196, which becomes a vector loop of 16 lanes
// (the last block masked) reduced once onto the output element.

// CHECK-LABEL: func.func @channel_sum
// CHECK: %[[X:.*]] = tensor.collapse_shape %arg0 {{\[\[}}0], [1], [2, 3]] : tensor<2x8x14x14xf32> into tensor<2x8x196xf32>
// CHECK: scf.for %[[N:.*]] = %c0 to %c2 step %c1 iter_args
// CHECK: scf.for %[[C:.*]] = %c0 to %c8 step %c1 iter_args(%[[OUT:.*]] = %{{.*}})
// CHECK: %[[ACC:.*]] = scf.for %[[K:.*]] = %c0 to %c196 step %c16 iter_args(%[[V:.*]] = %cst{{.*}}) -> (vector<16xf32>)
// CHECK: %[[READ:.*]] = vector.transfer_read %[[X]][%[[N]], %[[C]], %[[K]]]
// CHECK: %[[ADD:.*]] = arith.addf %[[V]], %[[READ]] : vector<16xf32>
// CHECK: %[[LEFT:.*]] = arith.subi %c196, %[[K]]
// CHECK: %[[MASK:.*]] = vector.create_mask %[[LEFT]] : vector<16xi1>
// CHECK: arith.select %[[MASK]], %[[ADD]], %[[V]]
// CHECK: %[[OLD:.*]] = tensor.extract %[[OUT]][%[[C]]]
// CHECK: %[[TOTAL:.*]] = vector.reduction <add>, %[[ACC]], %[[OLD]] : vector<16xf32> into f32
// CHECK: tensor.insert %[[TOTAL]] into %[[OUT]][%[[C]]]
// CHECK-NOT: linalg.reduce
func.func @channel_sum(%x: tensor<2x8x14x14xf32>) -> tensor<8xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<8xf32>) -> tensor<8xf32>
  %0 = linalg.reduce ins(%x : tensor<2x8x14x14xf32>) outs(%init : tensor<8xf32>) dimensions = [0, 2, 3]
    (%in: f32, %acc: f32) {
      %1 = arith.addf %in, %acc : f32
      linalg.yield %1 : f32
    }
  return %0 : tensor<8xf32>
}

// -----

// A sum of elementwise arithmetic (batch-norm backward's sum of
// (x - mean) * dy) with a per-channel operand: the body runs on vectors, the
// per-channel value broadcast; the extent 64 needs no mask.

// CHECK-LABEL: func.func @centered_product
// CHECK: scf.for %{{.*}} = %c0 to %c64 step %c16 iter_args(%[[V:.*]] = %cst{{.*}}) -> (vector<16xf32>)
// CHECK-DAG: %[[X:.*]] = vector.transfer_read %arg0
// CHECK-DAG: %[[G:.*]] = vector.transfer_read %arg1
// CHECK-DAG: %[[M:.*]] = tensor.extract %arg2
// CHECK: %[[MB:.*]] = vector.broadcast %[[M]] : f32 to vector<16xf32>
// CHECK: %[[D:.*]] = arith.subf %[[X]], %[[MB]] : vector<16xf32>
// CHECK: %[[P:.*]] = arith.mulf %[[D]], %[[G]] : vector<16xf32>
// CHECK: %[[S:.*]] = arith.addf %[[V]], %[[P]] : vector<16xf32>
// CHECK-NOT: create_mask
// CHECK: scf.yield %[[S]]
// CHECK: vector.reduction <add>
#x = affine_map<(c, k) -> (c, k)>
#c = affine_map<(c, k) -> (c)>
func.func @centered_product(%x: tensor<4x64xf32>, %g: tensor<4x64xf32>, %mean: tensor<4xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.generic {indexing_maps = [#x, #x, #c, #c], iterator_types = ["parallel", "reduction"]}
         ins(%x, %g, %mean : tensor<4x64xf32>, tensor<4x64xf32>, tensor<4xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32, %m: f32, %out: f32):
    %1 = arith.subf %a, %m : f32
    %2 = arith.mulf %1, %b : f32
    %3 = arith.addf %out, %2 : f32
    linalg.yield %3 : f32
  } -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Not taken: a maximum (not a sum), a matrix product (inputs indexed
// differently), a reduction that is not innermost, an i1 input.

// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: vector.reduction
// CHECK: linalg.reduce
// CHECK: arith.maximumf
// CHECK-NOT: vector.reduction
// CHECK: linalg.reduce
// CHECK-NOT: vector.reduction
// CHECK: linalg.generic
// CHECK-NOT: vector.reduction
// CHECK: return
#r = affine_map<(c, k) -> (c, k)>
#o = affine_map<(c, k) -> (c)>
func.func @left_alone(%x: tensor<4x64xf32>, %a: tensor<8x64xf32>, %b: tensor<64x8xf32>, %mm: tensor<8x8xf32>, %init: tensor<4xf32>, %init64: tensor<64xf32>, %mask: tensor<4x64xi1>) -> (tensor<4xf32>, tensor<8x8xf32>, tensor<64xf32>, tensor<4xf32>) {
  %0 = linalg.reduce ins(%x : tensor<4x64xf32>) outs(%init : tensor<4xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    }
  %1 = linalg.matmul ins(%a, %b : tensor<8x64xf32>, tensor<64x8xf32>) outs(%mm : tensor<8x8xf32>) -> tensor<8x8xf32>
  %2 = linalg.reduce ins(%x : tensor<4x64xf32>) outs(%init64 : tensor<64xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %3 = linalg.generic {indexing_maps = [#r, #r, #o], iterator_types = ["parallel", "reduction"]}
         ins(%x, %mask : tensor<4x64xf32>, tensor<4x64xi1>) outs(%init : tensor<4xf32>) {
  ^bb0(%v: f32, %keep: i1, %out: f32):
    %z = arith.constant 0.0 : f32
    %sel = arith.select %keep, %v, %z : f32
    %s = arith.addf %out, %sel : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %0, %1, %2, %3 : tensor<4xf32>, tensor<8x8xf32>, tensor<64xf32>, tensor<4xf32>
}

// -----

// A 7x7 plane: the extent of 49 is checked after the H, W loops are merged
// (each alone is shorter than a vector loop is worth).

// CHECK-LABEL: func.func @channel_sum_7x7
// CHECK: %[[X:.*]] = tensor.collapse_shape %arg0 {{\[\[}}0], [1], [2, 3]] : tensor<2x8x7x7xf32> into tensor<2x8x49xf32>
// CHECK: scf.for %{{.*}} = %c0 to %c49 step %c16 iter_args(%{{.*}} = %cst{{.*}}) -> (vector<16xf32>)
// CHECK: vector.transfer_read %[[X]]
// CHECK: vector.create_mask
// CHECK: vector.reduction <add>
// CHECK-NOT: linalg.reduce
func.func @channel_sum_7x7(%x: tensor<2x8x7x7xf32>) -> tensor<8xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<8xf32>) -> tensor<8xf32>
  %0 = linalg.reduce ins(%x : tensor<2x8x7x7xf32>) outs(%init : tensor<8xf32>) dimensions = [0, 2, 3]
    (%in: f32, %acc: f32) {
      %1 = arith.addf %in, %acc : f32
      linalg.yield %1 : f32
    }
  return %0 : tensor<8xf32>
}

// -----

// Not taken: a diagonal read along the reduced loop (x[n, i, i]: a vector
// of x[n, i, i..i+15] would be the wrong elements), and a summand with an
// integer division (the padded lanes of the last block would divide by
// zero).

// CHECK-LABEL: func.func @diagonal
// CHECK-NOT: vector.
// CHECK: linalg.generic
// CHECK-NOT: vector.
// CHECK: return
#diag = affine_map<(d0, d1) -> (d0, d1, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @diagonal(%x: tensor<2x16x16xf32>) -> tensor<2xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2xf32>) -> tensor<2xf32>
  %r = linalg.generic {indexing_maps = [#diag, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<2x16x16xf32>) outs(%f : tensor<2xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %o, %a : f32
    linalg.yield %s : f32
  } -> tensor<2xf32>
  return %r : tensor<2xf32>
}

// CHECK-LABEL: func.func @integer_division
// CHECK-NOT: vector.
// CHECK: linalg.generic
// CHECK: arith.divsi
// CHECK-NOT: vector.
// CHECK: return
#x2 = affine_map<(d0, d1) -> (d0, d1)>
#o2 = affine_map<(d0, d1) -> (d0)>
func.func @integer_division(%a: tensor<3x9xi32>, %b: tensor<3x9xi32>, %init: tensor<3xf32>) -> tensor<3xf32> {
  %0 = linalg.generic {indexing_maps = [#x2, #x2, #o2], iterator_types = ["parallel", "reduction"]}
         ins(%a, %b : tensor<3x9xi32>, tensor<3x9xi32>) outs(%init : tensor<3xf32>) {
  ^bb0(%p: i32, %q: i32, %out: f32):
    %d = arith.divsi %p, %q : i32
    %f = arith.sitofp %d : i32 to f32
    %s = arith.addf %out, %f : f32
    linalg.yield %s : f32
  } -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
