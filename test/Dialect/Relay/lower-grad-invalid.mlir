// RUN: raf-opt --relay-lower-grad %s -split-input-file -verify-diagnostics

// arith.addf has no gradient rule and the gradient must flow through it.
func.func @foreign(%x: tensor<f32>) -> tensor<f32> {
  %y = relay.multiply %x, %x : (tensor<f32>, tensor<f32>)
  // expected-error @+1 {{'arith.addf' op is not differentiable (it has no gradient rule), but relay.grad needs the gradient of its result with respect to a floating-point operand}}
  %z = arith.addf %y, %x : tensor<f32>
  return %z : tensor<f32>
}
func.func @main(%x: tensor<f32>) -> tuple<tensor<f32>, tuple<tensor<f32>>> {
  %f = relay.global_ref @foreign : (tensor<f32>) -> tensor<f32>
  %g = relay.grad %f : (tensor<f32>) -> tensor<f32>
  %r = relay.call %g(%x) : (tensor<f32>) -> tuple<tensor<f32>, tuple<tensor<f32>>>
  return %r : tuple<tensor<f32>, tuple<tensor<f32>>>
}

// -----

// Without --relay-lambda-lift, a capturing closure is not closed.
// expected-note @+1 {{free variable defined here}}
func.func @open(%x: tensor<f32>, %c: tensor<f32>) -> tuple<tensor<f32>, tuple<tensor<f32>>> {
  %f = relay.fn(%y: tensor<f32>) -> tensor<f32> {
    %m = relay.multiply %y, %c : (tensor<f32>, tensor<f32>)
    relay.return %m : tensor<f32>
  }
  // expected-error @+1 {{'relay.grad' op needs a closed function operand, but the relay.fn has 1 free variables; run --relay-lambda-lift first}}
  %g = relay.grad %f : (tensor<f32>) -> tensor<f32>
  %r = relay.call %g(%x) : (tensor<f32>) -> tuple<tensor<f32>, tuple<tensor<f32>>>
  return %r : tuple<tensor<f32>, tuple<tensor<f32>>>
}

// -----

func.func @parameter(%f: (tensor<f32>) -> tensor<f32>, %x: tensor<f32>) -> tuple<tensor<f32>, tuple<tensor<f32>>> {
  // expected-error @+1 {{'relay.grad' op needs a closed function operand (a relay.global_ref or a relay.fn without free variables); run --relay-lambda-lift first}}
  %g = relay.grad %f : (tensor<f32>) -> tensor<f32>
  %r = relay.call %g(%x) : (tensor<f32>) -> tuple<tensor<f32>, tuple<tensor<f32>>>
  return %r : tuple<tensor<f32>, tuple<tensor<f32>>>
}

// -----

// expected-note @+1 {{declared here}}
func.func private @external(%x: tensor<f32>) -> tensor<f32>
func.func @calls_external(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'func.call' op uses @external, which has no body, so relay.grad cannot differentiate it}}
  %y = func.call @external(%x) : (tensor<f32>) -> tensor<f32>
  return %y : tensor<f32>
}
func.func @main(%x: tensor<f32>) -> tuple<tensor<f32>, tuple<tensor<f32>>> {
  %f = relay.global_ref @calls_external : (tensor<f32>) -> tensor<f32>
  %g = relay.grad %f : (tensor<f32>) -> tensor<f32>
  %r = relay.call %g(%x) : (tensor<f32>) -> tuple<tensor<f32>, tuple<tensor<f32>>>
  return %r : tuple<tensor<f32>, tuple<tensor<f32>>>
}

// -----

// expected-note @+1 {{declared here}}
func.func private @external(%x: tensor<f32>) -> tensor<f32>
func.func @main(%x: tensor<f32>) -> tuple<tensor<f32>, tuple<tensor<f32>>> {
  %f = relay.global_ref @external : (tensor<f32>) -> tensor<f32>
  // expected-error @+1 {{'relay.grad' op differentiates @external, which has no body}}
  %g = relay.grad %f : (tensor<f32>) -> tensor<f32>
  %r = relay.call %g(%x) : (tensor<f32>) -> tuple<tensor<f32>, tuple<tensor<f32>>>
  return %r : tuple<tensor<f32>, tuple<tensor<f32>>>
}

// -----

func.func @region(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'scf.execute_region' op is a construct relay.grad cannot differentiate (only relay.if and relay.fn may have regions)}}
  %y = scf.execute_region -> tensor<f32> {
    %m = relay.multiply %x, %x : (tensor<f32>, tensor<f32>)
    scf.yield %m : tensor<f32>
  }
  return %y : tensor<f32>
}
func.func @main(%x: tensor<f32>) -> tuple<tensor<f32>, tuple<tensor<f32>>> {
  %f = relay.global_ref @region : (tensor<f32>) -> tensor<f32>
  %g = relay.grad %f : (tensor<f32>) -> tensor<f32>
  %r = relay.call %g(%x) : (tensor<f32>) -> tuple<tensor<f32>, tuple<tensor<f32>>>
  return %r : tuple<tensor<f32>, tuple<tensor<f32>>>
}

// -----

func.func @index(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'arith.constant' op produces result #0 of type 'index'; relay.grad differentiates operators on tensors only}}
  %i = arith.constant 0 : index
  return %x : tensor<f32>
}
func.func @main(%x: tensor<f32>) -> tuple<tensor<f32>, tuple<tensor<f32>>> {
  %f = relay.global_ref @index : (tensor<f32>) -> tensor<f32>
  %g = relay.grad %f : (tensor<f32>) -> tensor<f32>
  %r = relay.call %g(%x) : (tensor<f32>) -> tuple<tensor<f32>, tuple<tensor<f32>>>
  return %r : tuple<tensor<f32>, tuple<tensor<f32>>>
}

// -----

// Function values are lifted structurally; `index` has no lifted form.
// expected-note @+1 {{defined here}}
func.func private @takes_index(%x: tensor<f32>, %i: index) -> tensor<f32> {
  return %x : tensor<f32>
}
func.func @refers(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'relay.global_ref' op uses @takes_index of type '(tensor<f32>, index) -> tensor<f32>', which relay.grad cannot differentiate}}
  %h = relay.global_ref @takes_index : (tensor<f32>, index) -> tensor<f32>
  return %x : tensor<f32>
}
func.func @main(%x: tensor<f32>) -> tuple<tensor<f32>, tuple<tensor<f32>>> {
  %f = relay.global_ref @refers : (tensor<f32>) -> tensor<f32>
  %g = relay.grad %f : (tensor<f32>) -> tensor<f32>
  %r = relay.call %g(%x) : (tensor<f32>) -> tuple<tensor<f32>, tuple<tensor<f32>>>
  return %r : tuple<tensor<f32>, tuple<tensor<f32>>>
}

// -----

// expected-error @+1 {{'func.func' op has 2 blocks; relay.grad only differentiates single-block functions}}
func.func @blocks(%x: tensor<f32>) -> tensor<f32> {
  cf.br ^next
^next:
  return %x : tensor<f32>
}
func.func @main(%x: tensor<f32>) -> tuple<tensor<f32>, tuple<tensor<f32>>> {
  %f = relay.global_ref @blocks : (tensor<f32>) -> tensor<f32>
  %g = relay.grad %f : (tensor<f32>) -> tensor<f32>
  %r = relay.call %g(%x) : (tensor<f32>) -> tuple<tensor<f32>, tuple<tensor<f32>>>
  return %r : tuple<tensor<f32>, tuple<tensor<f32>>>
}
