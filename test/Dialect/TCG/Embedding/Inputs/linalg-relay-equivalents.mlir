// The relay equivalents of the functions of ../dataflow-embed-linalg.mlir, in
// the same order.
func.func @regular(%x: tensor<1x32x14x14xi8>, %w: tensor<64x32x3x3xi8>) -> tensor<1x64x14x14xi32> {
  %0 = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>, out_dtype = i32} : (tensor<1x32x14x14xi8>, tensor<64x32x3x3xi8>) -> tensor<1x64x14x14xi32>
  return %0 : tensor<1x64x14x14xi32>
}
func.func @low_channel(%x: tensor<1x1x40x30xi8>, %w: tensor<32x1x5x20xi8>) -> tensor<1x32x18x6xi32> {
  %0 = relay.nn.conv2d %x, %w {strides = array<i64: 2, 2>, out_dtype = i32} : (tensor<1x1x40x30xi8>, tensor<32x1x5x20xi8>) -> tensor<1x32x18x6xi32>
  return %0 : tensor<1x32x18x6xi32>
}
func.func @matmul(%a: tensor<16x64xi8>, %b: tensor<64x32xi8>) -> tensor<16x32xi32> {
  %0 = relay.nn.matmul %a, %b {out_dtype = i32} : (tensor<16x64xi8>, tensor<64x32xi8>) -> tensor<16x32xi32>
  return %0 : tensor<16x32xi32>
}
func.func @dense(%x: tensor<1x64xi8>, %w: tensor<32x64xi8>) -> tensor<1x32xi32> {
  %0 = relay.nn.dense %x, %w {out_dtype = i32} : (tensor<1x64xi8>, tensor<32x64xi8>) -> tensor<1x32xi32>
  return %0 : tensor<1x32xi32>
}
