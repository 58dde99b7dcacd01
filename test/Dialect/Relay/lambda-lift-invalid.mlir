// RUN: raf-opt --relay-lambda-lift %s -split-input-file -verify-diagnostics

// relay.grad needs a function it can transform, so its operand must become
// closed. A closure's captured values become extra parameters to
// differentiate (their gradients are dropped), which only works for
// floating-point tensors.

// expected-note @+1 {{parameter declared here}}
func.func @grad_of_parameter(%f: (tensor<f32>) -> tensor<f32>) -> ((tensor<f32>) -> tuple<tensor<f32>, tuple<tensor<f32>>>) {
  // expected-error @+1 {{relay.grad of a function parameter cannot be lifted to a closed function: parameter #0 is only known at run time}}
  %g = relay.grad %f : (tensor<f32>) -> tensor<f32>
  return %g : (tensor<f32>) -> tuple<tensor<f32>, tuple<tensor<f32>>>
}

// -----

func.func @grad_of_computed(%pick: tensor<i1>) -> ((tensor<f32>) -> tuple<tensor<f32>, tuple<tensor<f32>>>) {
  %f = relay.if %pick : tensor<i1> -> ((tensor<f32>) -> tensor<f32>) {
    %a = relay.fn(%x: tensor<f32>) -> tensor<f32> {
      relay.return %x : tensor<f32>
    }
    relay.yield %a : (tensor<f32>) -> tensor<f32>
  } else {
    %b = relay.fn(%x: tensor<f32>) -> tensor<f32> {
      %n = relay.negative %x : (tensor<f32>)
      relay.return %n : tensor<f32>
    }
    relay.yield %b : (tensor<f32>) -> tensor<f32>
  }
  // expected-error @+1 {{relay.grad of a function value computed at run time by 'relay.if' cannot be lifted to a closed function}}
  %g = relay.grad %f : (tensor<f32>) -> tensor<f32>
  return %g : (tensor<f32>) -> tuple<tensor<f32>, tuple<tensor<f32>>>
}

// -----

func.func @captured_reference(%x: tensor<f32>) -> tuple<tensor<f32>, tuple<tensor<f32>>> {
  // expected-note @+1 {{free variable defined here}}
  %cell = relay.ref_new %x : tensor<f32>
  %f = relay.fn(%y: tensor<f32>) -> tensor<f32> {
    %v = relay.ref_read %cell : !relay.ref<tensor<f32>>
    %m = relay.multiply %v, %y : (tensor<f32>, tensor<f32>)
    relay.return %m : tensor<f32>
  }
  // expected-error @+1 {{relay.grad of a function with free variables that cannot be lifted: free variable #0 has type '!relay.ref<tensor<f32>>'; a reference captured by the differentiated function would escape the gradient}}
  %g = relay.grad %f : (tensor<f32>) -> tensor<f32>
  %r = relay.call %g(%x) : (tensor<f32>) -> tuple<tensor<f32>, tuple<tensor<f32>>>
  return %r : tuple<tensor<f32>, tuple<tensor<f32>>>
}

// -----

// An integer computed at run time cannot be a differentiated parameter.
// expected-note @+1 {{free variable defined here}}
func.func @captured_integer(%x: tensor<f32>, %n: tensor<i32>) -> tuple<tensor<f32>, tuple<tensor<f32>>> {
  %f = relay.fn(%y: tensor<f32>) -> tensor<f32> {
    %c = relay.cast %n {dtype = f32} : (tensor<i32>)
    %m = relay.multiply %y, %c : (tensor<f32>, tensor<f32>)
    relay.return %m : tensor<f32>
  }
  // expected-error @+1 {{relay.grad of a function with free variables that cannot be lifted: free variable #0 has type 'tensor<i32>'; only floating-point tensors can become extra differentiated parameters}}
  %g = relay.grad %f : (tensor<f32>) -> tensor<f32>
  %r = relay.call %g(%x) : (tensor<f32>) -> tuple<tensor<f32>, tuple<tensor<f32>>>
  return %r : tuple<tensor<f32>, tuple<tensor<f32>>>
}

// -----

// A function parameter captured by the closure is only known at run time.
// expected-note @+1 {{free variable defined here}}
func.func @captured_function(%h: (tensor<f32>) -> tensor<f32>, %x: tensor<f32>) -> tuple<tensor<f32>, tuple<tensor<f32>>> {
  %f = relay.fn(%y: tensor<f32>) -> tensor<f32> {
    %m = relay.call %h(%y) : (tensor<f32>) -> tensor<f32>
    relay.return %m : tensor<f32>
  }
  // expected-error @+1 {{relay.grad of a function with free variables that cannot be lifted: free variable #0 has type '(tensor<f32>) -> tensor<f32>'; the function it holds is only known at run time}}
  %g = relay.grad %f : (tensor<f32>) -> tensor<f32>
  %r = relay.call %g(%x) : (tensor<f32>) -> tuple<tensor<f32>, tuple<tensor<f32>>>
  return %r : tuple<tensor<f32>, tuple<tensor<f32>>>
}

// -----

// Constants and closures over constants are cloned, not captured: this
// closure becomes closed and lifts without error.
func.func @captured_constants(%x: tensor<f32>) -> tuple<tensor<f32>, tuple<tensor<f32>>> {
  %k = relay.constant dense<2.0> : tensor<f32>
  %n = relay.constant dense<3> : tensor<i32>
  %scale = relay.fn(%y: tensor<f32>) -> tensor<f32> {
    %m = relay.multiply %y, %k : (tensor<f32>, tensor<f32>)
    relay.return %m : tensor<f32>
  }
  %f = relay.fn(%y: tensor<f32>) -> tensor<f32> {
    %s = relay.call %scale(%y) : (tensor<f32>) -> tensor<f32>
    %c = relay.cast %n {dtype = f32} : (tensor<i32>)
    %m = relay.multiply %s, %c : (tensor<f32>, tensor<f32>)
    relay.return %m : tensor<f32>
  }
  %g = relay.grad %f : (tensor<f32>) -> tensor<f32>
  %r = relay.call %g(%x) : (tensor<f32>) -> tuple<tensor<f32>, tuple<tensor<f32>>>
  return %r : tuple<tensor<f32>, tuple<tensor<f32>>>
}

// -----

// Lifted functions are placed next to the func.func holding the closure.
// expected-error @+1 {{'relay.fn' op cannot be lambda-lifted: it is not inside a func.func}}
%f = relay.fn(%y: tensor<f32>) -> tensor<f32> {
  relay.return %y : tensor<f32>
}
