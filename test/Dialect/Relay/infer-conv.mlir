// RUN: raf-opt %s | FileCheck %s

// Result types of nn.conv2d and nn.conv2d_transpose. Expected sizes were
// computed by hand from
//   conv2d:    (H + pad_top + pad_bottom - dilation * (KH - 1) - 1) / stride + 1
//   transpose: (H - 1) * stride - pad_top - pad_bottom
//              + dilation * (KH - 1) + output_padding + 1
// (the formulas of PyTorch's Conv2d / ConvTranspose2d).

// CHECK-LABEL: func.func @conv2d_nchw
func.func @conv2d_nchw(%x: tensor<1x3x224x224xf32>, %w: tensor<64x3x7x7xf32>,
                       %d: tensor<?x3x224x224xf32>) {
  // ResNet stem: (224 + 6 - 6 - 1) / 2 + 1 = 112.
  // CHECK: relay.nn.conv2d %{{.*}}, %{{.*}} {padding = array<i64: 3>, strides = array<i64: 2, 2>} : (tensor<1x3x224x224xf32>, tensor<64x3x7x7xf32>) -> tensor<1x64x112x112xf32>
  %0 = relay.nn.conv2d %x, %w {strides = array<i64: 2, 2>, padding = array<i64: 3>} : (tensor<1x3x224x224xf32>, tensor<64x3x7x7xf32>)
  // No padding, stride 1: 224 - 7 + 1 = 218. A dynamic batch stays dynamic.
  // CHECK: relay.nn.conv2d %{{.*}}, %{{.*}} : (tensor<?x3x224x224xf32>, tensor<64x3x7x7xf32>) -> tensor<?x64x218x218xf32>
  %1 = relay.nn.conv2d %d, %w : (tensor<?x3x224x224xf32>, tensor<64x3x7x7xf32>)
  return
}

// CHECK-LABEL: func.func @conv2d_nhwc_hwio
func.func @conv2d_nhwc_hwio(%x: tensor<2x32x32x16xf32>, %w: tensor<3x3x16x8xf32>) {
  // 2-value padding (top/bottom, left/right): (32 + 2 - 2 - 1) / 1 + 1 = 32;
  // the output is NHWC with O = 8.
  // CHECK: relay.nn.conv2d %{{.*}}, %{{.*}} {data_layout = #relay.layout<NHWC>, kernel_layout = #relay.layout<HWIO>, padding = array<i64: 1, 1>} : (tensor<2x32x32x16xf32>, tensor<3x3x16x8xf32>) -> tensor<2x32x32x8xf32>
  %0 = relay.nn.conv2d %x, %w {data_layout = #relay.layout<NHWC>, kernel_layout = #relay.layout<HWIO>, padding = array<i64: 1, 1>} : (tensor<2x32x32x16xf32>, tensor<3x3x16x8xf32>)
  // Strides (2, 1) and padding only along W: H = (32 - 3) / 2 + 1 = 15,
  // W = (32 + 2 - 3) / 1 + 1 = 32.
  // CHECK: -> tensor<2x15x32x8xf32>
  %1 = relay.nn.conv2d %x, %w {data_layout = #relay.layout<NHWC>, kernel_layout = #relay.layout<HWIO>, padding = array<i64: 0, 1>, strides = array<i64: 2, 1>} : (tensor<2x32x32x16xf32>, tensor<3x3x16x8xf32>)
  return
}

// CHECK-LABEL: func.func @conv2d_padding_4
func.func @conv2d_padding_4(%x: tensor<1x1x10x12xf32>, %w: tensor<2x1x3x3xf32>) {
  // 4-value padding is (top, left, bottom, right) = (1, 2, 0, 1):
  // H = 10 + 1 + 0 - 3 + 1 = 9, W = 12 + 2 + 1 - 3 + 1 = 13.
  // CHECK: -> tensor<1x2x9x13xf32>
  %0 = relay.nn.conv2d %x, %w {padding = array<i64: 1, 2, 0, 1>} : (tensor<1x1x10x12xf32>, tensor<2x1x3x3xf32>)
  // Stride 3 that does not divide: (10 - 3) / 3 + 1 = 3, (12 - 3) / 3 + 1 = 4.
  // CHECK: -> tensor<1x2x3x4xf32>
  %1 = relay.nn.conv2d %x, %w {strides = array<i64: 3, 3>} : (tensor<1x1x10x12xf32>, tensor<2x1x3x3xf32>)
  return
}

// CHECK-LABEL: func.func @conv2d_dilation
func.func @conv2d_dilation(%x: tensor<1x4x20x20xf32>, %w: tensor<8x4x3x3xf32>) {
  // Dilated kernel spans 2 * 2 + 1 = 5: 20 - 5 + 1 = 16.
  // CHECK: -> tensor<1x8x16x16xf32>
  %0 = relay.nn.conv2d %x, %w {dilation = array<i64: 2, 2>} : (tensor<1x4x20x20xf32>, tensor<8x4x3x3xf32>)
  // Dilation (2, 3), strides (1, 2): H = 16, W = (20 - 6 - 1) / 2 + 1 = 7.
  // CHECK: -> tensor<1x8x16x7xf32>
  %1 = relay.nn.conv2d %x, %w {dilation = array<i64: 2, 3>, strides = array<i64: 1, 2>} : (tensor<1x4x20x20xf32>, tensor<8x4x3x3xf32>)
  return
}

// CHECK-LABEL: func.func @conv2d_groups
func.func @conv2d_groups(%x: tensor<1x8x16x16xf32>, %w: tensor<16x2x3x3xf32>,
                         %dx: tensor<1x32x14x14xf32>, %dw: tensor<32x1x3x3xf32>,
                         %mw: tensor<64x1x3x3xf32>) {
  // Grouped: C = 8 = I (2) * groups (4); O = 16.
  // CHECK: relay.nn.conv2d %{{.*}}, %{{.*}} {groups = 4 : i64, padding = array<i64: 1>} : (tensor<1x8x16x16xf32>, tensor<16x2x3x3xf32>) -> tensor<1x16x16x16xf32>
  %0 = relay.nn.conv2d %x, %w {groups = 4 : i64, padding = array<i64: 1>} : (tensor<1x8x16x16xf32>, tensor<16x2x3x3xf32>)
  // Depthwise (groups = C), stride 2: (14 + 2 - 3) / 2 + 1 = 7.
  // CHECK: -> tensor<1x32x7x7xf32>
  %1 = relay.nn.conv2d %dx, %dw {groups = 32 : i64, padding = array<i64: 1>, strides = array<i64: 2, 2>} : (tensor<1x32x14x14xf32>, tensor<32x1x3x3xf32>)
  // Depthwise with channel multiplier 2.
  // CHECK: -> tensor<1x64x12x12xf32>
  %2 = relay.nn.conv2d %dx, %mw {groups = 32 : i64} : (tensor<1x32x14x14xf32>, tensor<64x1x3x3xf32>)
  return
}

// CHECK-LABEL: func.func @conv2d_out_dtype
func.func @conv2d_out_dtype(%x: tensor<1x3x8x8xi8>, %w: tensor<4x3x3x3xi8>) {
  // Quantised convolution accumulates in i32.
  // CHECK: relay.nn.conv2d %{{.*}}, %{{.*}} {out_dtype = i32} : (tensor<1x3x8x8xi8>, tensor<4x3x3x3xi8>) -> tensor<1x4x6x6xi32>
  %0 = relay.nn.conv2d %x, %w {out_dtype = i32} : (tensor<1x3x8x8xi8>, tensor<4x3x3x3xi8>)
  // Without out_dtype the input element type is kept.
  // CHECK: -> tensor<1x4x6x6xi8>
  %1 = relay.nn.conv2d %x, %w : (tensor<1x3x8x8xi8>, tensor<4x3x3x3xi8>)
  return
}

// CHECK-LABEL: func.func @conv2d_transpose
func.func @conv2d_transpose(%x: tensor<1x16x7x7xf32>, %w: tensor<16x8x3x3xf32>,
                            %g: tensor<1x4x5x5xf32>, %gw: tensor<4x3x3x3xf32>,
                            %n: tensor<1x5x5x4xf32>) {
  // (7 - 1) * 2 - 1 - 1 + 1 * 2 + 1 + 1 = 14: exactly inverts a stride-2
  // padding-1 conv2d of a 14x14 input.
  // CHECK: relay.nn.conv2d_transpose %{{.*}}, %{{.*}} {output_padding = array<i64: 1, 1>, padding = array<i64: 1>, strides = array<i64: 2, 2>} : (tensor<1x16x7x7xf32>, tensor<16x8x3x3xf32>) -> tensor<1x8x14x14xf32>
  %0 = relay.nn.conv2d_transpose %x, %w {strides = array<i64: 2, 2>, padding = array<i64: 1>, output_padding = array<i64: 1, 1>} : (tensor<1x16x7x7xf32>, tensor<16x8x3x3xf32>)
  // Without output_padding: 13.
  // CHECK: -> tensor<1x8x13x13xf32>
  %1 = relay.nn.conv2d_transpose %x, %w {strides = array<i64: 2, 2>, padding = array<i64: 1>} : (tensor<1x16x7x7xf32>, tensor<16x8x3x3xf32>)
  // Output padding only along W: H = 13, W = 14.
  // CHECK: -> tensor<1x8x13x14xf32>
  %2 = relay.nn.conv2d_transpose %x, %w {strides = array<i64: 2, 2>, padding = array<i64: 1>, output_padding = array<i64: 0, 1>} : (tensor<1x16x7x7xf32>, tensor<16x8x3x3xf32>)
  // Groups: output channels = (O / groups) * groups = 3 * 2 = 6;
  // (5 - 1) + 2 + 1 = 7.
  // CHECK: -> tensor<1x6x7x7xf32>
  %3 = relay.nn.conv2d_transpose %g, %gw {groups = 2 : i64} : (tensor<1x4x5x5xf32>, tensor<4x3x3x3xf32>)
  // Dilation 2: (5 - 1) + 2 * 2 + 1 = 9.
  // CHECK: -> tensor<1x3x9x9xf32>
  %4 = relay.nn.conv2d_transpose %g, %gw {dilation = array<i64: 2, 2>} : (tensor<1x4x5x5xf32>, tensor<4x3x3x3xf32>)
  // NHWC data.
  // CHECK: -> tensor<1x7x7x3xf32>
  %5 = relay.nn.conv2d_transpose %n, %gw {data_layout = #relay.layout<NHWC>} : (tensor<1x5x5x4xf32>, tensor<4x3x3x3xf32>)
  return
}
