"""PyTorch frontend: ``nn.Module`` -> relay-dialect MLIR through ``torch.fx``.

The model is put in eval mode and traced with :func:`torch.fx` (a tracer
that keeps every ``torch.nn`` module -- ``Conv2d``, ``BatchNorm2d``,
``MultiheadAttention``, ``TransformerEncoderLayer``, ... -- as one call, the
``torch.fx`` default); :class:`torch.fx.passes.shape_prop.ShapeProp` then
records every node's shape and dtype by running the example inputs. Each
node becomes relay operators emitted by :class:`_Converter`.

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
first.

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
from collections import OrderedDict
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np
import torch
import torch.fx as fx
import torch.nn as nn
import torch.nn.functional as F
from torch.fx.passes.shape_prop import ShapeProp, TensorMetadata

from raf_mlir.errors import FrontendError, UnsupportedOperationError
from raf_mlir.imported import ArgumentInfo, ImportedModule, make_arguments
from raf_mlir import relay_text as rt
from raf_mlir.relay_ops import RelayOps
from raf_mlir.relay_text import FunctionBuilder, TensorType, Value, render_module

__all__ = ["ArgumentInfo", "ImportedModule", "import_module", "UnsupportedOperationError"]

_TORCH_TO_MLIR = {
    torch.float32: "f32", torch.float64: "f64", torch.float16: "f16",
    torch.bfloat16: "bf16", torch.int64: "i64", torch.int32: "i32",
    torch.int16: "i16", torch.int8: "i8", torch.bool: "i1",
}


# ---------------------------------------------------------------------------
# Tracing
# ---------------------------------------------------------------------------


class FrontendTracer(fx.Tracer):
    """``torch.fx`` tracer keeping every ``torch.nn`` module as a single call.

    This is fx's default rule, stated here because the frontend relies on
    it: ``nn.MultiheadAttention`` and the ``nn.Transformer*`` modules must
    not be traced into (their fast-path branches test tensor properties).
    ``nn.Sequential`` and ``nn.ModuleList`` containers are traced through.
    """

    def is_leaf_module(self, m: nn.Module, module_qualified_name: str) -> bool:
        if isinstance(m, (nn.Sequential, nn.ModuleList, nn.ModuleDict)):
            return False
        return m.__module__.startswith("torch.nn") or super().is_leaf_module(
            m, module_qualified_name)


def _input_names(model: nn.Module, count: int) -> List[str]:
    params = [p for p in inspect.signature(model.forward).parameters.values()
              if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    if len(params) < count:
        return [f"input{i}" for i in range(count)]
    return [p.name for p in params[:count]]


def _trace(model: nn.Module, num_inputs: int) -> fx.GraphModule:
    """Traces ``model`` called with ``num_inputs`` positional tensors.

    Further forward parameters with defaults are specialised to their
    defaults. A root that is itself a ``torch.nn`` module kept whole by the
    tracer is wrapped in a one-call graph.
    """
    tracer = FrontendTracer()
    if tracer.is_leaf_module(model, ""):
        graph = fx.Graph()
        placeholders = [graph.placeholder(n) for n in _input_names(model, num_inputs)]
        root = nn.Module()
        root.add_module("model", model)
        graph.output(graph.call_module("model", tuple(placeholders)))
        return fx.GraphModule(root, graph)
    signature = inspect.signature(model.forward)
    concrete_args = {}
    positional = [p for p in signature.parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    for param in positional[num_inputs:]:
        if param.default is inspect.Parameter.empty:
            raise FrontendError(
                f"forward() parameter '{param.name}' has no example input and no default")
        concrete_args[param.name] = param.default
    graph = tracer.trace(model, concrete_args=concrete_args or None)
    return fx.GraphModule(tracer.root, graph)


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

    # -- errors and types ----------------------------------------------------

    def unsupported(self, reason: str = "",
                    operation: Optional[str] = None) -> UnsupportedOperationError:
        node = self.node
        operation = operation or _target_name(node, self.gm)
        return UnsupportedOperationError(operation, node.name, reason)

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
            value = self.ops.constant(array, hint="const")
        else:
            position, name = self.weight_names[key]
            if self.params_as_constants:
                value = self.ops.constant(array, hint=name)
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
            handler = _FUNCTION_HANDLERS.get(node.target)
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
            return self.ops.constant(result.detach().cpu().numpy().copy(), hint=self.node.name)
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
    if size == (1, 1):
        return c.ops.global_avg_pool2d(x, hint=c.node.name)
    if size == tuple(x.shape[2:]):
        return x
    raise c.unsupported(f"adaptive average pooling to {size} (only (1, 1) or the input size)")


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
        raise c.unsupported(f"tensor attribute '{name}'")
    return getattr(obj, name)


def _tensor_index(c: _Converter, x: Value, index: Any) -> Value:
    """Basic indexing (ints, slices with positive steps, None, Ellipsis)."""
    items = list(index) if isinstance(index, tuple) else [index]
    if any(isinstance(i, Value) for i in items):
        raise c.unsupported("indexing with a tensor")
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


@_method("chunk")
def _chunk(c: _Converter, x, args, kwargs) -> List[Value]:
    x = c.tensor(x)
    chunks, dim = _arg(args, kwargs, 0, "chunks"), _arg(args, kwargs, 1, "dim", 0)
    if x.shape[dim] % chunks:
        raise c.unsupported("chunk of an axis that does not divide evenly")
    return c.ops.split(x, chunks, dim, hint=c.node.name)


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
    gm = _trace(model, len(example_inputs))
    input_names = [n.name for n in gm.graph.nodes if n.op == "placeholder"][:len(example_inputs)]
    defaults = [n.args[0] if n.args else None
                for n in gm.graph.nodes if n.op == "placeholder"][len(example_inputs):]
    # A training-mode run updates buffers (running statistics, batch
    # counters): keep their values after the run, then restore the old ones.
    state = model.state_dict(keep_vars=True)
    before = {name: tensor.clone() for name, tensor in state.items()}
    with torch.no_grad():
        reference = ShapeProp(gm).propagate(*example_inputs, *defaults)
        after = {id(tensor): tensor.clone() for tensor in state.values()}
        for name, tensor in state.items():
            tensor.copy_(before[name])

    converter = _Converter(gm, model, function_name, params_as_constants)
    converter.run(input_names)

    reference_outputs = [r.detach().cpu().numpy() for r in _flatten_tensors(reference)]
    for bn, _ in converter.running_stats.values():
        reference_outputs += [after[id(bn.running_mean)].numpy(),
                              after[id(bn.running_var)].numpy()]
    inputs = OrderedDict((value.name[1:], tensor.detach().cpu().numpy())
                         for value, tensor in zip(converter.input_arguments, example_inputs))
    params = OrderedDict((name, array) for _, name, _, array in converter.weight_arguments)
    arguments = make_arguments(list(inputs.items()), list(params.items()))
    mode = " (training mode)" if training else ""
    header = (f"Imported from PyTorch {type(model).__qualname__}{mode} by "
              f"raf_mlir.torch_frontend.\n"
              f"Arguments: {len(inputs)} input(s), then {len(params)} weight(s) in "
              f"state_dict order{' (weights are constants)' if params_as_constants else ''}.")
    return ImportedModule(function_name=function_name,
                          mlir_text=render_module([converter.builder], header=header),
                          params=params, inputs=inputs, arguments=arguments,
                          reference_outputs=reference_outputs, model=model,
                          params_as_constants=params_as_constants)


def _flatten_tensors(obj: Any) -> List[torch.Tensor]:
    if isinstance(obj, torch.Tensor):
        return [obj]
    if isinstance(obj, (tuple, list)):
        return [t for item in obj for t in _flatten_tensors(item)]
    raise FrontendError(f"model output of type {type(obj).__name__}")
