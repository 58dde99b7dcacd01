// --raf-contractions-to-blas hands only f32 and f64 products to SGEMM/DGEMM:
// an int8 convolution accumulating in int32 (VTA's host reference) and a
// mixed-type product stay linalg ops for the compiled code.
// RUN: raf-opt %s --raf-contractions-to-blas=min-macs=1 | FileCheck %s

// CHECK-LABEL: func.func @conv_i8
// CHECK: linalg.conv_2d_nchw_fchw
// CHECK-NOT: rafBlasGemm
func.func @conv_i8(%x: tensor<1x16x8x8xi8>, %w: tensor<32x16x3x3xi8>) -> tensor<1x32x6x6xi32> {
  %c0 = arith.constant 0 : i32
  %e = tensor.empty() : tensor<1x32x6x6xi32>
  %z = linalg.fill ins(%c0 : i32) outs(%e : tensor<1x32x6x6xi32>) -> tensor<1x32x6x6xi32>
  %y = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<1x16x8x8xi8>, tensor<32x16x3x3xi8>) outs(%z : tensor<1x32x6x6xi32>) -> tensor<1x32x6x6xi32>
  return %y : tensor<1x32x6x6xi32>
}

// CHECK-LABEL: func.func @matmul_mixed
// CHECK: linalg.matmul
// CHECK-NOT: rafBlasGemm
func.func @matmul_mixed(%a: tensor<64x64xf16>, %b: tensor<64x64xf16>) -> tensor<64x64xf32> {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %y = linalg.matmul ins(%a, %b : tensor<64x64xf16>, tensor<64x64xf16>) outs(%z : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %y : tensor<64x64xf32>
}

// The f32 form of the same convolution does go to BLAS.
// CHECK-LABEL: func.func @conv_f32
// CHECK: call @rafBlasGemmF32
func.func @conv_f32(%x: tensor<1x16x8x8xf32>, %w: tensor<32x16x3x3xf32>) -> tensor<1x32x6x6xf32> {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x32x6x6xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<1x32x6x6xf32>) -> tensor<1x32x6x6xf32>
  %y = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<1x16x8x8xf32>, tensor<32x16x3x3xf32>) outs(%z : tensor<1x32x6x6xf32>) -> tensor<1x32x6x6xf32>
  return %y : tensor<1x32x6x6xf32>
}
