// Copies that are not one contiguous block become linalg.copy (loops, which
// LLVM vectorises); contiguous ones stay memref.copy (memcpy).
// RUN: raf-opt --raf-strided-copies-to-loops %s | FileCheck %s
// The interior of a padded buffer, lowered to loops by the CPU pipeline and
// run: equal to the evaluator's padding.
// RUN: rm -rf %t && mkdir -p %t
// RUN: raf-run %s --entry=pad --target=cpu --seed=3 --output=%t/cpu.npy
// RUN: raf-run %s --entry=pad --target=interp --seed=3 --output=%t/ref.npy
// RUN: %python -c "import numpy as np; np.testing.assert_array_equal(np.load('%t/cpu.npy'), np.load('%t/ref.npy')); print('equal')" | FileCheck %s --check-prefix=EXEC
// EXEC: equal

// CHECK-LABEL: func.func @interior(
// CHECK: %[[SUB:.*]] = memref.subview
// CHECK: linalg.copy ins(%{{.*}} : memref<2x3x4xf32>) outs(%[[SUB]] : memref<2x3x4xf32, strided<[30, 6, 1], offset: 7>>)
// CHECK-NOT: memref.copy
func.func @interior(%x: memref<2x3x4xf32>, %y: memref<2x5x6xf32>) {
  %sub = memref.subview %y[0, 1, 1] [2, 3, 4] [1, 1, 1] : memref<2x5x6xf32> to memref<2x3x4xf32, strided<[30, 6, 1], offset: 7>>
  memref.copy %x, %sub : memref<2x3x4xf32> to memref<2x3x4xf32, strided<[30, 6, 1], offset: 7>>
  return
}

// CHECK-LABEL: func.func @contiguous(
// CHECK: memref.copy
// CHECK: memref.copy
// CHECK-NOT: linalg.copy
func.func @contiguous(%x: memref<2x3xf32>, %y: memref<2x3xf32>, %z: memref<4x3xf32>) {
  memref.copy %x, %y : memref<2x3xf32> to memref<2x3xf32>
  %rows = memref.subview %z[2, 0] [2, 3] [1, 1] : memref<4x3xf32> to memref<2x3xf32, strided<[3, 1], offset: 6>>
  memref.copy %x, %rows : memref<2x3xf32> to memref<2x3xf32, strided<[3, 1], offset: 6>>
  return
}

func.func @pad(%x: tensor<1x3x5x7xf32>) -> tensor<1x3x7x9xf32> {
  %y = relay.nn.pad %x {pad_width = array<i64: 0, 0, 0, 0, 1, 1, 1, 1>} : (tensor<1x3x5x7xf32>) -> tensor<1x3x7x9xf32>
  return %y : tensor<1x3x7x9xf32>
}
