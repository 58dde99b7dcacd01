// RUN: raf-opt %s --convert-relay-to-tcg | FileCheck %s --check-prefix=IR
// RUN: raf-opt %s --convert-relay-to-tcg --tcg-print-tensor-exprs -o /dev/null | FileCheck %s

// nn.conv2d_transpose as a convolution over a dilated and padded view of the
// data with the spatially flipped kernel (negative coefficients).

// IR-LABEL: func.func @strided
// IR:       tcg.input %data[%n, %ic, %oh + %kh, %ow + %kw] pad_low [0, 0, 1, 1] pad_high [0, 0, 2, 2] dilation [1, 1, 2, 2] : tensor<1x3x4x4xf32>
// IR-NEXT:  tcg.input %weight[%ic, %oc, -%kh + 2, -%kw + 2] : tensor<3x2x3x3xf32>
// IR-NOT:   relay.nn

// Stride 2, padding 1, output_padding 1: a view dilated by the stride,
// padded by dilation * (K - 1) - padding before and that plus
// output_padding after, read by the flipped kernel.
// CHECK:      nn.conv2d_transpose: out[n, oc, oh, ow] = add_{ic, kh, kw} (data[n, ic, oh + kh, ow + kw] * weight[ic, oc, 2 - kh, 2 - kw])
// CHECK-NEXT:   n: [0, 1) gemm x
// CHECK-NEXT:   oc: [0, 2) gemm y
// CHECK-NEXT:   oh: [0, 8)
// CHECK-NEXT:   ow: [0, 8)
// CHECK-NEXT:   ic: [0, 3) reduction gemm z
// CHECK-NEXT:   kh: [0, 3) reduction
// CHECK-NEXT:   kw: [0, 3) reduction
// CHECK-NEXT:   data: tensor<1x3x4x4xf32> view pad_low [0, 0, 1, 1] pad_high [0, 0, 2, 2] dilation [1, 1, 2, 2]
// CHECK-NEXT:   weight: tensor<3x2x3x3xf32>
// CHECK-NEXT:   out: tensor<1x2x8x8xf32>
func.func @strided(%x: tensor<1x3x4x4xf32>, %w: tensor<3x2x3x3xf32>) -> tensor<1x2x8x8xf32> {
  %0 = relay.nn.conv2d_transpose %x, %w {strides = array<i64: 2, 2>, padding = array<i64: 1>, output_padding = array<i64: 1, 1>} : (tensor<1x3x4x4xf32>, tensor<3x2x3x3xf32>)
  return %0 : tensor<1x2x8x8xf32>
}

// Padding 3 exceeds dilation * (K - 1) = 2: no low padding, the access is
// offset by the excess instead.
// CHECK-NEXT: nn.conv2d_transpose: out[n, oc, oh, ow] = add_{ic, kh, kw} (data[n, ic, oh + kh + 1, ow + kw + 1] * weight[ic, oc, 2 - kh, 2 - kw])
// CHECK-NEXT:   n: [0, 1) gemm x
// CHECK-NEXT:   oc: [0, 1) gemm y
// CHECK-NEXT:   oh: [0, 6)
// CHECK-NEXT:   ow: [0, 6)
// CHECK-NEXT:   ic: [0, 1) reduction gemm z
// CHECK-NEXT:   kh: [0, 3) reduction
// CHECK-NEXT:   kw: [0, 3) reduction
// CHECK-NEXT:   data: tensor<1x1x4x4xf32> view dilation [1, 1, 3, 3]
// CHECK-NEXT:   weight: tensor<1x1x3x3xf32>
// CHECK-NEXT:   out: tensor<1x1x6x6xf32>
func.func @crop(%x: tensor<1x1x4x4xf32>, %w: tensor<1x1x3x3xf32>) -> tensor<1x1x6x6xf32> {
  %0 = relay.nn.conv2d_transpose %x, %w {strides = array<i64: 3, 3>, padding = array<i64: 3>} : (tensor<1x1x4x4xf32>, tensor<1x1x3x3xf32>)
  return %0 : tensor<1x1x6x6xf32>
}

// Dilation 2 and groups 2 (4 input channels, 2 x 3 output channels).
// CHECK-NEXT: nn.conv2d_transpose: out[n, oc, oh, ow] = add_{ic, kh, kw} (data[n, ic + (oc floordiv 3) * 2, oh + kh * 2, ow + kw * 2] * weight[ic + (oc floordiv 3) * 2, oc mod 3, 1 - kh, 1 - kw])
// CHECK-NEXT:   n: [0, 1) gemm x
// CHECK-NEXT:   oc: [0, 6) gemm y
// CHECK-NEXT:   oh: [0, 5)
// CHECK-NEXT:   ow: [0, 5)
// CHECK-NEXT:   ic: [0, 2) reduction gemm z
// CHECK-NEXT:   kh: [0, 2) reduction
// CHECK-NEXT:   kw: [0, 2) reduction
// CHECK-NEXT:   data: tensor<1x4x3x3xf32> view pad_low [0, 0, 2, 2] pad_high [0, 0, 2, 2]
// CHECK-NEXT:   weight: tensor<4x3x2x2xf32>
// CHECK-NEXT:   out: tensor<1x6x5x5xf32>
func.func @grouped_dilated(%x: tensor<1x4x3x3xf32>, %w: tensor<4x3x2x2xf32>) -> tensor<1x6x5x5xf32> {
  %0 = relay.nn.conv2d_transpose %x, %w {groups = 2 : i64, dilation = array<i64: 2, 2>} : (tensor<1x4x3x3xf32>, tensor<4x3x2x2xf32>)
  return %0 : tensor<1x6x5x5xf32>
}

// NHWC data.
// CHECK-NEXT: nn.conv2d_transpose: out[n, oh, ow, oc] = add_{ic, kh, kw} (data[n, oh + kh, ow + kw, ic] * weight[ic, oc, 2 - kh, 2 - kw])
// CHECK-NEXT:   n: [0, 1) gemm x
// CHECK-NEXT:   oh: [0, 5)
// CHECK-NEXT:   ow: [0, 5)
// CHECK-NEXT:   oc: [0, 4) gemm y
// CHECK-NEXT:   ic: [0, 2) reduction gemm z
// CHECK-NEXT:   kh: [0, 3) reduction
// CHECK-NEXT:   kw: [0, 3) reduction
// CHECK-NEXT:   data: tensor<1x3x3x2xf32> view pad_low [0, 2, 2, 0] pad_high [0, 2, 2, 0]
// CHECK-NEXT:   weight: tensor<2x4x3x3xf32>
// CHECK-NEXT:   out: tensor<1x5x5x4xf32>
func.func @nhwc(%x: tensor<1x3x3x2xf32>, %w: tensor<2x4x3x3xf32>) -> tensor<1x5x5x4xf32> {
  %0 = relay.nn.conv2d_transpose %x, %w {data_layout = #relay.layout<NHWC>} : (tensor<1x3x3x2xf32>, tensor<2x4x3x3xf32>)
  return %0 : tensor<1x5x5x4xf32>
}
