"""Command line shared by the numeric checks of this directory.

    <script> generate DIR              write the inputs as .npy files
    <script> check DIR OUT.npy...      compare raf-run outputs with PyTorch

Each script defines `generate(directory)` and `reference(directory)` and
calls `main` with them.
"""

import os
import sys

import numpy as np


def check(expected, outputs, rtol, atol):
    failed = False
    for path in outputs:
        actual = np.load(path)
        name = os.path.splitext(os.path.basename(path))[0]
        if actual.shape != expected.shape:
            print(f"{name}: shape {actual.shape}, expected {expected.shape}")
            failed = True
            continue
        error = float(np.max(np.abs(actual - expected)))
        ok = np.allclose(actual, expected, rtol=rtol, atol=atol)
        print(f"{name}: max abs error {error:.3g} {'ok' if ok else 'MISMATCH'}")
        failed |= not ok
    return 1 if failed else 0


def main(generate, reference, rtol=1e-5, atol=1e-6):
    if sys.argv[1] == "generate":
        generate(sys.argv[2])
    else:
        sys.exit(check(reference(sys.argv[2]), sys.argv[3:], rtol, atol))
