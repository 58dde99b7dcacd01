// Fused kernels (Fig. 3.12: a local row in the x nest) for transforms-run.mlir's
// unfuse-all: t = exp(n) read through a view, and t read by a reduction.
func.func @pad(%nin: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %r = tcg.kernel "k" (%n = %nin : tensor<4x3xf32>) -> tensor<4x3xf32> attributes {arg_names = ["n"]} {
    %u = tcg.tensor %x in [0, 4) name "x" -> tensor<4x3xf32> {
      %t = tcg.tensor %y in [0, 3) name "yt" -> tensor<3xf32> {
        %v = tcg.input %n[%x, %y] : tensor<4x3xf32>
        %e = tcg.compute exp %v : (f32) -> f32
        tcg.yield %e : f32
      }
      %0 = tcg.tensor %y in [0, 3) name "y" -> tensor<3xf32> {
        %a = tcg.input %t[%y + 2] pad_low [1] pad_high [1] : tensor<3xf32>
        %b = tcg.input %n[%x, %y] : tensor<4x3xf32>
        %q = tcg.compute add %a, %b : (f32, f32) -> f32
        tcg.yield %q : f32
      }
      tcg.yield %0 : tensor<3xf32>
    }
    tcg.yield %u : tensor<4x3xf32>
  }
  return %r : tensor<4x3xf32>
}
func.func @red(%nin: tensor<4x3xf32>, %min: tensor<3x3xf32>) -> tensor<4x3xf32> {
  %r = tcg.kernel "k2" (%n = %nin : tensor<4x3xf32>, %m = %min : tensor<3x3xf32>) -> tensor<4x3xf32> attributes {arg_names = ["n", "m"]} {
    %u = tcg.tensor %x in [0, 4) name "x" -> tensor<4x3xf32> {
      %t = tcg.tensor %y in [0, 3) name "yt" -> tensor<3xf32> {
        %v = tcg.input %n[%x, %y] : tensor<4x3xf32>
        %e = tcg.compute exp %v : (f32) -> f32
        tcg.yield %e : f32
      }
      %0 = tcg.tensor %y in [0, 3) name "y" -> tensor<3xf32> {
        %s = tcg.reduce add %k in [0, 3) name "k" -> f32 {
          %b = tcg.input %t[%k] : tensor<3xf32>
          %c = tcg.input %m[%k, %y] : tensor<3x3xf32>
          %p = tcg.compute mul %b, %c : (f32, f32) -> f32
          tcg.yield %p : f32
        }
        tcg.yield %s : f32
      }
      tcg.yield %0 : tensor<3xf32>
    }
    tcg.yield %u : tensor<4x3xf32>
  }
  return %r : tensor<4x3xf32>
}
