// Used by approximate-math.mlir: one GELU (erf form), one tanh and one
// softmax (exp) through the whole CPU pipeline.
func.func @main(%x: tensor<4x64xf32>) -> (tensor<4x64xf32>, tensor<4x64xf32>, tensor<4x64xf32>) {
  %g = relay.nn.gelu %x : (tensor<4x64xf32>) -> tensor<4x64xf32>
  %t = relay.tanh %x : (tensor<4x64xf32>) -> tensor<4x64xf32>
  %s = relay.nn.softmax %x {axis = -1 : i64} : (tensor<4x64xf32>) -> tensor<4x64xf32>
  return %g, %t, %s : tensor<4x64xf32>, tensor<4x64xf32>, tensor<4x64xf32>
}
