// RUN: raf-opt %s -split-input-file -verify-diagnostics --tcg-print-tensor-exprs -o /dev/null

// Valid kernels that a tensor expression (raf::embed::TensorExpression)
// cannot hold: raf::tcg::extractTensorExpr fails with a located error.

// A sequence of two computations (Eq. 3.2 followed by Eq. 3.3).
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

// Eq. 3.1: r[i] = s * sum_l q[i, l]; the reduction is one operand of a
// product.
func.func @reduction_in_body(%q: tensor<4x8xf32>, %s: tensor<1xf32>) -> tensor<4xf32> {
  %r = tcg.kernel (%a = %q : tensor<4x8xf32>, %b = %s : tensor<1xf32>) -> tensor<4xf32> {
    %t = tcg.tensor %i in [0, 4) -> tensor<4xf32> {
      // expected-error @+1 {{'tcg.reduce' op result is combined with other values; the loop-nest form (a tensor expression, one linalg.generic) reduces the whole body, so a reduction may only be yielded by a tcg.tensor or an enclosing tcg.reduce}}
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

// The maximum of sums: two reduction operations.
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
