// RUN: raf-opt %s --convert-relay-to-tcg --tcg-dataflow-embed="mode=relaxed max-candidates=1" --tcg-print-embeddings -o /dev/null | FileCheck %s --check-prefix=PRINT
// RUN: raf-opt %s --convert-relay-to-tcg --tcg-dataflow-embed="mode=relaxed max-candidates=1" --tcg-apply-strategy | FileCheck %s

// A dilated convolution (dilation 2, three input channels): the relaxed
// embedding covers z with four kernel columns and four input channels
// (both padded from 3). Neighbouring kernel columns read data two columns
// apart (Tab. 4.1 dilate pack): the column index ow + 2 * kw is gathered
// into [ow, kw], where kw has unit steps, then padded, split and fused with
// the channels.

// PRINT:      z: kw 4, ic 4
// PRINT:      strategy: data: dilate pack (kw 4), pad ic 3->4 kw 3->4, split ic -> [1, 4], kw -> [1, 4], reorder (n, ic.o, oh + kh * 2, ow, kw.o, ic.i, kw.i), fuse x = 1, z = (kw, ic)
// PRINT-NEXT: strategy: weight: pad ic 3->4 kw 3->4, split oc -> [1, 16], ic -> [1, 4], kw -> [1, 4], reorder (oc.o, ic.o, kh, kw.o, oc.i, ic.i, kw.i), fuse z = (kw, ic)
// PRINT-NEXT: strategy: out: split oc -> [1, 16], reorder (n, oc.o, oh, ow, oc.i), fuse x = 1

// CHECK-LABEL: func.func @dilated
// CHECK-SAME:    (%[[X:.*]]: tensor<1x3x9x9xi8>, %[[W:.*]]: tensor<16x3x3x3xi8>)
// CHECK:         %[[COLS:.*]] = relay.constant dense<{{\[\[}}0, 2, 4], [1, 3, 5], [2, 4, 6], [3, 5, 7], [4, 6, 8]]> : tensor<5x3xi32>
// CHECK:         %[[PACKED:.*]] = relay.take %[[X]], %[[COLS]] {axis = 3 : i64} : (tensor<1x3x9x9xi8>, tensor<5x3xi32>) -> tensor<1x3x9x5x3xi8>
// CHECK:         %[[PAD:.*]] = relay.nn.pad %[[PACKED]] {pad_width = array<i64: 0, 0, 0, 1, 0, 0, 0, 0, 0, 1>} : (tensor<1x3x9x5x3xi8>) -> tensor<1x4x9x5x4xi8>
// CHECK:         %[[SPLIT:.*]] = relay.reshape %[[PAD]] {newshape = array<i64: 1, 1, 4, 9, 5, 1, 4>}
// CHECK:         %[[REORDER:.*]] = relay.transpose %[[SPLIT]] {axes = array<i64: 0, 1, 3, 4, 5, 2, 6>}
// CHECK:         %[[DATA:.*]] = relay.reshape %[[REORDER]] {newshape = array<i64: 1, 1, 9, 5, 1, 1, 16>}
// CHECK:         %[[WPAD:.*]] = relay.nn.pad %[[W]] {pad_width = array<i64: 0, 0, 0, 1, 0, 0, 0, 1>}
// CHECK:         tcg.kernel "nn.conv2d" (%data = %[[DATA]] : tensor<1x1x9x5x1x1x16xi8>, %weight = %{{.*}} : tensor<1x1x3x1x16x16xi8>) -> tensor<1x1x5x5x1x16xi32>
// CHECK:           tcg.input %data[%n, %ic.o, %oh + %kh * 2, %ow, %kw.o, %x, %z]
// CHECK:           tcg.input %weight[%oc.o, %ic.o, %kh, %kw.o, %y, %z]
// CHECK:         relay.reshape %{{.*}} {newshape = array<i64: 1, 1, 5, 5, 16>}
// CHECK:         relay.transpose
// CHECK:         relay.reshape %{{.*}} {newshape = array<i64: 1, 16, 5, 5>}
func.func @dilated(%x: tensor<1x3x9x9xi8>, %w: tensor<16x3x3x3xi8>) -> tensor<1x16x5x5xi32> {
  %0 = relay.nn.conv2d %x, %w {dilation = array<i64: 2, 2>, out_dtype = i32} : (tensor<1x3x9x9xi8>, tensor<16x3x3x3xi8>) -> tensor<1x16x5x5xi32>
  return %0 : tensor<1x16x5x5xi32>
}
