// Input of ../transforms-run.mlir: sigmoid as two computations,
// t = exp(0 - x) and y = 1 / (1 + t); fusion puts the row of t into the
// dimension i of y (Fig. 3.12), inlining then the row into y (Fig. 3.13).
func.func @main(%xin: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %r = tcg.kernel "sigmoid" (%x = %xin : tensor<2x8xf32>) -> tensor<2x8xf32> {
    %t = tcg.tensor %i in [0, 2) name "i" -> tensor<2x8xf32> attributes {topdown.target} {
      %1 = tcg.tensor %j in [0, 8) name "jt" -> tensor<8xf32> {
        %v = tcg.input %x[%i, %j] : tensor<2x8xf32>
        %zero = tcg.constant 0.000000e+00 : f32
        %n = tcg.compute sub %zero, %v : (f32, f32) -> f32
        %e = tcg.compute exp %n : (f32) -> f32
        tcg.yield %e : f32
      }
      tcg.yield %1 : tensor<8xf32>
    }
    %y = tcg.tensor %i in [0, 2) name "i" -> tensor<2x8xf32> {
      %1 = tcg.tensor %j in [0, 8) name "j" -> tensor<8xf32> {
        %e = tcg.input %t[%i, %j] : tensor<2x8xf32>
        %one = tcg.constant 1.000000e+00 : f32
        %d = tcg.compute add %e, %one : (f32, f32) -> f32
        %q = tcg.compute div %one, %d : (f32, f32) -> f32
        tcg.yield %q : f32
      }
      tcg.yield %1 : tensor<8xf32>
    }
    tcg.yield %y : tensor<2x8xf32>
  }
  return %r : tensor<2x8xf32>
}
