// RUN: raf-opt %s --convert-relay-to-tcg --tcg-dataflow-embed="intrinsic=vta.gemm.8x8x8 max-candidates=1" --tcg-print-embeddings -o /dev/null | FileCheck %s --check-prefix=G8
// RUN: raf-opt %s --convert-relay-to-tcg --tcg-dataflow-embed="intrinsic=vta.gemm.8x8x8 mode=strict" --tcg-print-embeddings -o /dev/null | FileCheck %s --check-prefix=S8

// The 8x8x8 GEMM with batch 1. Strict mode pads the batch to 8 (8x the
// MACs); relaxed mode covers x with output rows and columns, strided (image
// packing) at 1x the MACs; two such layouts tie. An 8x8 output has no 8
// windows of a 3x3 kernel that do not overlap, so they duplicate data.
// S8-LABEL: embedding of vta.gemm.8x8x8 (strict) into nn.conv2d
// S8-NEXT:   x: n 8
// S8-NEXT:   y: oc 8
// S8-NEXT:   z: ic 8
// S8:        padding: n 1 -> 8
// S8-NEXT:   cost 267232: MAC 294912 / 36864 (x8.000)
// G8-LABEL: embedding of vta.gemm.8x8x8 (relaxed) into nn.conv2d
// G8-NEXT:   x: {{ow 2 \(stride 4\), oh 4 \(stride 2\)|ow 4 \(stride 2\), oh 2 \(stride 4\)}}
// G8-NEXT:   y: oc 8
// G8-NEXT:   z: ic 8
// G8:        padding: none
// G8-NEXT:   cost 736: MAC 36864 / 36864 (x1.000), data 2624 / 1888 (x1.390), memory access duplicated
// G8:        search: optimal
func.func @image_pack(%x: tensor<1x8x10x10xi8>, %w: tensor<8x8x3x3xi8>) -> tensor<1x8x8x8xi32> {
  %0 = relay.nn.conv2d %x, %w {out_dtype = i32} : (tensor<1x8x10x10xi8>, tensor<8x8x3x3xi8>) -> tensor<1x8x8x8xi32>
  return %0 : tensor<1x8x8x8xi32>
}
