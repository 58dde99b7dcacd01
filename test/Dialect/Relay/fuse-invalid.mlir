// RUN: split-file %s %t
// An unknown device is an error when the pass is created, naming the
// accepted values (no IR is read).
// RUN: not raf-opt %t/device.mlir --raf-fuse=device=tpu 2>&1 | FileCheck %s --check-prefix=DEVICE
// DEVICE: error: option 'device' of raf-fuse: unknown value 'tpu'; expected one of cpu, cuda
// RUN: raf-opt %t/preference.mlir -verify-diagnostics --raf-fuse="device=cuda backend-preference=cudnn,tvm"
// RUN: raf-opt %t/preference.mlir -verify-diagnostics --raf-backend-preference=cudnn,tvm --raf-fuse
// RUN: raf-opt %t/disabled.mlir -verify-diagnostics --raf-fuse="disable-backends=CUTLASS"
// RUN: raf-opt %t/disabled.mlir -verify-diagnostics --raf-disable-backends=CUTLASS --raf-fuse
// RUN: raf-opt %t/size.mlir -verify-diagnostics --raf-fuse=max-group-size=0
// RUN: not raf-opt %t/size.mlir --raf-fuse=max-group-size=0 -o /dev/null 2>/dev/null

// Bad options are errors at the module; nothing is fused.

//--- device.mlir
module {
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
    %0 = relay.exp %x : (tensor<4xf32>)
    %1 = relay.negative %0 : (tensor<4xf32>)
    return %1 : tensor<4xf32>
  }
}

//--- preference.mlir
// expected-error @+1 {{unknown backend 'tvm' in the backend preference (registered: linalg, cutlass, cudnn, cublas, cuda)}}
module {
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
    %0 = relay.exp %x : (tensor<4xf32>)
    %1 = relay.negative %0 : (tensor<4xf32>)
    return %1 : tensor<4xf32>
  }
}

//--- disabled.mlir
// Backend names are case-sensitive.
// expected-error @+1 {{unknown backend 'CUTLASS' in the disabled backends (registered: linalg, cutlass, cudnn, cublas, cuda)}}
module {
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
    %0 = relay.exp %x : (tensor<4xf32>)
    %1 = relay.negative %0 : (tensor<4xf32>)
    return %1 : tensor<4xf32>
  }
}

//--- size.mlir
// expected-error @+1 {{max-group-size must be at least 1}}
module {
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
    %0 = relay.exp %x : (tensor<4xf32>)
    %1 = relay.negative %0 : (tensor<4xf32>)
    return %1 : tensor<4xf32>
  }
}
