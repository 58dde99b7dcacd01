// RUN: raf-opt %s -split-input-file -verify-diagnostics --raf-dispatch="device=cpu disable-backends=linalg"
// RUN: raf-opt %s -split-input-file -verify-diagnostics --raf-disable-backends=linalg --raf-dispatch
// The pass fails (non-zero exit), it does not only warn.
// RUN: not raf-opt %s -split-input-file --raf-dispatch="disable-backends=linalg" -o /dev/null 2>/dev/null

// With linalg disabled, nothing takes an elementwise operator on any device;
// every such operator is reported at its location.

func.func @no_backend(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{no usable backend for 'relay.exp' on device 'cpu'}}
  // expected-note @+1 {{dispatch list on this device: [linalg@10], disabled: [linalg]}}
  %0 = relay.exp %x : (tensor<4xf32>)
  // expected-error @+2 {{no usable backend for 'relay.negative' on device 'cpu'}}
  // expected-note @+1 {{dispatch list on this device: [linalg@10], disabled: [linalg]}}
  %1 = relay.negative %0 : (tensor<4xf32>)
  return %1 : tensor<4xf32>
}

// -----

// cublas exists only on cuda, so on cpu linalg is the only entry for dense.
func.func @dense_cpu(%a: tensor<4x8xf32>, %w: tensor<16x8xf32>) -> tensor<4x16xf32> {
  // expected-error @+2 {{no usable backend for 'relay.nn.dense' on device 'cpu'}}
  // expected-note @+1 {{dispatch list on this device: [linalg@10], disabled: [linalg]}}
  %0 = relay.nn.dense %a, %w : (tensor<4x8xf32>, tensor<16x8xf32>)
  return %0 : tensor<4x16xf32>
}
