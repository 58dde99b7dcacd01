// relay.if becomes scf.if on the condition's element; the branches' operators
// are lowered in place. In the CPU pipeline, tuples built and taken apart in
// a function fold away first; the compiled code computes what the reference
// evaluator computes on both branches, nested conditionals included.
// RUN: raf-opt %s --canonicalize --convert-relay-to-linalg | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.arange(-2, 2, dtype=np.float32)); np.save('%t/t.npy', np.bool_(True)); np.save('%t/f.npy', np.bool_(False))"
// RUN: raf-run %s --entry=select --target=cpu --input=%t/x.npy --input=%t/t.npy --input=%t/f.npy --output=%t/tf.cpu.npy
// RUN: raf-run %s --entry=select --target=interp --input=%t/x.npy --input=%t/t.npy --input=%t/f.npy --output=%t/tf.ref.npy
// RUN: raf-run %s --entry=select --target=cpu --input=%t/x.npy --input=%t/f.npy --input=%t/t.npy --output=%t/ft.cpu.npy
// RUN: raf-run %s --entry=select --target=interp --input=%t/x.npy --input=%t/f.npy --input=%t/t.npy --output=%t/ft.ref.npy
// RUN: raf-run %s --entry=select --target=cpu --input=%t/x.npy --input=%t/f.npy --input=%t/f.npy --output=%t/ff.cpu.npy
// RUN: raf-run %s --entry=select --target=interp --input=%t/x.npy --input=%t/f.npy --input=%t/f.npy --output=%t/ff.ref.npy
// RUN: raf-run %s --entry=pair --target=cpu --input=%t/x.npy --output=%t/pair.cpu.npy
// RUN: raf-run %s --entry=pair --target=interp --input=%t/x.npy --output=%t/pair.ref.npy
// RUN: %python -c "import numpy as np; [np.testing.assert_allclose(np.load('%t/' + k + '.cpu.npy'), np.load('%t/' + k + '.ref.npy'), rtol=1e-6) for k in ('tf', 'ft', 'ff', 'pair')]; assert len({np.load('%t/' + k + '.cpu.npy').tobytes() for k in ('tf', 'ft', 'ff')}) == 3; print('match')" | FileCheck %s --check-prefix=NUMERICS
// NUMERICS: match

// CHECK-LABEL: func.func @select
// CHECK: %[[C:.*]] = tensor.extract %arg1[] : tensor<i1>
// CHECK: scf.if %[[C]] -> (tensor<4xf32>) {
// CHECK: linalg.generic
// CHECK: math.exp
// CHECK: scf.yield
// CHECK: } else {
// CHECK: tensor.extract %arg2[] : tensor<i1>
// CHECK: scf.if
// CHECK-NOT: relay.
func.func @select(%x: tensor<4xf32>, %c: tensor<i1>, %d: tensor<i1>) -> tensor<4xf32> {
  %r = relay.if %c : tensor<i1> -> (tensor<4xf32>) {
    %a = relay.exp %x : (tensor<4xf32>)
    relay.yield %a : tensor<4xf32>
  } else {
    %n = relay.if %d : tensor<i1> -> (tensor<4xf32>) {
      %b = relay.negative %x : (tensor<4xf32>)
      relay.yield %b : tensor<4xf32>
    } else {
      %b = relay.multiply %x, %x : (tensor<4xf32>, tensor<4xf32>)
      relay.yield %b : tensor<4xf32>
    }
    relay.yield %n : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// A tuple that never leaves the function (folded by the CPU pipeline's
// canonicalisation, as by --canonicalize above).
func.func @pair(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = relay.exp %x : (tensor<4xf32>)
  %t = relay.tuple(%x, %e) : tensor<4xf32>, tensor<4xf32>
  %a = relay.tuple_get %t[1] : tuple<tensor<4xf32>, tensor<4xf32>>
  %b = relay.add %a, %x : (tensor<4xf32>, tensor<4xf32>)
  return %b : tensor<4xf32>
}
