// Results of a call on the gradient path returned directly by the entry (the
// loss itself, or an auxiliary output): the rewritten call's results must be
// the ones returned. Both the closure form and the inline form verify, and
// the gradients come out right on the reference interpreter.
// RUN: raf-opt --raf-autodiff="entry=direct_loss" %s | FileCheck %s --check-prefix=CLOSURE
// RUN: raf-opt --raf-autodiff="entry=direct_loss inline-backward=true" %s -o %t.direct.mlir
// RUN: raf-opt --raf-autodiff="entry=loss_and_aux inline-backward=true" %s -o %t.aux.mlir
// RUN: raf-opt --raf-autodiff="entry=two_arguments inline-backward=true" %s -o %t.two.mlir
// RUN: %python -c "import numpy as np; np.save('%t.x.npy', np.float32([1, 2, 3])); np.save('%t.y.npy', np.float32([4, 5, 6])); np.save('%t.one.npy', np.float32(1))"
// RUN: raf-run %t.direct.mlir --entry=direct_loss --target=interp --input=%t.x.npy --input=%t.one.npy | FileCheck %s --check-prefix=DIRECT
// RUN: raf-run %t.aux.mlir --entry=loss_and_aux --target=interp --input=%t.x.npy --input=%t.one.npy | FileCheck %s --check-prefix=AUX
// RUN: raf-run %t.two.mlir --entry=two_arguments --target=interp --input=%t.x.npy --input=%t.y.npy --input=%t.one.npy | FileCheck %s --check-prefix=TWO

// CLOSURE-LABEL: func.func @direct_loss(
// CLOSURE: %[[C:.*]]:2 = call @total_adjoint(%arg0)
// CLOSURE: return %[[C]]#0, %{{.*}} : tensor<f32>, (tensor<f32>) -> tuple<tensor<3xf32>>

// loss = sum(x), d/dx = 1.
// DIRECT: result #0: tensor<f32>
// DIRECT-NEXT: 6
// DIRECT-NEXT: result #1: tensor<3xf32>
// DIRECT-NEXT: [1, 1, 1]
func.func @total(%a: tensor<3xf32>) -> tensor<f32> {
  %s = relay.sum %a : (tensor<3xf32>) -> tensor<f32>
  return %s : tensor<f32>
}
func.func @direct_loss(%x: tensor<3xf32>) -> tensor<f32> {
  %0 = func.call @total(%x) : (tensor<3xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// loss = sum(x^2) with x^2 as an auxiliary output, d/dx = 2x.
// AUX: result #0: tensor<f32>
// AUX-NEXT: 14
// AUX-NEXT: result #1: tensor<3xf32>
// AUX-NEXT: [1, 4, 9]
// AUX-NEXT: result #2: tensor<3xf32>
// AUX-NEXT: [2, 4, 6]
func.func @square_sum(%a: tensor<3xf32>) -> (tensor<f32>, tensor<3xf32>) {
  %sq = relay.multiply %a, %a : (tensor<3xf32>, tensor<3xf32>)
  %s = relay.sum %sq : (tensor<3xf32>) -> tensor<f32>
  return %s, %sq : tensor<f32>, tensor<3xf32>
}
func.func @loss_and_aux(%x: tensor<3xf32>) -> (tensor<f32>, tensor<3xf32>) {
  %0:2 = func.call @square_sum(%x) : (tensor<3xf32>) -> (tensor<f32>, tensor<3xf32>)
  return %0#0, %0#1 : tensor<f32>, tensor<3xf32>
}

// loss = sum(x * y), d/dx = y, d/dy = x.
// TWO: result #0: tensor<f32>
// TWO-NEXT: 32
// TWO-NEXT: result #1: tensor<3xf32>
// TWO-NEXT: [4, 5, 6]
// TWO-NEXT: result #2: tensor<3xf32>
// TWO-NEXT: [1, 2, 3]
func.func @dot(%a: tensor<3xf32>, %b: tensor<3xf32>) -> tensor<f32> {
  %p = relay.multiply %a, %b : (tensor<3xf32>, tensor<3xf32>)
  %s = relay.sum %p : (tensor<3xf32>) -> tensor<f32>
  return %s : tensor<f32>
}
func.func @two_arguments(%x: tensor<3xf32>, %y: tensor<3xf32>) -> tensor<f32> {
  %0 = func.call @dot(%x, %y) : (tensor<3xf32>, tensor<3xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}
