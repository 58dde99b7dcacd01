"""A PyTorch evaluator of ONNX graphs: the oracle of the ONNX frontend tests.

onnx 1.12 has no ``onnx.reference.ReferenceEvaluator`` and no ONNX runtime is
installed, so each operator the tests use is written here with PyTorch
functions, following the ONNX operator specification (opset 13-17). It is
independent of the frontend: nothing here goes through relay.
"""

from __future__ import annotations

from typing import Callable, Dict, List, Sequence

import numpy as np
import onnx
import torch
import torch.nn.functional as F
from onnx import numpy_helper


def _attrs(node: onnx.NodeProto) -> Dict[str, object]:
    return {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}


def _pads_2d(x: torch.Tensor, attrs, kernel, strides, dilations) -> List[int]:
    """(top, left, bottom, right) per the ONNX ``pads`` / ``auto_pad`` rules."""
    auto_pad = attrs.get("auto_pad", b"NOTSET")
    auto_pad = auto_pad.decode() if isinstance(auto_pad, bytes) else auto_pad
    if auto_pad.startswith("SAME"):
        pads = []
        for i in range(2):
            size = x.shape[2 + i]
            out = -(-size // strides[i])
            total = max((out - 1) * strides[i] + (kernel[i] - 1) * dilations[i] + 1 - size, 0)
            small = total // 2
            pads.append((small, total - small) if auto_pad == "SAME_UPPER"
                        else (total - small, small))
        return [pads[0][0], pads[1][0], pads[0][1], pads[1][1]]
    if auto_pad == "VALID":
        return [0, 0, 0, 0]
    return list(attrs.get("pads", [0, 0, 0, 0]))


def _conv(x, w, b=None, **attrs):
    kernel = list(attrs.get("kernel_shape", w.shape[2:]))
    strides = list(attrs.get("strides", [1, 1]))
    dilations = list(attrs.get("dilations", [1, 1]))
    top, left, bottom, right = _pads_2d(x, attrs, kernel, strides, dilations)
    x = F.pad(x, [left, right, top, bottom])
    return F.conv2d(x, w, b, strides, 0, dilations, attrs.get("group", 1))


def _pool(kind: str):
    def pool(x, **attrs):
        kernel = list(attrs["kernel_shape"])
        strides = list(attrs.get("strides", [1, 1]))
        dilations = list(attrs.get("dilations", [1, 1]))
        top, left, bottom, right = _pads_2d(x, attrs, kernel, strides, dilations)
        ceil = bool(attrs.get("ceil_mode", 0))
        if kind == "max":
            x = F.pad(x, [left, right, top, bottom], value=-float("inf"))
            return F.max_pool2d(x, kernel, strides, 0, dilations, ceil_mode=ceil)
        if attrs.get("count_include_pad", 0):
            x = F.pad(x, [left, right, top, bottom])
            return F.avg_pool2d(x, kernel, strides, 0, ceil_mode=ceil)
        ones = F.pad(torch.ones_like(x), [left, right, top, bottom])
        x = F.pad(x, [left, right, top, bottom])
        total = F.avg_pool2d(x, kernel, strides, 0, ceil_mode=ceil, divisor_override=1)
        count = F.avg_pool2d(ones, kernel, strides, 0, ceil_mode=ceil, divisor_override=1)
        return total / count
    return pool


def _layer_norm(x, scale, bias=None, axis=-1, epsilon=1e-5, **attrs):
    axis %= x.dim()
    shape = x.shape[axis:]
    return F.layer_norm(x, shape, scale.expand(shape), None if bias is None
                        else bias.expand(shape), epsilon)


def _gemm(a, b, c=None, alpha=1.0, beta=1.0, transA=0, transB=0):
    a = a.t() if transA else a
    b = b.t() if transB else b
    y = alpha * (a @ b)
    return y if c is None else y + beta * c


def _reduce(fn: Callable):
    def reduce(x, axes_input=None, axes=None, keepdims=1, noop_with_empty_axes=0):
        axes = axes_input.tolist() if axes_input is not None else axes
        if not axes:
            if noop_with_empty_axes:
                return x
            axes = list(range(x.dim()))
        return fn(x, axes, bool(keepdims))
    return reduce


def _reshape(x, shape, allowzero=0):
    shape = [x.shape[i] if d == 0 and not allowzero else int(d)
             for i, d in enumerate(shape.tolist())]
    return x.reshape(shape)


def _unsqueeze(x, axes):
    rank = x.dim() + axes.numel()
    for axis in sorted(int(a) % rank for a in axes.tolist()):
        x = x.unsqueeze(axis)
    return x


def _squeeze(x, axes=None):
    if axes is None:
        return x.squeeze()
    for axis in sorted((int(a) % x.dim() for a in axes.tolist()), reverse=True):
        x = x.squeeze(axis)
    return x


def _slice(x, starts, ends, axes=None, steps=None):
    """ONNX Slice through numpy (which has the same clamping rules)."""
    array = x.numpy()
    index = [slice(None)] * array.ndim
    axes = axes.tolist() if axes is not None else list(range(starts.numel()))
    steps = steps.tolist() if steps is not None else [1] * starts.numel()
    for start, end, axis, step in zip(starts.tolist(), ends.tolist(), axes, steps):
        dim = array.shape[axis]
        start = max(min(start, dim), -dim - 1)
        end = max(min(end, dim), -dim - 1)
        if step < 0 and end < -dim:
            end = None
        index[axis] = slice(start, end, step)
    return torch.from_numpy(np.ascontiguousarray(array[tuple(index)]))


def _split(x, split=None, axis=0, num_outputs=None, _count=1):
    if split is None:
        return torch.chunk(x, _count, axis)
    return torch.split(x, split.tolist(), axis)


def _clip(x, lo=None, hi=None):
    if lo is not None:
        x = torch.maximum(x, lo)
    if hi is not None:
        x = torch.minimum(x, hi)
    return x


_NP_TO_TORCH = {np.dtype(np.float32): torch.float32, np.dtype(np.float64): torch.float64,
                np.dtype(np.int64): torch.int64, np.dtype(np.int32): torch.int32,
                np.dtype(np.bool_): torch.bool}


def _cast(x, to):
    return x.to(_NP_TO_TORCH[np.dtype(onnx.mapping.TENSOR_TYPE_TO_NP_TYPE[to])])


def _gather(data, indices, axis=0):
    axis %= data.dim()
    indices = torch.where(indices < 0, indices + data.shape[axis], indices)
    flat = torch.index_select(data, axis, indices.reshape(-1))
    return flat.reshape(data.shape[:axis] + indices.shape + data.shape[axis + 1:])


def _flatten(x, axis=1):
    axis %= x.dim() if axis < 0 else x.dim() + 1
    return x.reshape(int(np.prod(x.shape[:axis])), -1)


def _dropout(x, *rest, **attrs):
    return x


def _pad(x, pads, value=None, axes=None, mode=b"constant"):
    """ONNX Pad through numpy's pad (negative pads crop)."""
    mode = mode.decode() if isinstance(mode, bytes) else mode
    array = x.numpy()
    axes = list(range(array.ndim)) if axes is None else \
        [int(a) % array.ndim for a in axes.tolist()]
    pads = pads.tolist()
    widths = [(0, 0)] * array.ndim
    for i, axis in enumerate(axes):
        widths[axis] = (pads[i], pads[i + len(axes)])
    crop = tuple(slice(max(-b, 0), array.shape[i] - max(-e, 0))
                 for i, (b, e) in enumerate(widths))
    array = array[crop]
    widths = [(max(b, 0), max(e, 0)) for b, e in widths]
    if mode == "constant":
        fill = 0.0 if value is None else float(value)
        return torch.from_numpy(np.pad(array, widths, constant_values=fill))
    return torch.from_numpy(np.pad(array, widths, mode=mode))


def _hard_sigmoid(x, alpha=0.2, beta=0.5):
    return torch.clamp(alpha * x + beta, 0.0, 1.0)


def _shape(x, start=0, end=None):
    return torch.tensor(list(x.shape)[start:end], dtype=torch.int64)


def _constant_of_shape(shape, value=None):
    fill = torch.zeros(1) if value is None else torch.from_numpy(numpy_helper.to_array(value).copy())
    return torch.full(shape.tolist(), fill.reshape(-1)[0].item(), dtype=fill.dtype)


def _div(a, b):
    if a.dtype.is_floating_point:
        return a / b
    return torch.div(a, b, rounding_mode="trunc")


def _mod(a, b, fmod=0):
    return torch.fmod(a, b) if fmod else torch.remainder(a, b)


def _range(start, limit, delta):
    return torch.arange(start.item(), limit.item(), delta.item(), dtype=start.dtype)


def _prod(x, axes, keepdim):
    for axis in sorted((a % x.dim() for a in axes), reverse=True):
        x = x.prod(axis, keepdim=keepdim)
    return x


_ACTIVATIONS = {"Sigmoid": torch.sigmoid, "Tanh": torch.tanh, "Relu": torch.relu}


def _recurrent(kind: str):
    """ONNX LSTM / GRU / RNN, step by step as the operator specification
    writes the equations (gate orders i, o, f, c and z, r, h)."""
    gates = {"LSTM": 4, "GRU": 3, "RNN": 1}[kind]

    def run(x, w, r, b=None, sequence_lens=None, initial_h=None, initial_c=None,
            hidden_size=None, direction=b"forward", layout=0, linear_before_reset=0,
            activations=None, **unused):
        direction = direction.decode() if isinstance(direction, bytes) else direction
        count = 2 if direction == "bidirectional" else 1
        names = [a.decode() if isinstance(a, bytes) else a for a in (activations or [])]
        if not names:
            names = {"LSTM": ["Sigmoid", "Tanh", "Tanh"], "GRU": ["Sigmoid", "Tanh"],
                     "RNN": ["Tanh"]}[kind] * count
        per = len(names) // count
        if layout:
            x = x.transpose(0, 1)
            initial_h = None if initial_h is None else initial_h.transpose(0, 1)
            initial_c = None if initial_c is None else initial_c.transpose(0, 1)
        steps, batch = x.shape[:2]
        hidden = hidden_size
        ys, hs, cs = [], [], []
        for d in range(count):
            f, g, h_act = ([_ACTIVATIONS[n] for n in names[d * per:(d + 1) * per]] + [None] * 2)[:3]
            wb, rb = (b[d, :gates * hidden], b[d, gates * hidden:]) if b is not None else \
                (torch.zeros(gates * hidden), torch.zeros(gates * hidden))
            h = initial_h[d] if initial_h is not None else torch.zeros(batch, hidden)
            c = initial_c[d] if initial_c is not None else torch.zeros(batch, hidden)
            W, R = w[d], r[d]
            out = [None] * steps
            reverse = direction == "reverse" or d == 1
            for t in (reversed(range(steps)) if reverse else range(steps)):
                xw = x[t] @ W.t() + wb
                if kind == "LSTM":
                    gi, go, gf, gc = (xw + h @ R.t() + rb).chunk(4, dim=1)
                    c = f(gf) * c + f(gi) * g(gc)
                    h = f(go) * h_act(c)
                elif kind == "GRU":
                    xz, xr, xh = xw.chunk(3, dim=1)
                    Rz, Rr, Rh = R.chunk(3, dim=0)
                    rbz, rbr, rbh = rb.chunk(3)
                    z = f(xz + h @ Rz.t() + rbz)
                    reset = f(xr + h @ Rr.t() + rbr)
                    if linear_before_reset:
                        n = g(xh + reset * (h @ Rh.t() + rbh))
                    else:
                        n = g(xh + (reset * h) @ Rh.t() + rbh)
                    h = (1 - z) * n + z * h
                else:
                    h = f(xw + h @ R.t() + rb)
                out[t] = h
            ys.append(torch.stack(out))
            hs.append(h)
            cs.append(c)
        y, y_h, y_c = torch.stack(ys, 1), torch.stack(hs), torch.stack(cs)
        if layout:
            y, y_h, y_c = y.permute(2, 0, 1, 3), y_h.transpose(0, 1), y_c.transpose(0, 1)
        return (y, y_h, y_c) if kind == "LSTM" else (y, y_h)
    return run


def _scatter_nd(data, indices, updates, reduction=b"none"):
    output = data.clone()
    flat_indices = indices.reshape(-1, indices.shape[-1])
    flat_updates = updates.reshape((flat_indices.shape[0],) + tuple(updates.shape[indices.dim() - 1:]))
    for index, update in zip(flat_indices.tolist(), flat_updates):
        output[tuple(index)] = update
    return output


def _einsum(*xs, equation):
    equation = equation.decode() if isinstance(equation, bytes) else equation
    return torch.einsum(equation, *xs)


_OPS: Dict[str, Callable] = {
    "Conv": _conv,
    "BatchNormalization": lambda x, g, b, m, v, epsilon=1e-5, **a:
        F.batch_norm(x, m, v, g, b, False, 0.0, epsilon),
    "LayerNormalization": _layer_norm,
    "Relu": lambda x: torch.relu(x),
    "LeakyRelu": lambda x, alpha=0.01: F.leaky_relu(x, alpha),
    "Sigmoid": torch.sigmoid, "Tanh": torch.tanh, "Erf": torch.erf, "Sqrt": torch.sqrt,
    "Exp": torch.exp, "Log": torch.log, "Neg": torch.neg,
    "Clip": _clip,
    "Add": torch.add, "Sub": torch.sub, "Mul": torch.mul, "Div": _div,
    "Pow": lambda a, b: torch.pow(a, b.to(a.dtype)),
    "Max": lambda *xs: _fold(torch.maximum, xs), "Min": lambda *xs: _fold(torch.minimum, xs),
    "Equal": torch.eq, "Less": torch.lt, "Greater": torch.gt,
    "LessOrEqual": torch.le, "GreaterOrEqual": torch.ge,
    "Where": torch.where,
    "MatMul": torch.matmul, "Gemm": _gemm,
    "MaxPool": _pool("max"), "AveragePool": _pool("avg"),
    "GlobalAveragePool": lambda x: x.mean(dim=(2, 3), keepdim=True),
    "Flatten": _flatten, "Reshape": _reshape,
    "Transpose": lambda x, perm=None: x.permute(*(perm or reversed(range(x.dim())))),
    "Concat": lambda *xs, axis: torch.cat(xs, axis),
    "Softmax": lambda x, axis=-1: torch.softmax(x, axis),
    "LogSoftmax": lambda x, axis=-1: torch.log_softmax(x, axis),
    "ReduceMean": _reduce(lambda x, a, k: x.mean(a, keepdim=k)),
    "ReduceSum": _reduce(lambda x, a, k: x.sum(a, keepdim=k)),
    "ReduceMax": _reduce(lambda x, a, k: x.amax(a, keepdim=k)),
    "Identity": lambda x: x, "Dropout": _dropout,
    "Gather": _gather, "Unsqueeze": _unsqueeze, "Squeeze": _squeeze, "Slice": _slice,
    "Cast": _cast, "Split": _split,
    "Pad": _pad, "HardSigmoid": _hard_sigmoid,
    "HardSwish": lambda x: x * _hard_sigmoid(x, 1 / 6, 0.5),
    "Softplus": F.softplus, "Abs": torch.abs, "Elu": lambda x, alpha=1.0: F.elu(x, alpha),
    "PRelu": lambda x, slope: torch.where(x > 0, x, x * slope),
    "Sum": lambda *xs: _fold(torch.add, xs), "Mean": lambda *xs: _fold(torch.add, xs) / len(xs),
    "Expand": lambda x, shape: x * torch.ones(shape.tolist(), dtype=x.dtype),
    "Tile": lambda x, repeats: x.repeat(repeats.tolist()),
    "Einsum": _einsum,
    "ScatterND": _scatter_nd,
    "LSTM": _recurrent("LSTM"), "GRU": _recurrent("GRU"), "RNN": _recurrent("RNN"),
    # Shape computations (the frontend folds them).
    "Shape": _shape, "Size": lambda x: torch.tensor(x.numel(), dtype=torch.int64),
    "ConstantOfShape": _constant_of_shape, "Range": _range, "Mod": _mod,
    "Floor": torch.floor, "Ceil": torch.ceil, "Sign": torch.sign,
    "Not": torch.logical_not, "And": torch.logical_and, "Or": torch.logical_or,
    "Xor": torch.logical_xor, "ReduceProd": _reduce(_prod),
    "ReduceMin": _reduce(lambda x, a, k: x.amin(a, keepdim=k)),
    "ReduceL1": _reduce(lambda x, a, k: x.abs().sum(a, keepdim=k)),
    "ReduceL2": _reduce(lambda x, a, k: x.square().sum(a, keepdim=k).sqrt()),
    "ReduceSumSquare": _reduce(lambda x, a, k: x.square().sum(a, keepdim=k)),
}

#: Operators whose second input is named ``axes_input`` (axes as an input).
_AXES_INPUT = {"ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1",
               "ReduceL2", "ReduceSumSquare"}


def _fold(fn, xs):
    result = xs[0]
    for x in xs[1:]:
        result = fn(result, x)
    return result


def evaluate(model: onnx.ModelProto, inputs: Sequence[np.ndarray]) -> List[np.ndarray]:
    """Runs ``model`` on ``inputs`` (graph inputs that are not initializers)."""
    env: Dict[str, torch.Tensor] = {
        t.name: torch.from_numpy(numpy_helper.to_array(t).copy())
        for t in model.graph.initializer}
    names = [vi.name for vi in model.graph.input if vi.name not in env]
    for name, array in zip(names, inputs):
        env[name] = torch.from_numpy(np.asarray(array).copy())
    with torch.no_grad():
        for node in model.graph.node:
            attrs = _attrs(node)
            if node.op_type == "Constant":
                env[node.output[0]] = torch.from_numpy(
                    numpy_helper.to_array(attrs["value"]).copy())
                continue
            args = [env[name] if name else None for name in node.input]
            if node.op_type in _AXES_INPUT and len(args) > 1:
                attrs["axes_input"] = args.pop(1)
            if node.op_type == "Split":
                attrs["_count"] = len(node.output)
            while args and args[-1] is None:
                args.pop()
            result = _OPS[node.op_type](*args, **attrs)
            results = list(result) if isinstance(result, (tuple, list)) else [result]
            for name, value in zip(node.output, results):
                env[name] = value
    return [env[vi.name].numpy() for vi in model.graph.output]
