// DEFINE: %{inputs} = --input=%t/arg0.npy --input=%t/arg1.npy --input=%t/arg2.npy --input=%t/arg3.npy --input=%t/arg4.npy --input=%t/arg5.npy --input=%t/arg6.npy --input=%t/arg7.npy --input=%t/arg8.npy --input=%t/arg9.npy
// RUN: rm -rf %t && split-file %s %t
// RUN: raf-opt %t/share.mlir --raf-autocast | FileCheck %s --check-prefix=SHARE
// RUN: raf-opt %t/mlp.mlir --raf-training-pipeline="requires-grad=2,3,4,5 optimizer=momentum lr=0.1 amp=f16" -o %t/step.mlir
// RUN: FileCheck %s --check-prefix=STEP < %t/step.mlir
// The mixed-precision step compiles for the CPU and runs on both targets.
// RUN: raf-opt %t/step.mlir --raf-cpu-pipeline | FileCheck %s --check-prefix=LLVM
// RUN: %python -c "import numpy as np; r = np.random.default_rng(0); shapes = [(16, 8), (16,), (3, 16), (3,)]; args = [r.standard_normal(s).astype(np.float32) for s in shapes] + [np.zeros(s, np.float32) for s in shapes] + [r.standard_normal((4, 8)).astype(np.float32), np.array([0, 2, 1, 2])]; [np.save('%t/arg%%d.npy' %% i, a) for i, a in enumerate(args)]"
// RUN: raf-run %t/step.mlir --entry=train_step --target=interp %{inputs} | FileCheck %s --check-prefix=EXEC
// RUN: raf-run %t/step.mlir --entry=train_step --target=cpu %{inputs} | FileCheck %s --check-prefix=EXEC
// RUN: raf-opt %t/mlp.mlir --raf-training-pipeline="requires-grad=2,3,4,5 amp=bf16" | raf-opt --raf-cpu-pipeline | FileCheck %s --check-prefix=LLVM

//--- share.mlir
// RAF's may_share example (C4 step 1f): %b shares %x's buffer, so it is cast
// back to %x's type. Here that is a result marked raf.updates_arg = 0 (a new
// parameter); the unmarked f16 result goes out as f16 (out-dtype).
// SHARE-LABEL: func.func @step(
// SHARE-SAME: %[[X:.*]]: tensor<10x10xf32> {raf.updatable}, %[[W:.*]]: tensor<10x10xf32>)
// SHARE-SAME: -> (tensor<10x10xf32> {raf.updates_arg = 0 : i64}, tensor<10x10xf16>)
// SHARE-NEXT:   %[[X0:.*]] = relay.cast %[[X]] {dtype = f16}
// SHARE-NEXT:   %[[X1:.*]] = relay.cast %[[W]] {dtype = f16}
// SHARE-NEXT:   %[[A:.*]] = relay.nn.matmul %[[X0]], %[[X1]] : (tensor<10x10xf16>, tensor<10x10xf16>) -> tensor<10x10xf16>
// SHARE-NEXT:   %[[X3:.*]] = relay.cast %[[A]] {dtype = f32} : (tensor<10x10xf16>) -> tensor<10x10xf32>
// SHARE-NEXT:   return %[[X3]], %[[A]] : tensor<10x10xf32>, tensor<10x10xf16>
func.func @step(%x: tensor<10x10xf32> {raf.updatable}, %w: tensor<10x10xf32>)
    -> (tensor<10x10xf32> {raf.updates_arg = 0 : i64}, tensor<10x10xf32>)
    attributes {raf.optimizer = "sgd"} {
  %a = relay.nn.matmul %x, %w : (tensor<10x10xf32>, tensor<10x10xf32>)
  return %a, %a : tensor<10x10xf32>, tensor<10x10xf32>
}

//--- mlp.mlir
// --raf-training-pipeline amp=f16: AutoCast runs on @train_step after the
// optimizer; the gradient function @main is left in f32.
// STEP-LABEL: func.func @main(
// STEP-NOT:   f16
// STEP-LABEL: func.func @train_step(
// The signature is the f32 step's: parameters, momentum states and their
// new values stay f32, so the step can be iterated.
// STEP-SAME: %[[W1:arg0]]: tensor<16x8xf32> {raf.updatable}, %{{.*}}: tensor<16xf32> {raf.updatable}, %{{.*}}: tensor<3x16xf32> {raf.updatable}, %{{.*}}: tensor<3xf32> {raf.updatable}
// STEP-SAME: %[[X:arg8]]: tensor<4x8xf32>, %{{.*}}: tensor<4xi64>)
// STEP-SAME: -> (tensor<f32>, tensor<16x8xf32> {raf.updates_arg = 0 : i64}, tensor<16xf32> {raf.updates_arg = 1 : i64}, tensor<3x16xf32> {raf.updates_arg = 2 : i64}, tensor<3xf32> {raf.updates_arg = 3 : i64}, tensor<16x8xf32> {raf.updates_arg = 4 : i64}, tensor<16xf32> {raf.updates_arg = 5 : i64}, tensor<3x16xf32> {raf.updates_arg = 6 : i64}, tensor<3xf32> {raf.updates_arg = 7 : i64})
// STEP:       %[[ZERO:.*]] = relay.constant dense<0.000000e+00> : tensor<f32>
// STEP:       %[[XH:.*]] = relay.cast %[[X]] {dtype = f16}
// STEP-NEXT:  %[[W1H:.*]] = relay.cast %[[W1]] {dtype = f16}
// STEP-NEXT:  relay.nn.dense %[[XH]], %[[W1H]] : (tensor<4x8xf16>, tensor<16x8xf16>) -> tensor<4x16xf16>
// The loss is computed in f32.
// STEP:       relay.nn.log_softmax {{.*}} -> tensor<4x3xf32>
// STEP-NEXT:  %[[LOSS:.*]] = relay.nn.nll_loss {{.*}} -> tensor<f32>
// The ReLU gradient: greater and where each get their own cast of the zero
// constant; no CSE after AutoCast merges them, so fusion can absorb them.
// STEP:       %[[Z1:.*]] = relay.cast %[[ZERO]] {dtype = f16}
// STEP-NEXT:  relay.greater %{{.*}}, %[[Z1]]
// STEP-NEXT:  %[[Z2:.*]] = relay.cast %[[ZERO]] {dtype = f16}
// STEP-NEXT:  relay.where %{{.*}}, %{{.*}}, %[[Z2]]
// The momentum state of w1 is updated in f16 (f32 + f16 gradient: the
// binary rule); the multiply by lr (never-cast, broadcast) gets its own cast
// back to f32, and the new state is cast back to its argument's f32 where
// it is returned.
// STEP:       %[[V1:.*]] = relay.add %{{.*}}, %{{.*}} : (tensor<16x8xf16>, tensor<16x8xf16>) -> tensor<16x8xf16>
// STEP-NEXT:  %[[V1M:.*]] = relay.cast %[[V1]] {dtype = f32}
// STEP-NEXT:  relay.multiply %{{.*}}, %[[V1M]]
// STEP:       %[[V1F:.*]] = relay.cast %[[V1]] {dtype = f32} : (tensor<16x8xf16>) -> tensor<16x8xf32>
// STEP-NEXT:  relay.cast
// STEP-NEXT:  return %[[LOSS]], {{.*}}, %[[V1F]],
func.func @main(%x: tensor<4x8xf32>, %labels: tensor<4xi64>, %w1: tensor<16x8xf32>,
                %b1: tensor<16xf32>, %w2: tensor<3x16xf32>, %b2: tensor<3xf32>) -> tensor<f32> {
  %h = relay.nn.dense %x, %w1 : (tensor<4x8xf32>, tensor<16x8xf32>)
  %hb = relay.nn.bias_add %h, %b1 : (tensor<4x16xf32>, tensor<16xf32>)
  %r = relay.nn.relu %hb : (tensor<4x16xf32>)
  %o = relay.nn.dense %r, %w2 : (tensor<4x16xf32>, tensor<3x16xf32>)
  %ob = relay.add %o, %b2 : (tensor<4x3xf32>, tensor<3xf32>)
  %ls = relay.nn.log_softmax %ob {axis = 1 : i64} : (tensor<4x3xf32>)
  %loss = relay.nn.nll_loss %ls, %labels : (tensor<4x3xf32>, tensor<4xi64>)
  return %loss : tensor<f32>
}

// LLVM: llvm.func @train_step

// EXEC: result #0: tensor<f32>
// EXEC: result #8: tensor<3xf32>
