// Vectorised code must not grow the stack with the iteration count: each
// convolution below once allocated its vector temporaries inside the
// reduction loop (three vector blocks, 288 bytes per iteration of a 64 x 4608
// loop nest, ~85 MB per call) and overflowed the stack. The pipeline lowers vector transfers fully unrolled
// (--convert-vector-to-scf full-unroll), so no vector temporary lives in
// memory at all.
//
// The convolutions run with blas=off: with BLAS (the default blas=auto) they
// would be SGEMM calls and the vectorised code would not be tested. raf-run
// runs the compiled code on its own thread, whose stack (8 MiB and more) does
// not follow `ulimit -s`; ~85 MB is more than that stack too, so the runs
// below still fail on such code. The STACK check finds the allocas in the
// lowered IR directly, whatever the stack size (this module lowers with no
// llvm.alloca at all).
// RUN: raf-opt --raf-cpu-pipeline=blas=off %s | FileCheck %s --check-prefix=STACK
// RUN: sh -c 'ulimit -s 1024 && raf-run %s --entry=conv2x2 --target=cpu --pipeline-options=blas=off --seed=1 --output=%t.cpu2.npy'
// RUN: raf-run %s --entry=conv2x2 --target=interp --seed=1 --output=%t.ref2.npy
// RUN: sh -c 'ulimit -s 1024 && raf-run %s --entry=conv1x1 --target=cpu --pipeline-options=blas=off --seed=1 --output=%t.cpu1.npy'
// RUN: raf-run %s --entry=conv1x1 --target=interp --seed=1 --output=%t.ref1.npy
// RUN: sh -c 'ulimit -s 1024 && raf-run %s --entry=conv4x4 --target=cpu --pipeline-options=blas=off --seed=1 --output=%t.cpu4.npy'
// RUN: raf-run %s --entry=conv4x4 --target=interp --seed=1 --output=%t.ref4.npy
// RUN: %python -c "import numpy as np; [np.testing.assert_allclose(np.load('%t.cpu' + k + '.npy'), np.load('%t.ref' + k + '.npy'), rtol=1e-4, atol=1e-4) for k in '124']; print('match')" | FileCheck %s
// CHECK: match

// STACK-NOT: llvm.alloca
// STACK-LABEL: llvm.func @conv2x2_fused_0(
// STACK-NOT: llvm.alloca
// STACK: llvm.fmul {{.*}} : vector<
// STACK-NOT: llvm.alloca

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
