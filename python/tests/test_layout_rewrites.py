"""The layout rewrites around a VTA launch (pad, take, reshape, transpose),
compiled by raf-run --target=cpu (--raf-cpu-pipeline, with fusion), against
numpy, bit-exact on int8 and int32 data.

The shapes are those of bench/vta's packed functions: the blocked transpose
(the result's innermost axis split into cache-line blocks, Lam, Rothberg and
Wolf 1991), the transpose looping in the operand's order (no block divides
the extent), the constant pad written into the interior of a filled buffer,
and a take -> pad -> reshape -> transpose chain as a strategy's im2col-like
input rewrite emits it.
"""
import numpy as np
import pytest

from int8_relay import run_tool
from raf_tools import RAF_RUN, require_tools

require_tools(RAF_RUN)
RNG = np.random.default_rng(19)


def ty(shape, dtype):
    return "tensor<" + "x".join(map(str, shape)) + "x" + dtype + ">"


def arr(values):
    return "array<i64: " + ", ".join(map(str, values)) + ">"


def run(body, args, result, tmp_path):
    """Compiles and runs `func.func @main(args) -> result { body }` on the
    CPU with the numpy arrays `args`; returns the result."""
    params = ", ".join(f"%a{i}: {ty(a.shape, dtype)}"
                       for i, (a, dtype) in enumerate(args))
    source = tmp_path / "layout.mlir"
    source.write_text(f"func.func @main({params}) -> {result} {{\n{body}\n}}\n")
    command = [RAF_RUN, source, "--target=cpu", "--threads=1",
               "--no-compile-cache"]
    for i, (a, _) in enumerate(args):
        np.save(tmp_path / f"a{i}.npy", a)
        command.append(f"--input={tmp_path / f'a{i}.npy'}")
    command.append(f"--output={tmp_path / 'out.npy'}")
    run_tool(command)
    return np.load(tmp_path / "out.npy")


def transpose(shape, axes, dtype, np_dtype):
    x = RNG.integers(-128, 128, size=shape).astype(np_dtype)
    out = x.transpose(axes)
    body = (f"  %0 = relay.transpose %a0 {{axes = {arr(axes)}}} : "
            f"({ty(shape, dtype)}) -> {ty(out.shape, dtype)}\n"
            f"  return %0 : {ty(out.shape, dtype)}")
    return body, [(x, dtype)], ty(out.shape, dtype), out


TRANSPOSES = {
    # VTA result unpacking: 1x4x224x224x16 -> 1x4x16x224x224, blocks of 32.
    "unpack_blocked_i32": ((1, 4, 28, 224, 16), (0, 1, 4, 2, 3), "i32", np.int32),
    # 341 = 11 * 31: blocks of 31 (i32 line = 16, range [8, 32]).
    "unpack_block31_i32": ((1, 2, 5, 341, 16), (0, 1, 4, 2, 3), "i32", np.int32),
    # 79 is prime: the loops follow the operand.
    "unpack_operand_order_i32": ((1, 3, 79, 16), (0, 3, 1, 2), "i32", np.int32),
    # int8 blocks of 64..128 elements.
    "unpack_blocked_i8": ((2, 3, 256, 16), (0, 3, 1, 2), "i8", np.int8),
    # The operand's innermost axis is the longer one: linalg.transpose.
    "pack_i8": ((1, 1, 16, 26, 30), (0, 1, 3, 4, 2), "i8", np.int8),
    # A unit innermost axis.
    "unit_inner_i8": ((3, 40, 1), (2, 0, 1), "i8", np.int8),
    # A strategy's 8-axis rewrite.
    "strategy_8d_i8": ((1, 1, 7, 3, 2, 34, 3, 8), (0, 1, 2, 3, 5, 6, 7, 4), "i8", np.int8),
}


@pytest.mark.parametrize("name", list(TRANSPOSES))
def test_transpose(name, tmp_path):
    body, args, result, expected = transpose(*TRANSPOSES[name])
    np.testing.assert_array_equal(run(body, args, result, tmp_path), expected)


@pytest.mark.parametrize("dtype,np_dtype,value", [("i8", np.int8, 0),
                                                  ("i32", np.int32, -7)])
def test_constant_pad(dtype, np_dtype, value, tmp_path):
    shape, width = (1, 3, 20, 17), (0, 0, 0, 13, 1, 2, 3, 0)
    x = RNG.integers(-128, 128, size=shape).astype(np_dtype)
    out = np.pad(x, [(width[2 * d], width[2 * d + 1]) for d in range(4)],
                 constant_values=value)
    body = (f"  %0 = relay.nn.pad %a0 {{pad_width = {arr(width)}, "
            f"pad_value = {float(value)} : f64}} : ({ty(shape, dtype)}) -> "
            f"{ty(out.shape, dtype)}\n  return %0 : {ty(out.shape, dtype)}")
    np.testing.assert_array_equal(
        run(body, [(x, dtype)], ty(out.shape, dtype), tmp_path), out)


def test_take_pad_transpose_chain(tmp_path):
    """An im2col-like input rewrite (case-study layer 1's best strategy,
    smaller): rows gathered by a take, padded, split and transposed into
    16-lane groups."""
    x = RNG.integers(-128, 128, size=(1, 1, 21, 40)).astype(np.int8)
    rows = np.array([[2 * i + k for k in range(5)] for i in range(9)],
                    dtype=np.int32)
    taken = np.take(x, rows, axis=2)                          # 1x1x9x5x40
    padded = np.pad(taken, ((0, 0), (0, 0), (0, 0), (0, 1), (0, 0)))
    split = padded.reshape(1, 1, 9, 3, 2, 40)
    out = split.transpose(0, 1, 2, 3, 5, 4).reshape(1, 1, 9, 3, 40, 2)
    rows_text = ", ".join("[" + ", ".join(map(str, r)) + "]" for r in rows)
    body = f"""  %c = relay.constant dense<[{rows_text}]> : tensor<9x5xi32>
  %0 = relay.take %a0, %c {{axis = 2 : i64}} : (tensor<1x1x21x40xi8>, tensor<9x5xi32>) -> tensor<1x1x9x5x40xi8>
  %1 = relay.nn.pad %0 {{pad_width = {arr((0, 0, 0, 0, 0, 0, 0, 1, 0, 0))}}} : (tensor<1x1x9x5x40xi8>) -> tensor<1x1x9x6x40xi8>
  %2 = relay.reshape %1 {{newshape = {arr((1, 1, 9, 3, 2, 40))}}} : (tensor<1x1x9x6x40xi8>) -> tensor<1x1x9x3x2x40xi8>
  %3 = relay.transpose %2 {{axes = {arr((0, 1, 2, 3, 5, 4))}}} : (tensor<1x1x9x3x2x40xi8>) -> tensor<1x1x9x3x40x2xi8>
  return %3 : tensor<1x1x9x3x40x2xi8>"""
    np.testing.assert_array_equal(
        run(body, [(x, "i8")], "tensor<1x1x9x3x40x2xi8>", tmp_path), out)
