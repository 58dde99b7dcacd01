// Every collective on --target=cpu as MPI processes equals the evaluator's
// simulated ranks (raf-run --target=interp --ranks=N), element for element.
// REQUIRES: mpirun
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; [np.save('%t/x%%d.npy' %% r, (np.arange(24, dtype=np.float32).reshape(4, 6) - 7) * (r + 1) / 8) for r in range(4)]"
// RUN: mpirun --allow-run-as-root --oversubscribe -np 2 raf-run %s --entry=two --target=cpu --no-compile-cache --input=%t/x%%r.npy --output=%t/cpu%%r_0.npy --output=%t/cpu%%r_1.npy --output=%t/cpu%%r_2.npy --output=%t/cpu%%r_3.npy --output=%t/cpu%%r_4.npy --output=%t/cpu%%r_5.npy
// RUN: raf-run %s --entry=two --target=interp --ranks=2 --input=%t/x%%r.npy --output=%t/int%%r_0.npy --output=%t/int%%r_1.npy --output=%t/int%%r_2.npy --output=%t/int%%r_3.npy --output=%t/int%%r_4.npy --output=%t/int%%r_5.npy
// RUN: %python -c "import numpy as np; [np.testing.assert_array_equal(np.load('%t/cpu%%d_%%d.npy' %% (r, i)), np.load('%t/int%%d_%%d.npy' %% (r, i))) for r in range(2) for i in range(6)]"
// comm.shard is rank r's block r of its own operand (no communication).
// RUN: %python -c "import numpy as np; [np.testing.assert_array_equal(np.load('%t/int%%d_5.npy' %% r), np.load('%t/x%%d.npy' %% r)[2 * r:2 * r + 2]) for r in range(2)]"
// RUN: mpirun --allow-run-as-root --oversubscribe -np 4 raf-run %s --entry=four --target=cpu --no-compile-cache --input=%t/x%%r.npy --output=%t/c4_%%r_0.npy --output=%t/c4_%%r_1.npy --output=%t/c4_%%r_2.npy --output=%t/c4_%%r_3.npy
// RUN: raf-run %s --entry=four --target=interp --ranks=4 --input=%t/x%%r.npy --output=%t/i4_%%r_0.npy --output=%t/i4_%%r_1.npy --output=%t/i4_%%r_2.npy --output=%t/i4_%%r_3.npy
// RUN: %python -c "import numpy as np; [np.testing.assert_allclose(np.load('%t/c4_%%d_%%d.npy' %% (r, i)), np.load('%t/i4_%%d_%%d.npy' %% (r, i)), rtol=1e-6) for r in range(4) for i in range(4)]"
// reduce_scatter and allgather are non-blocking, MPI_Ireduce_scatter_block
// and MPI_Iallgather (allgather moving bytes) waited on with MPI_Wait;
// broadcast calls MPI_Bcast.
// RUN: raf-opt %s --raf-cpu-pipeline | FileCheck %s --check-prefix=LLVM
// LLVM-DAG: llvm.call @MPI_Ireduce_scatter_block({{.*}}) : (!llvm.ptr, !llvm.ptr, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> i32
// LLVM-DAG: llvm.call @MPI_Iallgather({{.*}}) : (!llvm.ptr, i32, !llvm.ptr, !llvm.ptr, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> i32
// LLVM-DAG: llvm.call @MPI_Wait({{.*}}) : (!llvm.ptr, !llvm.ptr) -> i32
// LLVM-DAG: llvm.call @MPI_Bcast({{.*}}) : (!llvm.ptr, i32, !llvm.ptr, i32, !llvm.ptr) -> i32
// LLVM-DAG: llvm.mlir.global external @ompi_mpi_byte()
// LLVM-DAG: llvm.mlir.global external @ompi_mpi_float()

// The start where the collective is, the wait (keeping the send buffer
// alive: it is passed again) right before the first use of the result; in
// @four the allgather reads the reduce-scatter's result, so that wait comes
// first.
// RUN: raf-opt %s --raf-lower-collectives-to-mpi | FileCheck %s
// CHECK-LABEL: func.func @four(
// CHECK: %[[IN:.*]] = bufferization.to_buffer %{{.*}} read_only : tensor<24xf32> to memref<24xf32>
// CHECK-NEXT: %[[OUT:.*]] = memref.alloc() : memref<6xf32>
// CHECK-NEXT: %[[REQ:.*]] = memref.alloc() : memref<1xi64>
// CHECK-NEXT: call @raf_mpi_ireduce_scatter_sum_24xf32_to_6xf32_to_1xi64(%[[IN]], %[[OUT]], %[[REQ]])
// CHECK-NEXT: %[[KEEP:.*]] = bufferization.to_buffer %{{.*}} read_only : tensor<24xf32> to memref<24xf32>
// CHECK-NEXT: call @raf_mpi_wait_1xi64_to_24xf32(%[[REQ]], %[[KEEP]])
// CHECK-NEXT: bufferization.to_tensor %[[OUT]] restrict writable
// CHECK: %[[AIN:.*]] = bufferization.to_buffer %{{.*}} read_only : tensor<6xf32> to memref<6xf32>
// CHECK-NEXT: %[[AOUT:.*]] = memref.alloc() : memref<24xf32>
// CHECK-NEXT: %[[AREQ:.*]] = memref.alloc() : memref<1xi64>
// CHECK-NEXT: call @raf_mpi_iallgather_6xf32_to_24xf32_to_1xi64(%[[AIN]], %[[AOUT]], %[[AREQ]])
// CHECK: call @raf_mpi_wait_1xi64_to_6xf32(%[[AREQ]], %{{.*}})
// CHECK-NEXT: bufferization.to_tensor %[[AOUT]] restrict writable
// CHECK-DAG: func.func private @raf_mpi_ireduce_scatter_sum_24xf32_to_6xf32_to_1xi64(memref<24xf32>, memref<6xf32>, memref<1xi64>) attributes {raf.mpi_helper = "ireduce_scatter_sum"}
// CHECK-DAG: func.func private @raf_mpi_wait_1xi64_to_24xf32(memref<1xi64>, memref<24xf32>) attributes {raf.mpi_helper = "wait"}
// CHECK-DAG: func.func private @raf_mpi_iallgather_6xf32_to_24xf32_to_1xi64(memref<6xf32>, memref<24xf32>, memref<1xi64>) attributes {raf.mpi_helper = "iallgather"}

func.func @two(%x: tensor<4x6xf32>)
    -> (tensor<4x6xf32>, tensor<4x6xf32>, tensor<2x6xf32>, tensor<8x6xf32>, tensor<4x6xf32>, tensor<2x6xf32>) {
  %sum = relay.comm.allreduce %x {world_size = 2 : i64} : (tensor<4x6xf32>)
  %avg = relay.comm.allreduce %x {reduction = "avg", world_size = 2 : i64} : (tensor<4x6xf32>)
  %rs = relay.comm.reduce_scatter %x {reduction = "avg", world_size = 2 : i64} : (tensor<4x6xf32>)
  %ag = relay.comm.allgather %x {world_size = 2 : i64} : (tensor<4x6xf32>)
  %bc = relay.comm.broadcast %x {root = 1 : i64, world_size = 2 : i64} : (tensor<4x6xf32>)
  %sh = relay.comm.shard %x {world_size = 2 : i64} : (tensor<4x6xf32>)
  return %sum, %avg, %rs, %ag, %bc, %sh : tensor<4x6xf32>, tensor<4x6xf32>, tensor<2x6xf32>, tensor<8x6xf32>, tensor<4x6xf32>, tensor<2x6xf32>
}

func.func @four(%x: tensor<4x6xf32>) -> (tensor<1x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<1x6xf32>) {
  %rs = relay.comm.reduce_scatter %x {world_size = 4 : i64} : (tensor<4x6xf32>)
  %ag = relay.comm.allgather %rs {world_size = 4 : i64} : (tensor<1x6xf32>)
  %bc = relay.comm.broadcast %x {root = 2 : i64, world_size = 4 : i64} : (tensor<4x6xf32>)
  %sh = relay.comm.shard %x {world_size = 4 : i64} : (tensor<4x6xf32>)
  return %rs, %ag, %bc, %sh : tensor<1x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<1x6xf32>
}
