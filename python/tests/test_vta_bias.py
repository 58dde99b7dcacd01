"""Bit-exact check of the bias fused into VTA programs (--raf-vta-pipeline).

A relay convolution or dense layer (int8 x int8 -> int32) followed by a
per-channel relay.nn.bias_add (int32 bias, a function argument), with or
without a ReLU after it, is compiled with --raf-vta-pipeline: the program
loads the bias rows into the accumulator buffer and adds them with one ALU
ADD per output tile (TVM-VTA's fused conv2d + bias), the host only builds
the bias rows in the packed layout (relay.take). raf-run --target=vta-sim
must give numpy's result and --target=cpu's on the relay function, bit for
bit. Biases span +-2^20 and the operands the whole int8 range, so results
of both signs use every byte and the ReLU bites.

Run with:  /usr/bin/python3 -m pytest python/tests/test_vta_bias.py
"""

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from raf_tools import RAF_OPT, RAF_RUN, require_tools  # noqa: E402
from int8_relay import relay_function, run_tool  # noqa: E402
from test_vta_lowering import CASES, run_vta  # noqa: E402

require_tools(RAF_OPT, RAF_RUN)

RNG = np.random.default_rng(1919)

# Regular, strided (both modes), padded on the fly with several output
# tiles, grouped (fallback gather), transposed (kernel read backwards),
# dense (channels sliced back from 32 to 24), and both 8x8x8 layouts.
BIASED = ["conv_regular", "conv_strided", "conv_strided_relaxed",
          "conv_ic3_relaxed", "conv_tiled_rows", "conv_grouped",
          "conv_transpose", "dense", "conv_gemm8", "conv_gemm8_relaxed",
          "dense_gemm8"]


def tensor(shape, element):
    return "tensor<" + "".join(f"{d}x" for d in shape) + element + ">"


def with_bias(text, result_shape, relu):
    """`text` (relay_function's @main) with a bias argument added along the
    channel axis (1) of the result, and a ReLU after it."""
    result = tensor(result_shape, "i32")
    bias = tensor([result_shape[1]], "i32")
    text = text.replace(f") -> {result} {{\n", f", %bias: {bias}) -> {result} {{\n", 1)
    tail = (f"  %1 = relay.nn.bias_add %0, %bias {{axis = 1 : i64}} : "
            f"({result}, {bias}) -> {result}\n")
    if relu:
        tail += (f"  %2 = relay.nn.relu %1 : ({result}) -> {result}\n"
                 f"  return %2 : {result}\n")
    else:
        tail += f"  return %1 : {result}\n"
    return text.replace(f"  return %0 : {result}\n", tail)


@pytest.mark.parametrize("relu", [False, True], ids=["bias", "bias_relu"])
@pytest.mark.parametrize("name", BIASED)
def test_fused_bias(name, relu, tmp_path):
    (op, attrs, shapes, result_shape, reference), intrinsic, mode = \
        CASES[name]
    source = tmp_path / f"{name}.mlir"
    source.write_text(with_bias(relay_function(op, attrs, shapes,
                                               result_shape),
                                result_shape, relu))
    compiled = tmp_path / f"{name}.vta.mlir"
    run_tool([RAF_OPT, source,
              f"--raf-vta-pipeline=intrinsic={intrinsic} mode={mode}",
              "-o", compiled])
    text = compiled.read_text()
    # The program adds the bias (and clamps); the host neither.
    assert "relay.nn.bias_add" not in text, text
    assert "relay.nn.relu" not in text, text
    assert "bias_offset = " in text, text
    assert "vta_isa.load acc" in text, text
    inputs = [RNG.integers(-128, 128, size=s, dtype=np.int8) for s in shapes]
    bias = RNG.integers(-(1 << 20), 1 << 20, size=(result_shape[1],),
                        dtype=np.int32)
    channel = [1] * len(result_shape)
    channel[1] = -1
    expected = reference(*inputs) + bias.astype(np.int64).reshape(channel)
    if relu:
        expected = np.maximum(expected, 0)
        assert (expected == 0).any() and (expected > 256).any()
    else:
        assert expected.min() < -256 and expected.max() > 256
    result, kernels, cycles = run_vta(compiled, inputs + [bias], tmp_path)
    print(f"{name} fused bias{' + relu' if relu else ''}: {cycles} cycles")
    assert kernels == 1
    np.testing.assert_array_equal(result, expected.astype(np.int32))
    # The CPU path on the relay function computes the same.
    command = [RAF_RUN, source, "--entry=main", "--target=cpu",
               "--no-compile-cache"]
    for index in range(len(inputs) + 1):
        command.append(f"--input={tmp_path / f'arg{index}.npy'}")
    cpu = tmp_path / "cpu.npy"
    command.append(f"--output={cpu}")
    run_tool(command)
    np.testing.assert_array_equal(result, np.load(cpu))
