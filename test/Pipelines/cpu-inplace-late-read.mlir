// Training steps whose 4-D parameters are updated in place
// (--raf-inplace-update) while their old values are still read after the
// update: the old weight summed after its update (@late), and two weights
// each updated from the other's old value (@swap). The vectoriser computes
// the updates on collapsed views; the in-place rewrite of those views is
// refused when a later op reads the parameter, so the step compiles and
// returns what the reference evaluator returns.
// RUN: rm -rf %t && mkdir -p %t
// RUN: raf-run %s --entry=late --target=cpu --seed=1 --output=%t/late0-cpu.npy --output=%t/late1-cpu.npy
// RUN: raf-run %s --entry=late --target=interp --seed=1 --output=%t/late0-ref.npy --output=%t/late1-ref.npy
// RUN: raf-run %s --entry=swap --target=cpu --seed=2 --output=%t/swap0-cpu.npy --output=%t/swap1-cpu.npy --output=%t/swap2-cpu.npy
// RUN: raf-run %s --entry=swap --target=interp --seed=2 --output=%t/swap0-ref.npy --output=%t/swap1-ref.npy --output=%t/swap2-ref.npy
// RUN: %python -c "import numpy as np, glob; [np.testing.assert_allclose(np.load(c), np.load(c.replace('-cpu', '-ref')), rtol=1e-5, atol=1e-5) for c in glob.glob('%t/*-cpu*.npy')]; print(len(glob.glob('%t/*-cpu*.npy')), 'equal')" | FileCheck %s
// CHECK: 5 equal

func.func @late(%w: tensor<4x3x3x3xf32> {raf.updatable}, %g: tensor<4x3x3x3xf32>)
    -> (tensor<f32>, tensor<4x3x3x3xf32> {raf.updates_arg = 0 : i64}) {
  %n = relay.subtract %w, %g : (tensor<4x3x3x3xf32>, tensor<4x3x3x3xf32>)
  %e = relay.exp %w : (tensor<4x3x3x3xf32>)
  %l = relay.sum %e : (tensor<4x3x3x3xf32>)
  return %l, %n : tensor<f32>, tensor<4x3x3x3xf32>
}

func.func @swap(%w: tensor<4x4x3x3xf32> {raf.updatable}, %v: tensor<4x4x3x3xf32> {raf.updatable}, %g: tensor<4x4x3x3xf32>)
    -> (tensor<f32>, tensor<4x4x3x3xf32> {raf.updates_arg = 0 : i64}, tensor<4x4x3x3xf32> {raf.updates_arg = 1 : i64}) {
  %l = relay.sum %g : (tensor<4x4x3x3xf32>)
  %n = relay.subtract %v, %g : (tensor<4x4x3x3xf32>, tensor<4x4x3x3xf32>)
  %k = relay.add %w, %g : (tensor<4x4x3x3xf32>, tensor<4x4x3x3xf32>)
  return %l, %n, %k : tensor<f32>, tensor<4x4x3x3xf32>, tensor<4x4x3x3xf32>
}
