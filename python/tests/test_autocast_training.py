"""Mixed-precision training steps (``--raf-training-pipeline amp=f16``) train
like the float32 ones.

Three models, each wrapped with its cross-entropy loss in one ``nn.Module``
and imported by the torch frontend in training mode: an MLP, a CNN (two
convolutions with batch norm, ReLU, max and average pooling, a dense head)
and a transformer encoder layer (``nn.TransformerEncoderLayer``: dense,
batch_matmul, softmax, layer norm, GELU; mean over the sequence, a dense
head). Each is compiled twice by ``raf-opt --raf-training-pipeline`` with
SGD (lr 0.1): in float32 and with ``amp=f16`` (``--raf-autocast`` on the
step). Both steps run 20 times from the same weights on the same 20
batches, on the reference evaluator (``raf-run --target=interp``, which
computes in double and rounds every f16 result to f16 on store) and on the
CPU (``--target=cpu``, compiled through LLVM; f16 arithmetic is computed in
f16 there, transcendental functions through f32).

So that the CPU path compiles once, the 20 steps are one function:
``@train_steps`` calls ``@train_step`` 20 times, feeding the new parameters
(and the updated batch-norm running statistics) into the next call, and
returns the 20 losses.

Checks:

* the AMP step's signature is the float32 step's (parameters, statistics
  and updated parameters stay f32, so the step can be iterated), and the
  step contains f16 casts and f16 matrix products;
* no loss is NaN or infinite;
* the float32 loss decreases (the last loss is below 70% of the first);
* the AMP losses are not bit-identical to the f32 ones (the step does
  compute in f16);
* the AMP loss after 20 steps is within ``TOLERANCE`` = 2% of the f32 loss
  after 20 steps, relative to the f32 loss. Observed (docs/autocast.md):
  at most 0.41% after 20 steps (CNN on cpu; MLP and transformer below
  0.05%), at most 0.46% at any step. A 5% bound would stand for RAF's
  criterion (RAF paper §5.2) that AMP reaches the f32 loss in the same
  number of steps; 2% keeps that with 4x headroom over the worst observed
  difference (libm and summation order differ between machines).

What this checks is that the AMP step trains: no overflow, no divergence,
parameters and states that stay f32 across steps. It does not check which
operators run in f16: on models this small, even a step with the losses,
softmax and normalisations forced into f16 stays within 0.3% of f32 after
20 steps (docs/autocast.md). The placement of the casts is checked by the
FileCheck tests in test/Dialect/Relay/AutoCast.

Run with:  /usr/bin/python3 -m pytest python/tests/test_autocast_training.py
"""

from __future__ import annotations

import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import List

import numpy as np
import pytest
import torch

from raf_tools import require_tools, REPO, RAF_OPT, RAF_RUN  # noqa: E402
sys.path.insert(0, str(REPO / "python"))  # runs without PYTHONPATH=python too

from raf_mlir.torch_frontend import import_module  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from amp_models import MODELS, make_case  # noqa: E402


require_tools(RAF_OPT, RAF_RUN)

STEPS = 20
LR = 0.1
TOLERANCE = 0.02


# ---------------------------------------------------------------------------
# Harness
# ---------------------------------------------------------------------------


def tensor_type(array: np.ndarray) -> str:
    element = {"float32": "f32", "int64": "i64"}[array.dtype.name]
    return "tensor<" + "".join(f"{d}x" for d in array.shape) + element + ">"


@dataclass
class Program:
    path: Path
    step_text: str  # the @train_step function
    arguments: List[np.ndarray]  # of @train_steps


def step_signature(text: str) -> str:
    match = re.search(r"func\.func @train_step\((.*?)\) -> \((.*?)\) attributes", text, re.S)
    assert match, "no @train_step in the pipeline output"
    return match.group(0)


def compile_steps(name: str, amp: str, directory: Path) -> Program:
    """Imports model ``name``, runs --raf-training-pipeline (with amp) and
    appends @train_steps, which runs STEPS steps and returns their losses."""
    case = make_case(name, STEPS)
    x0, labels0 = case.batches[0]
    imported = import_module(case.model, (torch.from_numpy(x0), torch.from_numpy(labels0)),
                             function_name="main", training=True)
    parameters = dict(case.model.named_parameters())
    params = [a for a in imported.arguments if a.name in parameters]
    others = [a for a in imported.arguments if a.name not in parameters]
    # Training-mode batch norm returns its updated running statistics after
    # the loss, in the order of the buffer arguments; they are fed back.
    buffers = [a for a in others if a.kind == "state"]
    num_aux = imported.num_results - 1
    assert len(buffers) == num_aux, (len(buffers), num_aux)
    values = dict(zip((a.name for a in imported.arguments), imported.argument_arrays()))

    forward = imported.write(directory / "forward")
    step_path = directory / "step.mlir"
    options = (f"requires-grad={','.join(str(p.index) for p in params)} "
               f"optimizer=sgd lr={LR} amp={amp}")
    result = subprocess.run([str(RAF_OPT), str(forward), "-o", str(step_path),
                             f"--raf-training-pipeline={options}"],
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, f"--raf-training-pipeline failed:\n{result.stderr[:4000]}"
    text = step_path.read_text()
    step_text = text[text.index("func.func @train_step"):]

    # @train_step(params, others) -> (loss, aux, params'); SGD has no state.
    arg_types = [tensor_type(values[a.name]) for a in params + others]
    result_types = (["tensor<f32>"] + [tensor_type(values[b.name]) for b in buffers] +
                    [tensor_type(values[p.name]) for p in params])
    x_type, labels_type = tensor_type(x0), tensor_type(labels0)
    header = ([f"%p{i}: {tensor_type(values[p.name])}" for i, p in enumerate(params)] +
              [f"%b{i}: {tensor_type(values[b.name])}" for i, b in enumerate(buffers)] +
              [f"%x{s}: {x_type}, %y{s}: {labels_type}" for s in range(STEPS)])
    body = []
    current = {p.name: f"%p{i}" for i, p in enumerate(params)}
    current.update({b.name: f"%b{i}" for i, b in enumerate(buffers)})
    for s in range(STEPS):
        inputs = {others[0].name: f"%x{s}", others[1].name: f"%y{s}"}
        operands = [current[p.name] for p in params] + [
            inputs.get(a.name, current.get(a.name)) for a in others]
        body.append(f"  %r{s}:{len(result_types)} = func.call @train_step("
                    f"{', '.join(operands)}) : ({', '.join(arg_types)}) -> "
                    f"({', '.join(result_types)})")
        for j, b in enumerate(buffers):
            current[b.name] = f"%r{s}#{1 + j}"
        for i, p in enumerate(params):
            current[p.name] = f"%r{s}#{1 + num_aux + i}"
    losses = ", ".join(f"%r{s}#0" for s in range(STEPS))
    wrapper = (f"func.func @train_steps({', '.join(header)}) -> "
               f"({', '.join(['tensor<f32>'] * STEPS)}) {{\n" + "\n".join(body) +
               f"\n  return {losses} : {', '.join(['tensor<f32>'] * STEPS)}\n}}\n")
    text = text.rstrip()
    assert text.endswith("}"), "expected the module to end with its closing brace"
    path = directory / "steps.mlir"
    path.write_text(text[:-1] + wrapper + "}\n")

    arguments = [values[p.name] for p in params] + [values[b.name] for b in buffers]
    for x, labels in case.batches:
        arguments += [x, labels]
    assert [a.name for a in others[:2]] == list(imported.inputs), "inputs come first"
    return Program(path, step_text, arguments)


def run_steps(program: Program, target: str, directory: Path) -> np.ndarray:
    command = [str(RAF_RUN), str(program.path), "--entry=train_steps", f"--target={target}"]
    for index, array in enumerate(program.arguments):
        path = directory / f"arg{index:03d}.npy"
        np.save(path, np.ascontiguousarray(array))
        command.append(f"--input={path}")
    outputs = [directory / f"loss{s:02d}.npy" for s in range(STEPS)]
    command += [f"--output={p}" for p in outputs]
    result = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, f"raf-run failed:\n{result.stderr[:4000]}"
    return np.array([float(np.load(p)) for p in outputs])


_programs = {}


def program(name: str, amp: str, tmp_path_factory) -> Program:
    key = (name, amp)
    if key not in _programs:
        _programs[key] = compile_steps(name, amp, tmp_path_factory.mktemp(f"{name}_{amp}"))
    return _programs[key]


# ---------------------------------------------------------------------------
# Tests
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", MODELS)
def test_amp_step_ir(name, tmp_path_factory):
    f32 = program(name, "none", tmp_path_factory)
    amp = program(name, "f16", tmp_path_factory)
    assert step_signature(amp.step_text) == step_signature(f32.step_text), \
        "AutoCast changed the step's signature"
    assert "f16" not in f32.step_text
    assert re.search(r"relay\.cast %\w+ \{dtype = f16\}", amp.step_text)
    assert re.search(r"relay\.nn\.(dense|conv2d|batch_matmul|matmul) .*-> tensor<[0-9x]*f16>",
                     amp.step_text), "no matrix product in f16"


@pytest.mark.parametrize("target", ["interp", "cpu"])
@pytest.mark.parametrize("name", MODELS)
def test_amp_training_matches_f32(name, target, tmp_path_factory):
    f32 = run_steps(program(name, "none", tmp_path_factory), target,
                    tmp_path_factory.mktemp(f"run_{name}_f32_{target}"))
    amp = run_steps(program(name, "f16", tmp_path_factory), target,
                    tmp_path_factory.mktemp(f"run_{name}_f16_{target}"))
    report = (f"{name} on {target}:\n  f32 {np.array2string(f32, precision=4)}\n"
              f"  f16 {np.array2string(amp, precision=4)}")
    print(report)
    assert np.isfinite(f32).all() and np.isfinite(amp).all(), "NaN or Inf loss\n" + report
    assert f32[-1] < 0.7 * f32[0], "the f32 loss does not decrease\n" + report
    assert not np.array_equal(f32, amp), "the AMP step computes exactly as f32\n" + report
    difference = abs(amp[-1] - f32[-1]) / f32[-1]
    assert difference <= TOLERANCE, (f"AMP loss after {STEPS} steps differs from f32 by "
                                     f"{difference:.2%}\n" + report)
