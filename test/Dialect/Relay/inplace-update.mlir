// RUN: raf-opt %s --split-input-file --raf-inplace-update | FileCheck %s
// RUN: raf-opt %s --split-input-file --raf-inplace-update --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --raf-drop-inplace-results --canonicalize | FileCheck %s --check-prefix=BUF

// RAF's InplaceUpdate on --target=cpu: the new parameter (raf.updates_arg =
// 0) is materialized in its argument, the empty tensor the update writes
// becomes the argument, and after bufferization the result is dropped: the
// subtraction writes w's buffer. A state returned unchanged (%v) is dropped
// too; the loss stays a result.

// CHECK-LABEL: func.func @step(
// CHECK-SAME: attributes {raf.inplace_results = array<i64: 1, 0, 2, 2>}
// CHECK: %[[N:.*]] = linalg.generic {{.*}} ins(%arg0, %arg1 : tensor<4xf32>, tensor<4xf32>) outs(%arg0 : tensor<4xf32>)
// CHECK: %[[M:.*]] = bufferization.materialize_in_destination %[[N]] in %arg0
// CHECK: return %{{.*}}, %[[M]], %arg2

// BUF-LABEL: func.func @step(%arg0: memref<4xf32> {raf.updatable}, %arg1: memref<4xf32>, %arg2: memref<4xf32> {raf.updatable}) -> memref<f32> {
// BUF: linalg.generic {{.*}} ins(%arg0, %arg1 : memref<4xf32>, memref<4xf32>) outs(%arg0 : memref<4xf32>)
// BUF-NOT: memref.copy
// BUF: return %{{.*}} : memref<f32>
#map = affine_map<(d0) -> (d0)>
func.func @step(%w: tensor<4xf32> {raf.updatable}, %g: tensor<4xf32>, %v: tensor<4xf32> {raf.updatable})
    -> (tensor<f32>, tensor<4xf32> {raf.updates_arg = 0 : i64}, tensor<4xf32> {raf.updates_arg = 2 : i64}) {
  %e = tensor.empty() : tensor<4xf32>
  %n = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]}
      ins(%w, %g : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.subf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %c = arith.constant 0.0 : f32
  %l = tensor.from_elements %c : tensor<f32>
  return %l, %n, %v : tensor<f32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// A private function is left alone (its callers see its results).
// CHECK-LABEL: func.func private @callee(
// CHECK-NOT: raf.inplace_results
// CHECK-NOT: materialize_in_destination
func.func private @callee(%w: tensor<4xf32> {raf.updatable})
    -> (tensor<4xf32> {raf.updates_arg = 0 : i64}) {
  %n = tensor.empty() : tensor<4xf32>
  return %n : tensor<4xf32>
}

// -----

// The update computed by a fused primitive function is inlined into the
// step, so that it writes the argument's buffer instead of an out-parameter
// copied into it after the call; the callee, now without calls, is erased
// (it would be printed before the step).
// CHECK-NOT: func.func private @update
// CHECK-LABEL: func.func @fused_step(
// CHECK-NOT: call @update
// CHECK: %[[N:.*]] = linalg.generic {{.*}} ins(%arg0, %arg1 : tensor<4xf32>, tensor<4xf32>) outs(%arg0 : tensor<4xf32>)
// CHECK: bufferization.materialize_in_destination %[[N]] in %arg0
// CHECK-NOT: func.func private @update

// BUF-LABEL: func.func @fused_step(%arg0: memref<4xf32> {raf.updatable}, %arg1: memref<4xf32>) -> memref<f32> {
// BUF: linalg.generic {{.*}} ins(%arg0, %arg1 : memref<4xf32>, memref<4xf32>) outs(%arg0 : memref<4xf32>)
// BUF-NOT: memref.copy
#map = affine_map<(d0) -> (d0)>
func.func private @update(%w: tensor<4xf32>, %g: tensor<4xf32>) -> tensor<4xf32>
    attributes {relay.primitive} {
  %e = tensor.empty() : tensor<4xf32>
  %n = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]}
      ins(%w, %g : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.subf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %n : tensor<4xf32>
}
func.func @fused_step(%w: tensor<4xf32> {raf.updatable}, %g: tensor<4xf32>)
    -> (tensor<f32>, tensor<4xf32> {raf.updates_arg = 0 : i64}) {
  %n = call @update(%w, %g) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %c = arith.constant 0.0 : f32
  %l = tensor.from_elements %c : tensor<f32>
  return %l, %n : tensor<f32>, tensor<4xf32>
}

// -----

// An update on collapsed views (--raf-tile-and-vectorize merges the loops of
// element-wise ops): the generic writes the collapsed argument it reads, the
// result is materialized there and expanded back; after bufferization the
// subtraction writes the weight's buffer and nothing is copied (before, the
// empty tensor behind the collapse became a temporary copied into %arg0).
// The empty tensor is also the transpose's destination (CSE merges them).
// CHECK-LABEL: func.func @collapsed_step(
// CHECK: %[[T:.*]] = linalg.transpose
// CHECK: %[[W:.*]] = tensor.collapse_shape %arg0 {{\[\[}}0, 1]]
// CHECK: %[[G:.*]] = tensor.collapse_shape %[[T]]
// CHECK: %[[N:.*]] = linalg.generic {{.*}} ins(%[[W]], %[[G]] : tensor<8xf32>, tensor<8xf32>) outs(%[[W]] : tensor<8xf32>)
// CHECK: %[[M:.*]] = bufferization.materialize_in_destination %[[N]] in %[[W]]
// CHECK: %[[R:.*]] = tensor.expand_shape %[[M]] {{\[\[}}0, 1]] output_shape [4, 2]
// CHECK: return %{{.*}}, %[[R]]

// BUF-LABEL: func.func @collapsed_step(%arg0: memref<4x2xf32> {raf.updatable}, %arg1: memref<4x2xf32>) -> memref<f32> {
// BUF: %[[W:.*]] = memref.collapse_shape %arg0 {{\[\[}}0, 1]]
// BUF: linalg.generic {{.*}} outs(%[[W]] : memref<8xf32>)
// BUF-NOT: memref.copy
// BUF: return %{{.*}} : memref<f32>
#map = affine_map<(d0) -> (d0)>
func.func @collapsed_step(%w: tensor<4x2xf32> {raf.updatable}, %g: tensor<4x2xf32>)
    -> (tensor<f32>, tensor<4x2xf32> {raf.updates_arg = 0 : i64}) {
  %e = tensor.empty() : tensor<4x2xf32>
  %t = linalg.transpose ins(%g : tensor<4x2xf32>) outs(%e : tensor<4x2xf32>) permutation = [0, 1]
  %cw = tensor.collapse_shape %w [[0, 1]] : tensor<4x2xf32> into tensor<8xf32>
  %cg = tensor.collapse_shape %t [[0, 1]] : tensor<4x2xf32> into tensor<8xf32>
  %ce = tensor.collapse_shape %e [[0, 1]] : tensor<4x2xf32> into tensor<8xf32>
  %n = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]}
      ins(%cw, %cg : tensor<8xf32>, tensor<8xf32>) outs(%ce : tensor<8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.subf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %r = tensor.expand_shape %n [[0, 1]] output_shape [4, 2] : tensor<8xf32> into tensor<4x2xf32>
  %c = arith.constant 0.0 : f32
  %l = tensor.from_elements %c : tensor<f32>
  return %l, %r : tensor<f32>, tensor<4x2xf32>
}

// -----

// Refused: the destination is a reshape of an empty tensor of another shape
// than the argument (4x2, not 2x4), so the IR is left as it was, and
// bufferization writes a temporary that it copies into %arg0.
// CHECK-LABEL: func.func @other_shape_step(
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4x2xf32>
// CHECK: %[[C:.*]] = tensor.collapse_shape %[[E]] {{\[\[}}0, 1]]
// CHECK: %[[N:.*]] = linalg.generic {{.*}} outs(%[[C]] : tensor<8xf32>)
// CHECK: %[[R:.*]] = tensor.expand_shape %[[N]] {{\[\[}}0, 1]] output_shape [2, 4]
// CHECK: bufferization.materialize_in_destination %[[R]] in %arg0

// BUF-LABEL: func.func @other_shape_step(
// BUF: memref.copy %{{.*}}, %arg0
#map = affine_map<(d0) -> (d0)>
func.func @other_shape_step(%w: tensor<2x4xf32> {raf.updatable}, %g: tensor<8xf32>)
    -> (tensor<f32>, tensor<2x4xf32> {raf.updates_arg = 0 : i64}) {
  %e = tensor.empty() : tensor<4x2xf32>
  %ce = tensor.collapse_shape %e [[0, 1]] : tensor<4x2xf32> into tensor<8xf32>
  %n = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]}
      ins(%g : tensor<8xf32>) outs(%ce : tensor<8xf32>) {
  ^bb0(%b: f32, %o: f32):
    %s = arith.negf %b : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %r = tensor.expand_shape %n [[0, 1]] output_shape [2, 4] : tensor<8xf32> into tensor<2x4xf32>
  %c = arith.constant 0.0 : f32
  %l = tensor.from_elements %c : tensor<f32>
  return %l, %r : tensor<f32>, tensor<2x4xf32>
}

// -----

// Refused: the old weight is read after the update (%old), so the update is
// not pointed at the weight's collapsed view: bufferization would have to
// copy that view for the late read and the update would land in the copy
// (the parameter left unwritten). The update keeps its temporary, which is
// copied into %arg0 after the late read.
// CHECK-LABEL: func.func @late_read_step(
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4x2xf32>
// CHECK: %[[CE:.*]] = tensor.collapse_shape %[[E]] {{\[\[}}0, 1]]
// CHECK: linalg.generic {{.*}} outs(%[[CE]] : tensor<8xf32>)
// CHECK: bufferization.materialize_in_destination %{{.*}} in %arg0

// BUF-LABEL: func.func @late_read_step(
// BUF: linalg.generic {{.*}} ins(%arg0 : memref<4x2xf32>)
// BUF: memref.copy %{{.*}}, %arg0
#map = affine_map<(d0) -> (d0)>
#map2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @late_read_step(%w: tensor<4x2xf32> {raf.updatable}, %g: tensor<4x2xf32>)
    -> (tensor<4x2xf32>, tensor<4x2xf32> {raf.updates_arg = 0 : i64}) {
  %e = tensor.empty() : tensor<4x2xf32>
  %cw = tensor.collapse_shape %w [[0, 1]] : tensor<4x2xf32> into tensor<8xf32>
  %cg = tensor.collapse_shape %g [[0, 1]] : tensor<4x2xf32> into tensor<8xf32>
  %ce = tensor.collapse_shape %e [[0, 1]] : tensor<4x2xf32> into tensor<8xf32>
  %n = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]}
      ins(%cw, %cg : tensor<8xf32>, tensor<8xf32>) outs(%ce : tensor<8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.subf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %r = tensor.expand_shape %n [[0, 1]] output_shape [4, 2] : tensor<8xf32> into tensor<4x2xf32>
  %e2 = tensor.empty() : tensor<4x2xf32>
  %old = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel"]}
      ins(%w : tensor<4x2xf32>) outs(%e2 : tensor<4x2xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %a : f32
    linalg.yield %s : f32
  } -> tensor<4x2xf32>
  return %old, %r : tensor<4x2xf32>, tensor<4x2xf32>
}

// -----

// A callee still called after the inlining (here for a result that is not
// an update) is kept; the two updates it computes are inlined.
// CHECK: func.func private @shared_update(
// CHECK-LABEL: func.func @shared_step(
// CHECK: call @shared_update(%arg2, %arg2)
// CHECK-NOT: call @shared_update
// CHECK: return
#map = affine_map<(d0) -> (d0)>
func.func private @shared_update(%w: tensor<4xf32>, %g: tensor<4xf32>) -> tensor<4xf32>
    attributes {relay.primitive} {
  %e = tensor.empty() : tensor<4xf32>
  %n = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]}
      ins(%w, %g : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.subf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %n : tensor<4xf32>
}
func.func @shared_step(%w: tensor<4xf32> {raf.updatable}, %v: tensor<4xf32> {raf.updatable}, %g: tensor<4xf32>)
    -> (tensor<4xf32>, tensor<4xf32> {raf.updates_arg = 0 : i64}, tensor<4xf32> {raf.updates_arg = 1 : i64}) {
  %a = call @shared_update(%w, %g) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %b = call @shared_update(%v, %g) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %c = call @shared_update(%g, %g) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %c, %a, %b : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
