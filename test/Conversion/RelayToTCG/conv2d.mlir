// RUN: raf-opt %s --convert-relay-to-tcg | FileCheck %s --check-prefix=IR
// RUN: raf-opt %s --convert-relay-to-tcg --tcg-print-tensor-exprs -o /dev/null | FileCheck %s

// nn.conv2d in every variant. The tensor expressions (CHECK) give iterators,
// accesses and views; the IR (IR) shows one kernel in full and that no
// relay operator is left.

// IR-LABEL: func.func @nchw_strided_padded
// IR:      %[[K:.*]] = tcg.kernel "nn.conv2d" (%data = %arg0 : tensor<1x3x8x8xf32>, %weight = %arg1 : tensor<4x3x3x3xf32>) -> tensor<1x4x4x3xf32> attributes {arg_names = ["data", "weight"], result_name = "out"} {
// IR-NEXT:   tcg.tensor %n in [0, 1) name "n" gemm_axis x -> tensor<1x4x4x3xf32> {
// IR-NEXT:     tcg.tensor %oc in [0, 4) name "oc" gemm_axis y -> tensor<4x4x3xf32> {
// IR-NEXT:       tcg.tensor %oh in [0, 4) name "oh" -> tensor<4x3xf32> {
// IR-NEXT:         tcg.tensor %ow in [0, 3) name "ow" -> tensor<3xf32> {
// IR-NEXT:           tcg.reduce add %ic in [0, 3) name "ic" gemm_axis z -> f32 {
// IR-NEXT:             tcg.reduce add %kh in [0, 3) name "kh" -> f32 {
// IR-NEXT:               tcg.reduce add %kw in [0, 3) name "kw" -> f32 {
// IR-NEXT:                 %[[D:.*]] = tcg.input %data[%n, %ic, %oh * 2 + %kh, %ow * 2 + %kw] pad_low [0, 0, 1, 0] : tensor<1x3x8x8xf32>
// IR-NEXT:                 %[[W:.*]] = tcg.input %weight[%oc, %ic, %kh, %kw] : tensor<4x3x3x3xf32>
// IR-NEXT:                 %[[P:.*]] = tcg.compute mul %[[D]], %[[W]] : (f32, f32) -> f32
// IR-NEXT:                 tcg.yield %[[P]] : f32
// IR:      return %[[K]] : tensor<1x4x4x3xf32>
// IR-LABEL: func.func @int8
// IR:        tcg.reduce add %ic in [0, 3) name "ic" gemm_axis z -> i32 {
// IR:        tcg.compute mul %{{.*}}, %{{.*}} : (i8, i8) -> i32
// IR-NOT:  relay.nn

// NCHW / OIHW, stride 2, asymmetric padding (top, left, bottom, right).
// CHECK:      nn.conv2d: out[n, oc, oh, ow] = add_{ic, kh, kw} (data[n, ic, oh * 2 + kh, ow * 2 + kw] * weight[oc, ic, kh, kw])
// CHECK-NEXT:   n: [0, 1) gemm x
// CHECK-NEXT:   oc: [0, 4) gemm y
// CHECK-NEXT:   oh: [0, 4)
// CHECK-NEXT:   ow: [0, 3)
// CHECK-NEXT:   ic: [0, 3) reduction gemm z
// CHECK-NEXT:   kh: [0, 3) reduction
// CHECK-NEXT:   kw: [0, 3) reduction
// CHECK-NEXT:   data: tensor<1x3x8x8xf32> view pad_low [0, 0, 1, 0]
// CHECK-NEXT:   weight: tensor<4x3x3x3xf32>
// CHECK-NEXT:   out: tensor<1x4x4x3xf32>
func.func @nchw_strided_padded(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x4x3xf32> {
  %0 = relay.nn.conv2d %x, %w {strides = array<i64: 2, 2>, padding = array<i64: 1, 0, 0, 0>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>)
  return %0 : tensor<1x4x4x3xf32>
}

// NHWC / HWIO with padding 1.
// CHECK-NEXT: nn.conv2d: out[n, oh, ow, oc] = add_{ic, kh, kw} (data[n, oh + kh, ow + kw, ic] * weight[kh, kw, ic, oc])
// CHECK-NEXT:   n: [0, 1) gemm x
// CHECK-NEXT:   oh: [0, 8)
// CHECK-NEXT:   ow: [0, 8)
// CHECK-NEXT:   oc: [0, 4) gemm y
// CHECK-NEXT:   ic: [0, 3) reduction gemm z
// CHECK-NEXT:   kh: [0, 3) reduction
// CHECK-NEXT:   kw: [0, 3) reduction
// CHECK-NEXT:   data: tensor<1x8x8x3xf32> view pad_low [0, 1, 1, 0] pad_high [0, 1, 1, 0]
// CHECK-NEXT:   weight: tensor<3x3x3x4xf32>
// CHECK-NEXT:   out: tensor<1x8x8x4xf32>
func.func @nhwc_hwio(%x: tensor<1x8x8x3xf32>, %w: tensor<3x3x3x4xf32>) -> tensor<1x8x8x4xf32> {
  %0 = relay.nn.conv2d %x, %w {padding = array<i64: 1>, data_layout = #relay.layout<NHWC>, kernel_layout = #relay.layout<HWIO>} : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>)
  return %0 : tensor<1x8x8x4xf32>
}

// NHWC data with an OIHW kernel.
// CHECK-NEXT: nn.conv2d: out[n, oh, ow, oc] = add_{ic, kh, kw} (data[n, oh + kh, ow + kw, ic] * weight[oc, ic, kh, kw])
// CHECK-NEXT:   n: [0, 2) gemm x
// CHECK-NEXT:   oh: [0, 4)
// CHECK-NEXT:   ow: [0, 4)
// CHECK-NEXT:   oc: [0, 4) gemm y
// CHECK-NEXT:   ic: [0, 3) reduction gemm z
// CHECK-NEXT:   kh: [0, 3) reduction
// CHECK-NEXT:   kw: [0, 3) reduction
// CHECK-NEXT:   data: tensor<2x6x6x3xf32>
// CHECK-NEXT:   weight: tensor<4x3x3x3xf32>
// CHECK-NEXT:   out: tensor<2x4x4x4xf32>
func.func @nhwc_oihw(%x: tensor<2x6x6x3xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<2x4x4x4xf32> {
  %0 = relay.nn.conv2d %x, %w {data_layout = #relay.layout<NHWC>} : (tensor<2x6x6x3xf32>, tensor<4x3x3x3xf32>)
  return %0 : tensor<2x4x4x4xf32>
}

// Dilation 2 (and 1 x 3 kernel).
// CHECK-NEXT: nn.conv2d: out[n, oc, oh, ow] = add_{ic, kh, kw} (data[n, ic, oh + kh, ow + kw * 2] * weight[oc, ic, kh, kw])
// CHECK-NEXT:   n: [0, 1) gemm x
// CHECK-NEXT:   oc: [0, 3) gemm y
// CHECK-NEXT:   oh: [0, 9)
// CHECK-NEXT:   ow: [0, 5)
// CHECK-NEXT:   ic: [0, 2) reduction gemm z
// CHECK-NEXT:   kh: [0, 1) reduction
// CHECK-NEXT:   kw: [0, 3) reduction
// CHECK-NEXT:   data: tensor<1x2x9x9xf32>
// CHECK-NEXT:   weight: tensor<3x2x1x3xf32>
// CHECK-NEXT:   out: tensor<1x3x9x5xf32>
func.func @dilated(%x: tensor<1x2x9x9xf32>, %w: tensor<3x2x1x3xf32>) -> tensor<1x3x9x5xf32> {
  %0 = relay.nn.conv2d %x, %w {dilation = array<i64: 1, 2>} : (tensor<1x2x9x9xf32>, tensor<3x2x1x3xf32>)
  return %0 : tensor<1x3x9x5xf32>
}

// Groups 2: 4 input channels, 6 output channels.
// CHECK-NEXT: nn.conv2d: out[n, oc, oh, ow] = add_{ic, kh, kw} (data[n, ic + (oc floordiv 3) * 2, oh + kh, ow + kw] * weight[oc, ic, kh, kw])
// CHECK-NEXT:   n: [0, 1) gemm x
// CHECK-NEXT:   oc: [0, 6) gemm y
// CHECK-NEXT:   oh: [0, 3)
// CHECK-NEXT:   ow: [0, 3)
// CHECK-NEXT:   ic: [0, 2) reduction gemm z
// CHECK-NEXT:   kh: [0, 3) reduction
// CHECK-NEXT:   kw: [0, 3) reduction
// CHECK-NEXT:   data: tensor<1x4x5x5xf32>
// CHECK-NEXT:   weight: tensor<6x2x3x3xf32>
// CHECK-NEXT:   out: tensor<1x6x3x3xf32>
func.func @grouped(%x: tensor<1x4x5x5xf32>, %w: tensor<6x2x3x3xf32>) -> tensor<1x6x3x3xf32> {
  %0 = relay.nn.conv2d %x, %w {groups = 2 : i64} : (tensor<1x4x5x5xf32>, tensor<6x2x3x3xf32>)
  return %0 : tensor<1x6x3x3xf32>
}

// Depthwise (groups = C = O).
// CHECK-NEXT: nn.conv2d: out[n, oc, oh, ow] = add_{kh, kw} (data[n, oc, oh + kh, ow + kw] * weight[oc, 0, kh, kw])
// CHECK-NEXT:   n: [0, 1) gemm x
// CHECK-NEXT:   oc: [0, 4) gemm y
// CHECK-NEXT:   oh: [0, 6)
// CHECK-NEXT:   ow: [0, 6)
// CHECK-NEXT:   kh: [0, 3) reduction
// CHECK-NEXT:   kw: [0, 3) reduction
// CHECK-NEXT:   data: tensor<1x4x6x6xf32> view pad_low [0, 0, 1, 1] pad_high [0, 0, 1, 1]
// CHECK-NEXT:   weight: tensor<4x1x3x3xf32>
// CHECK-NEXT:   out: tensor<1x4x6x6xf32>
func.func @depthwise(%x: tensor<1x4x6x6xf32>, %w: tensor<4x1x3x3xf32>) -> tensor<1x4x6x6xf32> {
  %0 = relay.nn.conv2d %x, %w {groups = 4 : i64, padding = array<i64: 1>} : (tensor<1x4x6x6xf32>, tensor<4x1x3x3xf32>)
  return %0 : tensor<1x4x6x6xf32>
}

// Depthwise with channel multiplier 2, NHWC / HWOI.
// CHECK-NEXT: nn.conv2d: out[n, oh, ow, oc] = add_{kh, kw} (data[n, oh + kh, ow + kw, oc floordiv 2] * weight[kh, kw, oc, 0])
// CHECK-NEXT:   n: [0, 1) gemm x
// CHECK-NEXT:   oh: [0, 3)
// CHECK-NEXT:   ow: [0, 3)
// CHECK-NEXT:   oc: [0, 6) gemm y
// CHECK-NEXT:   kh: [0, 3) reduction
// CHECK-NEXT:   kw: [0, 3) reduction
// CHECK-NEXT:   data: tensor<1x5x5x3xf32>
// CHECK-NEXT:   weight: tensor<3x3x6x1xf32>
// CHECK-NEXT:   out: tensor<1x3x3x6xf32>
func.func @depthwise_multiplier(%x: tensor<1x5x5x3xf32>, %w: tensor<3x3x6x1xf32>) -> tensor<1x3x3x6xf32> {
  %0 = relay.nn.conv2d %x, %w {groups = 3 : i64, data_layout = #relay.layout<NHWC>, kernel_layout = #relay.layout<HWOI>} : (tensor<1x5x5x3xf32>, tensor<3x3x6x1xf32>)
  return %0 : tensor<1x3x3x6xf32>
}

// int8 x int8 accumulated in int32.
// CHECK-NEXT: nn.conv2d: out[n, oc, oh, ow] = add_{ic, kh, kw} (data[n, ic, oh + kh, ow + kw] * weight[oc, ic, kh, kw])
// CHECK-NEXT:   n: [0, 1) gemm x
// CHECK-NEXT:   oc: [0, 2) gemm y
// CHECK-NEXT:   oh: [0, 2)
// CHECK-NEXT:   ow: [0, 2)
// CHECK-NEXT:   ic: [0, 3) reduction gemm z
// CHECK-NEXT:   kh: [0, 3) reduction
// CHECK-NEXT:   kw: [0, 3) reduction
// CHECK-NEXT:   data: tensor<1x3x4x4xi8>
// CHECK-NEXT:   weight: tensor<2x3x3x3xi8>
// CHECK-NEXT:   out: tensor<1x2x2x2xi32>
func.func @int8(%x: tensor<1x3x4x4xi8>, %w: tensor<2x3x3x3xi8>) -> tensor<1x2x2x2xi32> {
  %0 = relay.nn.conv2d %x, %w {out_dtype = i32} : (tensor<1x3x4x4xi8>, tensor<2x3x3x3xi8>)
  return %0 : tensor<1x2x2x2xi32>
}
