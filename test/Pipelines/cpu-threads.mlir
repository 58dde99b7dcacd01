// With threads=N the CPU pipeline runs one loop of each large nest on an
// OpenMP team (the tiled convolution and dense loops, elementwise loop nests);
// the compiled loops' results equal the single-threaded code's bit for bit
// (blas=off). With the default blas=auto the dense and the convolution call
// OpenBLAS, whose threaded products are equal up to rounding only: its
// Haswell (AVX2) kernels give other last bits at two threads.
// RUN: raf-opt --raf-cpu-pipeline="threads=2" %s | FileCheck %s
// RUN: raf-opt --raf-cpu-pipeline %s | FileCheck %s --check-prefix=SINGLE
// RUN: rm -rf %t && mkdir -p %t
// RUN: raf-run %s --entry=net --target=cpu --threads=1 --seed=3 --output=%t/one.npy
// RUN: raf-run %s --entry=net --target=cpu --threads=2 --seed=3 --output=%t/two.npy
// RUN: raf-run %s --entry=net --target=interp --seed=3 --output=%t/ref.npy
// RUN: raf-run %s --entry=net --target=cpu --threads=1 --seed=3 --pipeline-options="blas=off" --output=%t/one-loops.npy
// RUN: raf-run %s --entry=net --target=cpu --threads=2 --seed=3 --pipeline-options="blas=off" --output=%t/two-loops.npy
// RUN: %python -c "import numpy as np; one, two, ref, one_loops, two_loops = (np.load('%t/' + k + '.npy') for k in ('one', 'two', 'ref', 'one-loops', 'two-loops')); assert np.array_equal(one_loops, two_loops); [np.testing.assert_allclose(v, ref, rtol=1e-4, atol=1e-4) for v in (one, two, one_loops)]; print('equal')" | FileCheck %s --check-prefix=NUMERICS
// CHECK: omp.parallel num_threads
// CHECK: omp.wsloop
// SINGLE-NOT: omp.
// NUMERICS: equal

func.func @net(%x: tensor<2x16x12x12xf32>, %w: tensor<32x16x3x3xf32>, %d: tensor<10x4608xf32>) -> tensor<2x10xf32> {
  %c = relay.nn.conv2d %x, %w {padding = array<i64: 1>} : (tensor<2x16x12x12xf32>, tensor<32x16x3x3xf32>)
  %r = relay.nn.relu %c : (tensor<2x32x12x12xf32>)
  %f = relay.reshape %r {newshape = array<i64: 2, 4608>} : (tensor<2x32x12x12xf32>) -> tensor<2x4608xf32>
  %y = relay.nn.dense %f, %d : (tensor<2x4608xf32>, tensor<10x4608xf32>)
  return %y : tensor<2x10xf32>
}
