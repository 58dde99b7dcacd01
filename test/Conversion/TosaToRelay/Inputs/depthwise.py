"""Inputs and PyTorch reference for run-depthwise.mlir.

  depthwise.py generate DIR           writes x, w, b (.npy) into DIR
  depthwise.py check DIR OUT.npy...   compares each output with PyTorch

TOSA depthwise weights are [KH, KW, C, M] and output channel c * M + m;
PyTorch's grouped conv2d weight is [C * M, 1, KH, KW] in the same channel
order. Padding lists are TOSA's [top, bottom, left, right]; torch's F.pad
takes (left, right, top, bottom).
"""
import os

import numpy as np
import torch
import torch.nn.functional as F

from harness import main


def generate(directory):
    rng = np.random.default_rng(11)
    arrays = {
        "x": rng.uniform(-1, 1, (1, 6, 7, 2)),
        "w": rng.uniform(-1, 1, (3, 2, 2, 3)),
        "b": rng.uniform(-0.5, 0.5, (6,)),
    }
    for name, value in arrays.items():
        np.save(os.path.join(directory, name + ".npy"), value.astype(np.float32))


def reference(directory):
    load = lambda name: torch.from_numpy(np.load(os.path.join(directory, name + ".npy")))
    x, w, b = load("x"), load("w"), load("b")
    kh, kw, c, m = w.shape
    weight = w.reshape(kh, kw, c * m).permute(2, 0, 1).unsqueeze(1)
    data = F.pad(x.permute(0, 3, 1, 2), (0, 1, 2, 0))  # top 2, bottom 0, left 0, right 1
    dw = F.conv2d(data, weight, b, groups=c)
    # Average over the taps inside the input only: sum of the zero-padded
    # input divided by the count of real taps.
    pad = (0, 2, 1, 0)  # top 1, bottom 0, left 0, right 2
    total = F.avg_pool2d(F.pad(dw, pad), 3, stride=(2, 1), divisor_override=1)
    count = F.avg_pool2d(F.pad(torch.ones_like(dw), pad), 3, stride=(2, 1),
                         divisor_override=1)
    avg = (total / count).permute(0, 2, 3, 1)  # back to NHWC
    sliced = avg[0:1, 1:3, 2:7, 0:6]
    padded = F.pad(sliced, (0, 0, 0, 0, 1, 2), value=-1.0)
    t = padded.permute(3, 0, 2, 1)
    cat = torch.cat([t, t], dim=3)
    return cat[:, :, :, 2:9].numpy()


if __name__ == "__main__":
    main(generate, reference, rtol=1e-5, atol=1e-5)
