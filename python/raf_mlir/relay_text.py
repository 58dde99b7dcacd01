"""Emitter for relay-dialect MLIR text.

This module knows the textual syntax only: tensor types, attribute literals,
SSA names and the custom form every relay operator shares::

    %r = relay.nn.conv2d %x, %w {strides = array<i64: 2, 2>} : (tensor<...>, tensor<...>) -> tensor<...>
    %bn:3 = relay.nn.batch_norm %x, ... : (...) -> (tensor<...>, tensor<...>, tensor<...>)
    %c = relay.constant dense<6.0> : tensor<f32>

Result types are always printed; ``raf-opt`` checks them against the types
its shape inference computes, so an emitter mistake is reported at parse
time. What each operator computes (and so its result type) is the business
of :mod:`raf_mlir.relay_ops`.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Dict, Iterable, List, Optional, Sequence, Set

import numpy as np

#: numpy dtype -> MLIR element type.
_NUMPY_TO_MLIR = {
    np.dtype("float32"): "f32",
    np.dtype("float64"): "f64",
    np.dtype("float16"): "f16",
    np.dtype("int64"): "i64",
    np.dtype("int32"): "i32",
    np.dtype("int16"): "i16",
    np.dtype("int8"): "i8",
    np.dtype("bool"): "i1",
}


def mlir_element_type(dtype: np.dtype) -> str:
    """Returns the MLIR element type spelling of a numpy dtype."""
    try:
        return _NUMPY_TO_MLIR[np.dtype(dtype)]
    except KeyError:
        raise ValueError(f"no relay element type for numpy dtype {dtype}") from None


@dataclass(frozen=True)
class TensorType:
    """A ranked, statically shaped tensor type such as ``tensor<1x3xf32>``."""

    shape: tuple
    dtype: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "shape", tuple(int(d) for d in self.shape))
        if any(d < 0 for d in self.shape):
            raise ValueError(f"dynamic or negative dimension in {self.shape}")

    @property
    def rank(self) -> int:
        return len(self.shape)

    @property
    def num_elements(self) -> int:
        return int(math.prod(self.shape))

    def with_shape(self, shape: Iterable[int]) -> "TensorType":
        return TensorType(tuple(shape), self.dtype)

    def __str__(self) -> str:
        dims = "".join(f"{d}x" for d in self.shape)
        return f"tensor<{dims}{self.dtype}>"


@dataclass(frozen=True)
class Value:
    """An SSA value of tensor type: its printed name (``%x``, ``%bn#0``) and type."""

    name: str
    type: TensorType

    @property
    def shape(self) -> tuple:
        return self.type.shape

    @property
    def dtype(self) -> str:
        return self.type.dtype

    @property
    def rank(self) -> int:
        return self.type.rank


# --------------------------------------------------------------------------
# Attribute literals
# --------------------------------------------------------------------------


def float_literal(value: float) -> str:
    """A finite float as an MLIR float literal (which needs a decimal point)."""
    value = float(value)
    if not math.isfinite(value):
        raise ValueError(f"non-finite float {value} has no decimal literal")
    text = repr(value)
    if "e" in text and "." not in text.split("e")[0]:
        mantissa, exponent = text.split("e")
        text = f"{mantissa}.0e{exponent}"
    elif "." not in text and "e" not in text:
        text += ".0"
    return text


def i64(value: int) -> str:
    """An ``i64`` integer attribute."""
    return f"{int(value)} : i64"


def f64(value: float) -> str:
    """An ``f64`` float attribute."""
    return f"{float_literal(value)} : f64"


def boolean(value: bool) -> str:
    """A ``BoolAttr``."""
    return "true" if value else "false"


def string(value: str) -> str:
    """A ``StrAttr`` (double-quoted, escaped)."""
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'"{escaped}"'


def enum(mnemonic: str, value: str) -> str:
    """A typed relay attribute such as ``#relay.pad_mode<reflect>``.

    ``mnemonic`` is ``pad_mode``, ``loss_reduction``, ``take_mode``,
    ``gelu_approximation`` or ``layout`` (``#relay.layout<NHWC>``).
    """
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", value):
        raise ValueError(f"{value!r} is not a {mnemonic} value")
    return f"#relay.{mnemonic}<{value}>"


def i64_array(values: Iterable[int]) -> str:
    """A ``DenseI64ArrayAttr`` such as ``array<i64: 1, 2>``."""
    values = [int(v) for v in values]
    if not values:
        return "array<i64>"
    return "array<i64: " + ", ".join(str(v) for v in values) + ">"


def type_attr(dtype: str) -> str:
    """A ``TypeAttr`` naming an element type (``f32``, ``i8``, ...)."""
    return dtype


def dense_literal(array: np.ndarray) -> str:
    """``dense<...>`` for a numpy array of the element type it will be given.

    Scalars and single-element tensors are printed as a decimal splat; larger
    tensors as MLIR's little-endian hex blob (compact and exact).
    """
    array = np.asarray(array)
    mlir_element_type(array.dtype)  # rejects unsupported dtypes
    if array.size == 1:
        item = array.reshape(-1)[0]
        if array.dtype == np.bool_:
            return "dense<true>" if item else "dense<false>"
        if np.issubdtype(array.dtype, np.floating):
            return f"dense<{float_literal(float(item))}>"
        return f"dense<{int(item)}>"
    if array.dtype == np.bool_:
        # No hex form for i1: nested lists, one level per dimension (a flat
        # list is only accepted for rank 1).
        def nested(a: np.ndarray) -> str:
            if a.ndim == 0:
                return "true" if a else "false"
            return "[" + ", ".join(nested(row) for row in a) + "]"
        return f"dense<{nested(array)}>"
    little_endian = array.astype(array.dtype.newbyteorder("<"), copy=False)
    blob = np.ascontiguousarray(little_endian).tobytes().hex().upper()
    return f'dense<"0x{blob}">'


# --------------------------------------------------------------------------
# Functions
# --------------------------------------------------------------------------

_SSA_ID = re.compile(r"[^A-Za-z0-9_$.]")


def _sanitize(hint: str) -> str:
    name = _SSA_ID.sub("_", hint) or "v"
    if name[0].isdigit():
        name = "v" + name
    return name


@dataclass
class FunctionBuilder:
    """Accumulates one ``func.func`` in ANF: arguments, operations, results.

    Operations are printed in the order they are emitted. Arguments may be
    added at any time; their order in the signature is ``arguments``' order
    at :meth:`render` time (callers may reorder that list).
    """

    name: str
    visibility: Optional[str] = None
    arguments: List[Value] = field(default_factory=list)
    _lines: List[str] = field(default_factory=list)
    _used_names: Set[str] = field(default_factory=set)
    _results: Optional[List[Value]] = None

    def fresh_name(self, hint: str) -> str:
        """A unique SSA name (with ``%``) derived from ``hint``."""
        base = _sanitize(hint)
        name, count = base, 0
        while name in self._used_names:
            count += 1
            name = f"{base}_{count}"
        self._used_names.add(name)
        return "%" + name

    def add_argument(self, hint: str, type_: TensorType) -> Value:
        value = Value(self.fresh_name(hint), type_)
        self.arguments.append(value)
        return value

    def comment(self, text: str) -> None:
        """Adds a ``//`` comment line before the next operation."""
        for line in text.splitlines():
            self._lines.append(f"// {line}".rstrip())

    def op(self, op_name: str, operands: Sequence[Value],
           result_types: Sequence[TensorType],
           attributes: Optional[Dict[str, str]] = None,
           hint: str = "v") -> List[Value]:
        """Emits ``relay.<op_name>`` in the relay operators' custom form.

        ``attributes`` maps attribute names to literals made by the helpers
        of this module (:func:`i64`, :func:`i64_array`, ...).
        """
        if not result_types:
            raise ValueError(f"relay.{op_name} needs at least one result")
        name = self.fresh_name(hint)
        lhs = name if len(result_types) == 1 else f"{name}:{len(result_types)}"
        text = f"{lhs} = relay.{op_name}"
        if operands:
            text += " " + ", ".join(v.name for v in operands)
        if attributes:
            text += " {" + ", ".join(f"{k} = {v}" for k, v in attributes.items()) + "}"
        text += " : (" + ", ".join(str(v.type) for v in operands) + ") -> "
        if len(result_types) == 1:
            text += str(result_types[0])
            results = [Value(name, result_types[0])]
        else:
            text += "(" + ", ".join(str(t) for t in result_types) + ")"
            results = [Value(f"{name}#{i}", t) for i, t in enumerate(result_types)]
        self._lines.append(text)
        return results

    def constant(self, array: np.ndarray, hint: str = "cst") -> Value:
        """Emits ``relay.constant dense<...> : tensor<...>``."""
        array = np.asarray(array)
        type_ = TensorType(array.shape, mlir_element_type(array.dtype))
        name = self.fresh_name(hint)
        self._lines.append(f"{name} = relay.constant {dense_literal(array)} : {type_}")
        return Value(name, type_)

    def ret(self, values: Sequence[Value]) -> None:
        """Sets the function's results (``func.return``)."""
        self._results = list(values)

    def render(self) -> str:
        """The ``func.func`` as text."""
        if self._results is None:
            raise ValueError(f"function @{self.name} has no return")
        args = ",\n    ".join(f"{a.name}: {a.type}" for a in self.arguments)
        result_types = ", ".join(str(v.type) for v in self._results)
        if len(self._results) != 1:
            result_types = f"({result_types})"
        visibility = f"{self.visibility} " if self.visibility else ""
        lines = [f"func.func {visibility}@{self.name}(\n    {args})\n    -> {result_types} {{"]
        lines += ["  " + line for line in self._lines]
        returned = ", ".join(v.name for v in self._results)
        returned_types = ", ".join(str(v.type) for v in self._results)
        lines.append(f"  return {returned} : {returned_types}")
        lines.append("}")
        return "\n".join(lines) + "\n"


def render_module(functions: Sequence[FunctionBuilder], header: str = "") -> str:
    """A module of functions, preceded by ``header`` as ``//`` comments."""
    parts = []
    if header:
        parts.append("".join(f"// {line}".rstrip() + "\n" for line in header.splitlines()))
    parts.append("module {\n")
    for function in functions:
        parts.append("".join(f"  {line}\n" if line else "\n"
                             for line in function.render().splitlines()))
    parts.append("}\n")
    return "".join(parts)
