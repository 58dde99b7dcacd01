// Arguments marked raf.requires_grad choose what --raf-autodiff
// differentiates when the requires-grad option is not given: the input and
// the batch-norm running statistics (false) get no gradient; the option
// overrides the marks.
// RUN: raf-opt --raf-autodiff="inline-backward=true" %s | FileCheck %s
// RUN: raf-opt --raf-autodiff="inline-backward=true requires-grad=0,1" %s | FileCheck %s --check-prefix=OPTION
// RUN: raf-opt --raf-training-pipeline %s | FileCheck %s --check-prefix=STEP

// CHECK-LABEL: func.func @main
// CHECK-SAME: -> (tensor<f32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>)
// CHECK-SAME: raf.grad_params = array<i64: 1, 2>
// OPTION: raf.grad_params = array<i64: 0, 1>
// STEP-LABEL: func.func @train_step
// STEP-SAME: raf.num_aux = 2 : i64, raf.num_params = 2 : i64
func.func @main(%x: tensor<4x3xf32> {raf.requires_grad = false},
                %gamma: tensor<3xf32> {raf.requires_grad = true},
                %beta: tensor<3xf32> {raf.requires_grad = true},
                %mean: tensor<3xf32> {raf.requires_grad = false},
                %var: tensor<3xf32> {raf.requires_grad = false})
    -> (tensor<f32>, tensor<3xf32>, tensor<3xf32>) {
  %y:3 = relay.nn.batch_norm %x, %gamma, %beta, %mean, %var {axis = 1 : i64, training = true}
      : (tensor<4x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>)
  %l = relay.sum %y#0 : (tensor<4x3xf32>)
  return %l, %y#1, %y#2 : tensor<f32>, tensor<3xf32>, tensor<3xf32>
}
