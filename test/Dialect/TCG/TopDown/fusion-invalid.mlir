// RUN: raf-opt %s -split-input-file -verify-diagnostics
// RUN: raf-opt %S/Inputs/fused-lowering.mlir --convert-tcg-to-linalg -verify-diagnostics

// The fused form of Rieber 2022, Fig. 3.12: a tensor body holding a
// sequence of computations yields the last one, and holds nothing else.

func.func @fused_yields_first(%ain: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %r = tcg.kernel (%a = %ain : tensor<2x3xf32>) -> tensor<2x3xf32> {
    // expected-error @+1 {{'tcg.tensor' op body yielding a tensor must consist of one nested tcg.tensor and the yield of its result (or, fused, of a sequence of tcg.tensor computations yielding the last one)}}
    %0 = tcg.tensor %x in [0, 2) -> tensor<2x3xf32> {
      %t = tcg.tensor %y in [0, 3) -> tensor<3xf32> {
        %v = tcg.input %a[%x, %y] : tensor<2x3xf32>
        tcg.yield %v : f32
      }
      %u = tcg.tensor %y in [0, 3) -> tensor<3xf32> {
        %v = tcg.input %t[%y] : tensor<3xf32>
        tcg.yield %v : f32
      }
      tcg.yield %t : tensor<3xf32>
    }
    tcg.yield %0 : tensor<2x3xf32>
  }
  return %r : tensor<2x3xf32>
}

// -----

func.func @fused_with_scalar(%ain: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %r = tcg.kernel (%a = %ain : tensor<2x3xf32>) -> tensor<2x3xf32> {
    // expected-error @+1 {{'tcg.tensor' op body yielding a tensor must consist of one nested tcg.tensor and the yield of its result (or, fused, of a sequence of tcg.tensor computations yielding the last one)}}
    %0 = tcg.tensor %x in [0, 2) -> tensor<2x3xf32> {
      %t = tcg.tensor %y in [0, 3) -> tensor<3xf32> {
        %v = tcg.input %a[%x, %y] : tensor<2x3xf32>
        tcg.yield %v : f32
      }
      %s = tcg.input %a[%x, 0] : tensor<2x3xf32>
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
