// --raf-data-parallel zero=0: each gradient is averaged over the ranks right
// after the op that produces it; loss and auxiliary results stay per rank.
// RUN: raf-opt --raf-autodiff="inline-backward=true" --raf-data-parallel="world-size=2" %s | FileCheck %s
// The data-parallel step runs on two simulated ranks: from the same
// parameters on different data they compute different losses but take the
// same step. python/tests/test_data_parallel.py checks the numerics.
// RUN: rm -rf %t && mkdir -p %t
// RUN: raf-opt --raf-autodiff="inline-backward=true" --raf-data-parallel="world-size=2" --raf-append-optimizer="lr=0.5" %s -o %t/dp.mlir
// RUN: %python -c "import numpy as np; g = np.random.default_rng(3); np.save('%t/w.npy', g.standard_normal((3, 4)).astype(np.float32)); np.save('%t/b.npy', g.standard_normal(3).astype(np.float32)); [np.save('%t/x%%d.npy' %% r, g.standard_normal((2, 4)).astype(np.float32)) for r in range(2)]"
// RUN: raf-run %t/dp.mlir --entry=train_step --target=interp --ranks=2 --input=%t/w.npy --input=%t/b.npy --input=%t/x%%r.npy | FileCheck %s --check-prefix=RANKS

// CHECK-LABEL: func.func @main(
// CHECK-SAME: raf.world_size = 2 : i64
// CHECK: %[[GB:.*]] = relay.sum
// CHECK-NEXT: %[[AB:.*]] = relay.comm.allreduce %[[GB]] {reduction = "avg", world_size = 2 : i64} : (tensor<3xf32>)
// CHECK-NEXT: %[[GW:.*]] = relay.nn.matmul
// CHECK-NEXT: %[[AW:.*]] = relay.comm.allreduce %[[GW]] {reduction = "avg", world_size = 2 : i64} : (tensor<3x4xf32>)
// CHECK-NEXT: return %{{.*}}, %[[AW]], %[[AB]] : tensor<f32>, tensor<3x4xf32>, tensor<3xf32>
func.func @main(%x: tensor<2x4xf32> {raf.requires_grad = false},
                %w: tensor<3x4xf32> {raf.requires_grad = true},
                %b: tensor<3xf32> {raf.requires_grad = true}) -> tensor<f32> {
  %p = relay.nn.dense %x, %w : (tensor<2x4xf32>, tensor<3x4xf32>)
  %q = relay.nn.bias_add %p, %b {axis = 1 : i64} : (tensor<2x3xf32>, tensor<3xf32>)
  %s = relay.multiply %q, %q : (tensor<2x3xf32>, tensor<2x3xf32>)
  %l = relay.mean %s : (tensor<2x3xf32>)
  return %l : tensor<f32>
}
// RANKS: rank 0 result #0: tensor<f32>
// RANKS-NEXT: [[LOSS0:[0-9.e+-]+]]
// RANKS: rank 0 result #2: tensor<3xf32>
// RANKS-NEXT: [[B:\[.*\]]]
// RANKS: rank 1 result #0: tensor<f32>
// RANKS-NOT: [[LOSS0]]
// RANKS: rank 1 result #2: tensor<3xf32>
// RANKS-NEXT: [[B]]
