// Errors of --raf-data-parallel.
// RUN: rm -rf %t && split-file %s %t
// Option errors are reported at the module.
// RUN: not raf-opt %t/grad.mlir --raf-data-parallel 2>&1 | FileCheck %s --check-prefix=WORLD
// RUN: not raf-opt %t/grad.mlir --raf-data-parallel="world-size=0" 2>&1 | FileCheck %s --check-prefix=WORLD0
// RUN: not raf-opt %t/grad.mlir --raf-data-parallel="world-size=2 bucket-bytes=-1" 2>&1 | FileCheck %s --check-prefix=BUCKET
// RUN: not raf-opt %t/grad.mlir --raf-data-parallel="world-size=2 zero=3" 2>&1 | FileCheck %s --check-prefix=ZERO3
// RUN: not raf-opt %t/grad.mlir --raf-data-parallel="world-size=2 entry=nope" 2>&1 | FileCheck %s --check-prefix=ENTRY
// WORLD: grad.mlir:0:0: error: --raf-data-parallel: world-size must be >= 1, got 0
// WORLD0: error: --raf-data-parallel: world-size must be >= 1, got 0
// BUCKET: error: --raf-data-parallel: bucket-bytes must be >= 0, got -1
// ZERO3: error: --raf-data-parallel: zero must be 0, 1 or 2, got 3
// ENTRY: error: --raf-data-parallel: no function '@nope'
// RUN: raf-opt %t/forward.mlir -verify-diagnostics --raf-data-parallel="world-size=2"
// RUN: raf-opt %t/twice.mlir -verify-diagnostics --raf-data-parallel="world-size=2"
// RUN: raf-opt %t/int-grad.mlir -verify-diagnostics --raf-data-parallel="world-size=2"
// RUN: raf-opt %t/bn-dynamic.mlir -verify-diagnostics --raf-data-parallel="world-size=2"
// RUN: raf-opt %t/bn-empty.mlir -verify-diagnostics --raf-data-parallel="world-size=2"
// A training batch norm in a function the step calls would keep per-rank
// statistics: refused with sync-batch-norm (the default), accepted without.
// RUN: raf-opt %t/bn-callee.mlir -verify-diagnostics --raf-data-parallel="world-size=2"
// RUN: raf-opt %t/bn-callee.mlir --raf-data-parallel="world-size=2 sync-batch-norm=false" -o /dev/null
// Without SyncBatchNorm the same programs are accepted.
// RUN: raf-opt %t/bn-dynamic.mlir --raf-data-parallel="world-size=2 sync-batch-norm=false" -o /dev/null
// The pass fails (non-zero exit), it does not only warn.
// RUN: not raf-opt %t/grad.mlir --raf-data-parallel -o /dev/null 2>/dev/null

//--- grad.mlir
func.func @main(%w: tensor<3xf32>, %dy: tensor<f32>) -> (tensor<f32>, tensor<3xf32>)
    attributes {raf.grad_params = array<i64: 0>} {
  %l = relay.sum %w : (tensor<3xf32>)
  %g = relay.broadcast_to %dy {shape = array<i64: 3>} : (tensor<f32>)
  return %l, %g : tensor<f32>, tensor<3xf32>
}

//--- forward.mlir
// expected-error @+1 {{--raf-data-parallel: gradient function '@main': expected a non-empty 'raf.grad_params' (array<i64>), as --raf-autodiff="inline-backward=true" records it}}
func.func @main(%w: tensor<3xf32>) -> tensor<f32> {
  %l = relay.sum %w : (tensor<3xf32>)
  return %l : tensor<f32>
}

//--- twice.mlir
func.func @main(%w: tensor<3xf32>, %dy: tensor<f32>) -> (tensor<f32>, tensor<3xf32>)
    attributes {raf.grad_params = array<i64: 0>} {
  %l = relay.sum %w : (tensor<3xf32>)
  %g = relay.broadcast_to %dy {shape = array<i64: 3>} : (tensor<f32>)
  // expected-error @+1 {{--raf-data-parallel: '@main' already holds collectives; the pass scales a single-device program}}
  %a = relay.comm.allreduce %g {reduction = "avg", world_size = 2 : i64} : (tensor<3xf32>)
  return %l, %a : tensor<f32>, tensor<3xf32>
}

//--- int-grad.mlir
// expected-error @+1 {{gradient result #1 must be a float tensor, got 'tensor<3xi32>'}}
func.func @main(%w: tensor<3xi32>, %dy: tensor<f32>) -> (tensor<f32>, tensor<3xi32>)
    attributes {raf.grad_params = array<i64: 0>} {
  %l = relay.constant dense<1.0> : tensor<f32>
  return %l, %w : tensor<f32>, tensor<3xi32>
}

//--- bn-dynamic.mlir
func.func @main(%x: tensor<?x2xf32>, %g: tensor<2xf32>, %m: tensor<2xf32>, %dy: tensor<f32>)
    -> (tensor<f32>, tensor<2xf32>) attributes {raf.grad_params = array<i64: 1>} {
  // expected-error @+1 {{--raf-data-parallel: sync-batch-norm needs an input of static shape, got 'tensor<?x2xf32>'}}
  %y:3 = relay.nn.batch_norm %x, %g, %g, %m, %m {training = true} : (tensor<?x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>)
  %l = relay.sum %y#0 : (tensor<?x2xf32>)
  return %l, %g : tensor<f32>, tensor<2xf32>
}

//--- bn-empty.mlir
func.func @main(%x: tensor<0x2xf32>, %g: tensor<2xf32>, %dy: tensor<f32>)
    -> (tensor<f32>, tensor<2xf32>) attributes {raf.grad_params = array<i64: 1>} {
  // expected-error @+1 {{--raf-data-parallel: training batch norm needs more than one value per channel in the global batch to estimate the unbiased variance, got 0}}
  %y:3 = relay.nn.batch_norm %x, %g, %g, %g, %g {training = true} : (tensor<0x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>)
  %l = relay.sum %y#0 : (tensor<0x2xf32>)
  return %l, %g : tensor<f32>, tensor<2xf32>
}

//--- bn-callee.mlir
func.func private @norm(%x: tensor<4x2xf32>, %g: tensor<2xf32>) -> tensor<4x2xf32> {
  // expected-error @+1 {{--raf-data-parallel: a training-mode batch norm (or its gradient) in @norm, called from @main: sync-batch-norm=true synchronises only the step function's own batch norms; inline the call first (--inline) or set sync-batch-norm=false for per-rank statistics}}
  %y:3 = relay.nn.batch_norm %x, %g, %g, %g, %g {training = true} : (tensor<4x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>)
  return %y#0 : tensor<4x2xf32>
}

func.func @main(%x: tensor<4x2xf32>, %g: tensor<2xf32>, %dy: tensor<f32>)
    -> (tensor<f32>, tensor<2xf32>) attributes {raf.grad_params = array<i64: 1>} {
  %y = call @norm(%x, %g) : (tensor<4x2xf32>, tensor<2xf32>) -> tensor<4x2xf32>
  %l = relay.sum %y : (tensor<4x2xf32>)
  return %l, %g : tensor<f32>, tensor<2xf32>
}
