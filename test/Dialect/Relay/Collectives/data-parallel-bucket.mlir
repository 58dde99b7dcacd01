// --raf-data-parallel bucket-bytes: consecutive gradient all-reduces are
// fused into one all-reduce of their flattened concatenation (RAF's grouped
// collectives), placed where the last one was, and split back.
// RUN: raf-opt --raf-autodiff="inline-backward=true" --raf-data-parallel="world-size=2 bucket-bytes=1024" %s | FileCheck %s
// A bucket smaller than both gradients (12 and 48 bytes) fuses nothing.
// RUN: raf-opt --raf-autodiff="inline-backward=true" --raf-data-parallel="world-size=2 bucket-bytes=8" %s | FileCheck %s --check-prefix=SMALL
// The bucketed step takes the same step as the unbucketed one (bitwise on
// the evaluator: the sums are the same element by element).
// RUN: rm -rf %t && mkdir -p %t
// RUN: raf-opt --raf-autodiff="inline-backward=true" --raf-data-parallel="world-size=2" --raf-append-optimizer="lr=0.5" %s -o %t/plain.mlir
// RUN: raf-opt --raf-autodiff="inline-backward=true" --raf-data-parallel="world-size=2 bucket-bytes=1024" --raf-append-optimizer="lr=0.5" %s -o %t/bucket.mlir
// RUN: %python -c "import numpy as np; g = np.random.default_rng(3); np.save('%t/w.npy', g.standard_normal((3, 4)).astype(np.float32)); np.save('%t/b.npy', g.standard_normal(3).astype(np.float32)); [np.save('%t/x%%d.npy' %% r, g.standard_normal((2, 4)).astype(np.float32)) for r in range(2)]"
// RUN: raf-run %t/plain.mlir --entry=train_step --target=interp --ranks=2 --input=%t/w.npy --input=%t/b.npy --input=%t/x%%r.npy --output=%t/p%%r_0.npy --output=%t/p%%r_1.npy --output=%t/p%%r_2.npy
// RUN: raf-run %t/bucket.mlir --entry=train_step --target=interp --ranks=2 --input=%t/w.npy --input=%t/b.npy --input=%t/x%%r.npy --output=%t/q%%r_0.npy --output=%t/q%%r_1.npy --output=%t/q%%r_2.npy
// RUN: %python -c "import numpy as np; [np.testing.assert_array_equal(np.load('%t/p%%d_%%d.npy' %% (r, i)), np.load('%t/q%%d_%%d.npy' %% (r, i))) for r in range(2) for i in range(3)]"

// CHECK-LABEL: func.func @main(
// CHECK: %[[GB:.*]] = relay.sum
// CHECK: %[[GW:.*]] = relay.nn.matmul
// CHECK-NEXT: %[[FB:.*]] = relay.reshape %[[GW]] {newshape = array<i64: 12>}
// CHECK-NEXT: %[[CAT:.*]] = relay.concatenate %[[GB]], %[[FB]] : (tensor<3xf32>, tensor<12xf32>) -> tensor<15xf32>
// CHECK-NEXT: %[[SUM:.*]] = relay.comm.allreduce %[[CAT]] {reduction = "avg", world_size = 2 : i64} : (tensor<15xf32>)
// CHECK-NEXT: %[[PARTS:.*]]:2 = relay.split %[[SUM]] {indices = array<i64: 3>} : (tensor<15xf32>) -> (tensor<3xf32>, tensor<12xf32>)
// CHECK-NEXT: %[[AW:.*]] = relay.reshape %[[PARTS]]#1 {newshape = array<i64: 3, 4>}
// CHECK-NEXT: return %{{.*}}, %[[AW]], %[[PARTS]]#0 :
// SMALL-COUNT-2: relay.comm.allreduce
// SMALL-NOT: relay.concatenate
func.func @main(%x: tensor<2x4xf32> {raf.requires_grad = false},
                %w: tensor<3x4xf32> {raf.requires_grad = true},
                %b: tensor<3xf32> {raf.requires_grad = true}) -> tensor<f32> {
  %p = relay.nn.dense %x, %w : (tensor<2x4xf32>, tensor<3x4xf32>)
  %q = relay.nn.bias_add %p, %b {axis = 1 : i64} : (tensor<2x3xf32>, tensor<3xf32>)
  %s = relay.multiply %q, %q : (tensor<2x3xf32>, tensor<2x3xf32>)
  %l = relay.mean %s : (tensor<2x3xf32>)
  return %l : tensor<f32>
}
