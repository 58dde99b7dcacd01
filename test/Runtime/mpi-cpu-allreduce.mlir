// relay.comm.allreduce on --target=cpu: lowered to MLIR's mpi dialect and
// run as MPI processes started by mpirun, each rank reading its own input.
// REQUIRES: mpirun
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; [np.save('%t/x%%d.npy' %% r, np.array([1, 10, 100, 1000], np.float32) * (r + 1)) for r in range(4)]"
// RUN: mpirun --allow-run-as-root --oversubscribe -np 2 raf-run %s --entry=two --target=cpu --no-compile-cache --input=%t/x%%r.npy --output=%t/sum%%r.npy --output=%t/avg%%r.npy
// RUN: %python -c "import numpy as np; [np.testing.assert_array_equal(np.load('%t/sum%%d.npy' %% r), [3, 30, 300, 3000]) for r in range(2)]; [np.testing.assert_array_equal(np.load('%t/avg%%d.npy' %% r), [1.5, 15, 150, 1500]) for r in range(2)]"
// RUN: mpirun --allow-run-as-root --oversubscribe -np 4 raf-run %s --entry=four --target=cpu --no-compile-cache --input=%t/x%%r.npy --output=%t/four%%r.npy
// RUN: %python -c "import numpy as np; [np.testing.assert_array_equal(np.load('%t/four%%d.npy' %% r), [[10, 100], [1000, 10000]]) for r in range(4)]"
// The lowering: a call of a per-type helper that gets its mpi.allreduce body
// after buffer deallocation.
// RUN: raf-opt %s --raf-lower-collectives-to-mpi | FileCheck %s
// A world size that is not the number of processes is an error
// (mpi-cpu-errors.mlir has the others).
// RUN: not mpirun --allow-run-as-root --oversubscribe -np 3 raf-run %s --entry=two --target=cpu --no-compile-cache --input=%t/x%%r.npy 2>&1 | FileCheck %s --check-prefix=SIZE

// CHECK: module attributes {dlti.map = #dlti.map<"MPI:Implementation" = "OpenMPI">}
// CHECK-LABEL: func.func @two(
// CHECK: %[[IN:.*]] = bufferization.to_buffer %arg0 read_only : tensor<4xf32> to memref<4xf32>
// CHECK-NEXT: %[[OUT:.*]] = memref.alloc() : memref<4xf32>
// CHECK-NEXT: call @raf_mpi_allreduce_sum_4xf32(%[[IN]], %[[OUT]])
// CHECK-NEXT: bufferization.to_tensor %[[OUT]] restrict writable
// CHECK: relay.constant dense<5.000000e-01> : tensor<f32>
// CHECK: func.func private @raf_mpi_allreduce_sum_4xf32(memref<4xf32>, memref<4xf32>) attributes {raf.mpi_helper = "allreduce_sum"}
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
