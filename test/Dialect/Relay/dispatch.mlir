// RUN: raf-opt %s --raf-dispatch | FileCheck %s --check-prefix=CPU
// RUN: raf-opt %s --raf-dispatch=device=cuda | FileCheck %s --check-prefix=CUDA
// RUN: raf-opt %s --raf-dispatch="device=cuda backend-preference=linalg,cublas" | FileCheck %s --check-prefix=PREF
// RUN: raf-opt %s --raf-backend-preference=linalg,cublas --raf-dispatch=device=cuda | FileCheck %s --check-prefix=PREF
// RUN: raf-opt %s --raf-dispatch="device=cuda disable-backends=cublas" | FileCheck %s --check-prefix=NOBLAS
// RUN: raf-opt %s --raf-disable-backends=cublas --raf-dispatch=device=cuda | FileCheck %s --check-prefix=NOBLAS
// A pass option wins over the tool-wide default.
// RUN: raf-opt %s --raf-disable-backends=cublas --raf-dispatch="device=cuda disable-backends=cudnn" | FileCheck %s --check-prefix=NODNN
// RUN: raf-opt %s --raf-backend-preference=linalg --raf-dispatch="device=cuda backend-preference=cublas,cudnn,linalg" | FileCheck %s --check-prefix=CUDA

// Dispatch (RAF paper §3.2.1): matmul-like ops go to cublas on cuda (15 > 10),
// to linalg on cpu; conv2d to cudnn (12), softmax and dropout to cudnn (11);
// everything else to linalg. A preference filters and reorders the list; a
// disabled backend is removed from it.

// CPU-LABEL: func.func @dispatch
// CUDA-LABEL: func.func @dispatch
// PREF-LABEL: func.func @dispatch
// NOBLAS-LABEL: func.func @dispatch
// NODNN-LABEL: func.func @dispatch
func.func @dispatch(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %w: tensor<16x8xf32>,
                    %x: tensor<1x3x8x8xf32>, %k: tensor<4x3x3x3xf32>,
                    %l: tensor<2x4x8xf32>, %r: tensor<2x16x8xf32>)
    -> (tensor<4x16xf32>, tensor<4x16xf32>, tensor<2x4x16xf32>, tensor<1x4x6x6xf32>, tensor<4x16xf32>) {
  // CPU: relay.nn.matmul {{.*}}relay.backend = "linalg"
  // CUDA: relay.nn.matmul {{.*}}relay.backend = "cublas"
  // PREF: relay.nn.matmul {{.*}}relay.backend = "linalg"
  // NOBLAS: relay.nn.matmul {{.*}}relay.backend = "linalg"
  // NODNN: relay.nn.matmul {{.*}}relay.backend = "cublas"
  %0 = relay.nn.matmul %a, %b : (tensor<4x8xf32>, tensor<8x16xf32>)
  // CPU: relay.nn.dense {{.*}}relay.backend = "linalg"
  // CUDA: relay.nn.dense {{.*}}relay.backend = "cublas"
  // PREF: relay.nn.dense {{.*}}relay.backend = "linalg"
  // NOBLAS: relay.nn.dense {{.*}}relay.backend = "linalg"
  %1 = relay.nn.dense %a, %w : (tensor<4x8xf32>, tensor<16x8xf32>)
  // CPU: relay.nn.batch_matmul {{.*}}relay.backend = "linalg"
  // CUDA: relay.nn.batch_matmul {{.*}}relay.backend = "cublas"
  // PREF: relay.nn.batch_matmul {{.*}}relay.backend = "linalg"
  // NOBLAS: relay.nn.batch_matmul {{.*}}relay.backend = "linalg"
  %2 = relay.nn.batch_matmul %l, %r : (tensor<2x4x8xf32>, tensor<2x16x8xf32>)
  // CPU: relay.nn.conv2d {{.*}}relay.backend = "linalg"
  // CUDA: relay.nn.conv2d {{.*}}relay.backend = "cudnn"
  // The preference names only linalg and cublas: cudnn is filtered out.
  // PREF: relay.nn.conv2d {{.*}}relay.backend = "linalg"
  // NOBLAS: relay.nn.conv2d {{.*}}relay.backend = "cudnn"
  // NODNN: relay.nn.conv2d {{.*}}relay.backend = "linalg"
  %3 = relay.nn.conv2d %x, %k : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>)
  // CPU: relay.nn.softmax {{.*}}relay.backend = "linalg"
  // CUDA: relay.nn.softmax {{.*}}relay.backend = "cudnn"
  // NODNN: relay.nn.softmax {{.*}}relay.backend = "linalg"
  %4 = relay.nn.softmax %0 : (tensor<4x16xf32>)
  // CPU: relay.nn.dropout {{.*}}relay.backend = "linalg"
  // CUDA: relay.nn.dropout {{.*}}relay.backend = "cudnn"
  %5 = relay.nn.dropout %4 : (tensor<4x16xf32>)
  // CPU: relay.add {{.*}}relay.backend = "linalg"
  // CUDA: relay.add {{.*}}relay.backend = "linalg"
  // PREF: relay.add {{.*}}relay.backend = "linalg"
  %6 = relay.add %5, %1 : (tensor<4x16xf32>, tensor<4x16xf32>)
  return %0, %6, %2, %3, %4 : tensor<4x16xf32>, tensor<4x16xf32>, tensor<2x4x16xf32>, tensor<1x4x6x6xf32>, tensor<4x16xf32>
}

// Operators in closures and branches are dispatched too; structural ops
// (constants, tuples, relay.if) get no backend.
// CPU-LABEL: func.func @nested
func.func @nested(%c: tensor<i1>, %x: tensor<4xf32>) -> tensor<4xf32> {
  // CPU: relay.constant dense<1.000000e+00> : tensor<4xf32>{{$}}
  %k = relay.constant dense<1.0> : tensor<4xf32>
  // CPU: relay.fn
  %f = relay.fn(%y: tensor<4xf32>) -> tensor<4xf32> {
    // CPU: relay.exp {{.*}}relay.backend = "linalg"
    %e = relay.exp %y : (tensor<4xf32>)
    relay.return %e : tensor<4xf32>
  }
  // CPU: relay.if
  %r = relay.if %c : tensor<i1> -> (tensor<4xf32>) {
    // CPU: relay.negative {{.*}}relay.backend = "linalg"
    %n = relay.negative %x : (tensor<4xf32>)
    relay.yield %n : tensor<4xf32>
  } else {
    relay.yield %k : tensor<4xf32>
  }
  %s = relay.call %f(%r) : (tensor<4xf32>) -> tensor<4xf32>
  return %s : tensor<4xf32>
}

// Operators inside fused functions keep the backend fusion chose; the
// other operators are (re)dispatched.
// CUDA-LABEL: func.func private @fused
// CUDA: relay.nn.dense {{.*}}relay.backend = "cutlass"
// CUDA: relay.nn.relu {{.*}}relay.backend = "cutlass"
func.func private @fused(%a: tensor<4x8xf32>, %w: tensor<16x8xf32>) -> tensor<4x16xf32>
    attributes {relay.primitive, relay.backend = "cutlass"} {
  %0 = relay.nn.dense %a, %w {relay.backend = "cutlass"} : (tensor<4x8xf32>, tensor<16x8xf32>)
  %1 = relay.nn.relu %0 {relay.backend = "cutlass"} : (tensor<4x16xf32>)
  return %1 : tensor<4x16xf32>
}
// CUDA-LABEL: func.func @stale
// CUDA: relay.exp {{.*}}relay.backend = "linalg"
func.func @stale(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.exp %x {relay.backend = "cudnn"} : (tensor<4xf32>)
  return %0 : tensor<4xf32>
}
