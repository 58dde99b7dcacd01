// RUN: raf-opt %s --convert-relay-to-tcg --tcg-dataflow-embed=mode=strict --tcg-print-embeddings -o /dev/null | FileCheck %s --check-prefix=PRINT
// RUN: raf-opt %s --convert-relay-to-tcg --tcg-dataflow-embed=mode=strict --tcg-apply-strategy=pad-on-the-fly=false | FileCheck %s
// RUN: raf-opt %s --convert-relay-to-tcg --tcg-dataflow-embed=mode=strict --tcg-apply-strategy --tcg-dataflow-embed=mode=strict --tcg-print-embeddings -o /dev/null | FileCheck %s --check-prefix=AGAIN

// The strict (TVM) embedding of the VTA GEMM into an NCHW convolution:
// n -> x, oc -> y, ic -> z. Its strategy is TVM's packing: the data in
// NCHW1n16c (N/1, C/16, H, W, 1, 16) after its own padding, the weight in
// OIHW16o16i (O/16, I/16, KH, KW, 16, 16), the result in NCHW1n16c.

// PRINT:      strategy: data: view (pad_low [0, 0, 1, 1] pad_high [0, 0, 1, 1]), split ic -> [2, 16], reorder (n, ic.o, oh + kh, ow + kw, ic.i), fuse x = 1
// PRINT-NEXT: strategy: weight: split oc -> [3, 16], ic -> [2, 16], reorder (oc.o, ic.o, kh, kw, oc.i, ic.i)
// PRINT-NEXT: strategy: out: split oc -> [3, 16], reorder (n, oc.o, oh, ow, oc.i), fuse x = 1

// CHECK-LABEL: func.func @conv
// CHECK-SAME:    (%[[X:.*]]: tensor<1x32x8x8xi8>, %[[W:.*]]: tensor<48x32x3x3xi8>)
// CHECK:         %[[PAD:.*]] = relay.nn.pad %[[X]] {pad_width = array<i64: 0, 0, 0, 0, 1, 1, 1, 1>} : (tensor<1x32x8x8xi8>) -> tensor<1x32x10x10xi8>
// CHECK:         %[[SPLIT:.*]] = relay.reshape %[[PAD]] {newshape = array<i64: 1, 2, 16, 10, 10>}
// CHECK:         %[[REORDER:.*]] = relay.transpose %[[SPLIT]] {axes = array<i64: 0, 1, 3, 4, 2>} : (tensor<1x2x16x10x10xi8>) -> tensor<1x2x10x10x16xi8>
// CHECK:         %[[DATA:.*]] = relay.reshape %[[REORDER]] {newshape = array<i64: 1, 2, 10, 10, 1, 16>}
// CHECK:         %[[WSPLIT:.*]] = relay.reshape %[[W]] {newshape = array<i64: 3, 16, 2, 16, 3, 3>}
// CHECK:         %[[WEIGHT:.*]] = relay.transpose %[[WSPLIT]] {axes = array<i64: 0, 2, 4, 5, 1, 3>} : (tensor<3x16x2x16x3x3xi8>) -> tensor<3x2x3x3x16x16xi8>
// CHECK:         %[[PACKED:.*]] = tcg.kernel "nn.conv2d" (%data = %[[DATA]] : tensor<1x2x10x10x1x16xi8>, %weight = %[[WEIGHT]] : tensor<3x2x3x3x16x16xi8>) -> tensor<1x3x8x8x1x16xi32>
// CHECK-SAME:      tcg.tensorize = #tcg.tensorize<"vta.gemm.1x16x16", target = "vta", gemm = [1, 16, 16]>
// CHECK:           tcg.tensor %n in [0, 1) name "n"
// CHECK:           tcg.tensor %oc.o in [0, 3) name "oc.o"
// CHECK:           tcg.tensor %oh in [0, 8) name "oh"
// CHECK:           tcg.tensor %ow in [0, 8) name "ow"
// CHECK:           tcg.tensor %x in [0, 1) name "x" gemm_axis x
// CHECK:           tcg.tensor %y in [0, 16) name "y" gemm_axis y
// CHECK:           tcg.reduce add %ic.o in [0, 2) name "ic.o"
// CHECK:           tcg.reduce add %kh in [0, 3) name "kh"
// CHECK:           tcg.reduce add %kw in [0, 3) name "kw"
// CHECK:           tcg.reduce add %z in [0, 16) name "z" gemm_axis z
// CHECK:           tcg.input %data[%n, %ic.o, %oh + %kh, %ow + %kw, %x, %z] : tensor<1x2x10x10x1x16xi8>
// CHECK:           tcg.input %weight[%oc.o, %ic.o, %kh, %kw, %y, %z] : tensor<3x2x3x3x16x16xi8>
// CHECK:         %[[UNFUSE:.*]] = relay.reshape %[[PACKED]] {newshape = array<i64: 1, 3, 8, 8, 16>}
// CHECK:         %[[BACK:.*]] = relay.transpose %[[UNFUSE]] {axes = array<i64: 0, 1, 4, 2, 3>} : (tensor<1x3x8x8x16xi32>) -> tensor<1x3x16x8x8xi32>
// CHECK:         %[[OUT:.*]] = relay.reshape %[[BACK]] {newshape = array<i64: 1, 48, 8, 8>} : (tensor<1x3x16x8x8xi32>) -> tensor<1x48x8x8xi32>
// CHECK:         return %[[OUT]]

// The packed kernel is already in the intrinsic's layout: embedding the
// GEMM into it again maps y and z onto themselves, at no cost.
// AGAIN:      x: -
// AGAIN-NEXT: y: y 16
// AGAIN-NEXT: z: z 16
// AGAIN:      padding: none
// AGAIN-NEXT: cost 0:
func.func @conv(%x: tensor<1x32x8x8xi8>, %w: tensor<48x32x3x3xi8>) -> tensor<1x48x8x8xi32> {
  %0 = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>, out_dtype = i32} : (tensor<1x32x8x8xi8>, tensor<48x32x3x3xi8>) -> tensor<1x48x8x8xi32>
  return %0 : tensor<1x48x8x8xi32>
}
