// RUN: raf-opt %s -split-input-file -verify-diagnostics --tcg-dataflow-embed -o /dev/null
// RUN: not raf-opt %s -split-input-file --tcg-dataflow-embed=mode=strict -o /dev/null 2>&1 | FileCheck %s --check-prefix=STRICT

// Kernels the dataflow embedding rejects, each with a located error that
// names the reason.

// An element-wise sum: its dataflow has no multiplication to match.
func.func @elementwise(%x: tensor<32xi8>, %y: tensor<32xi8>) -> tensor<32xi8> {
  // expected-error @+1 {{cannot embed 'vta.gemm.1x16x16' (relaxed): the operator's dataflow (add over 2 operands) does not match the intrinsic's (mul, add (reduction) over 2 operands)}}
  %r = tcg.kernel "sum" (%a = %x : tensor<32xi8>, %b = %y : tensor<32xi8>) -> tensor<32xi8> {
    %t = tcg.tensor %i in [0, 32) -> tensor<32xi8> {
      %p = tcg.input %a[%i] : tensor<32xi8>
      %q = tcg.input %b[%i] : tensor<32xi8>
      %s = tcg.compute add %p, %q : (i8, i8) -> i8
      tcg.yield %s : i8
    }
    tcg.yield %t : tensor<32xi8>
  }
  return %r : tensor<32xi8>
}

// -----

// A sequence of two computations has no tensor expression.
func.func @sequence(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'tcg.kernel' op holds a sequence of 2 computations; a tensor expression describes one}}
  %r = tcg.kernel (%a = %x : tensor<4xf32>) -> tensor<4xf32> {
    %t = tcg.tensor %i in [0, 4) -> tensor<4xf32> {
      %v = tcg.input %a[%i] : tensor<4xf32>
      %w = tcg.compute mul %v, %v : (f32, f32) -> f32
      tcg.yield %w : f32
    }
    %u = tcg.tensor %i in [0, 4) -> tensor<4xf32> {
      %v = tcg.input %t[%i] : tensor<4xf32>
      %w = tcg.compute add %v, %v : (f32, f32) -> f32
      tcg.yield %w : f32
    }
    tcg.yield %u : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// A reduction over 3 elements (padded to 4) cannot hold the GEMM's 16.
// Strict mode needs the iterators TVM's strategy maps (gemm_axis); this
// hand-written kernel has none.
// STRICT: :[[@LINE+3]]:8: error: cannot embed 'vta.gemm.1x16x16' (strict): strict mode: no operator iterator is tagged with the intrinsic's axis 'x'
func.func @short_reduction(%x: tensor<4x3xi8>, %y: tensor<32x3xi8>) -> tensor<4x32xi32> {
  // expected-error @+1 {{cannot embed 'vta.gemm.1x16x16' (relaxed): the hyper-rectangle constraint fails: the intrinsic's reduction axis 'z' covers 16 points, but the operator's reduction iterators (r0 3 (padded to 4)) offer at most 4}}
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
