"""Numerical check of --convert-relay-to-tcg (and --convert-tcg-to-linalg).

For every operator variant with a tensor-expression form (nn.conv2d in NCHW
and NHWC with OIHW / HWIO / HWOI kernels, strided, padded, dilated, grouped,
depthwise, int8; nn.conv2d_transpose; nn.dense; nn.matmul with transposes;
nn.batch_matmul with transposes and batch broadcast), a relay function is
run on raf-run (CPU) before and after ``--convert-relay-to-tcg``; the two
results must agree with each other and with PyTorch. The converted module
must hold tcg.kernels and no converted operator.

Run with:  /usr/bin/python3 -m pytest python/tests/test_relay_to_tcg.py
"""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from raf_tools import RAF_OPT, RAF_RUN, require_tools  # noqa: E402

torch = pytest.importorskip("torch")
F = torch.nn.functional

require_tools(RAF_OPT, RAF_RUN)

MLIR_DTYPE = {np.dtype(np.float32): "f32", np.dtype(np.int8): "i8",
              np.dtype(np.int32): "i32"}


def tensor_type(array_or_shape, dtype=None):
    if dtype is None:
        shape, dtype = array_or_shape.shape, MLIR_DTYPE[array_or_shape.dtype]
    else:
        shape = array_or_shape
    return "tensor<" + "".join(f"{d}x" for d in shape) + dtype + ">"


def relay_function(op, attrs, inputs, expected):
    """A public @main applying relay `op` with `attrs` to its arguments."""
    args = ", ".join(f"%a{i}: {tensor_type(a)}" for i, a in enumerate(inputs))
    operands = ", ".join(f"%a{i}" for i in range(len(inputs)))
    types = ", ".join(tensor_type(a) for a in inputs)
    attr_text = f" {{{attrs}}}" if attrs else ""
    result = tensor_type(expected)
    return (f"func.func @main({args}) -> {result} {{\n"
            f"  %0 = relay.{op} {operands}{attr_text} : ({types})\n"
            f"  return %0 : {result}\n}}\n")


def raf_run(path, inputs, directory, tag):
    command = [str(RAF_RUN), str(path), "--entry=main", "--target=cpu"]
    for index, array in enumerate(inputs):
        file = directory / f"arg{index}.npy"
        np.save(file, array)
        command.append(f"--input={file}")
    output = directory / f"{tag}.npy"
    command.append(f"--output={output}")
    result = subprocess.run(command, capture_output=True, text=True,
                            timeout=600)
    assert result.returncode == 0, f"raf-run failed:\n{result.stderr[:4000]}"
    return np.load(output)


def convert(source, directory):
    """--convert-relay-to-tcg; returns the path and text of the result."""
    converted = directory / "tcg.mlir"
    result = subprocess.run(
        [str(RAF_OPT), str(source), "--convert-relay-to-tcg", "-o",
         str(converted)], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, f"raf-opt failed:\n{result.stderr[:4000]}"
    return converted, converted.read_text()


def check(op, attrs, inputs, expected, tmp_path):
    """Runs `op` before and after the conversion and compares both results
    with each other and with `expected` (the PyTorch result)."""
    source = tmp_path / "relay.mlir"
    source.write_text(relay_function(op, attrs, inputs, expected))
    before = raf_run(source, inputs, tmp_path, "before")
    converted, text = convert(source, tmp_path)
    assert "tcg.kernel" in text
    assert f"relay.{op} " not in text
    after = raf_run(converted, inputs, tmp_path, "after")
    assert after.shape == expected.shape and after.dtype == expected.dtype
    if np.issubdtype(expected.dtype, np.integer):
        np.testing.assert_array_equal(before, expected)
        np.testing.assert_array_equal(after, expected)
    else:
        np.testing.assert_allclose(after, before, rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(after, expected, rtol=1e-4, atol=1e-4)


RNG = np.random.default_rng(2022)


def randn(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


def randint8(*shape):
    return RNG.integers(-100, 100, shape).astype(np.int8)


def t(array):
    return torch.from_numpy(np.ascontiguousarray(array))


def i64_array(values):
    return "array<i64: " + ", ".join(str(v) for v in values) + ">"


# ---------------------------------------------------------------------------
# nn.conv2d
# ---------------------------------------------------------------------------

# (name, data shape in its layout, weight shape in its layout, attributes)
CONV_CASES = [
    ("nchw", "NCHW", "OIHW", (2, 3, 8, 8), (4, 3, 3, 3), {}),
    ("nhwc_hwio", "NHWC", "HWIO", (2, 7, 7, 3), (3, 3, 3, 5), {"padding": (1,)}),
    ("nhwc_oihw", "NHWC", "OIHW", (1, 6, 6, 3), (4, 3, 3, 3), {}),
    ("strided", "NCHW", "OIHW", (1, 3, 9, 9), (4, 3, 3, 3), {"strides": (2, 2)}),
    ("strided_nhwc", "NHWC", "HWIO", (1, 9, 8, 3), (3, 3, 3, 4),
     {"strides": (2, 3), "padding": (1, 1)}),
    ("padded_asymmetric", "NCHW", "OIHW", (1, 2, 6, 6), (3, 2, 3, 3),
     {"padding": (1, 2, 0, 1)}),
    ("dilated", "NCHW", "OIHW", (1, 2, 9, 9), (3, 2, 3, 3),
     {"dilation": (2, 2), "padding": (2,)}),
    ("grouped", "NCHW", "OIHW", (1, 4, 7, 7), (6, 2, 3, 3), {"groups": 2}),
    ("grouped_strided_dilated", "NCHW", "OIHW", (2, 6, 11, 11), (9, 2, 3, 3),
     {"groups": 3, "strides": (2, 2), "dilation": (2, 1), "padding": (1,)}),
    ("depthwise", "NCHW", "OIHW", (1, 4, 6, 6), (4, 1, 3, 3),
     {"groups": 4, "padding": (1,)}),
    ("depthwise_multiplier_nhwc", "NHWC", "HWOI", (1, 5, 5, 3), (3, 3, 6, 1),
     {"groups": 3}),
]

# Permutation of a layout to the canonical one (NCHW / OIHW).
def to_canonical(layout, canonical):
    return [layout.index(letter) for letter in canonical]


def torch_conv2d(x, w, data_layout, kernel_layout, strides=(1, 1),
                 padding=(0,), dilation=(1, 1), groups=1):
    xt = t(x).permute(*to_canonical(data_layout, "NCHW")).double()
    wt = t(w).permute(*to_canonical(kernel_layout, "OIHW")).double()
    pads = list(padding) * (4 // len(padding))  # top, left, bottom, right
    xt = F.pad(xt, (pads[1], pads[3], pads[0], pads[2]))
    out = F.conv2d(xt, wt, stride=strides, dilation=dilation, groups=groups)
    return out.permute(*to_canonical("NCHW", data_layout)).numpy()


def conv_attrs(data_layout, kernel_layout, options):
    attrs = []
    for key in ("strides", "padding", "dilation"):
        if key in options:
            attrs.append(f"{key} = {i64_array(options[key])}")
    if "groups" in options:
        attrs.append(f"groups = {options['groups']} : i64")
    if data_layout != "NCHW":
        attrs.append(f'data_layout = #relay.layout<{data_layout}>')
    if kernel_layout != "OIHW":
        attrs.append(f'kernel_layout = #relay.layout<{kernel_layout}>')
    return attrs


@pytest.mark.parametrize("name,data_layout,kernel_layout,xs,ws,options",
                         CONV_CASES, ids=[case[0] for case in CONV_CASES])
def test_conv2d(name, data_layout, kernel_layout, xs, ws, options, tmp_path):
    x, w = randn(*xs), randn(*ws)
    expected = torch_conv2d(x, w, data_layout, kernel_layout,
                            **options).astype(np.float32)
    attrs = conv_attrs(data_layout, kernel_layout, options)
    check("nn.conv2d", ", ".join(attrs), [x, w], expected, tmp_path)


def test_conv2d_int8(tmp_path):
    """int8 x int8 accumulated in int32 (out_dtype); the float64 reference is
    exact at these magnitudes."""
    x, w = randint8(1, 3, 6, 6), randint8(4, 3, 3, 3)
    expected = torch_conv2d(x.astype(np.float64), w.astype(np.float64),
                            "NCHW", "OIHW", padding=(1,)).astype(np.int32)
    check("nn.conv2d", "padding = array<i64: 1>, out_dtype = i32", [x, w],
          expected, tmp_path)


# ---------------------------------------------------------------------------
# nn.conv2d_transpose
# ---------------------------------------------------------------------------

# (name, data layout, data shape, IOHW weight shape, attributes)
CONV_T_CASES = [
    ("basic", "NCHW", (1, 3, 4, 4), (3, 2, 3, 3), {}),
    ("strided_padded_output_padding", "NCHW", (2, 3, 4, 5), (3, 2, 3, 3),
     {"strides": (2, 2), "padding": (1,), "output_padding": (1, 1)}),
    ("crop", "NCHW", (1, 1, 4, 4), (1, 1, 3, 3),
     {"strides": (3, 3), "padding": (3,)}),
    ("grouped_dilated", "NCHW", (1, 4, 3, 3), (4, 3, 2, 2),
     {"groups": 2, "dilation": (2, 2)}),
    ("nhwc_strided", "NHWC", (1, 3, 3, 2), (2, 4, 3, 3),
     {"strides": (2, 1), "padding": (1, 0)}),
]


@pytest.mark.parametrize("name,data_layout,xs,ws,options", CONV_T_CASES,
                         ids=[case[0] for case in CONV_T_CASES])
def test_conv2d_transpose(name, data_layout, xs, ws, options, tmp_path):
    x, w = randn(*xs), randn(*ws)
    xt = t(x).permute(*to_canonical(data_layout, "NCHW")).double()
    padding = options.get("padding", (0,))
    out = F.conv_transpose2d(
        xt, t(w).double(), stride=options.get("strides", (1, 1)),
        padding=tuple(padding) * (2 // len(padding)),
        output_padding=options.get("output_padding", (0, 0)),
        groups=options.get("groups", 1),
        dilation=options.get("dilation", (1, 1)))
    expected = out.permute(*to_canonical("NCHW", data_layout)).numpy()
    attrs = []
    for key in ("strides", "padding", "output_padding", "dilation"):
        if key in options:
            attrs.append(f"{key} = {i64_array(options[key])}")
    if "groups" in options:
        attrs.append(f"groups = {options['groups']} : i64")
    if data_layout != "NCHW":
        attrs.append(f'data_layout = #relay.layout<{data_layout}>')
    check("nn.conv2d_transpose", ", ".join(attrs), [x, w],
          expected.astype(np.float32), tmp_path)


# ---------------------------------------------------------------------------
# nn.dense, nn.matmul, nn.batch_matmul
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("xs", [(7,), (5, 7), (2, 3, 7)],
                         ids=["vector", "matrix", "batched"])
def test_dense(xs, tmp_path):
    x, w = randn(*xs), randn(4, 7)
    expected = F.linear(t(x).double(), t(w).double()).numpy()
    check("nn.dense", "", [x, w], expected.astype(np.float32), tmp_path)


def test_dense_int8(tmp_path):
    x, w = randint8(3, 16), randint8(16, 16)
    expected = (x.astype(np.int32) @ w.astype(np.int32).T).astype(np.int32)
    check("nn.dense", "out_dtype = i32", [x, w], expected, tmp_path)


@pytest.mark.parametrize("transpose_a", [False, True], ids=["a", "aT"])
@pytest.mark.parametrize("transpose_b", [False, True], ids=["b", "bT"])
def test_matmul(transpose_a, transpose_b, tmp_path):
    m, k, n = 3, 6, 5
    a = randn(*((k, m) if transpose_a else (m, k)))
    b = randn(*((n, k) if transpose_b else (k, n)))
    at, bt = t(a).double(), t(b).double()
    expected = ((at.T if transpose_a else at) @ (bt.T if transpose_b else bt))
    attrs = []
    if transpose_a:
        attrs.append("transpose_a = true")
    if transpose_b:
        attrs.append("transpose_b = true")
    check("nn.matmul", ", ".join(attrs), [a, b],
          expected.numpy().astype(np.float32), tmp_path)


# (name, a shape, b shape, transpose_a, transpose_b)
BMM_CASES = [
    ("default_transpose_b", (2, 3, 6), (2, 5, 6), False, True),
    ("no_transpose", (2, 3, 6), (2, 6, 5), False, False),
    ("transpose_a", (2, 6, 3), (2, 5, 6), True, True),
    ("transpose_both_broadcast_a", (1, 6, 3), (3, 5, 6), True, True),
    ("broadcast_b", (3, 3, 6), (1, 6, 5), False, False),
]


@pytest.mark.parametrize("name,a_shape,b_shape,transpose_a,transpose_b",
                         BMM_CASES, ids=[case[0] for case in BMM_CASES])
def test_batch_matmul(name, a_shape, b_shape, transpose_a, transpose_b,
                      tmp_path):
    a, b = randn(*a_shape), randn(*b_shape)
    at, bt = t(a).double(), t(b).double()
    if transpose_a:
        at = at.transpose(1, 2)
    if transpose_b:
        bt = bt.transpose(1, 2)
    expected = torch.matmul(at, bt).numpy().astype(np.float32)
    attrs = [f"transpose_a = {str(transpose_a).lower()}",
             f"transpose_b = {str(transpose_b).lower()}"]
    check("nn.batch_matmul", ", ".join(attrs), [a, b], expected, tmp_path)


# ---------------------------------------------------------------------------
# Kernels among other relay operators
# ---------------------------------------------------------------------------

def test_model_with_kernels(tmp_path):
    """conv2d -> relu -> reshape -> dense: kernels and relay operators in one
    function (fusion runs around the kernels), against PyTorch."""
    x, w, v = randn(2, 3, 6, 6), randn(4, 3, 3, 3), randn(5, 64)
    source = tmp_path / "relay.mlir"
    source.write_text(
        "func.func @main(%x: tensor<2x3x6x6xf32>, %w: tensor<4x3x3x3xf32>, "
        "%v: tensor<5x64xf32>) -> tensor<2x5xf32> {\n"
        "  %0 = relay.nn.conv2d %x, %w : (tensor<2x3x6x6xf32>, "
        "tensor<4x3x3x3xf32>)\n"
        "  %1 = relay.nn.relu %0 : (tensor<2x4x4x4xf32>)\n"
        "  %2 = relay.reshape %1 {newshape = array<i64: 2, 64>} : "
        "(tensor<2x4x4x4xf32>)\n"
        "  %3 = relay.nn.dense %2, %v : (tensor<2x64xf32>, tensor<5x64xf32>)\n"
        "  return %3 : tensor<2x5xf32>\n}\n")
    converted, text = convert(source, tmp_path)
    assert text.count("tcg.kernel") == 2 and "relay.nn.relu" in text
    after = raf_run(converted, [x, w, v], tmp_path, "after")
    hidden = F.relu(F.conv2d(t(x).double(), t(w).double())).reshape(2, 64)
    expected = F.linear(hidden, t(v).double()).numpy()
    np.testing.assert_allclose(after, expected, rtol=1e-4, atol=1e-4)
