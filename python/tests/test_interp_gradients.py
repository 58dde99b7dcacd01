"""Gradients of whole training steps and of ResNet-18's awkward layer shapes,
on the reference evaluator (``raf-run --target=interp``) and on compiled
code (``--target=cpu``), against PyTorch autograd.

ResNet-18 on 64x64 images ends on 2x2 feature maps: its last stage runs 3x3
convolutions with padding 1 whose kernel is larger than the map, a stride-2
3x3 and a 1x1 stride-2 downsample convolution from 4x4 to 2x2, and batch
norm over only N*H*W = 8 values per channel. There the gradient rules emit
unusual operator shapes: the weight gradient of the 3x3 convolution is a
convolution of a 2x2 input with a 2x2 "kernel" (the output gradient) padded
to a 3x3 result; those of the stride-2 convolutions are dilated by 2 and
sliced back to the kernel size; the data gradients are transposed
convolutions with an output_padding of 1; batch norm's input gradient is a
difference of means over 8 values.

Single layers (``test_layer_gradients``): each case is one layer ``f`` with
the loss ``sum(f(args) * r)`` for a random ``r`` (so the whole
vector-Jacobian product is checked, element by element), differentiated by
``raf-opt --raf-autodiff`` exactly as a model's training graph is, run on the
evaluator, and compared with autograd in float64. Besides the last stage's
layers, the stem's 7x7 stride-2 convolution and 3x3 stride-2 max pooling
are covered.

Whole model (``test_resnet18_gradients``): torchvision's ResNet-18 with
cross-entropy, imported in training mode at 2x3x64x64 and checked as the
models of ``test_autodiff_vs_torch.py`` are (loss, updated running
statistics, every parameter gradient; same tolerances), on both targets;
MobileNetV2 and an LSTM classifier likewise (``test_whole_model_gradients``,
tolerances explained at ``WHOLE_MODELS``). The image size matters: at 32x32 the last stage's maps are 1x1 and batch norm
normalises 2 values per channel, which it maps to about -1 and 1 whatever
they are; its input gradient is then proportional to eps / (var + eps) and
comes out of a cancellation float32 cannot resolve (PyTorch's own float32
autograd differs from float64 by up to 0.29 of the largest entry in the last
stage's weight gradients there, the evaluator by 0.014), so no float32
program can meet the tolerance at that size. A report of wrong evaluator
gradients of ResNet-18 matches this comparison (``test_resnet18_gradients``).

Tolerance of the single layers. The evaluator accumulates every operator in
double and rounds its result to float32 once, so a convolution or pooling
gradient is within an ulp or two of the float64 reference: each element must
satisfy ``|ours - ref| <= 1e-5 * |ref| + 1e-6 * max|ref|``, ten times tighter
than the whole-model check and four orders of magnitude below what a wrong
index, padding, stride or formula costs. Batch norm's gradient goes through a
dozen operators, each rounded to float32, and recomputes ``x - mean(x)`` from
the rounded mean: over few values per channel that difference cancels (two
values 0.01 apart leave it with a relative error of ~1e-5), so batch norm is
held to the whole-model tolerance (1e-4 and 1e-5).
"""

from __future__ import annotations

import subprocess
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, List, Sequence

import numpy as np
import pytest
import torch
import torch.nn as nn
import torch.nn.functional as F

from raf_tools import require_tools, RAF_OPT, RAF_RUN  # noqa: E402

require_tools(RAF_OPT, RAF_RUN)

import test_autodiff_vs_torch as whole_model  # noqa: E402
import training_models  # noqa: E402

# (rtol, atol); atol is relative to the largest element of each tensor.
TOLERANCE = (1e-5, 1e-6)
CANCELLING_TOLERANCE = (whole_model.RTOL, whole_model.ATOL)


# ---------------------------------------------------------------------------
# Single layers
# ---------------------------------------------------------------------------


def tensor_type(shape: Sequence[int]) -> str:
    return "tensor<" + "".join(f"{d}x" for d in shape) + "f32>"


@dataclass
class Layer:
    """A layer ``relay.<op> %a0, %a1, ... {attrs}`` and its PyTorch twin.

    ``shapes`` are the layer's float arguments; ``torch_fn`` takes them (as
    float64 tensors) and returns the layer's output; ``results`` is the
    number of results the relay operator has (batch norm: 3, of which the
    first is the output).
    """

    id: str
    op: str
    shapes: List[Sequence[int]]
    torch_fn: Callable[..., torch.Tensor]
    attrs: str = ""
    results: int = 1
    # (low, high) of each argument's uniform distribution (default [-1, 1)).
    ranges: Sequence[tuple] = ()
    tolerance: tuple = TOLERANCE


def conv_attrs(stride: int, padding: int) -> str:
    return (f"strides = array<i64: {stride}, {stride}>, "
            f"padding = array<i64: {padding}, {padding}>")


def batch_norm_training(x, gamma, beta, mean, var):
    # F.batch_norm updates the running statistics in place; they are not
    # differentiated, so copies keep the arguments intact.
    return F.batch_norm(x, mean.detach().clone(), var.detach().clone(), gamma,
                        beta, training=True, momentum=0.1, eps=1e-5)


# x, gamma, beta, moving mean, moving variance (positive).
STATISTICS = [(-1, 1), (0.5, 1.5), (-1, 1), (-1, 1), (0.5, 1.5)]

LAYERS = [
    # layer4.x.conv1 / conv2: a 3x3 kernel over a 2x2 map with padding 1.
    Layer("layer4_conv3x3", "nn.conv2d", [(2, 512, 2, 2), (512, 512, 3, 3)],
          lambda x, w: F.conv2d(x, w, stride=1, padding=1), conv_attrs(1, 1)),
    # layer4.0.conv1: 4x4 -> 2x2, stride 2.
    Layer("layer4_conv3x3_stride2", "nn.conv2d",
          [(2, 256, 4, 4), (512, 256, 3, 3)],
          lambda x, w: F.conv2d(x, w, stride=2, padding=1), conv_attrs(2, 1)),
    # layer4.0.downsample.0: 1x1, stride 2, no padding.
    Layer("layer4_downsample1x1_stride2", "nn.conv2d",
          [(2, 256, 4, 4), (512, 256, 1, 1)],
          lambda x, w: F.conv2d(x, w, stride=2), conv_attrs(2, 0)),
    # Every layer4 batch norm: 8 values per channel.
    Layer("layer4_batch_norm_training", "nn.batch_norm",
          [(2, 512, 2, 2), (512,), (512,), (512,), (512,)],
          lambda x, g, b, m, v: batch_norm_training(x, g, b, m, v),
          "training = true", results=3, ranges=STATISTICS,
          tolerance=CANCELLING_TOLERANCE),
    # The smallest batch norm PyTorch trains: 2 values per channel.
    Layer("batch_norm_training_two_values", "nn.batch_norm",
          [(2, 16, 1, 1), (16,), (16,), (16,), (16,)],
          lambda x, g, b, m, v: batch_norm_training(x, g, b, m, v),
          "training = true", results=3, ranges=STATISTICS,
          tolerance=CANCELLING_TOLERANCE),
    # Without scale and shift (PyTorch's affine=False): the input
    # gradient's per-channel coefficient is rstd alone, and gamma and beta
    # get none.
    Layer("batch_norm_training_no_affine", "nn.batch_norm",
          [(2, 8, 3, 3), (8,), (8,), (8,), (8,)],
          lambda x, g, b, m, v: F.batch_norm(
              x, m.detach().clone(), v.detach().clone(), None, None,
              training=True, momentum=0.1, eps=1e-5),
          "training = true, scale = false, center = false", results=3,
          ranges=STATISTICS, tolerance=CANCELLING_TOLERANCE),
    # The stem: 7x7 stride 2 padding 3, then 3x3 stride-2 max pooling.
    Layer("stem_conv7x7_stride2", "nn.conv2d", [(2, 3, 64, 64), (64, 3, 7, 7)],
          lambda x, w: F.conv2d(x, w, stride=2, padding=3), conv_attrs(2, 3)),
    Layer("stem_max_pool3x3_stride2", "nn.max_pool2d", [(2, 64, 32, 32)],
          lambda x: F.max_pool2d(x, 3, stride=2, padding=1),
          "pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>, "
          "padding = array<i64: 1, 1>"),
]


def layer_arguments(layer: Layer) -> List[np.ndarray]:
    rng = np.random.default_rng(zlib.crc32(layer.id.encode()))
    ranges = layer.ranges or [(-1, 1)] * len(layer.shapes)
    return [rng.uniform(low, high, shape).astype(np.float32)
            for shape, (low, high) in zip(layer.shapes, ranges)]


def layer_forward(layer: Layer, output_shape: Sequence[int]) -> str:
    """``@main(args..., %r) -> sum(layer(args) * r)``."""
    types = [tensor_type(s) for s in layer.shapes]
    out = tensor_type(output_shape)
    args = ", ".join(f"%a{i}: {t}" for i, t in enumerate(types))
    operands = ", ".join(f"%a{i}" for i in range(len(types)))
    attrs = f" {{{layer.attrs}}}" if layer.attrs else ""
    lhs = "%y" if layer.results == 1 else f"%y:{layer.results}"
    y = "%y" if layer.results == 1 else "%y#0"
    return (
        f"func.func @main({args}, %r: {out}) -> tensor<f32> {{\n"
        f"  {lhs} = relay.{layer.op} {operands}{attrs} : ({', '.join(types)})\n"
        f"  %p = relay.multiply {y}, %r : ({out}, {out})\n"
        f"  %l = relay.sum %p : ({out}) -> tensor<f32>\n"
        f"  return %l : tensor<f32>\n"
        "}\n")


def run_checked(command: List[str]) -> subprocess.CompletedProcess:
    result = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, (f"{Path(command[0]).name} failed:\n"
                                    f"{result.stderr[:4000]}")
    return result


def compare(label: str, ours: np.ndarray, ref: np.ndarray,
            tolerance: tuple) -> List[str]:
    """The elements of ``ours`` outside ``tolerance``, described."""
    rtol, atol = tolerance
    if ours.shape != ref.shape or ours.dtype != np.float32:
        return [f"{label}: got {ours.dtype}{list(ours.shape)}, expected "
                f"float32{list(ref.shape)}"]
    scale = float(np.abs(ref).max(initial=0.0))
    error = np.abs(ours.astype(np.float64) - ref)
    bound = rtol * np.abs(ref) + atol * scale
    if np.isfinite(ours).all() and (error <= bound).all():
        return []
    worst = np.unravel_index(np.argmax(error - bound), error.shape)
    return [f"{label}: {int((error > bound).sum())} of {error.size} elements "
            f"differ, max abs error {error.max():.3g} (max |ref| {scale:.3g}); "
            f"worst at {tuple(int(i) for i in worst)}: ours {ours[worst]!r}, "
            f"torch {ref[worst]!r}"]


@pytest.mark.parametrize("layer", LAYERS, ids=[l.id for l in LAYERS])
def test_layer_gradients(layer, tmp_path):
    arrays = layer_arguments(layer)
    inputs = [torch.from_numpy(a.astype(np.float64)).requires_grad_()
              for a in arrays]
    output = layer.torch_fn(*inputs)
    rng = np.random.default_rng(zlib.crc32(layer.id.encode()) + 1)
    r = rng.uniform(-1, 1, tuple(output.shape)).astype(np.float32)
    (output * torch.from_numpy(r.astype(np.float64))).sum().backward()

    # Batch norm's moving statistics do not reach the output in training
    # mode: their gradients are zero, as autograd's None.
    references = [t.grad.numpy() if t.grad is not None else np.zeros(t.shape)
                  for t in inputs]
    forward = tmp_path / "forward.mlir"
    forward.write_text(layer_forward(layer, tuple(output.shape)))
    gradient = tmp_path / "gradient.mlir"
    requires = ",".join(str(i) for i in range(len(arrays)))
    run_checked([str(RAF_OPT), str(forward), "-o", str(gradient),
                 f"--raf-autodiff=inline-backward=true requires-grad={requires}"])

    command = [str(RAF_RUN), str(gradient), "--entry=main", "--target=interp"]
    for i, array in enumerate(arrays + [r, np.ones((), np.float32)]):
        path = tmp_path / f"arg{i}.npy"
        np.save(path, array)
        command.append(f"--input={path}")
    outputs = [tmp_path / f"out{i}.npy" for i in range(1 + len(arrays))]
    command += [f"--output={p}" for p in outputs]
    run_checked(command)

    failures = compare("loss", np.load(outputs[0]),
                       np.asarray(float((output.detach() *
                                         torch.from_numpy(r.astype(np.float64)))
                                        .sum())), layer.tolerance)
    for i, (path, ref) in enumerate(zip(outputs[1:], references)):
        failures += compare(f"d arg{i} {list(layer.shapes[i])}", np.load(path),
                            ref, layer.tolerance)
    assert not failures, (f"{layer.id} on interp differs from PyTorch:\n  " +
                          "\n  ".join(failures))


# ---------------------------------------------------------------------------
# The whole model
# ---------------------------------------------------------------------------


class WithLoss(nn.Module):
    """A classifier with cross-entropy."""

    def __init__(self, net: nn.Module) -> None:
        super().__init__()
        self.net = net

    def forward(self, x: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
        return F.cross_entropy(self.net(x), labels)


def resnet18_case() -> whole_model.Case:
    """torchvision's ResNet-18 (10 classes) in training mode at 2x3x64x64,
    batch norms with non-trivial affine weights and running statistics."""
    torchvision = pytest.importorskip("torchvision")
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    model = WithLoss(torchvision.models.resnet18(num_classes=10))
    whole_model._randomize_batch_norms(model, g)
    x = torch.randn(2, 3, 64, 64, generator=g)
    return whole_model.Case(model, (x, torch.randint(0, 10, (2,), generator=g)))


def mobilenet_v2_case() -> whole_model.Case:
    """torchvision's MobileNetV2 (10 classes) in training mode at 2x3x64x64:
    depthwise convolutions, ReLU6, batch norms with running statistics.
    (At 32x32 the last stages are 1x1 maps, and batch norm over 2 values per
    channel turns float32 rounding into errors of 1e-2 in any float32
    implementation; at 64x64 they normalise 8.)"""
    torchvision = pytest.importorskip("torchvision")
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(3)
    model = WithLoss(torchvision.models.mobilenet_v2(num_classes=10,
                                                     dropout=0.0))
    whole_model._randomize_batch_norms(model, g)
    x = torch.randn(2, 3, 64, 64, generator=g)
    return whole_model.Case(model, (x, torch.randint(0, 10, (2,), generator=g)))


def lstm_case() -> whole_model.Case:
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(3)
    tokens = torch.randint(0, 20, (3, 6), generator=g)
    return whole_model.Case(WithLoss(training_models.LSTMClassifier()),
                            (tokens, torch.randint(0, 5, (3,), generator=g)))


# Per model: the case and the absolute tolerances, relative to the largest
# gradient, on the evaluator (which sums in double) and on the compiled code
# (float32 sums in its own order). MobileNetV2 is ill-conditioned in float32:
# training-mode batch norm feeds ReLU6 values that are differences of terms
# 1e5 times larger, so PyTorch's own float32 autograd is 1.2e-3 of the
# largest gradient away from float64 here; ours is 2.8e-5 (evaluator) and
# 1.9e-4 (compiled). A ReLU6 input that rounds to the other side of 0 or 6
# changes a gradient by far more (6.7e-3 with the seed 2 inputs, where one
# input is 7.7e-7): the seed is one whose float64 ReLU6 inputs all keep
# 1.2e-5 away from both kinks. The compiled code's large convolutions and
# matrix products run on OpenBLAS (--raf-contractions-to-blas), whose AVX-512
# kernels sum in yet another order: 1.2e-3 of the largest gradient, as far
# from float64 as PyTorch's own float32 autograd (OPENBLAS_CORETYPE=Haswell
# gives 4.2e-4, the compiled code without BLAS 1.9e-4). The tolerance admits
# what float32 in PyTorch's accuracy reaches; a wrong gradient rule or kernel
# is off by orders of magnitude more.
WHOLE_MODELS = {"mobilenet_v2": (mobilenet_v2_case, 1e-4, 2e-3),
                "lstm": (lstm_case, 1e-5, 5e-5)}


@pytest.mark.parametrize("target", ["interp", "cpu"])
@pytest.mark.parametrize("name", sorted(WHOLE_MODELS))
def test_whole_model_gradients(name, target, tmp_path, monkeypatch):
    make_case, interp_atol, cpu_atol = WHOLE_MODELS[name]
    monkeypatch.setattr(whole_model, "_case", lambda requested: make_case())
    atol = cpu_atol if target == "cpu" else interp_atol
    monkeypatch.setattr(whole_model, "ATOL", atol)
    whole_model.check_gradients(name, target, tmp_path)


@pytest.mark.parametrize("target", ["interp", "cpu"])
def test_resnet18_gradients(target, tmp_path, monkeypatch):
    """Evaluator gradients of this model (2x3x64x64, cross-entropy,
    training mode, --raf-autodiff) were once reported off by up to 0.24
    relative on layer4's weights. No kernel of the evaluator
    (lib/Runtime/Kernels) or gradient rule was wrong, and the report does
    not reproduce at 64x64.
    Measured against float64 autograd as max |x - ref| / max |ref| per
    tensor: the evaluator is within 2.8e-6 (4.1e-6 with torchvision's
    default batch-norm initialisation), PyTorch's float32 autograd within
    1.3e-5 (2.4e-5). A difference of that size appears only at 32x32 and
    only against PyTorch's float32 autograd: layer4's maps are 1x1 there
    and batch norm normalises 2 values per channel (module docstring);
    float32 PyTorch is 0.29 from float64 on layer4's weights, the evaluator
    0.014, so the two differ by 0.25 -- the error is float32 PyTorch's. The
    report most likely made that comparison (its statement that the CPU
    target matched to 1e-5 was not rechecked). With torchvision's default
    initialisation at 32x32 both are ~0.03 from float64. The single-layer
    cases above hold every layer shape of the last stage to 1e-5."""
    # The shared harness of test_autodiff_vs_torch.py (import, autodiff,
    # PyTorch reference, comparison with its tolerances), given this model.
    # On cpu it runs the compiled step with the default pipeline, whose
    # large convolutions and matrix products are OpenBLAS calls (blas=auto);
    # that the pipeline's own vectorised convolutions at the last stage's
    # 2x2 shapes keep a bounded stack is checked with blas=off by
    # test/Pipelines/cpu-small-stack.mlir.
    monkeypatch.setattr(whole_model, "_case",
                        lambda name: resnet18_case() if name == "resnet18"
                        else pytest.fail(name))
    if target == "cpu":
        # The compiled step sums in float32 in its own order (the stem's
        # weight gradient is a 2048-term reduction per element, blocked and
        # vectorised): 2.8e-5 of the largest gradient here, where PyTorch's
        # own float32 autograd is 1.4e-5 from float64.
        monkeypatch.setattr(whole_model, "ATOL", 5e-5)
    whole_model.check_gradients("resnet18", target, tmp_path)
