// Option and entry errors of --raf-autodiff.
// RUN: not raf-opt --raf-autodiff="entry=nothing" %s 2>&1 | FileCheck %s --check-prefix=ENTRY
// RUN: not raf-opt --raf-autodiff="requires-grad=5" %s 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not raf-opt --raf-autodiff="requires-grad=1" %s 2>&1 | FileCheck %s --check-prefix=INT
// RUN: not raf-opt --raf-autodiff="requires-grad=0,0" %s 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: not raf-opt --raf-autodiff="nondifferentiable=maybe" %s 2>&1 | FileCheck %s --check-prefix=MODE

// ENTRY: error: --raf-autodiff: no function @nothing with a body
// RANGE: options.mlir:[[@LINE+4]]:1: error: requires-grad index 5 is out of range: @main has 2 arguments
// INT: error: requires-grad argument #1 must be a float tensor, got 'tensor<2xi64>'
// TWICE: error: requires-grad lists argument #0 twice
// MODE: error: nondifferentiable must be "error" or "zero", got "maybe"
func.func @main(%x: tensor<2x2xf32>, %t: tensor<2xi64>) -> tensor<f32> {
  %l = relay.nn.cross_entropy %x, %t : (tensor<2x2xf32>, tensor<2xi64>)
  return %l : tensor<f32>
}
