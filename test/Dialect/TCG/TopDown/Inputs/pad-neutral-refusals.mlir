// Kernels whose padded reduction lanes cannot hold the neutral element
// (pad-neutral.mlir): sum_k exp(x[m, k]) and max_k x[m, k] * y[k].
func.func @exp_sum(%x_in: tensor<4x6xf32>) -> tensor<4xf32> {
  %r = tcg.kernel "exp_sum" (%x = %x_in : tensor<4x6xf32>) -> tensor<4xf32> attributes {arg_names = ["x"]} {
    %0 = tcg.tensor %m in [0, 4) name "m" -> tensor<4xf32> {
      %1 = tcg.reduce add %k in [0, 6) name "k" -> f32 {
        %v = tcg.input %x[%m, %k] : tensor<4x6xf32>
        %e = tcg.compute exp %v : (f32) -> f32
        tcg.yield %e : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
func.func @mul_max(%x_in: tensor<4x6xf32>, %y_in: tensor<6xf32>) -> tensor<4xf32> {
  %r = tcg.kernel "mul_max" (%x = %x_in : tensor<4x6xf32>, %y = %y_in : tensor<6xf32>) -> tensor<4xf32> attributes {arg_names = ["x", "y"]} {
    %0 = tcg.tensor %m in [0, 4) name "m" -> tensor<4xf32> {
      %1 = tcg.reduce max %k in [0, 6) name "k" -> f32 {
        %v = tcg.input %x[%m, %k] : tensor<4x6xf32>
        %w = tcg.input %y[%k] : tensor<6xf32>
        %s = tcg.compute mul %v, %w : (f32, f32) -> f32
        tcg.yield %s : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
