// Inference batch norms become a per-channel scale and shift (TVM's
// SimplifyInference), which fuse with the convolution before them.
// RUN: raf-opt --raf-simplify-inference %s | FileCheck %s
// RUN: raf-opt --raf-simplify-inference --raf-fuse %s | FileCheck %s --check-prefix=FUSED
// Conv + batch norm + ReLU, channels-last batch norm, and batch norm without
// gamma/beta, compiled for the CPU, against the evaluator on the original
// batch norms.
// RUN: rm -rf %t && mkdir -p %t
// RUN: for k in conv_bn_relu last no_affine; do raf-run %s --entry=$k --target=cpu --seed=9 --output=%t/$k.cpu.npy && raf-run %s --entry=$k --target=interp --seed=9 --output=%t/$k.ref.npy || exit 1; done
// RUN: %python -c "import numpy as np; [np.testing.assert_allclose(np.load('%t/' + k + '.cpu.npy'), np.load('%t/' + k + '.ref.npy'), rtol=1e-5, atol=1e-5) for k in 'conv_bn_relu last no_affine'.split()]; print('all match')" | FileCheck %s --check-prefix=EXEC
// EXEC: all match

// CHECK-LABEL: func.func @conv_bn_relu(
// CHECK-SAME: %[[X:[^:]*]]: tensor<1x4x6x6xf32>, %[[W:[^:]*]]: tensor<8x4x3x3xf32>, %[[G:[^:]*]]: tensor<8xf32>, %[[B:[^:]*]]: tensor<8xf32>, %[[M:[^:]*]]: tensor<8xf32>, %[[V:[^:]*]]: tensor<8xf32>
// CHECK-NOT: relay.nn.batch_norm
// CHECK: %[[EPS:.*]] = relay.constant dense<1.000000e-03> : tensor<f32>
// CHECK: %[[VE:.*]] = relay.add %[[V]], %[[EPS]]
// CHECK: %[[R:.*]] = relay.rsqrt %[[VE]]
// CHECK: %[[S:.*]] = relay.multiply %[[R]], %[[G]]
// CHECK: %[[MS:.*]] = relay.multiply %[[M]], %[[S]]
// CHECK: %[[SH:.*]] = relay.subtract %[[B]], %[[MS]]
// CHECK: %[[S3:.*]] = relay.reshape %[[S]] {newshape = array<i64: 8, 1, 1>}
// CHECK: %[[SH3:.*]] = relay.reshape %[[SH]] {newshape = array<i64: 8, 1, 1>}
// CHECK: %[[Y:.*]] = relay.multiply %{{.*}}, %[[S3]]
// CHECK: %[[Z:.*]] = relay.add %[[Y]], %[[SH3]]
// CHECK: relay.nn.relu %[[Z]]
// CHECK: return %{{.*}}, %[[M]], %[[V]]

// The convolution, the scale, the shift and the ReLU are one fused group.
// FUSED-LABEL: func.func private @conv_bn_relu_fused
// FUSED: relay.nn.conv2d
// FUSED: relay.multiply
// FUSED: relay.add
// FUSED: relay.nn.relu
func.func @conv_bn_relu(%x: tensor<1x4x6x6xf32>, %w: tensor<8x4x3x3xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>, %m: tensor<8xf32>, %v: tensor<8xf32>) -> (tensor<1x8x6x6xf32>, tensor<8xf32>, tensor<8xf32>) {
  %c = relay.nn.conv2d %x, %w {padding = array<i64: 1>} : (tensor<1x4x6x6xf32>, tensor<8x4x3x3xf32>)
  %y:3 = relay.nn.batch_norm %c, %g, %b, %m, %v {epsilon = 1.0e-3 : f64} : (tensor<1x8x6x6xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>)
  %r = relay.nn.relu %y#0 : (tensor<1x8x6x6xf32>)
  return %r, %y#1, %y#2 : tensor<1x8x6x6xf32>, tensor<8xf32>, tensor<8xf32>
}

// Channels last: no reshape.
// CHECK-LABEL: func.func @last(
// CHECK-NOT: relay.reshape
// CHECK-NOT: relay.nn.batch_norm
// CHECK: return
func.func @last(%x: tensor<2x3x5xf32>, %g: tensor<5xf32>, %b: tensor<5xf32>, %m: tensor<5xf32>, %v: tensor<5xf32>) -> tensor<2x3x5xf32> {
  %y:3 = relay.nn.batch_norm %x, %g, %b, %m, %v {axis = -1 : i64} : (tensor<2x3x5xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>)
  return %y#0 : tensor<2x3x5xf32>
}

// Without gamma and beta: the shift is -mean * s.
// CHECK-LABEL: func.func @no_affine(
// CHECK: relay.rsqrt
// CHECK-NOT: relay.subtract
// CHECK: relay.negative
func.func @no_affine(%x: tensor<2x3x4x4xf32>, %g: tensor<3xf32>, %b: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) -> tensor<2x3x4x4xf32> {
  %y:3 = relay.nn.batch_norm %x, %g, %b, %m, %v {center = false, scale = false} : (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>)
  return %y#0 : tensor<2x3x4x4xf32>
}

// Training-mode batch norms stay.
// CHECK-LABEL: func.func @training(
// CHECK: relay.nn.batch_norm
func.func @training(%x: tensor<2x3x4x4xf32>, %g: tensor<3xf32>, %b: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) -> tensor<2x3x4x4xf32> {
  %y:3 = relay.nn.batch_norm %x, %g, %b, %m, %v {training = true} : (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>)
  return %y#0 : tensor<2x3x4x4xf32>
}
