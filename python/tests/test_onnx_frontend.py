"""Tests of the ONNX frontend (raf_mlir.onnx_frontend).

Models are built with ``onnx.helper``. Each is imported, written to disk,
verified by ``raf-opt`` and run by ``raf-run`` on ``--target=cpu`` and
``--target=interp``; the results are compared with a PyTorch evaluation of
the same ONNX graph (``onnx_torch_reference``: onnx 1.12 has no
``onnx.reference.ReferenceEvaluator``). A model exported by
``torch.onnx.export`` is compared with the PyTorch module itself.

Tools are looked up in ``$RAF_BUILD_DIR/bin`` (default ``<repo>/build/bin``).
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Sequence

import numpy as np
import onnx
import pytest
import torch
import torch.nn as nn
from onnx import TensorProto, helper, numpy_helper

sys.path.insert(0, str(Path(__file__).resolve().parent))

from onnx_torch_reference import evaluate  # noqa: E402
from raf_mlir.compare import run_raf  # noqa: E402
from raf_mlir.errors import FrontendError, UnsupportedOperationError  # noqa: E402
from raf_mlir.imported import ImportedModule  # noqa: E402
from raf_mlir.onnx_frontend import SUPPORTED_OPS, import_onnx  # noqa: E402

from raf_tools import REPO, RAF_OPT, RAF_RUN  # noqa: E402

F32 = TensorProto.FLOAT


@pytest.fixture(scope="module")
def tools() -> Dict[str, Path]:
    for tool in (RAF_OPT, RAF_RUN):
        if not tool.exists():
            pytest.skip(f"{tool.name} not found at {tool} (build it with "
                        "scripts/build.sh raf-opt raf-run, or set RAF_BUILD_DIR)")
    return {"opt": RAF_OPT, "run": RAF_RUN}


# ---------------------------------------------------------------------------
# Model building and checking
# ---------------------------------------------------------------------------


def make_model(nodes: Sequence[onnx.NodeProto], inputs: Dict[str, tuple],
               outputs: Dict[str, tuple], initializers: Dict[str, np.ndarray] = None,
               opset: int = 13, name: str = "test") -> onnx.ModelProto:
    """A model; ``inputs``/``outputs`` map names to ``(shape, elem_type)``
    (``elem_type`` defaults to float) and initializers are numpy arrays."""
    def spec_info(n, spec):
        if isinstance(spec, tuple) and len(spec) == 2 and isinstance(spec[0], (tuple, list)):
            return helper.make_tensor_value_info(n, spec[1], spec[0])
        return helper.make_tensor_value_info(n, F32, spec)

    graph = helper.make_graph(
        list(nodes), name,
        [spec_info(n, s) for n, s in inputs.items()],
        [spec_info(n, s) for n, s in outputs.items()],
        [numpy_helper.from_array(a, n) for n, a in (initializers or {}).items()])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def random_inputs(model: onnx.ModelProto, seed: int = 0,
                  positive: bool = False) -> List[np.ndarray]:
    rng = np.random.default_rng(seed)
    init = {t.name for t in model.graph.initializer}
    arrays = []
    for vi in model.graph.input:
        if vi.name in init:
            continue
        shape = [d.dim_value for d in vi.type.tensor_type.shape.dim]
        elem = vi.type.tensor_type.elem_type
        if elem == TensorProto.FLOAT:
            array = rng.standard_normal(shape).astype(np.float32)
            arrays.append(np.abs(array) + 0.1 if positive else array)
        elif elem == TensorProto.BOOL:
            arrays.append(rng.integers(0, 2, shape).astype(np.bool_))
        else:
            arrays.append(rng.integers(-3, 3, shape).astype(np.int64))
    return arrays


def verify(imported: ImportedModule, directory: Path, tools) -> str:
    mlir = imported.write(directory)
    process = subprocess.run([str(tools["opt"]), str(mlir)], capture_output=True, text=True)
    assert process.returncode == 0, process.stderr + "\n" + imported.mlir_text
    return mlir.read_text()


def check(model: onnx.ModelProto, tools, tmp_path: Path, inputs=None,
          positive: bool = False, rtol: float = 1e-4, atol: float = 1e-5,
          params_as_constants: bool = False) -> ImportedModule:
    """Imports, verifies, runs on both targets and compares with PyTorch."""
    inputs = random_inputs(model, positive=positive) if inputs is None else inputs
    imported = import_onnx(model, params_as_constants=params_as_constants,
                           example_inputs=inputs)
    verify(imported, tmp_path, tools)
    expected = evaluate(model, inputs)
    for target in ("cpu", "interp"):
        outputs, _ = run_raf(imported, inputs, tools["run"], target=target,
                             workdir=tmp_path / target)
        assert len(outputs) == len(expected)
        for got, want in zip(outputs, expected):
            assert got.shape == want.shape, (target, got.shape, want.shape)
            assert got.dtype == want.dtype or (got.dtype == np.bool_) == (want.dtype == np.bool_)
            np.testing.assert_allclose(got, want, rtol=rtol, atol=atol,
                                       err_msg=f"target {target}")
    return imported


def weights(*shape: int, seed: int = 1, scale: float = 0.5) -> np.ndarray:
    return (np.random.default_rng(seed + sum(shape)).standard_normal(shape) * scale
            ).astype(np.float32)


def const(name: str, array) -> onnx.NodeProto:
    return helper.make_node("Constant", [], [name],
                            value=numpy_helper.from_array(np.asarray(array), name))


# ---------------------------------------------------------------------------
# Networks
# ---------------------------------------------------------------------------


def conv_net() -> onnx.ModelProto:
    nodes = [
        helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1], name="conv1"),
        helper.make_node("BatchNormalization", ["c1", "g", "be", "m", "v"], ["bn"],
                         epsilon=1e-3, name="bn1"),
        helper.make_node("Relu", ["bn"], ["r1"]),
        helper.make_node("MaxPool", ["r1"], ["p1"], kernel_shape=[2, 2], strides=[2, 2]),
        helper.make_node("Conv", ["p1", "w2"], ["c2"], group=4, pads=[1, 1, 1, 1],
                         name="depthwise"),
        helper.make_node("Relu", ["c2"], ["r2"]),
        helper.make_node("AveragePool", ["r2"], ["p2"], kernel_shape=[2, 2], strides=[2, 2]),
        helper.make_node("Flatten", ["p2"], ["f"]),
        helper.make_node("Gemm", ["f", "fc_w", "fc_b"], ["y"], transB=1, name="fc"),
    ]
    init = {"w1": weights(4, 3, 3, 3), "b1": weights(4), "g": np.abs(weights(4)) + 0.5,
            "be": weights(4, seed=2), "m": weights(4, seed=3),
            "v": np.abs(weights(4, seed=4)) + 0.5, "w2": weights(4, 1, 3, 3),
            "fc_w": weights(10, 16), "fc_b": weights(10)}
    return make_model(nodes, {"x": [2, 3, 8, 8]}, {"y": [2, 10]}, init, name="conv_net")


def mlp() -> onnx.ModelProto:
    nodes = [
        helper.make_node("MatMul", ["x", "w1"], ["h"]),
        helper.make_node("Add", ["h", "b1"], ["hb"]),
        helper.make_node("Relu", ["hb"], ["r"]),
        helper.make_node("MatMul", ["r", "w2"], ["o"]),
        helper.make_node("Add", ["o", "b2"], ["ob"]),
        helper.make_node("Softmax", ["ob"], ["y"], axis=-1),
    ]
    init = {"w1": weights(16, 32), "b1": weights(32), "w2": weights(32, 8), "b2": weights(8)}
    return make_model(nodes, {"x": [4, 16]}, {"y": [4, 8]}, init, name="mlp")


def attention(opset: int = 13) -> onnx.ModelProto:
    """Self-attention: projections, heads split by Reshape/Transpose, scaled softmax."""
    b, s, e, h = 2, 5, 8, 2
    d = e // h
    nodes = [const("heads", np.array([b, s, h, d], np.int64)),
             const("merged", np.array([b, s, e], np.int64)),
             const("scale", np.array(1 / np.sqrt(d), np.float32))]
    for p in "qkv":
        nodes += [helper.make_node("MatMul", ["x", f"w{p}"], [f"{p}0"]),
                  helper.make_node("Add", [f"{p}0", f"b{p}"], [f"{p}1"]),
                  helper.make_node("Reshape", [f"{p}1", "heads"], [f"{p}2"]),
                  helper.make_node("Transpose", [f"{p}2"], [f"{p}"], perm=[0, 2, 1, 3])]
    nodes += [
        helper.make_node("Transpose", ["k"], ["kt"], perm=[0, 1, 3, 2]),
        helper.make_node("MatMul", ["q", "kt"], ["scores"]),
        helper.make_node("Mul", ["scores", "scale"], ["scaled"]),
        helper.make_node("Softmax", ["scaled"], ["probs"], axis=-1),
        helper.make_node("MatMul", ["probs", "v"], ["ctx"]),
        helper.make_node("Transpose", ["ctx"], ["ctx_t"], perm=[0, 2, 1, 3]),
        helper.make_node("Reshape", ["ctx_t", "merged"], ["ctx_m"]),
        helper.make_node("MatMul", ["ctx_m", "wo"], ["y"]),
    ]
    init = {}
    for i, p in enumerate("qkvo"):
        init[f"w{p}"] = weights(e, e, seed=10 + i)
        if p != "o":
            init[f"b{p}"] = weights(e, seed=20 + i)
    return make_model(nodes, {"x": [b, s, e]}, {"y": [b, s, e]}, init, opset=opset,
                      name="attention")


def test_conv_net(tools, tmp_path):
    imported = check(conv_net(), tools, tmp_path)
    text = imported.mlir_text
    assert "relay.nn.batch_norm" in text and "groups = 4" in text
    assert "relay.nn.dense" in text
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert [a["name"] for a in manifest["arguments"]] == \
        ["x", "w1", "b1", "g", "be", "m", "v", "w2", "fc_w", "fc_b"]
    assert [a["kind"] for a in manifest["arguments"]] == ["input"] + ["parameter"] * 9
    assert manifest["results"] == [{"index": 0, "shape": [2, 10], "dtype": "float32",
                                    "npy": None}]


def test_conv_net_params_as_constants(tools, tmp_path):
    imported = check(conv_net(), tools, tmp_path, params_as_constants=True)
    assert [a.name for a in imported.arguments] == ["x"]
    assert "relay.constant dense<\"0x" in imported.mlir_text


def test_mlp(tools, tmp_path):
    check(mlp(), tools, tmp_path)


def test_attention(tools, tmp_path):
    imported = check(attention(), tools, tmp_path)
    assert "relay.nn.batch_matmul" in imported.mlir_text
    # Reshape shapes come from Constants: no argument, no constant tensor for them.
    assert [a.name for a in imported.arguments][0] == "x"
    assert "heads" not in [a.name for a in imported.arguments]


def test_torch_onnx_export(tools, tmp_path):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Conv2d(3, 6, 3, stride=2, padding=1), nn.BatchNorm2d(6),
                          nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
                          nn.Linear(6, 5), nn.GELU(), nn.Linear(5, 3)).eval()
    with torch.no_grad():
        model[1].running_mean.uniform_(-0.5, 0.5)
        model[1].running_var.uniform_(0.5, 1.5)
    x = torch.randn(2, 3, 10, 10)
    buffer = io.BytesIO()
    torch.onnx.export(model, (x,), buffer, opset_version=13, input_names=["x"],
                      output_names=["y"])
    onnx_model = onnx.load_from_string(buffer.getvalue())
    imported = import_onnx(onnx_model, example_inputs=[x.numpy()])
    verify(imported, tmp_path, tools)
    with torch.no_grad():
        expected = model(x).numpy()
    for target in ("cpu", "interp"):
        outputs, _ = run_raf(imported, [x.numpy()], tools["run"], target=target)
        np.testing.assert_allclose(outputs[0], expected, rtol=1e-4, atol=1e-5)


def test_external_data(tools, tmp_path):
    """Weights in an external data file (how models over 2 GB are stored)."""
    model = conv_net()
    inputs = random_inputs(model)
    expected = evaluate(model, inputs)[0]
    w1 = numpy_helper.to_array(model.graph.initializer[0])
    path = tmp_path / "conv_net.onnx"
    # (save_model moves the initializers of `model` itself to the file.)
    onnx.save_model(model, str(path), save_as_external_data=True,
                    all_tensors_to_one_file=True, location="conv_net.data", size_threshold=0)
    assert (tmp_path / "conv_net.data").exists()
    imported = import_onnx(path, example_inputs=inputs)
    assert [a.name for a in imported.arguments][1:3] == ["w1", "b1"]
    np.testing.assert_array_equal(imported.params["w1"], w1)
    outputs, _ = run_raf(imported, inputs, tools["run"], target="interp",
                         workdir=tmp_path / "run")
    np.testing.assert_allclose(outputs[0], expected, rtol=1e-4, atol=1e-5)


def test_command_line(tools, tmp_path):
    path = tmp_path / "mlp.onnx"
    onnx.save(mlp(), str(path))
    out = tmp_path / "out"
    env = dict(os.environ, PYTHONPATH=str(REPO / "python"))
    process = subprocess.run(
        [sys.executable, "-m", "raf_mlir.onnx", str(path), "--output-dir", str(out),
         "--function-name", "mlp_fn", "--params-as-constants"],
        capture_output=True, text=True, env=env)
    assert process.returncode == 0, process.stderr
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["function"] == "mlp_fn" and manifest["params_as_constants"]
    assert [a["npy"] for a in manifest["arguments"]] == ["000_x.npy"]
    assert subprocess.run([str(tools["opt"]), str(out / "mlp_fn.mlir")],
                          capture_output=True).returncode == 0


# ---------------------------------------------------------------------------
# One model per operator (and per important variant)
# ---------------------------------------------------------------------------


def _unary(op: str, **attrs):
    return make_model([helper.make_node(op, ["x"], ["y"], **attrs)],
                      {"x": [2, 3, 4]}, {"y": [2, 3, 4]})


def _binary(op: str, a=(2, 3, 4), b=(3, 1), out=(2, 3, 4), elem=F32):
    return make_model([helper.make_node(op, ["a", "b"], ["y"])],
                      {"a": list(a), "b": list(b)}, {"y": (tuple(out), elem)})


def _single(op, inputs, outputs, init=None, opset=13, consts=(), **attrs):
    nodes = [const(n, a) for n, a in consts]
    names = list(inputs) + list(init or {}) + [n for n, _ in consts]
    return make_model(nodes + [helper.make_node(op, attrs.pop("_in", names),
                                                list(outputs), **attrs)],
                      inputs, outputs, init, opset=opset)


def _i64(*values):
    return np.array(values, np.int64)


SINGLE_OPS = {
    "conv_asymmetric_strided_dilated": lambda: _single(
        "Conv", {"x": [1, 2, 9, 9]}, {"y": [1, 4, 3, 5]}, {"w": weights(4, 2, 3, 3)},
        pads=[0, 1, 1, 2], strides=[2, 2], dilations=[2, 1]),
    "conv_same_upper_bias": lambda: _single(
        "Conv", {"x": [1, 3, 7, 7]}, {"y": [1, 2, 4, 4]},
        {"w": weights(2, 3, 2, 2), "b": weights(2)}, auto_pad="SAME_UPPER", strides=[2, 2]),
    "batch_norm": lambda: _single(
        "BatchNormalization", {"x": [2, 3, 4, 4]}, {"y": [2, 3, 4, 4]},
        {"g": weights(3), "b": weights(3, seed=5), "m": weights(3, seed=6),
         "v": np.abs(weights(3)) + 0.5}),
    **{op.lower(): (lambda op=op: _unary(op))
       for op in ("Relu", "Sigmoid", "Tanh", "Erf", "Exp", "Neg", "Identity")},
    "sqrt": lambda: _unary("Sqrt"), "log": lambda: _unary("Log"),
    "leaky_relu": lambda: _unary("LeakyRelu", alpha=0.2),
    "dropout": lambda: _unary("Dropout"),
    "softmax_axis1": lambda: _unary("Softmax", axis=1),
    "log_softmax": lambda: _unary("LogSoftmax"),
    "clip": lambda: _single("Clip", {"x": [2, 3, 4]}, {"y": [2, 3, 4]},
                            consts=[("lo", np.float32(-0.5)), ("hi", np.float32(0.7))]),
    "clip_max_only": lambda: _single("Clip", {"x": [2, 3, 4]}, {"y": [2, 3, 4]},
                                     consts=[("hi", np.float32(0.3))], _in=["x", "", "hi"]),
    **{op.lower(): (lambda op=op: _binary(op)) for op in ("Add", "Sub", "Mul", "Div")},
    "pow": lambda: _single("Pow", {"x": [2, 3]}, {"y": [2, 3]},
                           consts=[("e", np.float32(2.0))]),
    "max": lambda: _binary("Max"), "min": lambda: _binary("Min"),
    "equal": lambda: _single("Equal", {"a": ([2, 3], TensorProto.INT64),
                                       "b": ([3], TensorProto.INT64)},
                             {"y": ((2, 3), TensorProto.BOOL)}),
    "less": lambda: _binary("Less", elem=TensorProto.BOOL),
    "greater": lambda: _binary("Greater", elem=TensorProto.BOOL),
    "less_or_equal": lambda: _binary("LessOrEqual", elem=TensorProto.BOOL),
    "greater_or_equal": lambda: _binary("GreaterOrEqual", elem=TensorProto.BOOL),
    "where": lambda: make_model(
        [helper.make_node("Greater", ["a", "b"], ["c"]),
         helper.make_node("Where", ["c", "a", "b"], ["y"])],
        {"a": [2, 3, 4], "b": [3, 1]}, {"y": [2, 3, 4]}),
    "matmul_2d": lambda: _binary("MatMul", (3, 4), (4, 5), (3, 5)),
    "matmul_batched": lambda: _binary("MatMul", (2, 3, 4, 5), (2, 3, 5, 6), (2, 3, 4, 6)),
    "matmul_broadcast_batch": lambda: _binary("MatMul", (2, 3, 4, 5), (3, 5, 2), (2, 3, 4, 2)),
    "matmul_2d_weight": lambda: _single("MatMul", {"x": [2, 3, 4]}, {"y": [2, 3, 6]},
                                        {"w": weights(4, 6)}),
    "matmul_vector": lambda: _binary("MatMul", (2, 3, 4), (4,), (2, 3)),
    "gemm_all_attributes": lambda: _single(
        "Gemm", {"a": [4, 3]}, {"y": [3, 5]}, {"b": weights(5, 4), "c": weights(5)},
        alpha=0.5, beta=2.0, transA=1, transB=1),
    "gemm_plain": lambda: _single("Gemm", {"a": [3, 4], "b": [4, 5]}, {"y": [3, 5]}),
    "max_pool_pads_ceil": lambda: _single(
        "MaxPool", {"x": [1, 2, 7, 7]}, {"y": [1, 2, 4, 4]}, kernel_shape=[3, 3],
        strides=[2, 2], pads=[1, 1, 1, 1], ceil_mode=1),
    "avg_pool_count_pad": lambda: _single(
        "AveragePool", {"x": [1, 2, 6, 6]}, {"y": [1, 2, 3, 3]}, kernel_shape=[3, 3],
        strides=[2, 2], pads=[1, 1, 1, 1], count_include_pad=1),
    "avg_pool_exclude_pad": lambda: _single(
        "AveragePool", {"x": [1, 2, 6, 6]}, {"y": [1, 2, 3, 3]}, kernel_shape=[3, 3],
        strides=[2, 2], pads=[1, 1, 1, 1]),
    "global_avg_pool": lambda: _single("GlobalAveragePool", {"x": [2, 3, 5, 5]},
                                       {"y": [2, 3, 1, 1]}),
    "flatten_axis2": lambda: _single("Flatten", {"x": [2, 3, 4, 5]}, {"y": [6, 20]}, axis=2),
    "reshape_zero_minus_one": lambda: _single(
        "Reshape", {"x": [2, 3, 4]}, {"y": [2, 2, 6]}, {"s": _i64(0, 2, -1)}),
    "transpose": lambda: _single("Transpose", {"x": [2, 3, 4]}, {"y": [4, 2, 3]},
                                 perm=[2, 0, 1]),
    "concat": lambda: _single("Concat", {"a": [2, 3], "b": [2, 5]}, {"y": [2, 8]}, axis=-1),
    "layer_norm_17": lambda: _single(
        "LayerNormalization", {"x": [2, 3, 8]}, {"y": [2, 3, 8]},
        {"s": np.abs(weights(8)) + 0.5, "b": weights(8, seed=9)}, opset=17, epsilon=1e-4),
    "layer_norm_17_two_axes": lambda: _single(
        "LayerNormalization", {"x": [2, 3, 4]}, {"y": [2, 3, 4]},
        {"s": np.abs(weights(3, 4)) + 0.5}, opset=17, axis=1),
    "reduce_mean_attr": lambda: _single("ReduceMean", {"x": [2, 3, 4]}, {"y": [2, 1, 4]},
                                        axes=[1]),
    "reduce_sum_input": lambda: _single("ReduceSum", {"x": [2, 3, 4]}, {"y": [2]},
                                        {"axes": _i64(1, -1)}, keepdims=0),
    "reduce_max_all": lambda: _single("ReduceMax", {"x": [2, 3, 4]}, {"y": [1, 1, 1]}),
    "reduce_sum_noop_empty_axes": lambda: _single(
        "ReduceSum", {"x": [2, 3, 4]}, {"y": [2, 3, 4]}, noop_with_empty_axes=1),
    "gather_constant_negative": lambda: _single(
        "Gather", {"x": [5, 3]}, {"y": [2, 2, 3]}, consts=[("i", _i64(0, -1, 3, -5).reshape(2, 2))]),
    "gather_input_indices": lambda: _single(
        "Gather", {"x": [4, 6], "i": ([3], TensorProto.INT64)}, {"y": [4, 3]}, axis=1),
    "gather_embedding": lambda: _single(
        "Gather", {"i": ([2, 3], TensorProto.INT64)}, {"y": [2, 3, 4]},
        _in=["w", "i"], init={"w": weights(7, 4)}),
    "unsqueeze": lambda: _single("Unsqueeze", {"x": [2, 3]}, {"y": [1, 2, 1, 3]},
                                 consts=[("axes", _i64(0, -2))]),
    "squeeze": lambda: _single("Squeeze", {"x": [2, 1, 3, 1]}, {"y": [2, 3, 1]},
                               consts=[("axes", _i64(1))]),
    "squeeze_all": lambda: _single("Squeeze", {"x": [2, 1, 3, 1]}, {"y": [2, 3]}),
    "slice": lambda: _single(
        "Slice", {"x": [4, 6, 5]}, {"y": [2, 3, 5]},
        consts=[("st", _i64(1, -5)), ("en", _i64(100, 5)), ("ax", _i64(1, 0)),
                ("sp", _i64(2, 2))]),
    "slice_negative_step": lambda: _single(
        "Slice", {"x": [6, 3]}, {"y": [3, 3]},
        consts=[("st", _i64(-1)), ("en", _i64(2)), ("ax", _i64(0)), ("sp", _i64(-1))]),
    "cast": lambda: _single("Cast", {"x": [2, 3]}, {"y": ((2, 3), TensorProto.INT32)},
                            to=TensorProto.INT32),
    "split_sizes": lambda: make_model(
        [const("sz", _i64(1, 3, 2)),
         helper.make_node("Split", ["x", "sz"], ["a", "b", "c"], axis=1)],
        {"x": [2, 6]}, {"a": [2, 1], "b": [2, 3], "c": [2, 2]}),
    "split_equal": lambda: make_model(
        [helper.make_node("Split", ["x"], ["a", "b"], axis=-1)],
        {"x": [2, 6]}, {"a": [2, 3], "b": [2, 3]}),
}

def shape_arithmetic() -> onnx.ModelProto:
    """Shape computations as exporters write them (Shape, Gather, arithmetic,
    Where, Range, ConstantOfShape, ...); the frontend folds all of them, so
    only Reshape, Gather (constant indices), Add and Mul are emitted."""
    i64 = lambda name, *v: const(name, np.array(v if len(v) != 1 else v[0], np.int64))
    f32 = lambda name, v: const(name, np.array(v, np.float32))
    n = helper.make_node
    nodes = [
        i64("zero", 0), i64("one", 1), i64("three", 3), i64("five", 5), i64("ax0", [0]),
        f32("third", 1 / 3), f32("scale", 1.2), f32("four", 4.0),
        n("Shape", ["x"], ["s"]), n("Shape", ["x"], ["s_tail"], start=1),
        n("Size", ["x"], ["count"]),
        n("Gather", ["s", "zero"], ["d0"]),
        n("ReduceProd", ["s_tail"], ["tail"], keepdims=1),            # [12]
        n("Div", ["count", "d0"], ["per_row"]),                         # 12
        n("Add", ["per_row", "one"], ["p1"]), n("Mod", ["p1", "five"], ["m"]),   # 3
        n("Equal", ["m", "three"], ["eq"]), n("Not", ["eq"], ["ne"]),
        n("Xor", ["eq", "ne"], ["x1"]), n("Or", ["ne", "x1"], ["o1"]),
        n("And", ["eq", "o1"], ["both"]),
        n("Neg", ["per_row"], ["neg"]), n("Where", ["both", "per_row", "neg"], ["cols"]),
        n("Unsqueeze", ["cols", "ax0"], ["cols1"]), n("Unsqueeze", ["d0", "ax0"], ["d01"]),
        n("Concat", ["d01", "cols1"], ["flat_shape"], axis=0),
        n("Reshape", ["x", "flat_shape"], ["y_flat"]),                  # [2, 12]
        # float arithmetic on a shape: ceil(sqrt(12 / 3) * 1.2) = 3, floor, sign, pow
        n("Cast", ["tail"], ["tail_f"], to=TensorProto.FLOAT),
        n("Mul", ["tail_f", "third"], ["q"]), n("Sqrt", ["q"], ["root"]),
        n("Mul", ["root", "scale"], ["scaled"]), n("Ceil", ["scaled"], ["up"]),
        n("Floor", ["scaled"], ["down"]), n("Sub", ["down", "four"], ["below"]),
        n("Sign", ["below"], ["sgn"]), n("Pow", ["up", "sgn"], ["inv"]),   # 1/3
        n("Max", ["up", "down"], ["hi"]), n("Min", ["up", "down"], ["lo"]),
        n("Less", ["lo", "hi"], ["lt"]), n("Greater", ["lo", "hi"], ["gt"]),
        n("LessOrEqual", ["lo", "hi"], ["le"]), n("GreaterOrEqual", ["lo", "hi"], ["ge"]),
        n("Cast", ["up"], ["width"], to=TensorProto.INT64),
        n("Squeeze", ["width", "ax0"], ["width0"]),
        n("Range", ["zero", "width0", "one"], ["cols_idx"]),             # [0, 1, 2]
        n("Gather", ["x", "cols_idx"], ["picked"], axis=2),             # [2, 3, 3]
        n("Identity", ["s"], ["s_copy"]),
        n("Slice", ["s_copy", "zero_1", "two_1"], ["s01"]),              # [2, 3]
        i64("zero_1", [0]), i64("two_1", [2]),
        n("Concat", ["s01", "width"], ["picked_shape"], axis=0),          # [2, 3, 3]
        n("ConstantOfShape", ["picked_shape"], ["halves"],
          value=numpy_helper.from_array(np.array([0.5], np.float32))),
        n("Transpose", ["halves"], ["halves_t"], perm=[1, 0, 2]),
        n("Flatten", ["halves_t"], ["halves_2d"], axis=1),               # [3, 6]
        n("Tile", ["halves_2d", "tile_reps"], ["tiled"]),                 # [3, 12]
        i64("tile_reps", [1, 2]),
        n("Expand", ["inv", "picked_shape"], ["inv_full"]),              # [2, 3, 3]
        n("ReduceSum", ["tiled", "ax0"], ["col_sums"], keepdims=0),      # [12] of 1.5
        n("ReduceMean", ["col_sums"], ["mean"], keepdims=0),
        n("ReduceMax", ["inv_full"], ["inv_max"], keepdims=0),
        n("ReduceMin", ["inv_full"], ["inv_min"], keepdims=0),
        n("Add", ["mean", "inv_max"], ["offset"]), n("Sub", ["offset", "inv_min"], ["off2"]),
        n("Where", ["lt", "off2", "mean"], ["off3"]),
        n("Mul", ["picked", "inv_full"], ["y_scaled"]),
        n("Add", ["y_scaled", "off3"], ["y_picked"]),
    ]
    # Constants first: they precede their users.
    nodes = [m for m in nodes if m.op_type == "Constant"] + \
        [m for m in nodes if m.op_type != "Constant"]
    return make_model(nodes, {"x": [2, 3, 4]}, {"y_flat": [2, 12], "y_picked": [2, 3, 3]},
                      opset=15, name="shape_arithmetic")


def recurrent(op: str, directions: int = 1, layout: int = 0, bias: bool = True,
              initial: bool = False, opset: int = 14, **attrs) -> onnx.ModelProto:
    """One LSTM / GRU / RNN node: sequence 3, batch 2, input 4, hidden 5."""
    gates = {"LSTM": 4, "GRU": 3, "RNN": 1}[op]
    steps, batch, width, hidden = 3, 2, 4, 5
    x_shape = [batch, steps, width] if layout else [steps, batch, width]
    state_shape = [batch, directions, hidden] if layout else [directions, batch, hidden]
    init = {"w": weights(directions, gates * hidden, width, seed=30),
            "r": weights(directions, gates * hidden, hidden, seed=31)}
    inputs = ["x", "w", "r"]
    if bias:
        init["b"] = weights(directions, 2 * gates * hidden, seed=32)
    inputs.append("b" if bias else "")
    graph_inputs = {"x": x_shape}
    if initial:
        inputs += ["", "h0"] + (["c0"] if op == "LSTM" else [])
        graph_inputs["h0"] = state_shape
        if op == "LSTM":
            graph_inputs["c0"] = state_shape
    y_shape = [batch, steps, directions, hidden] if layout else [steps, directions, batch, hidden]
    outputs = {"y": y_shape, "y_h": state_shape}
    if op == "LSTM":
        outputs["y_c"] = state_shape
    if layout:
        attrs["layout"] = 1
    if directions == 2:
        attrs["direction"] = "bidirectional"
    node = helper.make_node(op, inputs, list(outputs), hidden_size=hidden, name=op.lower(),
                            **attrs)
    return make_model([node], graph_inputs, outputs, init, opset=opset)


SINGLE_OPS.update({
    "lstm": lambda: recurrent("LSTM"),
    "lstm_bidirectional_initial_state": lambda: recurrent("LSTM", 2, initial=True),
    "lstm_layout_1_reverse": lambda: recurrent("LSTM", layout=1, initial=True,
                                               direction="reverse"),
    "gru_linear_before_reset": lambda: recurrent("GRU", 2, linear_before_reset=1),
    "gru_reset_first_no_bias": lambda: recurrent("GRU", bias=False, initial=True),
    "gru_reset_first": lambda: recurrent("GRU", layout=1),
    "rnn_relu": lambda: recurrent("RNN", activations=["Relu"], initial=True),
    "rnn_bidirectional": lambda: recurrent("RNN", 2),
    # A constant built by item assignment, folded; then added to the input.
    "scatter_nd_folded": lambda: make_model(
        [const("data", np.zeros((3, 4), np.float32)), const("idx", _i64(0, 2, 1, 1).reshape(2, 2)),
         const("upd", np.array([1.5, -2.0], np.float32)),
         helper.make_node("ScatterND", ["data", "idx", "upd"], ["mask"]),
         helper.make_node("Add", ["x", "mask"], ["y"])],
        {"x": [3, 4]}, {"y": [3, 4]}),
    "hard_sigmoid": lambda: _unary("HardSigmoid", alpha=0.3, beta=0.4),
    "hard_sigmoid_default": lambda: _unary("HardSigmoid"),
    "hard_swish": lambda: _single("HardSwish", {"x": [2, 3, 4]}, {"y": [2, 3, 4]}, opset=14),
    "softplus": lambda: _unary("Softplus"),
    "abs": lambda: _unary("Abs"),
    "elu": lambda: _unary("Elu", alpha=0.7),
    "prelu": lambda: _single("PRelu", {"x": [2, 3, 4, 4]}, {"y": [2, 3, 4, 4]},
                             {"slope": weights(3, 1, 1)}),
    "sum_variadic": lambda: _single("Sum", {"a": [2, 3], "b": [3], "c": [2, 1]},
                                    {"y": [2, 3]}),
    "mean_variadic": lambda: _single("Mean", {"a": [2, 3], "b": [2, 3]}, {"y": [2, 3]}),
    "pad_constant": lambda: _single("Pad", {"x": [1, 2, 4, 5]}, {"y": [1, 2, 7, 8]},
                                    consts=[("p", _i64(0, 0, 1, 2, 0, 0, 2, 1)),
                                            ("v", np.float32(0.5))]),
    "pad_all_zero": lambda: _single("Pad", {"x": [1, 2, 4, 5]}, {"y": [1, 2, 4, 5]},
                                    consts=[("p", _i64(0, 0, 0, 0, 0, 0, 0, 0))]),
    "pad_reflect": lambda: _single("Pad", {"x": [1, 2, 4, 5]}, {"y": [1, 2, 6, 8]},
                                   consts=[("p", _i64(0, 0, 1, 2, 0, 0, 1, 1))],
                                   mode="reflect"),
    "pad_edge": lambda: _single("Pad", {"x": [2, 4, 5]}, {"y": [2, 7, 5]},
                                consts=[("p", _i64(0, 2, 0, 0, 1, 0))], mode="edge"),
    "pad_negative_crops": lambda: _single("Pad", {"x": [2, 6]}, {"y": [2, 5]},
                                          consts=[("p", _i64(0, -2, 0, 1))]),
    "expand": lambda: _single("Expand", {"x": [3, 1]}, {"y": [2, 3, 4]},
                              consts=[("s", _i64(2, 1, 4))]),
    "tile": lambda: _single("Tile", {"x": [2, 3]}, {"y": [4, 9]}, consts=[("r", _i64(2, 3))]),
    "einsum_batched": lambda: _single("Einsum", {"a": [2, 3, 4], "b": [2, 5, 4]},
                                      {"y": [2, 3, 5]}, equation="bik,bjk->bij"),
    "einsum_contract": lambda: _single("Einsum", {"a": [3, 4], "b": [4, 5]}, {"y": [5, 3]},
                                       equation="ij,jk->ki"),
    "dropout_training_ratio_zero": lambda: _single(
        "Dropout", {"x": [2, 3]}, {"y": [2, 3]},
        consts=[("r", np.float32(0.0)), ("t", np.bool_(True))]),
    "shape_arithmetic": shape_arithmetic,
    "reduce_min": lambda: _single("ReduceMin", {"x": [2, 3, 4]}, {"y": [2, 4]}, axes=[1],
                                  keepdims=0),
    "reduce_l1": lambda: _single("ReduceL1", {"x": [2, 3, 4]}, {"y": [2, 3, 1]}, axes=[-1]),
    "reduce_l2": lambda: _single("ReduceL2", {"x": [2, 3, 4]}, {"y": [1, 1, 1]}),
    "reduce_sum_square": lambda: _single("ReduceSumSquare", {"x": [2, 3, 4]}, {"y": [3]},
                                         axes=[0, 2], keepdims=0),
})

#: Ops that need positive inputs.
_POSITIVE = {"sqrt", "log", "pow", "layer_norm_17"}


@pytest.mark.parametrize("case", sorted(SINGLE_OPS))
def test_single_op(case, tools, tmp_path):
    check(SINGLE_OPS[case](), tools, tmp_path, positive=case in _POSITIVE)


def test_every_supported_op_is_tested():
    used = {n.op_type for make in SINGLE_OPS.values() for n in make().graph.node}
    used |= {n.op_type for m in (conv_net(), mlp(), attention()) for n in m.graph.node}
    assert set(SUPPORTED_OPS) - used == set()


def test_gelu_is_not_in_this_onnx():
    # Gelu is an opset-20 operator; onnx 1.12 does not define it.
    assert "Gelu" not in SUPPORTED_OPS or onnx.defs.has("Gelu")


# ---------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------


def test_unsupported_op_names_op_type_and_node():
    model = make_model([helper.make_node("Relu", ["x"], ["r"]),
                        helper.make_node("Round", ["r"], ["y"], name="my_round")],
                       {"x": [2, 3]}, {"y": [2, 3]}, opset=14)
    with pytest.raises(UnsupportedOperationError) as info:
        import_onnx(model)
    message = str(info.value)
    assert "Round" in message and "my_round" in message


def test_folding_only_op_on_computed_values_is_unsupported():
    # Mod is only folded (shape arithmetic); on graph inputs there is no relay operator.
    model = make_model([helper.make_node("Mod", ["a", "b"], ["y"], name="mod", fmod=1)],
                       {"a": [2, 3], "b": [2, 3]}, {"y": [2, 3]})
    with pytest.raises(UnsupportedOperationError, match=r"'Mod' at ONNX node 'mod'.*constant"):
        import_onnx(model)


def test_shape_arithmetic_is_folded():
    imported = import_onnx(shape_arithmetic())
    emitted = set(re.findall(r"= relay\.([\w.]+) ", imported.mlir_text)) - {"constant"}
    assert emitted == {"reshape", "take", "multiply", "add"}
    assert [a.name for a in imported.arguments] == ["x"]


def test_unnamed_unsupported_node_is_located():
    model = make_model([helper.make_node("Round", ["x"], ["round_out"])],
                       {"x": [2, 3]}, {"round_out": [2, 3]})
    with pytest.raises(UnsupportedOperationError, match=r"'Round'.*round_out"):
        import_onnx(model)


def test_old_opset_rejected():
    with pytest.raises(FrontendError, match=r"opset 11.*13 or later"):
        import_onnx(make_model([helper.make_node("Relu", ["x"], ["y"])],
                               {"x": [2]}, {"y": [2]}, opset=11))


def test_dynamic_input_shape_rejected():
    model = make_model([helper.make_node("Relu", ["x"], ["y"])],
                       {"x": ["N", 3]}, {"y": ["N", 3]})
    with pytest.raises(FrontendError, match=r"graph input 'x' has a dynamic dimension 0 \('N'\)"):
        import_onnx(model)


def test_computed_reshape_shape_rejected():
    model = make_model([helper.make_node("Reshape", ["x", "s"], ["y"], name="r")],
                       {"x": [2, 3], "s": ([2], TensorProto.INT64)}, {"y": [3, 2]})
    with pytest.raises(FrontendError, match=r"'r' \(Reshape\).*initializer or a Constant"):
        import_onnx(model)


def test_training_batch_norm_rejected():
    model = make_model([helper.make_node("BatchNormalization", ["x", "g", "b", "m", "v"],
                                         ["y", "rm", "rv"], training_mode=1, name="bn")],
                       {"x": [2, 3]}, {"y": [2, 3]},
                       {n: np.ones(3, np.float32) for n in "gbmv"}, opset=15)
    with pytest.raises(UnsupportedOperationError, match=r"BatchNormalization.*bn.*training"):
        import_onnx(model)
