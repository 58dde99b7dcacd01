// RUN: raf-opt %s --convert-relay-to-tcg --tcg-dataflow-embed="max-candidates=3 verify-isl=true" --tcg-print-embeddings -o /dev/null | FileCheck %s

// Embeddings for convolution variants (relaxed mode unless stated).

// Dilation 2: the best packs 16 channels; the next candidates cover z with a
// kernel dimension, whose data elements lie 2 apart (dilate pack).
// CHECK-LABEL: embedding of vta.gemm.1x16x16 (relaxed) into nn.conv2d
// CHECK-NEXT:   x: -
// CHECK-NEXT:   y: oc 16
// CHECK-NEXT:   z: ic 16
// CHECK:        cost 0: MAC 147456 / 147456 (x1.000)
// CHECK:        candidate 2:
// CHECK:          z: {{kh|kw}} 2, ic 8
// CHECK-NEXT:     a -> data: [-] [d{{2|3}} 2 (stride 2), d1 8]
// CHECK:          padding: {{kh|kw}} 3 -> 4
func.func @dilated(%x: tensor<1x16x12x12xi8>, %w: tensor<16x16x3x3xi8>) -> tensor<1x16x8x8xi32> {
  %0 = relay.nn.conv2d %x, %w {dilation = array<i64: 2, 2>, out_dtype = i32} : (tensor<1x16x12x12xi8>, tensor<16x16x3x3xi8>) -> tensor<1x16x8x8xi32>
  return %0 : tensor<1x16x8x8xi32>
}

// NHWC / HWIO: the same mapping, found in other operand dimensions.
// CHECK-LABEL: embedding of vta.gemm.1x16x16 (relaxed) into nn.conv2d
// CHECK-NEXT:   x: -
// CHECK-NEXT:   y: oc 16
// CHECK-NEXT:   z: ic 16
// CHECK-NEXT:   a -> data: [-] [d3 16]
// CHECK-NEXT:   b -> weight: [d3 16] [d2 16]
// CHECK-NEXT:   c -> out: [-] [d3 16]
func.func @nhwc(%x: tensor<1x8x8x32xi8>, %w: tensor<3x3x32x16xi8>) -> tensor<1x6x6x16xi32> {
  %0 = relay.nn.conv2d %x, %w {data_layout = #relay.layout<NHWC>, kernel_layout = #relay.layout<HWIO>, out_dtype = i32} : (tensor<1x8x8x32xi8>, tensor<3x3x32x16xi8>) -> tensor<1x6x6x16xi32>
  return %0 : tensor<1x6x6x16xi32>
}

// A transposed convolution reads its kernel backwards (2 - kh): the weight's
// rectangle has stride -1 when z covers a kernel dimension.
// CHECK-LABEL: embedding of vta.gemm.1x16x16 (relaxed) into nn.conv2d_transpose
// CHECK-NEXT:   x: -
// CHECK-NEXT:   y: oc 16
// CHECK-NEXT:   z: ic 16
// CHECK:        cost 0: MAC 278784 / 278784 (x1.000)
// CHECK:        candidate 2:
// CHECK-NEXT:     x: -
// CHECK-NEXT:     y: oc 16
// CHECK-NEXT:     z: {{kh|kw}} 2, ic 8
// CHECK-NEXT:     a -> data: [-] [d{{2|3}} 2, d1 8]
// CHECK-NEXT:     b -> weight: [d1 16] [d{{2|3}} 2 (stride -1), d0 8]
func.func @transposed(%x: tensor<1x16x5x5xi8>, %w: tensor<16x16x3x3xi8>) -> tensor<1x16x11x11xi32> {
  %0 = relay.nn.conv2d_transpose %x, %w {strides = array<i64: 2, 2>, out_dtype = i32} : (tensor<1x16x5x5xi8>, tensor<16x16x3x3xi8>) -> tensor<1x16x11x11xi32>
  return %0 : tensor<1x16x11x11xi32>
}
