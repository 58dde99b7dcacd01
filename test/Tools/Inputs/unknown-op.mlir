func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.no_such_op %x : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
