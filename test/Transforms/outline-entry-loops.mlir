// The linalg ops left in a public function become calls of private
// functions, one per distinct op; elementwise ones take dynamically sized
// buffers, so updates of different sizes share one function.
// RUN: raf-opt --raf-outline-entry-loops --split-input-file %s | FileCheck %s

// Two SGD updates of different sizes and a third of the first size: one
// function. The transpose keeps its static types; its twin merges with it.
// The private function's op is left alone.
// CHECK-LABEL: func.func @step(
// CHECK-SAME: %[[W1:[^:]*]]: memref<8xf32>, %[[G1:[^:]*]]: memref<8xf32>, %[[W2:[^:]*]]: memref<4xf32>, %[[G2:[^:]*]]: memref<4xf32>, %[[W3:[^:]*]]: memref<8xf32>, %[[G3:[^:]*]]: memref<8xf32>, %[[LR:[^:]*]]: memref<f32>
// CHECK-NOT: linalg.
// CHECK: %[[C1:.*]] = memref.cast %[[W1]] : memref<8xf32> to memref<?xf32>
// CHECK: %[[C2:.*]] = memref.cast %[[G1]] : memref<8xf32> to memref<?xf32>
// CHECK: call @[[UPDATE:step_loops_[0-9]+]](%[[C1]], %[[LR]], %[[C2]]) : (memref<?xf32>, memref<f32>, memref<?xf32>) -> ()
// CHECK: memref.cast %[[W2]] : memref<4xf32> to memref<?xf32>
// CHECK: call @[[UPDATE]](
// CHECK: call @[[UPDATE]](
// CHECK: call @[[TRANSPOSE:step_loops_[0-9]+]](%{{.*}}, %{{.*}}) : (memref<2x3xf32>, memref<3x2xf32>) -> ()
// CHECK: call @[[TRANSPOSE]](
// CHECK-NOT: linalg.
// CHECK: return
// CHECK: func.func private @[[UPDATE]](%[[W:.*]]: memref<?xf32>, %[[R:.*]]: memref<f32>, %[[G:.*]]: memref<?xf32>) {
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[W]], %[[R]], %[[G]] : memref<?xf32>, memref<f32>, memref<?xf32>) outs(%[[W]] : memref<?xf32>)
// CHECK: func.func private @[[TRANSPOSE]](%{{.*}}: memref<2x3xf32>, %{{.*}}: memref<3x2xf32>) {
// CHECK-NEXT: linalg.transpose
// CHECK-NOT: func.func private @step_loops
// CHECK: func.func private @kernel(
// CHECK-NEXT: linalg.generic

#update = {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
func.func @step(%w1: memref<8xf32>, %g1: memref<8xf32>, %w2: memref<4xf32>, %g2: memref<4xf32>, %w3: memref<8xf32>, %g3: memref<8xf32>, %lr: memref<f32>, %a: memref<2x3xf32>, %b: memref<3x2xf32>, %c: memref<2x3xf32>, %d: memref<3x2xf32>) {
  linalg.generic #update ins(%w1, %lr, %g1 : memref<8xf32>, memref<f32>, memref<8xf32>) outs(%w1 : memref<8xf32>) {
  ^bb0(%w: f32, %r: f32, %g: f32, %out: f32):
    %0 = arith.mulf %r, %g : f32
    %1 = arith.subf %w, %0 : f32
    linalg.yield %1 : f32
  }
  linalg.generic #update ins(%w2, %lr, %g2 : memref<4xf32>, memref<f32>, memref<4xf32>) outs(%w2 : memref<4xf32>) {
  ^bb0(%w: f32, %r: f32, %g: f32, %out: f32):
    %0 = arith.mulf %r, %g : f32
    %1 = arith.subf %w, %0 : f32
    linalg.yield %1 : f32
  }
  linalg.generic #update ins(%w3, %lr, %g3 : memref<8xf32>, memref<f32>, memref<8xf32>) outs(%w3 : memref<8xf32>) {
  ^bb0(%w: f32, %r: f32, %g: f32, %out: f32):
    %0 = arith.mulf %r, %g : f32
    %1 = arith.subf %w, %0 : f32
    linalg.yield %1 : f32
  }
  linalg.transpose ins(%a : memref<2x3xf32>) outs(%b : memref<3x2xf32>) permutation = [1, 0]
  linalg.transpose ins(%c : memref<2x3xf32>) outs(%d : memref<3x2xf32>) permutation = [1, 0]
  call @kernel(%w1) : (memref<8xf32>) -> ()
  return
}
func.func private @kernel(%x: memref<8xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%x : memref<8xf32>) {
  ^bb0(%out: f32):
    %0 = arith.addf %out, %out : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

// Not elementwise (a broadcast, a strided view): static types. A region that
// uses a value from outside other than a constant stays; a constant is
// cloned into the function.
// CHECK-LABEL: func.func @other(
// CHECK: call @[[BCAST:other_loops_[0-9]+]](%{{.*}}, %{{.*}}) : (memref<4xf32>, memref<2x4xf32>) -> ()
// CHECK: call @[[STRIDED:other_loops_[0-9]+]](%{{.*}}) : (memref<4xf32, strided<[2]>>) -> ()
// CHECK: linalg.generic
// CHECK: arith.addf %{{.*}}, %arg3
// CHECK: return
// CHECK: func.func private @[[BCAST]](
// CHECK: func.func private @[[STRIDED]](%{{.*}}: memref<4xf32, strided<[2]>>) {
// CHECK-NEXT: %[[TWO:.*]] = arith.constant 2.0
// CHECK-NEXT: linalg.generic
// CHECK: arith.mulf %{{.*}}, %[[TWO]]
func.func @other(%x: memref<4xf32>, %y: memref<2x4xf32>, %z: memref<4xf32, strided<[2]>>, %s: f32) {
  %two = arith.constant 2.0 : f32
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : memref<4xf32>) outs(%y : memref<2x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%z : memref<4xf32, strided<[2]>>) {
  ^bb0(%out: f32):
    %0 = arith.mulf %out, %two : f32
    linalg.yield %0 : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%x : memref<4xf32>) {
  ^bb0(%out: f32):
    %0 = arith.addf %out, %s : f32
    linalg.yield %0 : f32
  }
  return
}
