"""A small reference evaluator for relay text produced by the frontends.

It executes a ``func.func`` written by :mod:`raf_mlir.relay_text` (one
operation per line, custom form, explicit result types) on numpy arrays,
implementing each operator from its definition in
``include/raf/Dialect/Relay/IR/RelayOperators.td`` (``nn.dense`` as
``x . W^T``, ``nn.batch_matmul``'s default ``transpose_b = true``, relay's
padding order, ...). It covers the operators the frontends emit, and exists
to test a frontend's translation independently of the compiler; ``raf-run``
is the real executor.
"""

from __future__ import annotations

import re
from typing import Any, Callable, Dict, List, Optional, Sequence

import numpy as np
import torch
import torch.nn.functional as F

_DTYPES = {"f32": np.float32, "f64": np.float64, "f16": np.float16, "i64": np.int64,
           "i32": np.int32, "i16": np.int16, "i8": np.int8, "i1": np.bool_}

_FUNC = re.compile(r"func\.func (?:\w+ )?@([\w.$-]+)\((.*?)\)\s*->", re.S)
_ARG = re.compile(r"(%[\w.$-]+): tensor<([^>]*)>")
_CONSTANT = re.compile(r"^(%[\w.$-]+) = relay\.constant (dense<.*>) : tensor<([^>]*)>$")
_OP = re.compile(r"^(%[\w.$-]+)(?::(\d+))? = relay\.([\w.]+)(.*?)(?: \{(.*)\})? : \(")
_RETURN = re.compile(r"^return (.*?) :")


def _parse_type(text: str) -> tuple:
    *dims, dtype = text.split("x")
    return tuple(int(d) for d in dims), _DTYPES[dtype]


def _split_top_level(text: str) -> List[str]:
    parts, depth, current = [], 0, ""
    for ch in text:
        if ch in "<[({":
            depth += 1
        elif ch in ">])}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += ch
    if current.strip():
        parts.append(current.strip())
    return parts


def _parse_attr(text: str) -> Any:
    text = text.strip()
    if text.startswith("array<i64"):
        body = text[len("array<i64"):-1].lstrip(":").strip()
        return [int(v) for v in body.split(",")] if body else []
    if text in ("true", "false"):
        return text == "true"
    if text.startswith('"'):
        return text[1:-1]
    typed = re.fullmatch(r"#relay\.\w+<(\w+)>", text)
    if typed:  # a typed attribute such as #relay.pad_mode<reflect>
        return typed.group(1)
    if text.endswith(": i64"):
        return int(text.split(":")[0])
    if text.endswith(": f64"):
        return float(text.split(":")[0])
    return text  # a type attribute such as f32


def _parse_attrs(text: str) -> Dict[str, Any]:
    if not text:
        return {}
    attrs = {}
    for item in _split_top_level(text):
        key, value = item.split("=", 1)
        attrs[key.strip()] = _parse_attr(value)
    return attrs


def _dense(literal: str, shape: tuple, dtype: type) -> np.ndarray:
    body = literal[len("dense<"):-1]
    if body.startswith('"0x'):
        data = bytes.fromhex(body[3:-1])
        array = np.frombuffer(data, dtype=np.dtype(dtype).newbyteorder("<"))
        if array.size == 1:
            return np.full(shape, array[0], dtype=dtype)
        return array.reshape(shape).astype(dtype)
    if body in ("true", "false"):
        return np.full(shape, body == "true", dtype=dtype)
    return np.full(shape, float(body), dtype=dtype)


def _t(x: np.ndarray) -> torch.Tensor:
    return torch.from_numpy(np.ascontiguousarray(x))


def _padding4(padding: Sequence[int]) -> List[int]:
    if len(padding) == 1:
        return [padding[0]] * 4
    if len(padding) == 2:
        return [padding[0], padding[1], padding[0], padding[1]]
    return list(padding)


def _conv2d(x, w, a):
    top, left, bottom, right = _padding4(a.get("padding", [0]))
    data = F.pad(_t(x), (left, right, top, bottom))
    return F.conv2d(data, _t(w), stride=a.get("strides", [1, 1]),
                    dilation=a.get("dilation", [1, 1]), groups=a.get("groups", 1)).numpy()


def _pool2d(kind: str):
    def run(x, a):
        top, left, bottom, right = _padding4(a.get("padding", [0]))
        if (top, left) != (bottom, right):
            raise NotImplementedError("asymmetric pooling padding")
        kwargs = dict(kernel_size=a["pool_size"], stride=a.get("strides", [1, 1]),
                      padding=(top, left), ceil_mode=a.get("ceil_mode", False))
        if kind == "max":
            return F.max_pool2d(_t(x), dilation=a.get("dilation", [1, 1]), **kwargs).numpy()
        return F.avg_pool2d(_t(x), count_include_pad=a.get("count_include_pad", False),
                            **kwargs).numpy()
    return run


def _batch_norm(x, gamma, beta, mean, var, a):
    axis = a.get("axis", 1) % x.ndim
    shape = [1] * x.ndim
    shape[axis] = -1
    eps = a.get("epsilon", 1e-5)
    scale = gamma if a.get("scale", True) else np.ones_like(gamma)
    shift = beta if a.get("center", True) else np.zeros_like(beta)
    new_mean, new_var = mean, var
    if a.get("training", False):
        # Batch statistics (biased variance) normalise; the moving ones are
        # updated with the unbiased variance.
        others = tuple(i for i in range(x.ndim) if i != axis)
        count = x.size // x.shape[axis]
        x64 = x.astype(np.float64)
        batch_mean = x64.mean(axis=others)
        batch_var = x64.var(axis=others)
        momentum = a.get("momentum", 0.1)
        new_mean = ((1 - momentum) * mean + momentum * batch_mean).astype(mean.dtype)
        unbiased = batch_var * count / max(count - 1, 1)
        new_var = ((1 - momentum) * var + momentum * unbiased).astype(var.dtype)
        mean, var = batch_mean, batch_var
    y = (x - mean.reshape(shape)) / np.sqrt(var.reshape(shape) + eps) * scale.reshape(shape) \
        + shift.reshape(shape)
    return [y.astype(x.dtype), new_mean, new_var]


def _reduce_loss(losses, reduction, count=None):
    if reduction == "none":
        return losses
    total = losses.sum()
    if reduction == "mean":
        total = total / (losses.size if count is None else count)
    return np.asarray(total)


def _nll_loss(pred, targets, a):
    ignore = a.get("ignore_index", -100)
    counted = targets != ignore
    safe = np.where(counted, targets, 0)
    picked = np.take_along_axis(pred, np.expand_dims(safe, 1), axis=1).squeeze(1)
    losses = np.where(counted, -picked, 0).astype(pred.dtype)
    return _reduce_loss(losses, a.get("reduction", "mean"), counted.sum()).astype(pred.dtype)


def _cross_entropy(logits, target, a):
    shifted = logits - logits.max(axis=1, keepdims=True)
    log_probs = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    if target.dtype.kind in "iu":
        target = np.eye(logits.shape[1], dtype=logits.dtype)[target]
    losses = -(target * log_probs).sum(axis=1)
    return _reduce_loss(losses, a.get("reduction", "mean")).astype(logits.dtype)


def _layer_norm(x, gamma, beta, a):
    axis = a.get("axis", -1)
    mean = x.mean(axis=axis, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=axis, keepdims=True)
    shape = [1] * x.ndim
    shape[axis] = -1
    y = (x - mean) / np.sqrt(var + a.get("epsilon", 1e-5))
    if a.get("scale", True):
        y = y * gamma.reshape(shape)
    if a.get("center", True):
        y = y + beta.reshape(shape)
    return y.astype(x.dtype)


def _softmax(x, a, log=False):
    fn = F.log_softmax if log else F.softmax
    return fn(_t(x), dim=a.get("axis", -1)).numpy()


def _bias_add(x, b, a):
    shape = [1] * x.ndim
    shape[a.get("axis", 1) % x.ndim] = -1
    return x + b.reshape(shape)


def _batch_matmul(a_, b_, a):
    lhs = np.swapaxes(a_, 1, 2) if a.get("transpose_a", False) else a_
    rhs = np.swapaxes(b_, 1, 2) if a.get("transpose_b", True) else b_
    return np.matmul(lhs, rhs)


def _matmul(a_, b_, a):
    lhs = a_.T if a.get("transpose_a", False) else a_
    rhs = b_.T if a.get("transpose_b", False) else b_
    return lhs @ rhs


def _strided_slice(x, a):
    axes = a.get("axes", list(range(len(a["begin"]))))
    strides = a.get("strides", [1] * len(axes))
    index = [slice(None)] * x.ndim
    for b, e, s, ax in zip(a["begin"], a["end"], strides, axes):
        index[ax] = slice(b, e, s)
    return x[tuple(index)]


def _reduce(fn):
    def run(x, a):
        axis = a.get("axis")
        axis = tuple(axis) if axis is not None else None
        return fn(x, axis=axis, keepdims=a.get("keepdims", False))
    return run


def _gelu(x, a):
    return F.gelu(_t(x), approximate=a.get("approximate", "none")).numpy()


_OPERATORS: Dict[str, Callable[..., Any]] = {
    "nn.conv2d": _conv2d,
    "nn.dense": lambda x, w, a: np.matmul(x, w.T),
    "nn.matmul": _matmul,
    "nn.batch_matmul": _batch_matmul,
    "nn.bias_add": _bias_add,
    "nn.batch_norm": _batch_norm,
    "nn.layer_norm": _layer_norm,
    "nn.nll_loss": _nll_loss,
    "nn.cross_entropy": _cross_entropy,
    "nn.softmax": _softmax,
    "nn.log_softmax": lambda x, a: _softmax(x, a, log=True),
    "nn.relu": lambda x, a: np.maximum(x, 0).astype(x.dtype),
    "nn.gelu": _gelu,
    "nn.max_pool2d": _pool2d("max"),
    "nn.avg_pool2d": _pool2d("avg"),
    "nn.global_avg_pool2d": lambda x, a: x.mean(axis=(2, 3), keepdims=True),
    "sigmoid": lambda x, a: (1 / (1 + np.exp(-x))).astype(x.dtype),
    "tanh": lambda x, a: np.tanh(x),
    "exp": lambda x, a: np.exp(x),
    "log": lambda x, a: np.log(x),
    "sqrt": lambda x, a: np.sqrt(x),
    "rsqrt": lambda x, a: (1 / np.sqrt(x)).astype(x.dtype),
    "erf": lambda x, a: torch.erf(_t(x)).numpy(),
    "negative": lambda x, a: -x,
    "add": lambda x, y, a: x + y,
    "subtract": lambda x, y, a: x - y,
    "multiply": lambda x, y, a: x * y,
    "divide": lambda x, y, a: x / y,
    "power": lambda x, y, a: np.power(x, y),
    "maximum": lambda x, y, a: np.maximum(x, y),
    "minimum": lambda x, y, a: np.minimum(x, y),
    "reshape": lambda x, a: x.reshape(a["newshape"]),
    "transpose": lambda x, a: np.transpose(x, a.get("axes")),
    "concatenate": None,  # variadic, handled in evaluate()
    "split": lambda x, a: np.split(x, a["sections"], axis=a.get("axis", 0)),
    "strided_slice": _strided_slice,
    "take": lambda x, i, a: np.take(x, i, axis=a.get("axis")),
    "mean": _reduce(np.mean),
    "sum": _reduce(np.sum),
    "max": _reduce(np.max),
    "ones": lambda a: np.ones(a["shape"], _DTYPES[a["dtype"]]),
    "zeros": lambda a: np.zeros(a["shape"], _DTYPES[a["dtype"]]),
}


def evaluate(mlir_text: str, arguments: Sequence[np.ndarray],
             function: Optional[str] = None) -> List[np.ndarray]:
    """Runs ``function`` (default: the first) of ``mlir_text`` on ``arguments``."""
    functions = list(_FUNC.finditer(mlir_text))
    match = next((m for m in functions if function in (None, m.group(1))), None)
    if match is None:
        raise ValueError(f"no function @{function}")
    params = _ARG.findall(match.group(2))
    if len(params) != len(arguments):
        raise ValueError(f"@{match.group(1)} takes {len(params)} arguments, got {len(arguments)}")
    env: Dict[str, Any] = {}
    for (name, type_text), array in zip(params, arguments):
        shape, dtype = _parse_type(type_text)
        array = np.asarray(array)
        if array.shape != shape:
            raise ValueError(f"argument {name}: shape {array.shape}, expected {shape}")
        env[name] = array.astype(dtype, copy=False)

    body = mlir_text[mlir_text.index("{\n", match.end()) + 2:]
    for raw in body.splitlines():
        line = raw.strip()
        if not line or line.startswith("//"):
            continue
        if line.startswith("return"):
            names = _split_top_level(_RETURN.match(line).group(1))
            return [np.asarray(env[n]) for n in names]
        constant = _CONSTANT.match(line)
        if constant:
            shape, dtype = _parse_type(constant.group(3))
            env[constant.group(1)] = _dense(constant.group(2), shape, dtype)
            continue
        op = _OP.match(line)
        if op is None:
            raise ValueError(f"cannot evaluate line: {line}")
        name, count, op_name, operand_text, attr_text = op.groups()
        operands = [env[o] for o in _split_top_level(operand_text)]
        attrs = _parse_attrs(attr_text)
        if op_name == "concatenate":
            result = np.concatenate(operands, axis=attrs.get("axis", 0))
        elif op_name not in _OPERATORS:
            raise NotImplementedError(f"relay.{op_name}")
        else:
            result = _OPERATORS[op_name](*operands, attrs)
        if count is None:
            env[name] = np.asarray(result)
        else:
            for i, part in enumerate(result):
                env[f"{name}#{i}"] = np.asarray(part)
    raise ValueError("function has no return")
