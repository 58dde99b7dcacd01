"""Inputs and PyTorch oracle for fused.mlir.

  oracle.py inputs PREFIX   writes PREFIX.<name>.npy inputs
  oracle.py check PREFIX    compares PREFIX.<operator>.npy with PyTorch
"""
import sys

import numpy as np
import torch


def inputs(prefix):
    rng = np.random.default_rng(21)
    shapes = {"x": (4, 8), "w": (6, 8), "b": (6,), "q": (4, 8), "k": (6, 8),
              "s": (1,), "data": (1, 6, 6, 4), "hwio": (3, 3, 4, 8),
              "blog": (8, 4), "u": (8, 4, 4)}
    for name, shape in shapes.items():
        np.save("%s.%s.npy" % (prefix, name),
                rng.standard_normal(shape).astype(np.float32))


def check(prefix):
    t = {n: torch.from_numpy(np.load("%s.%s.npy" % (prefix, n)))
         for n in ("x", "w", "b", "q", "k", "s", "data", "hwio", "blog", "u")}
    fc = torch.nn.functional.linear(t["x"], t["w"], t["b"])
    squash_s = (torch.softmax(t["blog"], 1)[:, :, None] * t["u"]).sum(0)
    n = (squash_s * squash_s).sum(1, keepdim=True)
    expected = {
        "fc_bias": fc,
        "fc_bias_sigmoid": torch.sigmoid(fc),
        "attention": t["s"] * (t["q"] @ t["k"].T),
        "conv2d_relu": torch.relu(torch.nn.functional.conv2d(
            t["data"].permute(0, 3, 1, 2),
            t["hwio"].permute(3, 2, 0, 1)).permute(0, 2, 3, 1)),
        "capsule_routing": squash_s * n / (1 + n),
    }
    for name, want in expected.items():
        got = np.load("%s.%s.npy" % (prefix, name))
        ok = got.shape == tuple(want.shape) and np.allclose(
            got, want.numpy(), rtol=1e-4, atol=1e-5)
        print("%s: %s" % (name, "ok" if ok else "MISMATCH %s" % (
            np.abs(got - want.numpy()).max() if got.shape == tuple(
                want.shape) else got.shape)))


if __name__ == "__main__":
    {"inputs": inputs, "check": check}[sys.argv[1]](sys.argv[2])
