// RUN: raf-opt %s --convert-relay-to-tcg --tcg-dataflow-embed="intrinsic=vta.gemm.8x8x8 mode=strict" --tcg-apply-strategy | FileCheck %s

// A constant weight is packed at compile time (as the weight rewrites fold
// away in the dissertation's flow): the packed kernel reads a new constant
// in the tiled layout, zero-padded to the 8x8 tile, and only the
// activation is rewritten at run time.

// CHECK-LABEL: func.func @main
// CHECK-SAME:    (%[[X:.*]]: tensor<2x3xi8>)
// CHECK:         %[[PAD:.*]] = relay.nn.pad %[[X]] {pad_width = array<i64: 0, 6, 0, 5>} : (tensor<2x3xi8>) -> tensor<8x8xi8>
// CHECK-NOT:     relay.nn.pad
// CHECK:         %[[W:.*]] = relay.constant dense<{{\[\[\[\[}}1, 2, 3, 0, 0, 0, 0, 0], [4, 5, 6, 0, 0, 0, 0, 0], [7, 8, 9, 0, 0, 0, 0, 0], [10, 11, 12, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0]]]]> : tensor<1x1x8x8xi8>
// CHECK:         tcg.kernel "nn.dense" (%x = %{{.*}} : tensor<1x1x8x8xi8>, %weight = %[[W]] : tensor<1x1x8x8xi8>)
func.func @main(%a0: tensor<2x3xi8>) -> tensor<2x4xi32> {
  %w = relay.constant dense<[[1, 2, 3], [4, 5, 6], [7, 8, 9], [10, 11, 12]]> : tensor<4x3xi8>
  %0 = relay.nn.dense %a0, %w {out_dtype = i32} : (tensor<2x3xi8>, tensor<4x3xi8>) -> tensor<2x4xi32>
  return %0 : tensor<2x4xi32>
}
