// Refusals of inlining; run by ../fission-inline-refusals.mlir.

func.func @kernel_result(%ain: tensor<4xf32>) -> tensor<4xf32> {
  %r = tcg.kernel (%a = %ain : tensor<4xf32>) -> tensor<4xf32> {
    // expected-error @+1 {{'tcg.tensor' op is the kernel's result; inlining removes the computation, so nothing would produce it}}
    %0 = tcg.tensor %i in [0, 4) -> tensor<4xf32> attributes {topdown.target} {
      %x = tcg.input %a[%i] : tensor<4xf32>
      tcg.yield %x : f32
    }
    tcg.yield %0 : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @reduces(%ain: tensor<4x8xf32>) -> tensor<4xf32> {
  %r = tcg.kernel (%a = %ain : tensor<4x8xf32>) -> tensor<4xf32> {
    // expected-error @+1 {{'tcg.tensor' op reduces; only element-wise computations are inlined (Figs. 3.13, 3.14)}}
    %m = tcg.tensor %i in [0, 4) -> tensor<4xf32> attributes {topdown.target} {
      %s = tcg.reduce max %k in [0, 8) -> f32 {
        %x = tcg.input %a[%i, %k] : tensor<4x8xf32>
        tcg.yield %x : f32
      }
      tcg.yield %s : f32
    }
    %0 = tcg.tensor %i in [0, 4) -> tensor<4xf32> {
      %x = tcg.input %m[%i] : tensor<4xf32>
      %p = tcg.compute mul %x, %x : (f32, f32) -> f32
      tcg.yield %p : f32
    }
    tcg.yield %0 : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @unread(%ain: tensor<4xf32>) -> tensor<4xf32> {
  %r = tcg.kernel (%a = %ain : tensor<4xf32>) -> tensor<4xf32> {
    // expected-error @+1 {{'tcg.tensor' op is read by no computation; nothing to inline into}}
    %t = tcg.tensor %i in [0, 4) -> tensor<4xf32> attributes {topdown.target} {
      %x = tcg.input %a[%i] : tensor<4xf32>
      tcg.yield %x : f32
    }
    %0 = tcg.tensor %i in [0, 4) -> tensor<4xf32> {
      %x = tcg.input %a[%i] : tensor<4xf32>
      tcg.yield %x : f32
    }
    tcg.yield %0 : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @padded_read(%ain: tensor<4xf32>) -> tensor<6xf32> {
  %r = tcg.kernel (%a = %ain : tensor<4xf32>) -> tensor<6xf32> {
    %t = tcg.tensor %i in [0, 4) -> tensor<4xf32> attributes {topdown.target} {
      %x = tcg.input %a[%i] : tensor<4xf32>
      tcg.yield %x : f32
    }
    %0 = tcg.tensor %i in [0, 6) -> tensor<6xf32> {
      // expected-error @+1 {{'tcg.input' op reads the computation through a padded or dilated view; inlining would drop the view's zeros}}
      %x = tcg.input %t[%i] pad_low [1] pad_high [1] : tensor<4xf32>
      tcg.yield %x : f32
    }
    tcg.yield %0 : tensor<6xf32>
  }
  return %r : tensor<6xf32>
}

// -----

func.func @inner_dimension(%ain: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %r = tcg.kernel (%a = %ain : tensor<4x2xf32>) -> tensor<4x2xf32> {
    %t = tcg.tensor %i in [0, 4) -> tensor<4x2xf32> {
      // expected-error @+1 {{'tcg.tensor' op is not a computation of the kernel (an inner dimension); inline the top-level tcg.tensor}}
      %1 = tcg.tensor %j in [0, 2) -> tensor<2xf32> attributes {topdown.target} {
        %x = tcg.input %a[%i, %j] : tensor<4x2xf32>
        tcg.yield %x : f32
      }
      tcg.yield %1 : tensor<2xf32>
    }
    tcg.yield %t : tensor<4x2xf32>
  }
  return %r : tensor<4x2xf32>
}
