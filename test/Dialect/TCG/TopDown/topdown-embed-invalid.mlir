// RUN: raf-opt %s -split-input-file --tcg-topdown-embed -verify-diagnostics
// RUN: not raf-opt %s -split-input-file --tcg-topdown-embed=intrinsics=vv.add.16,vta.gemm.2x2x2 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// What --tcg-topdown-embed without search refuses.

// a * b + c: no single instruction covers both operations (the fission
// that splits them is applied with search=true).
func.func @fma(%ain: tensor<16xf32>, %bin: tensor<16xf32>, %cin: tensor<16xf32>) -> tensor<16xf32> {
  // expected-error @+1 {{--tcg-topdown-embed: no instruction covers every compute and reduce node (0 candidate matches; search=true applies the transformations of the search)}}
  %r = tcg.kernel "fma" (%a = %ain : tensor<16xf32>, %b = %bin : tensor<16xf32>, %c = %cin : tensor<16xf32>) -> tensor<16xf32> {
    %0 = tcg.tensor %i in [0, 16) -> tensor<16xf32> {
      %x = tcg.input %a[%i] : tensor<16xf32>
      %y = tcg.input %b[%i] : tensor<16xf32>
      %p = tcg.compute mul %x, %y : (f32, f32) -> f32
      %z = tcg.input %c[%i] : tensor<16xf32>
      %s = tcg.compute add %p, %z : (f32, f32) -> f32
      tcg.yield %s : f32
    }
    tcg.yield %0 : tensor<16xf32>
  }
  return %r : tensor<16xf32>
}

// -----

func.func @sequence(%ain: tensor<16xf32>) -> tensor<16xf32> {
  // expected-error @+1 {{--tcg-topdown-embed: the typed result describes one computation; this kernel holds a sequence (search=true embeds each statement of a searched solution)}}
  %r = tcg.kernel "sequence" (%a = %ain : tensor<16xf32>) -> tensor<16xf32> {
    %t = tcg.tensor %i in [0, 16) -> tensor<16xf32> {
      %x = tcg.input %a[%i] : tensor<16xf32>
      %p = tcg.compute mul %x, %x : (f32, f32) -> f32
      tcg.yield %p : f32
    }
    %0 = tcg.tensor %i in [0, 16) -> tensor<16xf32> {
      %x = tcg.input %t[%i] : tensor<16xf32>
      %p = tcg.compute exp %x : (f32) -> f32
      tcg.yield %p : f32
    }
    tcg.yield %0 : tensor<16xf32>
  }
  return %r : tensor<16xf32>
}

// -----

// a + 1 matches vs.add.16 (the constant is its scalar operand), but the
// typed attribute pairs operands by position and the kernel reads one.
func.func @constant_operand(%ain: tensor<16xf32>) -> tensor<16xf32> {
  // expected-error @+2 {{--tcg-topdown-embed: the typed attribute cannot hold any instruction that covers the kernel}}
  // expected-note @+1 {{vs.add.16: the intrinsic reads 2 operands, the operator 1}}
  %r = tcg.kernel "constant_operand" (%a = %ain : tensor<16xf32>) -> tensor<16xf32> {
    %0 = tcg.tensor %i in [0, 16) -> tensor<16xf32> {
      %x = tcg.input %a[%i] : tensor<16xf32>
      %c = tcg.constant 1.0 : f32
      %p = tcg.compute add %x, %c : (f32, f32) -> f32
      tcg.yield %p : f32
    }
    tcg.yield %0 : tensor<16xf32>
  }
  return %r : tensor<16xf32>
}

// UNKNOWN: error: unknown intrinsic 'vta.gemm.2x2x2'; known intrinsics:
