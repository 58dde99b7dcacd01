// Malformed size attributes (Rieber 2022, §3.1.2), one intrinsic each, for
// intrinsic-sizes.mlir.

func.func @"bad.order"(%a_in: tensor<16xf32>) -> tensor<16xf32> {
  %c = tcg.kernel "bad.order" (%a = %a_in : tensor<16xf32>) -> tensor<16xf32> attributes {arg_names = ["a"]} {
    %0 = tcg.tensor %x in [0, 16) name "x" -> tensor<16xf32> attributes {topdown.sizes = array<i64: 16, 8>} {
      %va = tcg.input %a[%x] : tensor<16xf32>
      %e = tcg.compute exp %va : (f32) -> f32
      tcg.yield %e : f32
    }
    tcg.yield %0 : tensor<16xf32>
  }
  return %c : tensor<16xf32>
}

func.func @"bad.written"(%a_in: tensor<16xf32>) -> tensor<16xf32> {
  %c = tcg.kernel "bad.written" (%a = %a_in : tensor<16xf32>) -> tensor<16xf32> attributes {arg_names = ["a"]} {
    %0 = tcg.tensor %x in [0, 16) name "x" -> tensor<16xf32> attributes {topdown.sizes = array<i64: 4, 8>} {
      %va = tcg.input %a[%x] : tensor<16xf32>
      %e = tcg.compute exp %va : (f32) -> f32
      tcg.yield %e : f32
    }
    tcg.yield %0 : tensor<16xf32>
  }
  return %c : tensor<16xf32>
}

func.func @"bad.both"(%a_in: tensor<16xf32>) -> tensor<16xf32> {
  %c = tcg.kernel "bad.both" (%a = %a_in : tensor<16xf32>) -> tensor<16xf32> attributes {arg_names = ["a"]} {
    %0 = tcg.tensor %x in [0, 16) name "x" -> tensor<16xf32> attributes {topdown.sizes = array<i64: 16>, topdown.size_range = array<i64: 1, 16>} {
      %va = tcg.input %a[%x] : tensor<16xf32>
      %e = tcg.compute exp %va : (f32) -> f32
      tcg.yield %e : f32
    }
    tcg.yield %0 : tensor<16xf32>
  }
  return %c : tensor<16xf32>
}

func.func @"bad.range"(%a_in: tensor<16xf32>) -> tensor<16xf32> {
  %c = tcg.kernel "bad.range" (%a = %a_in : tensor<16xf32>) -> tensor<16xf32> attributes {arg_names = ["a"]} {
    %0 = tcg.tensor %x in [0, 16) name "x" -> tensor<16xf32> attributes {topdown.size_range = array<i64: 32, 8>} {
      %va = tcg.input %a[%x] : tensor<16xf32>
      %e = tcg.compute exp %va : (f32) -> f32
      tcg.yield %e : f32
    }
    tcg.yield %0 : tensor<16xf32>
  }
  return %c : tensor<16xf32>
}

func.func @"bad.type"(%a_in: tensor<16xf32>) -> tensor<16xf32> {
  %c = tcg.kernel "bad.type" (%a = %a_in : tensor<16xf32>) -> tensor<16xf32> attributes {arg_names = ["a"]} {
    %0 = tcg.tensor %x in [0, 16) name "x" -> tensor<16xf32> attributes {topdown.sizes = [4, 16]} {
      %va = tcg.input %a[%x] : tensor<16xf32>
      %e = tcg.compute exp %va : (f32) -> f32
      tcg.yield %e : f32
    }
    tcg.yield %0 : tensor<16xf32>
  }
  return %c : tensor<16xf32>
}
