// raf-run --target=cpu compiles the entry inlined into its C wrapper (no
// call passing every descriptor field: 1,340 arguments for ResNet-50, whose
// lowering dominated LLVM's time), and never inlines the fused kernels into
// it (each distinct kernel is compiled once, the entry stays a sequence of
// calls). The result is unchanged.
// RUN: rm -rf %t && mkdir -p %t
// RUN: raf-run %s --target=cpu --seed=2 --print-lowered --output=%t/cpu.npy 2>&1 | FileCheck %s
// RUN: raf-run %s --target=interp --seed=2 --output=%t/ref.npy
// RUN: %python -c "import numpy as np; np.testing.assert_allclose(np.load('%t/cpu.npy'), np.load('%t/ref.npy'), rtol=1e-5, atol=1e-6); print('equal')" | FileCheck %s --check-prefix=EXEC
// EXEC: equal
// Each kernel computes its result in its out-parameter (memref.alloc's
// AllocationOpInterface is registered for --buffer-results-to-out-params):
// one copy is left, where there was one per kernel result.
// RUN: raf-run %s --target=cpu --seed=2 --print-lowered 2>&1 | FileCheck %s --check-prefix=COPIES
// COPIES-COUNT-1: llvm.intr.memcpy
// COPIES-NOT: llvm.intr.memcpy

// CHECK-DAG: llvm.func internal @main({{.*}}) attributes {always_inline
// CHECK-DAG: llvm.func @_mlir_ciface_main(
// CHECK-DAG: llvm.func @main_fused_0({{.*}}) attributes {no_inline
// CHECK-DAG: llvm.func @main_fused_1({{.*}}) attributes {no_inline
// CHECK-DAG: llvm.func @main_fused_2({{.*}}) attributes {no_inline

func.func @main(%x: tensor<4x16xf32>, %w: tensor<8x16xf32>, %g: tensor<16xf32>, %v: tensor<16xf32>) -> tensor<4x8xf32> {
  %e = relay.constant dense<1.0e-05> : tensor<f32>
  %s = relay.add %v, %e : (tensor<16xf32>, tensor<f32>) -> tensor<16xf32>
  %r = relay.rsqrt %s : (tensor<16xf32>) -> tensor<16xf32>
  %k = relay.multiply %g, %r : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  %y = relay.multiply %x, %k : (tensor<4x16xf32>, tensor<16xf32>) -> tensor<4x16xf32>
  %d = relay.nn.dense %y, %w : (tensor<4x16xf32>, tensor<8x16xf32>) -> tensor<4x8xf32>
  %p = relay.nn.softmax %d {axis = -1 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %p : tensor<4x8xf32>
}
