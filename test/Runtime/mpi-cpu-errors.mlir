// Collectives on --target=cpu that cannot be lowered to MPI are located
// errors; a process started without mpirun is a world of one process.
// REQUIRES: mpirun
// RUN: not raf-opt %s --raf-lower-collectives-to-mpi 2>&1 | FileCheck %s --check-prefix=DYNAMIC
// RUN: not raf-run %s --entry=two --target=cpu --no-compile-cache 2>&1 | FileCheck %s --check-prefix=ONE
// RUN: not raf-run %s --entry=two --target=vta-sim 2>&1 | FileCheck %s --check-prefix=VTA

func.func @dynamic(%x: tensor<?xf32>) -> tensor<?xf32> {
  // DYNAMIC: mpi-cpu-errors.mlir:[[@LINE+1]]:8: error: lowering to MPI needs static shapes, got 'tensor<?xf32>'
  %0 = relay.comm.reduce_scatter %x {world_size = 1 : i64} : (tensor<?xf32>)
  return %0 : tensor<?xf32>
}

func.func @two(%x: tensor<4xf32>) -> tensor<4xf32> {
  // ONE: mpi-cpu-errors.mlir:[[@LINE+2]]:8: error: 'relay.comm.allreduce' has world_size 2 but mpirun started 1 process
  // VTA: mpi-cpu-errors.mlir:{{[0-9]+}}:8: error: 'relay.comm.{{[a-z_]+}}' does not run on --target=vta-sim; use --target=interp --ranks=N or --target=cpu under mpirun (docs/data-parallel.md)
  %0 = relay.comm.allreduce %x {world_size = 2 : i64} : (tensor<4xf32>)
  return %0 : tensor<4xf32>
}
