// Refusals of reduction fission; run by ../fission-inline-refusals.mlir.

func.func @single_read(%ain: tensor<4x8xf32>) -> tensor<4xf32> {
  %r = tcg.kernel (%a = %ain : tensor<4x8xf32>) -> tensor<4xf32> {
    %0 = tcg.tensor %i in [0, 4) -> tensor<4xf32> {
      // expected-error @+1 {{'tcg.reduce' op reduces a single read; reduction fission needs an element computation to move}}
      %s = tcg.reduce add %k in [0, 8) -> f32 attributes {topdown.target} {
        %x = tcg.input %a[%i, %k] : tensor<4x8xf32>
        tcg.yield %x : f32
      }
      tcg.yield %s : f32
    }
    tcg.yield %0 : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// The element computation multiplies by a value of the enclosing
// computation, which the moved computation could not see.
func.func @outer_value(%xin: tensor<4x8xf32>) -> tensor<4xf32> {
  %r = tcg.kernel "k" (%x = %xin : tensor<4x8xf32>) -> tensor<4xf32> {
    %0 = tcg.tensor %i in [0, 4) name "i" -> tensor<4xf32> {
      %c = tcg.input %x[%i, 0] : tensor<4x8xf32>
      // expected-error @+1 {{'tcg.reduce' op uses a value its enclosing computation computes; reduction fission moves only a reduction whose element computation reads kernel operands and earlier computations}}
      %1 = tcg.reduce add %k in [0, 8) name "k" -> f32 attributes {topdown.target} {
        %v = tcg.input %x[%i, %k] : tensor<4x8xf32>
        %m = tcg.compute mul %v, %c : (f32, f32) -> f32
        tcg.yield %m : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
