// An intrinsic whose reduction steps with a stride (Rieber 2022, §3.1.1:
// "the iteration domain can have a regular stride s > 1"; Fig. 3.2's
// reduction.stride), for reduction-stride.mlir: `red.add.s2` sums every
// second element of a: z runs over [0, 32) in steps of 2 (16 points).

func.func @"red.add.s2"(%a_in: tensor<32xf32>) -> tensor<1xf32> {
  %c = tcg.kernel "red.add.s2" (%a = %a_in : tensor<32xf32>)
      -> tensor<1xf32> attributes {arg_names = ["a"], result_name = "c"} {
    %0 = tcg.tensor %x in [0, 1) name "x" -> tensor<1xf32> {
      %1 = tcg.reduce add %z in [0, 32) name "z" -> f32 attributes {topdown.stride = 2 : i64} {
        %va = tcg.input %a[%z] : tensor<32xf32>
        tcg.yield %va : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<1xf32>
  }
  return %c : tensor<1xf32>
}

// Strided reductions of other kinds (pad-neutral.mlir): the maximum of
// every second element and the product of every third.
func.func @"red.max.s2"(%a_in: tensor<32xf32>) -> tensor<1xf32> {
  %c = tcg.kernel "red.max.s2" (%a = %a_in : tensor<32xf32>)
      -> tensor<1xf32> attributes {arg_names = ["a"], result_name = "c"} {
    %0 = tcg.tensor %x in [0, 1) name "x" -> tensor<1xf32> {
      %1 = tcg.reduce max %z in [0, 32) name "z" -> f32 attributes {topdown.stride = 2 : i64} {
        %va = tcg.input %a[%z] : tensor<32xf32>
        tcg.yield %va : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<1xf32>
  }
  return %c : tensor<1xf32>
}

func.func @"red.mul.s3"(%a_in: tensor<48xf32>) -> tensor<1xf32> {
  %c = tcg.kernel "red.mul.s3" (%a = %a_in : tensor<48xf32>)
      -> tensor<1xf32> attributes {arg_names = ["a"], result_name = "c"} {
    %0 = tcg.tensor %x in [0, 1) name "x" -> tensor<1xf32> {
      %1 = tcg.reduce mul %z in [0, 48) name "z" -> f32 attributes {topdown.stride = 3 : i64} {
        %va = tcg.input %a[%z] : tensor<48xf32>
        tcg.yield %va : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<1xf32>
  }
  return %c : tensor<1xf32>
}

// A strided sum in two sizes (points): 4 or 16 steps of 2.
func.func @"red.add.s2.sized"(%a_in: tensor<32xf32>) -> tensor<1xf32> {
  %c = tcg.kernel "red.add.s2.sized" (%a = %a_in : tensor<32xf32>)
      -> tensor<1xf32> attributes {arg_names = ["a"], result_name = "c"} {
    %0 = tcg.tensor %x in [0, 1) name "x" -> tensor<1xf32> {
      %1 = tcg.reduce add %z in [0, 32) name "z" -> f32 attributes {topdown.stride = 2 : i64, topdown.sizes = array<i64: 4, 16>} {
        %va = tcg.input %a[%z] : tensor<32xf32>
        tcg.yield %va : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<1xf32>
  }
  return %c : tensor<1xf32>
}
