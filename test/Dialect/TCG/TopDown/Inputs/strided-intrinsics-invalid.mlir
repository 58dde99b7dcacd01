// Malformed reduction strides, for reduction-stride.mlir's refusals.

// A stride below 1.
func.func @"bad.zero"(%a_in: tensor<32xf32>) -> tensor<1xf32> {
  %c = tcg.kernel "bad.zero" (%a = %a_in : tensor<32xf32>)
      -> tensor<1xf32> attributes {arg_names = ["a"], result_name = "c"} {
    %0 = tcg.tensor %x in [0, 1) name "x" -> tensor<1xf32> {
      %1 = tcg.reduce add %z in [0, 32) name "z" -> f32 attributes {topdown.stride = 0 : i64} {
        %va = tcg.input %a[%z] : tensor<32xf32>
        tcg.yield %va : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<1xf32>
  }
  return %c : tensor<1xf32>
}

// A stride on a tensor dimension: strides are the reductions'.
func.func @"bad.tensor"(%a_in: tensor<32xf32>) -> tensor<16xf32> {
  %c = tcg.kernel "bad.tensor" (%a = %a_in : tensor<32xf32>)
      -> tensor<16xf32> attributes {arg_names = ["a"], result_name = "c"} {
    %0 = tcg.tensor %x in [0, 16) name "x" -> tensor<16xf32> attributes {topdown.stride = 2 : i64} {
      %va = tcg.input %a[%x] : tensor<32xf32>
      %e = tcg.compute exp %va : (f32) -> f32
      tcg.yield %e : f32
    }
    tcg.yield %0 : tensor<16xf32>
  }
  return %c : tensor<16xf32>
}

// Strides of a signed and an unsigned type: the stride is a signless
// integer.
func.func @"bad.si64"(%a_in: tensor<32xf32>) -> tensor<1xf32> {
  %c = tcg.kernel "bad.si64" (%a = %a_in : tensor<32xf32>)
      -> tensor<1xf32> attributes {arg_names = ["a"], result_name = "c"} {
    %0 = tcg.tensor %x in [0, 1) name "x" -> tensor<1xf32> {
      %1 = tcg.reduce add %z in [0, 32) name "z" -> f32 attributes {topdown.stride = 2 : si64} {
        %va = tcg.input %a[%z] : tensor<32xf32>
        tcg.yield %va : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<1xf32>
  }
  return %c : tensor<1xf32>
}

func.func @"bad.ui64"(%a_in: tensor<32xf32>) -> tensor<1xf32> {
  %c = tcg.kernel "bad.ui64" (%a = %a_in : tensor<32xf32>)
      -> tensor<1xf32> attributes {arg_names = ["a"], result_name = "c"} {
    %0 = tcg.tensor %x in [0, 1) name "x" -> tensor<1xf32> {
      %1 = tcg.reduce add %z in [0, 32) name "z" -> f32 attributes {topdown.stride = 2 : ui64} {
        %va = tcg.input %a[%z] : tensor<32xf32>
        tcg.yield %va : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<1xf32>
  }
  return %c : tensor<1xf32>
}

// A strided iterator inside an index expression (a[z + 1]): it matches an
// operator's a[m, 2 k + 1], but the embedding stores a strided operand
// dimension as [points, stride], which only a bare iterator indexes.
func.func @"bad.expr"(%a_in: tensor<33xf32>) -> tensor<1xf32> {
  %c = tcg.kernel "bad.expr" (%a = %a_in : tensor<33xf32>)
      -> tensor<1xf32> attributes {arg_names = ["a"], result_name = "c"} {
    %0 = tcg.tensor %x in [0, 1) name "x" -> tensor<1xf32> {
      %1 = tcg.reduce add %z in [0, 32) name "z" -> f32 attributes {topdown.stride = 2 : i64} {
        %va = tcg.input %a[%z + 1] : tensor<33xf32>
        tcg.yield %va : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<1xf32>
  }
  return %c : tensor<1xf32>
}
