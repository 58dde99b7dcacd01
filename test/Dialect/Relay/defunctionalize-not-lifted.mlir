// RUN: raf-opt --relay-defunctionalize %s -verify-diagnostics

// --relay-defunctionalize takes the closures --relay-lambda-lift produces.

func.func @not_lifted(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'relay.fn' op is not a lambda-lifted closure (a relay.fn whose body only calls a module function with the captured values and its arguments); run --relay-lambda-lift first}}
  %f = relay.fn(%y: tensor<f32>) -> tensor<f32> {
    %a = relay.negative %y : (tensor<f32>)
    relay.return %a : tensor<f32>
  }
  %r = relay.call %f(%x) : (tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}
