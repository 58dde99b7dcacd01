// RUN: raf-opt %s --convert-relay-to-tcg --tcg-dataflow-embed="intrinsic=dot.16" --tcg-print-embeddings -o /dev/null | FileCheck %s
// RUN: not raf-opt %s --convert-relay-to-tcg --tcg-dataflow-embed="intrinsic=gemv.16x16" -o /dev/null 2>&1 | FileCheck %s --check-prefix=GEMV

// A depthwise convolution reads one channel per output channel: no GEMV or
// GEMM row can be shared between outputs, but the dot product embeds, over
// the 3x3 kernel padded to 4x4.
// CHECK-LABEL: embedding of dot.16 (relaxed) into nn.conv2d
// CHECK:        z: {{kw 4, kh 4|kh 4, kw 4}}
// CHECK:        padding: kh 3 -> 4, kw 3 -> 4
// CHECK-NEXT:   cost 12336: MAC 9216 / 5184 (x1.778)
// GEMV: error: cannot embed 'gemv.16x16' (relaxed): no embedding satisfies the constraints (edge, alldiff, hyper-rectangle, memory-access, fixed origin) with this padding; leaving out memory-access, hyper-rectangle or alldiff alone finds none within 1 s either
func.func @depthwise(%x: tensor<1x16x8x8xi8>, %w: tensor<16x1x3x3xi8>) -> tensor<1x16x6x6xi32> {
  %0 = relay.nn.conv2d %x, %w {groups = 16 : i64, out_dtype = i32} : (tensor<1x16x8x8xi8>, tensor<16x1x3x3xi8>) -> tensor<1x16x6x6xi32>
  return %0 : tensor<1x16x6x6xi32>
}
