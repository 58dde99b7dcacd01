// Input of ../transforms-run.mlir.
func.func @main(%xin: tensor<2x8xf32>) -> tensor<2x2xf32> {
  %r = tcg.kernel "gram" (%x = %xin : tensor<2x8xf32>) -> tensor<2x2xf32> attributes {arg_names = ["x"]} {
    %0 = tcg.tensor %m in [0, 2) name "m" -> tensor<2x2xf32> {
      %1 = tcg.tensor %n in [0, 2) name "n" -> tensor<2xf32> {
        %2 = tcg.reduce add %k in [0, 8) name "k" -> f32 {
          %a = tcg.input %x[%m, %k] : tensor<2x8xf32>
          %b = tcg.input %x[%n, %k] {topdown.target = array<i64: 1, 0>} : tensor<2x8xf32>
          %p = tcg.compute mul %a, %b : (f32, f32) -> f32
          tcg.yield %p : f32
        }
        tcg.yield %2 : f32
      }
      tcg.yield %1 : tensor<2xf32>
    }
    tcg.yield %0 : tensor<2x2xf32>
  }
  return %r : tensor<2x2xf32>
}
