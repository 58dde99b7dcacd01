// RUN: raf-opt %s -split-input-file --tcg-topdown-transform=kind=unfuse -verify-diagnostics

// Inverse fusion splits local rows only: not a top-level computation.
func.func @top_level(%nin: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %r = tcg.kernel (%n = %nin : tensor<2x3xf32>) -> tensor<2x3xf32> attributes {arg_names = ["n"]} {
    // expected-error @+1 {{'tcg.tensor' op is not a local row of a fused body; only those are split out}}
    %t = tcg.tensor %x in [0, 2) name "x" -> tensor<2x3xf32> attributes {topdown.target} {
      %0 = tcg.tensor %y in [0, 3) name "y" -> tensor<3xf32> {
        %v = tcg.input %n[%x, %y] : tensor<2x3xf32>
        tcg.yield %v : f32
      }
      tcg.yield %0 : tensor<3xf32>
    }
    tcg.yield %t : tensor<2x3xf32>
  }
  return %r : tensor<2x3xf32>
}

// -----

// Nor an inner dimension of an unfused computation.
func.func @inner_dimension(%nin: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %r = tcg.kernel (%n = %nin : tensor<2x3xf32>) -> tensor<2x3xf32> attributes {arg_names = ["n"]} {
    %t = tcg.tensor %x in [0, 2) name "x" -> tensor<2x3xf32> {
      // expected-error @+1 {{'tcg.tensor' op is not a local row of a fused body; only those are split out}}
      %0 = tcg.tensor %y in [0, 3) name "y" -> tensor<3xf32> attributes {topdown.target} {
        %v = tcg.input %n[%x, %y] : tensor<2x3xf32>
        tcg.yield %v : f32
      }
      tcg.yield %0 : tensor<3xf32>
    }
    tcg.yield %t : tensor<2x3xf32>
  }
  return %r : tensor<2x3xf32>
}

// -----

// The dimension a fused body yields stays.
func.func @yielded(%nin: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %r = tcg.kernel (%n = %nin : tensor<2x3xf32>) -> tensor<2x3xf32> attributes {arg_names = ["n"]} {
    %u = tcg.tensor %x in [0, 2) name "x" -> tensor<2x3xf32> {
      %t = tcg.tensor %y in [0, 3) name "y" -> tensor<3xf32> {
        %v = tcg.input %n[%x, %y] : tensor<2x3xf32>
        tcg.yield %v : f32
      }
      // expected-error @+1 {{'tcg.tensor' op is the dimension its fused body yields; only the local rows before it are split out}}
      %0 = tcg.tensor %y in [0, 3) name "y" -> tensor<3xf32> attributes {topdown.target} {
        %v = tcg.input %t[%y] : tensor<3xf32>
        tcg.yield %v : f32
      }
      tcg.yield %0 : tensor<3xf32>
    }
    tcg.yield %u : tensor<2x3xf32>
  }
  return %r : tensor<2x3xf32>
}

// -----

// A row reading an earlier local row would move in front of it.
func.func @reads_earlier_row(%nin: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %r = tcg.kernel (%n = %nin : tensor<2x3xf32>) -> tensor<2x3xf32> attributes {arg_names = ["n"]} {
    %u = tcg.tensor %x in [0, 2) name "x" -> tensor<2x3xf32> {
      %t = tcg.tensor %y in [0, 3) name "y" -> tensor<3xf32> {
        %v = tcg.input %n[%x, %y] : tensor<2x3xf32>
        tcg.yield %v : f32
      }
      // expected-error @+1 {{'tcg.tensor' op reads an earlier local row of its fused body; split that one first}}
      %s = tcg.tensor %y in [0, 3) name "y" -> tensor<3xf32> attributes {topdown.target} {
        %v = tcg.input %t[%y] : tensor<3xf32>
        %e = tcg.compute exp %v : (f32) -> f32
        tcg.yield %e : f32
      }
      %0 = tcg.tensor %y in [0, 3) name "y" -> tensor<3xf32> {
        %v = tcg.input %s[%y] : tensor<3xf32>
        tcg.yield %v : f32
      }
      tcg.yield %0 : tensor<3xf32>
    }
    tcg.yield %u : tensor<2x3xf32>
  }
  return %r : tensor<2x3xf32>
}

// -----

// The marked op must be a tcg.tensor.
func.func @not_a_tensor(%nin: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %r = tcg.kernel (%n = %nin : tensor<2x3xf32>) -> tensor<2x3xf32> attributes {arg_names = ["n"]} {
    %t = tcg.tensor %x in [0, 2) name "x" -> tensor<2x3xf32> {
      %0 = tcg.tensor %y in [0, 3) name "y" -> tensor<3xf32> {
        // expected-error @+1 {{--tcg-topdown-transform=kind=unfuse applies to a local row of a fused body}}
        %v = tcg.input %n[%x, %y] {topdown.target} : tensor<2x3xf32>
        tcg.yield %v : f32
      }
      tcg.yield %0 : tensor<3xf32>
    }
    tcg.yield %t : tensor<2x3xf32>
  }
  return %r : tensor<2x3xf32>
}
