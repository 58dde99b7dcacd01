// SyncBatchNorm in --raf-data-parallel (sync-batch-norm=true, the default):
// a training-mode batch norm normalises with the global batch's mean and
// variance, and the four means over the batch in its gradient (marked
// raf.batch_stat by --raf-autodiff) are global. The numerics against
// single-process training on the whole batch are checked by
// python/tests/test_data_parallel_models.py.
// RUN: raf-opt --raf-autodiff="inline-backward=true" %s | FileCheck %s --check-prefix=GRAD
// RUN: raf-opt --raf-autodiff="inline-backward=true" --raf-data-parallel="world-size=2" %s | FileCheck %s
// RUN: raf-opt --raf-autodiff="inline-backward=true" --raf-data-parallel="world-size=2 sync-batch-norm=false" %s | FileCheck %s --check-prefix=LOCAL
// A world of one rank keeps the batch norm.
// RUN: raf-opt --raf-autodiff="inline-backward=true" --raf-data-parallel="world-size=1" %s | FileCheck %s --check-prefix=LOCAL
// The data-parallel step runs on two simulated ranks; from different data
// both ranks return the same (global) running statistics.
// RUN: rm -rf %t && mkdir -p %t
// RUN: raf-opt --raf-autodiff="inline-backward=true" --raf-data-parallel="world-size=2" --raf-append-optimizer="lr=0.5" %s -o %t/dp.mlir
// RUN: %python -c "import numpy as np; g = np.random.default_rng(3); np.save('%t/w.npy', g.standard_normal(3).astype(np.float32)); np.save('%t/m.npy', np.zeros(3, np.float32)); np.save('%t/v.npy', np.ones(3, np.float32)); [np.save('%t/x%%d.npy' %% r, (g.standard_normal((2, 3)) + r).astype(np.float32)) for r in range(2)]"
// RUN: raf-run %t/dp.mlir --entry=train_step --target=interp --ranks=2 --input=%t/w.npy --input=%t/w.npy --input=%t/m.npy --input=%t/x%%r.npy --input=%t/m.npy --input=%t/v.npy | FileCheck %s --check-prefix=RANKS

// GRAD-COUNT-4: relay.mean {{.*}}raf.batch_stat
// GRAD-NOT: raf.batch_stat

// CHECK-LABEL: func.func @main(
// CHECK-NOT: relay.nn.batch_norm
// CHECK-NOT: raf.batch_stat
// The forward: the global mean, then the global mean squared deviation.
// CHECK: %[[XS:.*]] = relay.multiply %arg3, %arg0
// CHECK-NEXT: %[[M:.*]] = relay.mean %[[XS]] {axis = array<i64: 0>, keepdims = true}
// CHECK-NEXT: %[[GM:.*]] = relay.comm.allreduce %[[M]] {reduction = "avg", world_size = 2 : i64} : (tensor<1x3xf32>)
// CHECK-NEXT: %[[C:.*]] = relay.subtract %[[XS]], %[[GM]]
// CHECK-NEXT: %[[SQ:.*]] = relay.multiply %[[C]], %[[C]]
// CHECK-NEXT: %[[V:.*]] = relay.mean %[[SQ]] {axis = array<i64: 0>, keepdims = true}
// CHECK-NEXT: relay.comm.allreduce %[[V]] {reduction = "avg", world_size = 2 : i64} : (tensor<1x3xf32>)
// The moving variance takes the unbiased global variance: 0.1 * 4 / 3.
// CHECK: relay.constant dense<0.13333334> : tensor<f32>
// The gradient's four means over the batch are global too, and the
// parameters' gradients are averaged.
// CHECK-COUNT-4: relay.comm.allreduce %{{.*}} {reduction = "avg", world_size = 2 : i64} : (tensor<1x3xf32>)
// CHECK-COUNT-2: relay.comm.allreduce %{{.*}} {reduction = "avg", world_size = 2 : i64} : (tensor<3xf32>)
// CHECK-NOT: relay.comm.allreduce

// LOCAL-LABEL: func.func @main(
// LOCAL-NOT: raf.batch_stat
// LOCAL: relay.nn.batch_norm
// LOCAL-NOT: raf.batch_stat
// LOCAL-NOT: relay.comm.allreduce {{.*}} : (tensor<1x3xf32>)
// LOCAL-NOT: raf.batch_stat
func.func @main(%w: tensor<3xf32> {raf.requires_grad = true},
                %g: tensor<3xf32> {raf.requires_grad = true},
                %b: tensor<3xf32> {raf.requires_grad = false},
                %x: tensor<2x3xf32> {raf.requires_grad = false},
                %m: tensor<3xf32> {raf.requires_grad = false},
                %v: tensor<3xf32> {raf.requires_grad = false})
    -> (tensor<f32>, tensor<3xf32>, tensor<3xf32>) {
  %xs = relay.multiply %x, %w : (tensor<2x3xf32>, tensor<3xf32>)
  %y:3 = relay.nn.batch_norm %xs, %g, %b, %m, %v {training = true} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>)
  %s = relay.multiply %y#0, %y#0 : (tensor<2x3xf32>, tensor<2x3xf32>)
  %e = relay.multiply %s, %x : (tensor<2x3xf32>, tensor<2x3xf32>)
  %l = relay.mean %e : (tensor<2x3xf32>)
  return %l, %y#1, %y#2 : tensor<f32>, tensor<3xf32>, tensor<3xf32>
}
// RANKS: rank 0 result #1: tensor<3xf32>
// RANKS-NEXT: [[MEAN:\[.*\]]]
// RANKS-NEXT: rank 0 result #2: tensor<3xf32>
// RANKS-NEXT: [[VAR:\[.*\]]]
// RANKS-NEXT: rank 0 result #3: tensor<3xf32>
// RANKS-NEXT: [[W:\[.*\]]]
// RANKS-NEXT: rank 0 result #4: tensor<3xf32>
// RANKS-NEXT: [[G:\[.*\]]]
// RANKS: rank 1 result #1: tensor<3xf32>
// RANKS-NEXT: [[MEAN]]
// RANKS-NEXT: rank 1 result #2: tensor<3xf32>
// RANKS-NEXT: [[VAR]]
// RANKS-NEXT: rank 1 result #3: tensor<3xf32>
// RANKS-NEXT: [[W]]
// RANKS-NEXT: rank 1 result #4: tensor<3xf32>
// RANKS-NEXT: [[G]]
