"""PyTorch frontend: ``nn.Module`` -> relay-dialect MLIR through ``torch.fx``.

The model is put in eval mode and traced with :func:`torch.fx` by
:class:`FrontendTracer`, which keeps every ``torch.nn`` module --
``Conv2d``, ``BatchNorm2d``, ``MultiheadAttention``, ``LSTM``, ... -- as one
call (the ``torch.fx`` default) and traces with concrete shapes: every traced
operation also runs on the example inputs, so shape reads (``x.shape``,
``x.size(0)``, unpacking) are Python values, and every node records the
shape and dtype of its value (``meta["tensor_meta"]``, as ShapeProp would).
Each node becomes relay operators emitted by :class:`_Converter`;
activations without a relay operator (SiLU, Hardswish, Mish, ...) are
composed from relay operators, and recurrent layers are unrolled over the
static sequence length.

Attention modules are translated from their parameters rather than traced:
the forward functions of ``nn.MultiheadAttention``,
``nn.TransformerEncoderLayer`` and ``nn.TransformerEncoder`` branch on tensor
properties (their fused "fast path"), which symbolic tracing cannot follow.
The emitted computation is PyTorch's reference ("slow") path in eval mode:
in-projection, split into heads, ``q / sqrt(head_dim)``, ``q . k^T``,
softmax, ``. v``, merge heads, out-projection, then residual, layer norm and
feed-forward as the layer's ``norm_first`` and ``activation`` say.

Function signature (the *argument order*): first the model inputs, in the
order of ``example_inputs``; then every parameter and buffer the graph reads,
in ``model.state_dict()`` order (a tensor registered under several names
appears once, under its first name; unused tensors such as
``num_batches_tracked`` are left out). With ``params_as_constants`` the
weights are ``relay.constant`` operations instead and only the inputs remain.
Results are the model's outputs, nested tuples and lists flattened depth
first. Weights that are ``nn.Parameter``s are arguments of kind
``parameter`` (``requires_grad`` as the parameter says), buffers (batch-norm
running statistics, ...) of kind ``state``; the module's
``raf.requires_grad`` argument attributes follow (see
:mod:`raf_mlir.imported`), so ``--raf-autodiff`` trains parameters only.

Training mode (``import_module(..., training=True)``): the model is imported
as ``model.train()`` runs it. Every batch norm with running statistics
becomes ``nn.batch_norm`` with ``training = true`` (batch statistics
normalise; the moving mean and variance are updated with the module's
``momentum``, unbiased batch variance), and the *updated* running mean and
running variance of each such module -- in the order the modules are first
called, mean before variance -- are extra results after the model outputs.
A module called several times threads its statistics from one call to the
next, as PyTorch does; ``num_batches_tracked`` is not modelled (it only
matters for ``momentum=None``, which is rejected). Batch norm without running
statistics uses batch statistics and adds no results. Dropout must have
``p = 0`` (random masks are not imported). So a model returning a loss
becomes ``(args...) -> (loss, mean_1, var_1, mean_2, var_2, ...)``: the shape
``--raf-autodiff`` expects (the loss first, auxiliary outputs after).

Losses: ``F.cross_entropy``/``nn.CrossEntropyLoss`` with class-index targets
become ``nn.log_softmax`` over the class axis and ``nn.nll_loss`` (which
honours ``ignore_index``); with class-probability targets (``[N, C]``,
floats) ``nn.cross_entropy``. ``F.nll_loss``/``nn.NLLLoss`` become
``nn.nll_loss``. Class weights and label smoothing are rejected.
"""

from __future__ import annotations

import inspect
import math
import operator
import os
import traceback
from collections import OrderedDict
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np
import torch
import torch.fx as fx
import torch.nn as nn
import torch.nn.functional as F
from torch.fx.passes.shape_prop import ShapeProp, TensorMetadata, _extract_tensor_metadata

from raf_mlir.errors import FrontendError, UnsupportedOperationError, one_line
from raf_mlir.imported import ArgumentInfo, ImportedModule, make_arguments
from raf_mlir import relay_text as rt
from raf_mlir.relay_ops import RelayOps
from raf_mlir.relay_text import FunctionBuilder, TensorType, Value, render_module

__all__ = ["ArgumentInfo", "ImportedModule", "import_module", "UnsupportedOperationError"]

_MLIR_TO_NUMPY = {"f32": np.float32, "f64": np.float64, "f16": np.float16, "i64": np.int64,
                  "i32": np.int32, "i16": np.int16, "i8": np.int8, "i1": np.bool_}
_TORCH_TO_MLIR = {
    torch.float32: "f32", torch.float64: "f64", torch.float16: "f16",
    torch.bfloat16: "bf16", torch.int64: "i64", torch.int32: "i32",
    torch.int16: "i16", torch.int8: "i8", torch.bool: "i1",
}


# ---------------------------------------------------------------------------
# Tracing
# ---------------------------------------------------------------------------


def _input_names(model: nn.Module, count: int) -> List[str]:
    params = [p for p in inspect.signature(model.forward).parameters.values()
              if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    if len(params) < count:
        return [f"input{i}" for i in range(count)]
    return [p.name for p in params[:count]]


_TORCH_DIR = os.path.dirname(torch.__file__) + os.sep
_THIS_FILE = os.path.abspath(__file__)

#: Tensor attributes and methods that only read metadata: with concrete
#: shapes they are Python values, so shape arithmetic is plain Python.
_METADATA_ATTRIBUTES = frozenset({
    "shape", "ndim", "dtype", "device", "is_cuda", "is_sparse", "is_quantized",
    "is_meta", "is_nested", "layout", "requires_grad", "is_leaf"})
_METADATA_METHODS = frozenset({
    "size", "dim", "ndimension", "numel", "nelement", "element_size", "is_contiguous",
    "is_floating_point", "is_complex", "get_device"})
#: Methods and functions whose result depends on an operand's shape and dtype
#: only: evaluated while tracing, they become constants.
_SHAPE_ONLY_METHODS = frozenset({"new_zeros", "new_ones", "new_full", "new_empty",
                                 "new_tensor"})
_SHAPE_ONLY_FUNCTIONS = (torch.zeros_like, torch.ones_like, torch.full_like,
                         torch.numel)
_EVALUATED_METHODS = _METADATA_METHODS | _SHAPE_ONLY_METHODS


def _user_location() -> Optional[str]:
    """``file.py:line`` of the innermost caller outside torch and this module:
    the model code that made the traced call."""
    frame = inspect.currentframe()
    while frame is not None:
        filename = frame.f_code.co_filename
        if not filename.startswith(_TORCH_DIR) and os.path.abspath(filename) != _THIS_FILE:
            return f"{os.path.basename(filename)}:{frame.f_lineno}"
        frame = frame.f_back
    return None


class _ConcreteProxy(fx.Proxy):
    """A proxy that knows the value its node has for the example inputs.

    Metadata reads (``x.shape``, ``x.size(0)``, ``x.dim()``, ``len(x)``) give
    Python values, and unpacking (``n, c, h, w = x.shape``, ``q, k, v =
    x.chunk(3)``) iterates over the concrete length.
    """

    def __getattr__(self, name: str) -> Any:
        if name in _METADATA_ATTRIBUTES:
            return getattr(self.tracer.value(self), name)
        return super().__getattr__(name)

    def __len__(self) -> int:
        return len(self.tracer.value(self))

    def __setitem__(self, index: Any, value: Any) -> None:
        # fx proxies do not record item assignment; it is an operator.setitem node.
        self.tracer.create_proxy("call_function", operator.setitem, (self, index, value), {})

    def __iter__(self):
        value = self.tracer.value(self)
        if isinstance(value, (tuple, list, torch.Tensor)):
            return iter([self[i] for i in range(len(value))])
        return self.tracer.iter(self)


class FrontendTracer(fx.Tracer):
    """``torch.fx`` tracer with concrete shapes, keeping every ``torch.nn``
    module as a single call.

    Every traced operation is also run on the example inputs, so each proxy
    knows its value: shapes are Python ints (``n, c, h, w = x.shape``,
    ``x.size(0)``, ``x.dim()``), and computations that depend on shapes only
    (``x.new_zeros(...)``, ``torch.zeros_like(x)``) become constants. Values
    never decide control flow: branching on a tensor's contents is an
    :class:`UnsupportedOperationError`. Functions registered with
    ``torch.fx.wrap`` outside PyTorch (torchvision's Swin helpers, ...) are
    traced through unless the frontend translates them as a whole
    (``stochastic_depth``).

    Keeping ``torch.nn`` modules whole is fx's default rule, stated here
    because the frontend relies on it: ``nn.MultiheadAttention`` and the
    ``nn.Transformer*`` modules must not be traced into (their fast-path
    branches test tensor properties). ``nn.Sequential`` and ``nn.ModuleList``
    containers are traced through.
    """

    def __init__(self, example_inputs: Sequence[Any] = ()) -> None:
        super().__init__()
        self.example_inputs = list(example_inputs)
        self.placeholders = 0
        self.values: Dict[fx.Node, Any] = {}
        self.state_pointers: set = set()
        # While a traced operation runs on concrete values, module calls and
        # parameter reads inside it (fx patches both) are plain Python.
        self.evaluating = False

    def is_leaf_module(self, m: nn.Module, module_qualified_name: str) -> bool:
        if isinstance(m, (nn.Sequential, nn.ModuleList, nn.ModuleDict)):
            return False
        return m.__module__.startswith("torch.nn") or super().is_leaf_module(
            m, module_qualified_name)

    def proxy(self, node: fx.Node) -> fx.Proxy:
        return _ConcreteProxy(node, self)

    def call_module(self, m: nn.Module, forward: Callable[..., Any], args: Tuple[Any, ...],
                    kwargs: Dict[str, Any]) -> Any:
        if self.evaluating:
            return forward(*args, **kwargs)
        return super().call_module(m, forward, args, kwargs)

    def getattr(self, attr: str, attr_val: Any, parameter_proxy_cache: Dict[str, Any]) -> Any:
        if self.evaluating:
            return attr_val
        return super().getattr(attr, attr_val, parameter_proxy_cache)

    def value(self, proxy: fx.Proxy) -> Any:
        return self.values[proxy.node]

    def concrete(self, obj: Any) -> Any:
        return fx.node.map_aggregate(
            obj, lambda a: self.values[a.node] if isinstance(a, fx.Proxy) else a)

    def trace(self, root: nn.Module, concrete_args: Optional[Dict[str, Any]] = None) -> fx.Graph:
        # Storage the model code must not write into: the weights, and the
        # example inputs (the caller's tensors).
        guarded = list(root.state_dict().values()) + list(self.example_inputs)
        self.state_pointers = {_storage_pointer(t) for t in guarded
                               if isinstance(t, torch.Tensor)} - {0}
        wrapped = getattr(fx._symbolic_trace, "_wrapped_fns_to_patch", None)
        saved = list(wrapped) if wrapped is not None else None
        if wrapped is not None:
            wrapped[:] = [entry for entry in wrapped if not _trace_through(*entry)]
        try:
            with torch.no_grad():
                return super().trace(root, concrete_args)
        finally:
            if wrapped is not None:
                wrapped[:] = saved

    def create_proxy(self, kind: str, target: Any, args: Tuple[Any, ...],
                     kwargs: Dict[str, Any], name: Optional[str] = None,
                     type_expr: Optional[Any] = None, proxy_factory_fn=None):
        if (kind == "call_method" and target in _EVALUATED_METHODS) or \
                (kind == "call_function" and target in _SHAPE_ONLY_FUNCTIONS):
            return self.evaluate(kind, target, args, kwargs)
        value = self.evaluate(kind, target, args, kwargs)
        proxy = super().create_proxy(kind, target, args, kwargs, name, type_expr,
                                     proxy_factory_fn)
        self.values[proxy.node] = value
        proxy.node.meta["location"] = _user_location()
        return proxy

    def evaluate(self, kind: str, target: Any, args: Tuple[Any, ...],
                 kwargs: Dict[str, Any]) -> Any:
        """The operation's value for the example inputs."""
        if kind == "placeholder":
            index = self.placeholders
            self.placeholders += 1
            if index < len(self.example_inputs):
                return self.example_inputs[index]
            return args[0] if args else None
        if kind == "output":
            return None
        args, kwargs = self.concrete(args), self.concrete(kwargs)
        evaluating, self.evaluating = self.evaluating, True
        try:
            return self.run(kind, target, args, kwargs)
        finally:
            self.evaluating = evaluating

    def run(self, kind: str, target: Any, args: Tuple[Any, ...], kwargs: Dict[str, Any]) -> Any:
        if kind == "get_attr":
            value: Any = self.root
            for part in target.split("."):
                value = getattr(value, part)
            return value
        in_place = (kind == "call_method" and target.endswith("_")
                    and not target.endswith("__")) or \
            (kind == "call_function" and target is operator.setitem)
        if in_place and isinstance(args[0], torch.Tensor) and \
                _storage_pointer(args[0]) in self.state_pointers:
            name = f"Tensor.{target}" if kind == "call_method" else "operator.setitem"
            raise UnsupportedOperationError(
                name, getattr(target, "__name__", str(target)),
                "in-place update of a parameter, buffer or model input",
                location=_user_location())
        if kind == "call_function":
            return target(*args, **kwargs)
        if kind == "call_method":
            return getattr(args[0], target)(*args[1:], **kwargs)
        if kind == "call_module":
            return self.root.get_submodule(target)(*args, **kwargs)
        raise FrontendError(f"unexpected fx node kind '{kind}'")

    def to_bool(self, obj: fx.Proxy) -> bool:
        raise UnsupportedOperationError(
            "control flow on a tensor value", obj.node.name,
            "the import specialises shapes, not tensor contents", location=_user_location())

    def iter(self, obj: fx.Proxy):
        raise UnsupportedOperationError(
            "iteration over a traced value", obj.node.name,
            f"a value of type {type(self.values.get(obj.node)).__name__} has no static length",
            location=_user_location())


def _storage_pointer(tensor: torch.Tensor) -> int:
    """The address of the storage behind ``tensor`` (shared by its views)."""
    return tensor.storage().data_ptr()


def _trace_through(frame_dict: Dict[str, Any], name: str) -> bool:
    """Whether a ``torch.fx.wrap``-registered function is traced into: every
    one defined outside PyTorch that the frontend does not translate whole."""
    function = frame_dict.get(name)
    module = getattr(function, "__module__", None) or ""
    return function is not None and _function_handler(function) is None and \
        module != "torch" and not module.startswith("torch.")


def _trace(model: nn.Module, example_inputs: Sequence[torch.Tensor]
           ) -> Tuple[fx.GraphModule, Any]:
    """Traces ``model`` called with the positional ``example_inputs``.

    Returns the graph, every node annotated with the shape and dtype of its
    value (``meta["tensor_meta"]``, as ShapeProp records them), and the
    model's outputs for the inputs. Further forward parameters with defaults
    are specialised to their defaults. A root that is itself a ``torch.nn``
    module kept whole by the tracer is wrapped in a one-call graph.
    """
    num_inputs = len(example_inputs)
    tracer = FrontendTracer(example_inputs)
    if tracer.is_leaf_module(model, ""):
        graph = fx.Graph()
        placeholders = [graph.placeholder(n) for n in _input_names(model, num_inputs)]
        root = nn.Module()
        root.add_module("model", model)
        graph.output(graph.call_module("model", tuple(placeholders)))
        gm = fx.GraphModule(root, graph)
        try:
            outputs = ShapeProp(gm).propagate(*example_inputs)
        except Exception as error:
            raise FrontendError(f"running {type(model).__qualname__} failed: "
                                f"{one_line(error)}") from None
        return gm, outputs
    signature = inspect.signature(model.forward)
    concrete_args = {}
    positional = [p for p in signature.parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    for param in positional[num_inputs:]:
        if param.default is inspect.Parameter.empty:
            raise FrontendError(
                f"forward() parameter '{param.name}' has no example input and no default")
        concrete_args[param.name] = param.default
    try:
        graph = tracer.trace(model, concrete_args=concrete_args or None)
    except FrontendError:
        raise
    except Exception as error:  # the model's own code failed while tracing
        raise FrontendError(f"tracing {type(model).__qualname__} failed at "
                            f"{_exception_location(error)}: {one_line(error)}") from None
    gm = fx.GraphModule(tracer.root, graph)

    def value(node: fx.Node) -> Any:
        if node in tracer.values:
            return tracer.values[node]
        return tracer.run("get_attr", node.target, (), {})  # a constant fx embedded

    outputs = None
    for node in gm.graph.nodes:
        if node.op == "output":
            outputs = fx.node.map_arg(node.args[0], value)
        elif node in tracer.values:
            tensors = []
            meta = fx.node.map_aggregate(
                tracer.values[node],
                lambda v: (tensors.append(v), _extract_tensor_metadata(v))[1]
                if isinstance(v, torch.Tensor) else v)
            if tensors:
                node.meta["tensor_meta"] = meta
            node.meta["type"] = type(tracer.values[node])
    return gm, outputs


def _exception_location(error: BaseException) -> str:
    """``file.py:line`` of the innermost frame of ``error`` outside torch and
    this module (the model code that failed)."""
    location = "an unknown location"
    for frame in traceback.extract_tb(error.__traceback__):
        if not frame.filename.startswith(_TORCH_DIR) and \
                os.path.abspath(frame.filename) != _THIS_FILE:
            location = f"{os.path.basename(frame.filename)}:{frame.lineno}"
    return location


# ---------------------------------------------------------------------------
# Conversion
# ---------------------------------------------------------------------------


_PUBLIC_NAMESPACES = ("torch", "torch.nn.functional", "torch.fft", "torch.linalg",
                      "torch.special", "operator", "builtins", "math")
_public_names: Dict[int, str] = {}


def _public_name(target: Any) -> Optional[str]:
    """The public spelling of a function (``torch.sort``, ``torch.fft.fft``)."""
    if not _public_names:
        import importlib

        for namespace in reversed(_PUBLIC_NAMESPACES):  # earlier namespaces win
            module = importlib.import_module(namespace)
            for attr in dir(module):
                if not attr.startswith("_"):
                    _public_names[id(getattr(module, attr))] = f"{namespace}.{attr}"
    return _public_names.get(id(target))


def _target_name(node: fx.Node, gm: fx.GraphModule) -> str:
    """A readable name of what a node calls, for error messages."""
    if node.op == "call_module":
        module = gm.get_submodule(node.target)
        return f"{type(module).__module__}.{type(module).__qualname__}"
    if node.op == "call_method":
        return f"Tensor.{node.target}"
    if node.op == "call_function":
        target = node.target
        public = _public_name(target)
        if public:
            return public
        module = getattr(target, "__module__", None) or ""
        name = getattr(target, "__qualname__", None) or getattr(target, "__name__", str(target))
        return f"{module}.{name}" if module else name
    return f"{node.op}:{node.target}"


def _arg(args: Sequence[Any], kwargs: Dict[str, Any], index: int, name: str,
         default: Any = None) -> Any:
    """Positional-or-keyword argument ``name`` at ``index``."""
    if index < len(args):
        return args[index]
    return kwargs.get(name, default)


def _as_pair(value: Union[int, Sequence[int]]) -> Tuple[int, int]:
    if isinstance(value, int):
        return (value, value)
    value = tuple(value)
    return (value[0], value[0]) if len(value) == 1 else (value[0], value[1])


def _contains_value(obj: Any) -> bool:
    found = []
    fx.node.map_aggregate(obj, lambda a: found.append(a) if isinstance(a, Value) else a)
    return bool(found)


class _Converter:
    """Translates one shape-propagated fx graph into a relay function."""

    def __init__(self, gm: fx.GraphModule, model: nn.Module, function_name: str,
                 params_as_constants: bool):
        self.gm = gm
        self.builder = FunctionBuilder(function_name)
        self.ops = RelayOps(self.builder)
        self.params_as_constants = params_as_constants
        self.env: Dict[fx.Node, Any] = {}
        self.node: Optional[fx.Node] = None
        # Canonical name and state_dict position of every weight tensor.
        self.weight_names: Dict[int, Tuple[int, str]] = {}
        for position, (name, tensor) in enumerate(model.state_dict(keep_vars=True).items()):
            self.weight_names.setdefault(id(tensor), (position, name))
        self.weight_values: Dict[int, Value] = {}
        self.weight_arguments: List[Tuple[int, str, Value, np.ndarray]] = []
        self.input_arguments: List[Value] = []
        # Training-mode batch norms: module -> its current [moving mean,
        # moving variance] values (updated by every call of the module); the
        # final values become extra results after the model outputs.
        self.running_stats: "OrderedDict[int, Tuple[nn.Module, List[Value]]]" = OrderedDict()
        # Tensors made by basic indexing: view node -> (base node, index), so
        # that in-place writes into a view update the base.
        self.views: Dict[fx.Node, Tuple[fx.Node, Any]] = {}

    # -- errors and types ----------------------------------------------------

    def unsupported(self, reason: str = "",
                    operation: Optional[str] = None) -> UnsupportedOperationError:
        node = self.node
        operation = operation or _target_name(node, self.gm)
        return UnsupportedOperationError(operation, node.name, reason,
                                         location=node.meta.get("location"))

    @staticmethod
    def tensor_type(meta: TensorMetadata) -> TensorType:
        if meta.dtype not in _TORCH_TO_MLIR:
            raise FrontendError(f"no relay element type for {meta.dtype}")
        return TensorType(tuple(meta.shape), _TORCH_TO_MLIR[meta.dtype])

    def node_type(self, node: fx.Node) -> TensorType:
        meta = node.meta.get("tensor_meta")
        if not isinstance(meta, TensorMetadata):
            raise self.unsupported("the node does not produce a single tensor")
        return self.tensor_type(meta)

    def tensor(self, value: Any, what: str = "operand") -> Value:
        if not isinstance(value, Value):
            raise self.unsupported(f"{what} must be a tensor, got {type(value).__name__}")
        return value

    def scalar_operand(self, value: Any, like: Value) -> Value:
        """A tensor operand, or a Python number as a rank-0 constant."""
        if isinstance(value, Value):
            return value
        if isinstance(value, (bool, int, float)):
            return self.ops.scalar(value, like.dtype)
        raise self.unsupported(f"operand of type {type(value).__name__}")

    # -- weights ------------------------------------------------------------

    def weight(self, tensor: Optional[torch.Tensor]) -> Value:
        """The value of a parameter or buffer (argument or constant)."""
        if tensor is None:
            raise self.unsupported("missing weight tensor")
        key = id(tensor)
        if key in self.weight_values:
            return self.weight_values[key]
        array = tensor.detach().cpu().numpy().copy()
        if key not in self.weight_names:
            value = self.ops.constant(array, "const")
        else:
            position, name = self.weight_names[key]
            if self.params_as_constants:
                value = self.ops.constant(array, name)
            else:
                type_ = TensorType(array.shape, _TORCH_TO_MLIR[tensor.dtype])
                value = self.builder.add_argument(name, type_)
                self.weight_arguments.append((position, name, value, array))
        self.weight_values[key] = value
        return value

    # -- driver -------------------------------------------------------------

    def run(self, input_names: Sequence[str]) -> List[Value]:
        outputs: List[Value] = []
        for node in self.gm.graph.nodes:
            self.node = node
            if node.op == "placeholder":
                if len(self.input_arguments) < len(input_names):
                    value = self.builder.add_argument(node.name, self.node_type(node))
                    self.input_arguments.append(value)
                    self.env[node] = value
                else:
                    self.env[node] = node.args[0] if node.args else None
            elif node.op == "get_attr":
                attr = self.gm
                for part in node.target.split("."):
                    attr = getattr(attr, part)
                self.env[node] = self.weight(attr) if isinstance(attr, torch.Tensor) else attr
            elif node.op == "output":
                outputs = self.flatten_outputs(self.load(node.args[0]))
                for _, stats in self.running_stats.values():
                    outputs.extend(stats)
            else:
                self.env[node] = self.convert(node)
        # Arguments: inputs first, then weights in state_dict order.
        self.weight_arguments.sort(key=lambda entry: entry[0])
        self.builder.arguments = self.input_arguments + [w[2] for w in self.weight_arguments]
        self.builder.ret(outputs)
        return outputs

    def load(self, obj: Any) -> Any:
        return fx.node.map_arg(obj, lambda n: self.env[n])

    def flatten_outputs(self, obj: Any) -> List[Value]:
        if isinstance(obj, Value):
            return [obj]
        if isinstance(obj, (tuple, list)):
            return [v for item in obj for v in self.flatten_outputs(item)]
        raise self.unsupported(f"model output of type {type(obj).__name__}", operation="output")

    def convert(self, node: fx.Node) -> Any:
        args, kwargs = self.load(node.args), self.load(node.kwargs)
        if node.op == "call_module":
            module = self.gm.get_submodule(node.target)
            handler = None
            for cls in type(module).__mro__:
                handler = _MODULE_HANDLERS.get(cls)
                if handler:
                    break
            if handler is None:
                raise self.unsupported()
            result = handler(self, module, args, kwargs)
        elif node.op == "call_function":
            handler = _function_handler(node.target)
            if handler is not None:
                result = handler(self, args, kwargs)
            elif not _contains_value((args, kwargs)):
                # Shape arithmetic and other compile-time computations.
                result = self.constant_fold(node.target(*args, **kwargs))
            else:
                raise self.unsupported()
        elif node.op == "call_method":
            handler = _METHOD_HANDLERS.get(node.target)
            if handler is None:
                raise self.unsupported()
            result = handler(self, args[0], args[1:], kwargs)
        else:
            raise self.unsupported()
        self.check_type(node, result)
        return result

    def constant_fold(self, result: Any) -> Any:
        if isinstance(result, torch.Tensor):
            return self.ops.constant(result.detach().cpu().numpy().copy(), self.node.name)
        return result

    def check_type(self, node: fx.Node, result: Any) -> None:
        """Guards against translation bugs: the emitted type must equal
        the one ShapeProp recorded."""
        meta = node.meta.get("tensor_meta")
        if isinstance(result, Value) and isinstance(meta, TensorMetadata):
            expected = self.tensor_type(meta)
            if result.type != expected:
                raise FrontendError(
                    f"internal error at fx node '{node.name}': emitted {result.type}, "
                    f"PyTorch computes {expected}")

    # -- shared building blocks ---------------------------------------------

    def reshape_to_node(self, x: Value) -> Value:
        """Reshape ``x`` to the current node's shape (view, flatten, ...)."""
        target = self.node_type(self.node)
        if target.shape == x.shape:
            return x
        return self.ops.reshape(x, target.shape, hint=self.node.name)

    def linear(self, x: Value, weight: torch.Tensor, bias: Optional[torch.Tensor],
               hint: str) -> Value:
        has_bias = bias is not None
        y = self.ops.dense(x, self.weight(weight), hint=f"{hint}_dense" if has_bias else hint)
        if has_bias:
            y = self.ops.bias_add(y, self.weight(bias), axis=-1, hint=hint)
        return y

    def layer_norm(self, x: Value, normalized_shape: Sequence[int],
                   weight: Optional[torch.Tensor], bias: Optional[torch.Tensor],
                   eps: float, hint: str) -> Value:
        normalized_shape = tuple(normalized_shape)
        if len(normalized_shape) != 1:
            raise self.unsupported(
                f"layer norm over {len(normalized_shape)} trailing axes (only the last axis)")
        width = normalized_shape[0]
        gamma = self.weight(weight) if weight is not None else self.ops.ones([width], x.dtype)
        beta = self.weight(bias) if bias is not None else self.ops.zeros([width], x.dtype)
        return self.ops.layer_norm(x, gamma, beta, axis=-1, epsilon=eps,
                                   center=bias is not None, scale=weight is not None,
                                   hint=hint)

    def hardtanh(self, x: Value, low: float, high: float, hint: str) -> Value:
        """clip(x, low, high) as relu / maximum followed by minimum."""
        if low == 0.0:
            y = self.ops.relu(x, hint=f"{hint}_relu")
        else:
            y = self.ops.binary("maximum", x, self.ops.scalar(low, x.dtype), hint=f"{hint}_max")
        return self.ops.binary("minimum", y, self.ops.scalar(high, x.dtype), hint=hint)

    def activation(self, fn: Any, x: Value, hint: str) -> Value:
        """A transformer layer's activation (function or module)."""
        if fn is F.relu or isinstance(fn, nn.ReLU):
            return self.ops.relu(x, hint=hint)
        if fn is F.gelu:
            return self.ops.gelu(x, hint=hint)
        if isinstance(fn, nn.GELU):
            return self.ops.gelu(x, approximate=fn.approximate, hint=hint)
        raise self.unsupported(f"activation {fn!r}")

    def matmul(self, a: Value, b: Value) -> Value:
        """torch.matmul for 2-D and batched (equal batch dims or one shared
        2-D right operand) operands."""
        hint = self.node.name
        if a.rank < 2 or b.rank < 2:
            raise self.unsupported("matmul of a 1-D operand")
        if b.rank == 2:
            if a.rank == 2:
                return self.ops.matmul(a, b, hint=hint)
            flat = self.ops.reshape(a, (math.prod(a.shape[:-1]), a.shape[-1]),
                                    hint=f"{hint}_flat")
            product = self.ops.matmul(flat, b, hint=f"{hint}_mm")
            return self.ops.reshape(product, a.shape[:-1] + (b.shape[1],), hint=hint)
        if a.shape[:-2] != b.shape[:-2]:
            raise self.unsupported(f"matmul with broadcast batch dimensions {a.shape} x {b.shape}")
        batch = math.prod(a.shape[:-2])
        a3 = a if a.rank == 3 else self.ops.reshape(a, (batch,) + a.shape[-2:], hint=f"{hint}_a")
        b3 = b if b.rank == 3 else self.ops.reshape(b, (batch,) + b.shape[-2:], hint=f"{hint}_b")
        product = self.ops.batch_matmul(a3, b3, transpose_b=False,
                                        hint=hint if a.rank == 3 else f"{hint}_bmm")
        if a.rank == 3:
            return product
        return self.ops.reshape(product, a.shape[:-1] + (b.shape[-1],), hint=hint)

    # -- attention ------------------------------------------------------------

    def multihead_attention(self, mha: nn.MultiheadAttention, query: Value, key: Value,
                            value: Value, need_weights: bool,
                            average_attn_weights: bool, hint: str) -> Tuple[Value, Optional[Value]]:
        """PyTorch's eval-mode multi-head attention without masks."""
        if mha.bias_k is not None or mha.bias_v is not None or mha.add_zero_attn:
            raise self.unsupported("MultiheadAttention with bias_k/bias_v/add_zero_attn")
        self.require_no_dropout(mha.dropout, mha.training)
        for operand in (query, key, value):
            if operand.rank != 3:
                raise self.unsupported("MultiheadAttention on unbatched (2-D) inputs")
        if not mha.batch_first:
            # [L, B, E] -> [B, L, E]; operands that are one value share one transpose.
            transposed: Dict[str, Value] = {}

            def to_batch_first(x: Value, name: str) -> Value:
                if x.name not in transposed:
                    transposed[x.name] = self.ops.transpose(x, (1, 0, 2), hint=f"{hint}_{name}_bf")
                return transposed[x.name]

            query = to_batch_first(query, "q")
            key = to_batch_first(key, "k")
            value = to_batch_first(value, "v")
        batch, tgt_len, embed = query.shape
        src_len = key.shape[1]
        heads = mha.num_heads
        head_dim = embed // heads
        bias = mha.in_proj_bias

        if mha._qkv_same_embed_dim and query == key == value:
            qkv = self.linear(query, mha.in_proj_weight, bias, hint=f"{hint}_qkv")
            q, k, v = self.ops.split(qkv, 3, axis=2, hint=f"{hint}_qkv_split")
        else:
            q, k, v = self._separate_projections(mha, query, key, value, hint)

        def to_heads(x: Value, length: int, name: str) -> Value:
            x = self.ops.reshape(x, (batch, length, heads, head_dim), hint=f"{hint}_{name}_4d")
            x = self.ops.transpose(x, (0, 2, 1, 3), hint=f"{hint}_{name}_heads")
            return self.ops.reshape(x, (batch * heads, length, head_dim), hint=f"{hint}_{name}")

        q = to_heads(q, tgt_len, "q")
        k = to_heads(k, src_len, "k")
        v = to_heads(v, src_len, "v")
        q = self.ops.binary("divide", q, self.ops.scalar(math.sqrt(head_dim), q.dtype),
                            hint=f"{hint}_q_scaled")
        scores = self.ops.batch_matmul(q, k, transpose_b=True, hint=f"{hint}_scores")
        probs = self.ops.softmax(scores, axis=-1, hint=f"{hint}_probs")
        context = self.ops.batch_matmul(probs, v, transpose_b=False, hint=f"{hint}_context")
        context = self.ops.reshape(context, (batch, heads, tgt_len, head_dim),
                                   hint=f"{hint}_ctx_4d")
        context = self.ops.transpose(context, (0, 2, 1, 3), hint=f"{hint}_ctx_merge")
        context = self.ops.reshape(context, (batch, tgt_len, embed), hint=f"{hint}_ctx")
        out = self.linear(context, mha.out_proj.weight, mha.out_proj.bias, hint=f"{hint}_out")
        if not mha.batch_first:
            out = self.ops.transpose(out, (1, 0, 2), hint=f"{hint}_out_sf")

        weights = None
        if need_weights:
            weights = self.ops.reshape(probs, (batch, heads, tgt_len, src_len),
                                       hint=f"{hint}_weights_4d")
            if average_attn_weights:
                weights = self.ops.reduce("mean", weights, [1], hint=f"{hint}_weights")
        return out, weights

    def _separate_projections(self, mha: nn.MultiheadAttention, query: Value, key: Value,
                              value: Value, hint: str) -> Tuple[Value, Value, Value]:
        embed = mha.embed_dim
        bias = mha.in_proj_bias
        if mha._qkv_same_embed_dim:
            weight = self.weight(mha.in_proj_weight)
            weights = [self.ops.strided_slice(weight, [i * embed], [(i + 1) * embed], [1], [0],
                                              hint=f"{hint}_w{n}")
                       for i, n in enumerate("qkv")]
        else:
            weights = [self.weight(mha.q_proj_weight), self.weight(mha.k_proj_weight),
                       self.weight(mha.v_proj_weight)]
        biases: List[Optional[Value]] = [None, None, None]
        if bias is not None:
            b = self.weight(bias)
            biases = [self.ops.strided_slice(b, [i * embed], [(i + 1) * embed], [1], [0],
                                             hint=f"{hint}_b{n}")
                      for i, n in enumerate("qkv")]
        projected = []
        for x, w, b, n in zip((query, key, value), weights, biases, "qkv"):
            name = f"{hint}_{n}_dense" if b is not None else f"{hint}_{n}_proj"
            y = self.ops.dense(x, w, hint=name)
            if b is not None:
                y = self.ops.bias_add(y, b, axis=-1, hint=f"{hint}_{n}_proj")
            projected.append(y)
        return projected[0], projected[1], projected[2]

    def encoder_layer(self, layer: nn.TransformerEncoderLayer, x: Value, hint: str) -> Value:
        """PyTorch's TransformerEncoderLayer in eval mode (dropout = identity),
        or in training mode with zero dropout probabilities."""
        for dropout in (layer.dropout, layer.dropout1, layer.dropout2):
            self.require_no_dropout(dropout.p, dropout.training)

        def self_attention(y: Value) -> Value:
            out, _ = self.multihead_attention(layer.self_attn, y, y, y, need_weights=False,
                                              average_attn_weights=True, hint=f"{hint}_attn")
            return out

        def feed_forward(y: Value) -> Value:
            y = self.linear(y, layer.linear1.weight, layer.linear1.bias, hint=f"{hint}_ff1")
            y = self.activation(layer.activation, y, hint=f"{hint}_act")
            return self.linear(y, layer.linear2.weight, layer.linear2.bias, hint=f"{hint}_ff2")

        def norm(module: nn.LayerNorm, y: Value, name: str) -> Value:
            return self.layer_norm(y, module.normalized_shape, module.weight, module.bias,
                                   module.eps, hint=f"{hint}_{name}")

        if layer.norm_first:
            x = self.ops.binary("add", x, self_attention(norm(layer.norm1, x, "norm1")),
                                hint=f"{hint}_res1")
            x = self.ops.binary("add", x, feed_forward(norm(layer.norm2, x, "norm2")),
                                hint=f"{hint}_res2")
        else:
            x = norm(layer.norm1, self.ops.binary("add", x, self_attention(x), hint=f"{hint}_res1"),
                     "norm1")
            x = norm(layer.norm2, self.ops.binary("add", x, feed_forward(x), hint=f"{hint}_res2"),
                     "norm2")
        return x

    def bind(self, module: nn.Module, args: Sequence[Any],
             kwargs: Dict[str, Any]) -> Dict[str, Any]:
        """Binds a module call's arguments to its forward() parameters."""
        bound = inspect.signature(module.forward).bind(*args, **kwargs)
        bound.apply_defaults()
        return dict(bound.arguments)

    def require_no_dropout(self, p: float, training: bool) -> None:
        """Dropout is imported only where it is the identity."""
        if training and p > 0:
            raise self.unsupported(
                f"dropout with p={p} in training mode (random masks are not imported; "
                "use p=0 or eval mode)")

    def require_none(self, arguments: Dict[str, Any], names: Sequence[str]) -> None:
        for name in names:
            if arguments.get(name) is not None:
                raise self.unsupported(f"argument '{name}' (masks are not supported)")


# ---------------------------------------------------------------------------
# Module handlers: (converter, module, args, kwargs) -> value
# ---------------------------------------------------------------------------

_MODULE_HANDLERS: Dict[type, Callable[..., Any]] = {}
_FUNCTION_HANDLERS: Dict[Any, Callable[..., Any]] = {}
_METHOD_HANDLERS: Dict[str, Callable[..., Any]] = {}


#: Handlers of functions from optional packages, by ``module.qualname``
#: (torchvision's ``stochastic_depth``), so that they need not be imported.
_NAMED_FUNCTION_HANDLERS: Dict[str, Callable[..., Any]] = {}


def _function_handler(target: Any) -> Optional[Callable[..., Any]]:
    try:
        handler = _FUNCTION_HANDLERS.get(target)
    except TypeError:  # unhashable target
        return None
    if handler is None and callable(target):
        name = f"{getattr(target, '__module__', '')}.{getattr(target, '__qualname__', '')}"
        handler = _NAMED_FUNCTION_HANDLERS.get(name)
    return handler


def _module(*classes: type):
    def register(fn):
        for cls in classes:
            _MODULE_HANDLERS[cls] = fn
        return fn
    return register


def _function(*targets: Any):
    def register(fn):
        for target in targets:
            _FUNCTION_HANDLERS[target] = fn
        return fn
    return register


def _method(*names: str):
    def register(fn):
        for name in names:
            _METHOD_HANDLERS[name] = fn
        return fn
    return register


def _conv_padding(c: "_Converter", conv: nn.Conv2d) -> Tuple[int, int, int, int]:
    if conv.padding_mode != "zeros":
        raise c.unsupported(f"padding_mode '{conv.padding_mode}'")
    if conv.padding == "valid":
        return (0, 0, 0, 0)
    if conv.padding == "same":
        pads = [conv.dilation[i] * (conv.kernel_size[i] - 1) for i in range(2)]
        return (pads[0] // 2, pads[1] // 2, pads[0] - pads[0] // 2, pads[1] - pads[1] // 2)
    ph, pw = _as_pair(conv.padding)
    return (ph, pw, ph, pw)


@_module(nn.Conv2d)
def _conv2d(c: _Converter, conv: nn.Conv2d, args, kwargs) -> Value:
    x = c.tensor(args[0])
    hint = c.node.name
    y = c.ops.conv2d(x, c.weight(conv.weight), strides=_as_pair(conv.stride),
                     padding=_conv_padding(c, conv), dilation=_as_pair(conv.dilation),
                     groups=conv.groups, hint=hint if conv.bias is None else f"{hint}_conv")
    if conv.bias is not None:
        y = c.ops.bias_add(y, c.weight(conv.bias), axis=1, hint=hint)
    return y


@_module(nn.modules.batchnorm._BatchNorm)
def _batch_norm(c: _Converter, bn: nn.modules.batchnorm._BatchNorm, args, kwargs) -> Value:
    x = c.tensor(args[0])
    channels = bn.num_features
    gamma = c.weight(bn.weight) if bn.affine else c.ops.ones([channels], x.dtype)
    beta = c.weight(bn.bias) if bn.affine else c.ops.zeros([channels], x.dtype)
    tracked = bn.running_mean is not None and bn.running_var is not None
    if not bn.training:
        if not tracked:
            raise c.unsupported(
                "batch norm without running statistics (track_running_stats=False) in eval mode")
        return c.ops.batch_norm(x, gamma, beta, c.weight(bn.running_mean),
                                c.weight(bn.running_var), axis=1, epsilon=bn.eps,
                                hint=c.node.name)
    # Training mode: batch statistics normalise; the moving statistics are
    # updated and returned as extra results (after the model outputs).
    if not tracked:
        y, _, _ = c.ops.batch_norm_all(x, gamma, beta, c.ops.zeros([channels], x.dtype),
                                       c.ops.ones([channels], x.dtype), axis=1,
                                       epsilon=bn.eps, training=True, hint=c.node.name)
        return y
    if bn.momentum is None:
        raise c.unsupported("training-mode batch norm with momentum=None (cumulative average)")
    if id(bn) not in c.running_stats:
        c.running_stats[id(bn)] = (bn, [c.weight(bn.running_mean), c.weight(bn.running_var)])
    stats = c.running_stats[id(bn)][1]
    y, new_mean, new_var = c.ops.batch_norm_all(
        x, gamma, beta, stats[0], stats[1], axis=1, epsilon=bn.eps, momentum=bn.momentum,
        training=True, hint=c.node.name)
    stats[:] = [new_mean, new_var]
    return y


@_module(nn.ReLU)
def _relu_module(c: _Converter, module, args, kwargs) -> Value:
    return c.ops.relu(c.tensor(args[0]), hint=c.node.name)


@_module(nn.Hardtanh)
def _hardtanh_module(c: _Converter, module: nn.Hardtanh, args, kwargs) -> Value:
    return c.hardtanh(c.tensor(args[0]), module.min_val, module.max_val, hint=c.node.name)


@_module(nn.GELU)
def _gelu_module(c: _Converter, module: nn.GELU, args, kwargs) -> Value:
    return c.ops.gelu(c.tensor(args[0]), approximate=module.approximate, hint=c.node.name)


@_module(nn.Sigmoid)
def _sigmoid_module(c: _Converter, module, args, kwargs) -> Value:
    return c.ops.unary("sigmoid", c.tensor(args[0]), hint=c.node.name)


@_module(nn.Tanh)
def _tanh_module(c: _Converter, module, args, kwargs) -> Value:
    return c.ops.unary("tanh", c.tensor(args[0]), hint=c.node.name)


@_module(nn.Softmax, nn.LogSoftmax)
def _softmax_module(c: _Converter, module, args, kwargs) -> Value:
    if module.dim is None:
        raise c.unsupported("softmax without an explicit dim")
    return c.ops.softmax(c.tensor(args[0]), axis=module.dim, hint=c.node.name,
                         log=isinstance(module, nn.LogSoftmax))


@_module(nn.Dropout, nn.Dropout1d, nn.Dropout2d, nn.Dropout3d, nn.AlphaDropout, nn.Identity)
def _identity_module(c: _Converter, module, args, kwargs) -> Value:
    # Dropout is the identity in eval mode, and with p = 0 in training mode.
    if isinstance(module, nn.modules.dropout._DropoutNd):
        c.require_no_dropout(module.p, module.training)
    return c.tensor(args[0])


@_module(nn.MaxPool2d)
def _max_pool_module(c: _Converter, pool: nn.MaxPool2d, args, kwargs) -> Value:
    if pool.return_indices:
        raise c.unsupported("max pooling with return_indices")
    ph, pw = _as_pair(pool.padding)
    return c.ops.pool2d("max", c.tensor(args[0]), _as_pair(pool.kernel_size),
                        _as_pair(pool.stride), (ph, pw, ph, pw), _as_pair(pool.dilation),
                        ceil_mode=pool.ceil_mode, hint=c.node.name)


@_module(nn.AvgPool2d)
def _avg_pool_module(c: _Converter, pool: nn.AvgPool2d, args, kwargs) -> Value:
    if pool.divisor_override is not None:
        raise c.unsupported("average pooling with divisor_override")
    ph, pw = _as_pair(pool.padding)
    stride = pool.stride if pool.stride is not None else pool.kernel_size
    return c.ops.pool2d("avg", c.tensor(args[0]), _as_pair(pool.kernel_size), _as_pair(stride),
                        (ph, pw, ph, pw), ceil_mode=pool.ceil_mode,
                        count_include_pad=pool.count_include_pad, hint=c.node.name)


def _adaptive_avg_pool(c: _Converter, x: Value, output_size: Any) -> Value:
    size = _as_pair(output_size) if output_size is not None else None
    if x.rank != 4:
        raise c.unsupported("adaptive pooling of a non-4-D tensor")
    size = tuple(x.shape[2 + i] if s is None else s for i, s in enumerate(size))
    hint = c.node.name
    if size == (1, 1):
        return c.ops.global_avg_pool2d(x, hint=hint)
    if size == tuple(x.shape[2:]):
        return x
    (h, w), (oh, ow) = x.shape[2:], size
    if h % oh == 0 and w % ow == 0:
        kernel = (h // oh, w // ow)
        return c.ops.pool2d("avg", x, kernel, kernel, (0, 0, 0, 0), hint=hint)
    # Other sizes: PyTorch's windows [floor(i * in / out), ceil((i + 1) * in
    # / out)) are averaged by one constant matrix per axis (the pooling is
    # separable), applied with nn.dense.
    def averaging(size_in: int, size_out: int) -> np.ndarray:
        matrix = np.zeros((size_out, size_in), dtype=np.float64)
        for i in range(size_out):
            start, stop = (i * size_in) // size_out, -(-((i + 1) * size_in) // size_out)
            matrix[i, start:stop] = 1.0 / (stop - start)
        return matrix.astype(_MLIR_TO_NUMPY[x.dtype])

    y = c.ops.dense(x, c.ops.constant(averaging(w, ow), hint=f"{hint}_cols"),
                    hint=f"{hint}_w")
    y = c.ops.transpose(y, (0, 1, 3, 2), hint=f"{hint}_t")
    y = c.ops.dense(y, c.ops.constant(averaging(h, oh), hint=f"{hint}_rows"),
                    hint=f"{hint}_h")
    return c.ops.transpose(y, (0, 1, 3, 2), hint=hint)


@_module(nn.AdaptiveAvgPool2d)
def _adaptive_avg_pool_module(c: _Converter, pool: nn.AdaptiveAvgPool2d, args, kwargs) -> Value:
    return _adaptive_avg_pool(c, c.tensor(args[0]), pool.output_size)


@_module(nn.Flatten, nn.Unflatten)
def _flatten_module(c: _Converter, module, args, kwargs) -> Value:
    return c.reshape_to_node(c.tensor(args[0]))


@_module(nn.Linear)
def _linear_module(c: _Converter, linear: nn.Linear, args, kwargs) -> Value:
    return c.linear(c.tensor(args[0]), linear.weight, linear.bias, hint=c.node.name)


def _loss(c: _Converter, kind: str, prediction: Any, target: Any, weight: Any,
          ignore_index: int, reduction: str, label_smoothing: float) -> Value:
    """``cross_entropy`` (logits) or ``nll_loss`` (log-probabilities).

    Class-index targets become ``nn.nll_loss`` (after ``nn.log_softmax`` over
    the class axis for cross-entropy), which honours ``ignore_index`` exactly;
    class-probability targets of cross-entropy become ``nn.cross_entropy``.
    """
    x, target = c.tensor(prediction, "input"), c.tensor(target, "target")
    if weight is not None:
        raise c.unsupported("class weights")
    if label_smoothing:
        raise c.unsupported("label smoothing")
    if reduction not in ("mean", "sum", "none"):
        raise c.unsupported(f"reduction '{reduction}'")
    if x.rank < 2:
        raise c.unsupported("a loss over unbatched (1-D) predictions")
    hint = c.node.name
    if target.dtype.startswith("f"):
        if kind != "cross_entropy" or x.rank != 2 or target.shape != x.shape:
            raise c.unsupported("probability targets (only cross-entropy of [N, C] logits)")
        return c.ops.cross_entropy(x, target, reduction=reduction, hint=hint)
    if kind == "cross_entropy":
        x = c.ops.softmax(x, axis=1, log=True, hint=f"{hint}_log_softmax")
    return c.ops.nll_loss(x, target, reduction=reduction, ignore_index=ignore_index, hint=hint)


@_module(nn.CrossEntropyLoss, nn.NLLLoss)
def _loss_module(c: _Converter, loss: nn.modules.loss._WeightedLoss, args, kwargs) -> Value:
    bound = c.bind(loss, args, kwargs)
    kind = "cross_entropy" if isinstance(loss, nn.CrossEntropyLoss) else "nll_loss"
    return _loss(c, kind, bound["input"], bound["target"], loss.weight, loss.ignore_index,
                 loss.reduction, getattr(loss, "label_smoothing", 0.0))


@_module(nn.LayerNorm)
def _layer_norm_module(c: _Converter, norm: nn.LayerNorm, args, kwargs) -> Value:
    return c.layer_norm(c.tensor(args[0]), norm.normalized_shape, norm.weight, norm.bias,
                        norm.eps, hint=c.node.name)


@_module(nn.Embedding)
def _embedding_module(c: _Converter, emb: nn.Embedding, args, kwargs) -> Value:
    if emb.max_norm is not None:
        raise c.unsupported("embedding with max_norm")
    indices = c.tensor(args[0])
    table = c.weight(emb.weight)
    result = table.type.with_shape(indices.shape + (table.shape[1],))
    return c.builder.op("take", [table, indices], [result],
                        {"axis": rt.i64(0)}, hint=c.node.name)[0]


@_module(nn.MultiheadAttention)
def _mha_module(c: _Converter, mha: nn.MultiheadAttention, args, kwargs) -> Tuple:
    bound = c.bind(mha, args, kwargs)
    c.require_none(bound, ["key_padding_mask", "attn_mask"])
    if bound.get("is_causal"):
        raise c.unsupported("argument 'is_causal' (masks are not supported)")
    query, key, value = (c.tensor(bound[n], n) for n in ("query", "key", "value"))
    # The head-averaged weights are only computed when a user reads them.
    weights_used = any(not (user.op == "call_function" and user.target is operator.getitem
                            and user.args[1] == 0) for user in c.node.users)
    need_weights = bool(bound["need_weights"]) and weights_used
    out, weights = c.multihead_attention(mha, query, key, value, need_weights,
                                         bool(bound.get("average_attn_weights", True)),
                                         hint=c.node.name)
    return (out, weights)


@_module(nn.TransformerEncoderLayer)
def _encoder_layer_module(c: _Converter, layer: nn.TransformerEncoderLayer, args, kwargs) -> Value:
    bound = c.bind(layer, args, kwargs)
    c.require_none(bound, ["src_mask", "src_key_padding_mask"])
    if bound.get("is_causal"):
        raise c.unsupported("argument 'is_causal' (masks are not supported)")
    return c.encoder_layer(layer, c.tensor(bound["src"], "src"), hint=c.node.name)


@_module(nn.TransformerEncoder)
def _encoder_module(c: _Converter, encoder: nn.TransformerEncoder, args, kwargs) -> Value:
    bound = c.bind(encoder, args, kwargs)
    c.require_none(bound, ["mask", "src_key_padding_mask"])
    if bound.get("is_causal"):
        raise c.unsupported("argument 'is_causal' (masks are not supported)")
    x = c.tensor(bound["src"], "src")
    for i, layer in enumerate(encoder.layers):
        if not isinstance(layer, nn.TransformerEncoderLayer):
            raise c.unsupported(f"encoder layer of type {type(layer).__name__}")
        x = c.encoder_layer(layer, x, hint=f"{c.node.name}_l{i}")
    if encoder.norm is not None:
        norm = encoder.norm
        x = c.layer_norm(x, norm.normalized_shape, norm.weight, norm.bias, norm.eps,
                         hint=f"{c.node.name}_norm")
    return x


# ---------------------------------------------------------------------------
# Function handlers: (converter, args, kwargs) -> value
# ---------------------------------------------------------------------------


def _unary_function(op_name: str):
    def handler(c: _Converter, args, kwargs) -> Value:
        return c.ops.unary(op_name, c.tensor(args[0]), hint=c.node.name)
    return handler


for _targets, _op in [((F.relu, torch.relu), "nn.relu"),
                      ((torch.sigmoid, F.sigmoid), "sigmoid"),
                      ((torch.tanh, F.tanh), "tanh"),
                      ((torch.exp,), "exp"), ((torch.log,), "log"),
                      ((torch.sqrt,), "sqrt"), ((torch.rsqrt,), "rsqrt"),
                      ((torch.erf,), "erf"), ((torch.neg, operator.neg), "negative")]:
    _function(*_targets)(_unary_function(_op))


@_function(F.relu6)
def _relu6(c: _Converter, args, kwargs) -> Value:
    return c.hardtanh(c.tensor(args[0]), 0.0, 6.0, hint=c.node.name)


@_function(F.hardtanh)
def _hardtanh(c: _Converter, args, kwargs) -> Value:
    return c.hardtanh(c.tensor(args[0]), _arg(args, kwargs, 1, "min_val", -1.0),
                      _arg(args, kwargs, 2, "max_val", 1.0), hint=c.node.name)


@_function(F.gelu)
def _gelu(c: _Converter, args, kwargs) -> Value:
    return c.ops.gelu(c.tensor(args[0]), approximate=kwargs.get("approximate", "none"),
                      hint=c.node.name)


@_function(F.softmax, torch.softmax, F.log_softmax, torch.log_softmax)
def _softmax(c: _Converter, args, kwargs) -> Value:
    dim = _arg(args, kwargs, 1, "dim")
    if dim is None:
        raise c.unsupported("softmax without an explicit dim")
    log = c.node.target in (F.log_softmax, torch.log_softmax)
    return c.ops.softmax(c.tensor(args[0]), axis=dim, hint=c.node.name, log=log)


@_function(F.dropout, F.dropout1d, F.dropout2d, F.dropout3d, F.alpha_dropout)
def _dropout(c: _Converter, args, kwargs) -> Value:
    c.require_no_dropout(_arg(args, kwargs, 1, "p", 0.5), _arg(args, kwargs, 2, "training", True))
    return c.tensor(args[0])


@_function(F.cross_entropy, F.nll_loss)
def _loss_function(c: _Converter, args, kwargs) -> Value:
    if _arg(args, kwargs, 3, "size_average") is not None or \
            _arg(args, kwargs, 5, "reduce") is not None:
        raise c.unsupported("the deprecated size_average/reduce arguments")
    kind = "cross_entropy" if c.node.target is F.cross_entropy else "nll_loss"
    return _loss(c, kind, args[0], _arg(args, kwargs, 1, "target"),
                 _arg(args, kwargs, 2, "weight"), _arg(args, kwargs, 4, "ignore_index", -100),
                 _arg(args, kwargs, 6, "reduction", "mean"),
                 _arg(args, kwargs, 7, "label_smoothing", 0.0))


@_function(F.layer_norm)
def _layer_norm(c: _Converter, args, kwargs) -> Value:
    weight = _arg(args, kwargs, 2, "weight")
    bias = _arg(args, kwargs, 3, "bias")
    if (weight is not None and not isinstance(weight, Value)) or \
            (bias is not None and not isinstance(bias, Value)):
        raise c.unsupported("layer norm with non-tensor weight or bias")
    x = c.tensor(args[0])
    shape = tuple(_arg(args, kwargs, 1, "normalized_shape"))
    if len(shape) != 1:
        raise c.unsupported("layer norm over several trailing axes (only the last axis)")
    gamma = weight if weight is not None else c.ops.ones(shape, x.dtype)
    beta = bias if bias is not None else c.ops.zeros(shape, x.dtype)
    return c.ops.layer_norm(x, gamma, beta, axis=-1, epsilon=_arg(args, kwargs, 4, "eps", 1e-5),
                            center=bias is not None, scale=weight is not None, hint=c.node.name)


@_function(F.linear)
def _linear(c: _Converter, args, kwargs) -> Value:
    x, weight = c.tensor(args[0]), c.tensor(_arg(args, kwargs, 1, "weight"), "weight")
    bias = _arg(args, kwargs, 2, "bias")
    hint = c.node.name
    y = c.ops.dense(x, weight, hint=hint if bias is None else f"{hint}_dense")
    if bias is not None:
        y = c.ops.bias_add(y, c.tensor(bias, "bias"), axis=-1, hint=hint)
    return y


@_function(F.max_pool2d)
def _max_pool2d(c: _Converter, args, kwargs) -> Value:
    if _arg(args, kwargs, 6, "return_indices", False):
        raise c.unsupported("max pooling with return_indices")
    kernel = _as_pair(_arg(args, kwargs, 1, "kernel_size"))
    stride = _arg(args, kwargs, 2, "stride") or kernel
    ph, pw = _as_pair(_arg(args, kwargs, 3, "padding", 0))
    return c.ops.pool2d("max", c.tensor(args[0]), kernel, _as_pair(stride), (ph, pw, ph, pw),
                        _as_pair(_arg(args, kwargs, 4, "dilation", 1)),
                        ceil_mode=_arg(args, kwargs, 5, "ceil_mode", False), hint=c.node.name)


@_function(F.avg_pool2d)
def _avg_pool2d(c: _Converter, args, kwargs) -> Value:
    if _arg(args, kwargs, 6, "divisor_override") is not None:
        raise c.unsupported("average pooling with divisor_override")
    kernel = _as_pair(_arg(args, kwargs, 1, "kernel_size"))
    stride = _arg(args, kwargs, 2, "stride") or kernel
    ph, pw = _as_pair(_arg(args, kwargs, 3, "padding", 0))
    return c.ops.pool2d("avg", c.tensor(args[0]), kernel, _as_pair(stride), (ph, pw, ph, pw),
                        ceil_mode=_arg(args, kwargs, 4, "ceil_mode", False),
                        count_include_pad=_arg(args, kwargs, 5, "count_include_pad", True),
                        hint=c.node.name)


@_function(F.adaptive_avg_pool2d)
def _adaptive_avg_pool2d(c: _Converter, args, kwargs) -> Value:
    return _adaptive_avg_pool(c, c.tensor(args[0]), _arg(args, kwargs, 1, "output_size"))


@_function(torch.flatten, torch.reshape, torch.squeeze, torch.unsqueeze)
def _reshape_like(c: _Converter, args, kwargs) -> Value:
    return c.reshape_to_node(c.tensor(args[0]))


def _binary_function(op_name: str):
    def handler(c: _Converter, args, kwargs) -> Value:
        lhs, rhs = args[0], _arg(args, kwargs, 1, "other")
        if kwargs.get("alpha", 1) != 1:
            raise c.unsupported("alpha != 1")
        # relay has no floor or trunc operation to round the quotient with.
        rounding_mode = kwargs.get("rounding_mode")
        if op_name == "divide" and rounding_mode is not None:
            raise c.unsupported(f"division with rounding_mode={rounding_mode!r}")
        like = lhs if isinstance(lhs, Value) else c.tensor(rhs)
        lhs, rhs = c.scalar_operand(lhs, like), c.scalar_operand(rhs, like)
        if op_name == "divide" and lhs.dtype.startswith("i"):
            raise c.unsupported("true division of integer tensors")
        return c.ops.binary(op_name, lhs, rhs, hint=c.node.name)
    return handler


for _targets, _op in [((operator.add, operator.iadd, torch.add), "add"),
                      ((operator.sub, operator.isub, torch.sub), "subtract"),
                      ((operator.mul, operator.imul, torch.mul), "multiply"),
                      ((operator.truediv, operator.itruediv, torch.div), "divide"),
                      ((torch.maximum,), "maximum"), ((torch.minimum,), "minimum"),
                      ((torch.pow, operator.pow), "power")]:
    _function(*_targets)(_binary_function(_op))


@_function(operator.matmul, torch.matmul, torch.bmm, torch.mm)
def _matmul(c: _Converter, args, kwargs) -> Value:
    return c.matmul(c.tensor(args[0]), c.tensor(_arg(args, kwargs, 1, "other")))


@_function(torch.cat, torch.concat)
def _cat(c: _Converter, args, kwargs) -> Value:
    tensors = [c.tensor(t) for t in _arg(args, kwargs, 0, "tensors")]
    return c.ops.concatenate(tensors, _arg(args, kwargs, 1, "dim", 0), hint=c.node.name)


@_function(torch.transpose)
def _transpose_function(c: _Converter, args, kwargs) -> Value:
    return _transpose(c, args[0], args[1:], kwargs)


@_function(torch.permute)
def _permute_function(c: _Converter, args, kwargs) -> Value:
    return _permute(c, args[0], args[1:], kwargs)


@_function(torch.mean, torch.sum)
def _reduce_function(c: _Converter, args, kwargs) -> Value:
    return _reduce(c, args[0], args[1:], kwargs)


@_function(operator.getitem)
def _getitem(c: _Converter, args, kwargs) -> Any:
    container, index = args
    if isinstance(container, Value):
        if not _contains_value(index):
            c.views[c.node] = (c.node.args[0], index)
        return _tensor_index(c, container, index)
    if _contains_value(index):
        raise c.unsupported("indexing with a tensor")
    return container[index]


@_function(getattr)
def _getattr(c: _Converter, args, kwargs) -> Any:
    obj, name = args[0], args[1]
    if isinstance(obj, Value):
        if name == "shape":
            return torch.Size(obj.shape)
        if name == "ndim":
            return obj.rank
        if name == "T" and obj.rank >= 2:
            return c.ops.transpose(obj, list(reversed(range(obj.rank))), hint=c.node.name)
        if name == "mT" and obj.rank >= 2:
            axes = list(range(obj.rank))
            axes[-2:] = axes[-1], axes[-2]
            return c.ops.transpose(obj, axes, hint=c.node.name)
        if name in ("T", "mT", "data"):
            return obj
        raise c.unsupported(f"tensor attribute '{name}'")
    return getattr(obj, name)


def _tensor_index(c: _Converter, x: Value, index: Any) -> Value:
    """Basic indexing (ints, slices with positive steps, None, Ellipsis), or
    one integer index tensor on an axis the other items leave whole."""
    items = list(index) if isinstance(index, tuple) else [index]
    if any(isinstance(i, Value) for i in items):
        return _take_index(c, x, items)
    explicit = sum(1 for i in items if i is not None and i is not Ellipsis)
    if items.count(Ellipsis) > 1 or explicit > x.rank:
        raise c.unsupported(f"index {index!r}")
    if Ellipsis in items:
        at = items.index(Ellipsis)
        items[at:at + 1] = [slice(None)] * (x.rank - explicit)
    begin, end, strides, axes = [], [], [], []
    axis = 0
    for item in items:
        if item is None:
            continue
        size = x.shape[axis]
        if isinstance(item, int):
            start = item + size if item < 0 else item
            if not 0 <= start < size:
                raise c.unsupported(f"index {item} out of range for size {size}")
            stop, step = start + 1, 1
        elif isinstance(item, slice):
            start, stop, step = item.indices(size)
            if step <= 0:
                raise c.unsupported("slice with a non-positive step")
            stop = max(stop, start)
        else:
            raise c.unsupported(f"index element {item!r}")
        if (start, stop, step) != (0, size, 1):
            begin.append(start)
            end.append(stop)
            strides.append(step)
            axes.append(axis)
        axis += 1
    y = x
    if axes:
        y = c.ops.strided_slice(x, begin, end, strides, axes, hint=f"{c.node.name}_slice")
    return c.reshape_to_node(y)


def _take_index(c: _Converter, x: Value, items: List[Any]) -> Value:
    """``x[..., idx, ...]`` with one integer tensor ``idx``: ``take``."""
    tensors = [i for i, item in enumerate(items) if isinstance(item, Value)]
    whole = all(item is Ellipsis or item == slice(None)
                for i, item in enumerate(items) if i != tensors[0])
    if len(tensors) != 1 or items.count(Ellipsis) > 1 or not whole:
        raise c.unsupported("indexing with a tensor (only one integer index tensor, "
                            "the other axes whole)")
    index = items[tensors[0]]
    if not index.dtype.startswith("i") or index.dtype == "i1":
        raise c.unsupported(f"indexing with a {index.dtype} tensor (only integer indices)")
    if Ellipsis in items[:tensors[0]]:
        axis = x.rank - (len(items) - tensors[0])
    else:
        axis = tensors[0]
    # "wrap" gives negative indices PyTorch's meaning.
    return c.ops.take(x, index, axis, mode="wrap", hint=c.node.name)


# ---------------------------------------------------------------------------
# Method handlers: (converter, self, args, kwargs) -> value
# ---------------------------------------------------------------------------


def _unary_method(op_name: str):
    def handler(c: _Converter, x, args, kwargs) -> Value:
        return c.ops.unary(op_name, c.tensor(x), hint=c.node.name)
    return handler


for _name, _op in [("relu", "nn.relu"), ("sigmoid", "sigmoid"), ("tanh", "tanh"),
                   ("exp", "exp"), ("log", "log"), ("sqrt", "sqrt"), ("rsqrt", "rsqrt"),
                   ("neg", "negative")]:
    _method(_name)(_unary_method(_op))


def _binary_method(op_name: str):
    function_handler = _binary_function(op_name)

    def handler(c: _Converter, x, args, kwargs) -> Value:
        return function_handler(c, (x,) + tuple(args), kwargs)
    return handler


for _name, _op in [("add", "add"), ("sub", "subtract"), ("mul", "multiply"),
                   ("div", "divide")]:
    _method(_name)(_binary_method(_op))


@_method("view", "reshape", "flatten", "squeeze", "unsqueeze")
def _reshape_method(c: _Converter, x, args, kwargs) -> Value:
    return c.reshape_to_node(c.tensor(x))


@_method("contiguous")
def _contiguous(c: _Converter, x, args, kwargs) -> Value:
    return c.tensor(x)


@_method("softmax", "log_softmax")
def _softmax_method(c: _Converter, x, args, kwargs) -> Value:
    dim = _arg(args, kwargs, 0, "dim")
    if dim is None:
        raise c.unsupported("softmax without an explicit dim")
    return c.ops.softmax(c.tensor(x), axis=dim, hint=c.node.name,
                         log=c.node.target == "log_softmax")


@_method("transpose")
def _transpose(c: _Converter, x, args, kwargs) -> Value:
    x = c.tensor(x)
    dim0, dim1 = _arg(args, kwargs, 0, "dim0"), _arg(args, kwargs, 1, "dim1")
    axes = list(range(x.rank))
    axes[dim0], axes[dim1] = axes[dim1], axes[dim0]
    return c.ops.transpose(x, axes, hint=c.node.name)


@_method("t")
def _t(c: _Converter, x, args, kwargs) -> Value:
    x = c.tensor(x)
    return x if x.rank < 2 else c.ops.transpose(x, (1, 0), hint=c.node.name)


@_method("permute")
def _permute(c: _Converter, x, args, kwargs) -> Value:
    dims = args[0] if len(args) == 1 and isinstance(args[0], (tuple, list)) else args
    dims = kwargs.get("dims", dims)
    return c.ops.transpose(c.tensor(x), list(dims), hint=c.node.name)


@_method("matmul", "bmm", "mm")
def _matmul_method(c: _Converter, x, args, kwargs) -> Value:
    return c.matmul(c.tensor(x), c.tensor(args[0]))


@_method("mean", "sum")
def _reduce(c: _Converter, x, args, kwargs) -> Value:
    x = c.tensor(x)
    if _arg(args, kwargs, 2, "dtype") is not None:
        raise c.unsupported("reduction with a dtype")
    dim = _arg(args, kwargs, 0, "dim")
    keepdim = bool(_arg(args, kwargs, 1, "keepdim", False))
    axes = list(range(x.rank)) if dim is None else (
        [dim] if isinstance(dim, int) else list(dim))
    name = c.node.target if c.node.op == "call_method" else c.node.target.__name__
    return c.ops.reduce(name, x, axes, keepdims=keepdim, hint=c.node.name)


@_method("size")
def _size(c: _Converter, x, args, kwargs) -> Any:
    x = c.tensor(x)
    dim = _arg(args, kwargs, 0, "dim")
    return torch.Size(x.shape) if dim is None else x.shape[dim]


@_method("dim")
def _dim(c: _Converter, x, args, kwargs) -> int:
    return c.tensor(x).rank


# ---------------------------------------------------------------------------
# Activations composed from relay operators (relay has no clip, silu,
# hardswish or softplus; composed, they differentiate with the operators'
# gradient rules)
# ---------------------------------------------------------------------------


def _shifted_relu6(c: _Converter, x: Value, hint: str) -> Value:
    """clip(x + 3, 0, 6), the common part of hardsigmoid and hardswish."""
    shifted = c.ops.binary("add", x, c.ops.scalar(3.0, x.dtype), hint=f"{hint}_shift")
    return c.hardtanh(shifted, 0.0, 6.0, hint=f"{hint}_clip")


def _hardsigmoid_value(c: _Converter, x: Value, hint: str) -> Value:
    # PyTorch: relu6(x + 3) / 6
    return c.ops.binary("divide", _shifted_relu6(c, x, hint), c.ops.scalar(6.0, x.dtype),
                        hint=hint)


def _hardswish_value(c: _Converter, x: Value, hint: str) -> Value:
    # PyTorch: x * relu6(x + 3) / 6
    product = c.ops.binary("multiply", x, _shifted_relu6(c, x, hint), hint=f"{hint}_mul")
    return c.ops.binary("divide", product, c.ops.scalar(6.0, x.dtype), hint=hint)


def _silu_value(c: _Converter, x: Value, hint: str) -> Value:
    return c.ops.binary("multiply", x, c.ops.unary("sigmoid", x, hint=f"{hint}_sigmoid"),
                        hint=hint)


def _abs_value(c: _Converter, x: Value, hint: str) -> Value:
    return c.ops.binary("maximum", x, c.ops.unary("negative", x, hint=f"{hint}_neg"),
                        hint=hint)


def _softplus_value(c: _Converter, x: Value, beta: float, hint: str) -> Value:
    """log(1 + exp(beta x)) / beta as relu(z) + log(1 + exp(-|z|)), z = beta x,
    which does not overflow. (PyTorch returns x itself where beta x exceeds
    its threshold, 20 by default; the two differ by less than exp(-20).)"""
    z = x if beta == 1 else c.ops.binary("multiply", x, c.ops.scalar(beta, x.dtype),
                                         hint=f"{hint}_scaled")
    decay = c.ops.unary("exp", c.ops.unary("negative", _abs_value(c, z, f"{hint}_abs"),
                                           hint=f"{hint}_negabs"), hint=f"{hint}_exp")
    tail = c.ops.unary("log", c.ops.binary("add", decay, c.ops.scalar(1.0, x.dtype),
                                           hint=f"{hint}_1p"), hint=f"{hint}_log")
    y = c.ops.binary("add", c.ops.relu(z, hint=f"{hint}_relu"), tail,
                     hint=hint if beta == 1 else f"{hint}_sum")
    if beta != 1:
        y = c.ops.binary("divide", y, c.ops.scalar(beta, x.dtype), hint=hint)
    return y


def _mish_value(c: _Converter, x: Value, hint: str) -> Value:
    # x * tanh(softplus(x))
    soft = c.ops.unary("tanh", _softplus_value(c, x, 1.0, f"{hint}_softplus"),
                       hint=f"{hint}_tanh")
    return c.ops.binary("multiply", x, soft, hint=hint)


def _elu_value(c: _Converter, x: Value, alpha: float, hint: str) -> Value:
    # x where x > 0, alpha (exp(x) - 1) elsewhere; exp of min(x, 0) so that
    # the branch not taken cannot overflow.
    negative_part = c.ops.unary("exp", c.ops.binary("minimum", x, c.ops.scalar(0.0, x.dtype),
                                                    hint=f"{hint}_min"), hint=f"{hint}_exp")
    negative_part = c.ops.binary("subtract", negative_part, c.ops.scalar(1.0, x.dtype),
                                 hint=f"{hint}_expm1")
    if alpha != 1:
        negative_part = c.ops.binary("multiply", negative_part, c.ops.scalar(alpha, x.dtype),
                                     hint=f"{hint}_alpha")
    positive = c.ops.binary("greater", x, c.ops.scalar(0.0, x.dtype), hint=f"{hint}_pos")
    return c.ops.where(positive, x, negative_part, hint=hint)


def _prelu_value(c: _Converter, x: Value, weight: Value, hint: str) -> Value:
    if weight.shape != (1,) and (x.rank < 2 or weight.shape != (x.shape[1],)):
        raise c.unsupported(f"PReLU weight of shape {weight.shape} for input {x.type}")
    if weight.shape != (1,) and x.rank > 2:
        weight = c.ops.reshape(weight, (x.shape[1],) + (1,) * (x.rank - 2), hint=f"{hint}_w")
    scaled = c.ops.binary("multiply", x, weight, hint=f"{hint}_scaled")
    positive = c.ops.binary("greater", x, c.ops.scalar(0.0, x.dtype), hint=f"{hint}_pos")
    return c.ops.where(positive, x, scaled, hint=hint)


def _activation_handlers(value_fn: Callable[..., Value], *parameters: Tuple[str, Any]):
    """Module, function and method handlers of an activation ``value_fn(c, x,
    *parameter values, hint)``; ``parameters`` are (name, default) pairs, the
    module attributes and the function arguments after ``x``."""
    def module_handler(c: _Converter, module, args, kwargs) -> Value:
        values = [getattr(module, name) for name, _ in parameters]
        return value_fn(c, c.tensor(args[0]), *values, c.node.name)

    def function_handler(c: _Converter, args, kwargs) -> Value:
        values = [_arg(args, kwargs, 1 + i, name, default)
                  for i, (name, default) in enumerate(parameters)]
        return value_fn(c, c.tensor(_arg(args, kwargs, 0, "input")), *values, c.node.name)

    def method_handler(c: _Converter, x, args, kwargs) -> Value:
        return function_handler(c, (x,) + tuple(args), kwargs)
    return module_handler, function_handler, method_handler


for _classes, _functions, _methods, _value_fn, _parameters in [
        ((nn.SiLU,), (F.silu,), (), _silu_value, ()),
        ((nn.Hardswish,), (F.hardswish,), (), _hardswish_value, ()),
        ((nn.Hardsigmoid,), (F.hardsigmoid,), (), _hardsigmoid_value, ()),
        ((nn.Mish,), (F.mish,), (), _mish_value, ()),
        ((nn.Softplus,), (F.softplus,), (), _softplus_value, (("beta", 1.0),)),
        ((nn.ELU,), (F.elu,), (), _elu_value, (("alpha", 1.0),)),
        ((), (torch.abs,), ("abs",), _abs_value, ())]:
    _m, _f, _me = _activation_handlers(_value_fn, *_parameters)
    _module(*_classes)(_m)
    _function(*_functions)(_f)
    _method(*_methods)(_me)


@_module(nn.LeakyReLU)
def _leaky_relu_module(c: _Converter, module: nn.LeakyReLU, args, kwargs) -> Value:
    return c.ops.leaky_relu(c.tensor(args[0]), module.negative_slope, hint=c.node.name)


@_function(F.leaky_relu)
def _leaky_relu(c: _Converter, args, kwargs) -> Value:
    return c.ops.leaky_relu(c.tensor(args[0]), _arg(args, kwargs, 1, "negative_slope", 0.01),
                            hint=c.node.name)


@_module(nn.PReLU)
def _prelu_module(c: _Converter, module: nn.PReLU, args, kwargs) -> Value:
    return _prelu_value(c, c.tensor(args[0]), c.weight(module.weight), c.node.name)


@_function(F.prelu)
def _prelu(c: _Converter, args, kwargs) -> Value:
    return _prelu_value(c, c.tensor(args[0]), c.tensor(_arg(args, kwargs, 1, "weight"), "weight"),
                        c.node.name)


def _stochastic_depth(c: _Converter, args, kwargs) -> Value:
    """torchvision.ops.stochastic_depth: the identity in eval mode or with
    p = 0; random row masks in training mode are not imported."""
    p = _arg(args, kwargs, 1, "p")
    training = _arg(args, kwargs, 3, "training", True)
    if training and p > 0:
        raise c.unsupported(f"stochastic depth with p={p} in training mode (random masks are "
                            "not imported; use p=0 or eval mode)")
    return c.tensor(args[0])


_NAMED_FUNCTION_HANDLERS["torchvision.ops.stochastic_depth.stochastic_depth"] = \
    _stochastic_depth


# ---------------------------------------------------------------------------
# Shapes and layout
# ---------------------------------------------------------------------------


@_method("expand", "expand_as", "broadcast_to")
def _expand(c: _Converter, x, args, kwargs) -> Value:
    x, target = c.tensor(x), c.node_type(c.node)
    if target.shape == x.shape:
        return x
    return c.ops.broadcast_to(x, target.shape, hint=c.node.name)


@_function(torch.broadcast_to)
def _broadcast_to(c: _Converter, args, kwargs) -> Value:
    return _expand(c, args[0], args[1:], kwargs)


@_method("repeat")
def _repeat(c: _Converter, x, args, kwargs) -> Value:
    """Tiles with broadcast_to: [d_i] -> [r_i, d_i] -> [r_i * d_i]."""
    x = c.tensor(x)
    repeats = args[0] if len(args) == 1 and isinstance(args[0], (tuple, list, torch.Size)) \
        else args
    repeats = list(kwargs.get("repeats", repeats))
    shape = (1,) * (len(repeats) - x.rank) + x.shape
    hint = c.node.name
    interleaved = [d for r, d in zip(repeats, shape) for d in (1, d)]
    tiled = [d for r, d in zip(repeats, shape) for d in (r, d)]
    y = c.ops.reshape(x, interleaved, hint=f"{hint}_split")
    y = c.ops.broadcast_to(y, tiled, hint=f"{hint}_tile")
    return c.ops.reshape(y, [r * d for r, d in zip(repeats, shape)], hint=hint)


@_function(torch.swapaxes, torch.swapdims)
def _swapaxes_function(c: _Converter, args, kwargs) -> Value:
    return _transpose(c, args[0], args[1:], kwargs)


_method("swapaxes", "swapdims")(lambda c, x, args, kwargs: _transpose(c, x, args, kwargs))


def _split_sizes(c: _Converter, x: Value, sizes: Sequence[int], axis: int) -> List[Value]:
    """``x`` split along ``axis`` into parts of the given sizes."""
    axis = axis % x.rank
    if len(sizes) == 1:
        return [x]
    if len(set(sizes)) == 1:
        return c.ops.split(x, len(sizes), axis, hint=c.node.name)
    return c.ops.split_at(x, list(np.cumsum(sizes)[:-1]), axis, hint=c.node.name)


def _chunk_value(c: _Converter, x: Value, chunks: int, dim: int) -> List[Value]:
    # PyTorch's chunk: parts of ceil(n / chunks), the last one smaller, and
    # fewer parts when they run out.
    size = x.shape[dim]
    part = -(-size // chunks)
    sizes = [min(part, size - start) for start in range(0, size, part)]
    return _split_sizes(c, x, sizes, dim)


@_method("chunk")
def _chunk(c: _Converter, x, args, kwargs) -> List[Value]:
    x = c.tensor(x)
    return _chunk_value(c, x, _arg(args, kwargs, 0, "chunks"), _arg(args, kwargs, 1, "dim", 0))


@_function(torch.chunk)
def _chunk_function(c: _Converter, args, kwargs) -> List[Value]:
    return _chunk(c, args[0], args[1:], kwargs)


@_method("split")
def _split(c: _Converter, x, args, kwargs) -> List[Value]:
    x = c.tensor(x)
    split = _arg(args, kwargs, 0, "split_size", kwargs.get("split_size_or_sections"))
    dim = _arg(args, kwargs, 1, "dim", 0) % x.rank
    if isinstance(split, int):
        size = x.shape[dim]
        sizes = [min(split, size - start) for start in range(0, size, split)]
    else:
        sizes = list(split)
    return _split_sizes(c, x, sizes, dim)


@_function(torch.split)
def _split_function(c: _Converter, args, kwargs) -> List[Value]:
    return _split(c, args[0], args[1:], kwargs)


@_method("unbind")
def _unbind(c: _Converter, x, args, kwargs) -> List[Value]:
    x = c.tensor(x)
    dim = _arg(args, kwargs, 0, "dim", 0) % x.rank
    parts = _split_sizes(c, x, [1] * x.shape[dim], dim)
    shape = x.shape[:dim] + x.shape[dim + 1:]
    return [c.ops.reshape(p, shape, hint=f"{c.node.name}_{i}") for i, p in enumerate(parts)]


@_function(torch.unbind)
def _unbind_function(c: _Converter, args, kwargs) -> List[Value]:
    return _unbind(c, args[0], args[1:], kwargs)


@_function(torch.stack)
def _stack(c: _Converter, args, kwargs) -> Value:
    tensors = [c.tensor(t) for t in _arg(args, kwargs, 0, "tensors")]
    rank = tensors[0].rank + 1
    dim = _arg(args, kwargs, 1, "dim", 0) % rank
    expanded = [c.ops.reshape(t, t.shape[:dim] + (1,) + t.shape[dim:],
                              hint=f"{c.node.name}_{i}") for i, t in enumerate(tensors)]
    if len(expanded) == 1:
        return expanded[0]
    return c.ops.concatenate(expanded, dim, hint=c.node.name)


def _roll_value(c: _Converter, x: Value, shifts: Any, dims: Any) -> Value:
    hint = c.node.name
    if dims is None:
        flat = c.ops.reshape(x, (x.type.num_elements,), hint=f"{hint}_flat")
        return c.ops.reshape(_roll_value(c, flat, shifts, 0), x.shape, hint=hint)
    shifts = [shifts] if isinstance(shifts, int) else list(shifts)
    dims = [dims] if isinstance(dims, int) else list(dims)
    if len(shifts) != len(dims):
        raise c.unsupported("roll with different numbers of shifts and dims")
    y = x
    for shift, dim in zip(shifts, dims):
        dim %= x.rank
        size = x.shape[dim]
        shift %= size
        if shift == 0:
            continue
        # The last `shift` elements move to the front.
        tail = c.ops.strided_slice(y, [size - shift], [size], [1], [dim], hint=f"{hint}_tail")
        head = c.ops.strided_slice(y, [0], [size - shift], [1], [dim], hint=f"{hint}_head")
        y = c.ops.concatenate([tail, head], dim, hint=hint)
    return y


@_function(torch.roll)
def _roll(c: _Converter, args, kwargs) -> Value:
    return _roll_value(c, c.tensor(args[0]), _arg(args, kwargs, 1, "shifts"),
                       _arg(args, kwargs, 2, "dims"))


_method("roll")(lambda c, x, args, kwargs: _roll(c, (x,) + tuple(args), kwargs))

#: F.pad modes and relay's nn.pad modes.
_PAD_MODES = {"constant": "constant", "reflect": "reflect", "replicate": "edge"}


@_function(F.pad)
def _pad(c: _Converter, args, kwargs) -> Value:
    x = c.tensor(args[0])
    pad = list(_arg(args, kwargs, 1, "pad"))
    mode = _arg(args, kwargs, 2, "mode", "constant")
    value = _arg(args, kwargs, 3, "value", None) or 0.0
    if mode not in _PAD_MODES:
        raise c.unsupported(f"padding mode '{mode}'")
    if len(pad) % 2 or len(pad) // 2 > x.rank:
        raise c.unsupported(f"padding {pad} of a rank-{x.rank} tensor")
    # F.pad lists (before, after) pairs from the last axis backwards.
    widths = [(0, 0)] * x.rank
    for i in range(len(pad) // 2):
        widths[x.rank - 1 - i] = (pad[2 * i], pad[2 * i + 1])
    return _pad_value(c, x, widths, _PAD_MODES[mode], float(value), c.node.name)


def _pad_value(c: _Converter, x: Value, widths: Sequence[Tuple[int, int]], mode: str,
               value: float, hint: str) -> Value:
    """``nn.pad``; negative widths crop (strided_slice), as PyTorch's do."""
    crop = [(max(-b, 0), max(-a, 0)) for b, a in widths]
    if any(b or a for b, a in crop):
        axes = [i for i, (b, a) in enumerate(crop) if b or a]
        x = c.ops.strided_slice(x, [crop[i][0] for i in axes],
                                [x.shape[i] - crop[i][1] for i in axes], [1] * len(axes),
                                axes, hint=f"{hint}_crop")
    widths = [(max(b, 0), max(a, 0)) for b, a in widths]
    if not any(b or a for b, a in widths):
        return x
    shape = [d + b + a for d, (b, a) in zip(x.shape, widths)]
    attrs = {"pad_width": rt.i64_array([v for pair in widths for v in pair])}
    if value:
        attrs["pad_value"] = rt.f64(value)
    if mode != "constant":
        attrs["pad_mode"] = rt.enum("pad_mode", mode)
    return c.builder.op("nn.pad", [x], [x.type.with_shape(shape)], attrs, hint)[0]


def _clamp_value(c: _Converter, x: Value, low: Any, high: Any) -> Value:
    hint = c.node.name
    y = x
    if low is not None:
        y = c.ops.binary("maximum", y, c.scalar_operand(low, x),
                         hint=hint if high is None else f"{hint}_min")
    if high is not None:
        y = c.ops.binary("minimum", y, c.scalar_operand(high, x), hint=hint)
    return y


@_function(torch.clamp, torch.clip)
def _clamp(c: _Converter, args, kwargs) -> Value:
    return _clamp_value(c, c.tensor(args[0]), _arg(args, kwargs, 1, "min"),
                        _arg(args, kwargs, 2, "max"))


_method("clamp", "clip")(lambda c, x, args, kwargs: _clamp(c, (x,) + tuple(args), kwargs))


@_function(F.normalize)
def _normalize(c: _Converter, args, kwargs) -> Value:
    """x / max(||x||_2, eps) over ``dim``."""
    x = c.tensor(args[0])
    p, dim = _arg(args, kwargs, 1, "p", 2.0), _arg(args, kwargs, 2, "dim", 1)
    eps = _arg(args, kwargs, 3, "eps", 1e-12)
    if p != 2:
        raise c.unsupported(f"normalisation with p={p} (only p=2)")
    hint = c.node.name
    square = c.ops.binary("multiply", x, x, hint=f"{hint}_sq")
    norm = c.ops.unary("sqrt", c.ops.reduce("sum", square, [dim], keepdims=True,
                                            hint=f"{hint}_sum"), hint=f"{hint}_norm")
    norm = c.ops.binary("maximum", norm, c.ops.scalar(eps, x.dtype), hint=f"{hint}_eps")
    return c.ops.binary("divide", x, norm, hint=hint)


@_method("masked_fill")
def _masked_fill(c: _Converter, x, args, kwargs) -> Value:
    x = c.tensor(x)
    mask = c.tensor(_arg(args, kwargs, 0, "mask"), "mask")
    return c.ops.where(mask, c.scalar_operand(_arg(args, kwargs, 1, "value"), x), x,
                       hint=c.node.name)


@_function(torch.where)
def _where(c: _Converter, args, kwargs) -> Value:
    if len(args) + len(kwargs) == 1:
        raise c.unsupported("torch.where with one argument (data-dependent shape)")
    condition = c.tensor(_arg(args, kwargs, 0, "condition"), "condition")
    x, y = _arg(args, kwargs, 1, "input"), _arg(args, kwargs, 2, "other")
    like = x if isinstance(x, Value) else c.tensor(y)
    return c.ops.where(condition, c.scalar_operand(x, like), c.scalar_operand(y, like),
                       hint=c.node.name)


_CAST_METHODS = {"float": torch.float32, "double": torch.float64, "half": torch.float16,
                 "bfloat16": torch.bfloat16, "long": torch.int64, "int": torch.int32,
                 "bool": torch.bool}


@_method("to", "type", "type_as", *_CAST_METHODS)
def _cast(c: _Converter, x, args, kwargs) -> Value:
    """Casts (to the dtype PyTorch computed); device moves are the identity."""
    x = c.tensor(x)
    target = c.node_type(c.node)
    if target.dtype == x.dtype:
        return x
    return c.ops.cast(x, target.dtype, hint=c.node.name)


for _targets, _op in [((operator.eq, torch.eq), "equal"), ((operator.ne, torch.ne), "not_equal"),
                      ((operator.lt, torch.lt), "less"), ((operator.le, torch.le), "less_equal"),
                      ((operator.gt, torch.gt), "greater"),
                      ((operator.ge, torch.ge), "greater_equal")]:
    _function(*_targets)(_binary_function(_op))
for _name, _op in [("eq", "equal"), ("ne", "not_equal"), ("lt", "less"), ("le", "less_equal"),
                   ("gt", "greater"), ("ge", "greater_equal")]:
    _method(_name)(_binary_method(_op))


@_function(torch.einsum)
def _einsum(c: _Converter, args, kwargs) -> Value:
    operands = args[1:]
    if len(operands) == 1 and isinstance(operands[0], (tuple, list)):
        operands = operands[0]
    try:
        return einsum_value(c.ops, args[0], [c.tensor(o) for o in operands], c.node.name)
    except ValueError as error:
        raise c.unsupported(str(error)) from None


def einsum_value(ops: RelayOps, equation: str, operands: Sequence[Value], hint: str) -> Value:
    """``einsum`` as reductions, transposes, reshapes and ``nn.batch_matmul``
    (operands contracted pairwise, left to right). Shared with the ONNX
    frontend's ``Einsum``. Raises ``ValueError`` for what it does not
    support: ellipses and repeated letters in one term (diagonals)."""
    equation = equation.replace(" ", "")
    if "." in equation:
        raise ValueError("einsum with an ellipsis")
    if "->" in equation:
        inputs, output = equation.split("->")
    else:  # implicit form: the letters used once, in alphabetical order
        inputs = equation
        letters = inputs.replace(",", "")
        output = "".join(sorted(l for l in set(letters) if letters.count(l) == 1))
    terms = inputs.split(",")
    if len(terms) != len(operands):
        raise ValueError(f"einsum '{equation}' with {len(operands)} operands")
    for term, operand in zip(terms, operands):
        if len(term) != operand.rank or len(set(term)) != len(term):
            raise ValueError(f"einsum term '{term}' of a rank-{operand.rank} operand "
                             "(repeated letters are not supported)")
    pending = list(zip(terms, operands))
    term, value = _einsum_reduce(ops, pending, 0, output, hint)
    while len(pending) > 1:
        (ta, a), (tb, b) = pending[0], pending[1]
        later = output + "".join(t for t, _ in pending[2:])
        pending[:2] = [_einsum_pair(ops, ta, a, tb, b, later, hint)]
        term, value = _einsum_reduce(ops, pending, 0, output, hint)
    if term != output:
        value = ops.transpose(value, [term.index(l) for l in output], hint=hint)
    return value


def _einsum_reduce(ops: RelayOps, pending: List[Tuple[str, Value]], index: int,
                   output: str, hint: str) -> Tuple[str, Value]:
    """Sums out the letters of operand ``index`` no other term or the output uses."""
    term, value = pending[index]
    others = output + "".join(t for i, (t, _) in enumerate(pending) if i != index)
    axes = [i for i, letter in enumerate(term) if letter not in others]
    if axes:
        value = ops.reduce("sum", value, axes, hint=f"{hint}_sum")
        term = "".join(l for l in term if l in others)
        pending[index] = (term, value)
    return term, value


def _einsum_pair(ops: RelayOps, ta: str, a: Value, tb: str, b: Value, later: str,
                 hint: str) -> Tuple[str, Value]:
    """One contraction as nn.batch_matmul: a -> [batch, left, k], b -> [batch,
    right, k] or [batch, k, right]; the result's letters are batch + left +
    right."""
    pending = [(ta, a), (tb, b)]
    ta, a = _einsum_reduce(ops, pending, 0, later + tb, hint)
    tb, b = _einsum_reduce(ops, pending, 1, later + ta, hint)
    batch = [l for l in ta if l in tb and l in later]
    contract = [l for l in ta if l in tb and l not in later]
    left = [l for l in ta if l not in tb]
    right = [l for l in tb if l not in ta]
    size = dict(zip(ta, a.shape))
    size.update(zip(tb, b.shape))

    def arrange(term: str, value: Value, order: List[str], name: str) -> Value:
        if list(term) != order:
            value = ops.transpose(value, [term.index(l) for l in order], hint=f"{hint}_{name}")
        return value

    def prod(letters: List[str]) -> int:
        return math.prod(size[l] for l in letters)

    a3 = arrange(ta, a, batch + left + contract, "a")
    a3 = ops.reshape(a3, (prod(batch), prod(left), prod(contract)), hint=f"{hint}_a3")
    transpose_b = list(tb) != batch + contract + right
    b_order = batch + right + contract if transpose_b else batch + contract + right
    b3 = arrange(tb, b, b_order, "b")
    b3_shape = (prod(batch), prod(right), prod(contract)) if transpose_b else \
        (prod(batch), prod(contract), prod(right))
    b3 = ops.reshape(b3, b3_shape, hint=f"{hint}_b3")
    product = ops.batch_matmul(a3, b3, transpose_b=transpose_b, hint=f"{hint}_bmm")
    letters = batch + left + right
    product = ops.reshape(product, [size[l] for l in letters], hint=f"{hint}_out")
    return "".join(letters), product


# ---------------------------------------------------------------------------
# In-place writes, made functional: the written tensor's node is rebound to
# the updated value, so the operations after the write read it
# ---------------------------------------------------------------------------


@_method("clone", "detach")
def _clone(c: _Converter, x, args, kwargs) -> Value:
    # A copy has the value of its source; writes into it rebind the copy's node.
    return c.tensor(x)


#: Operations whose result may share storage with their first operand.
_ALIASING_METHODS = frozenset({
    "view", "view_as", "reshape", "reshape_as", "flatten", "squeeze", "unsqueeze",
    "transpose", "permute", "t", "expand", "expand_as", "narrow", "select", "unbind",
    "split", "chunk", "detach", "contiguous", "swapaxes", "swapdims", "movedim",
    "as_strided", "diagonal", "unfold", "__getitem__"})
_ALIASING_FUNCTIONS = frozenset({
    operator.getitem, getattr, torch.reshape, torch.flatten, torch.squeeze, torch.unsqueeze,
    torch.transpose, torch.permute, torch.narrow, torch.select, torch.unbind, torch.split,
    torch.chunk, torch.detach, torch.swapaxes, torch.swapdims, torch.movedim,
    torch.broadcast_to})


def _aliases_input(node: fx.Node) -> bool:
    """Whether ``node``'s tensor may share storage with another value."""
    if node.op in ("placeholder", "get_attr"):
        return True
    if node.op == "call_method":
        return node.target in _ALIASING_METHODS
    return node.op == "call_function" and node.target in _ALIASING_FUNCTIONS


def _check_writable(c: _Converter, base: fx.Node) -> None:
    """Writes are translated only into tensors whose every alias the
    converter tracks: ``base`` owns its storage (a copy or a computed
    tensor), and its only views taken so far are basic-indexing ones."""
    if _aliases_input(base):
        raise c.unsupported(f"an in-place write into '{base.name}', which may share storage "
                            "with another tensor (write into a clone)")
    order = {n: i for i, n in enumerate(c.gm.graph.nodes)}
    here = order[c.node]
    for user in base.users:
        if order[user] < here and _aliases_input(user) and \
                c.views.get(user, (None,))[0] is not base:
            raise c.unsupported(f"an in-place write into '{base.name}', which has a view "
                                f"'{user.name}'")


def _refresh_views(c: _Converter, base: fx.Node) -> None:
    """Re-reads the basic-indexing views of ``base`` after a write into it."""
    current = c.node
    try:
        for view, (view_base, index) in c.views.items():
            if view_base is base and view in c.env:
                c.node = view
                c.env[view] = _tensor_index(c, c.tensor(c.env[base]), index)
    finally:
        c.node = current


def _write_region(c: _Converter, node: fx.Node, index: Any, value: Any) -> Value:
    """Writes the scalar ``value`` into ``node[index]`` (basic indexing; None
    = everywhere) and rebinds ``node`` (and the views of it) to the result."""
    _check_writable(c, node)
    if isinstance(value, Value) and value.rank == 0:
        filler = value
    elif isinstance(value, (bool, int, float)):
        filler = None
    else:
        raise c.unsupported("an in-place write of a tensor (only scalars are written)")
    base = c.tensor(c.env[node], "written tensor")
    if index is None:
        mask = np.ones(base.shape, dtype=np.bool_)
    else:
        try:
            mask = np.zeros(base.shape, dtype=np.bool_)
            mask[index] = True
        except (IndexError, TypeError, ValueError):
            raise c.unsupported(f"an in-place write at index {index!r}") from None
    if filler is None:
        filler = c.scalar_operand(value, base)
    elif filler.dtype != base.dtype:
        filler = c.ops.cast(filler, base.dtype, hint=f"{c.node.name}_value")
    if mask.all():
        updated = c.ops.broadcast_to(filler, base.shape, hint=c.node.name) if base.shape \
            else filler
    else:
        updated = c.ops.where(c.ops.constant(mask, f"{c.node.name}_mask"), filler, base,
                              hint=c.node.name)
    c.env[node] = updated
    _refresh_views(c, node)
    return updated


@_method("zero_", "fill_")
def _fill_in_place(c: _Converter, x, args, kwargs) -> Value:
    value = 0 if c.node.target == "zero_" else _arg(args, kwargs, 0, "value")
    target = c.node.args[0]
    if target in c.views:  # a view: write into its base (which re-reads its views)
        base, index = c.views[target]
        _write_region(c, base, index, value)
        return c.env[target]
    return _write_region(c, target, None, value)


@_function(operator.setitem)
def _setitem(c: _Converter, args, kwargs) -> None:
    container, index, value = args
    if not isinstance(container, Value):
        raise c.unsupported(f"item assignment into a {type(container).__name__}")
    if _contains_value(index):
        raise c.unsupported("item assignment with a tensor index")
    if c.node.args[0] in c.views:
        raise c.unsupported("item assignment into a view")
    _write_region(c, c.node.args[0], index, value)
    return None


# ---------------------------------------------------------------------------
# Recurrent layers, unrolled over the static sequence length
# ---------------------------------------------------------------------------


@_module(nn.LSTM, nn.GRU, nn.RNN)
def _rnn_module(c: _Converter, rnn: nn.RNNBase, args, kwargs) -> Tuple:
    """``nn.LSTM``, ``nn.GRU`` and ``nn.RNN`` (any number of layers, one or two
    directions, ``batch_first``, optional initial states, LSTM projections)
    as dense / sigmoid / tanh / split operators, one cell per time step.

    The input projection of a layer is one ``nn.dense`` over every time step;
    each step adds the recurrent projection and applies PyTorch's gate
    equations (gate order i, f, g, o for LSTM and r, z, n for GRU).
    """
    bound = c.bind(rnn, args, kwargs)
    x = c.tensor(bound["input"], "input")
    hx = bound.get("hx")
    if rnn.num_layers > 1:
        c.require_no_dropout(rnn.dropout, rnn.training)
    mode = rnn.mode  # LSTM, GRU, RNN_TANH, RNN_RELU
    hint = c.node.name
    batched = x.rank == 3
    if not batched:
        x = c.ops.reshape(x, (x.shape[0], 1, x.shape[1]), hint=f"{hint}_batched")
    elif rnn.batch_first:
        x = c.ops.transpose(x, (1, 0, 2), hint=f"{hint}_time_major")
    steps, batch = x.shape[:2]
    hidden = rnn.hidden_size
    out_size = getattr(rnn, "proj_size", 0) or hidden
    directions = 2 if rnn.bidirectional else 1
    states = rnn.num_layers * directions

    def initial(value: Any, width: int, name: str) -> List[Value]:
        if value is None:
            zero = c.ops.zeros((batch, width), x.dtype, hint=f"{hint}_{name}0")
            return [zero] * states
        value = c.tensor(value, name)
        if not batched:
            value = c.ops.reshape(value, (states, 1, width), hint=f"{hint}_{name}0_batched")
        return [c.ops.reshape(c.ops.strided_slice(value, [i], [i + 1], [1], [0],
                                                  hint=f"{hint}_{name}0_{i}_slice"),
                              (batch, width), hint=f"{hint}_{name}0_{i}")
                for i in range(states)]

    if mode == "LSTM":
        h0, c0 = (None, None) if hx is None else hx
        h_states, c_states = initial(h0, out_size, "h"), initial(c0, hidden, "c")
    else:
        h_states, c_states = initial(hx, out_size, "h"), [None] * states

    def param(name: str) -> Optional[Value]:
        tensor = getattr(rnn, name, None)
        return None if tensor is None else c.weight(tensor)

    final_h: List[Value] = []
    final_c: List[Value] = []
    layer_input = x
    for layer in range(rnn.num_layers):
        outputs = []
        for direction in range(directions):
            index = layer * directions + direction
            suffix = f"_l{layer}" + ("_reverse" if direction else "")
            name = f"{hint}{suffix}"
            w_ih, w_hh = param(f"weight_ih{suffix}"), param(f"weight_hh{suffix}")
            b_ih, b_hh = param(f"bias_ih{suffix}"), param(f"bias_hh{suffix}")
            w_hr = param(f"weight_hr{suffix}")
            projected = c.ops.dense(layer_input, w_ih, hint=f"{name}_x")
            if b_ih is not None:
                projected = c.ops.bias_add(projected, b_ih, axis=-1, hint=f"{name}_xb")
            h, cell = h_states[index], c_states[index]
            per_step: List[Optional[Value]] = [None] * steps
            order = range(steps) if direction == 0 else range(steps - 1, -1, -1)
            for t in order:
                step = f"{name}_t{t}"
                xt = c.ops.reshape(c.ops.strided_slice(projected, [t], [t + 1], [1], [0],
                                                       hint=f"{step}_xs"),
                                   (batch, projected.shape[2]), hint=f"{step}_xt")
                ht = c.ops.dense(h, w_hh, hint=f"{step}_hd")
                if b_hh is not None:
                    ht = c.ops.bias_add(ht, b_hh, axis=-1, hint=f"{step}_h")
                if mode == "LSTM":
                    h, cell = _lstm_cell(c, xt, ht, cell, w_hr, step)
                elif mode == "GRU":
                    h = _gru_cell(c, xt, ht, h, step)
                else:
                    pre = c.ops.binary("add", xt, ht, hint=f"{step}_pre")
                    h = c.ops.relu(pre, hint=f"{step}_h") if mode == "RNN_RELU" else \
                        c.ops.unary("tanh", pre, hint=f"{step}_h")
                per_step[t] = c.ops.reshape(h, (1, batch, out_size), hint=f"{step}_out")
            outputs.append(per_step[0] if steps == 1 else
                           c.ops.concatenate(per_step, 0, hint=f"{name}_out"))
            final_h.append(c.ops.reshape(h, (1, batch, out_size), hint=f"{name}_hn"))
            if cell is not None:
                final_c.append(c.ops.reshape(cell, (1, batch, hidden), hint=f"{name}_cn"))
        layer_input = outputs[0] if directions == 1 else \
            c.ops.concatenate(outputs, 2, hint=f"{hint}_l{layer}_out")

    def stacked(parts: List[Value], width: int, name: str) -> Value:
        value = parts[0] if len(parts) == 1 else c.ops.concatenate(parts, 0, hint=f"{hint}_{name}")
        if not batched:
            value = c.ops.reshape(value, (states, width), hint=f"{hint}_{name}_unbatched")
        return value

    output = layer_input
    if not batched:
        output = c.ops.reshape(output, (steps, output.shape[2]), hint=f"{hint}_output")
    elif rnn.batch_first:
        output = c.ops.transpose(output, (1, 0, 2), hint=f"{hint}_output")
    h_n = stacked(final_h, out_size, "h_n")
    if mode == "LSTM":
        return (output, (h_n, stacked(final_c, hidden, "c_n")))
    return (output, h_n)


def _lstm_cell(c: _Converter, xt: Value, ht: Value, cell: Value, w_hr: Optional[Value],
               step: str) -> Tuple[Value, Value]:
    gates = c.ops.binary("add", xt, ht, hint=f"{step}_gates")
    i, f, g, o = c.ops.split(gates, 4, 1, hint=f"{step}_split")
    i = c.ops.unary("sigmoid", i, hint=f"{step}_i")
    f = c.ops.unary("sigmoid", f, hint=f"{step}_f")
    g = c.ops.unary("tanh", g, hint=f"{step}_g")
    o = c.ops.unary("sigmoid", o, hint=f"{step}_o")
    cell = c.ops.binary("add", c.ops.binary("multiply", f, cell, hint=f"{step}_fc"),
                        c.ops.binary("multiply", i, g, hint=f"{step}_ig"), hint=f"{step}_c")
    h = c.ops.binary("multiply", o, c.ops.unary("tanh", cell, hint=f"{step}_tc"),
                     hint=f"{step}_h")
    if w_hr is not None:
        h = c.ops.dense(h, w_hr, hint=f"{step}_hp")
    return h, cell


def _gru_cell(c: _Converter, xt: Value, ht: Value, h: Value, step: str) -> Value:
    xr, xz, xn = c.ops.split(xt, 3, 1, hint=f"{step}_xsplit")
    hr, hz, hn = c.ops.split(ht, 3, 1, hint=f"{step}_hsplit")
    r = c.ops.unary("sigmoid", c.ops.binary("add", xr, hr, hint=f"{step}_rp"), hint=f"{step}_r")
    z = c.ops.unary("sigmoid", c.ops.binary("add", xz, hz, hint=f"{step}_zp"), hint=f"{step}_z")
    n = c.ops.unary("tanh", c.ops.binary("add", xn, c.ops.binary("multiply", r, hn,
                                                                  hint=f"{step}_rh"),
                                         hint=f"{step}_np"), hint=f"{step}_n")
    # h' = (1 - z) * n + z * h
    keep = c.ops.binary("subtract", c.ops.scalar(1.0, z.dtype), z, hint=f"{step}_1mz")
    return c.ops.binary("add", c.ops.binary("multiply", keep, n, hint=f"{step}_zn"),
                        c.ops.binary("multiply", z, h, hint=f"{step}_zh"), hint=f"{step}_h")


# ---------------------------------------------------------------------------
# Entry point
# ---------------------------------------------------------------------------


def import_module(model: nn.Module, example_inputs: Union[torch.Tensor, Sequence[torch.Tensor]],
                  *, function_name: str = "forward",
                  params_as_constants: bool = False,
                  training: bool = False) -> ImportedModule:
    """Translates ``model`` (in eval mode, or in training mode) into a
    relay-dialect module.

    Args:
        model: the PyTorch module; it is switched to eval mode.
        example_inputs: one tensor or a sequence of tensors: the positional
            inputs of ``model.forward``. Their shapes and dtypes become the
            function's argument types; forward parameters after them are
            fixed to their defaults.
        function_name: name of the public ``func.func``.
        params_as_constants: emit weights as ``relay.constant`` operations
            instead of function arguments.
        training: import ``model.train()`` instead of ``model.eval()``:
            batch norms use batch statistics (``nn.batch_norm`` with
            ``training = true``) and their updated running mean and variance
            are extra results after the model outputs (see the module
            docstring); dropout must have ``p = 0``. The model is left in
            training mode with its running statistics unchanged (the
            reference run's updates are undone), so the weights written are
            the ones before the step and ``reference_outputs`` end with
            PyTorch's updated statistics.

    Raises:
        UnsupportedOperationError: a node the frontend cannot translate (the
            message names the operation and the fx node).
        FrontendError: other translation failures.
    """
    if isinstance(example_inputs, torch.Tensor):
        example_inputs = (example_inputs,)
    example_inputs = tuple(example_inputs)
    model = model.train() if training else model.eval()
    # A training-mode run updates buffers (running statistics, batch
    # counters): keep their values after the traced run, then restore the
    # old ones.
    state = model.state_dict(keep_vars=True)
    before = {name: tensor.clone() for name, tensor in state.items()}
    with torch.no_grad():
        try:
            gm, reference = _trace(model, example_inputs)
            after = {id(tensor): tensor.clone() for tensor in state.values()}
        finally:
            for name, tensor in state.items():
                tensor.copy_(before[name])
    input_names = [n.name for n in gm.graph.nodes if n.op == "placeholder"][:len(example_inputs)]

    converter = _Converter(gm, model, function_name, params_as_constants)
    converter.run(input_names)

    reference_outputs = [r.detach().cpu().numpy() for r in _flatten_tensors(reference)]
    for bn, _ in converter.running_stats.values():
        reference_outputs += [after[id(bn.running_mean)].numpy(),
                              after[id(bn.running_var)].numpy()]
    inputs = OrderedDict((value.name[1:], tensor.detach().cpu().numpy())
                         for value, tensor in zip(converter.input_arguments, example_inputs))
    params = OrderedDict((name, array) for _, name, _, array in converter.weight_arguments)
    arguments = make_arguments(list(inputs.items()), list(params.items()),
                               [_weight_kind(state[name]) for name in params])
    # The updated running statistics are the new values of their arguments.
    index_of = {a.name: a.index for a in arguments}
    result_updates: Optional[List[Optional[int]]] = None
    if converter.running_stats:
        result_updates = [None] * (len(reference_outputs) - 2 * len(converter.running_stats))
        for bn, _ in converter.running_stats.values():
            for tensor in (bn.running_mean, bn.running_var):
                name = converter.weight_names.get(id(tensor), (None, None))[1]
                result_updates.append(index_of.get(name))
    mode = " (training mode)" if training else ""
    header = (f"Imported from PyTorch {type(model).__qualname__}{mode} by "
              f"raf_mlir.torch_frontend.\n"
              f"Arguments: {len(inputs)} input(s), then {len(params)} weight(s) in "
              f"state_dict order{' (weights are constants)' if params_as_constants else ''}.")
    return ImportedModule(function_name=function_name,
                          mlir_text=render_module([converter.builder], header=header),
                          params=params, inputs=inputs, arguments=arguments,
                          reference_outputs=reference_outputs, model=model,
                          params_as_constants=params_as_constants,
                          result_updates=result_updates)


def _weight_kind(tensor: torch.Tensor) -> Tuple[str, bool]:
    """``(kind, requires_grad)`` of a weight argument: an ``nn.Parameter``
    is a ``parameter``, trainable when it requires a gradient (and is a
    float tensor); a buffer (batch-norm ``running_mean``/``running_var``,
    ``num_batches_tracked``, ...) is ``state`` and never trained."""
    if isinstance(tensor, nn.Parameter):
        return "parameter", bool(tensor.requires_grad and tensor.is_floating_point())
    return "state", False


def _flatten_tensors(obj: Any) -> List[torch.Tensor]:
    if isinstance(obj, torch.Tensor):
        return [obj]
    if isinstance(obj, (tuple, list)):
        return [t for item in obj for t in _flatten_tensors(item)]
    raise FrontendError(f"model output of type {type(obj).__name__}")
