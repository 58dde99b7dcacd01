"""ONNX frontend: an ONNX model -> relay-dialect MLIR.

The model is checked with :func:`onnx.checker.check_model`, its shapes are
inferred with :func:`onnx.shape_inference.infer_shapes`, and every node
becomes relay operators emitted through :class:`raf_mlir.relay_ops.RelayOps`
(the emitter the PyTorch frontend uses too). Every emitted tensor's type is
checked against the shape ONNX inferred for it, when ONNX inferred one.

Function signature (the *argument order*): first the graph inputs that are
not initializers, in ``graph.input`` order; then every initializer some node
reads as a tensor, in ``graph.initializer`` order. Initializers read only as
attributes (a ``Reshape`` shape, ``Slice`` bounds, ``Unsqueeze`` axes, ``Clip``
bounds, ...) are folded into the operators and are not arguments. With
``params_as_constants`` the initializers are ``relay.constant`` operations and
only the graph inputs remain. ``Constant`` nodes are always
``relay.constant`` operations. Results are the graph outputs in order.

Shape computations (``Shape`` -> ``Gather`` -> ``Concat`` -> ``Reshape``,
``ConstantOfShape`` -> ``Expand``, ...) are folded with numpy at import time:
with static shapes, ``Shape`` and ``Size`` are constants, and the folding
operators (``_FOLDERS``) run whenever all their operands are compile-time
constants that are not weight arguments. Folded values used as tensors become
``relay.constant`` operations.

Requirements: the default (``ai.onnx``) opset is 13 or later, every shape is
static, and operands that decide shapes (see above) are initializers,
``Constant`` outputs or folded values. Anything else is a
:class:`FrontendError`; an operator the frontend does not know is an
:class:`UnsupportedOperationError` naming the op type and the node.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np
import onnx
from onnx import numpy_helper

from raf_mlir.errors import FrontendError, UnsupportedOperationError
from raf_mlir.imported import ImportedModule, make_arguments
from raf_mlir import relay_text as rt
from raf_mlir.relay_ops import RelayOps
from raf_mlir.relay_text import FunctionBuilder, TensorType, Value, mlir_element_type, \
    render_module

__all__ = ["MIN_OPSET", "SUPPORTED_OPS", "import_onnx", "UnsupportedOperationError"]

#: The oldest default-domain opset the frontend accepts.
MIN_OPSET = 13

_DEFAULT_DOMAINS = ("", "ai.onnx")


def _numpy_dtype(elem_type: int) -> np.dtype:
    try:
        return np.dtype(onnx.mapping.TENSOR_TYPE_TO_NP_TYPE[elem_type])
    except KeyError:
        raise FrontendError(f"ONNX element type {onnx.TensorProto.DataType.Name(elem_type)} "
                            "is not supported") from None


def _mlir_dtype(elem_type: int) -> str:
    dtype = _numpy_dtype(elem_type)
    try:
        return mlir_element_type(dtype)
    except ValueError:
        raise FrontendError(f"ONNX element type {onnx.TensorProto.DataType.Name(elem_type)} "
                            "has no relay element type") from None


def _static_type(value_info: onnx.ValueInfoProto, what: str) -> TensorType:
    """The static tensor type of a graph input or output; dynamic dims are errors."""
    if not value_info.type.HasField("tensor_type"):
        raise FrontendError(f"{what} '{value_info.name}' is not a tensor")
    tensor_type = value_info.type.tensor_type
    if not tensor_type.HasField("shape"):
        raise FrontendError(f"{what} '{value_info.name}' has an unknown rank; "
                            "the ONNX frontend needs static shapes")
    shape = []
    for i, dim in enumerate(tensor_type.shape.dim):
        if not dim.HasField("dim_value") or dim.dim_value <= 0:
            symbol = f"'{dim.dim_param}'" if dim.HasField("dim_param") else "unknown"
            raise FrontendError(f"{what} '{value_info.name}' has a dynamic dimension {i} "
                                f"({symbol}); the ONNX frontend needs static shapes "
                                "(fix them, e.g. with onnx.tools.update_model_dims)")
        shape.append(dim.dim_value)
    return TensorType(shape, _mlir_dtype(tensor_type.elem_type))


def _declared_type(value_info: onnx.ValueInfoProto
                   ) -> Optional[Tuple[Tuple[Optional[int], ...], str]]:
    """(shape with None for unknown dimensions, element type) of a declared
    value, or None without a ranked tensor type."""
    if not value_info.type.HasField("tensor_type"):
        return None
    tensor_type = value_info.type.tensor_type
    if not tensor_type.HasField("shape"):
        return None
    shape = tuple(d.dim_value if d.HasField("dim_value") and d.dim_value > 0 else None
                  for d in tensor_type.shape.dim)
    return shape, _mlir_dtype(tensor_type.elem_type)


def _attributes(node: onnx.NodeProto) -> Dict[str, object]:
    return {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}


def _same_pads(size: int, kernel: int, stride: int, dilation: int,
               upper: bool) -> Tuple[int, int]:
    """(begin, end) padding of ``auto_pad = SAME_UPPER / SAME_LOWER``."""
    out = -(-size // stride)
    total = max((out - 1) * stride + (kernel - 1) * dilation + 1 - size, 0)
    small = total // 2
    return (small, total - small) if upper else (total - small, small)


# ---------------------------------------------------------------------------
# The converter
# ---------------------------------------------------------------------------

_Handler = Callable[["_Converter", onnx.NodeProto, Dict[str, object]], List[Value]]
_HANDLERS: Dict[str, _Handler] = {}


def _op(*op_types: str):
    def register(fn: _Handler) -> _Handler:
        for op_type in op_types:
            _HANDLERS[op_type] = fn
        return fn
    return register


class _Converter:
    """Translates the nodes of one (shape-inferred) ONNX graph."""

    def __init__(self, model: onnx.ModelProto, opset: int, function_name: str,
                 params_as_constants: bool):
        self.model = model
        self.graph = model.graph
        self.opset = opset
        self.params_as_constants = params_as_constants
        self.builder = FunctionBuilder(function_name)
        self.ops = RelayOps(self.builder)
        self.initializers: "OrderedDict[str, np.ndarray]" = OrderedDict(
            (t.name, numpy_helper.to_array(t)) for t in self.graph.initializer)
        self.constants: Dict[str, np.ndarray] = dict(self.initializers)
        self.values: Dict[str, Value] = {}
        self.input_arguments: List[Tuple[str, Value]] = []
        self.weight_arguments: Dict[str, Value] = {}
        self.inferred: Dict[str, onnx.ValueInfoProto] = {
            vi.name: vi for vi in list(self.graph.value_info) + list(self.graph.output)}
        self.node: Optional[onnx.NodeProto] = None

    # -- errors --------------------------------------------------------------

    def node_label(self, node: onnx.NodeProto) -> str:
        if node.name:
            return node.name
        return f"#{list(self.graph.node).index(node)} (outputs {', '.join(node.output)})"

    def unsupported(self, reason: str = "") -> UnsupportedOperationError:
        return UnsupportedOperationError(self.node.op_type, self.node_label(self.node), reason,
                                         graph="ONNX")

    def error(self, message: str) -> FrontendError:
        return FrontendError(f"ONNX node '{self.node_label(self.node)}' "
                             f"({self.node.op_type}): {message}")

    # -- operands ------------------------------------------------------------

    def has_input(self, index: int) -> bool:
        return index < len(self.node.input) and self.node.input[index] != ""

    def tensor(self, index: int) -> Value:
        """Input ``index`` of the current node as an SSA value."""
        if not self.has_input(index):
            raise self.error(f"input {index} is required")
        name = self.node.input[index]
        if name in self.values:
            return self.values[name]
        if name in self.initializers and not self.params_as_constants:
            array = self.initializers[name]
            value = self.builder.add_argument(
                name, TensorType(array.shape, _mlir_dtype_of(array, name)))
            self.weight_arguments[name] = value
        elif name in self.constants:
            array = self.constants[name]
            _mlir_dtype_of(array, name)
            value = self.ops.constant(array, name)
        else:
            raise self.error(f"input '{name}' is not defined before the node")
        self.values[name] = value
        return value

    def constant(self, index: int, what: str) -> np.ndarray:
        """Input ``index`` as a compile-time array (initializer or Constant)."""
        name = self.node.input[index]
        if name not in self.constants:
            raise self.error(f"{what} (input '{name}') must be an initializer or a "
                             "Constant output; computed values are not supported")
        return self.constants[name]

    def optional_ints(self, index: int, what: str) -> Optional[List[int]]:
        if not self.has_input(index):
            return None
        return [int(v) for v in self.constant(index, what).reshape(-1)]

    # -- the graph -----------------------------------------------------------

    def run(self) -> List[Value]:
        for vi in self.graph.input:
            if vi.name in self.initializers:
                continue  # IR < 4 lists initializers as inputs too
            value = self.builder.add_argument(vi.name, _static_type(vi, "graph input"))
            self.values[vi.name] = value
            self.input_arguments.append((vi.name, value))
        for node in self.graph.node:
            self.node = node
            self.convert(node)
        self.node = None
        results = []
        for vi in self.graph.output:
            if vi.name in self.values:
                value = self.values[vi.name]
            elif vi.name in self.constants or vi.name in self.initializers:
                value = self.ops.constant(self.constants[vi.name], vi.name)
            else:
                raise FrontendError(f"graph output '{vi.name}' is not computed by any node")
            # Exporters may declare symbolic output dimensions where their
            # shape inference gave up; the translation knows them.
            declared = _declared_type(vi)
            if declared is None or len(declared[0]) != value.rank or \
                    declared[1] != value.dtype or \
                    any(d is not None and d != e for d, e in zip(declared[0], value.shape)):
                shape = "?" if declared is None else \
                    "x".join("?" if d is None else str(d) for d in declared[0])
                raise FrontendError(f"graph output '{vi.name}' is {value.type}, ONNX declares "
                                    f"{shape} of {declared[1] if declared else '?'}")
            results.append(value)
        # Weights in graph.initializer order, after the graph inputs.
        weights = [self.weight_arguments[n] for n in self.initializers
                   if n in self.weight_arguments]
        self.builder.arguments = [v for _, v in self.input_arguments] + weights
        self.builder.ret(results)
        return results

    def convert(self, node: onnx.NodeProto) -> None:
        if node.domain not in _DEFAULT_DOMAINS:
            raise UnsupportedOperationError(f"{node.domain}.{node.op_type}",
                                            self.node_label(node),
                                            "only the default ONNX domain is supported",
                                            graph="ONNX")
        if node.op_type in _FOLDERS and self.foldable(node):
            self.fold(node)
            return
        handler = _HANDLERS.get(node.op_type)
        if handler is None:
            if node.op_type in _FOLDERS:
                raise self.unsupported("only on compile-time constants (shape computations); "
                                       "an operand here is computed from the graph inputs")
            raise self.unsupported()
        if node.op_type == "Constant":
            handler(self, node, _attributes(node))
            return
        try:
            results = handler(self, node, _attributes(node))
        except ValueError as error:  # shape errors raised by RelayOps
            raise self.error(str(error)) from None
        outputs = [name for name in node.output]
        if any(name and name not in self.constants for name in outputs[len(results):]):
            raise self.unsupported(f"only the first {len(results)} output(s) are supported")
        for name, value in zip(outputs, results):
            if not name:
                continue
            self.check_type(name, value)
            self.values[name] = value

    def check_type(self, name: str, value: Union[Value, TensorType]) -> None:
        """Compares an emitted type with ONNX's inferred one.

        Dimensions ONNX leaves unknown are not compared: shapes computed in
        the graph (``Reshape`` by a ``Shape``-derived tensor) are only known
        once the frontend has folded the computation."""
        type_ = value.type if isinstance(value, Value) else value
        info = self.inferred.get(name)
        if info is None or not info.type.HasField("tensor_type"):
            return
        tensor_type = info.type.tensor_type
        if not tensor_type.HasField("shape"):
            return
        dims = tensor_type.shape.dim
        shape = tuple(d.dim_value if d.HasField("dim_value") else None for d in dims)
        dtype = _mlir_dtype(tensor_type.elem_type)
        if len(shape) != type_.rank or dtype != type_.dtype or \
                any(d is not None and d != e for d, e in zip(shape, type_.shape)):
            inferred = "x".join("?" if d is None else str(d) for d in shape)
            raise self.error(f"translated '{name}' has type {type_}, ONNX infers "
                             f"tensor<{inferred}{'x' if shape else ''}{dtype}>")

    # -- constant folding ----------------------------------------------------

    def is_weight(self, name: str) -> bool:
        """An initializer that becomes a function argument (a model weight)."""
        return name in self.initializers and not self.params_as_constants and \
            self.initializers[name].dtype.kind == "f"

    def foldable(self, node: onnx.NodeProto) -> bool:
        """Whether ``node`` is computed at import time: ``Shape`` and ``Size``
        always (shapes are static), other folding operators when every
        operand is a compile-time constant that is not a weight argument."""
        if node.op_type in ("Shape", "Size"):
            return True
        names = [n for n in node.input if n]
        return all(n in self.constants and n not in self.values and not self.is_weight(n)
                   for n in names)

    def static_shape(self, index: int) -> Tuple[int, ...]:
        name = self.node.input[index]
        if name in self.values:
            return self.values[name].shape
        if name in self.constants:
            return tuple(self.constants[name].shape)
        raise self.error(f"input '{name}' is not defined before the node")

    def fold(self, node: onnx.NodeProto) -> None:
        inputs = [self.constants.get(n) if n else None for n in node.input]
        try:
            results = _FOLDERS[node.op_type](self, node, _attributes(node), inputs)
        except (ValueError, IndexError, TypeError, ZeroDivisionError) as error:
            raise self.error(f"folding failed: {error}") from None
        for name, array in zip(node.output, results):
            if not name:
                continue
            array = np.asarray(array)
            try:
                type_ = TensorType(array.shape, mlir_element_type(array.dtype))
            except ValueError:
                type_ = None  # only an error if the value is used as a tensor
            if type_ is not None:
                self.check_type(name, type_)
            self.constants[name] = array


def _mlir_dtype_of(array: np.ndarray, name: str) -> str:
    try:
        return mlir_element_type(array.dtype)
    except ValueError:
        raise FrontendError(f"tensor '{name}' has element type {array.dtype}, "
                            "which relay does not support") from None


# ---------------------------------------------------------------------------
# Operators
# ---------------------------------------------------------------------------

_UNARY = {"Relu": "nn.relu", "Sigmoid": "sigmoid", "Tanh": "tanh", "Erf": "erf",
          "Sqrt": "sqrt", "Exp": "exp", "Log": "log", "Neg": "negative"}
_BINARY = {"Add": "add", "Sub": "subtract", "Mul": "multiply", "Div": "divide",
           "Pow": "power", "Equal": "equal", "Less": "less", "Greater": "greater",
           "LessOrEqual": "less_equal", "GreaterOrEqual": "greater_equal"}


@_op(*_UNARY)
def _unary(c: _Converter, node, attrs) -> List[Value]:
    return [c.ops.unary(_UNARY[node.op_type], c.tensor(0), hint=node.output[0])]


@_op(*_BINARY)
def _binary(c: _Converter, node, attrs) -> List[Value]:
    lhs, rhs = c.tensor(0), c.tensor(1)
    if node.op_type == "Pow" and rhs.dtype != lhs.dtype:
        rhs = c.ops.cast(rhs, lhs.dtype)
    if lhs.dtype != rhs.dtype:
        raise c.error(f"operand types {lhs.type} and {rhs.type} differ")
    return [c.ops.binary(_BINARY[node.op_type], lhs, rhs, hint=node.output[0])]


@_op("Max", "Min")
def _variadic_extremum(c: _Converter, node, attrs) -> List[Value]:
    name = "maximum" if node.op_type == "Max" else "minimum"
    result = c.tensor(0)
    for i in range(1, len(node.input)):
        result = c.ops.binary(name, result, c.tensor(i), hint=node.output[0])
    return [result]


@_op("LeakyRelu")
def _leaky_relu(c: _Converter, node, attrs) -> List[Value]:
    return [c.ops.leaky_relu(c.tensor(0), float(attrs.get("alpha", 0.01)), hint=node.output[0])]


@_op("Clip")
def _clip(c: _Converter, node, attrs) -> List[Value]:
    x = c.tensor(0)
    result = x
    for index, name in ((1, "maximum"), (2, "minimum")):
        if c.has_input(index):
            bound = c.constant(index, "Clip bound").reshape(-1)
            if bound.size != 1:
                raise c.error("Clip bounds must be scalars")
            result = c.ops.binary(name, result, c.ops.scalar(bound[0], x.dtype),
                                  hint=node.output[0])
    return [result]


@_op("Identity", "Dropout")
def _identity(c: _Converter, node, attrs) -> List[Value]:
    if node.op_type == "Dropout":
        ratio = float(c.constant(1, "Dropout ratio").reshape(-1)[0]) if c.has_input(1) else 0.5
        if c.has_input(2) and bool(c.constant(2, "Dropout training_mode").reshape(-1)[0]) \
                and ratio != 0:
            raise c.unsupported(f"training_mode = true with ratio {ratio} (only inference, "
                                "or a ratio of 0, is supported)")
        x = c.tensor(0)
        if len(node.output) > 1 and node.output[1]:
            # Nothing is dropped, so the mask is all true: a compile-time constant.
            c.constants[node.output[1]] = np.ones(x.shape, dtype=np.bool_)
        return [x]
    return [c.tensor(0)]


@_op("Constant")
def _constant(c: _Converter, node, attrs) -> List[Value]:
    if "value" in attrs:
        array = numpy_helper.to_array(attrs["value"])
    elif "value_float" in attrs:
        array = np.array(attrs["value_float"], dtype=np.float32)
    elif "value_floats" in attrs:
        array = np.array(attrs["value_floats"], dtype=np.float32)
    elif "value_int" in attrs:
        array = np.array(attrs["value_int"], dtype=np.int64)
    elif "value_ints" in attrs:
        array = np.array(attrs["value_ints"], dtype=np.int64)
    else:
        raise c.unsupported(f"attribute {', '.join(attrs) or '(none)'}")
    c.constants[node.output[0]] = array
    return []


@_op("Cast")
def _cast(c: _Converter, node, attrs) -> List[Value]:
    return [c.ops.cast(c.tensor(0), _mlir_dtype(int(attrs["to"])), hint=node.output[0])]


@_op("Where")
def _where(c: _Converter, node, attrs) -> List[Value]:
    return [c.ops.where(c.tensor(0), c.tensor(1), c.tensor(2), hint=node.output[0])]


# -- convolution, normalisation, pooling ---------------------------------------


def _spatial_pads(c: _Converter, x: Value, attrs, kernel: Sequence[int],
                  strides: Sequence[int], dilations: Sequence[int]) -> List[int]:
    """(top, left, bottom, right) from ``pads`` / ``auto_pad``."""
    auto_pad = attrs.get("auto_pad", b"NOTSET")
    auto_pad = auto_pad.decode() if isinstance(auto_pad, bytes) else auto_pad
    if auto_pad in ("SAME_UPPER", "SAME_LOWER"):
        pairs = [_same_pads(x.shape[2 + i], kernel[i], strides[i], dilations[i],
                            auto_pad == "SAME_UPPER") for i in range(2)]
        return [pairs[0][0], pairs[1][0], pairs[0][1], pairs[1][1]]
    if auto_pad == "VALID":
        return [0, 0, 0, 0]
    if auto_pad != "NOTSET":
        raise c.error(f"unknown auto_pad '{auto_pad}'")
    pads = list(attrs.get("pads", [0, 0, 0, 0]))
    if len(pads) != 4:
        raise c.unsupported("only 2-D (NCHW) windows are supported")
    return pads


def _require_4d(c: _Converter, x: Value) -> None:
    if x.rank != 4:
        raise c.unsupported(f"only 2-D (NCHW) inputs are supported, got {x.type}")


@_op("Conv")
def _conv(c: _Converter, node, attrs) -> List[Value]:
    x, w = c.tensor(0), c.tensor(1)
    _require_4d(c, x)
    kernel = list(attrs.get("kernel_shape", w.shape[2:]))
    strides = list(attrs.get("strides", [1, 1]))
    dilations = list(attrs.get("dilations", [1, 1]))
    pads = _spatial_pads(c, x, attrs, kernel, strides, dilations)
    result = c.ops.conv2d(x, w, strides, pads, dilations, int(attrs.get("group", 1)),
                          hint=node.output[0])
    if c.has_input(2):
        result = c.ops.bias_add(result, c.tensor(2), axis=1, hint=node.output[0])
    return [result]


@_op("BatchNormalization")
def _batch_norm(c: _Converter, node, attrs) -> List[Value]:
    if int(attrs.get("training_mode", 0)):
        raise c.unsupported("training_mode = 1 (only inference is supported)")
    x = c.tensor(0)
    gamma, beta, mean, var = (c.tensor(i) for i in range(1, 5))
    return [c.ops.batch_norm(x, gamma, beta, mean, var, axis=1,
                             epsilon=float(attrs.get("epsilon", 1e-5)), hint=node.output[0])]


@_op("LayerNormalization")
def _layer_norm(c: _Converter, node, attrs) -> List[Value]:
    if any(name for name in node.output[1:]):
        raise c.unsupported("the Mean and InvStdDev outputs")
    x, scale = c.tensor(0), c.tensor(1)
    axis = int(attrs.get("axis", -1)) % x.rank
    epsilon = float(attrs.get("epsilon", 1e-5))
    hint = node.output[0]
    if axis == x.rank - 1 and scale.shape == x.shape[-1:] and \
            (not c.has_input(2) or c.tensor(2).shape == x.shape[-1:]):
        beta = c.tensor(2) if c.has_input(2) else c.ops.zeros(scale.shape, scale.dtype)
        return [c.ops.layer_norm(x, scale, beta, axis=-1, epsilon=epsilon,
                                 center=c.has_input(2), hint=hint)]
    # Normalisation over several trailing axes: the decomposed form.
    axes = list(range(axis, x.rank))
    mean = c.ops.reduce("mean", x, axes, keepdims=True, hint=hint + "_mean")
    centered = c.ops.binary("subtract", x, mean, hint=hint + "_centered")
    square = c.ops.binary("multiply", centered, centered, hint=hint + "_sq")
    var = c.ops.reduce("mean", square, axes, keepdims=True, hint=hint + "_var")
    std = c.ops.unary("sqrt", c.ops.binary("add", var, c.ops.scalar(epsilon, x.dtype)),
                      hint=hint + "_std")
    result = c.ops.binary("multiply", c.ops.binary("divide", centered, std), scale, hint=hint)
    if c.has_input(2):
        result = c.ops.binary("add", result, c.tensor(2), hint=hint)
    return [result]


def _pool_attrs(c: _Converter, x: Value, attrs) -> Tuple[List[int], List[int], List[int],
                                                          List[int], bool]:
    _require_4d(c, x)
    kernel = list(attrs["kernel_shape"])
    strides = list(attrs.get("strides", [1, 1]))
    dilations = list(attrs.get("dilations", [1, 1]))
    pads = _spatial_pads(c, x, attrs, kernel, strides, dilations)
    return kernel, strides, pads, dilations, bool(attrs.get("ceil_mode", 0))


@_op("MaxPool")
def _max_pool(c: _Converter, node, attrs) -> List[Value]:
    if len(node.output) > 1 and node.output[1]:
        raise c.unsupported("the Indices output")
    if int(attrs.get("storage_order", 0)):
        raise c.unsupported("storage_order = 1")
    x = c.tensor(0)
    kernel, strides, pads, dilations, ceil_mode = _pool_attrs(c, x, attrs)
    return [c.ops.pool2d("max", x, kernel, strides, pads, dilations, ceil_mode,
                         hint=node.output[0])]


@_op("AveragePool")
def _avg_pool(c: _Converter, node, attrs) -> List[Value]:
    x = c.tensor(0)
    kernel, strides, pads, dilations, ceil_mode = _pool_attrs(c, x, attrs)
    return [c.ops.pool2d("avg", x, kernel, strides, pads, dilations, ceil_mode,
                         count_include_pad=bool(attrs.get("count_include_pad", 0)),
                         hint=node.output[0])]


@_op("GlobalAveragePool")
def _global_avg_pool(c: _Converter, node, attrs) -> List[Value]:
    x = c.tensor(0)
    _require_4d(c, x)
    return [c.ops.global_avg_pool2d(x, hint=node.output[0])]


@_op("Softmax", "LogSoftmax")
def _softmax(c: _Converter, node, attrs) -> List[Value]:
    # Opset >= 13: one axis (default -1), not the flatten-to-2-D of older opsets.
    return [c.ops.softmax(c.tensor(0), int(attrs.get("axis", -1)), hint=node.output[0],
                          log=node.op_type == "LogSoftmax")]


# -- linear algebra ------------------------------------------------------------------


@_op("MatMul")
def _matmul(c: _Converter, node, attrs) -> List[Value]:
    a, b = c.tensor(0), c.tensor(1)
    hint = node.output[0]
    # NumPy semantics: 1-D operands gain a unit axis that is dropped afterwards.
    a_vector, b_vector = a.rank == 1, b.rank == 1
    if a_vector:
        a = c.ops.reshape(a, (1,) + a.shape)
    if b_vector:
        b = c.ops.reshape(b, b.shape + (1,))
    (m, k), (k2, n) = a.shape[-2:], b.shape[-2:]
    if k != k2:
        raise c.error(f"MatMul of {a.type} and {b.type}: inner dimensions differ")
    batch = tuple(np.broadcast_shapes(a.shape[:-2], b.shape[:-2]))
    if b.rank == 2:
        # [..., M, K] x [K, N]: one 2-D product over the flattened rows.
        rows = c.ops.reshape(a, (math.prod(batch) * m, k)) if a.rank != 2 else a
        result = c.ops.matmul(rows, b, hint=hint)
    else:
        if a.shape[:-2] != batch:
            a = c.ops.broadcast_to(a, batch + (m, k))
        if b.shape[:-2] != batch:
            b = c.ops.broadcast_to(b, batch + (k, n))
        count = math.prod(batch)
        a3 = c.ops.reshape(a, (count, m, k)) if a.rank != 3 else a
        b3 = c.ops.reshape(b, (count, k, n)) if b.rank != 3 else b
        result = c.ops.batch_matmul(a3, b3, transpose_b=False, hint=hint)
    shape = batch + ((m,) if not a_vector else ()) + ((n,) if not b_vector else ())
    if result.shape != shape:
        result = c.ops.reshape(result, shape, hint=hint)
    return [result]


@_op("Gemm")
def _gemm(c: _Converter, node, attrs) -> List[Value]:
    a, b = c.tensor(0), c.tensor(1)
    alpha, beta = float(attrs.get("alpha", 1.0)), float(attrs.get("beta", 1.0))
    trans_a, trans_b = bool(attrs.get("transA", 0)), bool(attrs.get("transB", 0))
    hint = node.output[0]
    if trans_b and not trans_a:
        result = c.ops.dense(a, b, hint=hint)  # x . W^T, the fully connected layer
    else:
        result = c.ops.matmul(a, b, transpose_a=trans_a, transpose_b=trans_b, hint=hint)
    if alpha != 1.0:
        result = c.ops.binary("multiply", result, c.ops.scalar(alpha, result.dtype), hint=hint)
    if c.has_input(2):
        bias = c.tensor(2)
        if beta != 1.0:
            bias = c.ops.binary("multiply", bias, c.ops.scalar(beta, bias.dtype))
        result = c.ops.binary("add", result, bias, hint=hint)
    return [result]


# -- reductions ----------------------------------------------------------------------

_REDUCTIONS = {"ReduceMean": "mean", "ReduceSum": "sum", "ReduceMax": "max"}
#: Reductions composed from relay's sum and max.
_COMPOSED_REDUCTIONS = ("ReduceMin", "ReduceL1", "ReduceL2", "ReduceSumSquare")


@_op(*_REDUCTIONS, *_COMPOSED_REDUCTIONS)
def _reduce(c: _Converter, node, attrs) -> List[Value]:
    x = c.tensor(0)
    hint = node.output[0]
    axes = c.optional_ints(1, f"{node.op_type} axes")
    if axes is None:
        axes = [int(a) for a in attrs.get("axes", [])] or None
    if axes is None or not axes:
        if int(attrs.get("noop_with_empty_axes", 0)):
            return [x]
        axes = list(range(x.rank))
    keepdims = bool(attrs.get("keepdims", 1))
    op = node.op_type
    if op in _REDUCTIONS:
        return [c.ops.reduce(_REDUCTIONS[op], x, axes, keepdims=keepdims, hint=hint)]
    if op == "ReduceMin":  # min(x) = -max(-x)
        negated = c.ops.unary("negative", x, hint=f"{hint}_neg")
        return [c.ops.unary("negative", c.ops.reduce("max", negated, axes, keepdims=keepdims,
                                                     hint=f"{hint}_max"), hint=hint)]
    if op == "ReduceL1":
        return [c.ops.reduce("sum", _abs_value(c, x, f"{hint}_abs"), axes, keepdims=keepdims,
                             hint=hint)]
    square = c.ops.binary("multiply", x, x, hint=f"{hint}_sq")
    total = c.ops.reduce("sum", square, axes, keepdims=keepdims,
                         hint=hint if op == "ReduceSumSquare" else f"{hint}_sum")
    return [total if op == "ReduceSumSquare" else c.ops.unary("sqrt", total, hint=hint)]


# -- shape and layout ------------------------------------------------------------------


@_op("Flatten")
def _flatten(c: _Converter, node, attrs) -> List[Value]:
    x = c.tensor(0)
    axis = int(attrs.get("axis", 1))
    axis = axis + x.rank if axis < 0 else axis
    shape = (math.prod(x.shape[:axis]), math.prod(x.shape[axis:]))
    return [c.ops.reshape(x, shape, hint=node.output[0])]


@_op("Reshape")
def _reshape(c: _Converter, node, attrs) -> List[Value]:
    x = c.tensor(0)
    shape = [int(d) for d in c.constant(1, "Reshape shape").reshape(-1)]
    if not int(attrs.get("allowzero", 0)):
        shape = [x.shape[i] if d == 0 else d for i, d in enumerate(shape)]
    if shape.count(-1) > 1:
        raise c.error(f"shape {shape} has more than one -1")
    if -1 in shape:
        known = math.prod(d for d in shape if d != -1)
        if known == 0 or x.type.num_elements % known:
            raise c.error(f"cannot reshape {x.type} to {shape}")
        shape[shape.index(-1)] = x.type.num_elements // known
    return [c.ops.reshape(x, shape, hint=node.output[0])]


@_op("Transpose")
def _transpose(c: _Converter, node, attrs) -> List[Value]:
    x = c.tensor(0)
    perm = list(attrs.get("perm", reversed(range(x.rank))))
    return [c.ops.transpose(x, perm, hint=node.output[0])]


@_op("Concat")
def _concat(c: _Converter, node, attrs) -> List[Value]:
    values = [c.tensor(i) for i in range(len(node.input))]
    return [c.ops.concatenate(values, int(attrs["axis"]), hint=node.output[0])]


@_op("Unsqueeze")
def _unsqueeze(c: _Converter, node, attrs) -> List[Value]:
    x = c.tensor(0)
    axes = c.optional_ints(1, "Unsqueeze axes")
    if axes is None:
        raise c.error("Unsqueeze needs its axes input (opset 13)")
    rank = x.rank + len(axes)
    axes = sorted(a % rank for a in axes)
    dims = iter(x.shape)
    shape = [1 if i in axes else next(dims) for i in range(rank)]
    return [c.ops.reshape(x, shape, hint=node.output[0])]


@_op("Squeeze")
def _squeeze(c: _Converter, node, attrs) -> List[Value]:
    x = c.tensor(0)
    axes = c.optional_ints(1, "Squeeze axes")
    if axes is None:
        axes = [i for i, d in enumerate(x.shape) if d == 1]
    return [c.ops.squeeze(x, axes, hint=node.output[0])]


@_op("Slice")
def _slice(c: _Converter, node, attrs) -> List[Value]:
    x = c.tensor(0)
    starts = c.optional_ints(1, "Slice starts")
    ends = c.optional_ints(2, "Slice ends")
    axes = c.optional_ints(3, "Slice axes") or list(range(len(starts)))
    steps = c.optional_ints(4, "Slice steps") or [1] * len(starts)
    begin, end, strides, norm_axes = [], [], [], []
    for start, stop, axis, step in zip(starts, ends, axes, steps):
        axis %= x.rank
        dim = x.shape[axis]
        if step == 0:
            raise c.error("Slice step 0")
        start = start + dim if start < 0 else start
        stop = stop + dim if stop < 0 else stop
        if step > 0:
            start, stop = min(max(start, 0), dim), min(max(stop, 0), dim)
        else:
            start, stop = min(max(start, 0), dim - 1), min(max(stop, -1), dim - 1)
            if stop < 0:
                raise c.unsupported("a negative step that runs to the start of the axis")
        begin.append(start)
        end.append(stop)
        strides.append(step)
        norm_axes.append(axis)
    return [c.ops.strided_slice(x, begin, end, strides, norm_axes, hint=node.output[0])]


@_op("Split")
def _split(c: _Converter, node, attrs) -> List[Value]:
    x = c.tensor(0)
    axis = int(attrs.get("axis", 0)) % x.rank
    sizes = c.optional_ints(1, "Split sizes")
    count = len(node.output)
    if sizes is None:
        dim = x.shape[axis]
        if "num_outputs" in attrs:
            count = int(attrs["num_outputs"])
        if dim % count == 0:
            return c.ops.split(x, count, axis, hint=node.output[0])
        part = -(-dim // count)  # opset 18: the last part is smaller
        sizes = [part] * (count - 1) + [dim - part * (count - 1)]
    if sum(sizes) != x.shape[axis] or len(sizes) != count:
        raise c.error(f"split sizes {sizes} do not fit axis {axis} of {x.type} "
                      f"into {count} outputs")
    if count == 1:
        return [x]
    return c.ops.split_at(x, list(np.cumsum(sizes)[:-1]), axis, hint=node.output[0])


@_op("Gather")
def _gather(c: _Converter, node, attrs) -> List[Value]:
    data = c.tensor(0)
    axis = int(attrs.get("axis", 0))
    name = node.input[1]
    if name in c.constants and name not in c.values:
        # Constant indices: negative ones are made positive at import time.
        indices = c.constants[name].astype(np.int64)
        dim = data.shape[axis % data.rank]
        if np.any((indices < -dim) | (indices >= dim)):
            raise c.error(f"Gather index out of range for an axis of size {dim}")
        if name in c.initializers and not c.params_as_constants and np.all(indices >= 0):
            index_value = c.tensor(1)
        else:
            index_value = c.ops.constant(np.where(indices < 0, indices + dim, indices),
                                         hint=name)
        return [c.ops.take(data, index_value, axis, hint=node.output[0])]
    # Computed indices may be negative: "wrap" maps -1 to the last element.
    return [c.ops.take(data, c.tensor(1), axis, mode="wrap", hint=node.output[0])]


# -- activations composed from relay operators ---------------------------------------


def _scalar_like(c: _Converter, value: float, x: Value) -> Value:
    return c.ops.scalar(value, x.dtype)


def _hard_sigmoid_value(c: _Converter, x: Value, alpha: float, beta: float,
                        hint: str) -> Value:
    # max(0, min(1, alpha * x + beta))
    y = c.ops.binary("multiply", x, _scalar_like(c, alpha, x), hint=f"{hint}_scaled")
    y = c.ops.binary("add", y, _scalar_like(c, beta, x), hint=f"{hint}_shifted")
    y = c.ops.binary("minimum", y, _scalar_like(c, 1.0, x), hint=f"{hint}_min")
    return c.ops.binary("maximum", y, _scalar_like(c, 0.0, x), hint=hint)


@_op("HardSigmoid")
def _hard_sigmoid(c: _Converter, node, attrs) -> List[Value]:
    return [_hard_sigmoid_value(c, c.tensor(0), float(attrs.get("alpha", 0.2)),
                                float(attrs.get("beta", 0.5)), node.output[0])]


@_op("HardSwish")
def _hard_swish(c: _Converter, node, attrs) -> List[Value]:
    x = c.tensor(0)
    gate = _hard_sigmoid_value(c, x, 1.0 / 6.0, 0.5, node.output[0] + "_gate")
    return [c.ops.binary("multiply", x, gate, hint=node.output[0])]


def _abs_value(c: _Converter, x: Value, hint: str) -> Value:
    return c.ops.binary("maximum", x, c.ops.unary("negative", x, hint=f"{hint}_neg"), hint=hint)


@_op("Abs")
def _abs(c: _Converter, node, attrs) -> List[Value]:
    return [_abs_value(c, c.tensor(0), node.output[0])]


@_op("Softplus")
def _softplus(c: _Converter, node, attrs) -> List[Value]:
    # log(1 + exp(x)) as relu(x) + log(1 + exp(-|x|)), which does not overflow.
    x, hint = c.tensor(0), node.output[0]
    decay = c.ops.unary("exp", c.ops.unary("negative", _abs_value(c, x, f"{hint}_abs"),
                                           hint=f"{hint}_negabs"), hint=f"{hint}_exp")
    tail = c.ops.unary("log", c.ops.binary("add", decay, _scalar_like(c, 1.0, x),
                                           hint=f"{hint}_1p"), hint=f"{hint}_log")
    return [c.ops.binary("add", c.ops.relu(x, hint=f"{hint}_relu"), tail, hint=hint)]


@_op("Elu")
def _elu(c: _Converter, node, attrs) -> List[Value]:
    # x where x > 0, alpha (exp(x) - 1) elsewhere (exp of min(x, 0): no overflow).
    x, hint = c.tensor(0), node.output[0]
    alpha = float(attrs.get("alpha", 1.0))
    negative = c.ops.unary("exp", c.ops.binary("minimum", x, _scalar_like(c, 0.0, x),
                                               hint=f"{hint}_min"), hint=f"{hint}_exp")
    negative = c.ops.binary("subtract", negative, _scalar_like(c, 1.0, x), hint=f"{hint}_expm1")
    negative = c.ops.binary("multiply", negative, _scalar_like(c, alpha, x), hint=f"{hint}_alpha")
    positive = c.ops.binary("greater", x, _scalar_like(c, 0.0, x), hint=f"{hint}_pos")
    return [c.ops.where(positive, x, negative, hint=hint)]


@_op("PRelu")
def _prelu(c: _Converter, node, attrs) -> List[Value]:
    x, slope, hint = c.tensor(0), c.tensor(1), node.output[0]
    scaled = c.ops.binary("multiply", x, slope, hint=f"{hint}_scaled")
    positive = c.ops.binary("greater", x, _scalar_like(c, 0.0, x), hint=f"{hint}_pos")
    return [c.ops.where(positive, x, scaled, hint=hint)]


@_op("Sum", "Mean")
def _variadic_sum(c: _Converter, node, attrs) -> List[Value]:
    hint = node.output[0]
    result = c.tensor(0)
    for i in range(1, len(node.input)):
        result = c.ops.binary("add", result, c.tensor(i), hint=hint)
    if node.op_type == "Mean" and len(node.input) > 1:
        result = c.ops.binary("divide", result, _scalar_like(c, len(node.input), result),
                              hint=hint)
    return [result]


@_op("Einsum")
def _einsum(c: _Converter, node, attrs) -> List[Value]:
    # The PyTorch frontend's einsum (imported here only for models that use it).
    from raf_mlir.torch_frontend import einsum_value

    equation = attrs["equation"]
    equation = equation.decode() if isinstance(equation, bytes) else equation
    operands = [c.tensor(i) for i in range(len(node.input))]
    try:
        return [einsum_value(c.ops, equation, operands, node.output[0])]
    except ValueError as error:
        raise c.unsupported(str(error)) from None


# -- recurrent layers, unrolled over the static sequence length ----------------------

#: Activation functions of LSTM/GRU/RNN the frontend emits (relay operators).
_RNN_ACTIVATIONS = {"Sigmoid": "sigmoid", "Tanh": "tanh", "Relu": "nn.relu"}
#: Gates per layer and the default activations per direction.
_RNN_GATES = {"LSTM": 4, "GRU": 3, "RNN": 1}
_RNN_DEFAULT_ACTIVATIONS = {"LSTM": ["Sigmoid", "Tanh", "Tanh"], "GRU": ["Sigmoid", "Tanh"],
                            "RNN": ["Tanh"]}


def _string(value: object) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


@_op("LSTM", "GRU", "RNN")
def _recurrent(c: _Converter, node, attrs) -> List[Value]:
    """LSTM, GRU and RNN unrolled into dense / sigmoid / tanh / split
    operators, one cell per time step (every direction, ``layout`` 0 or 1,
    initial states, GRU's ``linear_before_reset`` 0 or 1).

    The input projection of a direction is one ``nn.dense`` over every time
    step. Gate orders are ONNX's: i, o, f, c for LSTM and z, r, h for GRU.
    """
    op = node.op_type
    hint = node.output[0] or node.name or op.lower()
    x, w_all, r_all = c.tensor(0), c.tensor(1), c.tensor(2)
    if "clip" in attrs:
        raise c.unsupported("cell clipping ('clip')")
    if int(attrs.get("input_forget", 0)):
        raise c.unsupported("input_forget = 1")
    if op == "LSTM" and c.has_input(7):
        raise c.unsupported("peephole weights (input P)")
    direction = _string(attrs.get("direction", "forward"))
    directions = 2 if direction == "bidirectional" else 1
    names = [_string(a) for a in attrs.get("activations", [])] or \
        _RNN_DEFAULT_ACTIVATIONS[op] * directions
    if any(n not in _RNN_ACTIVATIONS for n in names) or "activation_alpha" in attrs:
        raise c.unsupported(f"activations {names} (Sigmoid, Tanh and Relu are supported)")
    per_direction = len(_RNN_DEFAULT_ACTIVATIONS[op])
    layout = int(attrs.get("layout", 0))
    if layout:
        x = c.ops.transpose(x, (1, 0, 2), hint=f"{hint}_time_major")
    steps, batch, _ = x.shape
    if c.has_input(4):
        lengths = c.constant(4, f"{op} sequence_lens").reshape(-1)
        if np.any(lengths != steps):
            raise c.unsupported("sequence_lens shorter than the sequence (padded batches)")
    hidden = int(attrs["hidden_size"])
    gates = _RNN_GATES[op]
    linear_before_reset = int(attrs.get("linear_before_reset", 0))

    def state(index: int, name: str) -> List[Optional[Value]]:
        if not c.has_input(index):
            return [None] * directions
        value = c.tensor(index)
        if layout:
            value = c.ops.transpose(value, (1, 0, 2), hint=f"{hint}_{name}0_t")
        return [c.ops.reshape(c.ops.strided_slice(value, [d], [d + 1], [1], [0],
                                                  hint=f"{hint}_{name}0_{d}_slice"),
                              (batch, hidden), hint=f"{hint}_{name}0_{d}")
                for d in range(directions)]

    def slice_rows(value: Value, begin: int, end: int, name: str) -> Value:
        return c.ops.strided_slice(value, [begin], [end], [1], [0], hint=name)

    h_states, c_states = state(5, "h"), state(6, "c") if op == "LSTM" else [None] * directions
    outputs, final_h, final_c = [], [], []
    for d in range(directions):
        name = f"{hint}_d{d}"
        w = c.ops.reshape(slice_rows(w_all, d, d + 1, f"{name}_w_slice"),
                          w_all.shape[1:], hint=f"{name}_w")
        r = c.ops.reshape(slice_rows(r_all, d, d + 1, f"{name}_r_slice"),
                          r_all.shape[1:], hint=f"{name}_r")
        w_bias = r_bias = None
        if c.has_input(3):
            b = c.tensor(3)
            b = c.ops.reshape(slice_rows(b, d, d + 1, f"{name}_b_slice"), b.shape[1:],
                              hint=f"{name}_b")
            w_bias = slice_rows(b, 0, gates * hidden, f"{name}_wb")
            r_bias = slice_rows(b, gates * hidden, 2 * gates * hidden, f"{name}_rb")
            if op != "GRU":  # both biases add to every gate: add them once
                w_bias, r_bias = c.ops.binary("add", w_bias, r_bias, hint=f"{name}_bias"), None
        projected = c.ops.dense(x, w, hint=f"{name}_x")
        if w_bias is not None:
            projected = c.ops.bias_add(projected, w_bias, axis=-1, hint=f"{name}_xb")
        act = [_RNN_ACTIVATIONS[n] for n in names[d * per_direction:(d + 1) * per_direction]]
        h = h_states[d] if h_states[d] is not None else \
            c.ops.zeros((batch, hidden), x.dtype, hint=f"{name}_h0")
        cell = None
        if op == "LSTM":
            cell = c_states[d] if c_states[d] is not None else \
                c.ops.zeros((batch, hidden), x.dtype, hint=f"{name}_c0")
        reverse = direction == "reverse" or d == 1
        per_step: List[Optional[Value]] = [None] * steps
        for t in (range(steps - 1, -1, -1) if reverse else range(steps)):
            step = f"{name}_t{t}"
            xt = c.ops.reshape(c.ops.strided_slice(projected, [t], [t + 1], [1], [0],
                                                   hint=f"{step}_xs"),
                               (batch, gates * hidden), hint=f"{step}_xt")
            if op == "GRU" and not linear_before_reset:
                h = _gru_cell_reset_first(c, xt, h, r, r_bias, hidden, act, step)
            else:
                ht = c.ops.dense(h, r, hint=f"{step}_hd")
                if r_bias is not None:
                    ht = c.ops.bias_add(ht, r_bias, axis=-1, hint=f"{step}_hb")
                if op == "LSTM":
                    h, cell = _onnx_lstm_cell(c, xt, ht, cell, act, step)
                elif op == "GRU":
                    h = _gru_cell(c, xt, ht, h, act, step)
                else:
                    h = c.ops.unary(act[0], c.ops.binary("add", xt, ht, hint=f"{step}_pre"),
                                    hint=f"{step}_h")
            per_step[t] = c.ops.reshape(h, (1, 1, batch, hidden), hint=f"{step}_y")
        outputs.append(per_step[0] if steps == 1 else
                       c.ops.concatenate(per_step, 0, hint=f"{name}_y"))
        final_h.append(c.ops.reshape(h, (1, batch, hidden), hint=f"{name}_yh"))
        if cell is not None:
            final_c.append(c.ops.reshape(cell, (1, batch, hidden), hint=f"{name}_yc"))

    def joined(parts: List[Value], axis: int, name: str) -> Value:
        return parts[0] if len(parts) == 1 else c.ops.concatenate(parts, axis, hint=name)

    y = joined(outputs, 1, f"{hint}_y")  # [steps, directions, batch, hidden]
    y_h = joined(final_h, 0, f"{hint}_yh")
    results = [c.ops.transpose(y, (2, 0, 1, 3), hint=f"{hint}_y_bf") if layout else y,
               c.ops.transpose(y_h, (1, 0, 2), hint=f"{hint}_yh_bf") if layout else y_h]
    if op == "LSTM":
        y_c = joined(final_c, 0, f"{hint}_yc")
        results.append(c.ops.transpose(y_c, (1, 0, 2), hint=f"{hint}_yc_bf") if layout else y_c)
    return results


def _onnx_lstm_cell(c: _Converter, xt: Value, ht: Value, cell: Value, act: List[str],
                    step: str) -> Tuple[Value, Value]:
    gates = c.ops.binary("add", xt, ht, hint=f"{step}_gates")
    i, o, f, g = c.ops.split(gates, 4, 1, hint=f"{step}_split")  # ONNX order: i, o, f, c
    i = c.ops.unary(act[0], i, hint=f"{step}_i")
    f = c.ops.unary(act[0], f, hint=f"{step}_f")
    g = c.ops.unary(act[1], g, hint=f"{step}_g")
    o = c.ops.unary(act[0], o, hint=f"{step}_o")
    cell = c.ops.binary("add", c.ops.binary("multiply", f, cell, hint=f"{step}_fc"),
                        c.ops.binary("multiply", i, g, hint=f"{step}_ig"), hint=f"{step}_c")
    h = c.ops.binary("multiply", o, c.ops.unary(act[2], cell, hint=f"{step}_hc"),
                     hint=f"{step}_h")
    return h, cell


def _gru_update(c: _Converter, z: Value, n: Value, h: Value, step: str) -> Value:
    # h' = (1 - z) * n + z * h
    keep = c.ops.binary("subtract", c.ops.scalar(1.0, z.dtype), z, hint=f"{step}_1mz")
    return c.ops.binary("add", c.ops.binary("multiply", keep, n, hint=f"{step}_zn"),
                        c.ops.binary("multiply", z, h, hint=f"{step}_zh"), hint=f"{step}_h")


def _gru_cell(c: _Converter, xt: Value, ht: Value, h: Value, act: List[str],
              step: str) -> Value:
    """GRU with linear_before_reset = 1: n = g(x Wh + Wbh + r * (h Rh + Rbh))."""
    xz, xr, xn = c.ops.split(xt, 3, 1, hint=f"{step}_xsplit")
    hz, hr, hn = c.ops.split(ht, 3, 1, hint=f"{step}_hsplit")
    z = c.ops.unary(act[0], c.ops.binary("add", xz, hz, hint=f"{step}_zp"), hint=f"{step}_z")
    r = c.ops.unary(act[0], c.ops.binary("add", xr, hr, hint=f"{step}_rp"), hint=f"{step}_r")
    n = c.ops.unary(act[1], c.ops.binary("add", xn, c.ops.binary("multiply", r, hn,
                                                                  hint=f"{step}_rh"),
                                         hint=f"{step}_np"), hint=f"{step}_n")
    return _gru_update(c, z, n, h, step)


def _gru_cell_reset_first(c: _Converter, xt: Value, h: Value, r_weight: Value,
                          r_bias: Optional[Value], hidden: int, act: List[str],
                          step: str) -> Value:
    """GRU with linear_before_reset = 0: n = g(x Wh + Wbh + (r * h) Rh + Rbh)."""
    def rows(value: Value, begin: int, end: int, name: str) -> Value:
        return c.ops.strided_slice(value, [begin], [end], [1], [0], hint=f"{step}_{name}")

    zr = c.ops.dense(h, rows(r_weight, 0, 2 * hidden, "r_zr"), hint=f"{step}_hzr")
    if r_bias is not None:
        zr = c.ops.bias_add(zr, rows(r_bias, 0, 2 * hidden, "rb_zr"), axis=-1,
                            hint=f"{step}_hzrb")
    xz, xr, xn = c.ops.split(xt, 3, 1, hint=f"{step}_xsplit")
    hz, hr = c.ops.split(zr, 2, 1, hint=f"{step}_hsplit")
    z = c.ops.unary(act[0], c.ops.binary("add", xz, hz, hint=f"{step}_zp"), hint=f"{step}_z")
    r = c.ops.unary(act[0], c.ops.binary("add", xr, hr, hint=f"{step}_rp"), hint=f"{step}_r")
    hn = c.ops.dense(c.ops.binary("multiply", r, h, hint=f"{step}_rh"),
                     rows(r_weight, 2 * hidden, 3 * hidden, "r_h"), hint=f"{step}_hn")
    if r_bias is not None:
        hn = c.ops.bias_add(hn, rows(r_bias, 2 * hidden, 3 * hidden, "rb_h"), axis=-1,
                            hint=f"{step}_hnb")
    n = c.ops.unary(act[1], c.ops.binary("add", xn, hn, hint=f"{step}_np"), hint=f"{step}_n")
    return _gru_update(c, z, n, h, step)


# -- padding, broadcasting, tiling -----------------------------------------------------

_PAD_MODES = {"constant": "constant", "reflect": "reflect", "edge": "edge"}


@_op("Pad")
def _pad(c: _Converter, node, attrs) -> List[Value]:
    x, hint = c.tensor(0), node.output[0]
    mode = attrs.get("mode", b"constant")
    mode = mode.decode() if isinstance(mode, bytes) else mode
    if mode not in _PAD_MODES:
        raise c.unsupported(f"mode '{mode}'")
    pads = c.optional_ints(1, "Pad pads")
    if pads is None:
        raise c.error("Pad needs its pads input (opset 11 or later)")
    axes = c.optional_ints(3, "Pad axes") if len(node.input) > 3 else None
    axes = list(range(x.rank)) if axes is None else [a % x.rank for a in axes]
    if len(pads) != 2 * len(axes):
        raise c.error(f"{len(pads)} pads for {len(axes)} axes")
    value = 0.0
    if c.has_input(2):
        value = float(c.constant(2, "Pad constant_value").reshape(-1)[0])
    widths = [(0, 0)] * x.rank
    for i, axis in enumerate(axes):  # ONNX: all begins, then all ends
        widths[axis] = (pads[i], pads[i + len(axes)])
    # Negative pads crop.
    crop = [(max(-b, 0), max(-e, 0)) for b, e in widths]
    if any(b or e for b, e in crop):
        cropped = [i for i, (b, e) in enumerate(crop) if b or e]
        x = c.ops.strided_slice(x, [crop[i][0] for i in cropped],
                                [x.shape[i] - crop[i][1] for i in cropped],
                                [1] * len(cropped), cropped, hint=f"{hint}_crop")
    widths = [(max(b, 0), max(e, 0)) for b, e in widths]
    if not any(b or e for b, e in widths):
        return [x]  # all-zero pads: the identity
    shape = [d + b + e for d, (b, e) in zip(x.shape, widths)]
    pad_attrs = {"pad_width": rt.i64_array([v for pair in widths for v in pair])}
    if value:
        pad_attrs["pad_value"] = rt.f64(value)
    if mode != "constant":
        pad_attrs["pad_mode"] = rt.enum("pad_mode", _PAD_MODES[mode])
    return c.builder.op("nn.pad", [x], [x.type.with_shape(shape)], pad_attrs, hint)


@_op("Expand")
def _expand(c: _Converter, node, attrs) -> List[Value]:
    x = c.tensor(0)
    shape = [int(d) for d in c.constant(1, "Expand shape").reshape(-1)]
    # Bidirectional broadcasting: dimensions of 1 in `shape` keep x's.
    target = tuple(np.broadcast_shapes(x.shape, tuple(shape)))
    if target == x.shape:
        return [x]
    return [c.ops.broadcast_to(x, target, hint=node.output[0])]


@_op("Tile")
def _tile(c: _Converter, node, attrs) -> List[Value]:
    """Tiles with broadcast_to: [d_i] -> [r_i, d_i] -> [r_i * d_i]."""
    x, hint = c.tensor(0), node.output[0]
    repeats = [int(r) for r in c.constant(1, "Tile repeats").reshape(-1)]
    if len(repeats) != x.rank:
        raise c.error(f"{len(repeats)} repeats for a rank-{x.rank} input")
    if all(r == 1 for r in repeats):
        return [x]
    interleaved = [d for size in x.shape for d in (1, size)]
    tiled = [d for r, size in zip(repeats, x.shape) for d in (r, size)]
    y = c.ops.reshape(x, interleaved, hint=f"{hint}_split")
    y = c.ops.broadcast_to(y, tiled, hint=f"{hint}_tile")
    return [c.ops.reshape(y, [r * d for r, d in zip(repeats, x.shape)], hint=hint)]


# ---------------------------------------------------------------------------
# Constant folding: shape computations evaluated at import time with numpy
# (folders: (converter, node, attributes, input arrays) -> output arrays)
# ---------------------------------------------------------------------------

_Folder = Callable[[_Converter, onnx.NodeProto, Dict[str, object], List[Any]], List[np.ndarray]]
_FOLDERS: Dict[str, _Folder] = {}


def _folds(*op_types: str):
    def register(fn: _Folder) -> _Folder:
        for op_type in op_types:
            _FOLDERS[op_type] = fn
        return fn
    return register


@_folds("Shape")
def _fold_shape(c: _Converter, node, attrs, inputs) -> List[np.ndarray]:
    shape = c.static_shape(0)
    start, end = int(attrs.get("start", 0)), attrs.get("end")
    return [np.array(shape[start:None if end is None else int(end)], dtype=np.int64)]


@_folds("Size")
def _fold_size(c: _Converter, node, attrs, inputs) -> List[np.ndarray]:
    return [np.array(math.prod(c.static_shape(0)), dtype=np.int64)]


@_folds("ConstantOfShape")
def _fold_constant_of_shape(c: _Converter, node, attrs, inputs) -> List[np.ndarray]:
    value = numpy_helper.to_array(attrs["value"]).reshape(-1) if "value" in attrs \
        else np.zeros(1, np.float32)
    return [np.full([int(d) for d in inputs[0].reshape(-1)], value[0], dtype=value.dtype)]


def _same_dtype(fn: Callable[..., Any]) -> _Folder:
    """A folder applying ``fn`` to the inputs, keeping the first input's dtype."""
    def fold(c, node, attrs, inputs):
        return [np.asarray(fn(*inputs), dtype=inputs[0].dtype)]
    return fold


def _truncating_divide(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    if a.dtype.kind in "iu":  # integer Div truncates toward zero
        quotient = np.abs(a) // np.abs(b)
        return np.where((a < 0) != (b < 0), -quotient, quotient)
    return a / b


for _name, _fn in [("Add", np.add), ("Sub", np.subtract), ("Mul", np.multiply),
                   ("Div", _truncating_divide), ("Neg", np.negative), ("Abs", np.abs),
                   ("Floor", np.floor), ("Ceil", np.ceil), ("Sqrt", np.sqrt),
                   ("Identity", lambda x: x), ("Sign", np.sign),
                   ("Pow", lambda a, b: np.power(a, b.astype(a.dtype))),
                   ("Max", lambda *xs: np.maximum.reduce(np.broadcast_arrays(*xs))),
                   ("Min", lambda *xs: np.minimum.reduce(np.broadcast_arrays(*xs)))]:
    _folds(_name)(_same_dtype(_fn))

for _name, _fn in [("Equal", np.equal), ("Less", np.less), ("Greater", np.greater),
                   ("LessOrEqual", np.less_equal), ("GreaterOrEqual", np.greater_equal),
                   ("And", np.logical_and), ("Or", np.logical_or), ("Xor", np.logical_xor),
                   ("Not", np.logical_not)]:
    _folds(_name)(lambda c, node, attrs, inputs, fn=_fn: [np.asarray(fn(*inputs))])


@_folds("Mod")
def _fold_mod(c: _Converter, node, attrs, inputs) -> List[np.ndarray]:
    a, b = inputs
    result = np.fmod(a, b) if int(attrs.get("fmod", 0)) else np.mod(a, b)
    return [np.asarray(result, dtype=a.dtype)]


@_folds("Where")
def _fold_where(c: _Converter, node, attrs, inputs) -> List[np.ndarray]:
    return [np.where(*inputs)]


@_folds("Cast")
def _fold_cast(c: _Converter, node, attrs, inputs) -> List[np.ndarray]:
    return [inputs[0].astype(_numpy_dtype(int(attrs["to"])))]


@_folds("Gather")
def _fold_gather(c: _Converter, node, attrs, inputs) -> List[np.ndarray]:
    return [np.take(inputs[0], inputs[1].astype(np.int64), axis=int(attrs.get("axis", 0)))]


@_folds("Unsqueeze")
def _fold_unsqueeze(c: _Converter, node, attrs, inputs) -> List[np.ndarray]:
    x, axes = inputs[0], [int(a) for a in inputs[1].reshape(-1)]
    rank = x.ndim + len(axes)
    return [np.reshape(x, _fill(x.shape, rank, axes))]


def _fill(shape: Sequence[int], rank: int, axes: Sequence[int]) -> List[int]:
    """The dims of ``shape`` spread over ``rank`` positions, skipping ``axes``."""
    dims = iter(shape)
    inserted = {a % rank for a in axes}
    return [1 if i in inserted else next(dims) for i in range(rank)]


@_folds("Squeeze")
def _fold_squeeze(c: _Converter, node, attrs, inputs) -> List[np.ndarray]:
    x = inputs[0]
    if len(inputs) > 1 and inputs[1] is not None:
        return [np.squeeze(x, tuple(int(a) % x.ndim for a in inputs[1].reshape(-1)))]
    return [np.squeeze(x)]


@_folds("Concat")
def _fold_concat(c: _Converter, node, attrs, inputs) -> List[np.ndarray]:
    return [np.concatenate(inputs, axis=int(attrs["axis"]))]


@_folds("Reshape")
def _fold_reshape(c: _Converter, node, attrs, inputs) -> List[np.ndarray]:
    x, shape = inputs[0], [int(d) for d in inputs[1].reshape(-1)]
    if not int(attrs.get("allowzero", 0)):
        shape = [x.shape[i] if d == 0 else d for i, d in enumerate(shape)]
    return [np.reshape(x, shape)]


@_folds("Flatten")
def _fold_flatten(c: _Converter, node, attrs, inputs) -> List[np.ndarray]:
    x = inputs[0]
    axis = int(attrs.get("axis", 1)) % (x.ndim + 1) if x.ndim else 0
    return [np.reshape(x, (math.prod(x.shape[:axis]), math.prod(x.shape[axis:])))]


@_folds("Transpose")
def _fold_transpose(c: _Converter, node, attrs, inputs) -> List[np.ndarray]:
    perm = attrs.get("perm")
    return [np.transpose(inputs[0], None if perm is None else list(perm))]


@_folds("Slice")
def _fold_slice(c: _Converter, node, attrs, inputs) -> List[np.ndarray]:
    x = inputs[0]
    starts, ends = inputs[1].reshape(-1), inputs[2].reshape(-1)
    axes = inputs[3].reshape(-1) if len(inputs) > 3 and inputs[3] is not None \
        else np.arange(len(starts))
    steps = inputs[4].reshape(-1) if len(inputs) > 4 and inputs[4] is not None \
        else np.ones(len(starts), np.int64)
    index = [slice(None)] * x.ndim
    for start, end, axis, step in zip(starts, ends, axes, steps):
        dim = x.shape[int(axis)]
        # numpy slicing has ONNX's clamping, except for an end before the
        # start of the axis with a negative step.
        start, end = int(max(min(start, dim), -dim - 1)), int(max(min(end, dim), -dim - 1))
        index[int(axis)] = slice(start, None if step < 0 and end < -dim else end, int(step))
    return [x[tuple(index)]]


@_folds("Expand")
def _fold_expand(c: _Converter, node, attrs, inputs) -> List[np.ndarray]:
    x, shape = inputs[0], tuple(int(d) for d in inputs[1].reshape(-1))
    return [np.broadcast_to(x, np.broadcast_shapes(x.shape, shape)).copy()]


@_folds("Tile")
def _fold_tile(c: _Converter, node, attrs, inputs) -> List[np.ndarray]:
    return [np.tile(inputs[0], [int(r) for r in inputs[1].reshape(-1)])]


@_folds("ScatterND")
def _fold_scatter_nd(c: _Converter, node, attrs, inputs) -> List[np.ndarray]:
    # Masks built by item assignment (Swin's shifted-window attention mask).
    data, indices, updates = inputs
    reduction = _string(attrs.get("reduction", "none"))
    output = np.array(data, copy=True)
    for position in np.ndindex(*indices.shape[:-1]):
        target = tuple(int(i) for i in indices[position])
        if reduction == "add":
            output[target] += updates[position]
        elif reduction == "mul":
            output[target] *= updates[position]
        else:
            output[target] = updates[position]
    return [output]


@_folds("Range")
def _fold_range(c: _Converter, node, attrs, inputs) -> List[np.ndarray]:
    start, limit, delta = (np.asarray(v).reshape(()) for v in inputs)
    return [np.arange(start, limit, delta, dtype=start.dtype)]


def _fold_reduction(fn: Callable[..., np.ndarray]) -> _Folder:
    def fold(c, node, attrs, inputs):
        x = inputs[0]
        if len(inputs) > 1 and inputs[1] is not None:
            axes = [int(a) for a in inputs[1].reshape(-1)]
        else:
            axes = [int(a) for a in attrs.get("axes", [])]
        if not axes:
            if int(attrs.get("noop_with_empty_axes", 0)):
                return [x]
            axes = list(range(x.ndim))
        keepdims = bool(attrs.get("keepdims", 1))
        return [np.asarray(fn(x, axis=tuple(a % x.ndim for a in axes), keepdims=keepdims),
                           dtype=x.dtype)]
    return fold


for _name, _fn in [("ReduceProd", np.prod), ("ReduceSum", np.sum), ("ReduceMax", np.max),
                   ("ReduceMin", np.min), ("ReduceMean", np.mean)]:
    _folds(_name)(_fold_reduction(_fn))


#: Every ONNX operator type (default domain) the frontend translates: the
#: operators it emits and those it only folds (shape computations).
SUPPORTED_OPS = tuple(sorted(set(_HANDLERS) | set(_FOLDERS)))


# ---------------------------------------------------------------------------
# Entry point
# ---------------------------------------------------------------------------


def _default_opset(model: onnx.ModelProto) -> int:
    for opset in model.opset_import:
        if opset.domain in _DEFAULT_DOMAINS:
            return int(opset.version)
    raise FrontendError("the model imports no default-domain (ai.onnx) opset")


def _random_input(value_type: TensorType, generator: np.random.Generator) -> np.ndarray:
    dtype = {"f32": np.float32, "f64": np.float64, "f16": np.float16, "i64": np.int64,
             "i32": np.int32, "i16": np.int16, "i8": np.int8, "i1": np.bool_}[value_type.dtype]
    if np.issubdtype(dtype, np.floating):
        return generator.standard_normal(value_type.shape).astype(dtype)
    if dtype == np.bool_:
        return generator.integers(0, 2, value_type.shape).astype(np.bool_)
    return generator.integers(0, 10, value_type.shape).astype(dtype)


def import_onnx(model: Union[onnx.ModelProto, str, Path], *,
                function_name: str = "forward", params_as_constants: bool = False,
                example_inputs: Optional[Sequence[np.ndarray]] = None,
                seed: int = 0) -> ImportedModule:
    """Translates an ONNX model into a relay-dialect module.

    Args:
        model: an ``onnx.ModelProto`` or the path of a ``.onnx`` file.
        function_name: name of the public ``func.func``.
        params_as_constants: emit initializers as ``relay.constant``
            operations instead of function arguments.
        example_inputs: arrays for the graph inputs (stored as the input
            ``.npy`` files); standard-normal floats / integers in ``[0, 10)``
            drawn with ``seed`` when not given.
        seed: seed of the generated example inputs.

    Returns:
        An :class:`ImportedModule` without reference outputs (the frontend
        has no ONNX runtime); ``result_types`` lists the graph outputs.

    Raises:
        UnsupportedOperationError: an operator (or a use of it) the frontend
            cannot translate; the message names the op type and the node.
        FrontendError: an invalid model, an opset older than 13, dynamic
            shapes, or another translation failure.
    """
    path = None
    if not isinstance(model, onnx.ModelProto):
        # Weights in external data files (models over protobuf's 2 GB limit)
        # are loaded after checking and shape inference, which need only
        # their shapes: a proto with them inline could not be serialised.
        path = Path(model)
        model = onnx.load(str(path), load_external_data=False)
    external = any(t.data_location == onnx.TensorProto.EXTERNAL
                   for t in model.graph.initializer)
    opset = _default_opset(model)
    if opset < MIN_OPSET:
        raise FrontendError(f"the model uses ONNX opset {opset}; the ONNX frontend needs "
                            f"opset {MIN_OPSET} or later (convert it with "
                            "onnx.version_converter.convert_version)")
    try:
        onnx.checker.check_model(str(path) if path is not None and external else model)
        model = onnx.shape_inference.infer_shapes(model, check_type=True, strict_mode=True)
    except (onnx.checker.ValidationError, onnx.shape_inference.InferenceError) as error:
        raise FrontendError(f"invalid ONNX model: {error}") from None
    if path is not None and external:
        onnx.external_data_helper.load_external_data_for_model(model, str(path.parent))

    converter = _Converter(model, opset, function_name, params_as_constants)
    results = converter.run()

    generator = np.random.default_rng(seed)
    if example_inputs is None:
        example_inputs = [_random_input(v.type, generator) for _, v in converter.input_arguments]
    if len(example_inputs) != len(converter.input_arguments):
        raise FrontendError(f"{len(example_inputs)} example inputs given, the graph has "
                            f"{len(converter.input_arguments)} inputs")
    inputs: "OrderedDict[str, np.ndarray]" = OrderedDict()
    for (name, value), array in zip(converter.input_arguments, example_inputs):
        array = np.asarray(array)
        if tuple(array.shape) != value.shape or mlir_element_type(array.dtype) != value.dtype:
            raise FrontendError(f"example input '{name}' is {array.dtype}{list(array.shape)}, "
                                f"the graph input is {value.type}")
        inputs[name] = array
    params = OrderedDict((name, converter.initializers[name]) for name in converter.initializers
                         if name in converter.weight_arguments)
    arguments = make_arguments(list(inputs.items()), list(params.items()))
    numpy_names = {"f32": "float32", "f64": "float64", "f16": "float16", "i64": "int64",
                   "i32": "int32", "i16": "int16", "i8": "int8", "i1": "bool"}
    result_types = [(v.shape, numpy_names[v.dtype]) for v in results]
    graph_name = model.graph.name or "(unnamed graph)"
    header = (f"Imported from ONNX graph '{graph_name}' (opset {opset}) by "
              f"raf_mlir.onnx_frontend.\nArguments: {len(inputs)} input(s), then "
              f"{len(params)} initializer(s) in graph.initializer order"
              f"{' (initializers are constants)' if params_as_constants else ''}.")
    return ImportedModule(function_name=function_name,
                          mlir_text=render_module([converter.builder], header=header),
                          params=params, inputs=inputs, arguments=arguments,
                          reference_outputs=[], model=model,
                          params_as_constants=params_as_constants,
                          result_types=result_types)
