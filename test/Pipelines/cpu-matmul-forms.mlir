// Every transpose form of the matrix products compiled for the CPU equals the
// reference evaluator, at shapes with remainders everywhere (K not a multiple
// of the vector lanes, M and N not multiples of the blocks, a broadcast batch,
// f64): A B^T takes --raf-dot-product-contraction, A^T B the outer-product
// blocks, A^T B^T scalar loops.
// RUN: rm -rf %t && mkdir -p %t
// RUN: raf-run %s --entry=tb --target=cpu --seed=4 --output=%t/tb.cpu.npy && raf-run %s --entry=tb --target=interp --seed=4 --output=%t/tb.ref.npy
// RUN: raf-run %s --entry=ta --target=cpu --seed=4 --output=%t/ta.cpu.npy && raf-run %s --entry=ta --target=interp --seed=4 --output=%t/ta.ref.npy
// RUN: raf-run %s --entry=tab --target=cpu --seed=4 --output=%t/tab.cpu.npy && raf-run %s --entry=tab --target=interp --seed=4 --output=%t/tab.ref.npy
// RUN: raf-run %s --entry=btb --target=cpu --seed=4 --output=%t/btb.cpu.npy && raf-run %s --entry=btb --target=interp --seed=4 --output=%t/btb.ref.npy
// RUN: raf-run %s --entry=bta --target=cpu --seed=4 --output=%t/bta.cpu.npy && raf-run %s --entry=bta --target=interp --seed=4 --output=%t/bta.ref.npy
// RUN: raf-run %s --entry=dense64 --target=cpu --seed=4 --output=%t/dense64.cpu.npy && raf-run %s --entry=dense64 --target=interp --seed=4 --output=%t/dense64.ref.npy
// RUN: raf-run %s --entry=dense3d --target=cpu --seed=4 --output=%t/dense3d.cpu.npy && raf-run %s --entry=dense3d --target=interp --seed=4 --output=%t/dense3d.ref.npy
// RUN: raf-opt %s --raf-cpu-pipeline | FileCheck %s --check-prefix=LANES
// RUN: %python -c "import numpy as np; [np.testing.assert_allclose(np.load('%t/' + k + '.cpu.npy'), np.load('%t/' + k + '.ref.npy'), rtol=1e-5, atol=1e-5) for k in ['tb', 'ta', 'tab', 'btb', 'bta', 'dense64', 'dense3d']]; print('all match')" | FileCheck %s
// CHECK: all match
// A dense of a 3-D input (its reshapes fold into a product with two row
// dimensions) takes the reduction-lane kernel too.
// LANES: llvm.func @dense3d_fused_0(
// LANES: llvm.intr.vector.reduce.fadd
func.func @tb(%a: tensor<5x37xf32>, %b: tensor<7x37xf32>) -> tensor<5x7xf32> {
  %y = relay.nn.matmul %a, %b {transpose_b = true} : (tensor<5x37xf32>, tensor<7x37xf32>) -> tensor<5x7xf32>
  return %y : tensor<5x7xf32>
}
func.func @ta(%a: tensor<37x5xf32>, %b: tensor<37x7xf32>) -> tensor<5x7xf32> {
  %y = relay.nn.matmul %a, %b {transpose_a = true} : (tensor<37x5xf32>, tensor<37x7xf32>) -> tensor<5x7xf32>
  return %y : tensor<5x7xf32>
}
func.func @tab(%a: tensor<37x5xf32>, %b: tensor<7x37xf32>) -> tensor<5x7xf32> {
  %y = relay.nn.matmul %a, %b {transpose_a = true, transpose_b = true} : (tensor<37x5xf32>, tensor<7x37xf32>) -> tensor<5x7xf32>
  return %y : tensor<5x7xf32>
}
func.func @btb(%a: tensor<3x9x40xf32>, %b: tensor<1x6x40xf32>) -> tensor<3x9x6xf32> {
  %y = relay.nn.batch_matmul %a, %b {transpose_b = true} : (tensor<3x9x40xf32>, tensor<1x6x40xf32>) -> tensor<3x9x6xf32>
  return %y : tensor<3x9x6xf32>
}
func.func @bta(%a: tensor<3x40x9xf32>, %b: tensor<3x40x6xf32>) -> tensor<3x9x6xf32> {
  %y = relay.nn.batch_matmul %a, %b {transpose_a = true, transpose_b = false} : (tensor<3x40x9xf32>, tensor<3x40x6xf32>) -> tensor<3x9x6xf32>
  return %y : tensor<3x9x6xf32>
}
func.func @dense64(%a: tensor<5x19xf64>, %b: tensor<11x19xf64>) -> tensor<5x11xf64> {
  %y = relay.nn.dense %a, %b : (tensor<5x19xf64>, tensor<11x19xf64>) -> tensor<5x11xf64>
  return %y : tensor<5x11xf64>
}

func.func @dense3d(%x: tensor<2x5x40xf32>, %w: tensor<6x40xf32>) -> tensor<2x5x6xf32> {
  %y = relay.nn.dense %x, %w : (tensor<2x5x40xf32>, tensor<6x40xf32>)
  return %y : tensor<2x5x6xf32>
}
