// Input of ../transforms-run.mlir: the sum of squares over both dimensions,
// a nest of two reductions.
func.func @main(%xin: tensor<2x8xf32>) -> tensor<1xf32> {
  %r = tcg.kernel "total" (%x = %xin : tensor<2x8xf32>) -> tensor<1xf32> attributes {arg_names = ["x"]} {
    %0 = tcg.tensor %o in [0, 1) name "o" -> tensor<1xf32> {
      %1 = tcg.reduce add %i in [0, 2) name "i" -> f32 {
        %2 = tcg.reduce add %j in [0, 8) name "j" -> f32 {
          %v = tcg.input %x[%i, %j] : tensor<2x8xf32>
          %p = tcg.compute mul %v, %v : (f32, f32) -> f32
          tcg.yield %p : f32
        }
        tcg.yield %2 : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<1xf32>
  }
  return %r : tensor<1xf32>
}
