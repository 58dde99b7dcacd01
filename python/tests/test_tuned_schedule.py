"""A schedule tuned by raf-tune is directly applicable: raf-tune's kernel model
of a convolution is the kernel --raf-vta-pipeline compiles (the loads pad on
the fly, a ReLU or clip is fused into the ALU epilogue, the requantising
shift), so the schedule it reports (`optimum_schedule` of `raf-tune truth`,
`best_schedule` of `raf-tune tune`), put on the packed kernel as its
#vta.schedule, is the one `raf-run --target=vta-sim` compiles and runs: the
result equals PyTorch's convolution bit for bit, and the simulated cycles
equal the tuner's ground truth for that configuration.

Run with:  RAF_BUILD_DIR=build /usr/bin/python3 -m pytest python/tests/test_tuned_schedule.py
"""

import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from raf_tools import BUILD, RAF_OPT, RAF_RUN, require_tools  # noqa: E402
from test_vta_lowering import run_vta  # noqa: E402

RAF_TUNE = BUILD / "bin" / "raf-tune"
require_tools(RAF_OPT, RAF_RUN, RAF_TUNE)

torch = pytest.importorskip("torch")

RNG = np.random.default_rng(20)

# (name, (N, C, H, W, OC, KH, KW, pad, stride), epilogue, requant shift):
# epilogue None = ReLU, else (low, high) of a clip; shift -1 = exact int32.
CASES = [
    ("padded_relu", (1, 16, 8, 8, 32, 3, 3, 1, 1), None, -1),
    ("strided_clip_requant", (1, 32, 14, 14, 32, 3, 3, 1, 2), (-3000, 9000), 8),
    ("unpadded_relu", (1, 16, 9, 9, 16, 3, 3, 0, 1), None, -1),
]


def run(command):
    proc = subprocess.run([str(c) for c in command], capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stderr[-4000:]
    return proc.stdout


def relay_source(layer, epilogue):
    n, c, h, w, oc, kh, kw, pad, stride = layer
    oh = (h + 2 * pad - kh) // stride + 1
    ow = (w + 2 * pad - kw) // stride + 1
    x, wt = f"tensor<{n}x{c}x{h}x{w}xi8>", f"tensor<{oc}x{c}x{kh}x{kw}xi8>"
    out = f"tensor<{n}x{oc}x{oh}x{ow}xi32>"
    text = (f"func.func @main(%x: {x}, %w: {wt}) -> {out} {{\n"
            f"  %0 = relay.nn.conv2d %x, %w {{strides = array<i64: {stride}, {stride}>, "
            f"padding = array<i64: {pad}, {pad}, {pad}, {pad}>, out_dtype = i32}} : "
            f"({x}, {wt}) -> {out}\n")
    if epilogue is None:
        text += f"  %1 = relay.nn.relu %0 : ({out}) -> {out}\n  return %1 : {out}\n}}\n"
    else:
        low, high = epilogue
        text += (f"  %lo = relay.constant dense<{low}> : tensor<i32>\n"
                 f"  %hi = relay.constant dense<{high}> : tensor<i32>\n"
                 f"  %1 = relay.maximum %0, %lo : ({out}, tensor<i32>) -> {out}\n"
                 f"  %2 = relay.minimum %1, %hi : ({out}, tensor<i32>) -> {out}\n"
                 f"  return %2 : {out}\n}}\n")
    return text


def expected(x, w, layer, epilogue, shift):
    """PyTorch's convolution (float64 holds the int8 products' sums exactly),
    the clamp, then VTA's requantisation clip(acc >> shift, -128, 127)."""
    pad, stride = layer[7], layer[8]
    acc = torch.nn.functional.conv2d(torch.from_numpy(x.astype(np.float64)),
                                     torch.from_numpy(w.astype(np.float64)),
                                     stride=stride, padding=pad).numpy().astype(np.int64)
    low, high = (0, None) if epilogue is None else epilogue
    acc = np.clip(acc, low, high)
    if shift >= 0:
        acc = np.clip(acc >> shift, -128, 127)
    return acc


def with_schedule(packed_text, schedule):
    """The packed module with `schedule` as its kernel's #vta.schedule."""
    text, count = re.subn(r'(tcg\.kernel "nn\.conv2d" .*? attributes \{)',
                          lambda m: m.group(1) + f"vta.schedule = {schedule}, ",
                          packed_text, count=1)
    assert count == 1, packed_text
    return text


def tune_args(layer, epilogue, shift, cache):
    n, c, h, w, oc, kh, kw, pad, stride = layer
    args = [f"--conv={n},{c},{h},{w},{oc},{kh},{kw},{pad},{pad},{stride},{stride}",
            f"--requant-shift={shift}", f"--cache={cache}"]
    args.append("--relu" if epilogue is None else f"--clip={epilogue[0]},{epilogue[1]}")
    return args


@pytest.mark.parametrize("name,layer,epilogue,shift", CASES, ids=[c[0] for c in CASES])
def test_tuned_schedule_runs(name, layer, epilogue, shift, tmp_path):
    source = tmp_path / f"{name}.mlir"
    source.write_text(relay_source(layer, epilogue))
    packed = tmp_path / f"{name}.packed.mlir"
    run([RAF_OPT, source, "--convert-relay-to-tcg",
         "--tcg-dataflow-embed=intrinsic=vta.gemm.1x16x16 mode=strict max-candidates=1",
         "--tcg-apply-strategy=candidate=0", "-o", packed])
    packed_text = packed.read_text()
    if layer[7] > 0:
        # The padding is the kernel's read (on the fly), not a host pad.
        assert "pad_low" in packed_text and "relay.nn.pad %arg0" not in packed_text.replace(
            "pad_width = array<i64: 0, 0, 0, 0, 0, 0, 0, 0>", "")

    cache = tmp_path / "cache"
    truth = json.loads(run([RAF_TUNE, "truth", *tune_args(layer, epilogue, shift, cache)]))
    tuned = [json.loads(line) for line in run(
        [RAF_TUNE, "tune", *tune_args(layer, epilogue, shift, cache), "--tuner=validity",
         "--runs=1", "--trials=60", "--seed=3"]).splitlines()]
    schedules = {"optimum": (truth["optimum_schedule"], truth["optimum_cycles"]),
                 "tuned": (tuned[0]["best_schedule"], tuned[0]["best_cycles"])}

    x = RNG.integers(-128, 128, size=layer[:4], dtype=np.int8)
    w = RNG.integers(-128, 128, size=(layer[4], layer[1], layer[5], layer[6]),
                     dtype=np.int8)
    reference = expected(x, w, layer, epilogue, shift)
    for which, (schedule, cycles) in schedules.items():
        module = tmp_path / f"{name}.{which}.mlir"
        module.write_text(with_schedule(packed_text, schedule))
        workdir = tmp_path / which
        workdir.mkdir()
        result, kernels, simulated = run_vta(
            module, [x, w], workdir,
            [f"--vta-requant-shift={shift}"] if shift >= 0 else [])
        print(f"{name} {which}: {schedule} {simulated} cycles (tuner {cycles:g}, "
              f"heuristic {truth.get('heuristic_cycles')})")
        assert kernels == 1
        np.testing.assert_array_equal(result, reference)
        assert simulated == cycles, (which, schedule)
        # The fused epilogue bites.
        low = 0 if epilogue is None else epilogue[0]
        assert (reference == (low if shift < 0 else low >> shift)).any()
