"""Numerical check of --tcg-apply-strategy.

For convolution variants (strided, dilated, one and three input channels,
depthwise, grouped, NHWC) and dense layers, a relay function is converted
to tcg, embedded with --tcg-dataflow-embed (VTA GEMM 1x16x16 and 8x8x8, and
dot.16 for the depthwise convolution, which no GEMM embeds) in strict and
relaxed mode, and EVERY candidate's strategy is applied. Each rewritten
function (relay layout rewrites around a packed tcg.kernel) runs on raf-run
(CPU) with int8 inputs accumulated in int32; its result must equal the
original function's and PyTorch's exactly.

The rules each candidate exercises are read from --tcg-print-embeddings;
test_rules_covered checks that together the cases cover every rule of
Tab. 4.1, the view and the fallback gather. test_constant_weight checks
that constant weights are packed at compile time, test_dilated_view a
dilated and padded view and a flipped weight with hand-written candidates
(conv_transpose covers the same with the solver's).

Run with:  /usr/bin/python3 -m pytest python/tests/test_tcg_strategies.py
"""

import re
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from raf_tools import RAF_OPT, RAF_RUN, require_tools  # noqa: E402
from int8_relay import (i64_array, relay_function, run_tool,  # noqa: E402
                        tensor_type)

torch = pytest.importorskip("torch")
F = torch.nn.functional

require_tools(RAF_OPT, RAF_RUN)

RNG = np.random.default_rng(4010)






def raf_run(path, inputs, directory, tag):
    command = [RAF_RUN, path, "--entry=main", "--target=cpu"]
    for index, array in enumerate(inputs):
        file = directory / f"arg{index}.npy"
        np.save(file, array)
        command.append(f"--input={file}")
    output = directory / f"{tag}.npy"
    command.append(f"--output={output}")
    run_tool(command)
    return np.load(output)


def t(array):
    return torch.from_numpy(np.ascontiguousarray(array)).double()


# ---------------------------------------------------------------------------
# Cases: (id, relay op, attributes, input shapes, PyTorch reference,
#         intrinsic, modes)
# ---------------------------------------------------------------------------

def conv_case(name, xs, ws, intrinsic, modes, strides=(1, 1), padding=(0,),
              dilation=(1, 1), groups=1, layout="NCHW"):
    attrs = []
    if strides != (1, 1):
        attrs.append(f"strides = {i64_array(strides)}")
    if padding != (0,):
        attrs.append(f"padding = {i64_array(padding)}")
    if dilation != (1, 1):
        attrs.append(f"dilation = {i64_array(dilation)}")
    if groups != 1:
        attrs.append(f"groups = {groups} : i64")
    if layout == "NHWC":
        attrs += ['data_layout = #relay.layout<NHWC>', 'kernel_layout = #relay.layout<HWIO>']

    def reference(x, w):
        xt, wt = t(x), t(w)
        if layout == "NHWC":
            xt, wt = xt.permute(0, 3, 1, 2), wt.permute(3, 2, 0, 1)
        pads = list(padding) * (4 // len(padding))
        xt = F.pad(xt, (pads[1], pads[3], pads[0], pads[2]))
        out = F.conv2d(xt, wt, stride=strides, dilation=dilation,
                       groups=groups)
        if layout == "NHWC":
            out = out.permute(0, 2, 3, 1)
        return out.numpy().astype(np.int32)

    return (name, "nn.conv2d", attrs, [xs, ws], reference, intrinsic, modes)


def conv_transpose_case(name, xs, ws, intrinsic, modes, strides=(1, 1)):
    """nn.conv2d_transpose (IOHW kernel): a dilated, padded view of the data
    and a flipped kernel."""
    attrs = [f"strides = {i64_array(strides)}"] if strides != (1, 1) else []

    def reference(x, w):
        return F.conv_transpose2d(t(x), t(w), stride=strides).numpy().astype(
            np.int32)

    return (name, "nn.conv2d_transpose", attrs, [xs, ws], reference,
            intrinsic, modes)


def dense_case(name, xs, ws, intrinsic, modes):
    def reference(x, w):
        return F.linear(t(x), t(w)).numpy().astype(np.int32)

    return (name, "nn.dense", [], [xs, ws], reference, intrinsic, modes)


GEMM = "vta.gemm.1x16x16"
GEMM8 = "vta.gemm.8x8x8"
BOTH = ("strict", "relaxed")

CASES = [
    # TVM's NCHW16c packing (strict); relaxed adds strided output channels
    # and kernel columns fused with input channels (a stencil unroll).
    conv_case("conv_regular", (1, 32, 6, 6), (32, 32, 3, 3), GEMM, BOTH,
              padding=(1,)),
    conv_case("conv_strided", (1, 16, 9, 9), (16, 16, 3, 3), GEMM, BOTH,
              strides=(2, 2)),
    # Dilation: relaxed covers z with input channels and dilated kernel
    # rows or columns (dilate pack).
    conv_case("conv_dilated", (1, 3, 12, 12), (16, 3, 3, 3), GEMM, BOTH,
              dilation=(2, 2)),
    # One input channel: strict pads it to 16, relaxed unrolls the stencil.
    conv_case("conv_ic1", (1, 1, 20, 16), (16, 1, 5, 8), GEMM, BOTH,
              strides=(2, 2)),
    conv_case("conv_ic3", (1, 3, 10, 10), (16, 3, 3, 3), GEMM, BOTH,
              padding=(1,)),
    conv_case("conv_nhwc", (1, 7, 7, 16), (3, 3, 16, 16), GEMM, BOTH,
              padding=(1,), layout="NHWC"),
    # Depthwise: the GEMM's b cannot vary with y while a stays fixed, so a
    # dot product covers the kernel window.
    conv_case("conv_depthwise", (1, 4, 8, 8), (4, 1, 3, 3), "dot.16",
              ("relaxed",), padding=(1,), groups=4),
    # Grouped: the data's channel (oc floordiv 16) * 16 + ic is quasi-affine
    # in a mapped iterator, which the fallback gather handles.
    conv_case("conv_grouped", (1, 32, 6, 6), (32, 16, 3, 3), GEMM, BOTH,
              groups=2),
    # 8x8x8: strict pads the batch to x = 8; relaxed covers x with output
    # rows and columns at strides (image pack, dilate pack).
    conv_case("conv_gemm8", (1, 8, 10, 10), (8, 8, 3, 3), GEMM8, BOTH),
    conv_case("conv_gemm8_strided", (2, 4, 17, 17), (8, 4, 3, 3), GEMM8,
              BOTH, strides=(2, 2)),
    # Transposed: the kernel is read backwards (2 - kh); relaxed mode fuses
    # a flipped kernel dimension with input channels.
    conv_transpose_case("conv_transpose", (1, 16, 5, 5), (16, 16, 3, 3),
                        GEMM, BOTH, strides=(2, 2)),
    dense_case("dense", (3, 20), (24, 20), GEMM, BOTH),
    dense_case("dense_gemm8", (12, 20), (10, 20), GEMM8, BOTH),
]

MAX_CANDIDATES = 4

# Rules seen per (case, mode), filled by test_strategies.
RULES_SEEN = {}

RULE_NAMES = ("stencil unroll", "dilate pack", "image pack", "pad", "split",
              "reorder", "fuse", "gather", "view")


def rules_of(report):
    """The Tab. 4.1 rules named on the strategy lines of a report."""
    rules = set()
    for line in report.splitlines():
        line = line.strip()
        if not line.startswith("strategy:"):
            continue
        for rule in RULE_NAMES:
            if re.search(r"(: |, )" + rule + r"\b", line):
                rules.add(rule)
    return rules


# Every case in each mode its intrinsic embeds in.
CASE_MODES = [(case, mode) for case in CASES for mode in case[6]]


@pytest.mark.parametrize("case,mode", CASE_MODES,
                         ids=[f"{case[0]}-{mode}" for case, mode in CASE_MODES])
def test_strategies(case, mode, tmp_path):
    name, op, attrs, shapes, reference, intrinsic, _ = case
    inputs = [RNG.integers(-60, 60, s).astype(np.int8) for s in shapes]
    expected = reference(*inputs)
    source = tmp_path / "relay.mlir"
    source.write_text(relay_function(op, attrs, shapes, expected.shape))
    original = raf_run(source, inputs, tmp_path, "original")
    np.testing.assert_array_equal(original, expected)

    embedded = tmp_path / "embedded.mlir"
    run_tool([RAF_OPT, source, "--convert-relay-to-tcg",
              f"--tcg-dataflow-embed=intrinsic={intrinsic} mode={mode} "
              f"max-candidates={MAX_CANDIDATES}", "-o", embedded])
    report = run_tool([RAF_OPT, embedded, "--tcg-print-embeddings", "-o",
                       "/dev/null"])
    assert "strategy: none" not in report, report
    count = int(re.search(r"(\d+) candidate\(s\)", report).group(1))
    assert 1 <= count <= MAX_CANDIDATES
    RULES_SEEN[(name, mode)] = rules_of(report)

    for k in range(count):
        applied = tmp_path / f"applied{k}.mlir"
        run_tool([RAF_OPT, embedded, f"--tcg-apply-strategy=candidate={k}",
                  "-o", applied])
        text = applied.read_text()
        assert f'tcg.tensorize = #tcg.tensorize<"{intrinsic}"' in text
        assert "tcg.embedding" not in text
        result = raf_run(applied, inputs, tmp_path, f"applied{k}")
        assert result.dtype == np.int32 and result.shape == expected.shape
        np.testing.assert_array_equal(
            result, original, err_msg=f"candidate {k} of {name} ({mode})")


def constant_weight_function(op, attrs, x, w, result_shape):
    """@main(%a0) applying `op` to its argument and the constant weight."""
    xt, wt = tensor_type(x.shape, "i8"), tensor_type(w.shape, "i8")
    result = tensor_type(result_shape, "i32")
    attr_text = ", ".join(attrs + ["out_dtype = i32"])
    return (f"func.func @main(%a0: {xt}) -> {result} {{\n"
            f"  %w = relay.constant dense<{w.tolist()}> : {wt}\n"
            f"  %0 = relay.{op} %a0, %w {{{attr_text}}} : ({xt}, {wt}) -> "
            f"{result}\n"
            f"  return %0 : {result}\n}}\n")


CONSTANT_CASES = [(case, mode) for case, mode in CASE_MODES
                  if case[0] in ("conv_ic1", "conv_gemm8", "conv_dilated",
                                 "dense")]


@pytest.mark.parametrize(
    "case,mode", CONSTANT_CASES,
    ids=[f"{case[0]}-{mode}" for case, mode in CONSTANT_CASES])
def test_constant_weight(case, mode, tmp_path):
    """A constant weight is packed at compile time: the packed kernel reads
    a new constant, and the results still match."""
    name, op, attrs, shapes, reference, intrinsic, _ = case
    x = RNG.integers(-60, 60, shapes[0]).astype(np.int8)
    w = RNG.integers(-60, 60, shapes[1]).astype(np.int8)
    expected = reference(x, w)
    source = tmp_path / "relay.mlir"
    source.write_text(constant_weight_function(op, attrs, x, w,
                                               expected.shape))
    embedded = tmp_path / "embedded.mlir"
    run_tool([RAF_OPT, source, "--convert-relay-to-tcg",
              f"--tcg-dataflow-embed=intrinsic={intrinsic} mode={mode} "
              f"max-candidates={MAX_CANDIDATES}", "-o", embedded])
    report = run_tool([RAF_OPT, embedded, "--tcg-print-embeddings", "-o",
                       "/dev/null"])
    count = int(re.search(r"(\d+) candidate\(s\)", report).group(1))
    for k in range(count):
        applied = tmp_path / f"applied{k}.mlir"
        run_tool([RAF_OPT, embedded, f"--tcg-apply-strategy=candidate={k}",
                  "--canonicalize", "-o", applied])
        text = applied.read_text()
        # The kernel's weight operand is a constant of the packed shape.
        weight = re.search(r"%weight = (%\w+) :", text).group(1)
        assert re.search(re.escape(weight) + r" = relay.constant", text), text
        result = raf_run(applied, [x], tmp_path, f"applied{k}")
        np.testing.assert_array_equal(
            result, expected, err_msg=f"candidate {k} of {name} ({mode})")


# A transposed 1-D convolution (stride 2) as a hand-written kernel: its data
# is read through a dilated and padded view, and its weight is flipped
# (2 - kw). The attribute lists two hand-written candidates: y -> oc,
# z -> ic; and z -> (ic 8, kw 2), which unrolls the stencil and reverses the
# weight.
# Iterators: oc 0, ow 1, ic 2, kw 3; operands a (data), b (weight), c (out).
TRANSPOSED_OPERANDS = ('operands = [[[], [(0, 16, 1)]], [[(0, 16, 1)], [(1, 16, 1)]], '
                       '[[], [(0, 16, 1)]]]')
TRANSPOSED_EMBEDDING = (
    '#tcg.embedding<"vta.gemm.1x16x16", relaxed, optimal = false, candidates = ['
    '#tcg.candidate<iterators = [[], [(0, 16, 1)], [(2, 16, 1)]], ' + TRANSPOSED_OPERANDS +
    ', extents = [16, 13, 16, 3], executed = [16, 13, 16, 3], cost = 0, '
    'mac = [0, 0], data = [0, 0], memory_access = true>, '
    '#tcg.candidate<iterators = [[], [(0, 16, 1)], [(2, 8, 1), (3, 2, 1)]], '
    + TRANSPOSED_OPERANDS + ', extents = [16, 13, 16, 3], executed = [16, 13, 16, 4], '
    'cost = 0, mac = [0, 0], data = [0, 0], memory_access = true>], '
    'search = {nodes = 0, fails = 0, solutions = 0, assets = 0}>')
TRANSPOSED_KERNEL = """
func.func @main(%x: tensor<16x6xi8>, %w: tensor<16x16x3xi8>) -> tensor<16x13xi32> {
  %r = tcg.kernel "conv1d_transpose" (%data = %x : tensor<16x6xi8>, %weight = %w : tensor<16x16x3xi8>) -> tensor<16x13xi32>
      attributes {arg_names = ["data", "weight"], result_name = "out",
                  tcg.embedding = EMBEDDING} {
    %0 = tcg.tensor %oc in [0, 16) name "oc" -> tensor<16x13xi32> {
      %1 = tcg.tensor %ow in [0, 13) name "ow" -> tensor<13xi32> {
        %2 = tcg.reduce add %ic in [0, 16) name "ic" -> i32 {
          %3 = tcg.reduce add %kw in [0, 3) name "kw" -> i32 {
            %4 = tcg.input %data[%ic, %ow + %kw] pad_low [0, 2] pad_high [0, 2] dilation [1, 2] : tensor<16x6xi8>
            %5 = tcg.input %weight[%oc, %ic, 2 - %kw] : tensor<16x16x3xi8>
            %6 = tcg.compute mul %4, %5 : (i8, i8) -> i32
            tcg.yield %6 : i32
          }
          tcg.yield %3 : i32
        }
        tcg.yield %2 : i32
      }
      tcg.yield %1 : tensor<13xi32>
    }
    tcg.yield %0 : tensor<16x13xi32>
  }
  return %r : tensor<16x13xi32>
}
"""


@pytest.mark.parametrize("candidate", [0, 1])
def test_dilated_view(candidate, tmp_path):
    x = RNG.integers(-60, 60, (16, 6)).astype(np.int8)
    w = RNG.integers(-60, 60, (16, 16, 3)).astype(np.int8)
    expected = F.conv_transpose1d(t(x)[None], t(w).permute(1, 0, 2),
                                  stride=2)[0].numpy().astype(np.int32)
    source = tmp_path / "kernel.mlir"
    source.write_text(TRANSPOSED_KERNEL.replace("EMBEDDING",
                                                TRANSPOSED_EMBEDDING))
    original = raf_run(source, [x, w], tmp_path, "original")
    np.testing.assert_array_equal(original, expected)
    applied = tmp_path / "applied.mlir"
    run_tool([RAF_OPT, source, f"--tcg-apply-strategy=candidate={candidate}",
              "-o", applied])
    text = applied.read_text()
    # The view becomes a pad and a gather; candidate 1 also reverses the
    # weight's kernel axis with a gather.
    assert "relay.nn.pad" in text and "relay.take" in text
    assert ("dense<[2, 1, 0]>" in text) == (candidate == 1)
    result = raf_run(applied, [x, w], tmp_path, "applied")
    np.testing.assert_array_equal(result, expected)


def test_rules_covered():
    """Together the cases exercise every rule (when they all ran)."""
    if len(RULES_SEEN) < len(CASE_MODES):
        pytest.skip("not every strategy case ran")
    seen = set().union(*RULES_SEEN.values())
    assert seen == set(RULE_NAMES), f"missing: {set(RULE_NAMES) - seen}"
