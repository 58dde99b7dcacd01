// RUN: raf-opt %s --convert-relay-to-tcg --tcg-dataflow-embed="intrinsic=vta.gemm.8x8x8 mode=relaxed max-candidates=1" --tcg-print-embeddings -o /dev/null | FileCheck %s --check-prefix=PRINT
// RUN: raf-opt %s --convert-relay-to-tcg --tcg-dataflow-embed="intrinsic=vta.gemm.8x8x8 mode=relaxed max-candidates=1" --tcg-apply-strategy | FileCheck %s

// The 8x8x8 GEMM with the relaxed embedding: x covers output columns 2
// apart and output rows 4 apart. Rows 4 apart read disjoint input rows
// (the 3-row kernel fits between them): Tab. 4.1's image pack cuts the
// image into 2 windows of 4 + 2 rows (tile, lane, residue plus halo), each
// lane reading its own window. Columns 2 apart overlap (dilate pack): the
// column index is gathered into [ow, kw].

// PRINT:      x: ow 4 (stride 2), oh 2 (stride 4)
// PRINT:      strategy: data: image pack (oh 2 (stride 4)), dilate pack (ow 4 (stride 2)), split ic -> [1, 8], ow -> [1, 4, 2], reorder (n, ic.o, oh.o, oh.r + kh, ow.o, ow.r, kw, oh.i, ow.i, ic.i), fuse x = (ow, oh)
// PRINT:      strategy: out: split oc -> [1, 8], oh -> [1, 2, 4], ow -> [1, 4, 2], reorder (n, oc.o, oh.o, oh.r, ow.o, ow.r, oh.i, ow.i, oc.i), fuse x = (ow, oh)

// CHECK-LABEL: func.func @pack
// CHECK-SAME:    (%[[X:.*]]: tensor<1x8x10x10xi8>
// Rows: [tile, lane, window] -> 8 * tile + 4 * lane + window.
// CHECK:         %[[ROWS:.*]] = relay.constant dense<{{\[\[\[}}0, 1, 2, 3, 4, 5], [4, 5, 6, 7, 8, 9]]]> : tensor<1x2x6xi32>
// CHECK:         %[[H:.*]] = relay.take %[[X]], %[[ROWS]] {axis = 2 : i64} : (tensor<1x8x10x10xi8>, tensor<1x2x6xi32>) -> tensor<1x8x1x2x6x10xi8>
// CHECK:         %[[COLS:.*]] = relay.constant dense<{{\[\[}}0, 1, 2], [1, 2, 3], {{.*}}, [7, 8, 9]]> : tensor<8x3xi32>
// CHECK:         %[[HW:.*]] = relay.take %[[H]], %[[COLS]] {axis = 5 : i64} : (tensor<1x8x1x2x6x10xi8>, tensor<8x3xi32>) -> tensor<1x8x1x2x6x8x3xi8>
// CHECK:         relay.reshape %[[HW]] {newshape = array<i64: 1, 1, 8, 1, 2, 6, 1, 4, 2, 3>}
// CHECK:         relay.transpose %{{.*}} {axes = array<i64: 0, 1, 3, 5, 6, 8, 9, 4, 7, 2>}
// CHECK:         %[[DATA:.*]] = relay.reshape %{{.*}} {newshape = array<i64: 1, 1, 1, 6, 1, 2, 3, 8, 8>}
// CHECK:         tcg.kernel "nn.conv2d" (%data = %[[DATA]] : tensor<1x1x1x6x1x2x3x8x8xi8>, %weight = %{{.*}} : tensor<1x1x3x3x8x8xi8>) -> tensor<1x1x1x4x1x2x8x8xi32>
// CHECK-SAME:      tcg.tensorize = #tcg.tensorize<"vta.gemm.8x8x8", target = "vta", gemm = [8, 8, 8]>
// CHECK:           tcg.tensor %oh.r in [0, 4) name "oh.r"
// CHECK:           tcg.tensor %ow.r in [0, 2) name "ow.r"
// CHECK:           tcg.tensor %x in [0, 8) name "x" gemm_axis x
// CHECK:           tcg.input %data[%n, %ic.o, %oh.o, %oh.r + %kh, %ow.o, %ow.r, %kw, %x, %z]
// CHECK:         relay.reshape %{{.*}} {newshape = array<i64: 1, 1, 1, 4, 1, 2, 2, 4, 8>}
// CHECK:         relay.transpose %{{.*}} {axes = array<i64: 0, 1, 8, 2, 6, 3, 4, 7, 5>}
// CHECK:         relay.reshape %{{.*}} {newshape = array<i64: 1, 8, 8, 8>}
func.func @pack(%x: tensor<1x8x10x10xi8>, %w: tensor<8x8x3x3xi8>) -> tensor<1x8x8x8xi32> {
  %0 = relay.nn.conv2d %x, %w {out_dtype = i32} : (tensor<1x8x10x10xi8>, tensor<8x8x3x3xi8>) -> tensor<1x8x8x8xi32>
  return %0 : tensor<1x8x8x8xi32>
}
