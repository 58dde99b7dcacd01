"""NumPy oracle for the run tests (scalar-ops-run.mlir, transforms-run.mlir).

  oracle.py input X.npy [RxC] [negative]   writes a seeded float32 input
                                    (2x8); negative: every element < -1
  oracle.py check KIND X.npy Y.npy  compares raf-run's result with NumPy
  oracle.py check abt A.npy B.npy Y.npy   a @ b.T
  oracle.py check add A.npy B.npy Y.npy   a + b
  oracle.py check rowadd A.npy B.npy Y.npy   a + b[:, None]
  oracle.py check addmax A.npy B.npy Y.npy   max_k (a[:, k] + b[k])
  oracle.py check expmm A.npy B.npy Y.npy    exp(a) @ b
"""
import sys

import numpy as np


def expected(kind, x):
    if kind == "sigmoid":
        return 1.0 / (1.0 + np.exp(-x))
    if kind == "squares":
        return (x * x).sum(keepdims=True).reshape(1)
    if kind == "gram":
        return x @ x.T
    if kind == "rowsum":
        return x.sum(axis=1)
    if kind == "rowmax":
        return x.max(axis=1)
    if kind == "rowprod":
        return x.prod(axis=1)
    if kind == "thirdprod":
        return x[:, 0:21:3].prod(axis=1)
    if kind == "evenmax":
        return x[:, 0:12:2].max(axis=1)
    if kind == "shiftexp":
        # exp(n[x, y + 1]) + n[x, y], the shifted read zero past the end.
        e = np.zeros_like(x)
        e[:, :-1] = np.exp(x[:, 1:])
        return e + x
    if kind == "evensum4":
        return x[:, 0:8:2].sum(axis=1)
    if kind == "evensum":
        return x[:, ::2].sum(axis=1)
    if kind == "softmax":
        e = np.exp(x - x.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)
    raise SystemExit("unknown kind " + kind)


def main():
    if sys.argv[1] == "input":
        shape = (2, 8)
        if len(sys.argv) > 3:
            shape = tuple(int(d) for d in sys.argv[3].split("x"))
        rng = np.random.default_rng(21 + sum(shape))
        x = rng.normal(scale=3.0, size=shape)
        if len(sys.argv) > 4 and sys.argv[4] == "negative":
            x = -1.0 - np.abs(x)
        np.save(sys.argv[2], x.astype(np.float32))
        return
    kind = sys.argv[2]
    if kind in ("abt", "add", "rowadd", "addmax", "expmm"):
        a, b, y = (np.load(f) for f in sys.argv[3:6])
        a, b = a.astype(np.float64), b.astype(np.float64)
        want = {"abt": lambda: a @ b.T, "add": lambda: a + b,
                "rowadd": lambda: a + b[:, None],
                "addmax": lambda: (a + b[None, :]).max(axis=1),
                "expmm": lambda: np.exp(a) @ b}[kind]()
    else:
        x, y = np.load(sys.argv[3]), np.load(sys.argv[4])
        want = expected(kind, x.astype(np.float64))
    err = np.max(np.abs(y - want))
    # float32 results against a float64 reference.
    if y.shape != want.shape or not np.allclose(y, want, rtol=1e-5, atol=1e-6):
        raise SystemExit("%s: max error %g (shape %s)" % (kind, err, y.shape))
    print("%s: ok" % kind)


if __name__ == "__main__":
    main()
