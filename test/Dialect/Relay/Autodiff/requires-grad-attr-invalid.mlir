// Bad raf.requires_grad marks: each is a located error.
// RUN: raf-opt --raf-autodiff --verify-diagnostics --split-input-file %s

// expected-error @+1 {{raf.requires_grad of argument #1 must be a boolean, got 1 : i64}}
func.func @main(%x: tensor<3xf32> {raf.requires_grad = true},
                %w: tensor<3xf32> {raf.requires_grad = 1}) -> tensor<f32> {
  %y = relay.multiply %x, %w : (tensor<3xf32>, tensor<3xf32>)
  %l = relay.sum %y : (tensor<3xf32>)
  return %l : tensor<f32>
}

// -----

// expected-error @+1 {{argument #1 has raf.requires_grad = true but is not a float tensor: 'tensor<2xi64>'}}
func.func @main(%x: tensor<2x2xf32> {raf.requires_grad = true},
                %t: tensor<2xi64> {raf.requires_grad = true}) -> tensor<f32> {
  %l = relay.nn.cross_entropy %x, %t : (tensor<2x2xf32>, tensor<2xi64>)
  return %l : tensor<f32>
}

// -----

// expected-error @+1 {{no argument of @main has raf.requires_grad = true: nothing to differentiate (or pass requires-grad)}}
func.func @main(%x: tensor<3xf32> {raf.requires_grad = false}) -> tensor<f32> {
  %l = relay.sum %x : (tensor<3xf32>)
  return %l : tensor<f32>
}
