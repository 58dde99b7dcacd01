// Products with a reduction of extent 1 (rank-1 updates: a dense layer's
// weight gradient at batch 1) through the BLAS runtime, which writes them
// in one pass instead of calling GEMM: every operand form (B as stored and
// transposed, A transposed, C transposed through a transposed result, a
// broadcast batch), accumulation onto an initial value, and the training
// step of a dense layer at batch 1, each equal to the reference evaluator.
// RUN: rm -rf %t && mkdir -p %t
// RUN: for k in outer outer_tb outer_ta outer_t bmm dense_b1; do raf-run %s --entry=$k --target=cpu --seed=3 --pipeline-options=blas-min-macs=1 --output=%t/$k.cpu.npy && raf-run %s --entry=$k --target=interp --seed=3 --output=%t/$k.ref.npy || exit 1; done
// RUN: raf-run %s --entry=acc_linalg --target=cpu --seed=3 --pipeline-options=blas-min-macs=1 --output=%t/acc.cpu.npy
// RUN: raf-run %s --entry=acc_relay --target=interp --seed=3 --output=%t/acc.ref.npy
// RUN: raf-opt --raf-training-pipeline="requires-grad=1,2" %s --mlir-print-op-on-diagnostic=false -o %t/train.mlir
// RUN: raf-run %t/train.mlir --entry=train_step --target=cpu --seed=4 --pipeline-options=blas-min-macs=1 --output=%t/step.cpu.npy --output=%t/w.cpu.npy --output=%t/b.cpu.npy
// RUN: raf-run %t/train.mlir --entry=train_step --target=interp --seed=4 --output=%t/step.ref.npy --output=%t/w.ref.npy --output=%t/b.ref.npy
// RUN: %python -c "import numpy as np; [np.testing.assert_allclose(np.load('%t/' + k + '.cpu.npy'), np.load('%t/' + k + '.ref.npy'), rtol=1e-5, atol=1e-6) for k in 'outer outer_tb outer_ta outer_t bmm dense_b1 acc step w b'.split()]; print('all match')" | FileCheck %s
// CHECK: all match

// The products are BLAS calls (the runtime takes the rank-1 path).
// RUN: raf-opt %s --convert-relay-to-linalg --raf-contractions-to-blas="min-macs=1" | FileCheck %s --check-prefix=IR
// IR-LABEL: func.func @outer(
// IR: call @rafBlasGemmF32(
// IR-LABEL: func.func @outer_tb(
// IR: call @rafBlasGemmF32(

func.func @outer(%a: tensor<37x1xf32>, %b: tensor<1x45xf32>) -> tensor<37x45xf32> {
  %y = relay.nn.matmul %a, %b : (tensor<37x1xf32>, tensor<1x45xf32>) -> tensor<37x45xf32>
  return %y : tensor<37x45xf32>
}
// B transposed: its one row is a strided column of the [45, 1] operand.
func.func @outer_tb(%a: tensor<37x1xf32>, %b: tensor<45x1xf32>) -> tensor<37x45xf32> {
  %y = relay.nn.matmul %a, %b {transpose_b = true} : (tensor<37x1xf32>, tensor<45x1xf32>) -> tensor<37x45xf32>
  return %y : tensor<37x45xf32>
}
func.func @outer_ta(%a: tensor<1x37xf32>, %b: tensor<1x45xf32>) -> tensor<37x45xf32> {
  %y = relay.nn.matmul %a, %b {transpose_a = true} : (tensor<1x37xf32>, tensor<1x45xf32>) -> tensor<37x45xf32>
  return %y : tensor<37x45xf32>
}
// The transposed result: C^T = B^T A^T.
func.func @outer_t(%a: tensor<37x1xf32>, %b: tensor<1x45xf32>) -> tensor<45x37xf32> {
  %y = relay.nn.matmul %a, %b : (tensor<37x1xf32>, tensor<1x45xf32>) -> tensor<37x45xf32>
  %t = relay.transpose %y {axes = array<i64: 1, 0>} : (tensor<37x45xf32>) -> tensor<45x37xf32>
  return %t : tensor<45x37xf32>
}
func.func @bmm(%a: tensor<3x33x1xf32>, %b: tensor<1x1x20xf32>) -> tensor<3x33x20xf32> {
  %y = relay.nn.batch_matmul %a, %b {transpose_a = false, transpose_b = false} : (tensor<3x33x1xf32>, tensor<1x1x20xf32>) -> tensor<3x33x20xf32>
  return %y : tensor<3x33x20xf32>
}
func.func @dense_b1(%x: tensor<1x1xf32>, %w: tensor<50x1xf32>) -> tensor<1x50xf32> {
  %y = relay.nn.dense %x, %w : (tensor<1x1xf32>, tensor<50x1xf32>) -> tensor<1x50xf32>
  return %y : tensor<1x50xf32>
}
func.func @acc_linalg(%a: tensor<24x1xf32>, %b: tensor<1x40xf32>, %c: tensor<24x40xf32>) -> tensor<24x40xf32> {
  %y = linalg.matmul ins(%a, %b : tensor<24x1xf32>, tensor<1x40xf32>) outs(%c : tensor<24x40xf32>) -> tensor<24x40xf32>
  return %y : tensor<24x40xf32>
}
func.func @acc_relay(%a: tensor<24x1xf32>, %b: tensor<1x40xf32>, %c: tensor<24x40xf32>) -> tensor<24x40xf32> {
  %p = relay.nn.matmul %a, %b : (tensor<24x1xf32>, tensor<1x40xf32>) -> tensor<24x40xf32>
  %y = relay.add %p, %c : (tensor<24x40xf32>, tensor<24x40xf32>)
  return %y : tensor<24x40xf32>
}
// A dense layer at batch 1: its weight gradient dy^T x is [30, 1] x [1, 60].
func.func @main(%x: tensor<1x60xf32>, %w: tensor<30x60xf32>, %bias: tensor<30xf32>) -> tensor<f32> {
  %d = relay.nn.dense %x, %w : (tensor<1x60xf32>, tensor<30x60xf32>) -> tensor<1x30xf32>
  %y = relay.nn.bias_add %d, %bias {axis = -1 : i64} : (tensor<1x30xf32>, tensor<30xf32>) -> tensor<1x30xf32>
  %s = relay.multiply %y, %y : (tensor<1x30xf32>, tensor<1x30xf32>)
  %l = relay.sum %s : (tensor<1x30xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
