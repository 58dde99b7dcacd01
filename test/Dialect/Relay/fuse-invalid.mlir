// RUN: split-file %s %t
// RUN: raf-opt %t/device.mlir -verify-diagnostics --raf-fuse=device=tpu
// RUN: raf-opt %t/preference.mlir -verify-diagnostics --raf-fuse="device=cuda backend-preference=cudnn,tvm"
// RUN: raf-opt %t/preference.mlir -verify-diagnostics --raf-backend-preference=cudnn,tvm --raf-fuse
// RUN: raf-opt %t/disabled.mlir -verify-diagnostics --raf-fuse="disable-backends=CUTLASS"
// RUN: raf-opt %t/disabled.mlir -verify-diagnostics --raf-disable-backends=CUTLASS --raf-fuse
// RUN: raf-opt %t/size.mlir -verify-diagnostics --raf-fuse=max-group-size=0
// RUN: not raf-opt %t/size.mlir --raf-fuse=max-group-size=0 -o /dev/null 2>/dev/null

// Bad options are errors at the module; nothing is fused.

//--- device.mlir
// expected-error @+1 {{unknown device 'tpu' (expected 'cpu' or 'cuda')}}
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
