"""Bit-exact check of packed kernels lowered to VTA (--target=vta-sim).

A relay convolution or dense layer with int8 operands and int32
accumulation is embedded (--tcg-dataflow-embed, VTA GEMM 1x16x16 or 8x8x8,
strict or relaxed mode) and rewritten around a packed tcg.kernel
(--tcg-apply-strategy). raf-run --target=vta-sim compiles the packed kernel
to a VTA program and the layout rewrites around its launch for the host CPU
(--raf-cpu-pipeline), and runs them, the launch calling the VTA runtime and
so the simulator; its result must equal a plain numpy reference exactly:
the exact int32 result by default, and clip(acc >> shift, -128, 127) with
--vta-requant-shift. Operands span the whole int8 range, so accumulators
are negative as well as positive and use all four bytes.

test_vta_pipeline compiles every case from relay with --raf-vta-pipeline
instead and compares with numpy and with --target=cpu on the relay
function.

The last cases do not fit the buffers and run in chunks of one parallel
tile iterator. The simulated cycles of every layer are printed (pytest -s).

Run with:  /usr/bin/python3 -m pytest python/tests/test_vta_lowering.py
"""

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from raf_tools import RAF_OPT, RAF_RUN, require_tools  # noqa: E402
from int8_relay import i64_array, relay_function, run_tool  # noqa: E402

require_tools(RAF_OPT, RAF_RUN)

RNG = np.random.default_rng(2026)
GEMM = "vta.gemm.1x16x16"
GEMM8 = "vta.gemm.8x8x8"




def conv_reference(x, w, strides, padding, dilation=1, groups=1):
    """NCHW x OIHW (grouped, dilated) convolution in int64."""
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    sh, sw = strides
    x = np.pad(x.astype(np.int64),
               ((0, 0), (0, 0), (padding, padding), (padding, padding)))
    oh = (h + 2 * padding - dilation * (kh - 1) - 1) // sh + 1
    ow = (wd + 2 * padding - dilation * (kw - 1) - 1) // sw + 1
    out = np.zeros((n, o, oh, ow), dtype=np.int64)
    og = o // groups
    for g in range(groups):
        xs = x[:, g * cg:(g + 1) * cg]
        for i in range(kh):
            for j in range(kw):
                window = xs[:, :, i * dilation:i * dilation + sh * (oh - 1) + 1:sh,
                            j * dilation:j * dilation + sw * (ow - 1) + 1:sw]
                out[:, g * og:(g + 1) * og] += np.einsum(
                    "nchw,oc->nohw", window,
                    w[g * og:(g + 1) * og, :, i, j].astype(np.int64))
    return out


def conv_case(xs, ws, strides=(1, 1), padding=0, dilation=1, groups=1):
    def reference(x, w):
        return conv_reference(x, w, strides, padding, dilation, groups)
    out = reference(np.zeros(xs, np.int8), np.zeros(ws, np.int8)).shape
    attrs = [f"strides = {i64_array(strides)}",
             f"padding = {i64_array([padding] * 4)}",
             f"dilation = {i64_array((dilation, dilation))}",
             f"groups = {groups}"]
    return ("nn.conv2d", attrs, [xs, ws], out, reference)


def conv_transpose_reference(x, w, stride):
    """NCHW x IOHW transposed convolution in int64, no padding."""
    n, c, h, wd = x.shape
    _, o, kh, kw = w.shape
    out = np.zeros((n, o, (h - 1) * stride + kh, (wd - 1) * stride + kw),
                   dtype=np.int64)
    for i in range(kh):
        for j in range(kw):
            out[:, :, i:i + stride * (h - 1) + 1:stride,
                j:j + stride * (wd - 1) + 1:stride] += np.einsum(
                    "nchw,co->nohw", x.astype(np.int64),
                    w[:, :, i, j].astype(np.int64))
    return out


def conv_transpose_case(xs, ws, stride):
    out = conv_transpose_reference(np.zeros(xs, np.int8),
                                   np.zeros(ws, np.int8), stride).shape
    attrs = [f"strides = {i64_array((stride, stride))}"]
    return ("nn.conv2d_transpose", attrs, [xs, ws], out,
            lambda x, w: conv_transpose_reference(x, w, stride))


def dense_case(xs, ws):
    return ("nn.dense", [], [xs, ws], (xs[0], ws[0]),
            lambda x, w: x.astype(np.int64) @ w.astype(np.int64).T)




CASES = {
    "conv_regular": (conv_case((1, 32, 8, 8), (48, 32, 3, 3), padding=1),
                     GEMM, "strict"),
    "conv_strided": (conv_case((1, 16, 9, 9), (32, 16, 3, 3), (2, 2), 1),
                     GEMM, "strict"),
    "conv_strided_relaxed": (conv_case((1, 16, 9, 9), (16, 16, 3, 3),
                                       (2, 2)), GEMM, "relaxed"),
    "conv_ic1_relaxed": (conv_case((1, 1, 20, 16), (16, 1, 5, 8), (2, 2)),
                         GEMM, "relaxed"),
    "conv_ic3_relaxed": (conv_case((1, 3, 10, 10), (16, 3, 3, 3),
                                   padding=1), GEMM, "relaxed"),
    "conv_dilated_relaxed": (conv_case((1, 3, 12, 12), (16, 3, 3, 3),
                                       dilation=2), GEMM, "relaxed"),
    "conv_grouped": (conv_case((1, 32, 6, 6), (32, 16, 3, 3), groups=2),
                     GEMM, "strict"),
    "dense": (dense_case((3, 20), (24, 20)), GEMM, "strict"),
    # The packed kernel reads the weight backwards (2 - kh): those iterators
    # stay in the micro-ops, whose indices may decrease.
    "conv_transpose": (conv_transpose_case((1, 16, 5, 5), (16, 16, 3, 3), 2),
                       GEMM, "strict"),
    "conv_transpose_relaxed": (conv_transpose_case((1, 16, 5, 5),
                                                   (16, 16, 3, 3), 2),
                               GEMM, "relaxed"),
    "conv_gemm8": (conv_case((1, 8, 10, 10), (8, 8, 3, 3)), GEMM8, "strict"),
    "conv_gemm8_relaxed": (conv_case((2, 4, 17, 17), (8, 4, 3, 3), (2, 2)),
                           GEMM8, "relaxed"),
    "dense_gemm8": (dense_case((8, 24), (16, 24)), GEMM8, "strict"),
    # Too large to stay resident, so split into chunks: 1152 weight rows
    # (oc.o 16 x ic.o 8 x 3 x 3) along oc.o; 3136 result and 3364 input
    # rows along the output rows (with halos).
    "conv_tiled_weight": (conv_case((1, 128, 8, 8), (256, 128, 3, 3),
                                    padding=1), GEMM, "strict"),
    "conv_tiled_rows": (conv_case((1, 16, 56, 56), (16, 16, 3, 3),
                                  padding=1), GEMM, "strict"),
    "conv_tiled_gemm8": (conv_case((8, 8, 20, 20), (16, 8, 3, 3)), GEMM8,
                         "strict"),
}


# Padded convolutions whose padding the loads write (--tcg-apply-strategy
# pads on the fly): no relay.nn.pad runs on the host.
PADDED_ON_THE_FLY = {"conv_regular", "conv_strided", "conv_tiled_weight",
                     "conv_tiled_rows"}


def packed(name, tmp_path):
    (op, attrs, shapes, result_shape, reference), intrinsic, mode = \
        CASES[name]
    source = tmp_path / f"{name}.mlir"
    source.write_text(relay_function(op, attrs, shapes, result_shape))
    rewritten = tmp_path / f"{name}.packed.mlir"
    run_tool([RAF_OPT, source, "--convert-relay-to-tcg",
              f"--tcg-dataflow-embed=intrinsic={intrinsic} mode={mode}",
              "--tcg-apply-strategy", "-o", rewritten])
    text = rewritten.read_text()
    assert f'tcg.tensorize = #tcg.tensorize<"{intrinsic}"' in text, text
    inputs = [RNG.integers(-128, 128, size=s, dtype=np.int8) for s in shapes]
    return rewritten, inputs, reference(*inputs)


def run_vta(path, inputs, directory, extra=()):
    command = [RAF_RUN, path, "--entry=main", "--target=vta-sim", *extra]
    for index, array in enumerate(inputs):
        file = directory / f"arg{index}.npy"
        np.save(file, array)
        command.append(f"--input={file}")
    output = directory / "out.npy"
    command.append(f"--output={output}")
    stdout = run_tool(command)
    match = re.search(r"vta-sim: kernels=(\d+) cycles=(\d+)", stdout)
    assert match, stdout
    return np.load(output), int(match.group(1)), int(match.group(2))


@pytest.mark.parametrize("name", list(CASES))
def test_exact_int32(name, tmp_path):
    path, inputs, expected = packed(name, tmp_path)
    result, kernels, cycles = run_vta(path, inputs, tmp_path)
    print(f"{name}: {kernels} kernel(s), {cycles} cycles")
    assert kernels == 1
    assert result.dtype == np.int32
    assert result.shape == expected.shape
    # Accumulators reach past one byte of either sign, so every byte plane
    # matters.
    assert expected.min() < -256 and expected.max() > 256
    np.testing.assert_array_equal(result, expected.astype(np.int32))


@pytest.mark.parametrize("name,shift", [("conv_regular", 8),
                                        ("conv_ic3_relaxed", 6),
                                        ("dense", 4),
                                        ("conv_gemm8", 7),
                                        ("conv_tiled_rows", 9)])
def test_requantised(name, shift, tmp_path):
    path, inputs, expected = packed(name, tmp_path)
    result, _, cycles = run_vta(path, inputs, tmp_path,
                                [f"--vta-requant-shift={shift}"])
    print(f"{name} requantised >> {shift}: {cycles} cycles")
    requantised = np.clip(expected >> shift, -128, 127)
    # Both clip bounds and values in between occur.
    assert (requantised == 127).any() or (requantised == -128).any()
    np.testing.assert_array_equal(result, requantised.astype(np.int32))


# With ACC_DEP_DISTANCE = 3, every layer still has a schedule: when a tile
# has too few output rows, the search splits the reduction over more GEMM
# instructions (the pipeline drains between instructions).
@pytest.mark.parametrize("name", list(CASES))
def test_acc_dependence_distance(name, tmp_path):
    path, _, _ = packed(name, tmp_path)
    result = subprocess.run(
        [str(RAF_OPT), str(path), "--convert-tcg-to-vta=keep-kernels=true acc-dep-distance=3",
         "-o", "/dev/null"], capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stderr


def relay_source(name, tmp_path):
    (op, attrs, shapes, result_shape, reference), intrinsic, mode = \
        CASES[name]
    source = tmp_path / f"{name}.mlir"
    source.write_text(relay_function(op, attrs, shapes, result_shape))
    inputs = [RNG.integers(-128, 128, size=s, dtype=np.int8) for s in shapes]
    return source, intrinsic, mode, inputs, reference(*inputs)


# The whole flow from relay: --raf-vta-pipeline, then raf-run runs the
# compiled module (host code on the CPU, the launch on the simulator).
@pytest.mark.parametrize("name", list(CASES))
def test_vta_pipeline(name, tmp_path):
    source, intrinsic, mode, inputs, expected = relay_source(name, tmp_path)
    compiled = tmp_path / f"{name}.vta.mlir"
    run_tool([RAF_OPT, source,
              f"--raf-vta-pipeline=intrinsic={intrinsic} mode={mode}",
              "-o", compiled])
    text = compiled.read_text()
    assert "vta.launch @main_kernel0" in text, text
    assert "vta_isa.program @main_kernel0" in text, text
    if name in PADDED_ON_THE_FLY:
        assert "relay.nn.pad" not in text, text
    result, kernels, cycles = run_vta(compiled, inputs, tmp_path)
    print(f"{name} (--raf-vta-pipeline): {kernels} kernel(s), {cycles} "
          "cycles")
    assert kernels == 1
    np.testing.assert_array_equal(result, expected.astype(np.int32))
    # The CPU path on the relay function computes the same.
    command = [RAF_RUN, source, "--entry=main", "--target=cpu",
               "--no-compile-cache"]
    for index in range(len(inputs)):
        command.append(f"--input={tmp_path / f'arg{index}.npy'}")
    cpu = tmp_path / "cpu.npy"
    command.append(f"--output={cpu}")
    run_tool(command)
    np.testing.assert_array_equal(result, np.load(cpu))


def with_epilogue(text, result_shape, clamp):
    """`text` (relay_function's @main) with the operator's result clamped:
    relu (clamp None) or maximum / minimum with splat constants."""
    result = "tensor<" + "".join(f"{d}x" for d in result_shape) + "i32>"
    if clamp is None:
        tail = (f"  %1 = relay.nn.relu %0 : ({result}) -> {result}\n"
                f"  return %1 : {result}\n")
    else:
        low, high = clamp
        tail = (f"  %lo = relay.constant dense<{low}> : tensor<i32>\n"
                f"  %hi = relay.constant dense<{high}> : tensor<i32>\n"
                f"  %1 = relay.maximum %0, %lo : ({result}, tensor<i32>) -> "
                f"{result}\n"
                f"  %2 = relay.minimum %1, %hi : ({result}, tensor<i32>) -> "
                f"{result}\n"
                f"  return %2 : {result}\n")
    return text.replace(f"  return %0 : {result}\n", tail)


# Fused ALU epilogue: a ReLU or clip after the operator runs on VTA's ALU
# (MAX / MIN by an immediate before the store); the compiled function has
# no host relu / maximum / minimum and its result equals numpy's.
@pytest.mark.parametrize("name,clamp", [("conv_regular", None),
                                        ("conv_strided", (-2000, 5000)),
                                        ("dense", (-300, 300)),
                                        ("conv_gemm8", None),
                                        ("conv_tiled_rows", (0, 20000))])
def test_fused_epilogue(name, clamp, tmp_path):
    (op, attrs, shapes, result_shape, reference), intrinsic, mode = \
        CASES[name]
    source = tmp_path / f"{name}.mlir"
    source.write_text(with_epilogue(
        relay_function(op, attrs, shapes, result_shape), result_shape,
        clamp))
    compiled = tmp_path / f"{name}.vta.mlir"
    run_tool([RAF_OPT, source,
              f"--raf-vta-pipeline=intrinsic={intrinsic} mode={mode}",
              "-o", compiled])
    text = compiled.read_text()
    for host_op in ("relay.nn.relu", "relay.maximum", "relay.minimum"):
        assert host_op not in text, text
    assert "vta_isa.alu max" in text, text
    inputs = [RNG.integers(-128, 128, size=s, dtype=np.int8) for s in shapes]
    low, high = (0, None) if clamp is None else clamp
    expected = np.clip(reference(*inputs), low, high)
    result, kernels, cycles = run_vta(compiled, inputs, tmp_path)
    print(f"{name} fused {clamp or 'relu'}: {cycles} cycles")
    assert kernels == 1
    # The clamp bites on both sides where there are two bounds.
    assert (expected == low).any()
    assert high is None or (expected == high).any()
    np.testing.assert_array_equal(result, expected.astype(np.int32))
