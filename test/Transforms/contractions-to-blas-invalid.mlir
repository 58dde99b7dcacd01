// --raf-contractions-to-blas: bad options and a module symbol in the way of
// the runtime's entry point are located errors.
// RUN: raf-opt %s --split-input-file --verify-diagnostics --raf-contractions-to-blas
// RUN: not raf-opt %s --split-input-file --raf-contractions-to-blas=min-macs=0 2>&1 | FileCheck %s --check-prefix=OPTIONS
// OPTIONS: error: --raf-contractions-to-blas: min-macs and threads must be at least 1

// expected-error @+1 {{@rafBlasGemmF32 is the BLAS runtime's entry point; a module function of that name must be its declaration}}
func.func @rafBlasGemmF32(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
func.func @mm(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %c = linalg.fill ins(%cst : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %y = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %y : tensor<64x64xf32>
}

// -----

// expected-error @+1 {{@rafBlasGemmF64 is the BLAS runtime's entry point}}
memref.global "private" @rafBlasGemmF64 : memref<2xf64> = dense<0.0>
func.func @mm(%a: tensor<64x64xf64>, %b: tensor<64x64xf64>) -> tensor<64x64xf64> {
  %cst = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<64x64xf64>
  %c = linalg.fill ins(%cst : f64) outs(%e : tensor<64x64xf64>) -> tensor<64x64xf64>
  %y = linalg.matmul ins(%a, %b : tensor<64x64xf64>, tensor<64x64xf64>) outs(%c : tensor<64x64xf64>) -> tensor<64x64xf64>
  return %y : tensor<64x64xf64>
}
