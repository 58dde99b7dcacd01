// Input of ../transforms-run.mlir.
func.func @main(%xin: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %r = tcg.kernel "softmax" (%x = %xin : tensor<2x8xf32>) -> tensor<2x8xf32> {
    %m = tcg.tensor %i in [0, 2) name "i" -> tensor<2xf32> {
      %1 = tcg.reduce max %j in [0, 8) name "j" -> f32 {
        %v = tcg.input %x[%i, %j] : tensor<2x8xf32>
        tcg.yield %v : f32
      }
      tcg.yield %1 : f32
    }
    %e = tcg.tensor %i in [0, 2) name "i" -> tensor<2x8xf32> attributes {topdown.target} {
      %1 = tcg.tensor %j in [0, 8) name "j" -> tensor<8xf32> {
        %v = tcg.input %x[%i, %j] : tensor<2x8xf32>
        %w = tcg.input %m[%i] : tensor<2xf32>
        %d = tcg.compute sub %v, %w : (f32, f32) -> f32
        %ex = tcg.compute exp %d : (f32) -> f32
        tcg.yield %ex : f32
      }
      tcg.yield %1 : tensor<8xf32>
    }
    %s = tcg.tensor %i in [0, 2) name "i" -> tensor<2xf32> {
      %1 = tcg.reduce add %j in [0, 8) name "j" -> f32 {
        %v = tcg.input %e[%i, %j] : tensor<2x8xf32>
        tcg.yield %v : f32
      }
      tcg.yield %1 : f32
    }
    %y = tcg.tensor %i in [0, 2) name "i" -> tensor<2x8xf32> {
      %1 = tcg.tensor %j in [0, 8) name "j" -> tensor<8xf32> {
        %v = tcg.input %e[%i, %j] : tensor<2x8xf32>
        %w = tcg.input %s[%i] : tensor<2xf32>
        %q = tcg.compute div %v, %w : (f32, f32) -> f32
        tcg.yield %q : f32
      }
      tcg.yield %1 : tensor<8xf32>
    }
    tcg.yield %y : tensor<2x8xf32>
  }
  return %r : tensor<2x8xf32>
}
