// Higher-order derivatives (Relay paper §4.2): a relay.grad inside a
// differentiated function. Every relay.grad is lowered first; the inner
// gradient function is then ordinary relay code with its own backpropagator
// cell, and the outer transformation lifts it like any other function.
//
// RUN: raf-opt --relay-grad-pipeline %s -o %t.mlir
// RUN: raf-run %t.mlir --entry=second_derivative --target=interp | FileCheck %s --check-prefix=SECOND
// RUN: raf-run %t.mlir --entry=perturbation --target=interp | FileCheck %s --check-prefix=PERTURB
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.mlir

!grad1 = tuple<tensor<f32>, tuple<tensor<f32>>>

// #6: d/dx of dcube(x) = 3 x^2 is 6 x; at x = 2: (12, (12)).
// SECOND:      result #0: tensor<f32>
// SECOND-NEXT: 12
// SECOND-NEXT: result #1: tensor<f32>
// SECOND-NEXT: 12
func.func @cube(%x: tensor<f32>) -> tensor<f32> {
  %xx = relay.multiply %x, %x : (tensor<f32>, tensor<f32>)
  %r = relay.multiply %xx, %x : (tensor<f32>, tensor<f32>)
  return %r : tensor<f32>
}
func.func @dcube(%x: tensor<f32>) -> tensor<f32> {
  %f = relay.global_ref @cube : (tensor<f32>) -> tensor<f32>
  %g = relay.grad %f : (tensor<f32>) -> tensor<f32>
  %r = relay.call %g(%x) : (tensor<f32>) -> !grad1
  %gs = relay.tuple_get %r[1] : !grad1
  %d = relay.tuple_get %gs[0] : tuple<tensor<f32>>
  return %d : tensor<f32>
}
func.func @second_derivative() -> !grad1 {
  %x = relay.constant dense<2.0> : tensor<f32>
  %f = relay.global_ref @dcube : (tensor<f32>) -> tensor<f32>
  %g = relay.grad %f : (tensor<f32>) -> tensor<f32>
  %r = relay.call %g(%x) : (tensor<f32>) -> !grad1
  return %r : !grad1
}

// Perturbation confusion (Siskind and Pearlmutter): f(x) = x * d/dy (x + y)
// = x, so f'(1) = 1; mixing up the two levels' adjoints would give 2. The
// inner closure captures the outer x.
// PERTURB:      result #0: tensor<f32>
// PERTURB-NEXT: 1
// PERTURB-NEXT: result #1: tensor<f32>
// PERTURB-NEXT: 1
func.func @outer(%x: tensor<f32>) -> tensor<f32> {
  %inner = relay.fn(%y: tensor<f32>) -> tensor<f32> {
    %s = relay.add %x, %y : (tensor<f32>, tensor<f32>)
    relay.return %s : tensor<f32>
  }
  %g = relay.grad %inner : (tensor<f32>) -> tensor<f32>
  %one = relay.constant dense<1.0> : tensor<f32>
  %r = relay.call %g(%one) : (tensor<f32>) -> !grad1
  %gs = relay.tuple_get %r[1] : !grad1
  %d = relay.tuple_get %gs[0] : tuple<tensor<f32>>
  %p = relay.multiply %x, %d : (tensor<f32>, tensor<f32>)
  return %p : tensor<f32>
}
func.func @perturbation() -> !grad1 {
  %x = relay.constant dense<1.0> : tensor<f32>
  %f = relay.global_ref @outer : (tensor<f32>) -> tensor<f32>
  %g = relay.grad %f : (tensor<f32>) -> tensor<f32>
  %r = relay.call %g(%x) : (tensor<f32>) -> !grad1
  return %r : !grad1
}

// The inner gradient function is itself transformed: its backpropagator
// cell becomes a lifted cell of lifted closures.
// IR: func.func private @cube_lowergrad_lowergrad(%{{[^:]*}}: !relay.ref<() -> ()>, %{{[^:]*}}: !relay.ref<(!relay.ref<() -> ()>) -> ()>,
// IR: func.func private @cube_grad(%{{[^:]*}}: tensor<f32>) -> tuple<tensor<f32>, tuple<tensor<f32>>>
// IR: func.func private @cube_grad_lowergrad(%{{[^:]*}}: !relay.ref<() -> ()>, %{{[^:]*}}: tuple<tensor<f32>, !relay.ref<tensor<f32>>>) -> tuple<tuple<tensor<f32>, !relay.ref<tensor<f32>>>, tuple<tuple<tensor<f32>, !relay.ref<tensor<f32>>>>>
