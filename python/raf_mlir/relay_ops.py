"""Typed constructors for the relay operators the frontends emit.

Each method emits one operator through a :class:`FunctionBuilder` and
computes its result type the way the relay dialect's shape inference does
(``include/raf/Dialect/Relay/IR/RelayOperators.td``): NumPy broadcasting,
the convolution and pooling size formulas, ``nn.dense`` as ``x . W^T``,
``nn.batch_matmul`` with TVM's default ``transpose_b = true``, and so on.
Frontends use these instead of spelling operators by hand, so an operator's
attributes and result type are written down in one place.
"""

from __future__ import annotations

import math
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from raf_mlir import relay_text as rt
from raf_mlir.relay_text import FunctionBuilder, TensorType, Value

_COMPARISONS = {"equal", "not_equal", "less", "less_equal", "greater", "greater_equal"}

_MLIR_TO_NUMPY = {"f32": np.float32, "f64": np.float64, "f16": np.float16,
                  "i64": np.int64, "i32": np.int32, "i16": np.int16,
                  "i8": np.int8, "i1": np.bool_}


def _normalize_axis(axis: int, rank: int) -> int:
    if not -rank <= axis < rank:
        raise ValueError(f"axis {axis} out of range for rank {rank}")
    return axis % rank


def _pool_extent(size: int, kernel: int, stride: int, pad_begin: int,
                 pad_end: int, dilation: int, ceil_mode: bool) -> int:
    """Pooling output size with PyTorch's ceil-mode rule."""
    span = size + pad_begin + pad_end - dilation * (kernel - 1) - 1
    if ceil_mode:
        out = -(-span // stride) + 1
        if (out - 1) * stride >= size + pad_begin:
            out -= 1
    else:
        out = span // stride + 1
    return out


class RelayOps:
    """Emits relay operators into ``builder``, computing result types."""

    def __init__(self, builder: FunctionBuilder):
        self.builder = builder
        self._scalars: Dict[Tuple[float, str], Value] = {}

    # -- constants ---------------------------------------------------------

    def scalar(self, value: float, dtype: str) -> Value:
        """A rank-0 ``relay.constant`` (emitted once per value and type)."""
        key = (float(value), dtype)
        if key not in self._scalars:
            array = np.array(value, dtype=_MLIR_TO_NUMPY[dtype])
            self._scalars[key] = self.builder.constant(array, hint="cst")
        return self._scalars[key]

    def constant(self, array: np.ndarray, hint: str = "cst") -> Value:
        return self.builder.constant(array, hint=hint)

    def ones(self, shape: Sequence[int], dtype: str, hint: str = "ones") -> Value:
        attrs = {"shape": rt.i64_array(shape), "dtype": rt.type_attr(dtype)}
        return self.builder.op("ones", [], [TensorType(shape, dtype)], attrs, hint)[0]

    def zeros(self, shape: Sequence[int], dtype: str, hint: str = "zeros") -> Value:
        attrs = {"shape": rt.i64_array(shape), "dtype": rt.type_attr(dtype)}
        return self.builder.op("zeros", [], [TensorType(shape, dtype)], attrs, hint)[0]

    # -- element-wise ------------------------------------------------------

    def unary(self, name: str, x: Value, hint: str = "v",
              attributes: Optional[Dict[str, str]] = None) -> Value:
        """``relay.<name>`` of one operand, result type = operand type."""
        return self.builder.op(name, [x], [x.type], attributes, hint)[0]

    def relu(self, x: Value, hint: str = "relu") -> Value:
        return self.unary("nn.relu", x, hint)

    def gelu(self, x: Value, approximate: str = "none", hint: str = "gelu") -> Value:
        attrs = None
        if approximate != "none":
            attrs = {"approximate": rt.enum("gelu_approximation", approximate)}
        return self.unary("nn.gelu", x, hint, attrs)

    def leaky_relu(self, x: Value, alpha: float = 0.01, hint: str = "leaky_relu") -> Value:
        return self.unary("nn.leaky_relu", x, hint, {"alpha": rt.f64(alpha)})

    def cast(self, x: Value, dtype: str, hint: str = "cast") -> Value:
        return self.builder.op("cast", [x], [TensorType(x.shape, dtype)],
                               {"dtype": rt.type_attr(dtype)}, hint)[0]

    def binary(self, name: str, lhs: Value, rhs: Value, hint: str = "v") -> Value:
        """A broadcasting binary operator (``add``, ``multiply``, ``less``...)."""
        shape = np.broadcast_shapes(lhs.shape, rhs.shape)
        dtype = "i1" if name in _COMPARISONS else lhs.dtype
        return self.builder.op(name, [lhs, rhs], [TensorType(shape, dtype)], None, hint)[0]

    def where(self, condition: Value, x: Value, y: Value, hint: str = "where") -> Value:
        """``condition ? x : y`` with NumPy broadcasting of all three."""
        shape = np.broadcast_shapes(condition.shape, x.shape, y.shape)
        return self.builder.op("where", [condition, x, y], [TensorType(shape, x.dtype)],
                               None, hint)[0]

    def bias_add(self, x: Value, bias: Value, axis: int = 1, hint: str = "bias_add") -> Value:
        attrs = {"axis": rt.i64(axis)} if axis != 1 else None
        return self.builder.op("nn.bias_add", [x, bias], [x.type], attrs, hint)[0]

    # -- convolution and linear algebra ------------------------------------

    def conv2d(self, x: Value, weight: Value, strides: Sequence[int],
               padding: Sequence[int], dilation: Sequence[int], groups: int,
               hint: str = "conv") -> Value:
        """NCHW / OIHW convolution; ``padding`` is (top, left, bottom, right)."""
        n, _, h, w = x.shape
        o, _, kh, kw = weight.shape
        top, left, bottom, right = padding
        oh = (h + top + bottom - dilation[0] * (kh - 1) - 1) // strides[0] + 1
        ow = (w + left + right - dilation[1] * (kw - 1) - 1) // strides[1] + 1
        attrs: Dict[str, str] = {}
        if tuple(strides) != (1, 1):
            attrs["strides"] = rt.i64_array(strides)
        if any(padding):
            attrs["padding"] = rt.i64_array(_compact_padding(padding))
        if tuple(dilation) != (1, 1):
            attrs["dilation"] = rt.i64_array(dilation)
        if groups != 1:
            attrs["groups"] = rt.i64(groups)
        result = TensorType((n, o, oh, ow), x.dtype)
        return self.builder.op("nn.conv2d", [x, weight], [result], attrs or None, hint)[0]

    def dense(self, x: Value, weight: Value, hint: str = "dense") -> Value:
        """``x[..., K] . weight[N, K]^T -> [..., N]``."""
        result = x.type.with_shape(x.shape[:-1] + (weight.shape[0],))
        return self.builder.op("nn.dense", [x, weight], [result], None, hint)[0]

    def matmul(self, a: Value, b: Value, transpose_a: bool = False,
               transpose_b: bool = False, hint: str = "matmul") -> Value:
        m = a.shape[1] if transpose_a else a.shape[0]
        n = b.shape[0] if transpose_b else b.shape[1]
        attrs = {}
        if transpose_a:
            attrs["transpose_a"] = rt.boolean(True)
        if transpose_b:
            attrs["transpose_b"] = rt.boolean(True)
        return self.builder.op("nn.matmul", [a, b], [a.type.with_shape((m, n))],
                               attrs or None, hint)[0]

    def batch_matmul(self, a: Value, b: Value, transpose_a: bool = False,
                     transpose_b: bool = True, hint: str = "bmm") -> Value:
        """``op(a)[B, M, K] . op(b)[B, K, N]`` (``transpose_b`` defaults to true)."""
        batch = max(a.shape[0], b.shape[0])
        m = a.shape[2] if transpose_a else a.shape[1]
        n = b.shape[1] if transpose_b else b.shape[2]
        attrs = {}
        if transpose_a:
            attrs["transpose_a"] = rt.boolean(True)
        if not transpose_b:
            attrs["transpose_b"] = rt.boolean(False)
        return self.builder.op("nn.batch_matmul", [a, b], [a.type.with_shape((batch, m, n))],
                               attrs or None, hint)[0]

    # -- normalisation -----------------------------------------------------

    def softmax(self, x: Value, axis: int = -1, hint: str = "softmax",
                log: bool = False) -> Value:
        name = "nn.log_softmax" if log else "nn.softmax"
        return self.unary(name, x, hint, {"axis": rt.i64(axis)})

    def layer_norm(self, x: Value, gamma: Value, beta: Value, axis: int = -1,
                   epsilon: float = 1e-5, center: bool = True, scale: bool = True,
                   hint: str = "layer_norm") -> Value:
        attrs = {"axis": rt.i64(axis), "epsilon": rt.f64(epsilon)}
        if not center:
            attrs["center"] = rt.boolean(False)
        if not scale:
            attrs["scale"] = rt.boolean(False)
        return self.builder.op("nn.layer_norm", [x, gamma, beta], [x.type], attrs, hint)[0]

    def batch_norm(self, x: Value, gamma: Value, beta: Value, mean: Value, var: Value,
                   axis: int = 1, epsilon: float = 1e-5, center: bool = True,
                   scale: bool = True, hint: str = "bn") -> Value:
        """Inference batch norm (``training = false``); returns the normalised tensor."""
        return self.batch_norm_all(x, gamma, beta, mean, var, axis=axis, epsilon=epsilon,
                                   center=center, scale=scale, hint=hint)[0]

    def batch_norm_all(self, x: Value, gamma: Value, beta: Value, mean: Value, var: Value,
                       axis: int = 1, epsilon: float = 1e-5, momentum: float = 0.1,
                       center: bool = True, scale: bool = True, training: bool = False,
                       hint: str = "bn") -> List[Value]:
        """``nn.batch_norm``; returns ``[y, new_mean, new_var]``.

        With ``training`` the batch statistics normalise and the moving ones
        are updated with ``momentum`` (PyTorch's ``model.train()``)."""
        attrs = {"epsilon": rt.f64(epsilon)}
        if axis != 1:
            attrs["axis"] = rt.i64(axis)
        if training:
            if momentum != 0.1:
                attrs["momentum"] = rt.f64(momentum)
            attrs["training"] = rt.boolean(True)
        if not center:
            attrs["center"] = rt.boolean(False)
        if not scale:
            attrs["scale"] = rt.boolean(False)
        stats = mean.type
        return self.builder.op("nn.batch_norm", [x, gamma, beta, mean, var],
                               [x.type, stats, stats], attrs, hint)

    # -- losses --------------------------------------------------------------

    def nll_loss(self, predictions: Value, targets: Value, reduction: str = "mean",
                 ignore_index: int = -100, hint: str = "nll_loss") -> Value:
        """``nn.nll_loss`` of log-probabilities ``[N, C, d...]`` and class
        indices ``[N, d...]``."""
        attrs = {"reduction": rt.enum("loss_reduction", reduction)}
        if ignore_index != -100:
            attrs["ignore_index"] = rt.i64(ignore_index)
        shape = () if reduction != "none" else targets.shape
        return self.builder.op("nn.nll_loss", [predictions, targets],
                               [predictions.type.with_shape(shape)], attrs, hint)[0]

    def cross_entropy(self, logits: Value, target: Value, reduction: str = "mean",
                      hint: str = "cross_entropy") -> Value:
        """``nn.cross_entropy`` of logits ``[N, C]`` and class indices ``[N]``
        or class probabilities ``[N, C]``."""
        shape = () if reduction != "none" else logits.shape[:1]
        return self.builder.op("nn.cross_entropy", [logits, target],
                               [logits.type.with_shape(shape)],
                               {"reduction": rt.enum("loss_reduction", reduction)},
                               hint)[0]

    # -- pooling and reductions --------------------------------------------

    def pool2d(self, kind: str, x: Value, pool_size: Sequence[int], strides: Sequence[int],
               padding: Sequence[int], dilation: Sequence[int] = (1, 1),
               ceil_mode: bool = False, count_include_pad: bool = False,
               hint: str = "pool") -> Value:
        """``nn.max_pool2d`` (kind ``max``) or ``nn.avg_pool2d`` (``avg``), NCHW."""
        n, c, h, w = x.shape
        top, left, bottom, right = padding
        oh = _pool_extent(h, pool_size[0], strides[0], top, bottom, dilation[0], ceil_mode)
        ow = _pool_extent(w, pool_size[1], strides[1], left, right, dilation[1], ceil_mode)
        attrs = {"pool_size": rt.i64_array(pool_size), "strides": rt.i64_array(strides)}
        if any(padding):
            attrs["padding"] = rt.i64_array(_compact_padding(padding))
        if tuple(dilation) != (1, 1):
            attrs["dilation"] = rt.i64_array(dilation)
        if ceil_mode:
            attrs["ceil_mode"] = rt.boolean(True)
        if kind == "avg" and count_include_pad:
            attrs["count_include_pad"] = rt.boolean(True)
        result = x.type.with_shape((n, c, oh, ow))
        return self.builder.op(f"nn.{kind}_pool2d", [x], [result], attrs, hint)[0]

    def global_avg_pool2d(self, x: Value, hint: str = "gap") -> Value:
        n, c = x.shape[:2]
        return self.builder.op("nn.global_avg_pool2d", [x],
                               [x.type.with_shape((n, c, 1, 1))], None, hint)[0]

    def reduce(self, name: str, x: Value, axes: Sequence[int], keepdims: bool = False,
               hint: str = "reduce") -> Value:
        """``sum`` / ``mean`` / ``max`` over ``axes``."""
        axes = sorted({_normalize_axis(a, x.rank) for a in axes})
        shape = [1 if i in axes else d for i, d in enumerate(x.shape)
                 if keepdims or i not in axes]
        attrs = {"axis": rt.i64_array(axes)}
        if keepdims:
            attrs["keepdims"] = rt.boolean(True)
        return self.builder.op(name, [x], [x.type.with_shape(shape)], attrs, hint)[0]

    # -- shape and layout --------------------------------------------------

    def reshape(self, x: Value, shape: Sequence[int], hint: str = "reshape") -> Value:
        shape = tuple(int(d) for d in shape)
        if math.prod(shape) != x.type.num_elements:
            raise ValueError(f"cannot reshape {x.type} to {shape}")
        return self.builder.op("reshape", [x], [x.type.with_shape(shape)],
                               {"newshape": rt.i64_array(shape)}, hint)[0]

    def transpose(self, x: Value, axes: Sequence[int], hint: str = "transpose") -> Value:
        axes = [_normalize_axis(a, x.rank) for a in axes]
        if sorted(axes) != list(range(x.rank)):
            raise ValueError(f"{axes} is not a permutation of rank {x.rank}")
        shape = [x.shape[a] for a in axes]
        return self.builder.op("transpose", [x], [x.type.with_shape(shape)],
                               {"axes": rt.i64_array(axes)}, hint)[0]

    def concatenate(self, values: Sequence[Value], axis: int, hint: str = "concat") -> Value:
        axis = _normalize_axis(axis, values[0].rank)
        shape = list(values[0].shape)
        shape[axis] = sum(v.shape[axis] for v in values)
        return self.builder.op("concatenate", list(values), [values[0].type.with_shape(shape)],
                               {"axis": rt.i64(axis)}, hint)[0]

    def split(self, x: Value, sections: int, axis: int, hint: str = "split") -> List[Value]:
        axis = _normalize_axis(axis, x.rank)
        if x.shape[axis] % sections:
            raise ValueError(f"axis {axis} of {x.type} does not split into {sections}")
        shape = list(x.shape)
        shape[axis] //= sections
        part = x.type.with_shape(shape)
        return self.builder.op("split", [x], [part] * sections,
                               {"sections": rt.i64(sections), "axis": rt.i64(axis)}, hint)

    def split_at(self, x: Value, indices: Sequence[int], axis: int,
                 hint: str = "split") -> List[Value]:
        """Splits ``axis`` at the strictly increasing ``indices``."""
        axis = _normalize_axis(axis, x.rank)
        bounds = [0] + [int(i) for i in indices] + [x.shape[axis]]
        if any(b >= e for b, e in zip(bounds, bounds[1:])):
            raise ValueError(f"split points {list(indices)} of axis {axis} of {x.type} "
                             "are not strictly increasing inside the axis")
        parts = []
        for begin, end in zip(bounds, bounds[1:]):
            shape = list(x.shape)
            shape[axis] = end - begin
            parts.append(x.type.with_shape(shape))
        return self.builder.op("split", [x], parts,
                               {"indices": rt.i64_array(indices), "axis": rt.i64(axis)}, hint)

    def squeeze(self, x: Value, axes: Sequence[int], hint: str = "squeeze") -> Value:
        """Removes the unit ``axes``."""
        axes = sorted({_normalize_axis(a, x.rank) for a in axes})
        if any(x.shape[a] != 1 for a in axes):
            raise ValueError(f"cannot squeeze axes {axes} of {x.type}")
        shape = [d for i, d in enumerate(x.shape) if i not in axes]
        return self.builder.op("squeeze", [x], [x.type.with_shape(shape)],
                               {"axis": rt.i64_array(axes)}, hint)[0]

    def broadcast_to(self, x: Value, shape: Sequence[int], hint: str = "broadcast") -> Value:
        shape = tuple(int(d) for d in shape)
        if np.broadcast_shapes(x.shape, shape) != shape:
            raise ValueError(f"cannot broadcast {x.type} to {shape}")
        return self.builder.op("broadcast_to", [x], [x.type.with_shape(shape)],
                               {"shape": rt.i64_array(shape)}, hint)[0]

    def pad(self, x: Value, pad_width: Sequence[Tuple[int, int]], value: float = 0.0,
            hint: str = "pad") -> Value:
        """Constant padding; ``pad_width`` holds ``(before, after)`` per axis."""
        shape = [d + b + a for d, (b, a) in zip(x.shape, pad_width)]
        attrs = {"pad_width": rt.i64_array([v for pair in pad_width for v in pair])}
        if value:
            attrs["pad_value"] = rt.f64(value)
        return self.builder.op("nn.pad", [x], [x.type.with_shape(shape)], attrs, hint)[0]

    def take(self, data: Value, indices: Value, axis: int, mode: str = "clip",
             hint: str = "take") -> Value:
        """``data`` gathered along ``axis`` by integer ``indices``."""
        axis = _normalize_axis(axis, data.rank)
        shape = data.shape[:axis] + indices.shape + data.shape[axis + 1:]
        attrs = {"axis": rt.i64(axis)}
        if mode != "clip":
            attrs["mode"] = rt.enum("take_mode", mode)
        return self.builder.op("take", [data, indices], [data.type.with_shape(shape)],
                               attrs, hint)[0]

    def strided_slice(self, x: Value, begin: Sequence[int], end: Sequence[int],
                      strides: Sequence[int], axes: Sequence[int],
                      hint: str = "slice") -> Value:
        """Slices ``axes``; indices must already be normalised into range."""
        shape = list(x.shape)
        for b, e, s, a in zip(begin, end, strides, axes):
            shape[a] = max(0, -(-(e - b) // s))
        attrs = {"begin": rt.i64_array(begin), "end": rt.i64_array(end),
                 "strides": rt.i64_array(strides), "axes": rt.i64_array(axes)}
        return self.builder.op("strided_slice", [x], [x.type.with_shape(shape)], attrs, hint)[0]


def _compact_padding(padding: Sequence[int]) -> List[int]:
    """(top, left, bottom, right) in the shortest of relay's 1/2/4 forms."""
    top, left, bottom, right = padding
    if top == left == bottom == right:
        return [top]
    if top == bottom and left == right:
        return [top, left]
    return [top, left, bottom, right]
