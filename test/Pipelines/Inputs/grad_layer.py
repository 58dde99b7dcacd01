"""Inputs and PyTorch reference for grad-layer.mlir.

  grad_layer.py generate DIR                 writes x, w, b (.npy) into DIR
  grad_layer.py check DIR Y GX GW GB (.npy)  compares raf-run's value and
                                             gradients with torch.autograd

The function is sum(tanh(dense(x, w) + b) * sigmoid(dense(x, w))): a matrix
product, a broadcast bias (its gradient is summed over the batch), a value
used twice, and a reduction to a scalar.
"""
import os
import sys

import numpy as np
import torch


def generate(directory):
    rng = np.random.default_rng(7)
    arrays = {
        "x": rng.uniform(-1, 1, (2, 3)),
        "w": rng.uniform(-1, 1, (4, 3)),
        "b": rng.uniform(-0.5, 0.5, (4,)),
    }
    for name, value in arrays.items():
        np.save(os.path.join(directory, name + ".npy"), value.astype(np.float32))


def reference(directory):
    load = lambda name: torch.from_numpy(
        np.load(os.path.join(directory, name + ".npy"))).requires_grad_()
    x, w, b = load("x"), load("w"), load("b")
    h = x @ w.T
    y = (torch.tanh(h + b) * torch.sigmoid(h)).sum()
    y.backward()
    return {"y": y.detach().numpy(), "gx": x.grad.numpy(),
            "gw": w.grad.numpy(), "gb": b.grad.numpy()}


def check(directory, outputs):
    expected = reference(directory)
    failed = False
    for name, path in zip(["y", "gx", "gw", "gb"], outputs):
        actual = np.load(path)
        if actual.shape != expected[name].shape:
            print(f"{name}: shape {actual.shape}, expected {expected[name].shape}")
            failed = True
            continue
        error = float(np.max(np.abs(actual - expected[name])))
        ok = np.allclose(actual, expected[name], rtol=1e-5, atol=1e-6)
        print(f"{name}: max abs error {error:.3g} {'ok' if ok else 'MISMATCH'}")
        failed |= not ok
    return 1 if failed else 0


if __name__ == "__main__":
    if sys.argv[1] == "generate":
        generate(sys.argv[2])
    else:
        sys.exit(check(sys.argv[2], sys.argv[3:]))
