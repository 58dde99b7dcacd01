// RUN: raf-opt %s -split-input-file --tcg-topdown-transform=kind=input-transpose -verify-diagnostics

// Refusals of input transpose (Rieber 2022, Fig. 3.8).

func.func @identity(%ain: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = tcg.kernel (%a = %ain : tensor<4x8xf32>) -> tensor<4x8xf32> {
    %t = tcg.tensor %i in [0, 4) -> tensor<4x8xf32> {
      %0 = tcg.tensor %j in [0, 8) -> tensor<8xf32> {
        // expected-error @+1 {{'tcg.input' op the identity permutation leaves the input as it is}}
        %x = tcg.input %a[%i, %j] {topdown.target = array<i64: 0, 1>} : tensor<4x8xf32>
        tcg.yield %x : f32
      }
      tcg.yield %0 : tensor<8xf32>
    }
    tcg.yield %t : tensor<4x8xf32>
  }
  return %r : tensor<4x8xf32>
}

// -----

func.func @not_a_permutation(%ain: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = tcg.kernel (%a = %ain : tensor<4x8xf32>) -> tensor<4x8xf32> {
    %t = tcg.tensor %i in [0, 4) -> tensor<4x8xf32> {
      %0 = tcg.tensor %j in [0, 8) -> tensor<8xf32> {
        // expected-error @+1 {{'tcg.input' op input transpose needs a permutation of the 2 source dimensions}}
        %x = tcg.input %a[%i, %j] {topdown.target = array<i64: 1, 1>} : tensor<4x8xf32>
        tcg.yield %x : f32
      }
      tcg.yield %0 : tensor<8xf32>
    }
    tcg.yield %t : tensor<4x8xf32>
  }
  return %r : tensor<4x8xf32>
}

// -----

func.func @no_permutation(%ain: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = tcg.kernel (%a = %ain : tensor<4x8xf32>) -> tensor<4x8xf32> {
    %t = tcg.tensor %i in [0, 4) -> tensor<4x8xf32> {
      %0 = tcg.tensor %j in [0, 8) -> tensor<8xf32> {
        // expected-error @+1 {{input transpose needs the permutation as the marker, e.g. topdown.target = array<i64: 1, 0>}}
        %x = tcg.input %a[%i, %j] {topdown.target} : tensor<4x8xf32>
        tcg.yield %x : f32
      }
      tcg.yield %0 : tensor<8xf32>
    }
    tcg.yield %t : tensor<4x8xf32>
  }
  return %r : tensor<4x8xf32>
}
