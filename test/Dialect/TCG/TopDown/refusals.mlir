// RUN: raf-opt %s -split-input-file --tcg-topdown-transform=kind=swap -verify-diagnostics

// Every transformation checks its preconditions and refuses with an error at
// the marked op (Rieber 2022, §3.3.1). This file: operand swap.

func.func @swap_sub(%ain: tensor<4xf32>) -> tensor<4xf32> {
  %r = tcg.kernel (%a = %ain : tensor<4xf32>) -> tensor<4xf32> {
    %0 = tcg.tensor %i in [0, 4) -> tensor<4xf32> {
      %x = tcg.input %a[%i] : tensor<4xf32>
      %c = tcg.constant 1.0 : f32
      // expected-error @+1 {{'tcg.compute' op cannot swap the operands of 'sub' (not commutative)}}
      %s = tcg.compute sub %x, %c {topdown.target} : (f32, f32) -> f32
      tcg.yield %s : f32
    }
    tcg.yield %0 : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @swap_exp(%ain: tensor<4xf32>) -> tensor<4xf32> {
  %r = tcg.kernel (%a = %ain : tensor<4xf32>) -> tensor<4xf32> {
    %0 = tcg.tensor %i in [0, 4) -> tensor<4xf32> {
      %x = tcg.input %a[%i] : tensor<4xf32>
      // expected-error @+1 {{'tcg.compute' op cannot swap the operand of unary 'exp'}}
      %s = tcg.compute exp %x {topdown.target} : (f32) -> f32
      tcg.yield %s : f32
    }
    tcg.yield %0 : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @swap_not_compute(%ain: tensor<4xf32>) -> tensor<4xf32> {
  %r = tcg.kernel (%a = %ain : tensor<4xf32>) -> tensor<4xf32> {
    // expected-error @+1 {{--tcg-topdown-transform=kind=swap applies to tcg.compute}}
    %0 = tcg.tensor %i in [0, 4) -> tensor<4xf32> attributes {topdown.target} {
      %x = tcg.input %a[%i] : tensor<4xf32>
      tcg.yield %x : f32
    }
    tcg.yield %0 : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// expected-error @+1 {{--tcg-topdown-transform: no op is marked with 'topdown.target'}}
module {
}
