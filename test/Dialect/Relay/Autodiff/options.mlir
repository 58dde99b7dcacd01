// Option and entry errors of --raf-autodiff.
// RUN: not raf-opt --raf-autodiff="entry=nothing" %s 2>&1 | FileCheck %s --check-prefix=ENTRY
// RUN: not raf-opt --raf-autodiff="requires-grad=5" %s 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not raf-opt --raf-autodiff="requires-grad=1" %s 2>&1 | FileCheck %s --check-prefix=INT
// RUN: not raf-opt --raf-autodiff="requires-grad=0,0" %s 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: not raf-opt --raf-autodiff="nondifferentiable=maybe" %s 2>&1 | FileCheck %s --check-prefix=MODE
// RUN: not raf-opt --pass-pipeline="builtin.module(raf-autodiff{nondifferentiable=maybe})" %s 2>&1 | FileCheck %s --check-prefixes=MODE,PIPELINE

// Option errors do not print the module.
// ENTRY: error: --raf-autodiff: no function @nothing with a body
// ENTRY-NOT: see current operation
// RANGE: options.mlir:[[@LINE+8]]:1: error: requires-grad index 5 is out of range: @main has 2 arguments
// INT: error: requires-grad argument #1 must be a float tensor, got 'tensor<2xi64>'
// TWICE: error: requires-grad lists argument #0 twice
// An enumerated option is checked when the pass is created (no IR is
// read), with the accepted values.
// MODE: error: option 'nondifferentiable' of raf-autodiff: unknown value 'maybe'; expected one of error, zero
// PIPELINE-NEXT: failed to add `raf-autodiff` with options `nondifferentiable=maybe`
// MODE-NOT: see current operation
func.func @main(%x: tensor<2x2xf32>, %t: tensor<2xi64>) -> tensor<f32> {
  %l = relay.nn.cross_entropy %x, %t : (tensor<2x2xf32>, tensor<2xi64>)
  return %l : tensor<f32>
}
