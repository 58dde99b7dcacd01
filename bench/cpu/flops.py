"""FLOP counts of a PyTorch forward pass or training step.

Counts the floating-point operations of convolutions and matrix products as
PyTorch executes them: a ``TorchDispatchMode`` sees every aten operator that
runs (forward and, inside ``loss.backward()``, backward), and each
convolution or matrix product adds ``2 x`` its multiply-accumulates:

* ``aten.convolution``: ``2 * numel(output) * Cin/groups * kh * kw``;
* ``aten.convolution_backward``: the same count once for the input gradient
  and once for the weight gradient, each only when its ``output_mask`` entry
  asks for it (the first convolution of a network has no input gradient);
* ``aten.mm`` / ``aten.addmm``: ``2 * M * K * N``; ``aten.bmm`` /
  ``aten.baddbmm``: ``2 * B * M * K * N`` (``nn.Linear``, attention and their
  gradients reach these).

Elementwise operators, normalisation, pooling, softmax, the loss and the
optimizer update are not counted (together well under 1 % of the counted
work for these models). Backward products are counted as PyTorch runs them,
not estimated as a multiple of the forward.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Callable, Tuple

import torch
from torch.utils._python_dispatch import TorchDispatchMode

aten = torch.ops.aten


def _numel(shape) -> int:
    return math.prod(int(s) for s in shape)


def _conv_flops(output_shape, weight_shape, transposed: bool, input_shape) -> int:
    # Multiply-accumulates: every output element sums over Cin/groups * kh * kw
    # (transposed: every input element scatters over Cout/groups * kh * kw,
    # i.e. numel(input) * weight.numel() / Cin).
    if transposed:
        return 2 * _numel(input_shape) * _numel(weight_shape[1:])
    return 2 * _numel(output_shape) * _numel(weight_shape[1:])


class FlopCounter(TorchDispatchMode):
    """``with FlopCounter() as c: ...``; then ``c.total`` and ``c.by_op``."""

    def __init__(self) -> None:
        super().__init__()
        self.by_op: Counter = Counter()

    @property
    def total(self) -> int:
        return sum(self.by_op.values())

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        out = func(*args, **kwargs)
        packet = func.overloadpacket
        flops = 0
        if packet is aten.mm:
            a, b = args[0], args[1]
            flops = 2 * a.shape[0] * a.shape[1] * b.shape[1]
        elif packet is aten.addmm:
            a, b = args[1], args[2]
            flops = 2 * a.shape[0] * a.shape[1] * b.shape[1]
        elif packet is aten.bmm:
            a, b = args[0], args[1]
            flops = 2 * a.shape[0] * a.shape[1] * a.shape[2] * b.shape[2]
        elif packet is aten.baddbmm:
            a, b = args[1], args[2]
            flops = 2 * a.shape[0] * a.shape[1] * a.shape[2] * b.shape[2]
        elif packet is aten.convolution:
            x, w, transposed = args[0], args[1], args[6]
            flops = _conv_flops(out.shape, w.shape, transposed, x.shape)
        elif packet is aten.convolution_backward:
            grad_out, x, w = args[0], args[1], args[2]
            transposed, mask = args[7], args[10]
            one = _conv_flops(grad_out.shape, w.shape, transposed, x.shape)
            flops = one * (int(bool(mask[0])) + int(bool(mask[1])))
        if flops:
            self.by_op[str(packet).split(".")[-1]] += flops
        return out


def count(run: Callable[[], None]) -> Tuple[int, Counter]:
    """FLOPs of ``run()`` (which may call ``backward()``)."""
    with FlopCounter() as counter:
        run()
    return counter.total, counter.by_op
