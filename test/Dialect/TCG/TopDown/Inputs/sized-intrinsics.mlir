// Intrinsics in several sizes (Rieber 2022, §3.1.2), for
// intrinsic-sizes.mlir: a multi-interval vector add (sizes 4, 8 and 16) and
// a variable-size sum (any length from 2 to 32).

func.func @"multi.add"(%a_in: tensor<16xf32>, %b_in: tensor<16xf32>) -> tensor<16xf32> {
  %c = tcg.kernel "multi.add" (%a = %a_in : tensor<16xf32>, %b = %b_in : tensor<16xf32>)
      -> tensor<16xf32> attributes {arg_names = ["a", "b"], result_name = "c"} {
    %0 = tcg.tensor %x in [0, 16) name "x" -> tensor<16xf32> attributes {topdown.sizes = array<i64: 4, 8, 16>} {
      %va = tcg.input %a[%x] : tensor<16xf32>
      %vb = tcg.input %b[%x] : tensor<16xf32>
      %e = tcg.compute add %va, %vb : (f32, f32) -> f32
      tcg.yield %e : f32
    }
    tcg.yield %0 : tensor<16xf32>
  }
  return %c : tensor<16xf32>
}

func.func @"var.sum"(%a_in: tensor<16xf32>) -> tensor<1xf32> {
  %c = tcg.kernel "var.sum" (%a = %a_in : tensor<16xf32>)
      -> tensor<1xf32> attributes {arg_names = ["a"], result_name = "c"} {
    %0 = tcg.tensor %x in [0, 1) name "x" -> tensor<1xf32> {
      %1 = tcg.reduce add %z in [0, 16) name "z" -> f32 attributes {topdown.size_range = array<i64: 2, 32>} {
        %va = tcg.input %a[%z] : tensor<16xf32>
        tcg.yield %va : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<1xf32>
  }
  return %c : tensor<1xf32>
}
