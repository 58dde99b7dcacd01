// Returns one value as three of its results (see distinct-return-buffers.mlir).
func.func @main(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %y = relay.nn.relu %x : (tensor<4xf32>)
  %z = relay.add %x, %x : (tensor<4xf32>, tensor<4xf32>)
  return %y, %y, %z, %y : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
