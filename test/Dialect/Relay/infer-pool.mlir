// RUN: raf-opt %s | FileCheck %s

// Result types of the pooling operators. Output size (PyTorch's MaxPool2d):
//   floor mode: (H + pad_top + pad_bottom - dilation * (K - 1) - 1) / stride + 1
//   ceil mode:  the division rounds up, and a last window that would start in
//               the bottom/right padding (start >= H + pad_top) is dropped.

// CHECK-LABEL: func.func @max_pool
func.func @max_pool(%x: tensor<1x3x32x32xf32>, %r: tensor<1x1x8x9xf32>,
                    %d: tensor<1x1x10x10xf32>, %i: tensor<1x2x4x4xi8>) {
  // CHECK: relay.nn.max_pool2d %{{.*}} {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x3x32x32xf32>) -> tensor<1x3x16x16xf32>
  %0 = relay.nn.max_pool2d %x {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x3x32x32xf32>)
  // (32 + 2 - 3) / 2 + 1 = 16.
  // CHECK: -> tensor<1x3x16x16xf32>
  %1 = relay.nn.max_pool2d %x {pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1>} : (tensor<1x3x32x32xf32>)
  // Default stride 1: 32 - 3 + 1 = 30.
  // CHECK: -> tensor<1x3x30x30xf32>
  %2 = relay.nn.max_pool2d %x {pool_size = array<i64: 3, 3>} : (tensor<1x3x32x32xf32>)
  // Rectangular window and strides: 8 / 2 = 4, 9 / 3 = 3.
  // CHECK: -> tensor<1x1x4x3xf32>
  %3 = relay.nn.max_pool2d %r {pool_size = array<i64: 2, 3>, strides = array<i64: 2, 3>} : (tensor<1x1x8x9xf32>)
  // Dilation 2: the window spans 5; 10 - 5 + 1 = 6.
  // CHECK: -> tensor<1x1x6x6xf32>
  %4 = relay.nn.max_pool2d %d {pool_size = array<i64: 3, 3>, dilation = array<i64: 2, 2>} : (tensor<1x1x10x10xf32>)
  // Integer tensors may be pooled.
  // CHECK: -> tensor<1x2x2x2xi8>
  %5 = relay.nn.max_pool2d %i {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x2x4x4xi8>)
  return
}

// CHECK-LABEL: func.func @ceil_mode
func.func @ceil_mode(%x6: tensor<1x1x6x6xf32>, %x7: tensor<1x1x7x7xf32>,
                     %x5: tensor<1x1x5x5xf32>) {
  // 6, K 3, stride 2: floor (3 / 2) + 1 = 2, ceil (3 / 2) + 1 = 3; the last
  // window starts at 4 < 6 and is kept.
  // CHECK: -> tensor<1x1x2x2xf32>
  %0 = relay.nn.max_pool2d %x6 {pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>} : (tensor<1x1x6x6xf32>)
  // CHECK: relay.nn.max_pool2d %{{.*}} {ceil_mode = true, pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>} : (tensor<1x1x6x6xf32>) -> tensor<1x1x3x3xf32>
  %1 = relay.nn.max_pool2d %x6 {pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>, ceil_mode = true} : (tensor<1x1x6x6xf32>)
  // 7, K 2, stride 2: floor 3, ceil 4.
  // CHECK: -> tensor<1x1x3x3xf32>
  %2 = relay.nn.avg_pool2d %x7 {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x1x7x7xf32>)
  // CHECK: -> tensor<1x1x4x4xf32>
  %3 = relay.nn.avg_pool2d %x7 {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>, ceil_mode = true} : (tensor<1x1x7x7xf32>)
  // Dropped last window: 5, K 2, stride 2, padding 1. Rounding up gives
  // ceil(5 / 2) + 1 = 4 windows, but the 4th would start at 6 = H + pad_top,
  // entirely in the bottom padding, so there are 3 (PyTorch gives 3 too).
  // CHECK: relay.nn.max_pool2d %{{.*}} {ceil_mode = true, padding = array<i64: 1>, pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x1x5x5xf32>) -> tensor<1x1x3x3xf32>
  %4 = relay.nn.max_pool2d %x5 {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>, padding = array<i64: 1>, ceil_mode = true} : (tensor<1x1x5x5xf32>)
  // Same with K 2, stride 3, padding 1: rounding up gives ceil(5 / 3) + 1 = 3,
  // the 3rd window starts at 6 and is dropped.
  // CHECK: -> tensor<1x1x2x2xf32>
  %5 = relay.nn.avg_pool2d %x5 {pool_size = array<i64: 2, 2>, strides = array<i64: 3, 3>, padding = array<i64: 1>, ceil_mode = true} : (tensor<1x1x5x5xf32>)
  // A stride near INT64_MAX: rounding up must not form span + stride - 1.
  // 6, K 2: span 4, one step rounded up, 2 windows, the 2nd starting at
  // 2^63 - 1 >= 6 is dropped.
  // CHECK: strides = array<i64: 9223372036854775807, 1>} : (tensor<1x1x6x6xf32>) -> tensor<1x1x1x5xf32>
  %6 = relay.nn.max_pool2d %x6 {pool_size = array<i64: 2, 2>, strides = array<i64: 9223372036854775807, 1>, ceil_mode = true} : (tensor<1x1x6x6xf32>)
  return
}

// CHECK-LABEL: func.func @layouts
func.func @layouts(%x: tensor<2x32x32x3xf32>, %y: tensor<1x3x7x7xf32>) {
  // NHWC pools the middle axes.
  // CHECK: relay.nn.max_pool2d %{{.*}} {layout = #relay.layout<NHWC>, pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<2x32x32x3xf32>) -> tensor<2x16x16x3xf32>
  %0 = relay.nn.max_pool2d %x {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>, layout = #relay.layout<NHWC>} : (tensor<2x32x32x3xf32>)
  // 4-value padding (top, left, bottom, right) = (1, 0, 1, 0) in NHWC:
  // H = 32 + 2 - 3 + 1 = 32, W = 32 - 3 + 1 = 30.
  // CHECK: -> tensor<2x32x30x3xf32>
  %1 = relay.nn.avg_pool2d %x {pool_size = array<i64: 3, 3>, padding = array<i64: 1, 0, 1, 0>, layout = #relay.layout<NHWC>} : (tensor<2x32x32x3xf32>)
  // (7 + 2 - 3) / 2 + 1 = 4.
  // CHECK: relay.nn.avg_pool2d %{{.*}} {count_include_pad = true, padding = array<i64: 1>, pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>} : (tensor<1x3x7x7xf32>) -> tensor<1x3x4x4xf32>
  %2 = relay.nn.avg_pool2d %y {pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1>, count_include_pad = true} : (tensor<1x3x7x7xf32>)
  return
}

// CHECK-LABEL: func.func @global_avg_pool
func.func @global_avg_pool(%x: tensor<2x64x7x7xf32>, %y: tensor<2x7x5x64xf16>,
                           %d: tensor<?x64x?x?xf32>) {
  // CHECK: relay.nn.global_avg_pool2d %{{.*}} : (tensor<2x64x7x7xf32>) -> tensor<2x64x1x1xf32>
  %0 = relay.nn.global_avg_pool2d %x : (tensor<2x64x7x7xf32>)
  // CHECK: relay.nn.global_avg_pool2d %{{.*}} {layout = #relay.layout<NHWC>} : (tensor<2x7x5x64xf16>) -> tensor<2x1x1x64xf16>
  %1 = relay.nn.global_avg_pool2d %y {layout = #relay.layout<NHWC>} : (tensor<2x7x5x64xf16>)
  // CHECK: relay.nn.global_avg_pool2d %{{.*}} : (tensor<?x64x?x?xf32>) -> tensor<?x64x1x1xf32>
  %2 = relay.nn.global_avg_pool2d %d : (tensor<?x64x?x?xf32>)
  return
}

// The gradients have data's type; out_grad must have the forward result's
// (a dynamic size on either side matches any size).
// CHECK-LABEL: func.func @pool_grad
func.func @pool_grad(%x: tensor<1x2x7x7xf32>, %g: tensor<1x2x4x4xf32>,
                     %xh: tensor<2x7x7x3xf16>, %gh: tensor<2x3x3x3xf16>,
                     %xd: tensor<?x2x?x7xf32>, %gd: tensor<1x2x?x4xf32>) {
  // ceil_mode: (7 + 2 - 3) / 2 rounds up to 3, + 1 = 4.
  // CHECK: relay.nn.max_pool2d_grad %{{.*}}, %{{.*}} {ceil_mode = true, padding = array<i64: 1>, pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>} : (tensor<1x2x4x4xf32>, tensor<1x2x7x7xf32>) -> tensor<1x2x7x7xf32>
  %0 = relay.nn.max_pool2d_grad %g, %x {pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1>, ceil_mode = true} : (tensor<1x2x4x4xf32>, tensor<1x2x7x7xf32>)
  // NHWC, f16: (7 - 3) / 2 + 1 = 3.
  // CHECK: relay.nn.avg_pool2d_grad %{{.*}}, %{{.*}} {layout = #relay.layout<NHWC>, pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>} : (tensor<2x3x3x3xf16>, tensor<2x7x7x3xf16>) -> tensor<2x7x7x3xf16>
  %1 = relay.nn.avg_pool2d_grad %gh, %xh {pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>, layout = #relay.layout<NHWC>} : (tensor<2x3x3x3xf16>, tensor<2x7x7x3xf16>)
  // Dilation 2 spans 5; with padding 2: (7 + 4 - 5) / 2 + 1 = 4.
  // CHECK: relay.nn.max_pool2d_grad %{{.*}}, %{{.*}} {dilation = array<i64: 2, 2>, padding = array<i64: 2>, pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>} : (tensor<1x2x4x4xf32>, tensor<1x2x7x7xf32>) -> tensor<1x2x7x7xf32>
  %2 = relay.nn.max_pool2d_grad %g, %x {pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>, dilation = array<i64: 2, 2>, padding = array<i64: 2>} : (tensor<1x2x4x4xf32>, tensor<1x2x7x7xf32>)
  // Dynamic sizes: the result is data's type, dynamic sizes included.
  // CHECK: relay.nn.avg_pool2d_grad %{{.*}}, %{{.*}} {padding = array<i64: 1>, pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>} : (tensor<1x2x?x4xf32>, tensor<?x2x?x7xf32>) -> tensor<?x2x?x7xf32>
  %3 = relay.nn.avg_pool2d_grad %gd, %xd {pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1>} : (tensor<1x2x?x4xf32>, tensor<?x2x?x7xf32>)
  return
}
