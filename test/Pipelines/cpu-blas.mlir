// Large contractions through the BLAS runtime (--raf-contractions-to-blas,
// the CPU pipeline's blas=auto|on|off) equal the reference evaluator: every
// transpose form of cpu-matmul-forms.mlir with every product sent to BLAS
// (blas-min-macs=1), a dense with a bias, a matmul on linalg that
// accumulates onto its argument (the call copies the initial value and
// adds to it; compared with the relay form on the evaluator), a batch_matmul with a broadcast batch, NCHW
// convolutions through im2col (stride 2, dilation 2) and the 1x1 ones
// without it, and a training step of two convolutions (their data and
// weight gradients are convolutions too, the latter dilated by the forward
// stride). In a build without OpenBLAS, blas=auto falls back to the
// compiled code and the results still match.
// RUN: rm -rf %t && mkdir -p %t
// RUN: for k in tb ta tab btb bta dense64 dense3d; do raf-run %S/cpu-matmul-forms.mlir --entry=$k --target=cpu --seed=4 --pipeline-options=blas-min-macs=1 --output=%t/$k.cpu.npy && raf-run %S/cpu-matmul-forms.mlir --entry=$k --target=interp --seed=4 --output=%t/$k.ref.npy || exit 1; done
// RUN: for k in dense_bias bmm conv_s2 conv_d2 wgrad conv_1x1 conv_1x1_s2; do raf-run %s --entry=$k --target=cpu --seed=5 --output=%t/$k.cpu.npy && raf-run %s --entry=$k --target=interp --seed=5 --output=%t/$k.ref.npy || exit 1; done
// RUN: raf-run %s --entry=acc_linalg --target=cpu --seed=5 --output=%t/acc.cpu.npy
// RUN: raf-run %s --entry=acc_relay --target=interp --seed=5 --output=%t/acc.ref.npy
// RUN: sh -c 'ulimit -s 1024 && raf-run %s --entry=dense_big --target=cpu --threads=2 --seed=6 --output=%t/dense_big.cpu.npy'
// RUN: raf-run %s --entry=dense_big --target=interp --seed=6 --output=%t/dense_big.ref.npy
// RUN: raf-opt --raf-training-pipeline="requires-grad=1,2" %s --mlir-print-op-on-diagnostic=false -o %t/train.mlir
// RUN: raf-run %t/train.mlir --entry=train_step --target=cpu --seed=7 --pipeline-options=blas-min-macs=1 --output=%t/step.cpu.npy
// RUN: raf-run %t/train.mlir --entry=train_step --target=interp --seed=7 --output=%t/step.ref.npy
// RUN: %python -c "import numpy as np; [np.testing.assert_allclose(np.load('%t/' + k + '.cpu.npy'), np.load('%t/' + k + '.ref.npy'), rtol=1e-4, atol=1e-4) for k in 'tb ta tab btb bta dense64 dense3d dense_bias bmm conv_s2 conv_d2 wgrad conv_1x1 conv_1x1_s2 acc dense_big step'.split()]; print('all match')" | FileCheck %s
// CHECK: all match

// The rewrite itself (independent of the runtime): a call per product on
// views of the operands, no transposed copies.
// RUN: raf-opt %s --convert-relay-to-linalg --raf-contractions-to-blas | FileCheck %s --check-prefix=IR
// RUN: raf-opt %s --convert-relay-to-linalg --raf-contractions-to-blas="min-macs=100000000" | FileCheck %s --check-prefix=SMALL
// IR: func.func private @rafBlasGemmF32(memref<?x?x?xf32, strided<[?, ?, ?], offset: ?>>, memref<?x?x?xf32, strided<[?, ?, ?], offset: ?>>, memref<?x?x?xf32, strided<[?, ?, ?], offset: ?>>, i64, i64, i64, i64, i64) attributes {llvm.emit_c_interface}
// IR-LABEL: func.func @dense_bias(
// IR-NOT: linalg.transpose
// IR: %[[A:.*]] = memref.cast
// IR: %[[B:.*]] = memref.cast
// IR: %[[C:.*]] = memref.alloc
// IR-NOT: memref.copy
// Flags: A as stored, B transposed (the weight is [out, in]), C as stored,
// no accumulation, 1 thread.
// IR: call @rafBlasGemmF32(%[[A]], %[[B]], %{{.*}}, %c0_i64, %c1_i64, %c0_i64_{{[0-9]+}}, %c0_i64_{{[0-9]+}}, %c1_i64_{{[0-9]+}})
// IR-LABEL: func.func @acc_linalg(
// IR: %[[ACC:.*]] = memref.alloc
// IR: memref.copy %{{.*}}, %[[ACC]]
// IR: call @rafBlasGemmF32(
// IR-LABEL: func.func @wgrad(
// IR: linalg.generic {{.*}} outs(%{{.*}} : tensor<16x3x3x1x10x10xf32>)
// IR: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1, 2], [3, 4, 5]] : tensor<16x3x3x1x10x10xf32> into tensor<144x100xf32>
// IR: call @rafBlasGemmF32(%{{.*}}, %{{.*}}, %{{.*}}, %c0_i64, %c1_i64, %c0_i64_{{[0-9]+}}, %c0_i64_{{[0-9]+}}, %c1_i64_{{[0-9]+}})
// IR: linalg.transpose ins(%{{.*}} : tensor<8x16x3x3xf32>) outs(%{{.*}} : tensor<16x8x3x3xf32>) permutation = [1, 0, 2, 3]
// IR-LABEL: func.func @conv_1x1(
// IR-NOT: linalg.generic
// IR: call @rafBlasGemmF32
// IR-LABEL: func.func @conv_1x1_s2(
// IR: linalg.generic
// IR: call @rafBlasGemmF32
// SMALL-NOT: call @rafBlasGemm

func.func @dense_bias(%x: tensor<24x300xf32>, %w: tensor<40x300xf32>, %b: tensor<40xf32>) -> tensor<24x40xf32> {
  %y = relay.nn.dense %x, %w : (tensor<24x300xf32>, tensor<40x300xf32>)
  %z = relay.nn.bias_add %y, %b {axis = 1 : i64} : (tensor<24x40xf32>, tensor<40xf32>)
  return %z : tensor<24x40xf32>
}
func.func @acc_linalg(%a: tensor<24x70xf32>, %b: tensor<70x40xf32>, %c: tensor<24x40xf32>) -> tensor<24x40xf32> {
  %y = linalg.matmul ins(%a, %b : tensor<24x70xf32>, tensor<70x40xf32>) outs(%c : tensor<24x40xf32>) -> tensor<24x40xf32>
  return %y : tensor<24x40xf32>
}
func.func @acc_relay(%a: tensor<24x70xf32>, %b: tensor<70x40xf32>, %c: tensor<24x40xf32>) -> tensor<24x40xf32> {
  %p = relay.nn.matmul %a, %b : (tensor<24x70xf32>, tensor<70x40xf32>) -> tensor<24x40xf32>
  %y = relay.add %p, %c : (tensor<24x40xf32>, tensor<24x40xf32>)
  return %y : tensor<24x40xf32>
}
func.func @bmm(%a: tensor<4x33x70xf32>, %b: tensor<1x70x45xf32>) -> tensor<4x33x45xf32> {
  %y = relay.nn.batch_matmul %a, %b {transpose_a = false, transpose_b = false} : (tensor<4x33x70xf32>, tensor<1x70x45xf32>) -> tensor<4x33x45xf32>
  return %y : tensor<4x33x45xf32>
}
func.func @conv_s2(%x: tensor<2x16x15x15xf32>, %w: tensor<24x16x3x3xf32>) -> tensor<2x24x8x8xf32> {
  %y = relay.nn.conv2d %x, %w {padding = array<i64: 1>, strides = array<i64: 2, 2>} : (tensor<2x16x15x15xf32>, tensor<24x16x3x3xf32>)
  return %y : tensor<2x24x8x8xf32>
}
func.func @conv_d2(%x: tensor<1x16x14x14xf32>, %w: tensor<20x16x3x3xf32>) -> tensor<1x20x10x10xf32> {
  %y = relay.nn.conv2d %x, %w {dilation = array<i64: 2, 2>} : (tensor<1x16x14x14xf32>, tensor<20x16x3x3xf32>)
  return %y : tensor<1x20x10x10xf32>
}
// A convolution shaped like a weight gradient (16 images of 9 output
// positions each, the "filter" as large as the input): one product whose
// columns are the images' positions, the im2col copy stored as
// [n, oh, ow, c, kh, kw] (rows of 10 along kw) and read transposed.
func.func @wgrad(%x: tensor<16x1x12x12xf32>, %w: tensor<8x1x10x10xf32>) -> tensor<16x8x3x3xf32> {
  %y = relay.nn.conv2d %x, %w : (tensor<16x1x12x12xf32>, tensor<8x1x10x10xf32>)
  return %y : tensor<16x8x3x3xf32>
}
func.func @conv_1x1(%x: tensor<2x32x9x9xf32>, %w: tensor<48x32x1x1xf32>) -> tensor<2x48x9x9xf32> {
  %y = relay.nn.conv2d %x, %w : (tensor<2x32x9x9xf32>, tensor<48x32x1x1xf32>)
  return %y : tensor<2x48x9x9xf32>
}
func.func @conv_1x1_s2(%x: tensor<2x32x9x9xf32>, %w: tensor<48x32x1x1xf32>) -> tensor<2x48x5x5xf32> {
  %y = relay.nn.conv2d %x, %w {strides = array<i64: 2, 2>} : (tensor<2x32x9x9xf32>, tensor<48x32x1x1xf32>)
  return %y : tensor<2x48x5x5xf32>
}
// One row: a matrix-vector product, on two OpenBLAS threads, with a small
// stack.
func.func @dense_big(%x: tensor<1x2048xf32>, %w: tensor<1000x2048xf32>) -> tensor<1x1000xf32> {
  %y = relay.nn.dense %x, %w : (tensor<1x2048xf32>, tensor<1000x2048xf32>)
  return %y : tensor<1x1000xf32>
}
func.func @main(%x: tensor<2x8x10x10xf32>, %w: tensor<16x8x3x3xf32>, %w1: tensor<12x16x1x1xf32>) -> tensor<f32> {
  %c = relay.nn.conv2d %x, %w {padding = array<i64: 1>, strides = array<i64: 2, 2>} : (tensor<2x8x10x10xf32>, tensor<16x8x3x3xf32>)
  %r = relay.nn.relu %c : (tensor<2x16x5x5xf32>)
  %d = relay.nn.conv2d %r, %w1 : (tensor<2x16x5x5xf32>, tensor<12x16x1x1xf32>)
  %s = relay.multiply %d, %d : (tensor<2x12x5x5xf32>, tensor<2x12x5x5xf32>)
  %l = relay.sum %s : (tensor<2x12x5x5xf32>)
  return %l : tensor<f32>
}
