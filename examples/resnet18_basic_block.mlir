// ResNet-18 basic blocks (torchvision.models.resnet.BasicBlock, expansion 1),
// inference mode (batch_norm with training = false, the torchvision default
// eps = 1e-5), NCHW layout, OIHW weights, f32, batch 1.
//
// Shapes come from torchvision's resnet18 on a 1x3x224x224 ImageNet input:
// the stem (7x7/2 conv + 3x3/2 max pool) leaves 1x64x56x56, which is the
// input of every block of layer1; layer2's first block downsamples it to
// 1x128x28x28.
//
// @basic_block: layer1.0 (inplanes = planes = 64, stride 1, no downsample)
//   conv3x3(64->64, s1, p1) -> bn1 -> relu -> conv3x3(64->64, s1, p1) -> bn2
//   -> + x -> relu
//   x: 1x64x56x56, conv weights 64x64x3x3, bn params [64].
//
// @basic_block_downsample: layer2.0 (inplanes 64, planes 128, stride 2)
//   conv3x3(64->128, s2, p1) -> bn1 -> relu -> conv3x3(128->128, s1, p1)
//   -> bn2 -> + downsample(x) -> relu, with
//   downsample = conv1x1(64->128, s2, no padding) -> bn
//   x: 1x64x56x56, output 1x128x28x28.
//
// Parameters (weights, batch-norm gamma/beta/running mean/running var) are
// function arguments; torchvision's convolutions have no bias.

func.func @basic_block(%x: tensor<1x64x56x56xf32>,
    %conv1_w: tensor<64x64x3x3xf32>,
    %bn1_gamma: tensor<64xf32>, %bn1_beta: tensor<64xf32>,
    %bn1_mean: tensor<64xf32>, %bn1_var: tensor<64xf32>,
    %conv2_w: tensor<64x64x3x3xf32>,
    %bn2_gamma: tensor<64xf32>, %bn2_beta: tensor<64xf32>,
    %bn2_mean: tensor<64xf32>, %bn2_var: tensor<64xf32>)
    -> tensor<1x64x56x56xf32> {
  %c1 = relay.nn.conv2d %x, %conv1_w {strides = array<i64: 1, 1>, padding = array<i64: 1>} : (tensor<1x64x56x56xf32>, tensor<64x64x3x3xf32>)
  %b1, %b1_mean, %b1_var = relay.nn.batch_norm %c1, %bn1_gamma, %bn1_beta, %bn1_mean, %bn1_var {epsilon = 1.0e-05 : f64} : (tensor<1x64x56x56xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>)
  %r1 = relay.nn.relu %b1 : (tensor<1x64x56x56xf32>)
  %c2 = relay.nn.conv2d %r1, %conv2_w {strides = array<i64: 1, 1>, padding = array<i64: 1>} : (tensor<1x64x56x56xf32>, tensor<64x64x3x3xf32>)
  %b2, %b2_mean, %b2_var = relay.nn.batch_norm %c2, %bn2_gamma, %bn2_beta, %bn2_mean, %bn2_var {epsilon = 1.0e-05 : f64} : (tensor<1x64x56x56xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>)
  %sum = relay.add %b2, %x : (tensor<1x64x56x56xf32>, tensor<1x64x56x56xf32>)
  %out = relay.nn.relu %sum : (tensor<1x64x56x56xf32>)
  return %out : tensor<1x64x56x56xf32>
}

func.func @basic_block_downsample(%x: tensor<1x64x56x56xf32>,
    %conv1_w: tensor<128x64x3x3xf32>,
    %bn1_gamma: tensor<128xf32>, %bn1_beta: tensor<128xf32>,
    %bn1_mean: tensor<128xf32>, %bn1_var: tensor<128xf32>,
    %conv2_w: tensor<128x128x3x3xf32>,
    %bn2_gamma: tensor<128xf32>, %bn2_beta: tensor<128xf32>,
    %bn2_mean: tensor<128xf32>, %bn2_var: tensor<128xf32>,
    %ds_w: tensor<128x64x1x1xf32>,
    %ds_gamma: tensor<128xf32>, %ds_beta: tensor<128xf32>,
    %ds_mean: tensor<128xf32>, %ds_var: tensor<128xf32>)
    -> tensor<1x128x28x28xf32> {
  %c1 = relay.nn.conv2d %x, %conv1_w {strides = array<i64: 2, 2>, padding = array<i64: 1>} : (tensor<1x64x56x56xf32>, tensor<128x64x3x3xf32>)
  %b1, %b1_mean, %b1_var = relay.nn.batch_norm %c1, %bn1_gamma, %bn1_beta, %bn1_mean, %bn1_var {epsilon = 1.0e-05 : f64} : (tensor<1x128x28x28xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128xf32>)
  %r1 = relay.nn.relu %b1 : (tensor<1x128x28x28xf32>)
  %c2 = relay.nn.conv2d %r1, %conv2_w {strides = array<i64: 1, 1>, padding = array<i64: 1>} : (tensor<1x128x28x28xf32>, tensor<128x128x3x3xf32>)
  %b2, %b2_mean, %b2_var = relay.nn.batch_norm %c2, %bn2_gamma, %bn2_beta, %bn2_mean, %bn2_var {epsilon = 1.0e-05 : f64} : (tensor<1x128x28x28xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128xf32>)
  // Projection shortcut: 1x1 convolution with stride 2, then batch norm.
  %ds = relay.nn.conv2d %x, %ds_w {strides = array<i64: 2, 2>} : (tensor<1x64x56x56xf32>, tensor<128x64x1x1xf32>)
  %dsb, %dsb_mean, %dsb_var = relay.nn.batch_norm %ds, %ds_gamma, %ds_beta, %ds_mean, %ds_var {epsilon = 1.0e-05 : f64} : (tensor<1x128x28x28xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128xf32>)
  %sum = relay.add %b2, %dsb : (tensor<1x128x28x28xf32>, tensor<1x128x28x28xf32>)
  %out = relay.nn.relu %sum : (tensor<1x128x28x28xf32>)
  return %out : tensor<1x128x28x28xf32>
}
