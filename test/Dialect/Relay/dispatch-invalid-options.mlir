// RUN: split-file %s %t
// RUN: raf-opt %t/device.mlir -verify-diagnostics --raf-dispatch=device=gpu
// RUN: raf-opt %t/preference.mlir -verify-diagnostics --raf-dispatch="backend-preference=linalg,tvm"
// RUN: raf-opt %t/preference.mlir -verify-diagnostics --raf-backend-preference=linalg,tvm --raf-dispatch
// RUN: raf-opt %t/disabled.mlir -verify-diagnostics --raf-dispatch="device=cuda disable-backends=cudnn,vta"
// RUN: raf-opt %t/disabled.mlir -verify-diagnostics --raf-disable-backends=cudnn,vta --raf-dispatch=device=cuda

// Bad options are errors at the module, before anything is annotated.

//--- device.mlir
// expected-error @+1 {{unknown device 'gpu' (expected 'cpu' or 'cuda')}}
module {
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
    %0 = relay.exp %x : (tensor<4xf32>)
    return %0 : tensor<4xf32>
  }
}

//--- preference.mlir
// expected-error @+1 {{unknown backend 'tvm' in the backend preference (registered: linalg, cutlass, cudnn, cublas, cuda)}}
module {
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
    %0 = relay.exp %x : (tensor<4xf32>)
    return %0 : tensor<4xf32>
  }
}

//--- disabled.mlir
// expected-error @+1 {{unknown backend 'vta' in the disabled backends (registered: linalg, cutlass, cudnn, cublas, cuda)}}
module {
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
    %0 = relay.exp %x : (tensor<4xf32>)
    return %0 : tensor<4xf32>
  }
}
