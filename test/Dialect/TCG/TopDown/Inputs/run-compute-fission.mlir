// Input of ../transforms-run.mlir.
func.func @main(%xin: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %r = tcg.kernel "sigmoid" (%x = %xin : tensor<2x8xf32>) -> tensor<2x8xf32> {
    %0 = tcg.tensor %i in [0, 2) name "i" -> tensor<2x8xf32> {
      %1 = tcg.tensor %j in [0, 8) name "j" -> tensor<8xf32> {
        %v = tcg.input %x[%i, %j] : tensor<2x8xf32>
        %zero = tcg.constant 0.0 : f32
        %one = tcg.constant 1.0 : f32
        %n = tcg.compute sub %zero, %v {topdown.target} : (f32, f32) -> f32
        %e = tcg.compute exp %n : (f32) -> f32
        %d = tcg.compute add %e, %one : (f32, f32) -> f32
        %s = tcg.compute div %one, %d : (f32, f32) -> f32
        tcg.yield %s : f32
      }
      tcg.yield %1 : tensor<8xf32>
    }
    tcg.yield %0 : tensor<2x8xf32>
  }
  return %r : tensor<2x8xf32>
}
