// Bad input to --raf-autodiff: each is a located error.
// RUN: raf-opt --raf-autodiff --verify-diagnostics --split-input-file %s

// expected-error @+1 {{the loss (result #0) must be a float tensor with exactly one element, got 'tensor<3xf32>'}}
func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
  %y = relay.tanh %x : (tensor<3xf32>)
  return %y : tensor<3xf32>
}

// -----

// expected-error @+1 {{the loss (result #0) must be a float tensor with exactly one element, got 'tensor<i32>'}}
func.func @main(%x: tensor<3xf32>) -> tensor<i32> {
  %y = relay.argmax %x : (tensor<3xf32>)
  return %y : tensor<i32>
}

// -----

// The gradient would have to pass argmax: the error names it and the notes
// give the path from the loss.
func.func @main(%x: tensor<3xf32>) -> tensor<f32> {
  // expected-error @+1 {{'relay.argmax' is not differentiable, but the gradient of the loss flows through it to a differentiated argument}}
  %i = relay.argmax %x : (tensor<3xf32>)
  // expected-note @+1 {{the gradient reaches it through 'relay.cast'}}
  %f = relay.cast %i {dtype = f32} : (tensor<i32>)
  // expected-note @+1 {{the gradient reaches it through 'relay.multiply'}}
  %y = relay.multiply %f, %f : (tensor<f32>, tensor<f32>)
  return %y : tensor<f32>
}

// -----

func.func @main(%x: tensor<3xf32>) -> tensor<f32> {
  %zero = relay.constant dense<0.0> : tensor<f32>
  // expected-error @+1 {{'relay.greater' is not differentiable}}
  %mask = relay.greater %x, %zero : (tensor<3xf32>, tensor<f32>)
  // expected-note @+1 {{through 'relay.cast'}}
  %m = relay.cast %mask {dtype = f32} : (tensor<3xi1>)
  // expected-note @+1 {{through 'relay.multiply'}}
  %y = relay.multiply %m, %x : (tensor<3xf32>, tensor<3xf32>)
  // expected-note @+1 {{through 'relay.sum'}}
  %l = relay.sum %y : (tensor<3xf32>)
  return %l : tensor<f32>
}

// -----

func.func @main(%x: tensor<f32>) -> tensor<f32> {
  %f = relay.fn(%a: tensor<f32>) -> tensor<f32> {
    %s = relay.multiply %a, %x : (tensor<f32>, tensor<f32>)
    relay.return %s : tensor<f32>
  }
  // expected-error @+1 {{'relay.call' on a gradient path: --raf-autodiff differentiates first-order code; use relay.grad (--relay-grad-pipeline) for closures and references}}
  %y = relay.call %f(%x) : (tensor<f32>) -> tensor<f32>
  return %y : tensor<f32>
}

// -----

func.func @main(%x: tensor<4xf32>) -> tensor<f32> {
  // expected-error @+1 {{has no gradient rule for pad_mode #relay.pad_mode<reflect> (only constant padding is differentiable)}}
  %p = relay.nn.pad %x {pad_width = array<i64: 1, 1>, pad_mode = #relay.pad_mode<reflect>} : (tensor<4xf32>)
  %l = relay.sum %p : (tensor<6xf32>)
  return %l : tensor<f32>
}

// -----

func.func @main(%x: tensor<4xf32>, %i: tensor<2xi64>) -> tensor<f32> {
  // expected-error @+1 {{has no gradient rule for mode #relay.take_mode<wrap> (use clip or fast)}}
  %t = relay.take %x, %i {axis = 0, mode = #relay.take_mode<wrap>} : (tensor<4xf32>, tensor<2xi64>)
  %l = relay.sum %t : (tensor<2xf32>)
  return %l : tensor<f32>
}

// -----

func.func @main(%x: tensor<2x3xf32>, %g: tensor<3xf32>, %b: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) -> tensor<f32> {
  // expected-error @+1 {{has no gradient through its updated moving mean and variance}}
  %y, %nm, %nv = relay.nn.batch_norm %x, %g, %b, %m, %v {training = true} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>)
  %l = relay.sum %nm : (tensor<3xf32>)
  return %l : tensor<f32>
}

// -----

func.func private @opaque(tensor<f32>) -> tensor<f32>

func.func @main(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{cannot differentiate a call of a function without a body}}
  %y = func.call @opaque(%x) : (tensor<f32>) -> tensor<f32>
  return %y : tensor<f32>
}

// -----

func.func @main(%x: tensor<1x1x3x3xf16>, %w: tensor<1x1x2x2xf16>) -> tensor<f32> {
  // expected-error @+1 {{has no gradient when out_dtype changes the element type}}
  %y = relay.nn.conv2d %x, %w {out_dtype = f32} : (tensor<1x1x3x3xf16>, tensor<1x1x2x2xf16>)
  %l = relay.sum %y : (tensor<1x1x2x2xf32>)
  return %l : tensor<f32>
}

// -----

func.func @main(%x: tensor<f32>, %c: tensor<i1>) -> tensor<f32> {
  // expected-error @+1 {{--raf-autodiff does not differentiate relay.if with tuple results}}
  %t = relay.if %c : tensor<i1> -> (tuple<tensor<f32>>) {
    %a = relay.tuple(%x) : tensor<f32>
    relay.yield %a : tuple<tensor<f32>>
  } else {
    %b = relay.tuple(%x) : tensor<f32>
    relay.yield %b : tuple<tensor<f32>>
  }
  %y = relay.tuple_get %t[0] : tuple<tensor<f32>>
  return %y : tensor<f32>
}

// -----

func.func private @pair(%x: tensor<f32>) -> tuple<tensor<f32>> {
  %t = relay.tuple(%x) : tensor<f32>
  return %t : tuple<tensor<f32>>
}

func.func @main(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{cannot differentiate a call of @pair: tuple results of called functions are not supported}}
  %t = func.call @pair(%x) : (tensor<f32>) -> tuple<tensor<f32>>
  %y = relay.tuple_get %t[0] : tuple<tensor<f32>>
  return %y : tensor<f32>
}

// -----

func.func @main(%x: tensor<3xf32>, %c: tensor<i1>) -> tensor<f32> {
  %i = relay.argmax %x : (tensor<3xf32>)
  // expected-error @+1 {{--raf-autodiff differentiates relay.if only over float tensors; a branch uses a differentiated value of type 'tensor<i32>'}}
  %r = relay.if %c : tensor<i1> -> (tensor<f32>) {
    %f = relay.cast %i {dtype = f32} : (tensor<i32>)
    relay.yield %f : tensor<f32>
  } else {
    %s = relay.sum %x : (tensor<3xf32>)
    relay.yield %s : tensor<f32>
  }
  return %r : tensor<f32>
}

// -----

// A reduction's gradient spreads over its operand's shape: a dynamic one is
// an error, not a crash.
func.func @main(%x: tensor<?x3xf32>) -> tensor<f32> {
  // expected-error @+1 {{has no gradient for the dynamic shape 'tensor<?x3xf32>'}}
  %l = relay.sum %x : (tensor<?x3xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

func.func @main(%x: tensor<2x?xf32>) -> tensor<f32> {
  // expected-error @+1 {{has no gradient for the dynamic shape 'tensor<2x?xf32>'}}
  %l = relay.mean %x : (tensor<2x?xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// take's gradient scatters into its data's shape through a one-hot matrix:
// a dynamic data or index shape is an error, not a crash.
func.func @main(%x: tensor<?x6xf32>, %i: tensor<3xi32>) -> tensor<f32> {
  // expected-error @+1 {{has no gradient for the dynamic shape 'tensor<?x6xf32>'}}
  %t = relay.take %x, %i {axis = 0 : i64} : (tensor<?x6xf32>, tensor<3xi32>)
  %l = relay.sum %t : (tensor<3x6xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
