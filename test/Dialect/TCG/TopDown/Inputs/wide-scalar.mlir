// A vector-scalar add whose scalar sits at index 3 of an 8-element operand,
// for vs-broadcast.mlir.
func.func @"wide.vs.add"(%v_in: tensor<16xf32>, %s_in: tensor<8xf32>) -> tensor<16xf32> {
  %c = tcg.kernel "wide.vs.add" (%v = %v_in : tensor<16xf32>, %s = %s_in : tensor<8xf32>)
      -> tensor<16xf32> attributes {arg_names = ["v", "s"], result_name = "c"} {
    %0 = tcg.tensor %x in [0, 16) name "x" -> tensor<16xf32> {
      %a = tcg.input %v[%x] : tensor<16xf32>
      %r = tcg.input %s[3] : tensor<8xf32>
      %e = tcg.compute add %a, %r : (f32, f32) -> f32
      tcg.yield %e : f32
    }
    tcg.yield %0 : tensor<16xf32>
  }
  return %c : tensor<16xf32>
}
