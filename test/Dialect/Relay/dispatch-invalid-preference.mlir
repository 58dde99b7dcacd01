// RUN: raf-opt %s -verify-diagnostics --raf-dispatch="device=cuda backend-preference=cublas"
// RUN: raf-opt %s -verify-diagnostics --raf-backend-preference=cublas --raf-dispatch=device=cuda

// A preference filters every dispatch list: with only cublas preferred,
// dense still dispatches, but nothing is left for an elementwise operator.

func.func @preference(%a: tensor<4x8xf32>, %w: tensor<16x8xf32>) -> tensor<4x16xf32> {
  %0 = relay.nn.dense %a, %w : (tensor<4x8xf32>, tensor<16x8xf32>)
  // expected-error @+2 {{no usable backend for 'relay.nn.relu' on device 'cuda'}}
  // expected-note @+1 {{dispatch list on this device after preference: [], disabled: []}}
  %1 = relay.nn.relu %0 : (tensor<4x16xf32>)
  return %1 : tensor<4x16xf32>
}
