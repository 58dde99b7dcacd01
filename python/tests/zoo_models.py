"""The model zoo: every classifier torchvision ships, with weights that make a
comparison with PyTorch meaningful, and the check that it does.

Used by ``tests/test_zoo.py`` and ``bench/zoo/run.py``.

Random initialisation alone makes many outputs degenerate: a zero-initialised
classifier head (ViT) gives all-zero logits, ConvNeXt's layer scale of 1e-6
makes every block's contribution invisible, and batch-norm layers with their
initial running statistics (mean 0, variance 1) let activations grow or vanish
layer after layer. :func:`calibrated` therefore

1. gives every parameter that torchvision initialises to (near) zero -- all
   entries below ``1e-5`` in magnitude: biases, zero heads, layer scales --
   values drawn from N(0, 0.1^2);
2. sets every batch-norm layer's running statistics to the cumulative average
   (``momentum=None``) of the batch statistics over a few random batches, run
   in train mode under ``torch.no_grad()`` -- the "calibration" of
   post-training batch-norm re-estimation (Ioffe & Szegedy 2015, Sec. 3.1:
   inference uses population statistics) -- so that every normalised
   activation has mean ~0 and variance ~1 on inputs from the test
   distribution;
3. returns the model in eval mode.

:func:`degeneracy` then checks that the comparison means something: outputs
finite, not all ~0, spread across the classes, and different inputs giving
outputs that differ by much more than the comparison's tolerance.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional, Tuple, Union

import numpy as np
import torch
import torch.nn as nn
import torchvision

#: Normalised error bound of a match: ``max|raf - torch| <= TOLERANCE *
#: max|torch|``. float32 rounds each operation with a relative error of
#: 2^-24 ~ 6e-8; a reduction of length K accumulates ~sqrt(K) of them
#: (K <= ~3e4 here: 3x3x3456 convolutions, 4096-wide dense layers) and ~100
#: layers in sequence compound them, giving ~1e-5 on the logits relative to
#: their scale (measured: 1e-6 to 3e-5 over the zoo). 1e-3 leaves two orders
#: of magnitude of headroom for reordered sums (vectorised and blocked
#: reductions, different exp/tanh approximations) while staying 10x below
#: :data:`MIN_INPUT_SENSITIVITY`, so that an output that ignores part of the
#: network cannot pass.
TOLERANCE = 1e-3
#: Outputs of two different random inputs must differ by at least this much,
#: relative to the output scale (see :func:`degeneracy`).
MIN_INPUT_SENSITIVITY = 1e-2
#: The standard deviation of the logits across classes must be at least this
#: fraction of their largest magnitude ("spread across classes").
MIN_CLASS_SPREAD = 1e-2
#: Below this, the outputs count as "all ~0".
MIN_OUTPUT_SCALE = 1e-6

#: The input resolution: the 224x224 evaluation crop that the architectures
#: accept when built without weights (ViT and MaxViT fix it; the others are
#: fully convolutional up to an adaptive pool) ...
IMAGE_SIZE = 224
#: ... except Inception V3 at its own 299x299: its auxiliary classifier, which
#: runs in train mode during calibration, needs a 17x17 Mixed_6e output.
IMAGE_SIZES = {"inception_v3": 299}


def image_size(name: str) -> int:
    return IMAGE_SIZES.get(name, IMAGE_SIZE)


def classifier_names() -> List[str]:
    """Every image-classification model of the installed torchvision (80 in
    torchvision 0.14), excluding detection, segmentation, video, optical-flow
    and quantized models."""
    models = torchvision.models
    if hasattr(models, "list_models"):
        return sorted(models.list_models(module=models))
    # Older releases: the lower-case constructors of torchvision.models itself.
    import inspect
    return sorted(name for name, fn in vars(models).items()
                  if inspect.isfunction(fn) and name[0].islower()
                  and not name.startswith("get") and "weights" in inspect.signature(fn).parameters)


def build(name: str, seed: int = 0) -> nn.Module:
    """The architecture ``name`` with torchvision's random initialisation
    (seeded), without pre-trained weights and in train mode."""
    torch.manual_seed(seed)
    return getattr(torchvision.models, name)(weights=None)


def num_params(model: nn.Module) -> int:
    return sum(p.numel() for p in model.parameters())


def has_batch_norm(model: nn.Module) -> bool:
    return any(isinstance(m, nn.modules.batchnorm._BatchNorm) for m in model.modules())


def random_input(seed: int, batch: int = 1, size: int = IMAGE_SIZE) -> torch.Tensor:
    generator = torch.Generator().manual_seed(seed)
    return torch.randn(batch, 3, size, size, generator=generator)


@torch.no_grad()
def calibrated(model: nn.Module, batches: int = 2, batch_size: int = 4,
               size: int = IMAGE_SIZE, seed: int = 1) -> nn.Module:
    """``model`` with near-zero parameters made random and batch-norm running
    statistics estimated on random batches (see the module docstring);
    returned in eval mode."""
    generator = torch.Generator().manual_seed(seed)
    for parameter in model.parameters():
        if parameter.numel() > 1 and float(parameter.abs().max()) < 1e-5:
            parameter.copy_(torch.randn(parameter.shape, generator=generator) * 0.1)
    norms = [m for m in model.modules() if isinstance(m, nn.modules.batchnorm._BatchNorm)]
    if norms:
        saved = [m.momentum for m in norms]
        for m in norms:
            m.reset_running_stats()
            m.momentum = None  # cumulative moving average over the batches
        model.train()
        for i in range(batches):
            model(random_input(seed + 100 + i, batch_size, size))
        for m, momentum in zip(norms, saved):
            m.momentum = momentum
    return model.eval()


@dataclass
class Degeneracy:
    """What :func:`degeneracy` measured on two inputs' logits."""

    finite: bool
    scale: float  # max |logit|
    class_spread: float  # std over classes / scale
    input_sensitivity: float  # max |y(x1) - y(x2)| / scale

    @property
    def problems(self) -> List[str]:
        found = []
        if not self.finite:
            found.append("non-finite outputs")
        if self.finite and self.scale < MIN_OUTPUT_SCALE:
            found.append(f"outputs all ~0 (max {self.scale:.2g})")
        if self.finite and self.class_spread < MIN_CLASS_SPREAD:
            found.append(f"no spread across classes (std/max {self.class_spread:.2g})")
        if self.finite and self.input_sensitivity < MIN_INPUT_SENSITIVITY:
            found.append(f"outputs nearly independent of the input "
                         f"(change {self.input_sensitivity:.2g} of the scale)")
        return found

    @property
    def ok(self) -> bool:
        return not self.problems

    def __str__(self) -> str:
        return "; ".join(self.problems) if self.problems else (
            f"ok (scale {self.scale:.3g}, class spread {self.class_spread:.2g}, "
            f"input sensitivity {self.input_sensitivity:.2g})")


def logits(output) -> torch.Tensor:
    """The logits of a classifier's eval-mode output (GoogLeNet and Inception
    return a plain tensor in eval mode; a tuple's first item otherwise)."""
    return output if isinstance(output, torch.Tensor) else output[0]


@torch.no_grad()
def degeneracy(model: nn.Module, x1: torch.Tensor, x2: torch.Tensor) -> Degeneracy:
    """The degeneracy check of ``model``'s logits for two different inputs."""
    return degeneracy_of(logits(model(x1)), logits(model(x2)))


def degeneracy_of(y1: torch.Tensor, y2: torch.Tensor) -> Degeneracy:
    """The degeneracy check of the logits of two different inputs."""
    y1, y2 = y1.double(), y2.double()
    finite = bool(torch.isfinite(y1).all() and torch.isfinite(y2).all())
    if not finite:
        return Degeneracy(False, float("nan"), float("nan"), float("nan"))
    scale = float(max(y1.abs().max(), y2.abs().max()))
    tiny = np.finfo(np.float64).tiny
    spread = float(min(y1.std(dim=-1).min(), y2.std(dim=-1).min())) / max(scale, tiny)
    sensitivity = float((y1 - y2).abs().max()) / max(scale, tiny)
    return Degeneracy(True, scale, spread, sensitivity)


@dataclass
class Error:
    """The error of one result against PyTorch's: ``max_abs`` = max |d|,
    ``normalised`` = max |d| / max |reference| (the quantity compared with
    :data:`TOLERANCE`), ``max_rel`` = max |d| / |reference| elementwise
    (reported, not used: it is unbounded where a logit crosses zero)."""

    max_abs: float
    normalised: float
    max_rel: float

    @property
    def ok(self) -> bool:
        return bool(np.isfinite(self.normalised)) and self.normalised <= TOLERANCE

    def __str__(self) -> str:
        return (f"{'match' if self.ok else 'MISMATCH'}: max|d|/max|ref| {self.normalised:.2g}, "
                f"max abs {self.max_abs:.2g}, max rel {self.max_rel:.2g}")


def compare(got: np.ndarray, want: np.ndarray) -> Error:
    if got.shape != want.shape:
        raise ValueError(f"result shape {got.shape} differs from PyTorch's {want.shape}")
    got64, want64 = got.astype(np.float64), want.astype(np.float64)
    diff = np.abs(got64 - want64)
    if not np.isfinite(diff).all():
        return Error(float("inf"), float("inf"), float("inf"))
    tiny = np.finfo(np.float32).tiny
    scale = max(float(np.abs(want64).max(initial=0.0)), tiny)
    return Error(float(diff.max(initial=0.0)), float(diff.max(initial=0.0)) / scale,
                 float((diff / np.maximum(np.abs(want64), tiny)).max(initial=0.0)))


#: Frontends: torch.fx, and ONNX exported by torch.onnx at two opsets.
FRONTENDS = ("fx", "onnx13", "onnx17")
TARGETS = ("cpu", "interp")

#: Known failures that are not this project's: (model prefix, frontend) ->
#: reason. torch 1.13's ONNX exporter cannot export Swin V2 (aten::zero_ of
#: the relative position bias is not exportable at any opset).
KNOWN_EXPORT_FAILURES: Dict[Tuple[str, str], str] = {
    ("swin_v2", "onnx13"): "torch 1.13 cannot export Swin V2 to ONNX (in-place aten::zero_)",
    ("swin_v2", "onnx17"): "torch 1.13 cannot export Swin V2 to ONNX (in-place aten::zero_)",
}


def known_export_failure(name: str, frontend: str) -> Optional[str]:
    for (prefix, fe), reason in KNOWN_EXPORT_FAILURES.items():
        if name.startswith(prefix) and fe == frontend:
            return reason
    return None


def import_model(model: nn.Module, x: torch.Tensor, frontend: str,
                 workdir: Union[str, Path]):
    """Imports ``model`` (eval mode) for input ``x`` through ``frontend``
    (``fx``, ``onnx13``, ``onnx17``). ONNX models are exported to a file in
    ``workdir`` (models over 2 GB get external data files) and deleted after
    the import."""
    from raf_mlir.onnx_frontend import import_onnx
    from raf_mlir.torch_frontend import import_module

    if frontend == "fx":
        return import_module(model, (x,))
    opset = int(frontend[len("onnx"):])
    directory = Path(workdir) / f"export_{frontend}"
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "model.onnx"
    try:
        # Not under torch.no_grad(): without autograd, nn.MultiheadAttention
        # takes its fused fast path (aten::_native_multi_head_attention),
        # which torch.onnx cannot export.
        torch.onnx.export(model, (x,), str(path), opset_version=opset, do_constant_folding=True)
        return import_onnx(path, example_inputs=[x.numpy()])
    finally:
        for child in directory.iterdir():
            child.unlink()
        directory.rmdir()
