// Linalg input (as torch-mlir emits a PyTorch conv2d and a matmul) embeds
// directly: --tcg-dataflow-embed converts the operations with a
// tensor-expression form to tcg.kernels first, and the #tcg.embedding
// attributes are those of the relay route (Inputs/linalg-relay-equivalents.mlir,
// through --convert-relay-to-tcg), in both modes.
//
// RUN: raf-opt %s --tcg-dataflow-embed="mode=strict" | grep -o "tcg.embedding = .*" > %t.linalg.strict
// RUN: raf-opt %S/Inputs/linalg-relay-equivalents.mlir --convert-relay-to-tcg --tcg-dataflow-embed="mode=strict" | grep -o "tcg.embedding = .*" > %t.relay.strict
// RUN: diff %t.linalg.strict %t.relay.strict
// RUN: raf-opt %s --tcg-dataflow-embed="mode=relaxed max-candidates=2" | grep -o "tcg.embedding = .*" > %t.linalg.relaxed
// RUN: raf-opt %S/Inputs/linalg-relay-equivalents.mlir --convert-relay-to-tcg --tcg-dataflow-embed="mode=relaxed max-candidates=2" | grep -o "tcg.embedding = .*" > %t.relay.relaxed
// RUN: diff %t.linalg.relaxed %t.relay.relaxed
// RUN: grep -c "tcg.embedding = " %t.linalg.relaxed | FileCheck %s --check-prefix=COUNT
// The same through --convert-linalg-to-tcg, with convert=false:
// RUN: raf-opt %s --convert-linalg-to-tcg --tcg-dataflow-embed="mode=relaxed max-candidates=2 convert=false" | grep -o "tcg.embedding = .*" | diff - %t.relay.relaxed
// RUN: raf-opt %s --tcg-dataflow-embed=mode=strict --tcg-print-embeddings -o /dev/null | FileCheck %s

// COUNT: 4

// CHECK: embedding of vta.gemm.1x16x16 (strict) into linalg.conv_2d_nchw_fchw at loc({{.*}}dataflow-embed-linalg.mlir":[[@LINE+19]]
// CHECK-NEXT:   x: -
// CHECK-NEXT:   y: oc 16
// CHECK-NEXT:   z: ic 16
// CHECK-NEXT:   a -> data: [-] [d1 16]
// CHECK-NEXT:   b -> weight: [d0 16] [d1 16]
// CHECK-NEXT:   c -> out: [-] [d1 16]
// CHECK-NEXT:   padding: none
// CHECK-NEXT:   cost 0: MAC 3612672 / 3612672 (x1.000), data 39168 / 39168 (x1.000), memory access kept
// CHECK-NEXT:   strategy: data: view (pad_low [0, 0, 1, 1] pad_high [0, 0, 1, 1]), split ic -> [2, 16]
func.func @regular(%x: tensor<1x32x14x14xi8>, %w: tensor<64x32x3x3xi8>) -> tensor<1x64x14x14xi32> {
  %c0_i8 = arith.constant 0 : i8
  %c0 = arith.constant 0 : i32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %c0_i8 : i8
  } : tensor<1x32x14x14xi8> to tensor<1x32x16x16xi8>
  %e = tensor.empty() : tensor<1x64x14x14xi32>
  %f = linalg.fill ins(%c0 : i32) outs(%e : tensor<1x64x14x14xi32>) -> tensor<1x64x14x14xi32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
    ins(%p, %w : tensor<1x32x16x16xi8>, tensor<64x32x3x3xi8>) outs(%f : tensor<1x64x14x14xi32>) -> tensor<1x64x14x14xi32>
  return %r : tensor<1x64x14x14xi32>
}

// CHECK: embedding of vta.gemm.1x16x16 (strict) into linalg.conv_2d_nchw_fchw
func.func @low_channel(%x: tensor<1x1x40x30xi8>, %w: tensor<32x1x5x20xi8>) -> tensor<1x32x18x6xi32> {
  %c0 = arith.constant 0 : i32
  %e = tensor.empty() : tensor<1x32x18x6xi32>
  %f = linalg.fill ins(%c0 : i32) outs(%e : tensor<1x32x18x6xi32>) -> tensor<1x32x18x6xi32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
    ins(%x, %w : tensor<1x1x40x30xi8>, tensor<32x1x5x20xi8>) outs(%f : tensor<1x32x18x6xi32>) -> tensor<1x32x18x6xi32>
  return %r : tensor<1x32x18x6xi32>
}

// CHECK: embedding of vta.gemm.1x16x16 (strict) into linalg.matmul
// CHECK-NEXT:   x: -
// CHECK-NEXT:   y: n 16
// CHECK-NEXT:   z: k 16
func.func @matmul(%a: tensor<16x64xi8>, %b: tensor<64x32xi8>) -> tensor<16x32xi32> {
  %c0 = arith.constant 0 : i32
  %e = tensor.empty() : tensor<16x32xi32>
  %f = linalg.fill ins(%c0 : i32) outs(%e : tensor<16x32xi32>) -> tensor<16x32xi32>
  %r = linalg.matmul ins(%a, %b : tensor<16x64xi8>, tensor<64x32xi8>) outs(%f : tensor<16x32xi32>) -> tensor<16x32xi32>
  return %r : tensor<16x32xi32>
}

// relay's nn.dense (x * weight^T) as a linalg.generic.
// CHECK: embedding of vta.gemm.1x16x16 (strict) into linalg.generic
#x = affine_map<(m, n, k) -> (m, k)>
#w = affine_map<(m, n, k) -> (n, k)>
#o = affine_map<(m, n, k) -> (m, n)>
func.func @dense(%x: tensor<1x64xi8>, %w: tensor<32x64xi8>) -> tensor<1x32xi32> {
  %c0 = arith.constant 0 : i32
  %e = tensor.empty() : tensor<1x32xi32>
  %f = linalg.fill ins(%c0 : i32) outs(%e : tensor<1x32xi32>) -> tensor<1x32xi32>
  %r = linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<1x64xi8>, tensor<32x64xi8>) outs(%f : tensor<1x32xi32>) {
  ^bb0(%a: i8, %b: i8, %acc: i32):
    %0 = arith.extsi %a : i8 to i32
    %1 = arith.extsi %b : i8 to i32
    %2 = arith.muli %0, %1 : i32
    %3 = arith.addi %acc, %2 : i32
    linalg.yield %3 : i32
  } -> tensor<1x32xi32>
  return %r : tensor<1x32xi32>
}
