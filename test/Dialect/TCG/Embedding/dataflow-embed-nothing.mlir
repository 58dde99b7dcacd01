// RUN: raf-opt %s -split-input-file -verify-diagnostics --tcg-dataflow-embed -o /dev/null
// RUN: not raf-opt %s -split-input-file --tcg-dataflow-embed=require-kernels=true -o /dev/null 2>&1 | FileCheck %s --check-prefix=REQUIRE
// RUN: raf-opt %s -split-input-file --tcg-dataflow-embed=convert=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOCONVERT

// A module with nothing to embed says so (a remark; an error with
// require-kernels=true), instead of silently doing nothing.

// REQUIRE: error: --tcg-dataflow-embed: nothing to embed: no tcg.kernel and no operation with a tensor-expression form
// REQUIRE: error: --tcg-dataflow-embed: nothing to embed: no tcg.kernel; 1 operation(s) with a tensor-expression form could not be expressed (see their remarks)

// expected-remark@+1 {{--tcg-dataflow-embed: nothing to embed: no tcg.kernel and no operation with a tensor-expression form (relay and linalg convolutions, matmuls, multiply-accumulate linalg.generics)}}
module {
func.func @elementwise(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.add ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
}

// -----

// expected-remark@+1 {{--tcg-dataflow-embed: nothing to embed: no tcg.kernel; 1 operation(s) with a tensor-expression form could not be expressed (see their remarks)}}
module {
func.func @dynamic(%a: tensor<?x8xi8>, %b: tensor<8x16xi8>, %c: tensor<?x16xi32>) -> tensor<?x16xi32> {
  // expected-remark@+1 {{'linalg.matmul' left as is: cannot be expressed as a tcg.kernel: operand #0 has a dynamic shape ('tensor<?x8xi8>')}}
  %r = linalg.matmul ins(%a, %b : tensor<?x8xi8>, tensor<8x16xi8>) outs(%c : tensor<?x16xi32>) -> tensor<?x16xi32>
  return %r : tensor<?x16xi32>
}
}

// -----

// With convert=false only existing tcg.kernels are embedded.
// NOCONVERT: dataflow-embed-nothing.mlir:[[@LINE+2]]:1: remark: --tcg-dataflow-embed: nothing to embed: no tcg.kernel (convert=false: operations with a tensor-expression form are not converted)
// (By default it embeds.)
module {
func.func @matmul(%a: tensor<1x16xi8>, %b: tensor<16x16xi8>) -> tensor<1x16xi32> {
  %c0 = arith.constant 0 : i32
  %e = tensor.empty() : tensor<1x16xi32>
  %f = linalg.fill ins(%c0 : i32) outs(%e : tensor<1x16xi32>) -> tensor<1x16xi32>
  %r = linalg.matmul ins(%a, %b : tensor<1x16xi8>, tensor<16x16xi8>) outs(%f : tensor<1x16xi32>) -> tensor<1x16xi32>
  return %r : tensor<1x16xi32>
}
}
