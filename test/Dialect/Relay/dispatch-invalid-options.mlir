// RUN: split-file %s %t
// An unknown device is an error when the pass is created, naming the
// accepted values (no IR is read).
// RUN: not raf-opt %t/device.mlir --raf-dispatch=device=gpu 2>&1 | FileCheck %s --check-prefix=DEVICE
// RUN: not raf-opt %t/device.mlir --pass-pipeline='builtin.module(func.func(raf-dispatch{device=gpu}))' 2>&1 | FileCheck %s --check-prefix=DEVICE
// DEVICE: error: option 'device' of raf-dispatch: unknown value 'gpu'; expected one of cpu, cuda
// DEVICE-NOT: see current operation
// RUN: raf-opt %t/preference.mlir -verify-diagnostics --raf-dispatch="backend-preference=linalg,tvm"
// RUN: raf-opt %t/preference.mlir -verify-diagnostics --raf-backend-preference=linalg,tvm --raf-dispatch
// RUN: raf-opt %t/disabled.mlir -verify-diagnostics --raf-dispatch="device=cuda disable-backends=cudnn,vta"
// RUN: raf-opt %t/disabled.mlir -verify-diagnostics --raf-disable-backends=cudnn,vta --raf-dispatch=device=cuda

// Bad options are errors at the module, before anything is annotated.

//--- device.mlir
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
