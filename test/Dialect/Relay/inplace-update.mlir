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
