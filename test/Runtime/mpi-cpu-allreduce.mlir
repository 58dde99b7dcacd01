// relay.comm.allreduce on --target=cpu: lowered to a non-blocking
// MPI_Iallreduce and run as MPI processes started by mpirun, each rank
// reading its own input.
// REQUIRES: mpirun
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; [np.save('%t/x%%d.npy' %% r, np.array([1, 10, 100, 1000], np.float32) * (r + 1)) for r in range(4)]"
// RUN: mpirun --allow-run-as-root --oversubscribe -np 2 raf-run %s --entry=two --target=cpu --no-compile-cache --input=%t/x%%r.npy --output=%t/sum%%r.npy --output=%t/avg%%r.npy
// RUN: %python -c "import numpy as np; [np.testing.assert_array_equal(np.load('%t/sum%%d.npy' %% r), [3, 30, 300, 3000]) for r in range(2)]; [np.testing.assert_array_equal(np.load('%t/avg%%d.npy' %% r), [1.5, 15, 150, 1500]) for r in range(2)]"
// RUN: mpirun --allow-run-as-root --oversubscribe -np 4 raf-run %s --entry=four --target=cpu --no-compile-cache --input=%t/x%%r.npy --output=%t/four%%r.npy
// RUN: %python -c "import numpy as np; [np.testing.assert_array_equal(np.load('%t/four%%d.npy' %% r), [[10, 100], [1000, 10000]]) for r in range(4)]"
// The lowering: the start (a per-type helper that copies the operand into a
// fresh buffer and calls MPI_Iallreduce in place on it) where the
// all-reduce was, the wait (MPI_Wait) right before the result's first use:
// both all-reduces of @two start before either is waited on.
// RUN: raf-opt %s --raf-lower-collectives-to-mpi | FileCheck %s
// A world size that is not the number of processes is an error
// (mpi-cpu-errors.mlir has the others).
// RUN: not mpirun --allow-run-as-root --oversubscribe -np 3 raf-run %s --entry=two --target=cpu --no-compile-cache --input=%t/x%%r.npy 2>&1 | FileCheck %s --check-prefix=SIZE

// CHECK: module attributes {dlti.map = #dlti.map<"MPI:Implementation" = "OpenMPI">}
// CHECK-LABEL: func.func @two(
// CHECK: %[[IN:.*]] = bufferization.to_buffer %arg0 read_only : tensor<4xf32> to memref<4xf32>
// CHECK-NEXT: %[[OUT:.*]] = memref.alloc() : memref<4xf32>
// CHECK-NEXT: %[[REQ:.*]] = memref.alloc() : memref<1xi64>
// CHECK-NEXT: call @raf_mpi_iallreduce_sum_4xf32_to_1xi64(%[[IN]], %[[OUT]], %[[REQ]])
// CHECK-NOT: raf_mpi_wait
// CHECK: %[[IN2:.*]] = bufferization.to_buffer %arg0 read_only
// CHECK-NEXT: %[[OUT2:.*]] = memref.alloc() : memref<4xf32>
// CHECK-NEXT: %[[REQ2:.*]] = memref.alloc() : memref<1xi64>
// CHECK-NEXT: call @raf_mpi_iallreduce_sum_4xf32_to_1xi64(%[[IN2]], %[[OUT2]], %[[REQ2]])
// CHECK-NEXT: call @raf_mpi_wait_1xi64(%[[REQ]])
// CHECK-NEXT: %[[R:.*]] = bufferization.to_tensor %[[OUT]] restrict writable
// CHECK-NEXT: call @raf_mpi_wait_1xi64(%[[REQ2]])
// CHECK-NEXT: %[[R2:.*]] = bufferization.to_tensor %[[OUT2]] restrict writable
// CHECK: relay.constant dense<5.000000e-01> : tensor<f32>
// CHECK: func.func private @raf_mpi_iallreduce_sum_4xf32_to_1xi64(memref<4xf32>, memref<4xf32>, memref<1xi64>) attributes {raf.mpi_helper = "iallreduce_sum"}
// CHECK: func.func private @raf_mpi_wait_1xi64(memref<1xi64>) attributes {raf.mpi_helper = "wait"}
// The helpers' bodies after the CPU pipeline.
// RUN: raf-opt %s --raf-cpu-pipeline | FileCheck %s --check-prefix=LLVM
// LLVM-DAG: llvm.func @MPI_Iallreduce(!llvm.ptr, !llvm.ptr, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> i32
// LLVM-DAG: llvm.func @MPI_Wait(!llvm.ptr, !llvm.ptr) -> i32
func.func @two(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  // SIZE: mpi-cpu-allreduce.mlir:[[@LINE+1]]:8: error: 'relay.comm.allreduce' has world_size 2 but mpirun started 3 processes
  %0 = relay.comm.allreduce %x {world_size = 2 : i64} : (tensor<4xf32>)
  %1 = relay.comm.allreduce %x {reduction = "avg", world_size = 2 : i64} : (tensor<4xf32>)
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// x / 10 summed over 4 ranks is (1 + 2 + 3 + 4) x_0 / 10.
func.func @four(%x: tensor<4xf32>) -> tensor<2x2xf32> {
  %r = relay.reshape %x {newshape = array<i64: 2, 2>} : (tensor<4xf32>)
  %s = relay.comm.allreduce %r {world_size = 4 : i64} : (tensor<2x2xf32>)
  return %s : tensor<2x2xf32>
}
