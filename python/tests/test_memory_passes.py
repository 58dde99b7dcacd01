"""The memory passes on real training graphs, checked by running them.

For the gradient functions of an MLP, LeNet (conv, batch norm, pooling) and
a transformer encoder layer (``--raf-autodiff``, the models of
test_autodiff_vs_torch.py):

* the peak that ``--raf-memory-report`` computes equals the peak of live
  buffers the reference evaluator measures while running the function
  (``raf-run --print-peak-memory``), before and after each pass, so the
  analysis is checked against a measurement rather than trusted;
* ``--raf-rematerialize`` (both methods) at budgets from the unoptimised
  peak down to the smallest the heuristic reaches keeps the analysis' peak
  within the budget, records it in ``raf.remat.peak_bytes``, and leaves
  every output bit-identical, on the evaluator and compiled for the CPU;
* ``--raf-memory-schedule`` also leaves the outputs bit-identical.

Run with:  /usr/bin/python3 -m pytest python/tests/test_memory_passes.py
"""

import re
import subprocess
import sys
from pathlib import Path
from typing import List

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from raf_tools import RAF_OPT, RAF_RUN  # noqa: E402
from test_autodiff_vs_torch import differentiate  # noqa: E402

MODELS = ["mlp", "lenet", "transformer"]
# Whether recomputation can lower the peak at all (checked both ways, so a
# change in what the passes can do shows up here). The MLP's peak is the
# weight-gradient matmul: its operands are live by necessity and the only
# other large live tensor would be recomputed from the labels' one-hot
# constant, which is not an operator (RAF recomputes operator calls only).
# LeNet's peak is in the first batch norm's backward, where every large live
# tensor is an operand or derives from batch-norm results, which come from a
# multi-result op and are never recomputed: only 24 bytes can go (a
# per-channel tensor, recomputed after the peak with the chain that reads
# it).
GAINS = {"mlp": False, "lenet": True, "transformer": True}
# The small models' tensors are far below RAF's 1 MiB default.
MIN_TENSOR = "min-tensor-bytes=0"


def raf_opt(source: Path, output: Path, *options: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(RAF_OPT), str(source), "-o", str(output),
                           "--mlir-print-op-on-diagnostic=false", *options],
                          capture_output=True, text=True, timeout=600)


def analysed_peak(path: Path) -> int:
    result = raf_opt(path, Path("/dev/null"), "--raf-memory-report=entry=main")
    assert result.returncode == 0, result.stderr[:2000]
    match = re.search(r"@main: peak (\d+) bytes", result.stderr)
    assert match, result.stderr[:2000]
    return int(match.group(1))


def run(path: Path, arguments: List[np.ndarray], target: str, directory: Path,
        measure: bool = False):
    """Runs @main; returns (outputs, measured peak or None)."""
    command = [str(RAF_RUN), str(path), "--entry=main", f"--target={target}"]
    for index, array in enumerate(arguments):
        file = directory / f"arg{index:03d}.npy"
        np.save(file, array)
        command.append(f"--input={file}")
    prefix = directory / f"{path.stem}-{target}"
    result_types = re.search(r"func\.func @main\([^)]*\)\s*->\s*\(([^{]*)\)",
                             path.read_text(), re.S)
    num_results = result_types.group(1).count("tensor<") if result_types else 1
    outputs = [Path(f"{prefix}-out{i:03d}.npy") for i in range(num_results)]
    command += [f"--output={p}" for p in outputs]
    if measure:
        command.append("--print-peak-memory")
    result = subprocess.run(command, capture_output=True, text=True, timeout=1200)
    assert result.returncode == 0, f"raf-run failed:\n{result.stderr[:4000]}"
    peak = None
    if measure:
        match = re.search(r"peak live buffer bytes: (\d+)", result.stdout)
        assert match, result.stdout[-2000:]
        peak = int(match.group(1))
    return [np.load(p) for p in outputs], peak


def smallest_budget(path: Path, directory: Path) -> int:
    """The smallest budget the heuristic reaches, from its diagnostic."""
    result = raf_opt(path, directory / "unused.mlir",
                     f"--raf-rematerialize=budget=1 {MIN_TENSOR}")
    assert result.returncode != 0
    match = re.search(r"the smallest budget method=raf reaches for @main is (\d+) bytes",
                      result.stderr)
    assert match, result.stderr[:2000]
    return int(match.group(1))


def assert_identical(actual: List[np.ndarray], expected: List[np.ndarray], what: str):
    assert len(actual) == len(expected)
    for index, (a, e) in enumerate(zip(actual, expected)):
        assert a.dtype == e.dtype and a.shape == e.shape, f"{what}: result {index}"
        assert np.array_equal(a, e, equal_nan=True), f"{what}: result {index} differs"


@pytest.mark.parametrize("name", MODELS)
def test_analysis_matches_measurement_and_remat_preserves_results(name, tmp_path):
    program, _ = differentiate(name, tmp_path)
    source = program.path
    peak = analysed_peak(source)
    reference, measured = run(source, program.arguments, "interp", tmp_path, measure=True)
    assert measured == peak, f"{name}: analysis {peak} != evaluator {measured}"
    cpu_reference, _ = run(source, program.arguments, "cpu", tmp_path)

    smallest = smallest_budget(source, tmp_path)
    assert (smallest < peak) == GAINS[name], (name, smallest, peak)
    budgets = sorted({peak, smallest + (peak - smallest) // 2, smallest}, reverse=True)
    for method in ("raf", "optimal"):
        for budget in budgets:
            out = tmp_path / f"remat-{method}-{budget}.mlir"
            result = raf_opt(source, out, f"--raf-rematerialize=budget={budget} "
                             f"method={method} {MIN_TENSOR} time-limit-ms=20000")
            if result.returncode != 0:
                # The exact model may not reach the heuristic's smallest
                # budget (it counts every clone of a stage at once); it must
                # then say what it can reach.
                assert method == "optimal" and budget == smallest, result.stderr[:2000]
                assert "the smallest budget method=optimal reaches" in result.stderr
                continue
            text = out.read_text()
            recorded = int(re.search(r"raf.remat.peak_bytes = (\d+)", text).group(1))
            after = analysed_peak(out)
            assert after == recorded and after <= budget, (name, method, budget)
            outputs, measured = run(out, program.arguments, "interp", tmp_path, measure=True)
            assert measured == after, f"{name} {method} {budget}: evaluator {measured}"
            assert_identical(outputs, reference, f"{name} {method} budget={budget} interp")
            if budget == smallest and GAINS[name]:
                assert "raf.recomputed" in text
                outputs, _ = run(out, program.arguments, "cpu", tmp_path)
                assert_identical(outputs, cpu_reference, f"{name} {method} cpu")


@pytest.mark.parametrize("name", MODELS)
def test_memory_schedule_preserves_results(name, tmp_path):
    program, _ = differentiate(name, tmp_path)
    source = program.path
    reference, _ = run(source, program.arguments, "interp", tmp_path)
    out = tmp_path / "scheduled.mlir"
    # A threshold of 0 MiB moves every op whose balance is not zero.
    result = raf_opt(source, out, "--raf-memory-schedule=threshold-mb=0")
    assert result.returncode == 0, result.stderr[:2000]
    peak = analysed_peak(out)
    outputs, measured = run(out, program.arguments, "interp", tmp_path, measure=True)
    assert measured == peak
    assert_identical(outputs, reference, f"{name} scheduled")
