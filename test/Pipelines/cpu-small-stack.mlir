// Vectorised code must not grow the stack with the iteration count: each
// convolution below once allocated its vector temporaries inside the
// reduction loop (4608 iterations x 3 blocks) and overflowed a 1 MiB stack.
// The CPU results must also match the reference evaluator.
// RUN: sh -c 'ulimit -s 1024 && raf-run %s --entry=conv2x2 --target=cpu --seed=1 --output=%t.cpu2.npy'
// RUN: raf-run %s --entry=conv2x2 --target=interp --seed=1 --output=%t.ref2.npy
// RUN: sh -c 'ulimit -s 1024 && raf-run %s --entry=conv1x1 --target=cpu --seed=1 --output=%t.cpu1.npy'
// RUN: raf-run %s --entry=conv1x1 --target=interp --seed=1 --output=%t.ref1.npy
// RUN: sh -c 'ulimit -s 1024 && raf-run %s --entry=conv4x4 --target=cpu --seed=1 --output=%t.cpu4.npy'
// RUN: raf-run %s --entry=conv4x4 --target=interp --seed=1 --output=%t.ref4.npy
// RUN: %python -c "import numpy as np; [np.testing.assert_allclose(np.load('%t.cpu' + k + '.npy'), np.load('%t.ref' + k + '.npy'), rtol=1e-4, atol=1e-4) for k in '124']; print('match')" | FileCheck %s
// CHECK: match

func.func @conv2x2(%x: tensor<1x512x2x2xf32>, %w: tensor<512x512x3x3xf32>) -> tensor<1x512x2x2xf32> {
  %y = relay.nn.conv2d %x, %w {padding = array<i64: 1>} : (tensor<1x512x2x2xf32>, tensor<512x512x3x3xf32>)
  return %y : tensor<1x512x2x2xf32>
}

func.func @conv1x1(%x: tensor<1x512x1x1xf32>, %w: tensor<512x512x3x3xf32>) -> tensor<1x512x1x1xf32> {
  %y = relay.nn.conv2d %x, %w {padding = array<i64: 1>} : (tensor<1x512x1x1xf32>, tensor<512x512x3x3xf32>)
  return %y : tensor<1x512x1x1xf32>
}

func.func @conv4x4(%x: tensor<1x512x4x4xf32>, %w: tensor<512x512x3x3xf32>) -> tensor<1x512x4x4xf32> {
  %y = relay.nn.conv2d %x, %w {padding = array<i64: 1>} : (tensor<1x512x4x4xf32>, tensor<512x512x3x3xf32>)
  return %y : tensor<1x512x4x4xf32>
}
