// Strided reductions of other kinds than add (pad-neutral.mlir): the
// maximum of every second element (6 points) and the product of every third
// (7 points), padded to the 16 points of red.max.s2 and red.mul.s3.
func.func @even_max(%x_in: tensor<4x32xf32>) -> tensor<4xf32> {
  %r = tcg.kernel "even_max" (%x = %x_in : tensor<4x32xf32>) -> tensor<4xf32> attributes {arg_names = ["x"]} {
    %0 = tcg.tensor %m in [0, 4) name "m" -> tensor<4xf32> {
      %1 = tcg.reduce max %k in [0, 6) name "k" -> f32 {
        %v = tcg.input %x[%m, %k * 2] : tensor<4x32xf32>
        tcg.yield %v : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
func.func @third_prod(%x_in: tensor<4x32xf32>) -> tensor<4xf32> {
  %r = tcg.kernel "third_prod" (%x = %x_in : tensor<4x32xf32>) -> tensor<4xf32> attributes {arg_names = ["x"]} {
    %0 = tcg.tensor %m in [0, 4) name "m" -> tensor<4xf32> {
      %1 = tcg.reduce mul %k in [0, 7) name "k" -> f32 {
        %v = tcg.input %x[%m, %k * 3] : tensor<4x32xf32>
        tcg.yield %v : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
