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
// reduce_scatter, allgather and broadcast call MPI_Reduce_scatter_block,
// MPI_Allgather and MPI_Bcast directly (allgather and broadcast move bytes).
// RUN: raf-opt %s --raf-cpu-pipeline | FileCheck %s --check-prefix=LLVM
// LLVM-DAG: llvm.call @MPI_Reduce_scatter_block({{.*}}) : (!llvm.ptr, !llvm.ptr, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> i32
// LLVM-DAG: llvm.call @MPI_Allgather({{.*}}) : (!llvm.ptr, i32, !llvm.ptr, !llvm.ptr, i32, !llvm.ptr, !llvm.ptr) -> i32
// LLVM-DAG: llvm.call @MPI_Bcast({{.*}}) : (!llvm.ptr, i32, !llvm.ptr, i32, !llvm.ptr) -> i32
// LLVM-DAG: llvm.mlir.global external @ompi_mpi_byte()
// LLVM-DAG: llvm.mlir.global external @ompi_mpi_float()

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
