// RUN: raf-opt --convert-tosa-to-relay %s | FileCheck %s
// RUN: raf-opt --convert-tosa-to-relay %s | raf-opt | FileCheck %s

// TOSA's NHWC data and OHWI weights are stated as relay layouts; padding
// [top, bottom, left, right] becomes relay's [top, left, bottom, right]; the
// zero-point constants disappear with their users.

// CHECK-LABEL: func.func @conv
// CHECK-NOT: tosa.
// CHECK: %[[C:.*]] = relay.nn.conv2d %arg0, %arg1 {data_layout = #relay.layout<NHWC>, kernel_layout = #relay.layout<OHWI>, padding = array<i64: 1, 0, 1, 2>, strides = array<i64: 2, 1>} : (tensor<1x5x5x2xf32>, tensor<3x3x3x2xf32>) -> tensor<1x3x5x3xf32>
// CHECK-NEXT: %[[B:.*]] = relay.nn.bias_add %[[C]], %arg2 {axis = 3 : i64}
// CHECK-NEXT: return %[[B]]
func.func @conv(%x: tensor<1x5x5x2xf32>, %w: tensor<3x3x3x2xf32>, %b: tensor<3xf32>) -> tensor<1x3x5x3xf32> {
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %0 = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 0, 2>, stride = array<i64: 2, 1>} : (tensor<1x5x5x2xf32>, tensor<3x3x3x2xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x5x3xf32>
  return %0 : tensor<1x3x5x3xf32>
}
// Depthwise [KH, KW, C, M] weights: reshaped to HWIO [KH, KW, 1, C * M],
// grouped by C.
// CHECK-LABEL: func.func @dw
// CHECK-NEXT: %[[W:.*]] = relay.reshape %arg1 {newshape = array<i64: 3, 3, 1, 4>} : (tensor<3x3x2x2xf32>) -> tensor<3x3x1x4xf32>
// CHECK-NEXT: %[[C:.*]] = relay.nn.conv2d %arg0, %[[W]] {data_layout = #relay.layout<NHWC>, groups = 2 : i64, kernel_layout = #relay.layout<HWIO>, padding = array<i64: 1, 1, 1, 1>}
// CHECK-NEXT: relay.nn.bias_add %[[C]], %arg2 {axis = 3 : i64}
func.func @dw(%x: tensor<1x5x5x2xf32>, %w: tensor<3x3x2x2xf32>, %b: tensor<4xf32>) -> tensor<1x5x5x4xf32> {
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %0 = tosa.depthwise_conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x5x5x2xf32>, tensor<3x3x2x2xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x5x5x4xf32>
  return %0 : tensor<1x5x5x4xf32>
}
// CHECK-LABEL: func.func @pool
// CHECK-NEXT: relay.nn.max_pool2d %arg0 {layout = #relay.layout<NHWC>, pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x4x4x2xf32>) -> tensor<1x2x2x2xf32>
// CHECK-NEXT: relay.nn.avg_pool2d %arg0 {layout = #relay.layout<NHWC>, padding = array<i64: 1, 1, 1, 1>, pool_size = array<i64: 3, 3>} : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
func.func @pool(%x: tensor<1x4x4x2xf32>) -> (tensor<1x2x2x2xf32>, tensor<1x4x4x2xf32>) {
  %0 = tosa.max_pool2d %x {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x4x4x2xf32>) -> tensor<1x2x2x2xf32>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %1 = tosa.avg_pool2d %x, %zp, %zp {acc_type = f32, kernel = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x4x4x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x2xf32>
  return %0, %1 : tensor<1x2x2x2xf32>, tensor<1x4x4x2xf32>
}

// A one-element bias broadcasts: relay.add instead of nn.bias_add.
// CHECK-LABEL: func.func @conv_scalar_bias
// CHECK: %[[C:.*]] = relay.nn.conv2d
// CHECK-NEXT: relay.add %[[C]], %arg2 : (tensor<1x4x4x3xf32>, tensor<1xf32>) -> tensor<1x4x4x3xf32>
func.func @conv_scalar_bias(%x: tensor<1x4x4x2xf32>, %w: tensor<3x1x1x2xf32>, %b: tensor<1xf32>) -> tensor<1x4x4x3xf32> {
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %0 = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x2xf32>, tensor<3x1x1x2xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x3xf32>
  return %0 : tensor<1x4x4x3xf32>
}

// Dilation passes through; f16 inputs accumulated into an f32 result set
// relay's out_dtype.
// CHECK-LABEL: func.func @conv_f16_dilated
// CHECK: relay.nn.conv2d %arg0, %arg1 {data_layout = #relay.layout<NHWC>, dilation = array<i64: 2, 2>, kernel_layout = #relay.layout<OHWI>, out_dtype = f32} : (tensor<1x5x5x2xf16>, tensor<3x3x3x2xf16>) -> tensor<1x1x1x3xf32>
func.func @conv_f16_dilated(%x: tensor<1x5x5x2xf16>, %w: tensor<3x3x3x2xf16>, %b: tensor<3xf32>) -> tensor<1x1x1x3xf32> {
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf16>} : () -> tensor<1xf16>
  %0 = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x5x5x2xf16>, tensor<3x3x3x2xf16>, tensor<3xf32>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x1x1x3xf32>
  return %0 : tensor<1x1x1x3xf32>
}

// CHECK-LABEL: func.func @matmul
// CHECK-NEXT: relay.nn.batch_matmul %arg0, %arg1 {transpose_b = false} : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
func.func @matmul(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) -> tensor<2x3x5xf32> {
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %0 = tosa.matmul %a, %b, %zp, %zp : (tensor<2x3x4xf32>, tensor<2x4x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x3x5xf32>
  return %0 : tensor<2x3x5xf32>
}
