// ZeRO-2 (--raf-data-parallel zero=2, then --raf-zero-partition on the
// step): dimension 0 of each gradient is padded to a multiple of the world
// size (3 rows -> 4), reduce-scattered, and the momentum update runs on the
// rank's block of the parameter (relay.comm.shard), with per-rank state
// blocks; the new parameter is gathered right after its block is updated
// and the padding removed before the return.
// RUN: raf-opt --raf-autodiff="inline-backward=true" --raf-data-parallel="world-size=2 zero=2" --raf-append-optimizer="kind=momentum lr=0.5" --raf-zero-partition %s | FileCheck %s
// ZeRO-1 keeps the all-reduce and takes its block where the update first
// uses it.
// RUN: raf-opt --raf-autodiff="inline-backward=true" --raf-data-parallel="world-size=2 zero=1" --raf-append-optimizer="kind=momentum lr=0.5" --raf-zero-partition %s | FileCheck %s --check-prefix=ZERO1
// On two simulated ranks, zero=0, 1 and 2 take the same step: the new
// parameters are equal bitwise, and the ranks' state blocks, concatenated
// and stripped of the padding, are zero=0's state.
// RUN: rm -rf %t && mkdir -p %t
// RUN: raf-opt --raf-autodiff="inline-backward=true" --raf-data-parallel="world-size=2" --raf-append-optimizer="kind=momentum lr=0.5" %s -o %t/z0.mlir
// RUN: raf-opt --raf-autodiff="inline-backward=true" --raf-data-parallel="world-size=2 zero=1" --raf-append-optimizer="kind=momentum lr=0.5" --raf-zero-partition %s -o %t/z1.mlir
// RUN: raf-opt --raf-autodiff="inline-backward=true" --raf-data-parallel="world-size=2 zero=2" --raf-append-optimizer="kind=momentum lr=0.5" --raf-zero-partition %s -o %t/z2.mlir
// RUN: %python -c "import numpy as np; g = np.random.default_rng(3); np.save('%t/w.npy', g.standard_normal((3, 4)).astype(np.float32)); np.save('%t/b.npy', g.standard_normal(3).astype(np.float32)); np.save('%t/vw.npy', g.standard_normal((3, 4)).astype(np.float32)); np.save('%t/vb.npy', g.standard_normal(3).astype(np.float32)); [np.save('%t/x%%d.npy' %% r, g.standard_normal((2, 4)).astype(np.float32)) for r in range(2)]"
// RUN: %python -c "import numpy as np; vw = np.concatenate([np.load('%t/vw.npy'), np.zeros((1, 4), np.float32)]); vb = np.concatenate([np.load('%t/vb.npy'), np.zeros(1, np.float32)]); [(np.save('%t/vw%%d.npy' %% r, vw[2 * r:2 * r + 2]), np.save('%t/vb%%d.npy' %% r, vb[2 * r:2 * r + 2])) for r in range(2)]"
// RUN: raf-run %t/z0.mlir --entry=train_step --target=interp --ranks=2 --input=%t/w.npy --input=%t/b.npy --input=%t/vw.npy --input=%t/vb.npy --input=%t/x%%r.npy --output=%t/z0_%%r_0.npy --output=%t/z0_%%r_1.npy --output=%t/z0_%%r_2.npy --output=%t/z0_%%r_3.npy --output=%t/z0_%%r_4.npy
// RUN: raf-run %t/z1.mlir --entry=train_step --target=interp --ranks=2 --input=%t/w.npy --input=%t/b.npy --input=%t/vw%%r.npy --input=%t/vb%%r.npy --input=%t/x%%r.npy --output=%t/z1_%%r_0.npy --output=%t/z1_%%r_1.npy --output=%t/z1_%%r_2.npy --output=%t/z1_%%r_3.npy --output=%t/z1_%%r_4.npy
// RUN: raf-run %t/z2.mlir --entry=train_step --target=interp --ranks=2 --input=%t/w.npy --input=%t/b.npy --input=%t/vw%%r.npy --input=%t/vb%%r.npy --input=%t/x%%r.npy --output=%t/z2_%%r_0.npy --output=%t/z2_%%r_1.npy --output=%t/z2_%%r_2.npy --output=%t/z2_%%r_3.npy --output=%t/z2_%%r_4.npy
// RUN: %python -c "import numpy as np; L = lambda n: np.load('%t/' + n + '.npy'); [np.testing.assert_array_equal(L('z%%d_%%d_%%d' %% (z, r, i)), L('z0_%%d_%%d' %% (r, i))) for z in (1, 2) for r in range(2) for i in range(3)]; [np.testing.assert_array_equal(np.concatenate([L('z%%d_%%d_%%d' %% (z, r, i)) for r in range(2)])[:3], L('z0_0_%%d' %% i)) for z in (1, 2) for i in (3, 4)]"

// CHECK-LABEL: func.func @train_step(
// CHECK-SAME: %[[W:[^:]*]]: tensor<3x4xf32> {{{.*}}}, %[[B:[^:]*]]: tensor<3xf32> {{{.*}}}, %[[VW:[^:]*]]: tensor<2x4xf32> {raf.updatable}, %[[VB:[^:]*]]: tensor<2xf32> {raf.updatable}
// CHECK-SAME: -> (tensor<f32>, tensor<3x4xf32> {raf.updates_arg = 0 : i64}, tensor<3xf32> {raf.updates_arg = 1 : i64}, tensor<2x4xf32> {raf.updates_arg = 2 : i64}, tensor<2xf32> {raf.updates_arg = 3 : i64})
// CHECK-SAME: raf.world_size = 2 : i64, raf.zero = 2 : i64
// CHECK-NOT: relay.comm.allreduce
// CHECK: %[[GWP:.*]] = relay.nn.pad %{{.*}} {pad_width = array<i64: 0, 1, 0, 0>} : (tensor<3x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT: %[[GW:.*]] = relay.comm.reduce_scatter %[[GWP]] {reduction = "avg", world_size = 2 : i64} : (tensor<4x4xf32>) -> tensor<2x4xf32>
// CHECK: %[[MV:.*]] = relay.multiply %{{.*}}, %[[VW]] : (tensor<f32>, tensor<2x4xf32>)
// CHECK-NEXT: %[[NVW:.*]] = relay.add %[[MV]], %[[GW]] : (tensor<2x4xf32>, tensor<2x4xf32>)
// CHECK: %[[WP:.*]] = relay.nn.pad %[[W]] {pad_width = array<i64: 0, 1, 0, 0>}
// CHECK-NEXT: %[[WB:.*]] = relay.comm.shard %[[WP]] {world_size = 2 : i64} : (tensor<4x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: %[[NWB:.*]] = relay.subtract %[[WB]], %{{.*}} : (tensor<2x4xf32>, tensor<2x4xf32>)
// CHECK: %[[AW:.*]] = relay.comm.allgather %[[NWB]] {world_size = 2 : i64} : (tensor<2x4xf32>) -> tensor<4x4xf32>
// CHECK: %[[NW:.*]] = relay.strided_slice %[[AW]] {axes = array<i64: 0>, begin = array<i64: 0>, end = array<i64: 3>} : (tensor<4x4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT: return %{{.*}}, %[[NW]], %{{.*}}, %[[NVW]], %{{.*}} :

// ZERO1-LABEL: func.func @train_step(
// ZERO1: %[[A:.*]] = relay.comm.allreduce %{{.*}} {reduction = "avg", world_size = 2 : i64} : (tensor<3x4xf32>)
// ZERO1: %[[P:.*]] = relay.nn.pad %[[A]] {pad_width = array<i64: 0, 1, 0, 0>}
// ZERO1-NEXT: relay.comm.shard %[[P]] {world_size = 2 : i64} : (tensor<4x4xf32>) -> tensor<2x4xf32>
// ZERO1-NOT: raf.zero = 1 : i64, reduction
// ZERO1: return
func.func @main(%x: tensor<2x4xf32> {raf.requires_grad = false},
                %w: tensor<3x4xf32> {raf.requires_grad = true},
                %b: tensor<3xf32> {raf.requires_grad = true}) -> tensor<f32> {
  %p = relay.nn.dense %x, %w : (tensor<2x4xf32>, tensor<3x4xf32>)
  %q = relay.nn.bias_add %p, %b {axis = 1 : i64} : (tensor<2x3xf32>, tensor<3xf32>)
  %s = relay.multiply %q, %q : (tensor<2x3xf32>, tensor<2x3xf32>)
  %l = relay.mean %s : (tensor<2x3xf32>)
  return %l : tensor<f32>
}
