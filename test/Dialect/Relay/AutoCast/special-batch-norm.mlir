// RUN: raf-opt %s --raf-autocast=inference=true | FileCheck %s

// nn.batch_norm: RAF casts the data to f16 and keeps scale, bias and the
// moving statistics in f32. relay.nn.batch_norm needs one element type for
// the data and the statistics, so it keeps the statistics' f32: an f16
// convolution output is cast back, and the normalised result and the new
// statistics are f32. The next convolution casts again.

// CHECK-LABEL: func.func @conv_bn(
// CHECK-SAME: %[[X:.*]]: tensor<2x1x4x4xf32>, %[[W:.*]]: tensor<2x1x3x3xf32>, %[[G:.*]]: tensor<2xf32>, %[[B:.*]]: tensor<2xf32>, %[[M:.*]]: tensor<2xf32>, %[[V:.*]]: tensor<2xf32>, %[[W2:.*]]: tensor<2x2x3x3xf32>)
// CHECK:        %[[C:.*]] = relay.nn.conv2d {{.*}} -> tensor<2x2x4x4xf16>
// CHECK-NEXT:   %[[CF:.*]] = relay.cast %[[C]] {dtype = f32} : (tensor<2x2x4x4xf16>) -> tensor<2x2x4x4xf32>
// CHECK-NEXT:   %[[Y:.*]], %[[NM:.*]], %[[NV:.*]] = relay.nn.batch_norm %[[CF]], %[[G]], %[[B]], %[[M]], %[[V]] {training = true}
// CHECK-SAME:     -> (tensor<2x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>)
// CHECK-NEXT:   %[[R:.*]] = relay.nn.relu %[[Y]] : (tensor<2x2x4x4xf32>) -> tensor<2x2x4x4xf32>
// CHECK-NEXT:   %[[RH:.*]] = relay.cast %[[R]] {dtype = f16}
// CHECK-NEXT:   %[[W2H:.*]] = relay.cast %[[W2]] {dtype = f16}
// CHECK-NEXT:   %[[C2:.*]] = relay.nn.conv2d %[[RH]], %[[W2H]]
// The statistics are not in f16: returned as they are.
// CHECK-NEXT:   return %[[C2]], %[[NM]], %[[NV]] : tensor<2x2x2x2xf16>, tensor<2xf32>, tensor<2xf32>
func.func @conv_bn(%x: tensor<2x1x4x4xf32>, %w: tensor<2x1x3x3xf32>, %g: tensor<2xf32>,
                   %b: tensor<2xf32>, %m: tensor<2xf32>, %v: tensor<2xf32>,
                   %w2: tensor<2x2x3x3xf32>)
    -> (tensor<2x2x2x2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %c = relay.nn.conv2d %x, %w {padding = array<i64: 1>} : (tensor<2x1x4x4xf32>, tensor<2x1x3x3xf32>)
  %y, %nm, %nv = relay.nn.batch_norm %c, %g, %b, %m, %v {training = true}
      : (tensor<2x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>)
  %r = relay.nn.relu %y : (tensor<2x2x4x4xf32>)
  %c2 = relay.nn.conv2d %r, %w2 : (tensor<2x2x4x4xf32>, tensor<2x2x3x3xf32>)
  return %c2, %nm, %nv : tensor<2x2x2x2xf32>, tensor<2xf32>, tensor<2xf32>
}
