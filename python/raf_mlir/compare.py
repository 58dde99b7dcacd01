"""Runs an imported module with ``raf-run`` and compares it with PyTorch.

``raf-run`` is invoked as::

    raf-run <file.mlir> --entry=<function> --target=<cpu|interp>
            --input=<arg0.npy> --input=<arg1.npy> ... --output=<r0.npy> ...

with one ``--input`` per function argument (model inputs, then weights, as
in ``manifest.json``) and one ``--output`` per result. The PyTorch reference
is the imported (eval-mode) module run on the same inputs.
"""

from __future__ import annotations

import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, List, Optional, Sequence, Union

import numpy as np
import torch

from raf_mlir.imported import ImportedModule
from raf_mlir.torch_frontend import _flatten_tensors


class RafRunError(RuntimeError):
    """``raf-run`` exited with a non-zero status."""


@dataclass
class Comparison:
    """Result of :func:`run_and_compare`.

    ``max_abs_error`` and ``max_rel_error`` are the maxima over all results
    of ``|raf - torch|`` and ``|raf - torch| / max(|torch|, tiny)``;
    ``ok`` says whether every result satisfies ``numpy.allclose`` with the
    given tolerances.
    """

    max_abs_error: float
    max_rel_error: float
    ok: bool
    outputs: List[np.ndarray]
    references: List[np.ndarray]
    command: List[str]

    def __str__(self) -> str:
        verdict = "match" if self.ok else "MISMATCH"
        return (f"{verdict}: max abs error {self.max_abs_error:.3g}, "
                f"max rel error {self.max_rel_error:.3g} over {len(self.outputs)} result(s)")


def _as_tuple(inputs: Union[torch.Tensor, np.ndarray, Sequence[Any]]) -> tuple:
    return (inputs,) if isinstance(inputs, (torch.Tensor, np.ndarray)) else tuple(inputs)


def _as_array(value: Union[torch.Tensor, np.ndarray]) -> np.ndarray:
    if isinstance(value, torch.Tensor):
        return value.detach().cpu().numpy()
    return np.asarray(value)


def run_raf(imported: ImportedModule,
            example_inputs: Union[torch.Tensor, np.ndarray, Sequence[Any]],
            raf_run_path: Union[str, Path], target: str = "cpu",
            workdir: Optional[Union[str, Path]] = None,
            timeout: Optional[float] = 1800) -> tuple:
    """Runs the imported function on ``example_inputs`` with ``raf-run``.

    The inputs are PyTorch tensors or numpy arrays, one per model input.

    Returns ``(outputs, command)``. Raises :class:`RafRunError` with
    raf-run's diagnostics when it fails.
    """
    inputs = _as_tuple(example_inputs)
    if len(inputs) != len(imported.inputs):
        raise ValueError(f"{len(inputs)} inputs given, the function takes {len(imported.inputs)}")
    with tempfile.TemporaryDirectory(prefix="raf-compare-") as scratch:
        directory = Path(workdir) if workdir is not None else Path(scratch)
        directory.mkdir(parents=True, exist_ok=True)
        mlir_path = imported.write(directory)
        # The given inputs replace the example inputs stored at import time.
        for info, tensor in zip(imported.arguments, inputs):
            np.save(directory / info.npy, _as_array(tensor))
        outputs = [directory / f"raf_output_{i}.npy"
                   for i in range(imported.num_results)]
        command = [str(raf_run_path), str(mlir_path), f"--entry={imported.function_name}",
                   f"--target={target}"]
        command += [f"--input={directory / info.npy}" for info in imported.arguments]
        command += [f"--output={path}" for path in outputs]
        process = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
        if process.returncode != 0:
            raise RafRunError(f"raf-run exited with {process.returncode}:\n"
                              f"{process.stderr.strip() or process.stdout.strip()}")
        return [np.load(path) for path in outputs], command


def run_and_compare(imported: ImportedModule,
                    example_inputs: Union[torch.Tensor, Sequence[torch.Tensor]],
                    raf_run_path: Union[str, Path], target: str = "cpu",
                    rtol: float = 1e-4, atol: float = 1e-4,
                    workdir: Optional[Union[str, Path]] = None) -> Comparison:
    """Runs ``imported`` with raf-run and compares with ``imported.model``.

    Args:
        imported: result of :func:`raf_mlir.torch_frontend.import_module`.
        example_inputs: the model inputs (same shapes and dtypes as at import).
        raf_run_path: the ``raf-run`` executable.
        target: ``cpu`` (LLVM JIT) or ``interp`` (reference evaluator).
        rtol, atol: tolerances of the ``ok`` verdict (``numpy.allclose``).
        workdir: keep the files there instead of a temporary directory.
    """
    outputs, command = run_raf(imported, example_inputs, raf_run_path, target, workdir)
    with torch.no_grad():
        references = [t.detach().cpu().numpy()
                      for t in _flatten_tensors(imported.model(*_as_tuple(example_inputs)))]
    if len(outputs) != len(references):
        raise ValueError(f"raf-run produced {len(outputs)} results, PyTorch {len(references)}")
    max_abs, max_rel, ok = 0.0, 0.0, True
    for out, ref in zip(outputs, references):
        if out.shape != ref.shape:
            raise ValueError(f"result shape {out.shape} differs from PyTorch's {ref.shape}")
        diff = np.abs(out.astype(np.float64) - ref.astype(np.float64))
        tiny = np.finfo(np.float32).tiny
        max_abs = max(max_abs, float(diff.max(initial=0.0)))
        max_rel = max(max_rel, float((diff / np.maximum(np.abs(ref), tiny)).max(initial=0.0)))
        ok = ok and bool(np.allclose(out, ref, rtol=rtol, atol=atol))
    return Comparison(max_abs, max_rel, ok, outputs, references, command)
