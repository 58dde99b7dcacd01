// Collective operators: inferred result types, defaults and a round trip
// through the generic form.
// RUN: raf-opt %s | FileCheck %s
// RUN: raf-opt %s --mlir-print-op-generic | raf-opt | FileCheck %s

// CHECK-LABEL: func.func @collectives
func.func @collectives(%x: tensor<4x3xf32>, %i: tensor<6xi32>)
    -> (tensor<4x3xf32>, tensor<4x3xf32>, tensor<2x3xf32>, tensor<8x3xf32>,
        tensor<4x3xf32>, tensor<6xi32>, tensor<3xi32>) {
  // CHECK: relay.comm.allreduce %{{.*}} {world_size = 2 : i64} : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %0 = relay.comm.allreduce %x {world_size = 2 : i64} : (tensor<4x3xf32>)
  // CHECK: relay.comm.allreduce %{{.*}} {reduction = "avg", world_size = 2 : i64} : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %1 = relay.comm.allreduce %x {reduction = "avg", world_size = 2 : i64} : (tensor<4x3xf32>)
  // CHECK: relay.comm.reduce_scatter %{{.*}} {world_size = 2 : i64} : (tensor<4x3xf32>) -> tensor<2x3xf32>
  %2 = relay.comm.reduce_scatter %x {world_size = 2 : i64} : (tensor<4x3xf32>)
  // CHECK: relay.comm.allgather %{{.*}} {world_size = 2 : i64} : (tensor<4x3xf32>) -> tensor<8x3xf32>
  %3 = relay.comm.allgather %x {world_size = 2 : i64} : (tensor<4x3xf32>)
  // CHECK: relay.comm.broadcast %{{.*}} {root = 1 : i64, world_size = 2 : i64} : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %4 = relay.comm.broadcast %x {root = 1 : i64, world_size = 2 : i64} : (tensor<4x3xf32>)
  // Integer sums are allowed.
  // CHECK: relay.comm.allreduce %{{.*}} {world_size = 4 : i64} : (tensor<6xi32>) -> tensor<6xi32>
  %5 = relay.comm.allreduce %i {world_size = 4 : i64} : (tensor<6xi32>)
  // CHECK: relay.comm.reduce_scatter %{{.*}} {world_size = 2 : i64} : (tensor<6xi32>) -> tensor<3xi32>
  %6 = relay.comm.reduce_scatter %i {world_size = 2 : i64} : (tensor<6xi32>)
  return %0, %1, %2, %3, %4, %5, %6 : tensor<4x3xf32>, tensor<4x3xf32>, tensor<2x3xf32>, tensor<8x3xf32>, tensor<4x3xf32>, tensor<6xi32>, tensor<3xi32>
}

// Dynamic dimension 0 stays dynamic.
// CHECK-LABEL: func.func @dynamic
func.func @dynamic(%x: tensor<?x3xf32>) -> (tensor<?x3xf32>, tensor<?x3xf32>) {
  // CHECK: (tensor<?x3xf32>) -> tensor<?x3xf32>
  %0 = relay.comm.reduce_scatter %x {world_size = 2 : i64} : (tensor<?x3xf32>)
  // CHECK: (tensor<?x3xf32>) -> tensor<?x3xf32>
  %1 = relay.comm.allgather %x {world_size = 2 : i64} : (tensor<?x3xf32>)
  return %0, %1 : tensor<?x3xf32>, tensor<?x3xf32>
}
