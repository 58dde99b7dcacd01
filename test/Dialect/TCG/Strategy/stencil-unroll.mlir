// RUN: raf-opt %s --convert-relay-to-tcg --tcg-dataflow-embed="mode=relaxed max-candidates=2" --tcg-print-embeddings -o /dev/null | FileCheck %s --check-prefix=PRINT
// RUN: raf-opt %s --convert-relay-to-tcg --tcg-dataflow-embed="mode=relaxed max-candidates=2" --tcg-apply-strategy | FileCheck %s
// RUN: raf-opt %s --convert-relay-to-tcg --tcg-dataflow-embed="mode=relaxed max-candidates=2" --tcg-apply-strategy=candidate=1 | FileCheck %s --check-prefix=SECOND

// One input channel: the relaxed embedding covers the GEMM's z axis with
// two kernel rows and eight kernel columns (kh innermost), so the data is
// unrolled (im2col, Tab. 4.1 stencil unroll): each stencil index
// 2 * oh + kh and 2 * ow + kw is gathered into one dimension per iterator.
// kh is then padded 3 -> 4 and split into tiles of 2, kw into one tile of
// 8, and the lanes of kw and kh fuse into z.

// PRINT:      z: kh 2, kw 8
// PRINT:      strategy: data: stencil unroll (kh 2, kw 8), pad kh 3->4, split kh -> [2, 2], kw -> [1, 8], reorder (n, ic, oh, kh.o, ow, kw.o, kw.i, kh.i), fuse x = 1, z = (kh, kw)
// PRINT-NEXT: strategy: weight: pad kh 3->4, split oc -> [1, 16], kh -> [2, 2], kw -> [1, 8], reorder (oc.o, ic, kh.o, kw.o, oc.i, kw.i, kh.i), fuse z = (kh, kw)
// PRINT-NEXT: strategy: out: split oc -> [1, 16], reorder (n, oc.o, oh, ow, oc.i), fuse x = 1
// PRINT:      candidate 2:
// PRINT:        z: kw 8, kh 2
// PRINT:        strategy: data: stencil unroll (kh 2, kw 8), {{.*}}, reorder (n, ic, oh, kh.o, ow, kw.o, kh.i, kw.i), fuse x = 1, z = (kw, kh)

// CHECK-LABEL: func.func @ic1
// CHECK-SAME:    (%[[X:.*]]: tensor<1x1x12x20xi8>, %[[W:.*]]: tensor<16x1x3x8xi8>)
// Rows: [oh, kh] -> 2 * oh + kh.
// CHECK:         %[[ROWS:.*]] = relay.constant dense<{{\[\[}}0, 1, 2], [2, 3, 4], [4, 5, 6], [6, 7, 8], [8, 9, 10]]> : tensor<5x3xi32>
// CHECK:         %[[H:.*]] = relay.take %[[X]], %[[ROWS]] {axis = 2 : i64} : (tensor<1x1x12x20xi8>, tensor<5x3xi32>) -> tensor<1x1x5x3x20xi8>
// Columns: [ow, kw] -> 2 * ow + kw.
// CHECK:         %[[COLS:.*]] = relay.constant dense<{{\[\[}}0, 1, 2, 3, 4, 5, 6, 7], [2, 3, 4, 5, 6, 7, 8, 9], {{.*}}, [12, 13, 14, 15, 16, 17, 18, 19]]> : tensor<7x8xi32>
// CHECK:         %[[HW:.*]] = relay.take %[[H]], %[[COLS]] {axis = 4 : i64} : (tensor<1x1x5x3x20xi8>, tensor<7x8xi32>) -> tensor<1x1x5x3x7x8xi8>
// CHECK:         %[[PAD:.*]] = relay.nn.pad %[[HW]] {pad_width = array<i64: 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0>} : (tensor<1x1x5x3x7x8xi8>) -> tensor<1x1x5x4x7x8xi8>
// CHECK:         %[[SPLIT:.*]] = relay.reshape %[[PAD]] {newshape = array<i64: 1, 1, 5, 2, 2, 7, 1, 8>}
// CHECK:         %[[REORDER:.*]] = relay.transpose %[[SPLIT]] {axes = array<i64: 0, 1, 2, 3, 5, 6, 7, 4>} : (tensor<1x1x5x2x2x7x1x8xi8>) -> tensor<1x1x5x2x7x1x8x2xi8>
// CHECK:         %[[DATA:.*]] = relay.reshape %[[REORDER]] {newshape = array<i64: 1, 1, 5, 2, 7, 1, 1, 16>}
// CHECK:         %[[WPAD:.*]] = relay.nn.pad %[[W]] {pad_width = array<i64: 0, 0, 0, 0, 0, 1, 0, 0>} : (tensor<16x1x3x8xi8>) -> tensor<16x1x4x8xi8>
// CHECK:         %[[WSPLIT:.*]] = relay.reshape %[[WPAD]] {newshape = array<i64: 1, 16, 1, 2, 2, 1, 8>}
// CHECK:         %[[WREORDER:.*]] = relay.transpose %[[WSPLIT]] {axes = array<i64: 0, 2, 3, 5, 1, 6, 4>}
// CHECK:         %[[WEIGHT:.*]] = relay.reshape %[[WREORDER]] {newshape = array<i64: 1, 1, 2, 1, 16, 16>}
// CHECK:         tcg.kernel "nn.conv2d" (%data = %[[DATA]] : tensor<1x1x5x2x7x1x1x16xi8>, %weight = %[[WEIGHT]] : tensor<1x1x2x1x16x16xi8>) -> tensor<1x1x5x7x1x16xi32>
// CHECK-SAME:      tcg.tensorize = #tcg.tensorize<"vta.gemm.1x16x16", target = "vta", gemm = [1, 16, 16]>
// CHECK:           tcg.input %data[%n, %ic, %oh, %kh.o, %ow, %kw.o, %x, %z]
// CHECK:           tcg.input %weight[%oc.o, %ic, %kh.o, %kw.o, %y, %z]

// The second candidate fuses the lanes the other way round (kw innermost).
// SECOND:        relay.transpose %{{.*}} {axes = array<i64: 0, 1, 2, 3, 5, 6, 4, 7>} : (tensor<1x1x5x2x2x7x1x8xi8>) -> tensor<1x1x5x2x7x1x2x8xi8>
func.func @ic1(%x: tensor<1x1x12x20xi8>, %w: tensor<16x1x3x8xi8>) -> tensor<1x16x5x7xi32> {
  %0 = relay.nn.conv2d %x, %w {strides = array<i64: 2, 2>, out_dtype = i32} : (tensor<1x1x12x20xi8>, tensor<16x1x3x8xi8>) -> tensor<1x16x5x7xi32>
  return %0 : tensor<1x16x5x7xi32>
}
