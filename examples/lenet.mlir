// LeNet-5-style CNN for MNIST (LeCun et al. 1998, in the common modern form:
// ReLU activations, max pooling, a padded first convolution so that 28x28
// MNIST digits give the classic 28x28 C1 / 14x14 S2 / 10x10 C3 / 5x5 S4
// feature maps), NCHW, OIHW weights, f32, batch 8.
//
// Input: 8x1x28x28 (MNIST images are 1x28x28; batch 8). Layer shapes:
//   C1  conv 5x5, 1->6,  pad 2     -> 8x6x28x28   (+ bias, relu)
//   S2  max_pool 2x2, stride 2      -> 8x6x14x14
//   C3  conv 5x5, 6->16, no pad     -> 8x16x10x10  (+ bias, relu)
//   S4  max_pool 2x2, stride 2      -> 8x16x5x5
//   flatten                         -> 8x400       (16 * 5 * 5)
//   F5  dense 400->120 (+ bias, relu)
//   F6  dense 120->84  (+ bias, relu)
//   F7  dense 84->10   (+ bias)
//   log_softmax over classes        -> 8x10
// Weights follow PyTorch's nn.Conv2d ([O, I, KH, KW]) and nn.Linear
// ([out, in], which is what nn.dense expects) layouts.
//
// @lenet returns the 8x10 log-probabilities; @loss is the training
// objective: the same forward graph (spelled out, not a func.call, so the
// function is self-contained for per-function cost totals and rewrites)
// followed by nn.nll_loss (mean reduction, i.e. PyTorch's
// F.nll_loss(F.log_softmax(logits), labels)) against 8 i64 class labels,
// returning a scalar f32.

func.func @lenet(%x: tensor<8x1x28x28xf32>,
    %c1_w: tensor<6x1x5x5xf32>, %c1_b: tensor<6xf32>,
    %c3_w: tensor<16x6x5x5xf32>, %c3_b: tensor<16xf32>,
    %f5_w: tensor<120x400xf32>, %f5_b: tensor<120xf32>,
    %f6_w: tensor<84x120xf32>, %f6_b: tensor<84xf32>,
    %f7_w: tensor<10x84xf32>, %f7_b: tensor<10xf32>)
    -> tensor<8x10xf32> {
  %c1 = relay.nn.conv2d %x, %c1_w {padding = array<i64: 2>} : (tensor<8x1x28x28xf32>, tensor<6x1x5x5xf32>)
  %c1b = relay.nn.bias_add %c1, %c1_b {axis = 1 : i64} : (tensor<8x6x28x28xf32>, tensor<6xf32>)
  %c1r = relay.nn.relu %c1b : (tensor<8x6x28x28xf32>)
  %s2 = relay.nn.max_pool2d %c1r {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<8x6x28x28xf32>)
  %c3 = relay.nn.conv2d %s2, %c3_w : (tensor<8x6x14x14xf32>, tensor<16x6x5x5xf32>)
  %c3b = relay.nn.bias_add %c3, %c3_b {axis = 1 : i64} : (tensor<8x16x10x10xf32>, tensor<16xf32>)
  %c3r = relay.nn.relu %c3b : (tensor<8x16x10x10xf32>)
  %s4 = relay.nn.max_pool2d %c3r {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<8x16x10x10xf32>)
  %flat = relay.reshape %s4 {newshape = array<i64: 0, -1>} : (tensor<8x16x5x5xf32>)
  %f5 = relay.nn.dense %flat, %f5_w : (tensor<8x400xf32>, tensor<120x400xf32>)
  %f5b = relay.nn.bias_add %f5, %f5_b {axis = -1 : i64} : (tensor<8x120xf32>, tensor<120xf32>)
  %f5r = relay.nn.relu %f5b : (tensor<8x120xf32>)
  %f6 = relay.nn.dense %f5r, %f6_w : (tensor<8x120xf32>, tensor<84x120xf32>)
  %f6b = relay.nn.bias_add %f6, %f6_b {axis = -1 : i64} : (tensor<8x84xf32>, tensor<84xf32>)
  %f6r = relay.nn.relu %f6b : (tensor<8x84xf32>)
  %f7 = relay.nn.dense %f6r, %f7_w : (tensor<8x84xf32>, tensor<10x84xf32>)
  %f7b = relay.nn.bias_add %f7, %f7_b {axis = -1 : i64} : (tensor<8x10xf32>, tensor<10xf32>)
  %logp = relay.nn.log_softmax %f7b {axis = -1 : i64} : (tensor<8x10xf32>)
  return %logp : tensor<8x10xf32>
}

func.func @loss(%x: tensor<8x1x28x28xf32>, %labels: tensor<8xi64>,
    %c1_w: tensor<6x1x5x5xf32>, %c1_b: tensor<6xf32>,
    %c3_w: tensor<16x6x5x5xf32>, %c3_b: tensor<16xf32>,
    %f5_w: tensor<120x400xf32>, %f5_b: tensor<120xf32>,
    %f6_w: tensor<84x120xf32>, %f6_b: tensor<84xf32>,
    %f7_w: tensor<10x84xf32>, %f7_b: tensor<10xf32>)
    -> tensor<f32> {
  %c1 = relay.nn.conv2d %x, %c1_w {padding = array<i64: 2>} : (tensor<8x1x28x28xf32>, tensor<6x1x5x5xf32>)
  %c1b = relay.nn.bias_add %c1, %c1_b {axis = 1 : i64} : (tensor<8x6x28x28xf32>, tensor<6xf32>)
  %c1r = relay.nn.relu %c1b : (tensor<8x6x28x28xf32>)
  %s2 = relay.nn.max_pool2d %c1r {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<8x6x28x28xf32>)
  %c3 = relay.nn.conv2d %s2, %c3_w : (tensor<8x6x14x14xf32>, tensor<16x6x5x5xf32>)
  %c3b = relay.nn.bias_add %c3, %c3_b {axis = 1 : i64} : (tensor<8x16x10x10xf32>, tensor<16xf32>)
  %c3r = relay.nn.relu %c3b : (tensor<8x16x10x10xf32>)
  %s4 = relay.nn.max_pool2d %c3r {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<8x16x10x10xf32>)
  %flat = relay.reshape %s4 {newshape = array<i64: 0, -1>} : (tensor<8x16x5x5xf32>)
  %f5 = relay.nn.dense %flat, %f5_w : (tensor<8x400xf32>, tensor<120x400xf32>)
  %f5b = relay.nn.bias_add %f5, %f5_b {axis = -1 : i64} : (tensor<8x120xf32>, tensor<120xf32>)
  %f5r = relay.nn.relu %f5b : (tensor<8x120xf32>)
  %f6 = relay.nn.dense %f5r, %f6_w : (tensor<8x120xf32>, tensor<84x120xf32>)
  %f6b = relay.nn.bias_add %f6, %f6_b {axis = -1 : i64} : (tensor<8x84xf32>, tensor<84xf32>)
  %f6r = relay.nn.relu %f6b : (tensor<8x84xf32>)
  %f7 = relay.nn.dense %f6r, %f7_w : (tensor<8x84xf32>, tensor<10x84xf32>)
  %f7b = relay.nn.bias_add %f7, %f7_b {axis = -1 : i64} : (tensor<8x10xf32>, tensor<10xf32>)
  %logp = relay.nn.log_softmax %f7b {axis = -1 : i64} : (tensor<8x10xf32>)
  %nll = relay.nn.nll_loss %logp, %labels {reduction = #relay.loss_reduction<mean>} : (tensor<8x10xf32>, tensor<8xi64>)
  return %nll : tensor<f32>
}
