func.func @main(%x: tensor<4x8xf32>, %w: tensor<16x8xf32>) -> tensor<f32> {
  %0 = relay.nn.dense %x, %w : (tensor<4x8xf32>, tensor<16x8xf32>)
  %1 = relay.nn.relu %0 : (tensor<4x16xf32>)
  %2 = relay.sum %1 : (tensor<4x16xf32>) -> tensor<f32>
  return %2 : tensor<f32>
}
