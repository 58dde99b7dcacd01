// Gradient rules of the collectives, checked on two simulated ranks. The
// gradient is that of the sum of the ranks' losses. Rank 0 has
// x = [1, 2], w = [1, 2, 3, 4]; rank 1 has x = [3, 4], w = [10, 20, 30, 40].
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/x0.npy', np.float32([1, 2])); np.save('%t/x1.npy', np.float32([3, 4])); np.save('%t/w0.npy', np.float32([1, 2, 3, 4])); np.save('%t/w1.npy', np.float32([10, 20, 30, 40])); np.save('%t/one0.npy', np.float32(1)); np.save('%t/one1.npy', np.float32(1))"
// RUN: raf-opt --raf-autodiff="entry=allreduce inline-backward=true" %s -o %t/allreduce.mlir
// RUN: FileCheck %s --check-prefix=IR < %t/allreduce.mlir
// RUN: raf-run %t/allreduce.mlir --entry=allreduce --target=interp --ranks=2 --input=%t/x%%r.npy --input=%t/w%%r.npy --input=%t/one%%r.npy | FileCheck %s --check-prefix=ALLREDUCE
// RUN: raf-opt --raf-autodiff="entry=allgather inline-backward=true" %s -o %t/allgather.mlir
// RUN: raf-run %t/allgather.mlir --entry=allgather --target=interp --ranks=2 --input=%t/x%%r.npy --input=%t/w%%r.npy --input=%t/one%%r.npy | FileCheck %s --check-prefix=ALLGATHER
// RUN: raf-opt --raf-autodiff="entry=scatter inline-backward=true" %s -o %t/scatter.mlir
// RUN: raf-run %t/scatter.mlir --entry=scatter --target=interp --ranks=2 --input=%t/x%%r.npy --input=%t/w%%r.npy --input=%t/one%%r.npy | FileCheck %s --check-prefix=SCATTER

// L = sum_r x_r . y with y = x_0 + x_1 = [4, 6] is y . y: dL/dx_r = 2y.
// IR-LABEL: func.func @allreduce(
// IR: relay.comm.allreduce
// IR: relay.comm.allreduce
func.func @allreduce(%x: tensor<2xf32>, %w: tensor<4xf32>) -> tensor<f32> {
  %y = relay.comm.allreduce %x {world_size = 2 : i64} : (tensor<2xf32>)
  %p = relay.multiply %x, %y : (tensor<2xf32>, tensor<2xf32>)
  %s = relay.sum %p : (tensor<2xf32>) -> tensor<f32>
  return %s : tensor<f32>
}
// ALLREDUCE: rank 0 result #0: tensor<f32>
// ALLREDUCE-NEXT: 16
// ALLREDUCE-NEXT: rank 0 result #1: tensor<2xf32>
// ALLREDUCE-NEXT: [8, 12]
// ALLREDUCE: rank 1 result #0: tensor<f32>
// ALLREDUCE-NEXT: 36
// ALLREDUCE-NEXT: rank 1 result #1: tensor<2xf32>
// ALLREDUCE-NEXT: [8, 12]

// loss_r = w_r . allgather(x): dx_r = sum_s w_s[2r : 2r + 2], dw_r = [x_0, x_1].
func.func @allgather(%x: tensor<2xf32>, %w: tensor<4xf32>) -> tensor<f32> {
  %g = relay.comm.allgather %x {world_size = 2 : i64} : (tensor<2xf32>)
  %p = relay.multiply %w, %g : (tensor<4xf32>, tensor<4xf32>)
  %s = relay.sum %p : (tensor<4xf32>) -> tensor<f32>
  return %s : tensor<f32>
}
// ALLGATHER: rank 0 result #1: tensor<2xf32>
// ALLGATHER-NEXT: [11, 22]
// ALLGATHER-NEXT: rank 0 result #2: tensor<4xf32>
// ALLGATHER-NEXT: [1, 2, 3, 4]
// ALLGATHER: rank 1 result #1: tensor<2xf32>
// ALLGATHER-NEXT: [33, 44]

// loss_r = x_r . reduce_scatter_avg(w)_r: dx_r = the average's block r,
// dw_s = allgather(x) / 2.
func.func @scatter(%x: tensor<2xf32>, %w: tensor<4xf32>) -> tensor<f32> {
  %r = relay.comm.reduce_scatter %w {reduction = "avg", world_size = 2 : i64} : (tensor<4xf32>)
  %p = relay.multiply %x, %r : (tensor<2xf32>, tensor<2xf32>)
  %s = relay.sum %p : (tensor<2xf32>) -> tensor<f32>
  return %s : tensor<f32>
}
// SCATTER: rank 0 result #1: tensor<2xf32>
// SCATTER-NEXT: [5.5, 11]
// SCATTER-NEXT: rank 0 result #2: tensor<4xf32>
// SCATTER-NEXT: [0.5, 1, 1.5, 2]
// SCATTER: rank 1 result #1: tensor<2xf32>
// SCATTER-NEXT: [16.5, 22]
// SCATTER-NEXT: rank 1 result #2: tensor<4xf32>
// SCATTER-NEXT: [0.5, 1, 1.5, 2]
