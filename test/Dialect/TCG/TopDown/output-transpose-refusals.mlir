// RUN: raf-opt %s -split-input-file --tcg-topdown-transform=kind=output-transpose -verify-diagnostics

// Refusals of output transpose (Rieber 2022, Fig. 3.9).

func.func @innermost(%ain: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = tcg.kernel (%a = %ain : tensor<4x8xf32>) -> tensor<4x8xf32> {
    %t = tcg.tensor %i in [0, 4) -> tensor<4x8xf32> {
      // expected-error @+1 {{'tcg.tensor' op is the innermost dimension; output transpose interchanges a dimension with the one nested in it}}
      %0 = tcg.tensor %j in [0, 8) -> tensor<8xf32> attributes {topdown.target} {
        %x = tcg.input %a[%i, %j] : tensor<4x8xf32>
        tcg.yield %x : f32
      }
      tcg.yield %0 : tensor<8xf32>
    }
    %u = tcg.tensor %i in [0, 4) -> tensor<4x8xf32> {
      %0 = tcg.tensor %j in [0, 8) -> tensor<8xf32> {
        %x = tcg.input %t[%i, %j] : tensor<4x8xf32>
        tcg.yield %x : f32
      }
      tcg.yield %0 : tensor<8xf32>
    }
    tcg.yield %u : tensor<4x8xf32>
  }
  return %r : tensor<4x8xf32>
}

// -----

func.func @kernel_result(%ain: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = tcg.kernel (%a = %ain : tensor<4x8xf32>) -> tensor<4x8xf32> {
    // expected-error @+1 {{'tcg.tensor' op belongs to the computation the kernel returns; transposing it would change the kernel's type}}
    %t = tcg.tensor %i in [0, 4) -> tensor<4x8xf32> attributes {topdown.target} {
      %0 = tcg.tensor %j in [0, 8) -> tensor<8xf32> {
        %x = tcg.input %a[%i, %j] : tensor<4x8xf32>
        tcg.yield %x : f32
      }
      tcg.yield %0 : tensor<8xf32>
    }
    tcg.yield %t : tensor<4x8xf32>
  }
  return %r : tensor<4x8xf32>
}
