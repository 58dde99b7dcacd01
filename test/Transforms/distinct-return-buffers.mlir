// A buffer returned as several results gets a copy per repetition, so that
// promoting results to out-params writes each out-param once.
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

// EXEC-LABEL: result #0: tensor<4xf32>
// EXEC-NEXT: [1.5, 0, 3, 0]
// EXEC-NEXT: result #1: tensor<4xf32>
// EXEC-NEXT: [1.5, 0, 3, 0]
// EXEC-NEXT: result #2: tensor<4xf32>
// EXEC-NEXT: [3, -4, 6, -8]
// EXEC-NEXT: result #3: tensor<4xf32>
// EXEC-NEXT: [1.5, 0, 3, 0]
