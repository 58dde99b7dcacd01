// --raf-training-pipeline: calls are inlined, the entry is differentiated and
// an optimizer step is appended; the step compiles for the CPU.
// RUN: raf-opt --raf-training-pipeline="requires-grad=1 optimizer=momentum lr=0.5" %s | FileCheck %s
// RUN: raf-opt --raf-training-pipeline="requires-grad=1" %s | raf-opt --raf-cpu-pipeline | FileCheck %s --check-prefix=LLVM

// CHECK-LABEL: func.func @main(
// CHECK-SAME: raf.grad_params = array<i64: 1>
// CHECK-NOT: func.call
// CHECK-LABEL: func.func @train_step(%arg0: tensor<4xf32> {raf.updatable}, %arg1: tensor<4xf32> {raf.updatable}, %arg2: tensor<4xf32>)
// CHECK-SAME: -> (tensor<f32>, tensor<4xf32> {raf.updates_arg = 0 : i64}, tensor<4xf32> {raf.updates_arg = 1 : i64})
// CHECK-SAME: raf.optimizer = "momentum"
// CHECK-NOT: func.call
// CHECK-NOT: relay.fn
// CHECK: return

// LLVM: llvm.func @train_step
func.func @square_error(%p: tensor<4xf32>, %x: tensor<4xf32>) -> tensor<f32> {
  %d = relay.subtract %p, %x : (tensor<4xf32>, tensor<4xf32>)
  %s = relay.multiply %d, %d : (tensor<4xf32>, tensor<4xf32>)
  %l = relay.sum %s : (tensor<4xf32>)
  return %l : tensor<f32>
}

func.func @main(%x: tensor<4xf32>, %w: tensor<4xf32>) -> tensor<f32> {
  %l = func.call @square_error(%w, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
