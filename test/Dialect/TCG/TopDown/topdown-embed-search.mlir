// --tcg-topdown-embed=search=true on the seven operators of Rieber 2022,
// Tab. 3.3 (bench/topdown/operators.mlir): the best solution of the search
// (configuration 4, selective masking) is applied, one kernel per statement
// of the transformed graph (a fused graph split back into its statements),
// each covered statement with the #tcg.embedding of its instruction. The statements
// are then strategy-applied (--tcg-apply-strategy) and run on raf-run; the
// result matches the statements run as plain kernels, the untransformed
// kernel (where raf-run runs it: not FC + bias, whose reduction is combined
// with the bias) and PyTorch. Every embedded statement is packed, the
// vector-scalar instructions (vs.*) too: their scalar operand s[0] is a
// unit dimension read at 0 (the broadcast rule of the strategy derivation).
// RUN: raf-opt %S/../../../../bench/topdown/operators.mlir --tcg-topdown-embed="search=true selective-masking=true max-maskings=65536" -o %t.emb.mlir
// RUN: FileCheck %s --input-file=%t.emb.mlir
// RUN: raf-opt %t.emb.mlir --tcg-print-embeddings -o /dev/null | FileCheck %s --check-prefix=REPORT
// RUN: raf-opt %t.emb.mlir --tcg-apply-strategy -o %t.applied.mlir
// RUN: raf-opt %t.emb.mlir --tcg-print-embeddings -o /dev/null | FileCheck %s --check-prefix=STRATEGY
// RUN: FileCheck %s --check-prefix=PACKED --input-file=%t.applied.mlir
// RUN: %python %S/Inputs/operators_oracle.py inputs %t
// RUN: raf-run %t.emb.mlir --entry=fc_bias --input=%t.x.npy --input=%t.w.npy --input=%t.b.npy --output=%t.split.fc_bias.npy
// RUN: raf-run %t.applied.mlir --entry=fc_bias --input=%t.x.npy --input=%t.w.npy --input=%t.b.npy --output=%t.applied.fc_bias.npy
// RUN: raf-run %t.emb.mlir --entry=fc_bias_sigmoid --input=%t.x.npy --input=%t.w.npy --input=%t.b.npy --output=%t.split.fc_bias_sigmoid.npy
// RUN: raf-run %t.applied.mlir --entry=fc_bias_sigmoid --input=%t.x.npy --input=%t.w.npy --input=%t.b.npy --output=%t.applied.fc_bias_sigmoid.npy
// RUN: raf-run %t.emb.mlir --entry=gemm --input=%t.x.npy --input=%t.w.npy --output=%t.split.gemm.npy
// RUN: raf-run %t.applied.mlir --entry=gemm --input=%t.x.npy --input=%t.w.npy --output=%t.applied.gemm.npy
// RUN: raf-run %S/../../../../bench/topdown/operators.mlir --entry=gemm --input=%t.x.npy --input=%t.w.npy --output=%t.untransformed.gemm.npy
// RUN: raf-run %t.emb.mlir --entry=attention --input=%t.q.npy --input=%t.k.npy --input=%t.s.npy --output=%t.split.attention.npy
// RUN: raf-run %t.applied.mlir --entry=attention --input=%t.q.npy --input=%t.k.npy --input=%t.s.npy --output=%t.applied.attention.npy
// RUN: raf-run %S/../../../../bench/topdown/operators.mlir --entry=attention --input=%t.q.npy --input=%t.k.npy --input=%t.s.npy --output=%t.untransformed.attention.npy
// RUN: raf-run %t.emb.mlir --entry=conv2d_nhwc --input=%t.data.npy --input=%t.hwio.npy --output=%t.split.conv2d_nhwc.npy
// RUN: raf-run %t.applied.mlir --entry=conv2d_nhwc --input=%t.data.npy --input=%t.hwio.npy --output=%t.applied.conv2d_nhwc.npy
// RUN: raf-run %S/../../../../bench/topdown/operators.mlir --entry=conv2d_nhwc --input=%t.data.npy --input=%t.hwio.npy --output=%t.untransformed.conv2d_nhwc.npy
// RUN: raf-run %t.emb.mlir --entry=conv2d_relu_nhwc --input=%t.data.npy --input=%t.hwio.npy --output=%t.split.conv2d_relu_nhwc.npy
// RUN: raf-run %t.applied.mlir --entry=conv2d_relu_nhwc --input=%t.data.npy --input=%t.hwio.npy --output=%t.applied.conv2d_relu_nhwc.npy
// RUN: raf-run %S/../../../../bench/topdown/operators.mlir --entry=conv2d_relu_nhwc --input=%t.data.npy --input=%t.hwio.npy --output=%t.untransformed.conv2d_relu_nhwc.npy
// RUN: raf-run %t.emb.mlir --entry=capsule_routing --input=%t.blog.npy --input=%t.u.npy --output=%t.split.capsule_routing.npy
// RUN: raf-run %t.applied.mlir --entry=capsule_routing --input=%t.blog.npy --input=%t.u.npy --output=%t.applied.capsule_routing.npy
// RUN: raf-run %S/../../../../bench/topdown/operators.mlir --entry=capsule_routing --input=%t.blog.npy --input=%t.u.npy --output=%t.untransformed.capsule_routing.npy
// RUN: %python %S/Inputs/operators_oracle.py check %t.split %t.applied %t.untransformed %t | FileCheck %s --check-prefix=NUM

// FC + bias: the matrix-vector product, then the bias as a vector add; the
// statements read the operands and the earlier statement.
// CHECK-LABEL: func.func @fc_bias
// CHECK:       %[[P:.*]] = tcg.kernel "fc_bias.0" (%x = %arg0 : tensor<4x8xf32>, %w = %arg1 : tensor<6x8xf32>) -> tensor<4x6xf32> attributes {{.*}}tcg.embedding = #tcg.embedding<"mv.mul.add.16x16", topdown
// CHECK:       %[[R:.*]] = tcg.kernel "fc_bias.1" (%fc_bias.0 = %[[P]] : tensor<4x6xf32>, %b = %arg2 : tensor<6xf32>) {{.*}}tcg.embedding = #tcg.embedding<"vv.add.16", topdown
// CHECK:       return %[[R]]
// Sigmoid: the constant 1 of e + 1 becomes a one-element operand of vs.add.
// CHECK-LABEL: func.func @fc_bias_sigmoid
// CHECK:       tcg.embedding = #tcg.embedding<"vv.exp.16", topdown
// CHECK:       %[[ONE:.*]] = relay.constant dense<1.000000e+00> : tensor<1xf32>
// CHECK:       tcg.kernel "fc_bias_sigmoid.3" ({{.*}}, %fc_bias_sigmoid.3.const0 = %[[ONE]] : tensor<1xf32>) {{.*}}tcg.embedding = #tcg.embedding<"vs.add.16", topdown
// CHECK:         tcg.input %fc_bias_sigmoid.3.const0[0] : tensor<1xf32>
// CHECK:       tcg.embedding = #tcg.embedding<"vv.div.16", topdown
// Solutions are ranked by the coverage (Eq. 3.4) of what is applied. The
// convolution's best solution by the search's own measure lies in a fused
// graph (Fig. 3.12: vv.mul.16 + three red.add.16, 18 of 34 nodes), but
// applied as its unfused statements it covers 18 of 58 (31%); the dot
// product over ic and two sums (15 of 43, 35%) is applied instead.
// CHECK-LABEL: func.func @conv2d_nhwc
// CHECK:       tcg.kernel "conv2d_nhwc.0" {{.*}} -> tensor<1x4x4x8x3x3xf32> {{.*}}tcg.embedding = #tcg.embedding<"dot.mul.add.16", topdown{{.*}}fails = 0,{{.*}}topdown.applied_coverage = array<i64: 15, 43>
// CHECK:       tcg.kernel "conv2d_nhwc.1" {{.*}} -> tensor<1x4x4x8x3xf32> {{.*}}tcg.embedding = #tcg.embedding<"red.add.16", topdown
// CHECK:         tcg.reduce add %kw
// CHECK-NEXT:      tcg.input %conv2d_nhwc.0[%n, %oh, %ow, %oc, %kh, %kw]
// CHECK:       tcg.kernel "conv2d_nhwc.2" {{.*}} -> tensor<1x4x4x8xf32> {{.*}}tcg.embedding = #tcg.embedding<"red.add.16", topdown
// CHECK-NOT:   tcg.kernel
// CHECK-LABEL: func.func @conv2d_relu_nhwc
// CHECK:       tcg.embedding<"dot.mul.add.16"{{.*}}topdown.applied_coverage = array<i64: 20, 54>
// CHECK-COUNT-2: tcg.embedding<"red.add.16"
// CHECK:       tcg.embedding<"vs.max.16"

// REPORT:      embedding of mv.mul.add.16x16 (topdown) into fc_bias.0
// REPORT:        a -> x: [d1 16]
// REPORT-NEXT:   b -> w: [d0 16] [d1 16]
// REPORT:        search: optimal, 1 candidate(s), 14 nodes, {{[0-9]+}} fails, 8 solutions, 2 assets, 30 distinct embeddings
// REPORT:      embedding of vv.add.16 (topdown) into fc_bias.1
// The HWIO weight under selective masking: oc (its innermost dimension) is
// a loop around the dot product, which reads ic, dimension 2, with a stride.
// REPORT:      embedding of dot.mul.add.16 (topdown) into conv2d_nhwc.0
// REPORT-NEXT:   x: kw 1
// REPORT-NEXT:   z: ic 16
// REPORT-NEXT:   a -> data: [d3 16]
// REPORT-NEXT:   b -> w: [d2 16]
// REPORT-NEXT:   c -> conv2d_nhwc.0: [d5 1]
// REPORT:        search: optimal, 1 candidate(s), 19 nodes, 0 fails, 140 solutions, 3 assets, 1940 distinct embeddings
// The sum over kw reads the dot products with kh as the one-element loop x
// of red.add.
// REPORT:      embedding of red.add.16 (topdown) into conv2d_nhwc.1
// REPORT-NEXT:   x: kh 1
// REPORT-NEXT:   z: kw 16
// REPORT-NEXT:   a -> conv2d_nhwc.0: [d5 16]
// REPORT-NEXT:   c -> conv2d_nhwc.1: [d4 1]
// REPORT:      embedding of vs.mul.16 (topdown) into capsule_routing.9

// The strategy of vs.add.16: the one-element constant 1 gets a unit
// dimension for s[0] (a reshape, folded into the constant).
// STRATEGY:      embedding of vs.add.16 (topdown) into fc_bias_sigmoid.3
// STRATEGY:        strategy: fc_bias_sigmoid.3.const0: fuse s[0] broadcast
// capsule routing's max subtraction: the row maximum m[i] is the scalar.
// STRATEGY:      embedding of vs.sub.16 (topdown) into capsule_routing.1
// STRATEGY-NEXT:   x: j 16
// STRATEGY-NEXT:   v -> b: [d1 16]
// STRATEGY-NEXT:   s -> capsule_routing.0: [-]
// STRATEGY:        strategy: capsule_routing.0: fuse s[0] broadcast

// Every statement with an embedding is packed (27 in all).
// PACKED-LABEL: func.func @fc_bias(
// PACKED-COUNT-2: tcg.tensorize =
// PACKED-NOT:   tcg.tensorize =
// PACKED-LABEL: func.func @fc_bias_sigmoid(
// PACKED-COUNT-5: tcg.tensorize =
// PACKED-NOT:   tcg.tensorize =
// PACKED-LABEL: func.func @gemm(
// PACKED-COUNT-1: tcg.tensorize =
// PACKED-NOT:   tcg.tensorize =
// PACKED-LABEL: func.func @attention(
// PACKED:       tcg.tensorize = #tcg.tensorize<"mv.mul.add.16x16">
// PACKED:       tcg.tensorize = #tcg.tensorize<"vs.mul.16">
// PACKED-NOT:   tcg.tensorize =
// PACKED-LABEL: func.func @conv2d_nhwc(
// PACKED-COUNT-3: tcg.tensorize =
// PACKED-NOT:   tcg.tensorize =
// PACKED-LABEL: func.func @conv2d_relu_nhwc(
// PACKED-COUNT-4: tcg.tensorize =
// PACKED-NOT:   tcg.tensorize =
// PACKED-LABEL: func.func @capsule_routing(
// PACKED-COUNT-10: tcg.tensorize =
// PACKED-NOT:   tcg.tensorize =

// Capsule routing's softmax hides a wrong row maximum (softmax(b - c) =
// softmax(b) for any c), so its statement capsule_routing.0 (red.max.16,
// j padded 4 -> 16) is checked alone on a row-negative b in pad-neutral.mlir.
// NUM:      fc_bias: split vs torch ok, applied vs torch ok, applied vs split ok
// NUM-NEXT: fc_bias_sigmoid: split vs torch ok, applied vs torch ok, applied vs split ok
// NUM-NEXT: gemm: split vs torch ok, applied vs torch ok, applied vs split ok, applied vs untransformed ok
// NUM-NEXT: attention: split vs torch ok, applied vs torch ok, applied vs split ok, applied vs untransformed ok
// NUM-NEXT: conv2d_nhwc: split vs torch ok, applied vs torch ok, applied vs split ok, applied vs untransformed ok
// NUM-NEXT: conv2d_relu_nhwc: split vs torch ok, applied vs torch ok, applied vs split ok, applied vs untransformed ok
// NUM-NEXT: capsule_routing: split vs torch ok, applied vs torch ok, applied vs split ok, applied vs untransformed ok
