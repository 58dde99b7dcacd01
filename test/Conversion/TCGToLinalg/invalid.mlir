// RUN: raf-opt %s -split-input-file -verify-diagnostics --convert-tcg-to-linalg

// Computations without the loop-nest form of one linalg.generic.

// Eq. 3.1: r[i] = s * sum_l q[i, l].
func.func @reduction_in_body(%q: tensor<4x8xf32>, %s: tensor<1xf32>) -> tensor<4xf32> {
  %r = tcg.kernel (%a = %q : tensor<4x8xf32>, %b = %s : tensor<1xf32>) -> tensor<4xf32> {
    %t = tcg.tensor %i in [0, 4) -> tensor<4xf32> {
      // expected-error @+1 {{'tcg.reduce' op result is combined with other values}}
      %sum = tcg.reduce add %l in [0, 8) -> f32 {
        %v = tcg.input %a[%i, %l] : tensor<4x8xf32>
        tcg.yield %v : f32
      }
      %c = tcg.input %b[0] : tensor<1xf32>
      %w = tcg.compute mul %c, %sum : (f32, f32) -> f32
      tcg.yield %w : f32
    }
    tcg.yield %t : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @mixed_reductions(%x: tensor<4x8xf32>) -> tensor<1xf32> {
  %r = tcg.kernel (%a = %x : tensor<4x8xf32>) -> tensor<1xf32> {
    %t = tcg.tensor %i in [0, 1) -> tensor<1xf32> {
      %m = tcg.reduce max %j in [0, 4) -> f32 {
        // expected-error @+1 {{'tcg.reduce' op reduces with 'add' inside a reduction with 'max'; the loop-nest form has one reduction operation}}
        %s = tcg.reduce add %k in [0, 8) -> f32 {
          %v = tcg.input %a[%j, %k] : tensor<4x8xf32>
          tcg.yield %v : f32
        }
        tcg.yield %s : f32
      }
      tcg.yield %m : f32
    }
    tcg.yield %t : tensor<1xf32>
  }
  return %r : tensor<1xf32>
}
