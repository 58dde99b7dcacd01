// RUN: raf-opt %s --convert-relay-to-tcg --tcg-dataflow-embed=mode=strict --tcg-print-embeddings -o /dev/null | FileCheck %s --check-prefix=STRICT
// RUN: raf-opt %s --convert-relay-to-tcg --tcg-dataflow-embed="mode=relaxed max-candidates=2" --tcg-print-embeddings -o /dev/null | FileCheck %s --check-prefix=RELAXED
// RUN: raf-opt %s --convert-relay-to-tcg --tcg-dataflow-embed=mode=strict | FileCheck %s --check-prefix=ATTR

// Embeddings of the VTA GEMM (1x16x16) found for small operators.

// A regular convolution: strict mode is TVM's mapping (n -> x, oc -> y,
// ic -> z) and nothing is padded.
// STRICT: embedding of vta.gemm.1x16x16 (strict) into nn.conv2d at
// STRICT-NEXT:   x: -
// STRICT-NEXT:   y: oc 16
// STRICT-NEXT:   z: ic 16
// STRICT-NEXT:   a -> data: [-] [d1 16]
// STRICT-NEXT:   b -> weight: [d0 16] [d1 16]
// STRICT-NEXT:   c -> out: [-] [d1 16]
// STRICT-NEXT:   padding: none
// STRICT-NEXT:   cost 0: MAC 3612672 / 3612672 (x1.000), data 39168 / 39168 (x1.000), memory access kept
// STRICT-NEXT:   strategy: data: view (pad_low [0, 0, 1, 1] pad_high [0, 0, 1, 1]), split ic -> [2, 16], reorder (n, ic.o, oh + kh, ow + kw, ic.i), fuse x = 1
// STRICT-NEXT:   strategy: weight: split oc -> [4, 16], ic -> [2, 16], reorder (oc.o, ic.o, kh, kw, oc.i, ic.i)
// STRICT-NEXT:   strategy: out: split oc -> [4, 16], reorder (n, oc.o, oh, ow, oc.i), fuse x = 1
// STRICT-NEXT:   search: optimal, 1 candidate(s)
// ATTR: tcg.embedding = #tcg.embedding<"vta.gemm.1x16x16", strict, optimal = true, candidates = [#tcg.candidate<iterators = {{\[\[}}], [(1, 16, 1)], [(4, 16, 1)]],
func.func @regular(%x: tensor<1x32x14x14xi8>, %w: tensor<64x32x3x3xi8>) -> tensor<1x64x14x14xi32> {
  %0 = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>, out_dtype = i32} : (tensor<1x32x14x14xi8>, tensor<64x32x3x3xi8>) -> tensor<1x64x14x14xi32>
  return %0 : tensor<1x64x14x14xi32>
}

// One input channel: strict mode pads ic to 16 (16x the MACs); relaxed mode
// covers z with kernel rows and columns instead and pads far less.
// STRICT: embedding of vta.gemm.1x16x16 (strict) into nn.conv2d at
// STRICT:        z: ic 16
// STRICT:        padding: ic 1 -> 16
// STRICT-NEXT:   cost 5249520: MAC 5529600 / 345600 (x16.000)
// RELAXED: embedding of vta.gemm.1x16x16 (relaxed) into nn.conv2d at {{.*}}dataflow-embed.mlir":[[@LINE+13]]
// RELAXED-NEXT:   x: -
// RELAXED-NEXT:   y: oc 16
// RELAXED-NEXT:   z: {{kh 2, kw 8|kw 8, kh 2}}
// RELAXED:        padding: kh 5 -> 6, kw 20 -> 24
// RELAXED-NEXT:   cost 156752: MAC 497664 / 345600 (x1.440), data 12544 / 7856 (x1.597), memory access kept
// RELAXED-NEXT:   strategy: data: stencil unroll (kh 2, kw 8), pad kh 5->6 kw 20->24, split kh -> [3, 2], kw -> [3, 8]
// RELAXED:        search: optimal, 2 candidate(s)
// RELAXED:        candidate 2:
// RELAXED-NEXT:     x: -
// RELAXED-NEXT:     y: oc 16
// RELAXED-NEXT:     z: {{kh 2, kw 8|kw 8, kh 2}}
func.func @low_channel(%x: tensor<1x1x40x30xi8>, %w: tensor<32x1x5x20xi8>) -> tensor<1x32x18x6xi32> {
  %0 = relay.nn.conv2d %x, %w {strides = array<i64: 2, 2>, out_dtype = i32} : (tensor<1x1x40x30xi8>, tensor<32x1x5x20xi8>) -> tensor<1x32x18x6xi32>
  return %0 : tensor<1x32x18x6xi32>
}

// A dense layer: output features -> y, k -> z (a single row: x has extent
// 1 and covers nothing).
// STRICT-LABEL: embedding of vta.gemm.1x16x16 (strict) into nn.dense
// STRICT-NEXT:   x: -
// STRICT-NEXT:   y: n 16
// STRICT-NEXT:   z: k 16
// STRICT:        padding: none
func.func @dense(%x: tensor<1x64xi8>, %w: tensor<32x64xi8>) -> tensor<1x32xi32> {
  %0 = relay.nn.dense %x, %w {out_dtype = i32} : (tensor<1x64xi8>, tensor<32x64xi8>) -> tensor<1x32xi32>
  return %0 : tensor<1x32xi32>
}
