// RUN: raf-opt %s | FileCheck %s

// Result types of normalisation, activation-over-an-axis and loss operators.

// CHECK-LABEL: func.func @softmax
func.func @softmax(%x: tensor<2x5x8xf32>, %v: tensor<10xf16>) {
  // CHECK: relay.nn.softmax %{{.*}} : (tensor<2x5x8xf32>) -> tensor<2x5x8xf32>
  %0 = relay.nn.softmax %x : (tensor<2x5x8xf32>)
  // CHECK: relay.nn.softmax %{{.*}} {axis = 1 : i64} : (tensor<2x5x8xf32>) -> tensor<2x5x8xf32>
  %1 = relay.nn.softmax %x {axis = 1 : i64} : (tensor<2x5x8xf32>)
  // CHECK: relay.nn.log_softmax %{{.*}} {axis = -3 : i64} : (tensor<2x5x8xf32>) -> tensor<2x5x8xf32>
  %2 = relay.nn.log_softmax %x {axis = -3 : i64} : (tensor<2x5x8xf32>)
  // CHECK: relay.nn.log_softmax %{{.*}} : (tensor<10xf16>) -> tensor<10xf16>
  %3 = relay.nn.log_softmax %v : (tensor<10xf16>)
  return
}

// gamma and beta have the size of the normalised axis.
// CHECK-LABEL: func.func @layer_norm
func.func @layer_norm(%x: tensor<2x5x8xf32>, %g8: tensor<8xf32>, %g5: tensor<5xf32>) {
  // CHECK: relay.nn.layer_norm %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x5x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x5x8xf32>
  %0 = relay.nn.layer_norm %x, %g8, %g8 : (tensor<2x5x8xf32>, tensor<8xf32>, tensor<8xf32>)
  // CHECK: relay.nn.layer_norm %{{.*}}, %{{.*}}, %{{.*}} {axis = 1 : i64, center = false, scale = false} : (tensor<2x5x8xf32>, tensor<5xf32>, tensor<5xf32>) -> tensor<2x5x8xf32>
  %1 = relay.nn.layer_norm %x, %g5, %g5 {axis = 1 : i64, center = false, scale = false} : (tensor<2x5x8xf32>, tensor<5xf32>, tensor<5xf32>)
  return
}

// nn.batch_norm has three results: the output and the new moving mean and
// variance, both [C] where C is the size of `axis`.
// CHECK-LABEL: func.func @batch_norm
func.func @batch_norm(%x: tensor<4x16x7x7xf32>, %c16: tensor<16xf32>,
                      %n: tensor<4x7x7x3xf16>, %c3: tensor<3xf16>,
                      %s: tensor<8x6xf32>, %c6: tensor<6xf32>) {
  // CHECK: relay.nn.batch_norm %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<4x16x7x7xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> (tensor<4x16x7x7xf32>, tensor<16xf32>, tensor<16xf32>)
  %0:3 = relay.nn.batch_norm %x, %c16, %c16, %c16, %c16 : (tensor<4x16x7x7xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>)
  // NHWC: channels on the last axis.
  // CHECK: relay.nn.batch_norm %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {axis = -1 : i64, momentum = 0.000000e+00 : f64, training = true} : (tensor<4x7x7x3xf16>, tensor<3xf16>, tensor<3xf16>, tensor<3xf16>, tensor<3xf16>) -> (tensor<4x7x7x3xf16>, tensor<3xf16>, tensor<3xf16>)
  %1:3 = relay.nn.batch_norm %n, %c3, %c3, %c3, %c3 {axis = -1 : i64, training = true, momentum = 0.0 : f64} : (tensor<4x7x7x3xf16>, tensor<3xf16>, tensor<3xf16>, tensor<3xf16>, tensor<3xf16>)
  // A 2-D input (BatchNorm1d).
  // CHECK: -> (tensor<8x6xf32>, tensor<6xf32>, tensor<6xf32>)
  %2:3 = relay.nn.batch_norm %s, %c6, %c6, %c6, %c6 : (tensor<8x6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>)
  return
}

// nn.cross_entropy: logits [N, C] against [N] class indices or [N, C]
// probabilities; a scalar unless reduction = #relay.loss_reduction<none>, which gives [N].
// CHECK-LABEL: func.func @cross_entropy
func.func @cross_entropy(%logits: tensor<4x10xf32>, %idx: tensor<4xi64>,
                         %idx32: tensor<4xi32>, %prob: tensor<4x10xf32>) {
  // CHECK: relay.nn.cross_entropy %{{.*}}, %{{.*}} : (tensor<4x10xf32>, tensor<4xi64>) -> tensor<f32>
  %0 = relay.nn.cross_entropy %logits, %idx : (tensor<4x10xf32>, tensor<4xi64>)
  // CHECK: relay.nn.cross_entropy %{{.*}}, %{{.*}} {reduction = #relay.loss_reduction<sum>} : (tensor<4x10xf32>, tensor<4xi32>) -> tensor<f32>
  %1 = relay.nn.cross_entropy %logits, %idx32 {reduction = #relay.loss_reduction<sum>} : (tensor<4x10xf32>, tensor<4xi32>)
  // CHECK: relay.nn.cross_entropy %{{.*}}, %{{.*}} : (tensor<4x10xf32>, tensor<4x10xf32>) -> tensor<f32>
  %2 = relay.nn.cross_entropy %logits, %prob : (tensor<4x10xf32>, tensor<4x10xf32>)
  // CHECK: relay.nn.cross_entropy %{{.*}}, %{{.*}} {reduction = #relay.loss_reduction<none>} : (tensor<4x10xf32>, tensor<4xi64>) -> tensor<4xf32>
  %3 = relay.nn.cross_entropy %logits, %idx {reduction = #relay.loss_reduction<none>} : (tensor<4x10xf32>, tensor<4xi64>)
  // CHECK: relay.nn.cross_entropy %{{.*}}, %{{.*}} {reduction = #relay.loss_reduction<none>} : (tensor<4x10xf32>, tensor<4x10xf32>) -> tensor<4xf32>
  %4 = relay.nn.cross_entropy %logits, %prob {reduction = #relay.loss_reduction<none>} : (tensor<4x10xf32>, tensor<4x10xf32>)
  return
}

// nn.nll_loss: predictions [N, C, d...], targets [N, d...]; reduction
// "none" keeps [N, d...].
// CHECK-LABEL: func.func @nll_loss
func.func @nll_loss(%p: tensor<4x10xf32>, %t: tensor<4xi64>,
                    %pk: tensor<2x5x3x4xf32>, %tk: tensor<2x3x4xi32>) {
  // CHECK: relay.nn.nll_loss %{{.*}}, %{{.*}} : (tensor<4x10xf32>, tensor<4xi64>) -> tensor<f32>
  %0 = relay.nn.nll_loss %p, %t : (tensor<4x10xf32>, tensor<4xi64>)
  // CHECK: relay.nn.nll_loss %{{.*}}, %{{.*}} {reduction = #relay.loss_reduction<none>} : (tensor<4x10xf32>, tensor<4xi64>) -> tensor<4xf32>
  %1 = relay.nn.nll_loss %p, %t {reduction = #relay.loss_reduction<none>} : (tensor<4x10xf32>, tensor<4xi64>)
  // K-dimensional loss (e.g. per-pixel segmentation).
  // CHECK: relay.nn.nll_loss %{{.*}}, %{{.*}} {ignore_index = 255 : i64} : (tensor<2x5x3x4xf32>, tensor<2x3x4xi32>) -> tensor<f32>
  %2 = relay.nn.nll_loss %pk, %tk {ignore_index = 255 : i64} : (tensor<2x5x3x4xf32>, tensor<2x3x4xi32>)
  // CHECK: relay.nn.nll_loss %{{.*}}, %{{.*}} {reduction = #relay.loss_reduction<none>} : (tensor<2x5x3x4xf32>, tensor<2x3x4xi32>) -> tensor<2x3x4xf32>
  %3 = relay.nn.nll_loss %pk, %tk {reduction = #relay.loss_reduction<none>} : (tensor<2x5x3x4xf32>, tensor<2x3x4xi32>)
  return
}

// CHECK-LABEL: func.func @other_nn
func.func @other_nn(%x: tensor<3x4xbf16>) {
  // CHECK: relay.nn.dropout %{{.*}} {rate = 1.000000e-01 : f64} : (tensor<3x4xbf16>) -> tensor<3x4xbf16>
  %0 = relay.nn.dropout %x {rate = 0.1 : f64} : (tensor<3x4xbf16>)
  // CHECK: relay.nn.gelu %{{.*}} {approximate = #relay.gelu_approximation<tanh>} : (tensor<3x4xbf16>) -> tensor<3x4xbf16>
  %1 = relay.nn.gelu %x {approximate = #relay.gelu_approximation<tanh>} : (tensor<3x4xbf16>)
  return
}
