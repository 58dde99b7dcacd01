func.func @main(%x: tensor<4x8xf32>, %w: tensor<16x8xf32>) -> tensor<4x16xf32> {
  %0 = relay.nn.dense %x, %w : (tensor<4x8xf32>, tensor<16x8xf32>)
  %1 = relay.nn.relu %0 : (tensor<4x16xf32>)
  return %1 : tensor<4x16xf32>
}
