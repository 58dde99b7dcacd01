// A buffer returned as several results gets a copy per repetition, so that
// promoting results to out-params writes each out-param once; a returned
// view of a local allocation is allocated in the returned shape instead.
// RUN: raf-opt --raf-distinct-return-buffers --split-input-file %s | FileCheck %s
// The whole CPU pipeline on a relay function returning one value twice
// (upstream's out-param promotion crashed on it), run against the evaluator.
// RUN: raf-opt --raf-cpu-pipeline %S/Inputs/repeated-results.mlir -o /dev/null
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.array([1.5, -2, 3, -4], np.float32))"
// RUN: raf-run %S/Inputs/repeated-results.mlir --target=cpu --input=%t/x.npy | FileCheck %s --check-prefix=EXEC
// RUN: raf-run %S/Inputs/repeated-results.mlir --target=interp --input=%t/x.npy | FileCheck %s --check-prefix=EXEC

// CHECK-LABEL: func.func @twice(
// CHECK-SAME: %[[Y:.*]]: memref<4xf32>
// CHECK: %[[A:.*]] = memref.alloc() : memref<4xf32>
// CHECK: memref.copy %[[Y]], %[[A]]
// CHECK: %[[B:.*]] = memref.alloc() : memref<4xf32>
// CHECK: memref.copy %[[A]], %[[B]]
// CHECK: %[[C:.*]] = memref.alloc() : memref<4xf32>
// CHECK: memref.copy %[[A]], %[[C]]
// CHECK: return %[[A]], %[[B]], %[[Y]], %[[C]]
func.func @twice(%y: memref<4xf32>) -> (memref<4xf32>, memref<4xf32>, memref<4xf32>, memref<4xf32>) {
  %a = memref.alloc() : memref<4xf32>
  memref.copy %y, %a : memref<4xf32> to memref<4xf32>
  return %a, %a, %y, %a : memref<4xf32>, memref<4xf32>, memref<4xf32>, memref<4xf32>
}

// -----

// Dynamic sizes are taken from the repeated buffer.
// CHECK-LABEL: func.func @dynamic(
// CHECK-SAME: %[[Y:.*]]: memref<?x4xf32>
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[D:.*]] = memref.dim %[[Y]], %[[C0]]
// CHECK: %[[B:.*]] = memref.alloc(%[[D]]) : memref<?x4xf32>
// CHECK: memref.copy %[[Y]], %[[B]]
// CHECK: return %[[Y]], %[[B]]
func.func @dynamic(%y: memref<?x4xf32>) -> (memref<?x4xf32>, memref<?x4xf32>) {
  return %y, %y : memref<?x4xf32>, memref<?x4xf32>
}

// -----

// Distinct results are left alone.
// CHECK-LABEL: func.func @distinct(
// CHECK-NOT: memref.alloc
// CHECK: return
func.func @distinct(%x: memref<4xf32>, %y: memref<4xf32>) -> (memref<4xf32>, memref<4xf32>) {
  return %x, %y : memref<4xf32>, memref<4xf32>
}

// -----

// A returned view of a local allocation: the allocation is made in the
// returned shape and returned itself (so that it can become the out-param);
// its other users read it through a view of the old shape.
// CHECK-LABEL: func.func @view(
// CHECK: %[[B:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2x3x4xf32>
// CHECK: %[[FLAT:.*]] = memref.collapse_shape %[[B]] {{\[}}[0, 1, 2]]
// CHECK: %[[A:.*]] = memref.expand_shape %[[FLAT]] {{\[}}[0, 1]] output_shape [6, 4]
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[A]] : memref<6x4xf32>)
// CHECK: return %[[B]] : memref<2x3x4xf32>
func.func @view() -> memref<2x3x4xf32> {
  %zero = arith.constant 0.0 : f32
  %a = memref.alloc() {alignment = 64 : i64} : memref<6x4xf32>
  linalg.fill ins(%zero : f32) outs(%a : memref<6x4xf32>)
  %v = memref.expand_shape %a [[0, 1], [2]] output_shape [2, 3, 4] : memref<6x4xf32> into memref<2x3x4xf32>
  return %v : memref<2x3x4xf32>
}

// -----

// Two views of one allocation: the first is returned in place, the second
// (a view of the new allocation) stays a view and is copied by the out-param
// promotion. A view of an argument is left alone.
// CHECK-LABEL: func.func @two_views(
// CHECK: %[[B:.*]] = memref.alloc() : memref<24xf32>
// CHECK: %[[A:.*]] = memref.expand_shape %[[B]]
// CHECK: %[[V:.*]] = memref.expand_shape %[[A]]
// CHECK: %[[W:.*]] = memref.collapse_shape %{{.*}}
// CHECK: return %[[B]], %[[V]], %[[W]]
func.func @two_views(%x: memref<2x3xf32>) -> (memref<24xf32>, memref<2x3x4xf32>, memref<6xf32>) {
  %a = memref.alloc() : memref<6x4xf32>
  %u = memref.collapse_shape %a [[0, 1]] : memref<6x4xf32> into memref<24xf32>
  %v = memref.expand_shape %a [[0, 1], [2]] output_shape [2, 3, 4] : memref<6x4xf32> into memref<2x3x4xf32>
  %w = memref.collapse_shape %x [[0, 1]] : memref<2x3xf32> into memref<6xf32>
  return %u, %v, %w : memref<24xf32>, memref<2x3x4xf32>, memref<6xf32>
}

// EXEC-LABEL: result #0: tensor<4xf32>
// EXEC-NEXT: [1.5, 0, 3, 0]
// EXEC-NEXT: result #1: tensor<4xf32>
// EXEC-NEXT: [1.5, 0, 3, 0]
// EXEC-NEXT: result #2: tensor<4xf32>
// EXEC-NEXT: [3, -4, 6, -8]
// EXEC-NEXT: result #3: tensor<4xf32>
// EXEC-NEXT: [1.5, 0, 3, 0]
