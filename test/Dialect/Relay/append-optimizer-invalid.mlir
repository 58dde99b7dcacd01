// RUN: raf-opt %s -split-input-file -verify-diagnostics --raf-append-optimizer
// The pass fails (non-zero exit), it does not only warn.
// RUN: not raf-opt %s -split-input-file --raf-append-optimizer -o /dev/null 2>/dev/null

// A gradient function that breaks the --raf-autodiff contract is reported at
// the function, and nothing is appended.

// expected-error @+1 {{gradient function '@main': missing 'raf.grad_params' (the argument indices of the parameters, as --raf-autodiff="inline-backward=true" records them)}}
func.func @main(%w: tensor<4xf32>, %dy: tensor<f32>)
    -> (tensor<f32>, tensor<4xf32>) {
  %l = relay.sum %w : (tensor<4xf32>)
  return %l, %w : tensor<f32>, tensor<4xf32>
}

// -----

// expected-error @+1 {{gradient function '@main': 'raf.grad_params' must be an array<i64>, got [0]}}
func.func @main(%w: tensor<4xf32>, %dy: tensor<f32>)
    -> (tensor<f32>, tensor<4xf32>) attributes {raf.grad_params = [0]} {
  %l = relay.sum %w : (tensor<4xf32>)
  return %l, %w : tensor<f32>, tensor<4xf32>
}

// -----

// expected-error @+1 {{gradient function '@main': 'raf.grad_params' names no parameter: there is nothing to optimize}}
func.func @main(%w: tensor<4xf32>, %dy: tensor<f32>)
    -> (tensor<f32>) attributes {raf.grad_params = array<i64>} {
  %l = relay.sum %w : (tensor<4xf32>)
  return %l : tensor<f32>
}

// -----

// %dy (argument 1) is never a parameter.
// expected-error @+1 {{gradient function '@main': 'raf.grad_params' index 1 is out of range: there are 1 arguments before %dy}}
func.func @main(%w: tensor<4xf32>, %dy: tensor<f32>)
    -> (tensor<f32>, tensor<f32>) attributes {raf.grad_params = array<i64: 1>} {
  %l = relay.sum %w : (tensor<4xf32>)
  return %l, %dy : tensor<f32>, tensor<f32>
}

// -----

// expected-error @+1 {{gradient function '@main': 'raf.grad_params' index -1 is out of range: there are 1 arguments before %dy}}
func.func @main(%w: tensor<4xf32>, %dy: tensor<f32>)
    -> (tensor<f32>, tensor<4xf32>) attributes {raf.grad_params = array<i64: -1>} {
  %l = relay.sum %w : (tensor<4xf32>)
  return %l, %w : tensor<f32>, tensor<4xf32>
}

// -----

// expected-error @+1 {{gradient function '@main': 'raf.grad_params' names argument #0 twice}}
func.func @main(%w: tensor<4xf32>, %dy: tensor<f32>)
    -> (tensor<f32>, tensor<4xf32>, tensor<4xf32>)
    attributes {raf.grad_params = array<i64: 0, 0>} {
  %l = relay.sum %w : (tensor<4xf32>)
  return %l, %w, %w : tensor<f32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// expected-error @+1 {{gradient function '@main': expected the loss gradient seed %dy as last argument, the function has none}}
func.func @main() -> (tensor<f32>) attributes {raf.grad_params = array<i64: 0>} {
  %l = relay.constant dense<1.0> : tensor<f32>
  return %l : tensor<f32>
}

// -----

// expected-error @+1 {{gradient function '@main': expected at least 3 results (the loss, auxiliary results, then 2 gradients), got 2}}
func.func @main(%w: tensor<4xf32>, %b: tensor<4xf32>, %dy: tensor<f32>)
    -> (tensor<f32>, tensor<4xf32>) attributes {raf.grad_params = array<i64: 0, 1>} {
  %l = relay.sum %w : (tensor<4xf32>)
  return %l, %w : tensor<f32>, tensor<4xf32>
}

// -----

// expected-error @+1 {{gradient function '@main': the loss (result #0) must be a float tensor with exactly one element, got 'tensor<2xf32>'}}
func.func @main(%w: tensor<2xf32>, %dy: tensor<2xf32>)
    -> (tensor<2xf32>, tensor<2xf32>) attributes {raf.grad_params = array<i64: 0>} {
  return %w, %dy : tensor<2xf32>, tensor<2xf32>
}

// -----

// expected-error @+1 {{gradient function '@main': the loss (result #0) must be a float tensor with exactly one element, got 'tensor<i32>'}}
func.func @main(%w: tensor<4xf32>, %l: tensor<i32>, %dy: tensor<i32>)
    -> (tensor<i32>, tensor<4xf32>) attributes {raf.grad_params = array<i64: 0>} {
  return %l, %w : tensor<i32>, tensor<4xf32>
}

// -----

// expected-error @+1 {{gradient function '@main': the loss (result #0) must be a float tensor with exactly one element, got 'tensor<?xf32>'}}
func.func @main(%w: tensor<4xf32>, %l: tensor<?xf32>, %dy: tensor<?xf32>)
    -> (tensor<?xf32>, tensor<4xf32>) attributes {raf.grad_params = array<i64: 0>} {
  return %l, %w : tensor<?xf32>, tensor<4xf32>
}

// -----

// expected-error @+1 {{gradient function '@main': the last argument (%dy) has type 'tensor<f64>', expected the loss type 'tensor<f32>'}}
func.func @main(%w: tensor<4xf32>, %dy: tensor<f64>)
    -> (tensor<f32>, tensor<4xf32>) attributes {raf.grad_params = array<i64: 0>} {
  %l = relay.sum %w : (tensor<4xf32>)
  return %l, %w : tensor<f32>, tensor<4xf32>
}

// -----

// expected-error @+1 {{gradient function '@main': gradient result #2 has type 'tensor<4xf32>', expected 'tensor<3xf32>', the type of its parameter (argument #1)}}
func.func @main(%w: tensor<4xf32>, %b: tensor<3xf32>, %dy: tensor<f32>)
    -> (tensor<f32>, tensor<4xf32>, tensor<4xf32>)
    attributes {raf.grad_params = array<i64: 0, 1>} {
  %l = relay.sum %w : (tensor<4xf32>)
  return %l, %w, %w : tensor<f32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// expected-error @+1 {{gradient function '@main': parameter argument #0 must be a float tensor, got 'tensor<4xi32>'}}
func.func @main(%w: tensor<4xi32>, %x: tensor<4xf32>, %dy: tensor<f32>)
    -> (tensor<f32>, tensor<4xi32>) attributes {raf.grad_params = array<i64: 0>} {
  %l = relay.sum %x : (tensor<4xf32>)
  return %l, %w : tensor<f32>, tensor<4xi32>
}

// -----

// expected-error @+1 {{gradient function '@main': expected a body}}
func.func private @main(%w: tensor<4xf32>, %dy: tensor<f32>)
    -> (tensor<f32>, tensor<4xf32>) attributes {raf.grad_params = array<i64: 0>}

// -----

// expected-error @+1 {{gradient function '@main': expected a single-block body}}
func.func @main(%w: tensor<4xf32>, %dy: tensor<f32>)
    -> (tensor<f32>, tensor<4xf32>) attributes {raf.grad_params = array<i64: 0>} {
  cf.br ^bb1
^bb1:
  %l = relay.sum %w : (tensor<4xf32>)
  return %l, %w : tensor<f32>, tensor<4xf32>
}

// -----

// The step function's name is taken (by any symbol).
func.func @main(%w: tensor<4xf32>, %dy: tensor<f32>)
    -> (tensor<f32>, tensor<4xf32>) attributes {raf.grad_params = array<i64: 0>} {
  %l = relay.sum %w : (tensor<4xf32>)
  return %l, %w : tensor<f32>, tensor<4xf32>
}
// expected-error @+1 {{cannot append the step function '@train_step': the symbol exists (choose another step-name)}}
func.func private @train_step(%w: tensor<4xf32>) -> tensor<4xf32>
