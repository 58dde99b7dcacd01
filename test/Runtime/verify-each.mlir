// raf-run --target=cpu verifies the module when it is parsed and once after
// the last pass of --raf-cpu-pipeline; --verify-each verifies it after every
// pass as well (MLIR's pass manager default). Both compile the same code:
// the results agree with each other and with the reference evaluator.
// RUN: rm -rf %t && mkdir -p %t
// RUN: raf-run %s --target=cpu --seed=3 --no-compile-cache --output=%t/once.npy
// RUN: raf-run %s --target=cpu --seed=3 --no-compile-cache --verify-each --output=%t/each.npy
// RUN: raf-run %s --target=interp --seed=3 --output=%t/ref.npy
// RUN: %python -c "import numpy as np; a, b, r = (np.load('%t/' + n + '.npy') for n in ('once', 'each', 'ref')); assert (a == b).all(); np.testing.assert_allclose(a, r, rtol=1e-5, atol=1e-6); print('equal')" | FileCheck %s
// CHECK: equal
// RUN: raf-run --help | FileCheck %s --check-prefix=HELP
// HELP: --verify-each {{.*}}after every pass of --raf-cpu-pipeline

func.func @main(%x: tensor<4x16xf32>, %w: tensor<8x16xf32>) -> tensor<4x8xf32> {
  %d = relay.nn.dense %x, %w : (tensor<4x16xf32>, tensor<8x16xf32>) -> tensor<4x8xf32>
  %p = relay.nn.softmax %d {axis = -1 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %p : tensor<4x8xf32>
}
