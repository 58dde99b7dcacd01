// With threads=N the CPU pipeline runs one loop of each large nest on an
// OpenMP team (the tiled convolution and dense loops, elementwise loop nests);
// results equal the single-threaded code's.
// RUN: raf-opt --raf-cpu-pipeline="threads=2" %s | FileCheck %s
// RUN: raf-opt --raf-cpu-pipeline %s | FileCheck %s --check-prefix=SINGLE
// RUN: rm -rf %t && mkdir -p %t
// RUN: raf-run %s --entry=net --target=cpu --threads=1 --seed=3 --output=%t/one.npy
// RUN: raf-run %s --entry=net --target=cpu --threads=2 --seed=3 --output=%t/two.npy
// RUN: raf-run %s --entry=net --target=interp --seed=3 --output=%t/ref.npy
// RUN: %python -c "import numpy as np; one, two, ref = (np.load('%t/' + k + '.npy') for k in ('one', 'two', 'ref')); assert np.array_equal(one, two); np.testing.assert_allclose(one, ref, rtol=1e-4, atol=1e-4); print('equal')" | FileCheck %s --check-prefix=NUMERICS
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
