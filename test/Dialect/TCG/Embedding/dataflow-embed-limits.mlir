// RUN: raf-opt %s -verify-diagnostics --convert-relay-to-tcg --tcg-dataflow-embed="intrinsic=vta.gemm.8x8x8 timeout=1" -o /dev/null
// RUN: not raf-opt %s --tcg-dataflow-embed="mode=loose" -o /dev/null 2>&1 | FileCheck %s --check-prefix=MODE
// RUN: not raf-opt %s --tcg-dataflow-embed="intrinsic=vta.gemm.2x2x2" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NAME

// MODE: error: option 'mode' of tcg-dataflow-embed: unknown value 'loose'; expected one of strict, relaxed
// NAME: error: unknown intrinsic 'vta.gemm.2x2x2'; known intrinsics: vta.gemm.1x16x16, vta.gemm.8x8x8, gemv.16x16, dot.16

// The 8x8x8 GEMM's relaxed search on a convolution needs far more than 1 ms
// (building its Gecode space alone takes several): the limit stops it before
// the first embedding, and the error says so (with the limit the sanitizer
// build applies, ten times the option's).
func.func @conv(%x: tensor<1x32x8x8xi8>, %w: tensor<64x32x3x3xi8>) -> tensor<1x64x8x8xi32> {
  // expected-error-re @+1 {{cannot embed 'vta.gemm.8x8x8' (relaxed): the time limit of {{1 ms|10 ms \(10 x the option's 1 ms on the sanitizer build\)}} stopped the search before an embedding was found}}
  %0 = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>, out_dtype = i32} : (tensor<1x32x8x8xi8>, tensor<64x32x3x3xi8>) -> tensor<1x64x8x8xi32>
  return %0 : tensor<1x64x8x8xi32>
}
