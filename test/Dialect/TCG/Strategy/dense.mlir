// RUN: raf-opt %s --convert-relay-to-tcg --tcg-dataflow-embed=mode=strict --tcg-print-embeddings -o /dev/null | FileCheck %s --check-prefix=PRINT
// RUN: raf-opt %s --convert-relay-to-tcg --tcg-dataflow-embed=mode=strict --tcg-apply-strategy | FileCheck %s

// A dense layer with the strict embedding (n -> y, k -> z; the rows m stay
// a loop, as x has extent 1): k is padded 20 -> 32 in both operands and n
// 24 -> 32 in the weight and the result; the padding is cut away after the
// packed kernel.

// PRINT:      strategy: x: pad k 20->32, split k -> [2, 16], fuse x = 1
// PRINT-NEXT: strategy: weight: pad n 24->32 k 20->32, split n -> [2, 16], k -> [2, 16], reorder (n.o, k.o, n.i, k.i)
// PRINT-NEXT: strategy: out: pad n 24->32, split n -> [2, 16], fuse x = 1

// CHECK-LABEL: func.func @dense
// CHECK-SAME:    (%[[X:.*]]: tensor<3x20xi8>, %[[W:.*]]: tensor<24x20xi8>)
// CHECK:         %[[XPAD:.*]] = relay.nn.pad %[[X]] {pad_width = array<i64: 0, 0, 0, 12>} : (tensor<3x20xi8>) -> tensor<3x32xi8>
// CHECK:         %[[XP:.*]] = relay.reshape %[[XPAD]] {newshape = array<i64: 3, 2, 1, 16>} : (tensor<3x32xi8>) -> tensor<3x2x1x16xi8>
// CHECK:         %[[WPAD:.*]] = relay.nn.pad %[[W]] {pad_width = array<i64: 0, 8, 0, 12>} : (tensor<24x20xi8>) -> tensor<32x32xi8>
// CHECK:         %[[WSPLIT:.*]] = relay.reshape %[[WPAD]] {newshape = array<i64: 2, 16, 2, 16>}
// CHECK:         %[[WP:.*]] = relay.transpose %[[WSPLIT]] {axes = array<i64: 0, 2, 1, 3>} : (tensor<2x16x2x16xi8>) -> tensor<2x2x16x16xi8>
// CHECK:         %[[OUT:.*]] = tcg.kernel "nn.dense" (%x = %[[XP]] : tensor<3x2x1x16xi8>, %weight = %[[WP]] : tensor<2x2x16x16xi8>) -> tensor<3x2x1x16xi32>
// CHECK-SAME:      tcg.tensorize = #tcg.tensorize<"vta.gemm.1x16x16", target = "vta", gemm = [1, 16, 16]>
// CHECK:           tcg.tensor %m in [0, 3) name "m"
// CHECK:           tcg.tensor %n.o in [0, 2) name "n.o"
// CHECK:           tcg.tensor %[[XI:.*]] in [0, 1) name "x" gemm_axis x
// CHECK:           tcg.tensor %y in [0, 16) name "y" gemm_axis y
// CHECK:           tcg.reduce add %k.o in [0, 2) name "k.o"
// CHECK:           tcg.reduce add %z in [0, 16) name "z" gemm_axis z
// CHECK:           tcg.input %x[%m, %k.o, %[[XI]], %z] : tensor<3x2x1x16xi8>
// CHECK:           tcg.input %weight[%n.o, %k.o, %y, %z] : tensor<2x2x16x16xi8>
// CHECK:         %[[FLAT:.*]] = relay.reshape %[[OUT]] {newshape = array<i64: 3, 32>} : (tensor<3x2x1x16xi32>) -> tensor<3x32xi32>
// CHECK:         %[[RES:.*]] = relay.strided_slice %[[FLAT]] {begin = array<i64: 0, 0>, end = array<i64: 3, 24>, strides = array<i64: 1, 1>} : (tensor<3x32xi32>) -> tensor<3x24xi32>
// CHECK:         return %[[RES]]
func.func @dense(%x: tensor<3x20xi8>, %w: tensor<24x20xi8>) -> tensor<3x24xi32> {
  %0 = relay.nn.dense %x, %w {out_dtype = i32} : (tensor<3x20xi8>, tensor<24x20xi8>) -> tensor<3x24xi32>
  return %0 : tensor<3x24xi32>
}
