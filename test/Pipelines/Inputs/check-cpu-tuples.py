"""Compares cpu-tuples.mlir's outputs on --target=cpu and --target=interp,
and checks them against numpy."""
import sys

import numpy as np

d = sys.argv[1]
x = np.load(f"{d}/x.npy")


def load(name):
    cpu = np.load(f"{d}/{name}.cpu.npy")
    ref = np.load(f"{d}/{name}.ref.npy")
    assert cpu.dtype == ref.dtype and cpu.shape == ref.shape, name
    np.testing.assert_allclose(cpu, ref, rtol=1e-6, err_msg=name)
    return cpu


def close(actual, expected):
    np.testing.assert_allclose(actual, expected, rtol=1e-5)


close(load("pair"), np.exp(x) - x)
close(load("n0"), x.max())
close(load("n1"), x * x)
assert (load("n2") == x.astype(np.int32)).all()
assert (load("n3") == x.astype(np.int32)).all()
close(load("ct0"), 2 * np.exp(x))
close(load("ct1"), np.exp(x).sum())
close(load("cf0"), np.zeros(4, np.float32))
close(load("cf1"), np.float32(0))
print("match")
