"""Inputs and PyTorch reference for network.mlir.

  network.py generate DIR           writes x, w, b, fc (.npy) into DIR
  network.py check DIR OUT.npy...   compares each output with PyTorch

TOSA's layouts are NHWC data and OHWI weights; PyTorch's conv2d takes NCHW
and OIHW, so the reference permutes to PyTorch's layouts and back.
"""
import os

import numpy as np
import torch

from harness import main


def generate(directory):
    rng = np.random.default_rng(7)
    arrays = {
        "x": rng.uniform(-1, 1, (1, 8, 8, 3)),
        "w": rng.uniform(-1, 1, (4, 3, 3, 3)),
        "b": rng.uniform(-0.5, 0.5, (4,)),
        "fc": rng.uniform(-0.5, 0.5, (1, 64, 10)),
    }
    for name, value in arrays.items():
        np.save(os.path.join(directory, name + ".npy"), value.astype(np.float32))


def reference(directory):
    load = lambda name: torch.from_numpy(np.load(os.path.join(directory, name + ".npy")))
    x, w, b, fc = load("x"), load("w"), load("b"), load("fc")
    conv = torch.nn.functional.conv2d(
        x.permute(0, 3, 1, 2), w.permute(0, 3, 1, 2), b, padding=1)
    relu6 = torch.clamp(conv, 0.0, 6.0)
    pool = torch.nn.functional.max_pool2d(relu6, 2, 2).permute(0, 2, 3, 1)
    flat = pool.reshape(1, 1, 64)
    fc_bias = torch.tensor(
        [0.1, -0.2, 0.3, -0.4, 0.5, -0.6, 0.7, -0.8, 0.9, -1.0]).reshape(1, 1, 10)
    logits = torch.bmm(flat, fc) + fc_bias
    return torch.softmax(logits, dim=2).numpy()


if __name__ == "__main__":
    main(generate, reference, rtol=1e-5, atol=1e-6)
