// Buckets under ZeRO (--raf-data-parallel zero=1|2 bucket-bytes=B, then
// --raf-zero-partition): --raf-data-parallel tags the bucket's all-reduces
// raf.bucket; --raf-zero-partition partitions each gradient's update as
// without buckets and fuses the bucket's collectives. ZeRO-2: the padded
// gradients (b: 3 -> 4, w: 3x4 -> 4x4) viewed as [2, block] rows,
// concatenated along the blocks and reduce-scattered once; each rank gets
// its blocks of both, split back where the update first uses them. The
// updated parameter blocks of the bucket are gathered by one allgather.
// RUN: raf-opt --raf-autodiff="inline-backward=true" --raf-data-parallel="world-size=2 zero=2 bucket-bytes=1024" --raf-append-optimizer="kind=momentum lr=0.5" --raf-zero-partition %s | FileCheck %s
// ZeRO-1: one all-reduce of the flattened gradients, then the blocks.
// RUN: raf-opt --raf-autodiff="inline-backward=true" --raf-data-parallel="world-size=2 zero=1 bucket-bytes=1024" --raf-append-optimizer="kind=momentum lr=0.5" --raf-zero-partition %s | FileCheck %s --check-prefix=ZERO1
// The tags --raf-zero-partition reads.
// RUN: raf-opt --raf-autodiff="inline-backward=true" --raf-data-parallel="world-size=2 zero=2 bucket-bytes=1024" %s | FileCheck %s --check-prefix=TAG
// A bucket smaller than both gradients fuses nothing.
// RUN: raf-opt --raf-autodiff="inline-backward=true" --raf-data-parallel="world-size=2 zero=2 bucket-bytes=8" --raf-append-optimizer="kind=momentum lr=0.5" --raf-zero-partition %s | FileCheck %s --check-prefix=SMALL
// On two simulated ranks the bucketed steps equal zero=0 bitwise (each
// element is the same sum), the state blocks joined and unpadded included.
// RUN: rm -rf %t && mkdir -p %t
// RUN: raf-opt --raf-autodiff="inline-backward=true" --raf-data-parallel="world-size=2" --raf-append-optimizer="kind=momentum lr=0.5" %s -o %t/z0.mlir
// RUN: raf-opt --raf-autodiff="inline-backward=true" --raf-data-parallel="world-size=2 zero=1 bucket-bytes=1024" --raf-append-optimizer="kind=momentum lr=0.5" --raf-zero-partition %s -o %t/z1.mlir
// RUN: raf-opt --raf-autodiff="inline-backward=true" --raf-data-parallel="world-size=2 zero=2 bucket-bytes=1024" --raf-append-optimizer="kind=momentum lr=0.5" --raf-zero-partition %s -o %t/z2.mlir
// RUN: %python -c "import numpy as np; g = np.random.default_rng(3); np.save('%t/w.npy', g.standard_normal((3, 4)).astype(np.float32)); np.save('%t/b.npy', g.standard_normal(3).astype(np.float32)); np.save('%t/vw.npy', g.standard_normal((3, 4)).astype(np.float32)); np.save('%t/vb.npy', g.standard_normal(3).astype(np.float32)); [np.save('%t/x%%d.npy' %% r, g.standard_normal((2, 4)).astype(np.float32)) for r in range(2)]"
// RUN: %python -c "import numpy as np; vw = np.concatenate([np.load('%t/vw.npy'), np.zeros((1, 4), np.float32)]); vb = np.concatenate([np.load('%t/vb.npy'), np.zeros(1, np.float32)]); [(np.save('%t/vw%%d.npy' %% r, vw[2 * r:2 * r + 2]), np.save('%t/vb%%d.npy' %% r, vb[2 * r:2 * r + 2])) for r in range(2)]"
// RUN: raf-run %t/z0.mlir --entry=train_step --target=interp --ranks=2 --input=%t/w.npy --input=%t/b.npy --input=%t/vw.npy --input=%t/vb.npy --input=%t/x%%r.npy --output=%t/z0_%%r_0.npy --output=%t/z0_%%r_1.npy --output=%t/z0_%%r_2.npy --output=%t/z0_%%r_3.npy --output=%t/z0_%%r_4.npy
// RUN: raf-run %t/z1.mlir --entry=train_step --target=interp --ranks=2 --input=%t/w.npy --input=%t/b.npy --input=%t/vw%%r.npy --input=%t/vb%%r.npy --input=%t/x%%r.npy --output=%t/z1_%%r_0.npy --output=%t/z1_%%r_1.npy --output=%t/z1_%%r_2.npy --output=%t/z1_%%r_3.npy --output=%t/z1_%%r_4.npy
// RUN: raf-run %t/z2.mlir --entry=train_step --target=interp --ranks=2 --input=%t/w.npy --input=%t/b.npy --input=%t/vw%%r.npy --input=%t/vb%%r.npy --input=%t/x%%r.npy --output=%t/z2_%%r_0.npy --output=%t/z2_%%r_1.npy --output=%t/z2_%%r_2.npy --output=%t/z2_%%r_3.npy --output=%t/z2_%%r_4.npy
// RUN: %python -c "import numpy as np; L = lambda n: np.load('%t/' + n + '.npy'); [np.testing.assert_array_equal(L('z%%d_%%d_%%d' %% (z, r, i)), L('z0_%%d_%%d' %% (r, i))) for z in (1, 2) for r in range(2) for i in range(3)]; [np.testing.assert_array_equal(np.concatenate([L('z%%d_%%d_%%d' %% (z, r, i)) for r in range(2)])[:3], L('z0_0_%%d' %% i)) for z in (1, 2) for i in (3, 4)]"

// CHECK-LABEL: func.func @train_step(
// CHECK-NOT: relay.comm.allreduce
// CHECK: %[[GBP:.*]] = relay.nn.pad %{{.*}} {pad_width = array<i64: 0, 1>} : (tensor<3xf32>) -> tensor<4xf32>
// CHECK: %[[GWP:.*]] = relay.nn.pad %{{.*}} {pad_width = array<i64: 0, 1, 0, 0>} : (tensor<3x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT: %[[RB:.*]] = relay.reshape %[[GBP]] {newshape = array<i64: 2, 2>}
// CHECK-NEXT: %[[RW:.*]] = relay.reshape %[[GWP]] {newshape = array<i64: 2, 8>}
// CHECK-NEXT: %[[CAT:.*]] = relay.concatenate %[[RB]], %[[RW]] {axis = 1 : i64} : (tensor<2x2xf32>, tensor<2x8xf32>) -> tensor<2x10xf32>
// CHECK-NEXT: %[[FLAT:.*]] = relay.reshape %[[CAT]] {newshape = array<i64: 20>}
// CHECK-NEXT: %[[RS:.*]] = relay.comm.reduce_scatter %[[FLAT]] {reduction = "avg", world_size = 2 : i64} : (tensor<20xf32>) -> tensor<10xf32>
// CHECK-NOT: relay.comm.reduce_scatter
// CHECK: %[[PARTS:.*]]:2 = relay.split %[[RS]] {indices = array<i64: 2>} : (tensor<10xf32>) -> (tensor<2xf32>, tensor<8xf32>)
// CHECK-NEXT: relay.reshape %[[PARTS]]#1 {newshape = array<i64: 2, 4>}
// The updated blocks (w: 2x4, b: 2) are gathered by one allgather of their
// concatenation, split along the [2, 10] rows' columns before the return.
// CHECK: %[[BW:.*]] = relay.reshape %{{.*}} {newshape = array<i64: 8>} : (tensor<2x4xf32>)
// CHECK-NEXT: %[[BLOCKS:.*]] = relay.concatenate %[[BW]], %{{.*}} : (tensor<8xf32>, tensor<2xf32>) -> tensor<10xf32>
// CHECK-NEXT: %[[AG:.*]] = relay.comm.allgather %[[BLOCKS]] {world_size = 2 : i64} : (tensor<10xf32>) -> tensor<20xf32>
// CHECK-NOT: relay.comm.allgather
// CHECK-NEXT: %[[ROWS:.*]] = relay.reshape %[[AG]] {newshape = array<i64: 2, 10>}
// CHECK-NEXT: %[[P:.*]]:2 = relay.split %[[ROWS]] {axis = 1 : i64, indices = array<i64: 8>} : (tensor<2x10xf32>) -> (tensor<2x8xf32>, tensor<2x2xf32>)
// CHECK-NEXT: %[[W:.*]] = relay.reshape %[[P]]#0 {newshape = array<i64: 4, 4>}
// CHECK-NEXT: %[[B:.*]] = relay.reshape %[[P]]#1 {newshape = array<i64: 4>}
// CHECK-NEXT: %[[B3:.*]] = relay.strided_slice %[[B]] {{.*}} -> tensor<3xf32>
// CHECK-NEXT: %[[W3:.*]] = relay.strided_slice %[[W]] {{.*}} -> tensor<3x4xf32>
// CHECK-NEXT: return %{{.*}}, %[[W3]], %[[B3]],

// ZERO1-LABEL: func.func @train_step(
// ZERO1: %[[CAT:.*]] = relay.concatenate %{{.*}}, %{{.*}} : (tensor<3xf32>, tensor<12xf32>) -> tensor<15xf32>
// ZERO1-NEXT: %[[A:.*]] = relay.comm.allreduce %[[CAT]] {reduction = "avg", world_size = 2 : i64} : (tensor<15xf32>)
// ZERO1-NOT: relay.comm.allreduce
// ZERO1: relay.split %[[A]]
// ZERO1-COUNT-2: relay.comm.shard %{{.*}} {world_size = 2 : i64} : (tensor<4x
// ZERO1: relay.comm.allgather %{{.*}} : (tensor<10xf32>) -> tensor<20xf32>
// ZERO1-NOT: relay.comm.allgather
// ZERO1-NOT: raf.bucket

// TAG-COUNT-2: relay.comm.allreduce %{{.*}} {raf.bucket = 0 : i64, raf.zero = 2 : i64, reduction = "avg", world_size = 2 : i64}

// SMALL-COUNT-2: relay.comm.reduce_scatter
// SMALL-NOT: relay.concatenate
// SMALL-COUNT-2: relay.comm.allgather
// SMALL-NOT: relay.concatenate
// SMALL-NOT: raf.bucket
func.func @main(%x: tensor<2x4xf32> {raf.requires_grad = false},
                %w: tensor<3x4xf32> {raf.requires_grad = true},
                %b: tensor<3xf32> {raf.requires_grad = true}) -> tensor<f32> {
  %p = relay.nn.dense %x, %w : (tensor<2x4xf32>, tensor<3x4xf32>)
  %q = relay.nn.bias_add %p, %b {axis = 1 : i64} : (tensor<2x3xf32>, tensor<3xf32>)
  %s = relay.multiply %q, %q : (tensor<2x3xf32>, tensor<2x3xf32>)
  %l = relay.mean %s : (tensor<2x3xf32>)
  return %l : tensor<f32>
}
