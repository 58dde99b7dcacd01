"""Accuracy of the CPU pipeline's approximations of erf, exp and tanh.

`--raf-cpu-pipeline` replaces f32 `math.erf`, `math.exp` and `math.tanh` by
MLIR's polynomial / rational approximations (`--raf-approximate-math`,
docs/lowering.md) so that GELU, softmax, sigmoid and tanh vectorise instead
of calling libm per element. Each case runs one relay operator over a dense
grid of its input range on `raf-run --target=cpu`, with the approximations
(the default) and without them (`approximate-math=0`, libm), and compares
both with a float64 reference. The bounds are the measured maxima rounded
up (docs/lowering.md quotes the measured values); libm's error is printed
beside them for scale (`pytest -s`).

Run with:  /usr/bin/python3 -m pytest python/tests/test_math_approximation.py
"""

import math
import subprocess

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from raf_tools import require_tools, RAF_RUN  # noqa: E402

require_tools(RAF_RUN)

N = 1 << 16


def grid(low, high):
    """N evenly spaced float32 points on [low, high], plus signed zeros and
    the smallest normal numbers (where relative error is the hard part)."""
    points = np.linspace(low, high, N, dtype=np.float64).astype(np.float32)
    tiny = np.array([0.0, -0.0, 1e-30, -1e-30, 1e-7, -1e-7, 1e-3, -1e-3],
                    np.float32)
    tiny = tiny[(tiny >= low) & (tiny <= high)]
    return np.concatenate([points, tiny])


def erf64(x):
    return np.vectorize(math.erf, otypes=[np.float64])(x)


def gelu64(x):
    return x * 0.5 * (1.0 + erf64(x / math.sqrt(2.0)))


def gelu_tanh64(x):
    return F.gelu(torch.from_numpy(x), approximate="tanh").numpy()


# (id, relay op, attributes, input range, float64 reference,
#  bound on max |got - want| / max(|want|, floor), floor).
# The floor turns relative into absolute error where the value is tiny:
# GELU's left tail is x * (1 + erf(x / sqrt 2)) / 2, a cancellation that
# libm's erff also resolves only to float32's absolute precision near -1.
CASES = [
    ("erf", "erf", "", (-6.0, 6.0), erf64, 1e-6, 1e-30),
    ("exp", "exp", "", (-87.0, 88.0), np.exp, 1e-6, 1e-30),
    ("tanh", "tanh", "", (-12.0, 12.0), np.tanh, 1e-6, 1e-30),
    ("sigmoid", "sigmoid", "", (-80.0, 80.0), lambda x: 1 / (1 + np.exp(-x)),
     1e-6, 1e-30),
    ("gelu_erf", "nn.gelu", "", (-10.0, 10.0), gelu64, 1e-6, 1.0),
    ("gelu_tanh", "nn.gelu",
     " {approximate = #relay.gelu_approximation<tanh>}", (-10.0, 10.0),
     gelu_tanh64, 1e-6, 1.0),
]


def run(tmp_path, op, attrs, x, options):
    n = x.shape[0]
    source = (f"func.func @main(%x: tensor<{n}xf32>) -> tensor<{n}xf32> {{\n"
              f"  %y = relay.{op} %x{attrs} : (tensor<{n}xf32>) -> "
              f"tensor<{n}xf32>\n"
              f"  return %y : tensor<{n}xf32>\n}}\n")
    (tmp_path / "case.mlir").write_text(source)
    np.save(tmp_path / "x.npy", x)
    command = [str(RAF_RUN), str(tmp_path / "case.mlir"), "--entry=main",
               "--target=cpu", f"--input={tmp_path / 'x.npy'}",
               f"--output={tmp_path / 'y.npy'}"]
    if options:
        command.append(f"--pipeline-options={options}")
    process = subprocess.run(command, capture_output=True, text=True,
                             timeout=600)
    assert process.returncode == 0, process.stderr
    return np.load(tmp_path / "y.npy").astype(np.float64)


def worst(got, want, floor):
    error = np.abs(got - want) / np.maximum(np.abs(want), floor)
    index = int(np.argmax(error))
    return float(error[index]), index


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_approximation_accuracy(case, tmp_path):
    name, op, attrs, (low, high), reference, bound, floor = case
    x = grid(low, high)
    want = reference(x.astype(np.float64))
    approximated = run(tmp_path, op, attrs, x, "")
    libm = run(tmp_path, op, attrs, x, "approximate-math=0")
    error, at = worst(approximated, want, floor)
    libm_error, _ = worst(libm, want, floor)
    print(f"\n{name} on [{low}, {high}]: approximation {error:.2e} "
          f"(at x = {x[at]:.6g}), libm {libm_error:.2e}")
    assert np.all(np.isfinite(approximated)), f"{name}: non-finite result"
    assert error <= bound, (
        f"{name}: error {error:.3e} at x = {x[at]!r} (got {approximated[at]!r}, "
        f"want {want[at]!r}; libm's worst {libm_error:.3e})")


def test_softmax_of_large_logits(tmp_path):
    """Softmax's exponentials after the max shift lie in (-inf, 0]; far
    below the max they underflow to 0 (the approximation flushes results
    below 2^-126 to zero), and rows must still sum to 1."""
    rng = np.random.default_rng(0)
    x = (rng.standard_normal((64, 128)) * 30).astype(np.float32)
    source = ("func.func @main(%x: tensor<64x128xf32>) -> tensor<64x128xf32> {\n"
              "  %y = relay.nn.softmax %x {axis = -1 : i64} : "
              "(tensor<64x128xf32>) -> tensor<64x128xf32>\n"
              "  return %y : tensor<64x128xf32>\n}\n")
    (tmp_path / "case.mlir").write_text(source)
    np.save(tmp_path / "x.npy", x)
    process = subprocess.run(
        [str(RAF_RUN), str(tmp_path / "case.mlir"), "--entry=main",
         "--target=cpu", f"--input={tmp_path / 'x.npy'}",
         f"--output={tmp_path / 'y.npy'}"],
        capture_output=True, text=True, timeout=600)
    assert process.returncode == 0, process.stderr
    got = np.load(tmp_path / "y.npy")
    want = torch.softmax(torch.from_numpy(x).double(), -1).numpy()
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-7)
