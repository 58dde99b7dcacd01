// RUN: raf-opt %s -verify-diagnostics --tcg-dataflow-embed="timeout=1" -o /dev/null
// RUN: not raf-opt %s --tcg-dataflow-embed="mode=strict" -o /dev/null 2>&1 | FileCheck %s --check-prefix=STRICT
// RUN: not raf-opt %s --tcg-dataflow-embed="mode=loose" -o /dev/null 2>&1 | FileCheck %s --check-prefix=MODE
// RUN: not raf-opt %s --tcg-dataflow-embed="intrinsic=vta.gemm.2x2x2" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NAME

// MODE: error: --tcg-dataflow-embed: unknown mode 'loose' (expected strict or relaxed)
// NAME: error: unknown intrinsic 'vta.gemm.2x2x2'; known intrinsics: vta.gemm.1x16x16, vta.gemm.8x8x8, gemv.16x16, dot.16
// Strict mode needs the iterators TVM's strategy maps (gemm_axis); this
// hand-written kernel has none.
// STRICT: :[[@LINE+6]]:8: error: cannot embed 'vta.gemm.1x16x16' (strict): strict mode: no operator iterator is tagged with the intrinsic's axis 'x'

// Proving that no embedding exists takes the solver far longer than 1 ms:
// the limit stops it first, and the error says so.
func.func @short_reduction(%x: tensor<4x3xi8>, %y: tensor<32x3xi8>) -> tensor<4x32xi32> {
  // expected-error @+1 {{cannot embed 'vta.gemm.1x16x16' (relaxed): the time limit of 1 ms stopped the search before an embedding was found}}
  %r = tcg.kernel "dense" (%a = %x : tensor<4x3xi8>, %b = %y : tensor<32x3xi8>) -> tensor<4x32xi32> {
    %t = tcg.tensor %m in [0, 4) -> tensor<4x32xi32> {
      %u = tcg.tensor %n in [0, 32) -> tensor<32xi32> {
        %s = tcg.reduce add %k in [0, 3) -> i32 {
          %p = tcg.input %a[%m, %k] : tensor<4x3xi8>
          %q = tcg.input %b[%n, %k] : tensor<32x3xi8>
          %v = tcg.compute mul %p, %q : (i8, i8) -> i32
          tcg.yield %v : i32
        }
        tcg.yield %s : i32
      }
      tcg.yield %u : tensor<32xi32>
    }
    tcg.yield %t : tensor<4x32xi32>
  }
  return %r : tensor<4x32xi32>
}
