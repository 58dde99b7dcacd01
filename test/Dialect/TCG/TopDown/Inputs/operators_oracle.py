"""Inputs and PyTorch oracle for the seven operators of Rieber 2022,
Tab. 3.3 (bench/topdown/operators.mlir), used by topdown-embed-search.mlir,
and for the larger variants closer to the dissertation's operators
(bench/topdown/variants.mlir: expected_variants, used by
python/tests/test_topdown_solutions.py).

  operators_oracle.py inputs PREFIX
      writes PREFIX.<name>.npy inputs
  operators_oracle.py check SPLIT APPLIED UNTRANSFORMED PREFIX
      compares, per operator, the solution's statements run as plain
      kernels (SPLIT.<op>.npy), the strategy-applied ones
      (APPLIED.<op>.npy) and the untransformed kernel
      (UNTRANSFORMED.<op>.npy, where raf-run runs it) with PyTorch and
      the applied result with the other two
"""
import os
import sys

import numpy as np
import torch

SHAPES = {"x": (4, 8), "w": (6, 8), "b": (6,), "q": (4, 8), "k": (6, 8),
          "s": (1,), "data": (1, 6, 6, 4), "hwio": (3, 3, 4, 8),
          "blog": (8, 4), "u": (8, 4, 4), "cb": (8,)}


def inputs(prefix):
    rng = np.random.default_rng(2022)
    for name, shape in SHAPES.items():
        np.save("%s.%s.npy" % (prefix, name),
                rng.standard_normal(shape).astype(np.float32))


def expected(prefix):
    t = {n: torch.from_numpy(np.load("%s.%s.npy" % (prefix, n)))
         for n in SHAPES}
    fc = torch.nn.functional.linear(t["x"], t["w"], t["b"])
    conv = torch.nn.functional.conv2d(
        t["data"].permute(0, 3, 1, 2),
        t["hwio"].permute(3, 2, 0, 1)).permute(0, 2, 3, 1)
    # One routing iteration with the squash s |s|^2 / (1 + |s|^2) (the
    # operators' definition; no square root in tcg).
    s = (torch.softmax(t["blog"], 1)[:, :, None] * t["u"]).sum(0)
    n = (s * s).sum(1, keepdim=True)
    return {
        "fc_bias": fc,
        "fc_bias_sigmoid": torch.sigmoid(fc),
        "gemm": t["x"] @ t["w"].T,
        "attention": t["s"] * (t["q"] @ t["k"].T),
        "conv2d_nhwc": conv,
        "conv2d_relu_nhwc": torch.relu(conv),
        "capsule_routing": s * n / (1 + n),
    }


def routing(b, u, iterations):
    """Sabour et al. 2017, Procedure 1, with b as the initial logits and the
    squash s |s|^2 / (1 + |s|^2) of the operators."""
    for it in range(iterations):
        s = (torch.softmax(b, 1)[:, :, None] * u).sum(0)
        n = (s * s).sum(1, keepdim=True)
        v = s * n / (1 + n)
        if it + 1 < iterations:
            b = b + (u * v[None]).sum(2)
    return v


def expected_variants(prefix):
    """The operator variants of bench/topdown/variants.mlir, larger variants
    closer to the dissertation's operators: Conv2D with bias and same padding (Eqs. 2.1-2.4),
    with ReLU, and two routing iterations."""
    t = {n: torch.from_numpy(np.load("%s.%s.npy" % (prefix, n)))
         for n in SHAPES}
    conv = torch.nn.functional.conv2d(
        t["data"].permute(0, 3, 1, 2), t["hwio"].permute(3, 2, 0, 1),
        t["cb"], padding=1).permute(0, 2, 3, 1)
    return {
        "conv2d_bias_nhwc": conv,
        "conv2d_bias_relu_nhwc": torch.relu(conv),
        "capsule_routing_r2": routing(t["blog"], t["u"], 2),
    }


def close(got, want):
    return got.shape == want.shape and np.allclose(got, want, rtol=1e-4,
                                                   atol=1e-5)


def check(split, applied, untransformed, prefix):
    bad = 0
    for name, want in expected(prefix).items():
        want = want.numpy()
        a = np.load("%s.%s.npy" % (split, name))
        b = np.load("%s.%s.npy" % (applied, name))
        pairs = [("split vs torch", close(a, want)),
                 ("applied vs torch", close(b, want)),
                 ("applied vs split", close(b, a))]
        path = "%s.%s.npy" % (untransformed, name)
        if os.path.exists(path):
            pairs.append(("applied vs untransformed",
                          close(b, np.load(path))))
        verdicts = []
        for label, ok in pairs:
            verdicts.append(label + (" ok" if ok else " MISMATCH"))
            bad += not ok
        print("%s: %s" % (name, ", ".join(verdicts)))
    return bad


if __name__ == "__main__":
    if sys.argv[1] == "inputs":
        inputs(sys.argv[2])
    else:
        sys.exit(1 if check(*sys.argv[2:6]) else 0)
