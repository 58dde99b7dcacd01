// Errors of --raf-zero-partition (ZeRO-1/2 on a training step).
// RUN: rm -rf %t && split-file %s %t
// RUN: raf-opt %t/not-elementwise.mlir -verify-diagnostics --raf-zero-partition
// RUN: raf-opt %t/other-shape.mlir -verify-diagnostics --raf-zero-partition
// RUN: raf-opt %t/state-elsewhere.mlir -verify-diagnostics --raf-zero-partition
// RUN: raf-opt %t/not-an-update.mlir -verify-diagnostics --raf-zero-partition
// RUN: raf-opt %t/untagged.mlir -verify-diagnostics --raf-zero-partition
// RUN: raf-opt %t/not-a-step.mlir -verify-diagnostics --raf-zero-partition
// RUN: not raf-opt %t/untagged.mlir --raf-zero-partition="entry=nope" 2>&1 | FileCheck %s --check-prefix=ENTRY
// ENTRY: error: --raf-zero-partition: no function '@nope'
// The pass fails (non-zero exit), it does not only warn.
// RUN: not raf-opt %t/untagged.mlir --raf-zero-partition -o /dev/null 2>/dev/null

//--- not-elementwise.mlir
func.func @train_step(%w: tensor<3xf32>, %x: tensor<3xf32>)
    -> (tensor<f32>, tensor<3xf32> {raf.updates_arg = 0 : i64})
    attributes {raf.num_params = 1 : i64, raf.num_states = 0 : i64, raf.num_aux = 0 : i64} {
  %l = relay.sum %x : (tensor<3xf32>)
  %a = relay.comm.allreduce %x {raf.zero = 1 : i64, reduction = "avg", world_size = 2 : i64} : (tensor<3xf32>)
  // expected-error @+1 {{--raf-zero-partition: cannot partition 'relay.nn.softmax' in the optimizer update: it is not element-wise}}
  %r = relay.nn.softmax %a : (tensor<3xf32>)
  %n = relay.subtract %w, %r : (tensor<3xf32>, tensor<3xf32>)
  return %l, %n : tensor<f32>, tensor<3xf32>
}

//--- other-shape.mlir
func.func @train_step(%w: tensor<3xf32>, %x: tensor<3xf32>, %c: tensor<1xf32>)
    -> (tensor<f32>, tensor<3xf32> {raf.updates_arg = 0 : i64})
    attributes {raf.num_params = 1 : i64, raf.num_states = 0 : i64, raf.num_aux = 0 : i64} {
  %l = relay.sum %x : (tensor<3xf32>)
  %a = relay.comm.allreduce %x {raf.zero = 2 : i64, reduction = "avg", world_size = 2 : i64} : (tensor<3xf32>)
  // expected-error @+1 {{--raf-zero-partition: cannot partition 'relay.multiply': operand #1 of type 'tensor<1xf32>' is neither rank 0 nor of the gradient's shape 'tensor<3xf32>'}}
  %s = relay.multiply %a, %c : (tensor<3xf32>, tensor<1xf32>)
  %n = relay.subtract %w, %s : (tensor<3xf32>, tensor<3xf32>)
  return %l, %n : tensor<f32>, tensor<3xf32>
}

//--- state-elsewhere.mlir
func.func @train_step(%w: tensor<3xf32>, %v: tensor<3xf32>, %x: tensor<3xf32>)
    -> (tensor<f32>, tensor<3xf32> {raf.updates_arg = 0 : i64}, tensor<3xf32> {raf.updates_arg = 1 : i64})
    attributes {raf.num_params = 1 : i64, raf.num_states = 1 : i64, raf.num_aux = 0 : i64} {
  // A state read outside the element-wise update makes that op part of it.
  // expected-error @+1 {{--raf-zero-partition: cannot partition 'relay.sum' in the optimizer update: it is not element-wise}}
  %l = relay.sum %v : (tensor<3xf32>)
  %a = relay.comm.allreduce %x {raf.zero = 1 : i64, reduction = "avg", world_size = 2 : i64} : (tensor<3xf32>)
  %m = relay.add %v, %a : (tensor<3xf32>, tensor<3xf32>)
  %n = relay.subtract %w, %m : (tensor<3xf32>, tensor<3xf32>)
  return %l, %n, %m : tensor<f32>, tensor<3xf32>, tensor<3xf32>
}

//--- not-an-update.mlir
func.func @train_step(%w: tensor<3xf32>, %x: tensor<3xf32>)
    -> (tensor<f32>, tensor<3xf32>)
    attributes {raf.num_params = 1 : i64, raf.num_states = 0 : i64, raf.num_aux = 0 : i64} {
  %l = relay.sum %x : (tensor<3xf32>)
  %a = relay.comm.allreduce %x {raf.zero = 1 : i64, reduction = "avg", world_size = 2 : i64} : (tensor<3xf32>)
  %n = relay.subtract %w, %a : (tensor<3xf32>, tensor<3xf32>)
  // expected-error @+1 {{--raf-zero-partition: result #1 depends on a partitioned gradient but is neither a new parameter nor a new optimizer state (run the pass on the step of --raf-append-optimizer)}}
  return %l, %n : tensor<f32>, tensor<3xf32>
}

//--- untagged.mlir
// expected-error @+1 {{--raf-zero-partition: '@train_step' has no gradient all-reduce to partition (run --raf-data-parallel with zero=1 or zero=2 before --raf-append-optimizer)}}
func.func @train_step(%w: tensor<3xf32>, %x: tensor<3xf32>)
    -> (tensor<f32>, tensor<3xf32> {raf.updates_arg = 0 : i64})
    attributes {raf.num_params = 1 : i64, raf.num_states = 0 : i64, raf.num_aux = 0 : i64} {
  %l = relay.sum %x : (tensor<3xf32>)
  %a = relay.comm.allreduce %x {reduction = "avg", world_size = 2 : i64} : (tensor<3xf32>)
  %n = relay.subtract %w, %a : (tensor<3xf32>, tensor<3xf32>)
  return %l, %n : tensor<f32>, tensor<3xf32>
}

//--- not-a-step.mlir
// expected-error @+1 {{--raf-zero-partition: '@train_step' is not a training step of --raf-append-optimizer (expected a single block and 'raf.num_params', 'raf.num_states')}}
func.func @train_step(%w: tensor<3xf32>) -> tensor<3xf32> {
  return %w : tensor<3xf32>
}
