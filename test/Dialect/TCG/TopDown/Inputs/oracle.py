"""NumPy oracle for the run tests (scalar-ops-run.mlir, transforms-run.mlir).

  oracle.py input X.npy             writes a seeded 2x8 float32 input
  oracle.py check KIND X.npy Y.npy  compares raf-run's result with NumPy
"""
import sys

import numpy as np


def expected(kind, x):
    if kind == "sigmoid":
        return 1.0 / (1.0 + np.exp(-x))
    if kind == "gram":
        return x @ x.T
    if kind == "softmax":
        e = np.exp(x - x.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)
    raise SystemExit("unknown kind " + kind)


def main():
    if sys.argv[1] == "input":
        rng = np.random.default_rng(21)
        np.save(sys.argv[2], rng.normal(scale=3.0, size=(2, 8)).astype(np.float32))
        return
    kind, x, y = sys.argv[2], np.load(sys.argv[3]), np.load(sys.argv[4])
    want = expected(kind, x.astype(np.float64))
    err = np.max(np.abs(y - want))
    # float32 results against a float64 reference.
    if y.shape != want.shape or not np.allclose(y, want, rtol=1e-5, atol=1e-6):
        raise SystemExit("%s: max error %g (shape %s)" % (kind, err, y.shape))
    print("%s: ok" % kind)


if __name__ == "__main__":
    main()
