// RUN: raf-opt %s -split-input-file --tcg-topdown-transform=kind=compute-fission -verify-diagnostics
// RUN: raf-opt %S/Inputs/reduction-fission-refusals.mlir -split-input-file --tcg-topdown-transform=kind=reduction-fission -verify-diagnostics
// RUN: raf-opt %S/Inputs/inline-refusals.mlir -split-input-file --tcg-topdown-transform=kind=inline -verify-diagnostics

// Refusals of compute fission (Rieber 2022, Fig. 3.10) here, of reduction
// fission (Fig. 3.11) and inlining (Figs. 3.13, 3.14) in Inputs/.

func.func @single_statement(%ain: tensor<4xf32>, %bin: tensor<4xf32>) -> tensor<4xf32> {
  %r = tcg.kernel (%a = %ain : tensor<4xf32>, %b = %bin : tensor<4xf32>) -> tensor<4xf32> {
    %0 = tcg.tensor %i in [0, 4) -> tensor<4xf32> {
      %x = tcg.input %a[%i] : tensor<4xf32>
      %y = tcg.input %b[%i] : tensor<4xf32>
      // expected-error @+1 {{'tcg.compute' op is the only statement of its computation; fission needs more than one compute or reduce statement}}
      %p = tcg.compute mul %x, %y {topdown.target} : (f32, f32) -> f32
      tcg.yield %p : f32
    }
    tcg.yield %0 : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @computed_operand(%ain: tensor<4xf32>) -> tensor<4xf32> {
  %r = tcg.kernel (%a = %ain : tensor<4xf32>) -> tensor<4xf32> {
    %0 = tcg.tensor %i in [0, 4) -> tensor<4xf32> {
      %x = tcg.input %a[%i] : tensor<4xf32>
      %p = tcg.compute mul %x, %x : (f32, f32) -> f32
      // expected-error @+1 {{'tcg.compute' op has an operand computed by another statement; fission that statement first (full fission splits bottom-up)}}
      %e = tcg.compute exp %p {topdown.target} : (f32) -> f32
      tcg.yield %e : f32
    }
    tcg.yield %0 : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
