// A fused kernel is valid tcg, but the loop-nest form (one linalg.generic
// per computation) needs its local rows inlined first.
func.func @fused(%ain: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %r = tcg.kernel (%a = %ain : tensor<2x3xf32>) -> tensor<2x3xf32> {
    // expected-error @+1 {{'tcg.tensor' op holds a fused sequence of computations (Rieber 2022, Fig. 3.12); the loop-nest form needs one computation per nest (inline the fused computations first)}}
    %0 = tcg.tensor %x in [0, 2) -> tensor<2x3xf32> {
      %t = tcg.tensor %y in [0, 3) -> tensor<3xf32> {
        %v = tcg.input %a[%x, %y] : tensor<2x3xf32>
        %w = tcg.compute mul %v, %v : (f32, f32) -> f32
        tcg.yield %w : f32
      }
      %u = tcg.tensor %y in [0, 3) -> tensor<3xf32> {
        %v = tcg.input %t[%y] : tensor<3xf32>
        tcg.yield %v : f32
      }
      tcg.yield %u : tensor<3xf32>
    }
    tcg.yield %0 : tensor<2x3xf32>
  }
  return %r : tensor<2x3xf32>
}
