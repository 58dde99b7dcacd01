// Every collective on --target=cpu as MPI processes equals the evaluator's
// simulated ranks (raf-run --target=interp --ranks=N), element for element.
// REQUIRES: mpirun
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; [np.save('%t/x%%d.npy' %% r, (np.arange(24, dtype=np.float32).reshape(4, 6) - 7) * (r + 1) / 8) for r in range(4)]"
// RUN: mpirun --allow-run-as-root --oversubscribe -np 2 raf-run %s --entry=two --target=cpu --no-compile-cache --input=%t/x%%r.npy --output=%t/cpu%%r_0.npy --output=%t/cpu%%r_1.npy --output=%t/cpu%%r_2.npy --output=%t/cpu%%r_3.npy --output=%t/cpu%%r_4.npy
// RUN: raf-run %s --entry=two --target=interp --ranks=2 --input=%t/x%%r.npy --output=%t/int%%r_0.npy --output=%t/int%%r_1.npy --output=%t/int%%r_2.npy --output=%t/int%%r_3.npy --output=%t/int%%r_4.npy
// RUN: %python -c "import numpy as np; [np.testing.assert_array_equal(np.load('%t/cpu%%d_%%d.npy' %% (r, i)), np.load('%t/int%%d_%%d.npy' %% (r, i))) for r in range(2) for i in range(5)]"
// RUN: mpirun --allow-run-as-root --oversubscribe -np 4 raf-run %s --entry=four --target=cpu --no-compile-cache --input=%t/x%%r.npy --output=%t/c4_%%r_0.npy --output=%t/c4_%%r_1.npy --output=%t/c4_%%r_2.npy
// RUN: raf-run %s --entry=four --target=interp --ranks=4 --input=%t/x%%r.npy --output=%t/i4_%%r_0.npy --output=%t/i4_%%r_1.npy --output=%t/i4_%%r_2.npy
// RUN: %python -c "import numpy as np; [np.testing.assert_allclose(np.load('%t/c4_%%d_%%d.npy' %% (r, i)), np.load('%t/i4_%%d_%%d.npy' %% (r, i)), rtol=1e-6) for r in range(4) for i in range(3)]"

func.func @two(%x: tensor<4x6xf32>)
    -> (tensor<4x6xf32>, tensor<4x6xf32>, tensor<2x6xf32>, tensor<8x6xf32>, tensor<4x6xf32>) {
  %sum = relay.comm.allreduce %x {world_size = 2 : i64} : (tensor<4x6xf32>)
  %avg = relay.comm.allreduce %x {reduction = "avg", world_size = 2 : i64} : (tensor<4x6xf32>)
  %rs = relay.comm.reduce_scatter %x {reduction = "avg", world_size = 2 : i64} : (tensor<4x6xf32>)
  %ag = relay.comm.allgather %x {world_size = 2 : i64} : (tensor<4x6xf32>)
  %bc = relay.comm.broadcast %x {root = 1 : i64, world_size = 2 : i64} : (tensor<4x6xf32>)
  return %sum, %avg, %rs, %ag, %bc : tensor<4x6xf32>, tensor<4x6xf32>, tensor<2x6xf32>, tensor<8x6xf32>, tensor<4x6xf32>
}

func.func @four(%x: tensor<4x6xf32>) -> (tensor<1x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>) {
  %rs = relay.comm.reduce_scatter %x {world_size = 4 : i64} : (tensor<4x6xf32>)
  %ag = relay.comm.allgather %rs {world_size = 4 : i64} : (tensor<1x6xf32>)
  %bc = relay.comm.broadcast %x {root = 2 : i64, world_size = 4 : i64} : (tensor<4x6xf32>)
  return %rs, %ag, %bc : tensor<1x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>
}
