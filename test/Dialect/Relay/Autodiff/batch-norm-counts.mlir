// Training batch norm's dgamma and dbeta are n times two batch means, n the
// count of values per channel, where n is a value of the element type; where
// it is not (65536 in f16, which ends at 65504) they are sums: the constant
// n would be inf. Checked on the reference interpreter against numpy.
// RUN: raf-opt --raf-autodiff="inline-backward=true requires-grad=0,1,2" %s -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir --implicit-check-not=0x7C00
// RUN: %python -c "import numpy as np; r = np.random.default_rng(3); np.save('%t.x.npy', r.standard_normal((1, 1, 256, 256)).astype(np.float16)); np.save('%t.r.npy', (r.standard_normal((1, 1, 256, 256)) * 0.01).astype(np.float16)); [np.save('%t.' + n + '.npy', np.full((1,), v, np.float16)) for n, v in (('g', 1.5), ('b', 0.0), ('m', 0.0), ('v', 1.0))]; np.save('%t.one.npy', np.float16(1))"
// RUN: raf-run %t.mlir --target=interp --input=%t.x.npy --input=%t.g.npy --input=%t.b.npy --input=%t.m.npy --input=%t.v.npy --input=%t.r.npy --input=%t.one.npy --output=%t.l.npy --output=%t.dx.npy --output=%t.dg.npy --output=%t.db.npy
// RUN: %python -c "import numpy as np; x = np.load('%t.x.npy').astype(np.float64); r = np.load('%t.r.npy').astype(np.float64); xhat = (x - x.mean()) / np.sqrt(x.var() + 1e-5); dg, db = np.load('%t.dg.npy'), np.load('%t.db.npy'); assert np.isfinite(dg).all() and np.isfinite(db).all(), (dg, db); np.testing.assert_allclose(db.astype(np.float64), [r.sum()], rtol=2e-2, atol=2e-2); np.testing.assert_allclose(dg.astype(np.float64), [(r * xhat).sum()], rtol=2e-2, atol=2e-2); print('finite and equal')" | FileCheck %s --check-prefix=VALUES

// CHECK-LABEL: func.func @main
// VALUES: finite and equal
func.func @main(%x: tensor<1x1x256x256xf16>, %g: tensor<1xf16>, %b: tensor<1xf16>, %m: tensor<1xf16>, %v: tensor<1xf16>, %r: tensor<1x1x256x256xf16>) -> tensor<f16> {
  %y:3 = relay.nn.batch_norm %x, %g, %b, %m, %v {training = true} : (tensor<1x1x256x256xf16>, tensor<1xf16>, tensor<1xf16>, tensor<1xf16>, tensor<1xf16>)
  %p = relay.multiply %y#0, %r : (tensor<1x1x256x256xf16>, tensor<1x1x256x256xf16>)
  %l = relay.sum %p : (tensor<1x1x256x256xf16>) -> tensor<f16>
  return %l : tensor<f16>
}
