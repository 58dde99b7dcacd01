"""Whole-model gradients of ``--raf-autodiff`` against PyTorch autograd.

Each model is wrapped with its loss in one ``nn.Module`` (so the loss is part
of the imported graph), imported with the torch frontend in training mode
(``import_module(..., training=True)``: batch norm uses batch statistics and
returns its updated running statistics as extra results), differentiated
with ``raf-opt --raf-autodiff="inline-backward=true requires-grad=<the
parameters>"`` and run by ``raf-run`` on both targets (``cpu``: compiled
through LLVM; ``interp``: the reference evaluator). The function
``@main(inputs..., weights..., %dy) -> (loss, running stats..., grads...)``
gets the weights PyTorch has and ``dy = 1``; the loss, every updated running
statistic and the gradient of every parameter are compared with PyTorch
autograd on the same weights and inputs (``loss.backward()``).

Models (the whole-model list of the autodiff issue):

* ``mlp``: Linear-ReLU-Linear, cross-entropy with integer class labels
  (``nn.log_softmax`` + ``nn.nll_loss``); ``mlp_soft_labels``: the same
  with class-probability targets (``nn.cross_entropy``);
* ``lenet``: LeNet-5 with batch norm after each convolution, max and average
  pooling, dense layers, cross-entropy; in training mode (batch statistics,
  updated running statistics compared too) and ``lenet_eval`` in eval mode
  (running statistics normalise, as when fine-tuning with frozen batch norm);
* ``transformer``: ``nn.TransformerEncoderLayer(d_model=32, nhead=4,
  dim_feedforward=64, dropout=0.0, activation="gelu", batch_first=True)``
  (dense, layer_norm, softmax, batch_matmul, gelu), mean over the sequence,
  a linear head and cross-entropy.

Tolerance. The reference is PyTorch in float64 (the same weights and inputs
converted exactly), so the comparison measures only our float32 error. A
float32 result that went through a few dozen operators and sums of up to a
few thousand terms (conv weight gradients sum over batch x H x W = 6272
products) carries a relative error of a few 1e-6 to 1e-5 of the magnitudes
summed, so each tensor must satisfy ``|ours - ref| <= rtol * |ref| + atol *
scale`` with ``rtol = 1e-4`` and ``atol = 1e-5``: 1e-4 relative per
element, and an absolute floor of 1e-5 of ``scale`` for elements that are
near zero because of cancellation (gradient entries are sums of terms of
both signs, so a near-zero entry has the error of its terms, not of
itself). ``scale`` is the tensor's largest element, and for a gradient at
least the model's largest gradient element (a convolution bias followed by
training-mode batch norm has an exactly zero gradient, computed as a sum of
cancelling terms of gradient size). The interpreter computes in double and rounds to
float32 per operator, so it is well inside this; the compiled path sums in
float32 in a different order than PyTorch. Gradients that are off by a
missing factor, a transposition or a wrong rule miss by orders of magnitude.

Generated-IR check (``test_gradient_ir``): the gradient function of each model
verifies with ``raf-opt``, has the inline signature (arguments + ``%dy``;
loss, auxiliary outputs, one gradient per parameter with the parameter's
type), carries ``raf.grad_params`` and contains no ``relay.fn`` closure.

Tools come from ``$RAF_BUILD_DIR/bin`` (default ``<repo>/build/bin``).
"""

from __future__ import annotations

import copy
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import List, Sequence, Tuple

import numpy as np
import pytest
import torch
import torch.nn as nn
import torch.nn.functional as F

from raf_tools import require_tools, REPO, RAF_OPT, RAF_RUN  # noqa: E402
sys.path.insert(0, str(REPO / "python"))  # runs without PYTHONPATH=python too

from raf_mlir.torch_frontend import import_module  # noqa: E402


require_tools(RAF_OPT, RAF_RUN)

TARGETS = ["cpu", "interp"]
RTOL = 1e-4
ATOL = 1e-5  # relative to the largest element of each compared tensor


# ---------------------------------------------------------------------------
# Models (each returns the scalar loss)
# ---------------------------------------------------------------------------


class MLP(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc1 = nn.Linear(20, 32)
        self.fc2 = nn.Linear(32, 10)

    def forward(self, x: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
        return F.cross_entropy(self.fc2(F.relu(self.fc1(x))), target)


class LeNet(nn.Module):
    """LeNet-5 (28x28 inputs) with batch norm after each convolution."""

    def __init__(self) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5, padding=2)
        self.bn1 = nn.BatchNorm2d(6)
        self.pool1 = nn.MaxPool2d(2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.bn2 = nn.BatchNorm2d(16)
        self.pool2 = nn.AvgPool2d(2)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)
        self.loss = nn.CrossEntropyLoss()

    def forward(self, x: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
        x = self.pool1(F.relu(self.bn1(self.conv1(x))))
        x = self.pool2(F.relu(self.bn2(self.conv2(x))))
        x = torch.flatten(x, 1)
        x = F.relu(self.fc2(F.relu(self.fc1(x))))
        return self.loss(self.fc3(x), labels)


class Transformer(nn.Module):
    """One encoder layer, mean over the sequence, a linear head."""

    def __init__(self) -> None:
        super().__init__()
        self.encoder = nn.TransformerEncoderLayer(d_model=32, nhead=4, dim_feedforward=64,
                                                  dropout=0.0, activation="gelu",
                                                  batch_first=True)
        self.head = nn.Linear(32, 5)

    def forward(self, x: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
        return F.cross_entropy(self.head(self.encoder(x).mean(dim=1)), labels)


def _randomize_batch_norms(model: nn.Module, generator: torch.Generator) -> None:
    """Non-trivial affine weights and running statistics."""
    for bn in model.modules():
        if isinstance(bn, nn.BatchNorm2d):
            c = bn.num_features
            bn.weight.data = torch.rand(c, generator=generator) + 0.5
            bn.bias.data = torch.randn(c, generator=generator) * 0.1
            bn.running_mean = torch.randn(c, generator=generator) * 0.1
            bn.running_var = torch.rand(c, generator=generator) + 0.5


@dataclass
class Case:
    model: nn.Module
    inputs: Tuple[torch.Tensor, ...]
    training: bool = True


def _case(name: str) -> Case:
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    if name in ("mlp", "mlp_soft_labels"):
        x = torch.randn(16, 20, generator=g)
        if name == "mlp":
            target = torch.randint(0, 10, (16,), generator=g)
        else:
            target = torch.softmax(torch.randn(16, 10, generator=g), dim=1)
        return Case(MLP(), (x, target))
    if name in ("lenet", "lenet_eval"):
        model = LeNet()
        _randomize_batch_norms(model, g)
        x = torch.randn(8, 1, 28, 28, generator=g)
        return Case(model, (x, torch.randint(0, 10, (8,), generator=g)),
                    training=name == "lenet")
    if name == "transformer":
        x = torch.randn(2, 8, 32, generator=g)
        return Case(Transformer(), (x, torch.randint(0, 5, (2,), generator=g)))
    raise KeyError(name)


MODELS = ["mlp", "mlp_soft_labels", "lenet", "lenet_eval", "transformer"]


# ---------------------------------------------------------------------------
# The shared harness
# ---------------------------------------------------------------------------


@dataclass
class GradientProgram:
    """A model's training graph: the gradient function and what to compare."""

    path: Path  # the output of --raf-autodiff
    text: str
    arguments: List[np.ndarray]  # inputs and weights, then dy
    grad_names: List[str]  # parameter names, in gradient order
    grad_indices: List[int]  # their argument indices
    num_aux: int  # results between the loss and the gradients
    imported_results: int


def differentiate(name: str, directory: Path) -> Tuple[GradientProgram, Case]:
    """Imports model ``name`` with its loss and runs --raf-autodiff on it."""
    case = _case(name)
    imported = import_module(case.model, case.inputs, function_name="main",
                             training=case.training)
    parameters = dict(case.model.named_parameters())
    grad_indices = [a.index for a in imported.arguments if a.name in parameters]
    grad_names = [imported.arguments[i].name for i in grad_indices]
    assert len(grad_names) == len(parameters), "every parameter must be an argument"
    forward = imported.write(directory / "forward")
    path = directory / "gradient.mlir"
    options = ("inline-backward=true requires-grad=" +
               ",".join(str(i) for i in grad_indices))
    result = subprocess.run([str(RAF_OPT), f"--raf-autodiff={options}", str(forward),
                             "-o", str(path)], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, f"--raf-autodiff failed:\n{result.stderr[:4000]}"
    arguments = imported.argument_arrays() + [np.ones((), np.float32)]
    program = GradientProgram(path, path.read_text(), arguments, grad_names, grad_indices,
                              imported.num_results - 1, imported.num_results)
    return program, case


def torch_reference(case: Case, names: Sequence[str]) -> Tuple[List[np.ndarray], List[str]]:
    """Loss, updated running statistics and parameter gradients by PyTorch
    autograd in float64 (on a copy: the model's buffers are left alone)."""
    model = copy.deepcopy(case.model).double()
    model.train(case.training)
    inputs = [t.double() if t.is_floating_point() else t for t in case.inputs]
    loss = model(*inputs)
    loss.backward()
    values = [loss.detach()]
    labels = ["loss"]
    if case.training:
        for module_name, bn in model.named_modules():
            if isinstance(bn, nn.BatchNorm2d):
                values += [bn.running_mean, bn.running_var]
                labels += [f"{module_name}.running_mean", f"{module_name}.running_var"]
    parameters = dict(model.named_parameters())
    values += [parameters[n].grad for n in names]
    labels += [f"d {n}" for n in names]
    return [v.detach().numpy() for v in values], labels


def run_raf(program: GradientProgram, target: str, directory: Path) -> List[np.ndarray]:
    command = [str(RAF_RUN), str(program.path), "--entry=main", f"--target={target}"]
    for index, array in enumerate(program.arguments):
        path = directory / f"arg{index:03d}.npy"
        np.save(path, array)
        command.append(f"--input={path}")
    outputs = [directory / f"out{i:03d}.npy"
               for i in range(1 + program.num_aux + len(program.grad_names))]
    command += [f"--output={p}" for p in outputs]
    result = subprocess.run(command, capture_output=True, text=True, timeout=1200)
    assert result.returncode == 0, f"raf-run failed:\n{result.stderr[:4000]}"
    return [np.load(p) for p in outputs]


def check_gradients(name: str, target: str, directory: Path) -> None:
    """The shared harness: every result of model ``name``'s gradient
    function on ``target`` against PyTorch; fails listing every mismatch."""
    program, case = differentiate(name, directory)
    references, labels = torch_reference(case, program.grad_names)
    outputs = run_raf(program, target, directory)
    assert len(outputs) == len(references), (len(outputs), labels)
    # A gradient's absolute floor scales with the model's largest gradient:
    # some gradients are exactly zero in exact arithmetic (a convolution bias
    # followed by training-mode batch norm, which subtracts the channel mean)
    # and come out as sums of terms of gradient size that cancel.
    num_grads = len(program.grad_names)
    grad_scale = max(float(np.abs(r).max(initial=0.0)) for r in references[-num_grads:])
    failures = []
    for k, (label, ours, ref) in enumerate(zip(labels, outputs, references)):
        if ours.shape != ref.shape or ours.dtype != np.float32:
            failures.append(f"{label}: got {ours.dtype}{list(ours.shape)}, "
                            f"expected float32{list(ref.shape)}")
            continue
        scale = float(np.abs(ref).max(initial=0.0))
        if k >= len(labels) - num_grads:
            scale = max(scale, grad_scale)
        error = np.abs(ours.astype(np.float64) - ref)
        bound = RTOL * np.abs(ref) + ATOL * scale
        if not np.isfinite(ours).all() or (error > bound).any():
            worst = np.unravel_index(np.argmax(error - bound), error.shape)
            failures.append(f"{label}: max abs error {error.max():.3g} (max |ref| {scale:.3g}); "
                            f"worst at {tuple(int(i) for i in worst)}: ours {ours[worst]!r}, "
                            f"torch {ref[worst]!r}")
    assert not failures, (f"{name} on {target}: {len(failures)} of {len(labels)} results "
                          "differ from PyTorch:\n  " + "\n  ".join(failures))


# ---------------------------------------------------------------------------
# Tests
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("name", MODELS)
def test_gradients_match_torch(name, target, tmp_path):
    check_gradients(name, target, tmp_path)


@pytest.mark.parametrize("name", MODELS)
def test_gradient_ir(name, tmp_path):
    program, case = differentiate(name, tmp_path)
    text = program.text
    verify = subprocess.run([str(RAF_OPT), str(program.path), "-o", os.devnull],
                            capture_output=True, text=True, timeout=600)
    assert verify.returncode == 0, f"the gradient function does not verify:\n{verify.stderr}"
    assert "relay.fn" not in text, "inline-backward=true left a closure"
    assert "relay.call" not in text
    header = re.search(r"func\.func @main\((.*?)\) -> \((.*?)\) attributes \{(.*?)\}\s*\{",
                       text, re.S)
    assert header, "no @main with results and attributes"
    arguments = re.findall(r"%\w+: (tensor<[^>]*>)", header.group(1))
    results = re.findall(r"tensor<[^>]*>", header.group(2))
    assert len(arguments) == len(program.arguments), "arguments + dy"
    assert arguments[-1] == "tensor<f32>", "dy has the loss's type"
    assert results[0] == "tensor<f32>"
    assert len(results) == 1 + program.num_aux + len(program.grad_indices)
    for k, index in enumerate(program.grad_indices):
        assert results[1 + program.num_aux + k] == arguments[index], program.grad_names[k]
    grad_params = re.search(r"raf\.grad_params = array<i64: ([\d, ]*)>", header.group(3))
    assert grad_params and [int(i) for i in grad_params.group(1).split(",")] == \
        program.grad_indices
