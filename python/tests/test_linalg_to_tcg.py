"""Numerical check of --convert-linalg-to-tcg (linalg on tensors as
torch-mlir emits it, through tcg.kernels and --convert-tcg-to-linalg).

Each case is a linalg-on-tensors function (named convolutions in NCHW and
NHWC, strided, dilated, zero-padded by tensor.pad, depthwise; matmul and
batch_matmul, int8 into int32, accumulating into a non-zero output; a
multiply-accumulate linalg.generic with a transposed output). It is run on
raf-run (CPU) before and after the conversion; both results must agree with
PyTorch, and the converted module must hold tcg.kernels instead of the
operation.

Run with:  /usr/bin/python3 -m pytest python/tests/test_linalg_to_tcg.py
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
RNG = np.random.default_rng(22)


def ttype(shape, dtype):
    return "tensor<" + "".join(f"{d}x" for d in shape) + dtype + ">"


def run(path, inputs, directory, tag):
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


def check(body, inputs, expected, op, tmp_path):
    """`body` computes %r of `expected`'s type from %a0, %a1, ..."""
    args = ", ".join(
        f"%a{i}: {ttype(a.shape, MLIR_DTYPE[a.dtype])}"
        for i, a in enumerate(inputs))
    result = ttype(expected.shape, MLIR_DTYPE[expected.dtype])
    source = tmp_path / "linalg.mlir"
    source.write_text(f"func.func @main({args}) -> {result} {{\n{body}\n"
                      f"  return %r : {result}\n}}\n")
    converted = tmp_path / "tcg.mlir"
    conversion = subprocess.run(
        [str(RAF_OPT), str(source), "--convert-linalg-to-tcg", "-o",
         str(converted)], capture_output=True, text=True, timeout=600)
    assert conversion.returncode == 0, conversion.stderr[:4000]
    text = converted.read_text()
    assert f'tcg.kernel "{op}"' in text and f"{op} " not in text.replace(
        f'"{op}"', "")
    before = run(source, inputs, tmp_path, "before")
    after = run(converted, inputs, tmp_path, "after")
    assert after.shape == expected.shape and after.dtype == expected.dtype
    if np.issubdtype(expected.dtype, np.integer):
        np.testing.assert_array_equal(before, expected)
        np.testing.assert_array_equal(after, expected)
    else:
        np.testing.assert_allclose(before, expected, rtol=1e-4, atol=1e-4)
        np.testing.assert_allclose(after, expected, rtol=1e-4, atol=1e-4)


def t(array):
    return torch.from_numpy(np.ascontiguousarray(array))


def zero_fill(shape, dtype, name="%f"):
    zero = "0.0" if dtype == "f32" else "0"
    return (f"  %zero = arith.constant {zero} : {dtype}\n"
            f"  %e = tensor.empty() : {ttype(shape, dtype)}\n"
            f"  {name} = linalg.fill ins(%zero : {dtype}) outs(%e : "
            f"{ttype(shape, dtype)}) -> {ttype(shape, dtype)}\n")


def pad(name, source, shape, dtype, low, high):
    padded = [s + lo + hi for s, lo, hi in zip(shape, low, high)]
    zero = "0.0" if dtype == "f32" else "0"
    indices = ", ".join(f"%i{d}: index" for d in range(len(shape)))
    return (f"  %pz = arith.constant {zero} : {dtype}\n"
            f"  {name} = tensor.pad {source} low{list(low)} high{list(high)} "
            f"{{\n  ^bb0({indices}):\n    tensor.yield %pz : {dtype}\n"
            f"  }} : {ttype(shape, dtype)} to {ttype(padded, dtype)}\n",
            padded)


def conv_nchw(x, w, stride, dilation, padding, tmp_path):
    """torch.nn.functional.conv2d as torch-mlir lowers it."""
    expected = F.conv2d(t(x), t(w), stride=stride, dilation=dilation,
                        padding=padding).numpy()
    low = [0, 0, padding, padding]
    text, padded = pad("%p", "%a0", x.shape, "f32", low, low)
    text += zero_fill(expected.shape, "f32")
    text += (f"  %r = linalg.conv_2d_nchw_fchw {{dilations = dense<{dilation}>"
             f" : vector<2xi64>, strides = dense<{stride}> : vector<2xi64>}} "
             f"ins(%p, %a1 : {ttype(padded, 'f32')}, "
             f"{ttype(w.shape, 'f32')}) outs(%f : "
             f"{ttype(expected.shape, 'f32')}) -> "
             f"{ttype(expected.shape, 'f32')}")
    check(text, [x, w], expected, "linalg.conv_2d_nchw_fchw", tmp_path)


@pytest.mark.parametrize("stride,dilation,padding", [
    (1, 1, 0), (2, 1, 1), (1, 2, 2), (2, 2, 1)])
def test_conv_nchw(stride, dilation, padding, tmp_path):
    x = RNG.standard_normal((2, 3, 9, 9)).astype(np.float32)
    w = RNG.standard_normal((4, 3, 3, 3)).astype(np.float32)
    conv_nchw(x, w, stride, dilation, padding, tmp_path)


def test_conv_nhwc_int8(tmp_path):
    x = RNG.integers(-100, 100, (1, 7, 7, 5)).astype(np.int8)
    w = RNG.integers(-100, 100, (3, 3, 5, 6)).astype(np.int8)   # HWCF
    expected = F.conv2d(
        t(x.astype(np.int64)).permute(0, 3, 1, 2),
        t(w.astype(np.int64)).permute(3, 2, 0, 1), stride=2).permute(
            0, 2, 3, 1).numpy().astype(np.int32)
    text = zero_fill(expected.shape, "i32")
    text += ("  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : "
             "tensor<2xi64>, strides = dense<2> : tensor<2xi64>} "
             f"ins(%a0, %a1 : {ttype(x.shape, 'i8')}, {ttype(w.shape, 'i8')})"
             f" outs(%f : {ttype(expected.shape, 'i32')}) -> "
             f"{ttype(expected.shape, 'i32')}")
    check(text, [x, w], expected, "linalg.conv_2d_nhwc_hwcf", tmp_path)


def test_depthwise_nchw(tmp_path):
    x = RNG.standard_normal((1, 4, 8, 8)).astype(np.float32)
    w = RNG.standard_normal((4, 3, 3)).astype(np.float32)   # CHW
    expected = F.conv2d(t(x), t(w)[:, None], groups=4, padding=1).numpy()
    text, padded = pad("%p", "%a0", x.shape, "f32", [0, 0, 1, 1],
                       [0, 0, 1, 1])
    text += zero_fill(expected.shape, "f32")
    text += ("  %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> "
             ": tensor<2xi64>, strides = dense<1> : tensor<2xi64>} "
             f"ins(%p, %a1 : {ttype(padded, 'f32')}, {ttype(w.shape, 'f32')})"
             f" outs(%f : {ttype(expected.shape, 'f32')}) -> "
             f"{ttype(expected.shape, 'f32')}")
    check(text, [x, w], expected, "linalg.depthwise_conv_2d_nchw_chw",
          tmp_path)


def test_matmul_int8(tmp_path):
    a = RNG.integers(-128, 128, (5, 33)).astype(np.int8)
    b = RNG.integers(-128, 128, (33, 7)).astype(np.int8)
    expected = (a.astype(np.int32) @ b.astype(np.int32)).astype(np.int32)
    text = zero_fill(expected.shape, "i32")
    text += (f"  %r = linalg.matmul ins(%a0, %a1 : {ttype(a.shape, 'i8')}, "
             f"{ttype(b.shape, 'i8')}) outs(%f : {ttype(expected.shape, 'i32')})"
             f" -> {ttype(expected.shape, 'i32')}")
    check(text, [a, b], expected, "linalg.matmul", tmp_path)


def test_batch_matmul_accumulates(tmp_path):
    """The output operand is not zero: the result is c + a @ b."""
    a = RNG.standard_normal((3, 4, 6)).astype(np.float32)
    b = RNG.standard_normal((3, 6, 5)).astype(np.float32)
    c = RNG.standard_normal((3, 4, 5)).astype(np.float32)
    expected = (t(c) + torch.bmm(t(a), t(b))).numpy()
    text = (f"  %r = linalg.batch_matmul ins(%a0, %a1 : "
            f"{ttype(a.shape, 'f32')}, {ttype(b.shape, 'f32')}) outs(%a2 : "
            f"{ttype(c.shape, 'f32')}) -> {ttype(c.shape, 'f32')}")
    check(text, [a, b, c], expected, "linalg.batch_matmul", tmp_path)


def test_generic_transposed_output(tmp_path):
    """out[n, m] = sum_k a[m, k] * b[k, n], the body's operands swapped."""
    a = RNG.standard_normal((4, 8)).astype(np.float32)
    b = RNG.standard_normal((8, 6)).astype(np.float32)
    expected = (t(a) @ t(b)).T.contiguous().numpy()
    text = zero_fill(expected.shape, "f32")
    text += (
        "  %r = linalg.generic {indexing_maps = ["
        "affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, "
        "affine_map<(m, n, k) -> (n, m)>], iterator_types = "
        "[\"parallel\", \"parallel\", \"reduction\"]} "
        f"ins(%a0, %a1 : {ttype(a.shape, 'f32')}, {ttype(b.shape, 'f32')}) "
        f"outs(%f : {ttype(expected.shape, 'f32')}) {{\n"
        "  ^bb0(%x: f32, %y: f32, %acc: f32):\n"
        "    %0 = arith.mulf %y, %x : f32\n"
        "    %1 = arith.addf %0, %acc : f32\n"
        "    linalg.yield %1 : f32\n"
        f"  }} -> {ttype(expected.shape, 'f32')}")
    check(text, [a, b], expected, "linalg.generic", tmp_path)
