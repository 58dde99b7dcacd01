// RUN: raf-opt %s -split-input-file --tcg-topdown-transform=kind=fusion -verify-diagnostics

// Refusals of fusion (Rieber 2022, Fig. 3.12, §3.3.1: "only possible if the
// iteration interval is identical and no data is consumed before it is
// computed").

func.func @kernel_result(%ain: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %r = tcg.kernel (%a = %ain : tensor<2x3xf32>) -> tensor<2x3xf32> {
    // expected-error @+1 {{'tcg.tensor' op is the kernel's result; fused into another computation it would no longer exist as a whole}}
    %t = tcg.tensor %x in [0, 2) -> tensor<2x3xf32> attributes {topdown.target} {
      %0 = tcg.tensor %y in [0, 3) -> tensor<3xf32> {
        %v = tcg.input %a[%x, %y] : tensor<2x3xf32>
        tcg.yield %v : f32
      }
      tcg.yield %0 : tensor<3xf32>
    }
    tcg.yield %t : tensor<2x3xf32>
  }
  return %r : tensor<2x3xf32>
}

// -----

func.func @different_intervals(%ain: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %r = tcg.kernel (%a = %ain : tensor<2x3xf32>) -> tensor<3x2xf32> {
    // expected-error @+1 {{'tcg.tensor' op has the outer interval [0, 2) and its consumer [0, 3); fusion needs identical intervals}}
    %t = tcg.tensor %x in [0, 2) -> tensor<2x3xf32> attributes {topdown.target} {
      %0 = tcg.tensor %y in [0, 3) -> tensor<3xf32> {
        %v = tcg.input %a[%x, %y] : tensor<2x3xf32>
        tcg.yield %v : f32
      }
      tcg.yield %0 : tensor<3xf32>
    }
    %u = tcg.tensor %y in [0, 3) -> tensor<3x2xf32> {
      %0 = tcg.tensor %x in [0, 2) -> tensor<2xf32> {
        %v = tcg.input %t[%x, %y] : tensor<2x3xf32>
        tcg.yield %v : f32
      }
      tcg.yield %0 : tensor<2xf32>
    }
    tcg.yield %u : tensor<3x2xf32>
  }
  return %r : tensor<3x2xf32>
}

// -----

// r[x, y] reads t[y, x]: row x of r needs column x of t, which is complete
// only after every row of t.
func.func @consumed_before_computed(%ain: tensor<3x3xf32>) -> tensor<3x3xf32> {
  %r = tcg.kernel (%a = %ain : tensor<3x3xf32>) -> tensor<3x3xf32> {
    // expected-error @+1 {{'tcg.tensor' op is read at another row than the consumer's outer iterator (or through a view); fused, the consumer could read data before it is computed}}
    %t = tcg.tensor %x in [0, 3) -> tensor<3x3xf32> attributes {topdown.target} {
      %0 = tcg.tensor %y in [0, 3) -> tensor<3xf32> {
        %v = tcg.input %a[%x, %y] : tensor<3x3xf32>
        tcg.yield %v : f32
      }
      tcg.yield %0 : tensor<3xf32>
    }
    %u = tcg.tensor %x in [0, 3) -> tensor<3x3xf32> {
      %0 = tcg.tensor %y in [0, 3) -> tensor<3xf32> {
        %v = tcg.input %t[%y, %x] : tensor<3x3xf32>
        tcg.yield %v : f32
      }
      tcg.yield %0 : tensor<3xf32>
    }
    tcg.yield %u : tensor<3x3xf32>
  }
  return %r : tensor<3x3xf32>
}

// -----

func.func @two_consumers(%ain: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %r = tcg.kernel (%a = %ain : tensor<2x3xf32>) -> tensor<2x3xf32> {
    // expected-error @+1 {{'tcg.tensor' op is read by several computations; after fusion its rows exist only inside one of them}}
    %t = tcg.tensor %x in [0, 2) -> tensor<2x3xf32> attributes {topdown.target} {
      %0 = tcg.tensor %y in [0, 3) -> tensor<3xf32> {
        %v = tcg.input %a[%x, %y] : tensor<2x3xf32>
        tcg.yield %v : f32
      }
      tcg.yield %0 : tensor<3xf32>
    }
    %u = tcg.tensor %x in [0, 2) -> tensor<2x3xf32> {
      %0 = tcg.tensor %y in [0, 3) -> tensor<3xf32> {
        %v = tcg.input %t[%x, %y] : tensor<2x3xf32>
        tcg.yield %v : f32
      }
      tcg.yield %0 : tensor<3xf32>
    }
    %w = tcg.tensor %x in [0, 2) -> tensor<2x3xf32> {
      %0 = tcg.tensor %y in [0, 3) -> tensor<3xf32> {
        %v = tcg.input %t[%x, %y] : tensor<2x3xf32>
        %q = tcg.input %u[%x, %y] : tensor<2x3xf32>
        %s = tcg.compute add %v, %q : (f32, f32) -> f32
        tcg.yield %s : f32
      }
      tcg.yield %0 : tensor<3xf32>
    }
    tcg.yield %w : tensor<2x3xf32>
  }
  return %r : tensor<2x3xf32>
}

// -----

// Fused, the row m[x] would be a scalar next to the row r[y].
func.func @single_dimension(%ain: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %r = tcg.kernel (%a = %ain : tensor<2x3xf32>) -> tensor<2x3xf32> {
    // expected-error @+1 {{'tcg.tensor' op or its consumer has a single dimension; fusion keeps an inner dimension of each (a fused body is a sequence of tensors)}}
    %m = tcg.tensor %x in [0, 2) -> tensor<2xf32> attributes {topdown.target} {
      %s = tcg.reduce max %y in [0, 3) -> f32 {
        %v = tcg.input %a[%x, %y] : tensor<2x3xf32>
        tcg.yield %v : f32
      }
      tcg.yield %s : f32
    }
    %u = tcg.tensor %x in [0, 2) -> tensor<2x3xf32> {
      %0 = tcg.tensor %y in [0, 3) -> tensor<3xf32> {
        %v = tcg.input %a[%x, %y] : tensor<2x3xf32>
        %w = tcg.input %m[%x] : tensor<2xf32>
        %d = tcg.compute sub %v, %w : (f32, f32) -> f32
        tcg.yield %d : f32
      }
      tcg.yield %0 : tensor<3xf32>
    }
    tcg.yield %u : tensor<2x3xf32>
  }
  return %r : tensor<2x3xf32>
}

// -----

func.func @unread(%ain: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %r = tcg.kernel (%a = %ain : tensor<2x3xf32>) -> tensor<2x3xf32> {
    // expected-error @+1 {{'tcg.tensor' op is read by no computation; fusion fuses a computation into the one that reads it}}
    %t = tcg.tensor %x in [0, 2) -> tensor<2x3xf32> attributes {topdown.target} {
      %0 = tcg.tensor %y in [0, 3) -> tensor<3xf32> {
        %v = tcg.input %a[%x, %y] : tensor<2x3xf32>
        tcg.yield %v : f32
      }
      tcg.yield %0 : tensor<3xf32>
    }
    %u = tcg.tensor %x in [0, 2) -> tensor<2x3xf32> {
      %0 = tcg.tensor %y in [0, 3) -> tensor<3xf32> {
        %v = tcg.input %a[%x, %y] : tensor<2x3xf32>
        tcg.yield %v : f32
      }
      tcg.yield %0 : tensor<3xf32>
    }
    tcg.yield %u : tensor<2x3xf32>
  }
  return %r : tensor<2x3xf32>
}
