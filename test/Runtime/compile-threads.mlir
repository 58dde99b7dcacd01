// raf-run --target=cpu optimises and compiles the module with LLVM as
// parts, one per function compiled on its own (the C wrapper with the
// entry inlined, its packed wrapper, each kernel), on --compile-threads
// threads (default: every core). The parts, and so the objects, do not
// depend on the thread count: the archives the compile cache keeps for 1
// and 2 threads and for the default are the same bytes, and so are the
// results, which match the reference evaluator.
// RUN: rm -rf %t && mkdir -p %t
// RUN: raf-run %s --target=cpu --seed=2 --compile-threads=1 --compile-cache=%t/one --output=%t/one.npy
// RUN: raf-run %s --target=cpu --seed=2 --compile-threads=2 --compile-cache=%t/two --output=%t/two.npy
// RUN: raf-run %s --target=cpu --seed=2 --compile-cache=%t/default --output=%t/default.npy
// RUN: cmp %t/one/*.a %t/two/*.a
// RUN: cmp %t/one/*.a %t/default/*.a
// RUN: cmp %t/one.npy %t/two.npy
// RUN: cmp %t/one.npy %t/default.npy
// RUN: llvm-ar t %t/one/*.a | FileCheck %s --check-prefix=PARTS
// RUN: raf-run %s --target=interp --seed=2 --output=%t/ref.npy
// RUN: %python -c "import numpy as np; np.testing.assert_allclose(np.load('%t/one.npy'), np.load('%t/ref.npy'), rtol=1e-5, atol=1e-6); print('equal')" | FileCheck %s --check-prefix=EXEC
// The --help text names the option.
// RUN: raf-run --help | FileCheck %s --check-prefix=HELP
// PARTS: part0.o
// PARTS-NEXT: part1.o
// PARTS-NEXT: part2.o
// PARTS-NEXT: part3.o
// PARTS-NEXT: part4.o
// PARTS-NEXT: part5.o
// PARTS-NOT: part
// EXEC: equal
// HELP: --compile-threads=<n>

func.func @main(%x: tensor<4x16xf32>, %w: tensor<8x16xf32>, %g: tensor<16xf32>, %v: tensor<16xf32>) -> tensor<4x8xf32> {
  %e = relay.constant dense<1.0e-05> : tensor<f32>
  %s = relay.add %v, %e : (tensor<16xf32>, tensor<f32>) -> tensor<16xf32>
  %r = relay.rsqrt %s : (tensor<16xf32>) -> tensor<16xf32>
  %k = relay.multiply %g, %r : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  %y = relay.multiply %x, %k : (tensor<4x16xf32>, tensor<16xf32>) -> tensor<4x16xf32>
  %d = relay.nn.dense %y, %w : (tensor<4x16xf32>, tensor<8x16xf32>) -> tensor<4x8xf32>
  %p = relay.nn.softmax %d {axis = -1 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %p : tensor<4x8xf32>
}
