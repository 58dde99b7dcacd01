// An operator for reduction-stride.mlir: a strided read inside an expression.
func.func @odd_sum(%a_in: tensor<4x32xf32>) -> tensor<4xf32> {
  %r = tcg.kernel "odd_sum" (%a = %a_in : tensor<4x32xf32>) -> tensor<4xf32> attributes {arg_names = ["a"]} {
    %0 = tcg.tensor %m in [0, 4) name "m" -> tensor<4xf32> {
      %1 = tcg.reduce add %k in [0, 15) name "k" -> f32 {
        %v = tcg.input %a[%m, %k * 2 + 1] : tensor<4x32xf32>
        tcg.yield %v : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
