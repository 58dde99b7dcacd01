// Every verifier error of the collective operators.
// RUN: raf-opt %s -split-input-file -verify-diagnostics

func.func @world_size_zero(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{world_size must be >= 1, got 0}}
  %0 = relay.comm.allreduce %x {world_size = 0 : i64} : (tensor<4xf32>)
  return %0 : tensor<4xf32>
}

// -----

func.func @missing_world_size(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{requires attribute 'world_size'}}
  %0 = relay.comm.allreduce %x : (tensor<4xf32>)
  return %0 : tensor<4xf32>
}

// -----

func.func @bad_reduction(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{reduction must be "sum" or "avg", got "max"}}
  %0 = relay.comm.allreduce %x {reduction = "max", world_size = 2 : i64} : (tensor<4xf32>)
  return %0 : tensor<4xf32>
}

// -----

func.func @avg_of_integers(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{relay.comm.allreduce: expects x to be a floating-point tensor, got 'tensor<4xi32>'}}
  %0 = relay.comm.allreduce %x {reduction = "avg", world_size = 2 : i64} : (tensor<4xi32>)
  return %0 : tensor<4xi32>
}

// -----

func.func @sum_of_booleans(%x: tensor<4xi1>) -> tensor<4xi1> {
  // expected-error @+1 {{expects x to be an integer or floating-point tensor, got 'tensor<4xi1>'}}
  %0 = relay.comm.allreduce %x {world_size = 2 : i64} : (tensor<4xi1>)
  return %0 : tensor<4xi1>
}

// -----

func.func @scatter_indivisible(%x: tensor<5x2xf32>) -> tensor<2x2xf32> {
  // expected-error @+1 {{dimension 0 (5) must be divisible by world_size (2); pad it first}}
  %0 = relay.comm.reduce_scatter %x {world_size = 2 : i64} : (tensor<5x2xf32>)
  return %0 : tensor<2x2xf32>
}

// -----

func.func @scatter_scalar(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{operand must have rank >= 1 (dimension 0 is partitioned over the ranks), got 'tensor<f32>'}}
  %0 = relay.comm.reduce_scatter %x {world_size = 1 : i64} : (tensor<f32>)
  return %0 : tensor<f32>
}

// -----

func.func @gather_scalar(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{operand must have rank >= 1}}
  %0 = relay.comm.allgather %x {world_size = 2 : i64} : (tensor<f32>)
  return %0 : tensor<f32>
}

// -----

func.func @gather_overflow(%x: tensor<4611686018427387903xi8>) -> tensor<4xi8> {
  // expected-error @+1 {{dimension 0 (4611686018427387903) times world_size (4) overflows}}
  %0 = relay.comm.allgather %x {world_size = 4 : i64} : (tensor<4611686018427387903xi8>)
  return %0 : tensor<4xi8>
}

// -----

func.func @gather_world_size(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{world_size must be >= 1, got -2}}
  %0 = relay.comm.allgather %x {world_size = -2 : i64} : (tensor<4xf32>)
  return %0 : tensor<4xf32>
}

// -----

func.func @broadcast_root(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{root (2) must be in [0, world_size) = [0, 2)}}
  %0 = relay.comm.broadcast %x {root = 2 : i64, world_size = 2 : i64} : (tensor<4xf32>)
  return %0 : tensor<4xf32>
}

// -----

func.func @broadcast_world_size(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{world_size must be >= 1, got 0}}
  %0 = relay.comm.broadcast %x {world_size = 0 : i64} : (tensor<4xf32>)
  return %0 : tensor<4xf32>
}

// -----

func.func @wrong_result_type(%x: tensor<4x2xf32>) -> tensor<4x2xf32> {
  // expected-error @+2 {{inferred type(s) 'tensor<2x2xf32>' are incompatible with return type(s) of operation 'tensor<4x2xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = relay.comm.reduce_scatter %x {world_size = 2 : i64} : (tensor<4x2xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

func.func @unknown_attribute(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{has unknown attribute 'axis'; expected one of: reduction, world_size}}
  %0 = relay.comm.allreduce %x {world_size = 2 : i64, axis = 1 : i64} : (tensor<4xf32>)
  return %0 : tensor<4xf32>
}
