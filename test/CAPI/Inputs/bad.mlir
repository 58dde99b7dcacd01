func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = relay.nn.relu %x : (tensor<2xf32>, tensor<2xf32>)
  return %0 : tensor<2xf32>
}
