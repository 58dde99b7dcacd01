// RUN: raf-opt %s --convert-relay-to-tcg --tcg-dataflow-embed=mode=strict --tcg-print-embeddings -o /dev/null | FileCheck %s --check-prefix=PRINT
// RUN: raf-opt %s --convert-relay-to-tcg --tcg-dataflow-embed=mode=strict --tcg-apply-strategy | FileCheck %s

// A grouped convolution (2 groups of 16 channels): the data's channel
// ic + (oc floordiv 16) * 16 is quasi-affine in oc, which y covers, so no
// layout rule applies. The fallback gathers the packed data from the
// flattened tensor (plus one appended zero) with a constant index tensor:
// one dimension per outer iterator the data reads, then x and z. Within a
// tile of 16 output channels the group is fixed, so the data does not
// depend on y. The weight and the result use the regular rules.

// PRINT:      strategy: data: gather (fallback: it reads oc, which axis y covers)
// PRINT-NEXT: strategy: weight: split oc -> [2, 16], ic -> [1, 16], reorder (oc.o, ic.o, kh, kw, oc.i, ic.i)
// PRINT-NEXT: strategy: out: split oc -> [2, 16], reorder (n, oc.o, oh, ow, oc.i), fuse x = 1

// CHECK-LABEL: func.func @grouped
// CHECK-SAME:    (%[[X:.*]]: tensor<1x32x3x3xi8>
// CHECK:         %[[FLAT:.*]] = relay.reshape %[[X]] {newshape = array<i64: 288>} : (tensor<1x32x3x3xi8>) -> tensor<288xi8>
// CHECK:         %[[ZERO:.*]] = relay.nn.pad %[[FLAT]] {pad_width = array<i64: 0, 1>} : (tensor<288xi8>) -> tensor<289xi8>
// CHECK:         %[[INDICES:.*]] = relay.constant dense<{{.*}}> : tensor<1x2x1x1x1x3x3x1x16xi32>
// CHECK:         %[[DATA:.*]] = relay.take %[[ZERO]], %[[INDICES]] : (tensor<289xi8>, tensor<1x2x1x1x1x3x3x1x16xi32>) -> tensor<1x2x1x1x1x3x3x1x16xi8>
// CHECK:         tcg.kernel "nn.conv2d" (%data = %[[DATA]] : tensor<1x2x1x1x1x3x3x1x16xi8>
// CHECK:           tcg.input %data[%n, %oc.o, %oh, %ow, %ic.o, %kh, %kw, %x, %z]
func.func @grouped(%x: tensor<1x32x3x3xi8>, %w: tensor<32x16x3x3xi8>) -> tensor<1x32x1x1xi32> {
  %0 = relay.nn.conv2d %x, %w {groups = 2 : i64, out_dtype = i32} : (tensor<1x32x3x3xi8>, tensor<32x16x3x3xi8>) -> tensor<1x32x1x1xi32>
  return %0 : tensor<1x32x1x1xi32>
}
