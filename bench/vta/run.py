#!/usr/bin/python3
"""Operator cycles on VTA and host layout-transform time of the dataflow
embedding strategies against TVM's static VTA strategy.

For every convolution (int8 NCHW data, OIHW weight, int32 accumulation) the
driver writes a relay function and runs

    raf-opt --convert-relay-to-tcg \
            --tcg-dataflow-embed="intrinsic=I mode=M max-candidates=K" \
            --tcg-print-embeddings                      # once per mode
    raf-opt --tcg-apply-strategy=candidate=k            # once per candidate
    raf-opt --tcg-lower-to-vta="requant-shift=8"        # once per candidate

with the baseline = ``mode=strict``, candidate 0 (TVM's n->x, oc->y, ic->z
packing; for a dilated layer on the kernel dilated with zeros, as TVM's
strategy has no dilation, with our native-dilation strict mapping measured
beside it) and the strategies = the top-K candidates of ``mode=relaxed``.
Per candidate it measures

* operator cycles of the lowered kernel: the pass's ``remark: vta:
  cycles=...`` when ``--tcg-lower-to-vta`` has the ``report`` option, else
  ``raf-translate --vta-isa-to-bin`` and ``raf-vta-sim`` on the binary;
* the host layout transforms around the packed kernel on the activations
  (``nn.pad``, ``take``, ``reshape``, ``transpose``, ``strided_slice`` on
  the input and the inverse rewrites on the output): new, the compiled host
  code's time as ``raf-run --target=vta-sim`` measures it (``host-cpu-ms``:
  the thread's CPU time outside the VTA runtime's launch, or with
  --host-clock wall ``host-ms``, the wall time; median of --host-repeat
  runs, weights pre-packed; with --schedule both timed once per candidate,
  see --checks); old, replayed with numpy on
  random int8 data (median of --repeat runs) and the bytes they move; the
  weight rewrites count as compile time in both;
* the packed data and weight bytes (the kernel's operand types);
* a roofline ratio: cycles / max(MACs / (BATCH*BLOCK_IN*BLOCK_OUT),
  (input + weight + output bytes) / 8).

Suites: the 14 case-study layers of Tab. 4.2 (1x16x16), all 108 DeepBench
layers (1x16x16), the 10 layers of Tab. 4.6 (8x8x8). Progress on stderr;
markdown with machine information to bench/results/vta.md and a per-layer
speed-up plot to bench/results/vta.png (when matplotlib is importable).
See bench/vta/README.md for the formulas and caveats.

Usage: bench/vta/run.py [--quick] [--suites case,deepbench,gemm8]
                        [--layers case:1,deepbench:3,gemm8:0] [--candidates 5]
                        [--vta-mhz 333] [--repeat 5] [--timeout 300]
                        [--jobs 1] [--out FILE.md] [--plot FILE.png]
                        [--keep DIR] [--build-dir DIR]
"""

import argparse
import concurrent.futures
import functools
import hashlib
import json
import math
import os
import pickle
import pathlib
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

from machine import machine_info  # noqa: E402
from layers import TAB_4_6  # noqa: E402

HERE = pathlib.Path(__file__).resolve().parent
DEEPBENCH = ROOT / "bench" / "embedding" / "deepbench_108.tsv"
GEMM = "vta.gemm.1x16x16"
GEMM8 = "vta.gemm.8x8x8"
GEMM_SHAPE = {GEMM: (1, 16, 16), GEMM8: (8, 8, 8)}  # BATCH, BLOCK_IN, BLOCK_OUT
REQUANT_SHIFT = 8
DMA_BYTES_PER_CYCLE = 8  # the cycle model's default (docs/vta.md)

# Tab. 4.2 (matched by shape): IDs 1-12 are DeepBench entries, 13-14 dilated.
CASE_DEEPBENCH = [0, 1, 2, 6, 10, 15, 21, 27, 34, 41, 60, 68]
CASE_DILATED = [  # (N, C, H, W), (OC, IC, KH, KW), pad, stride, dilation
    ((1, 304, 18, 18), (448, 304, 3, 3), 0, 1, 2),
    ((1, 208, 72, 72), (304, 208, 3, 3), 0, 1, 3),
]
# Dissertation geo-means (Tab. 4.4, whose Tot printed ×0.0882 is ×0.882; Tab. 4.6).
PAPER_CASE = {"op": 8.788, "transf": 0.069, "combined": 2.813, "data": 1.103,
              "weights": 0.188, "tot": 0.882}
PAPER_GEMM8 = {"op": 6.26, "transf": 4.21, "combined": 4.99, "data": 0.21,
               "weights": 1.00, "tot": 0.33}
# --quick: small layers that embed and lower in well under a second each.
QUICK = {"case": [4], "deepbench": [9, 13], "gemm8": [0]}


# ---------------------------------------------------------------------------
# Layers
# ---------------------------------------------------------------------------


class Conv:
    """A convolution in NCHW / OIHW with symmetric padding and dilation."""

    def __init__(self, name, n, c, h, w, oc, kh, kw, pad_h, pad_w, sh, sw, dil=1):
        self.name = name
        self.n, self.c, self.h, self.w = n, c, h, w
        self.oc, self.kh, self.kw = oc, kh, kw
        self.pad_h, self.pad_w, self.sh, self.sw, self.dil = pad_h, pad_w, sh, sw, dil
        self.oh = (h + 2 * pad_h - dil * (kh - 1) - 1) // sh + 1
        self.ow = (w + 2 * pad_w - dil * (kw - 1) - 1) // sw + 1

    def with_zero_dilated_kernel(self):
        """The same convolution with dilation 1 and a kernel of dil*(k-1)+1
        taps, zeros between the original ones (the same output shape and
        values). This is how a dilated convolution runs on TVM's VTA
        strategy, whose packed conv2d asserts dilation == (1, 1) (Rieber
        2022, §4.4.2); Tab. 4.4's weights ratio x0.360 = 9/25 for layer 13 is this
        kernel's size. The zeros are compile time (the weights are)."""
        if self.dil == 1:
            return self
        return Conv(self.name + "-zero-dilated", self.n, self.c, self.h, self.w, self.oc,
                    self.dil * (self.kh - 1) + 1, self.dil * (self.kw - 1) + 1,
                    self.pad_h, self.pad_w, self.sh, self.sw)

    def key(self):
        return (self.n, self.c, self.h, self.w, self.oc, self.kh, self.kw, self.pad_h,
                self.pad_w, self.sh, self.sw, self.dil)

    def shape_text(self):
        text = (f"{self.n}x{self.c}x{self.h}x{self.w} * {self.oc}x{self.c}x{self.kh}x{self.kw}"
                f" p{self.pad_h},{self.pad_w} s{self.sh},{self.sw}")
        return text + (f" d{self.dil}" if self.dil != 1 else "")

    def out_text(self):
        return f"{self.n}x{self.oc}x{self.oh}x{self.ow}"

    def macs(self):
        return self.n * self.oc * self.oh * self.ow * self.c * self.kh * self.kw

    def original_bytes(self):
        """int8 input + weight + output."""
        return (self.n * self.c * self.h * self.w + self.oc * self.c * self.kh * self.kw
                + self.n * self.oc * self.oh * self.ow)

    def mlir(self):
        data = f"tensor<{self.n}x{self.c}x{self.h}x{self.w}xi8>"
        weight = f"tensor<{self.oc}x{self.c}x{self.kh}x{self.kw}xi8>"
        out = f"tensor<{self.n}x{self.oc}x{self.oh}x{self.ow}xi32>"
        dilation = (f", dilation = array<i64: {self.dil}, {self.dil}>" if self.dil != 1
                    else "")
        return (
            f"func.func @main(%x: {data}, %w: {weight}) -> {out} {{\n"
            f"  %0 = relay.nn.conv2d %x, %w {{strides = array<i64: {self.sh}, {self.sw}>, "
            f"padding = array<i64: {self.pad_h}, {self.pad_w}, {self.pad_h}, {self.pad_w}>"
            f"{dilation}, out_dtype = i32}} : ({data}, {weight}) -> {out}\n"
            f"  return %0 : {out}\n}}\n")


def deepbench_layers():
    layers = {}
    for line in DEEPBENCH.read_text().splitlines()[1:]:
        (i, w, h, c, n, k, s, r, pad_w, pad_h, ws, hs) = map(int, line.split())
        layers[i] = Conv(f"deepbench{i}", n, c, h, w, k, r, s, pad_h, pad_w, hs, ws)
    return layers


def suites():
    """{suite: (title, intrinsic, [(ident, Conv)])}."""
    db = deepbench_layers()
    case = [(i + 1, db[d]) for i, d in enumerate(CASE_DEEPBENCH)]
    for j, ((n, c, h, w), (oc, ic, kh, kw), pad, stride, dil) in enumerate(CASE_DILATED):
        case.append((13 + j, Conv(f"case{13 + j}", n, c, h, w, oc, kh, kw, pad, pad, stride,
                                  stride, dil)))
    gemm8 = [(i, Conv(f"tab46_{i}", n, c, h, w, oc, kh, kw, pad, pad, stride, stride))
             for i, ((n, c, h, w), (oc, ic, kh, kw), pad, stride) in enumerate(TAB_4_6)]
    return {
        "case": ("Case study: the 14 layers of Tab. 4.2 on VTA 1x16x16", GEMM, case),
        "deepbench": ("All 108 DeepBench layers on VTA 1x16x16", GEMM, sorted(db.items())),
        "gemm8": ("The 10 layers of Tab. 4.6 on VTA 8x8x8", GEMM8, gemm8),
    }


# ---------------------------------------------------------------------------
# Tools
# ---------------------------------------------------------------------------


class Tools:
    def __init__(self, bindir: pathlib.Path, timeout: float):
        self.bindir = bindir
        self.timeout = timeout
        self.raf_opt = bindir / "raf-opt"
        self.raf_translate = bindir / "raf-translate"
        self.raf_vta_sim = bindir / "raf-vta-sim"
        self.raf_run = bindir / "raf-run"
        self.remark = self._lower_has_report()
        self.timing_only = self._sim_has_timing_only()

    def missing(self):
        return [t for t in (self.raf_opt, self.raf_translate, self.raf_vta_sim, self.raf_run)
                if not t.exists()]

    def _help(self, tool):
        if not tool.exists():
            return ""
        try:
            return subprocess.run([str(tool), "--help"], capture_output=True, text=True,
                                  timeout=60).stdout
        except (OSError, subprocess.TimeoutExpired):
            return ""

    def _lower_has_report(self):
        """Whether --tcg-lower-to-vta has the report (and schedule) options:
        the option lines indented under the pass in raf-opt --help."""
        lines = self._help(self.raf_opt).splitlines()
        for i, line in enumerate(lines):
            if re.match(r"^\s+--tcg-lower-to-vta\s", line):
                indent = len(line) - len(line.lstrip())
                options = []
                for follow in lines[i + 1:]:
                    if len(follow) - len(follow.lstrip()) <= indent:
                        break
                    options.append(follow.strip())
                return any(o.startswith("--report") for o in options)
        return False

    def _sim_has_timing_only(self):
        return "--timing-only" in self._help(self.raf_vta_sim)

    def lower_options(self):
        options = f"requant-shift={REQUANT_SHIFT}"
        if self.remark:
            options += " report=true"
        return options

    def run(self, command, **kwargs):
        """(returncode, stdout, stderr); a timeout is returncode None."""
        try:
            proc = subprocess.run([str(c) for c in command], capture_output=True, text=True,
                                  timeout=self.timeout, **kwargs)
            return proc.returncode, proc.stdout, proc.stderr
        except subprocess.TimeoutExpired:
            return None, "", f"timeout after {self.timeout:g} s"


def first_error(stderr):
    """The first line of the error a tool printed."""
    for line in stderr.splitlines():
        if "error:" in line:
            return line.split("error:", 1)[1].strip()
    lines = [line for line in stderr.splitlines() if line.strip()]
    return lines[0].strip() if lines else "failed without a message"


# ---------------------------------------------------------------------------
# Cycles
# ---------------------------------------------------------------------------

REMARK = re.compile(r"remark: vta: cycles=(\d+)(.*)$", re.M)
PROGRAM_START = re.compile(r"^(\s*)vta_isa\.program\b")
DRAM_SIZE = re.compile(r"(?:vta\.dram = \{[^}]*|dram #vta\.dram_layout<[^>]*)\bsize = (\d+)")


def extract_programs(lowered_text):
    """[(program text, DRAM size)] of every vta_isa.program of a module (the
    program is printed at the module's level, so it ends at the first line
    that is only its closing brace at its indentation)."""
    programs = []
    lines = lowered_text.splitlines()
    i = 0
    while i < len(lines):
        m = PROGRAM_START.match(lines[i])
        if not m:
            i += 1
            continue
        close = m.group(1) + "}"
        body = [lines[i]]
        i += 1
        while i < len(lines) and lines[i] != close:
            body.append(lines[i])
            i += 1
        body.append(close)
        size = DRAM_SIZE.search(body[0])
        programs.append(("\n".join(body) + "\n", int(size.group(1)) if size else None))
        i += 1
    return programs


def kernel_cycles(tools, packed, workdir, tag):
    """Lowers the packed function with --tcg-lower-to-vta and returns
    {"ok", "cycles", "info", "error", "source"}. Uses the pass's report remark
    when the tool has it, else the simulator on each program's binary."""
    lowered = workdir / f"{tag}.vta.mlir"
    rc, _, err = tools.run([tools.raf_opt, packed, "--mlir-print-op-on-diagnostic=false",
                            f"--tcg-lower-to-vta={tools.lower_options()}", "-o", lowered])
    if rc != 0:
        return {"ok": False, "error": "lowering: " + first_error(err)}
    if tools.remark:
        remarks = REMARK.findall(err)
        if remarks:
            return {"ok": True, "cycles": sum(int(c) for c, _ in remarks),
                    "info": "; ".join(rest.strip() for _, rest in remarks),
                    "source": "remark", "kernels": len(remarks)}
        # An old remark format or none: fall through to the simulator.
    programs = extract_programs(lowered.read_text())
    if not programs:
        return {"ok": False, "error": "lowering produced no vta_isa.program"}
    total, infos = 0, []
    for index, (text, size) in enumerate(programs):
        source = workdir / f"{tag}.prog{index}.mlir"
        binary = workdir / f"{tag}.prog{index}.bin"
        source.write_text(text)
        rc, _, err = tools.run([tools.raf_translate, "--vta-isa-to-bin", source, "-o", binary])
        if rc != 0:
            return {"ok": False, "error": "raf-translate: " + first_error(err)}
        command = [tools.raf_vta_sim, binary]
        if size:
            command.append(f"--dram-size={size}")
        if tools.timing_only:
            command.append("--timing-only")
        rc, out, err = tools.run(command)
        m = re.search(r"^cycles: (\d+)", out, re.M)
        if rc != 0 or not m:
            return {"ok": False, "error": "raf-vta-sim: " + first_error(err or out)}
        total += int(m.group(1))
        gemm = re.search(r"gemm micro-op steps: (\d+)", out)
        infos.append(f"gemm steps {gemm.group(1)}" if gemm else "")
    return {"ok": True, "cycles": total, "info": "; ".join(infos), "source": "raf-vta-sim",
            "kernels": len(programs)}


# ---------------------------------------------------------------------------
# The relay rewrites around the packed kernel
# ---------------------------------------------------------------------------

TENSOR = re.compile(r"tensor<([0-9x]*)([a-z]\w*)>")
TOP_OP = re.compile(r"^    (%[\w.#]+) = (\S+)(.*)$")
OPERANDS = re.compile(r"(%[\w.#]+)")
ARRAY = re.compile(r"(\w+) = array<i64(?::\s*([-0-9, ]*))?>")
INT_ATTR = re.compile(r"(\w+) = (-?\d+)(?: : i\d+)?\b")
FUNC = re.compile(r"^  func\.func @(\w+)\((.*)\) -> ")
DTYPES = {"i8": np.int8, "i32": np.int32, "i64": np.int64, "i16": np.int16, "f32": np.float32}


def parse_type(text):
    m = TENSOR.search(text)
    shape = tuple(int(d) for d in m.group(1).split("x") if d) if m.group(1) else ()
    return shape, m.group(2)


def result_type(rest):
    """The type after the last '->' (or after ':' for ops without operands)."""
    tail = rest.rsplit("->", 1)[1] if "->" in rest else rest.rsplit(":", 1)[1]
    return parse_type(tail)


def parse_dense(text, shape, dtype):
    """A relay.constant's dense<...> value (decimal lists, splats or hex)."""
    np_type = np.dtype(DTYPES[dtype])
    count = int(np.prod(shape)) if shape else 1
    m = re.search(r'dense<"0x([0-9A-Fa-f]*)">', text)
    if m:
        raw = np.frombuffer(bytes.fromhex(m.group(1)), dtype=np_type.newbyteorder("<"))
        if raw.size == 1:
            return np.full(shape, raw[0], dtype=np_type)
        if raw.size != count:
            raise ValueError(f"hex constant has {raw.size} elements, type has {count}")
        return raw.astype(np_type).reshape(shape)
    m = re.search(r"dense<(.*)>\s*:", text)
    values = np.array([int(v) for v in re.findall(r"-?\d+", m.group(1))], dtype=np_type)
    if values.size == 1:
        return np.full(shape, values[0], dtype=np_type)
    if values.size != count:
        raise ValueError(f"constant has {values.size} elements, type has {count}")
    return values.reshape(shape)


def parse_function(text):
    """The top-level ops of @main of a packed module: [{name, op, operands,
    attrs text, result shape/dtype}], the argument names and types, and the
    packed kernel op."""
    args, ops = [], []
    for line in text.splitlines():
        m = FUNC.match(line)
        if m:
            for arg in re.finditer(r"(%\w+): (tensor<[^>]*>)", m.group(2)):
                args.append((arg.group(1), *parse_type(arg.group(2))))
            continue
        m = TOP_OP.match(line)
        if not m:
            continue
        name, op, rest = m.groups()
        entry = {"name": name, "op": op, "line": line}
        if op == "tcg.kernel":
            header = rest.split(" attributes ", 1)[0]
            entry["operands"] = [(o.group(1), o.group(2), *parse_type(o.group(3))) for o in
                                 re.finditer(r"%(\w+) = (%[\w.#]+) : (tensor<[^>]*>)", header)]
            entry["shape"], entry["dtype"] = result_type(header)
        else:
            attrs_start = rest.find("{")
            operand_text = rest[:attrs_start] if attrs_start >= 0 else rest.split(":", 1)[0]
            entry["operands"] = OPERANDS.findall(operand_text)
            entry["attrs"] = rest[attrs_start:] if attrs_start >= 0 else ""
            entry["shape"], entry["dtype"] = result_type(rest)
        ops.append(entry)
    return args, ops


def classify(args, ops):
    """Labels every value by where it comes from: 'in' (the activation,
    argument 0), 'w' (the weight, argument 1), 'const', 'out' (the packed
    kernel's result and what follows it)."""
    label = {args[0][0]: "in"}
    for name, _, _ in args[1:]:
        label[name] = "w"
    for entry in ops:
        if entry["op"] == "tcg.kernel":
            label[entry["name"]] = "out"
        elif entry["op"] == "relay.constant":
            label[entry["name"]] = "const"
        else:
            sources = [label.get(o, "?") for o in entry["operands"]]
            real = [s for s in sources if s != "const"]
            label[entry["name"]] = real[0] if real else "const"
        entry["label"] = label[entry["name"]]
    return label


def arrays(attrs):
    return {k: [int(v) for v in vals.split(",")] if vals and vals.strip() else []
            for k, vals in ARRAY.findall(attrs)}


def replay(entry, inputs):
    """numpy for one relay rewrite op; the result is materialised
    (contiguous) as the rewrite would produce it, except that a reshape of a
    contiguous array stays a view (it moves no data)."""
    op, attrs = entry["op"], entry.get("attrs", "")
    a = arrays(attrs)
    ints = dict(INT_ATTR.findall(attrs))
    x = inputs[0]
    if op == "relay.nn.pad":
        width = a["pad_width"]
        if "pad_value" in attrs and not re.search(r"pad_value = 0(\.0*)?(e\+?0+)?\b", attrs):
            raise NotImplementedError("pad_value other than 0")
        # Zeros plus one copy: what a compiled pad does. np.pad costs some
        # 25 us of Python per call, more than the copy of a small tensor.
        out = np.zeros([s + width[2 * i] + width[2 * i + 1] for i, s in enumerate(x.shape)],
                       dtype=x.dtype)
        out[tuple(slice(width[2 * i], width[2 * i] + s) for i, s in enumerate(x.shape))] = x
        return out
    if op == "relay.take":
        if "mode" in attrs:
            raise NotImplementedError("take with a mode attribute")
        axis = int(ints["axis"]) if "axis" in ints else None
        return np.take(x, inputs[1], axis=axis)
    if op == "relay.reshape":
        return np.ascontiguousarray(x).reshape(entry["shape"])
    if op == "relay.transpose":
        axes = a.get("axes") or None
        return np.ascontiguousarray(np.transpose(x, axes))
    if op == "relay.strided_slice":
        begin, end = a["begin"], a["end"]
        strides = a.get("strides") or [1] * len(begin)
        axes = a.get("axes") or list(range(len(begin)))
        index = [slice(None)] * x.ndim
        for axis, b, e, s in zip(axes, begin, end, strides):
            index[axis] = slice(b, e, s)
        return np.ascontiguousarray(x[tuple(index)])
    raise NotImplementedError(op)


def moved_bytes(entry, inputs, result):
    """Bytes read + written by one rewrite; a reshape of a contiguous array
    moves nothing."""
    if entry["op"] == "relay.reshape" and inputs[0].flags["C_CONTIGUOUS"]:
        return 0
    return sum(x.nbytes for x in inputs) + result.nbytes


def time_call(fn, repeat, min_sample_s=2e-3):
    """Median seconds per call over `repeat` samples; each sample runs the
    call often enough to last at least `min_sample_s` (timeit's autorange),
    so sub-millisecond ops are not dominated by timer noise."""
    start = time.perf_counter()
    fn()  # warm-up (page faults, caches)
    once = time.perf_counter() - start
    number = max(1, min(1000, int(min_sample_s / max(once, 1e-7))))
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        times.append((time.perf_counter() - start) / number)
    return statistics.median(times)


def transforms(packed_text, repeat, rng):
    """Replays the activation rewrites (input side and output side) of a
    packed function. Returns {"ok", "seconds", "bytes", "ops", "data_bytes",
    "weight_bytes", "error", "weight_ops"}."""
    args, ops = parse_function(packed_text)
    if not args:
        return {"ok": False, "error": "no @main in the packed module"}
    classify(args, ops)
    kernels = [e for e in ops if e["op"] == "tcg.kernel"]
    if len(kernels) != 1:
        return {"ok": False, "error": f"{len(kernels)} packed kernels"}
    kernel = kernels[0]
    result = {"ok": True, "seconds": 0.0, "bytes": 0, "ops": [], "weight_ops": 0}
    # Footprint: the kernel's operands by origin.
    for _, value, shape, dtype in kernel["operands"]:
        size = int(np.prod(shape)) * np.dtype(DTYPES[dtype]).itemsize
        origin = next((e["label"] for e in ops if e["name"] == value), None)
        if origin is None:
            origin = "in" if value == args[0][0] else "w"
        result["data_bytes" if origin == "in" else "weight_bytes"] = size
    values = {args[0][0]: rng.integers(-128, 128, size=args[0][1], dtype=np.int8)}
    for name, shape, dtype in args[1:]:
        values[name] = None  # weights are not replayed (compile time)
    problems = []
    for entry in ops:
        if entry["op"] == "relay.constant":
            try:
                values[entry["name"]] = parse_dense(entry["line"], entry["shape"],
                                                    entry["dtype"])
            except (ValueError, KeyError, AttributeError) as e:
                values[entry["name"]] = None
                problems.append(f"constant {entry['name']}: {e}")
            continue
        if entry["op"] == "tcg.kernel":
            # With requant-shift the kernel's result on VTA is int8.
            values[entry["name"]] = rng.integers(-128, 128, size=entry["shape"], dtype=np.int8)
            continue
        if entry["label"] == "w":
            result["weight_ops"] += 1
            values[entry["name"]] = None
            continue
        if entry["label"] not in ("in", "out"):
            problems.append(f"{entry['op']} {entry['name']} of unknown origin")
            continue
        inputs = [values.get(o) for o in entry["operands"]]
        if any(x is None for x in inputs):
            problems.append(f"{entry['op']} {entry['name']}: an operand was not replayed")
            values[entry["name"]] = None
            continue
        try:
            out = replay(entry, inputs)
        except (NotImplementedError, KeyError, ValueError, IndexError) as e:
            problems.append(f"cannot replay {entry['op']} ({e})")
            values[entry["name"]] = None
            continue
        if tuple(out.shape) != tuple(entry["shape"]):
            problems.append(f"{entry['op']} {entry['name']}: replay gives {out.shape}, the IR "
                            f"{entry['shape']}")
            values[entry["name"]] = None
            continue
        seconds = time_call(lambda: replay(entry, inputs), repeat)
        nbytes = moved_bytes(entry, inputs, out)
        result["seconds"] += seconds
        result["bytes"] += nbytes
        result["ops"].append((entry["label"], entry["op"].split(".")[-1], seconds, nbytes))
        values[entry["name"]] = out
    if problems:
        result["ok"] = False
        result["error"] = "; ".join(problems[:3])
    return result


# ---------------------------------------------------------------------------
# The compiled host code (raf-run --target=vta-sim)
# ---------------------------------------------------------------------------

VTA_SIM_STATS = re.compile(r"^vta-sim: kernels=(\d+) cycles=(\d+) .*host-ms=([\d.]+) "
                           r"launch-ms=([\d.]+)(?: host-cpu-ms=([\d.]+))?", re.M)


def value_pattern(name):
    """A regex for an SSA name as a whole (%5 but not %50 or %5#1)."""
    return re.compile(re.escape(name) + r"(?![\w.#])")


def prepack_weights(packed_text):
    """The packed module with its weight rewrites done at compile time: the
    weight argument takes the packed kernel's weight operand type and the
    rewrites on it are removed, so the compiled function runs only the
    activation rewrites, the launch and the result rewrites (the weights
    count as compile time, as in the numpy replay and the dissertation)."""
    args, ops = parse_function(packed_text)
    if len(args) < 2:
        raise ValueError("no weight argument in @main")
    classify(args, ops)
    kernels = [e for e in ops if e["op"] == "tcg.kernel"]
    if len(kernels) != 1:
        raise ValueError(f"{len(kernels)} packed kernels")
    weight = args[1][0]
    operand = [o for o in kernels[0]["operands"]
               if o[1] == weight or next((e["label"] for e in ops if e["name"] == o[1]),
                                         None) == "w"]
    if len(operand) != 1:
        raise ValueError("the packed kernel has no single weight operand")
    _, value, shape, dtype = operand[0]
    if value == weight:
        return packed_text
    removed = {e["line"] for e in ops if e.get("label") == "w" and e["op"] != "tcg.kernel"}
    lines = []
    for line in packed_text.splitlines():
        if line in removed:
            continue
        m = FUNC.match(line)
        if m:
            line = re.sub(re.escape(weight) + r": tensor<[^>]*>",
                          f"{weight}: tensor<{'x'.join(map(str, shape))}x{dtype}>", line, count=1)
        elif line == kernels[0]["line"]:
            line = value_pattern(value).sub(weight, line)
        lines.append(line)
    text = "\n".join(lines) + "\n"
    if value_pattern(value).search(text):
        raise ValueError(f"the packed weight {value} has other uses")
    return text


def compiled_host(tools, packed_text, workdir, tag, repeat, clock="cpu"):
    """Runs the packed function (weights pre-packed) with `raf-run
    --target=vta-sim`: the host code around the launch compiled by the CPU
    pipeline, the launch calling the VTA runtime. Returns {"ok", "host_s",
    "host_wall_s", "host_cpu_s", "host_clock", "launch_s", "cycles",
    "error"}: host = the compiled host code's time outside the runtime's
    launch, median of `repeat` timed runs: with clock="cpu" the thread's CPU
    time (raf-run's host-cpu-ms), which a loaded machine inflates far less
    than the wall time, with "wall" (or a raf-run without host-cpu-ms) the
    run's wall time minus the launch's (host-ms). `cycles` are those of the
    program raf-run compiled (the lowering's schedule search, or the
    kernel's own #vta.schedule) and simulated."""
    try:
        text = prepack_weights(packed_text)
    except ValueError as e:
        return {"ok": False, "error": f"compiled host: {e}"}
    source = workdir / f"{tag}.host.mlir"
    source.write_text(text)
    rc, out, err = tools.run([tools.raf_run, source, "--target=vta-sim",
                              f"--vta-requant-shift={REQUANT_SHIFT}", "--threads=1",
                              "--no-compile-cache", f"--repeat={max(1, repeat)}",
                              f"--output={workdir / (tag + '.out.npy')}"])
    m = VTA_SIM_STATS.search(out)
    if rc != 0 or not m:
        return {"ok": False, "error": "raf-run: " + first_error(err or out)}
    wall = float(m.group(3)) * 1e-3
    cpu = float(m.group(5)) * 1e-3 if m.group(5) is not None else None
    use_cpu = clock == "cpu" and cpu is not None
    return {"ok": True, "kernels": int(m.group(1)), "cycles": int(m.group(2)),
            "host_s": cpu if use_cpu else wall, "host_wall_s": wall, "host_cpu_s": cpu,
            "host_clock": "cpu" if use_cpu else "wall",
            "launch_s": float(m.group(4)) * 1e-3}


SCHEDULE_REMARK = re.compile(r"remark: vta-schedule: cycles=(\d+) instructions=(\d+)")
SCHEDULE_ATTR = re.compile(r"vta\.schedule = (#vta\.schedule<[^>]*>)")
KERNEL_ATTRS_END = re.compile(r"^(\s*%[\w.#]+ = tcg\.kernel .* attributes \{.*)\} \{$", re.M)


def attach_schedule(packed_text, schedule):
    """The packed module with `schedule` (one #vta.schedule) recorded on its
    only tcg.kernel, as --vta-schedule records it: raf-run --target=vta-sim
    then compiles that schedule as it is instead of searching one. None when
    the module has not exactly one kernel or the kernel has a schedule."""
    if not schedule or ";" in schedule or "vta.schedule" in packed_text:
        return None
    matches = KERNEL_ATTRS_END.findall(packed_text)
    if len(matches) != 1:
        return None
    return KERNEL_ATTRS_END.sub(lambda m: f"{m.group(1)}, vta.schedule = {schedule}}} {{",
                                packed_text, count=1)


def tuned_schedule(tools, packed_text, workdir, tag, args):
    """Tunes the packed kernel's schedule inside the compiler
    (`--vta-schedule=method=tune`, the tuning library on the kernel model
    the pipeline compiles: padding on the fly, fused epilogue, requantising
    shift) and returns {"ok", "cycles", "schedule", "text", "error"}: the
    packed module with the tuned #vta.schedule on its kernel, which raf-run
    --target=vta-sim compiles as it is (a kernel's own schedule is kept)."""
    source = workdir / f"{tag}.tune-in.mlir"
    source.write_text(packed_text)
    tuned = workdir / f"{tag}.tuned.mlir"
    option = (f"method=tune tuner={args.tuner} trials={args.tune_trials} "
              f"seed={args.tune_seed} requant-shift={REQUANT_SHIFT} report=true")
    start = time.perf_counter()
    rc, _, err = tools.run([tools.raf_opt, source, "--mlir-print-op-on-diagnostic=false",
                            f"--vta-schedule={option}",
                            "--mlir-print-elementsattrs-with-hex-if-larger=64", "-o", tuned])
    seconds = time.perf_counter() - start
    if rc != 0:
        return {"ok": False, "error": "tuning: " + first_error(err)}
    remarks = SCHEDULE_REMARK.findall(err)
    text = tuned.read_text()
    schedules = SCHEDULE_ATTR.findall(text)
    if not remarks or len(remarks) != len(schedules):
        return {"ok": False, "error": "tuning: no vta-schedule remark"}
    return {"ok": True, "cycles": sum(int(c) for c, _ in remarks),
            "schedule": "; ".join(schedules), "text": text, "tune_s": seconds}


def measure_tuned(tools, packed_text, heuristic, workdir, tag, args):
    """The candidate with a tuned schedule: its cycles (the tuner's, on the
    cycle model), then - when they differ from the heuristic schedule's -
    one `raf-run --target=vta-sim` of the tuned module, whose cycles must
    equal the tuner's and whose output must equal the heuristic schedule's
    bit for bit. The host code is the same function either way (a schedule
    only changes the VTA program), so the tuned combined time uses the
    heuristic run's host-ms median when it has one."""
    t = tuned_schedule(tools, packed_text, workdir, tag, args)
    if not t["ok"]:
        return t
    text = t.pop("text")
    t["op_s"] = t["cycles"] / (args.vta_mhz * 1e6)
    same = heuristic.get("cycles_ok") and heuristic.get("cycles") == t["cycles"]
    if same and heuristic.get("host_ok"):
        t.update(checked="same cycles as the heuristic schedule", host_s=heuristic["host_s"])
        return t
    host = compiled_host(tools, text, workdir, tag + ".tuned", 0, args.host_clock)
    if not host["ok"]:
        t.update(ok=False, error="tuned " + host["error"])
        return t
    t["host_s"] = heuristic["host_s"] if heuristic.get("host_ok") else host["host_s"]
    record_tuned_check(t, host, workdir, tag)
    return t


def record_tuned_check(t, host, workdir, tag):
    """Records in `t` (the tuner's result) the raf-run of its tuned module
    (`host`): its cycles must be the tuner's and its output the heuristic
    schedule's (`tag`.out.npy) bit for bit."""
    t["run_host_s"] = host["host_s"]
    if host["cycles"] != t["cycles"]:
        t["cycles_differ"] = host["cycles"]
    ref = workdir / f"{tag}.out.npy"
    out = workdir / f"{tag}.tuned.out.npy"
    if ref.exists() and out.exists():
        t["output_equal"] = bool(np.array_equal(np.load(ref), np.load(out)))
    t["checked"] = ("raf-run cycles " + ("equal" if "cycles_differ" not in t else
                                         f"DIFFER ({host['cycles']})")
                    + ({True: ", output bit-identical to the heuristic schedule's",
                        False: ", output DIFFERS from the heuristic schedule's"}
                       .get(t.get("output_equal"), "")))


# ---------------------------------------------------------------------------
# One layer
# ---------------------------------------------------------------------------

CANDIDATE_COUNT = re.compile(r"^  search: .*?, (\d+) candidate\(s\)", re.M)
AXIS_LINE = re.compile(r"^  ([xyz]): (.*)$")


def mapping_of(report):
    """'x=- y=oc16 z=ic4*kh4' of the best embedding (the report's first
    axis lines)."""
    parts = {}
    for line in report.splitlines():
        m = AXIS_LINE.match(line)
        if m and m.group(1) not in parts:
            value = m.group(2).replace(" (stride ", "/s").replace(")", "")
            parts[m.group(1)] = "*".join(v.strip().replace(" ", "") for v in value.split(","))
    return " ".join(f"{k}={parts[k]}" for k in sorted(parts))


def candidate_mappings(report):
    """The mapping of every candidate: candidate 0 is the first embedding's
    axes, 'candidate k:' blocks follow."""
    blocks = re.split(r"^  candidate \d+:\n", report, flags=re.M)
    maps = [mapping_of(blocks[0])]
    for block in blocks[1:]:
        maps.append(mapping_of("\n".join(line[2:] for line in block.splitlines())))
    return maps


def apply_strategy(tools, emb, k, workdir, tag):
    """`--tcg-apply-strategy=candidate=k` on the embedded module: (the packed
    module's path, None) or (None, the error)."""
    packed = workdir / f"{tag}.packed.mlir"
    rc, _, err = tools.run([tools.raf_opt, emb, "--mlir-print-op-on-diagnostic=false",
                            f"--tcg-apply-strategy=candidate={k}",
                            "--mlir-print-elementsattrs-with-hex-if-larger=64", "-o", packed])
    return (packed, None) if rc == 0 else (None, "apply-strategy: " + first_error(err))


def measure_candidate(tools, emb, conv, intrinsic, k, workdir, tag, args, rng):
    """`conv` is the layer as the user wrote it: the roofline is its bound."""
    packed, error = apply_strategy(tools, emb, k, workdir, tag)
    if error:
        return {"candidate": k, "ok": False, "new_ok": False, "cycles_ok": False,
                "error": error}
    start = time.perf_counter()
    packed_text = packed.read_text()
    heuristic = "heuristic" in args.schedules
    if heuristic:
        cyc = kernel_cycles(tools, packed, workdir, tag)
    else:
        # Only the tuned schedule: its cycles stand in the main columns.
        cyc = tuned_schedule(tools, packed_text, workdir, tag, args)
        if cyc["ok"]:
            packed_text = cyc.pop("text")
            cyc["source"] = "vta-schedule=method=tune"
    tool_s = time.perf_counter() - start
    trans = transforms(packed_text, args.repeat, rng)
    host = compiled_host(tools, packed_text, workdir, tag, args.host_repeat, args.host_clock)
    r = candidate_result(k, cyc, trans, host, tool_s, conv, intrinsic, args)
    if heuristic and "tuned" in args.schedules:
        r["tuned"] = measure_tuned(tools, packed.read_text(), r, workdir, tag, args)
    return r


def candidate_result(k, cyc, trans, host, tool_s, conv, intrinsic, args):
    """One candidate's row from its cycles (`cyc`), numpy replay (`trans`)
    and compiled host run (`host`)."""
    r = {"candidate": k, "cycles_ok": cyc["ok"], "trans_ok": trans["ok"],
         "lower_s": tool_s, "host_ok": host["ok"]}
    if host["ok"]:
        r.update(host_s=host["host_s"], launch_s=host["launch_s"],
                 host_wall_s=host["host_wall_s"], host_cpu_s=host["host_cpu_s"],
                 host_clock=host["host_clock"])
        # raf-run compiles the kernel again (the same schedule search): its
        # cycles should be the report's.
        if cyc["ok"] and host["cycles"] != cyc["cycles"]:
            r["host_cycles_differ"] = host["cycles"]
    else:
        r["host_error"] = host["error"]
    if cyc["ok"]:
        r.update(cycles=cyc["cycles"], cycle_info=cyc.get("info", ""),
                 cycle_source=cyc["source"])
        r["op_s"] = cyc["cycles"] / (args.vta_mhz * 1e6)
        batch, block_in, block_out = GEMM_SHAPE[intrinsic]
        bound = max(conv.macs() / (batch * block_in * block_out),
                    conv.original_bytes() / DMA_BYTES_PER_CYCLE)
        r["roofline"] = cyc["cycles"] / bound
    else:
        r["error"] = cyc["error"]
    r["data_bytes"] = trans.get("data_bytes")
    r["weight_bytes"] = trans.get("weight_bytes")
    if trans["ok"]:
        r.update(trans_s=trans["seconds"], trans_bytes=trans["bytes"],
                 trans_ops=trans["ops"], weight_ops=trans["weight_ops"])
    else:
        r["trans_error"] = trans["error"]
    # "ok": the numpy replay (old); "host_ok" too: the compiled host code (new).
    r["ok"] = cyc["ok"] and trans["ok"]
    if r["ok"]:
        r["combined_s"] = r["op_s"] + r["trans_s"]
    r["new_ok"] = cyc["ok"] and host["ok"]
    if r["new_ok"]:
        r["new_combined_s"] = r["op_s"] + r["host_s"]
    return r


def measure_candidate_once(tools, emb, conv, intrinsic, k, workdir, tag, args, rng,
                           cached=None, reuse_known=None, programs=None):
    """`--checks sample` (the default with --schedule both): the candidate's
    host code is compiled and timed once (raf-run), and its heuristic
    schedule's cycles are those of the program raf-run compiled (the
    lowering's schedule search, simulated), or the cycles-only cache's
    (`cached`: this candidate's --cycles-only row, whose key matched), then
    checked against raf-run's. The tuned schedule is added by
    tune_candidates. Keeps the packed text in "_packed" for it.

    A candidate whose packed function is the baseline's up to SSA
    numbering (`programs`, by program_key) is the same program and takes
    the baseline's measurement ("same_program_as").

    When the candidate's tuned schedule is already known - the cycles-only
    cache's row for it, or an earlier candidate of the layer with the same
    packed kernel (`reuse_known`, by kernel_key) - together with its
    heuristic cycles, raf-run compiles the module with that schedule
    recorded on the kernel (measure_with_schedule): no schedule search at
    run time and no tuning, the host code the same."""
    packed, error = apply_strategy(tools, emb, k, workdir, tag)
    if error:
        return {"candidate": k, "ok": False, "new_ok": False, "cycles_ok": False,
                "error": error}
    packed_text = packed.read_text()
    key = kernel_key(packed_text)
    same = (programs or {}).get(program_key(packed_text))
    if same:
        # The same program as the baseline (e.g. TVM's mapping found by the
        # relaxed search): one program, one measurement.
        label, ref = same
        r = {k: v for k, v in ref.items() if not k.startswith("_")}
        r.update(candidate=k, same_program_as=label, _packed=packed_text,
                 _bound=mac_steps(packed_text), _key=key, _cached_tuned=None)
        if ref.get("tuned"):
            r["tuned"] = {k: v for k, v in ref["tuned"].items()
                          if k not in ("run_host_s", "checked", "cycles_differ",
                                       "output_equal", "check_failed",
                                       "compiled_by_raf_run")}
            r["tuned"]["same_as"] = label
        return r
    reuse = reusable_schedule(cached, key, reuse_known)
    if reuse:
        r = measure_with_schedule(tools, packed_text, reuse, k, workdir, tag, args, rng,
                                  conv, intrinsic)
        if r is not None:
            r.update(_packed=packed_text, _bound=mac_steps(packed_text), _key=key,
                     _cached_tuned=None)
            return r
    start = time.perf_counter()
    host = compiled_host(tools, packed_text, workdir, tag, args.host_repeat, args.host_clock)
    h = (cached or {}).get("heuristic") or {}
    if h.get("ok"):
        cyc = {"ok": True, "cycles": h["cycles"], "info": h.get("info", ""),
               "source": "cycles-only cache"}
    elif host["ok"]:
        cyc = {"ok": True, "cycles": host["cycles"], "info": "", "source": "raf-run"}
    else:
        cyc = kernel_cycles(tools, packed, workdir, tag)
    tool_s = time.perf_counter() - start
    trans = transforms(packed_text, args.repeat, rng)
    r = candidate_result(k, cyc, trans, host, tool_s, conv, intrinsic, args)
    r.update(_packed=packed_text, _bound=mac_steps(packed_text), _key=kernel_key(packed_text),
             _cached_tuned=(cached or {}).get("tuned"))
    return r


def reusable_schedule(cached, key, reuse_known):
    """The candidate's known heuristic cycles and tuned schedule, or None:
    from the cycles-only cache's row (`cached`), else from an earlier
    candidate of this layer with the same packed kernel (`reuse_known`)."""
    h = (cached or {}).get("heuristic") or {}
    t = (cached or {}).get("tuned") or {}
    if h.get("ok") and t.get("ok") and t.get("schedule"):
        return {"heuristic": h["cycles"], "info": h.get("info", ""),
                "tuned": t["cycles"], "schedule": t["schedule"],
                "source": "cycles-only cache"}
    if key is not None and reuse_known and key in reuse_known:
        return dict(reuse_known[key])
    return None


def measure_with_schedule(tools, packed_text, reuse, k, workdir, tag, args, rng, conv,
                          intrinsic):
    """A candidate whose heuristic cycles and tuned schedule are known
    (`reuse`): its host code is compiled and timed by one raf-run of the
    module with the tuned schedule recorded on the kernel (the host code
    does not depend on the schedule; raf-run compiles a kernel's own
    schedule without searching), whose cycles must equal the tuned cycles;
    the heuristic cycles are the known ones (check_heuristic_sample runs
    one heuristic module per layer). None when the schedule cannot be
    recorded (then the candidate is measured as before)."""
    text = attach_schedule(packed_text, reuse["schedule"])
    if text is None:
        return None
    start = time.perf_counter()
    host = compiled_host(tools, text, workdir, tag, args.host_repeat, args.host_clock)
    cyc = {"ok": True, "cycles": reuse["heuristic"], "info": reuse.get("info", ""),
           "source": reuse["source"]}
    tool_s = time.perf_counter() - start
    trans = transforms(packed_text, args.repeat, rng)
    # candidate_result compares raf-run's cycles with the heuristic ones;
    # this run compiled the tuned schedule, compared below.
    r = candidate_result(k, cyc, trans, dict(host, cycles=reuse["heuristic"]), tool_s,
                         conv, intrinsic, args)
    t = {"ok": True, "cycles": reuse["tuned"], "schedule": reuse["schedule"],
         "source": reuse["source"], "op_s": reuse["tuned"] / (args.vta_mhz * 1e6),
         "compiled_by_raf_run": True}
    if reuse.get("same_as"):
        t["same_as"] = reuse["same_as"]
    if host["ok"]:
        t.update(host_s=host["host_s"], run_host_s=host["host_s"])
        if host["cycles"] != reuse["tuned"]:
            t["cycles_differ"] = host["cycles"]
        t["checked"] = ("raf-run cycles " + ("equal" if "cycles_differ" not in t else
                                             f"DIFFER ({host['cycles']})"))
    r["tuned"] = t
    return r


def check_heuristic_sample(tools, cands, workdir, tags, args):
    """The heuristic side of a layer whose candidates took their heuristic
    cycles from the cycles-only cache or an earlier candidate: the
    heuristic module (no schedule on the kernel: raf-run's own search) of
    the best of them by combined time runs once through raf-run; its cycles
    must equal the known ones and its output the tuned-schedule run's bit
    for bit. Recorded as "heuristic_check" on that candidate."""
    reused = [r for r in cands if r.get("tuned", {}).get("compiled_by_raf_run")
              and r.get("new_ok") and r.get("_packed") and not r.get("same_program_as")]
    if not reused:
        return
    r = min(reused, key=lambda r: r["new_combined_s"])
    tag = tags[r["candidate"]]
    host = compiled_host(tools, r["_packed"], workdir, tag + ".heur", 0, args.host_clock)
    if not host["ok"]:
        r["heuristic_check"] = {"ok": False, "error": host["error"]}
        return
    check = {"ok": True, "cycles": host["cycles"], "equal": host["cycles"] == r["cycles"]}
    ref, out = workdir / f"{tag}.out.npy", workdir / f"{tag}.heur.out.npy"
    if ref.exists() and out.exists():
        check["output_equal"] = bool(np.array_equal(np.load(ref), np.load(out)))
    r["heuristic_check"] = check


def remember_schedules(cands, tags, reuse_known):
    """Records the heuristic cycles and tuned schedule of each measured
    candidate by its packed kernel (kernel_key) for later candidates of the
    layer (measure_candidate_once)."""
    for r in cands:
        t = r.get("tuned") or {}
        key = r.get("_key")
        if (key is None or key in reuse_known or not r.get("cycles_ok") or not t.get("ok")
                or not t.get("schedule") or ";" in t["schedule"]):
            continue
        label = f"{tags[r['candidate']].rsplit('.', 2)[-2]} candidate {r['candidate']}"
        reuse_known[key] = {"heuristic": r["cycles"], "info": r.get("cycle_info", ""),
                            "tuned": t["cycles"], "schedule": t["schedule"],
                            "source": f"same kernel as {label}", "same_as": label}


def tune_candidates(tools, cands, workdir, tags, args, known, prune):
    """`--checks sample`: the tuned schedule of each measured candidate, in
    the order of its lower bound on the combined time (MAC-step bound at the
    VTA clock + its host time): the cycles-only cache's tuned cycles when it
    has them; else the tuned cycles of an earlier candidate (or the
    baseline) with the same packed kernel (`known`, by kernel_key); else,
    with `prune`, skipped when that bound is at least the lowest tuned
    combined time found so far (it cannot be the tuned side's best); else
    `--vta-schedule=method=tune`. The host code is the heuristic run's (a
    schedule only changes the VTA program)."""
    hz = args.vta_mhz * 1e6
    order = sorted((r for r in cands if r.get("cycles_ok")),
                   key=lambda r: (r["_bound"] or 0) / hz + (r.get("host_s") or 0))
    best = None
    for r in order:
        if r.get("same_program_as") or r.get("tuned", {}).get("compiled_by_raf_run"):
            t = r["tuned"]
            if t.get("host_s") is not None:
                best = min(best if best is not None else float("inf"),
                           t["op_s"] + t["host_s"])
            if r["_key"] is not None and r["_key"] not in known:
                known[r["_key"]] = (f"{tags[r['candidate']].rsplit('.', 2)[-2]} "
                                    f"candidate {r['candidate']}", t)
            continue
        cached = r.get("_cached_tuned") or {}
        floor = (r["_bound"] or 0) / hz + r["host_s"] if r.get("host_ok") else None
        if cached.get("ok"):
            t = {"ok": True, "cycles": cached["cycles"], "schedule": cached.get("schedule", ""),
                 "source": "cycles-only cache"}
        elif r["_key"] is not None and r["_key"] in known:
            label, ref = known[r["_key"]]
            t = {k: v for k, v in ref.items() if not k.startswith("_")}
            t.update(same_as=label, checked="")
            for key in ("run_host_s", "compiled_by_raf_run", "cycles_differ"):
                t.pop(key, None)
        elif prune and best is not None and floor is not None and floor >= best:
            r["tuned"] = {"ok": False, "pruned": True,
                          "error": "not tuned: its bound (MAC steps + host time) is above "
                                   "the best tuned combined time"}
            continue
        else:
            t = tuned_schedule(tools, r["_packed"], workdir, tags[r["candidate"]], args)
            if t["ok"]:
                t["_text"] = t.pop("text")
        if t["ok"]:
            t["op_s"] = t["cycles"] / hz
            if r.get("host_ok"):
                t["host_s"] = r["host_s"]
                best = min(best if best is not None else float("inf"),
                           t["op_s"] + t["host_s"])
            if r["_key"] is not None and r["_key"] not in known:
                known[r["_key"]] = (f"{tags[r['candidate']].rsplit('.', 2)[-2]} "
                                    f"candidate {r['candidate']}", t)
        r["tuned"] = t


def check_tuned_sample(tools, cands, workdir, tags, args):
    """The sample of --checks sample: the tuned module of the best
    candidate on the tuned side (lowest tuned combined time) among those
    tuned here is run once by raf-run; its cycles must equal the tuner's and
    its output the heuristic schedule's bit for bit."""
    tuned = [r for r in cands if r.get("tuned", {}).get("_text") and r.get("host_ok")]
    if not tuned:
        return
    r = min(tuned, key=lambda r: r["tuned"]["op_s"] + r["tuned"]["host_s"])
    t, tag = r["tuned"], tags[r["candidate"]]
    host = compiled_host(tools, t["_text"], workdir, tag + ".tuned", 0, args.host_clock)
    if not host["ok"]:
        t["checked"] = "raf-run of the tuned module FAILED: " + host["error"]
        t["check_failed"] = True
        return
    record_tuned_check(t, host, workdir, tag)


def embed(tools, computed, intrinsic, mode, count, workdir, args):
    """Runs the embedding of `computed`: (rc, stdout, stderr, emb file, tag)."""
    source = workdir / f"{computed.name}.mlir"
    source.write_text(computed.mlir())
    tag = f"{computed.name}.{intrinsic.split('.')[-1]}.{mode}"
    emb = workdir / f"{tag}.emb.mlir"
    search_ms = args.embed_timeout_8x8x8 if intrinsic == GEMM8 else args.embed_timeout
    option = f"intrinsic={intrinsic} mode={mode} max-candidates={count} timeout={search_ms}"
    rc, out, err = tools.run([tools.raf_opt, source, "--mlir-print-op-on-diagnostic=false",
                              "--convert-relay-to-tcg", f"--tcg-dataflow-embed={option}",
                              "--tcg-print-embeddings", "-o", emb])
    return rc, out, err, emb, tag


def measure_mode(tools, conv, intrinsic, mode, count, workdir, args, rng, computed=None,
                 known=None, cycles_row=None, reuse_known=None, programs=None,
                 baseline=False):
    """Embeds and measures `computed` (default `conv`), the function that
    runs on VTA for the layer `conv`. With `--checks sample` and both
    schedules, `known` (kernel keys already tuned, shared between the
    modes of a layer) and `cycles_row` (this mode's --cycles-only results,
    when the cycles-only cache has the layer) feed tune_candidates."""
    rc, out, err, emb, tag = embed(tools, computed or conv, intrinsic, mode, count, workdir,
                                   args)
    if rc != 0:
        return {"embedded": False, "error": "embedding: " + first_error(err), "candidates": []}
    m = CANDIDATE_COUNT.search(out)
    found = int(m.group(1)) if m else 1
    maps = candidate_mappings(out)
    sampled = args.checks == "sample" and args.schedule == "both"
    cands, tags = [], {}
    for k in range(min(found, count)):
        tags[k] = f"{tag}.c{k}"
        mapping = maps[k] if k < len(maps) else "?"
        if sampled:
            cached = None
            if cycles_row and k < len(cycles_row["candidates"]):
                cached = cycles_row["candidates"][k]
                if cached.get("mapping") != mapping:
                    cached = None  # another embedding: not this candidate
            r = measure_candidate_once(tools, emb, conv, intrinsic, k, workdir, tags[k], args,
                                       rng, cached, reuse_known, programs)
        else:
            r = measure_candidate(tools, emb, conv, intrinsic, k, workdir, tags[k], args, rng)
        r["mapping"] = mapping
        cands.append(r)
    if sampled:
        tune_candidates(tools, cands, workdir, tags, args, {} if known is None else known,
                        prune=mode == "relaxed")
        if mode == "relaxed":
            check_tuned_sample(tools, cands, workdir, tags, args)
            check_heuristic_sample(tools, cands, workdir, tags, args)
        if reuse_known is not None:
            remember_schedules(cands, tags, reuse_known)
        if baseline and programs is not None:
            for r in cands:
                if r.get("_packed") and r.get("new_ok"):
                    programs.setdefault(program_key(r["_packed"]), ("baseline", dict(r)))
        for r in cands:
            for key in [key for key in r if key.startswith("_")]:
                del r[key]
            r.get("tuned", {}).pop("_text", None)
    return {"embedded": True, "candidates": cands}


@functools.lru_cache(maxsize=None)
def tools_hash(build_dir):
    """A short hash of the measuring tools' binaries (raf-opt, raf-run,
    raf-translate, raf-vta-sim in `build_dir`)."""
    digest = hashlib.sha256()
    for tool in ("raf-opt", "raf-run", "raf-translate", "raf-vta-sim"):
        path = pathlib.Path(build_dir) / tool
        if path.exists():
            with path.open("rb") as f:
                for block in iter(lambda: f.read(1 << 20), b""):
                    digest.update(block)
    return digest.hexdigest()[:12]


def layer_options(args):
    """The options that change a layer's measurement (part of the cache and
    store keys)."""
    options = (args.candidates, args.vta_mhz, args.repeat, args.host_repeat,
               args.embed_timeout, args.embed_timeout_8x8x8)
    if args.schedule != "heuristic":
        options += (args.schedule, args.tuner, args.tune_trials, args.tune_seed)
    if args.cycles_only:
        options += ("cycles",)
    else:
        options += (args.host_clock, args.checks)
    return options


def write_whole(path, data):
    """Writes `data` (bytes) to `path` whole, then renames: another run
    reading the cache (e.g. a combined run's --cycles-cache) never sees a
    partial file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.{os.getpid()}")
    partial.write_bytes(data)
    partial.replace(path)


def to_json(value):
    """A result as JSON that from_json turns back into the same value:
    tuples are tagged (JSON has only lists; mappings are compared as
    tuples), numpy scalars become Python numbers; the Conv is not stored
    (the suite and layer ID give it back)."""
    if isinstance(value, dict):
        return {k: to_json(v) for k, v in value.items() if k != "conv"}
    if isinstance(value, tuple):
        return {"__tuple__": [to_json(v) for v in value]}
    if isinstance(value, list):
        return [to_json(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    raise TypeError(f"cannot store {type(value).__name__} in a results store")


def from_json(value):
    if isinstance(value, dict):
        if set(value) == {"__tuple__"}:
            return tuple(from_json(v) for v in value["__tuple__"])
        return {k: from_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [from_json(v) for v in value]
    return value


@functools.lru_cache(maxsize=None)
def source_commit():
    """The checkout's commit, with "+changes" when lib/, include/ or tools/
    differ from it (the tools are assumed built from this tree)."""
    try:
        commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short=12", "HEAD"],
                                capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--",
                                "lib", "include", "tools"],
                               capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return commit + ("+changes" if dirty else "")


def layer_name(conv, intrinsic, args):
    return "-".join(map(str, conv.key() + (intrinsic,) + layer_options(args)))


def store_path(conv, intrinsic, args):
    """The layer's record in --results-store. No tools hash in the name: the
    store outlives a build (it is kept in the repository, so that a suite
    too long for one session is measured in parts); each record names its
    tools, and the report counts the layers of each build."""
    return pathlib.Path(args.results_store) / f"{layer_name(conv, intrinsic, args)}.json"


def measure_layer(job):
    """One (suite, ident, conv) in a worker: baseline and strategies; with
    --results-cache or --results-store, a layer measured before (same shape,
    intrinsic and options) is read back, and a new one is stored."""
    suite, ident, conv, intrinsic, args = job
    name = layer_name(conv, intrinsic, args)
    cached = stored = None
    if args.results_store:
        stored = store_path(conv, intrinsic, args)
        if stored.exists():
            record = json.loads(stored.read_text())
            result = from_json(record["result"])
            result.update(suite=suite, ident=ident, conv=conv, cached=True,
                          tools=record["tools"])
            return result
    if args.results_cache:
        # The tools' contents are part of the key: cycles and host times
        # measured by other binaries (another schedule search, another host
        # code lowering) are not read back.
        cached = pathlib.Path(args.results_cache) / f"{name}-{tools_hash(args.build_dir)}.pickle"
        if cached.exists():
            with cached.open("rb") as f:
                result = pickle.load(f)
            result.update(suite=suite, ident=ident, conv=conv, cached=True)
            return result
    result = measure_layer_now(suite, ident, conv, intrinsic, args)
    tools = {"hash": tools_hash(args.build_dir),
             "commit": args.tools_commit or source_commit()}
    if cached:
        write_whole(cached, pickle.dumps(result))
    if stored:
        record = {"layer": conv.shape_text(), "intrinsic": intrinsic,
                  "options": to_json(layer_options(args)), "tools": tools,
                  "measured": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                  "result": to_json(result)}
        write_whole(stored, (json.dumps(record, indent=1, sort_keys=True) + "\n").encode())
    result["tools"] = tools
    return result


def measure_layer_now(suite, ident, conv, intrinsic, args):
    tools = Tools(pathlib.Path(args.build_dir), args.timeout)
    workdir = pathlib.Path(args.workdir) / f"{suite}-{conv.name}"
    workdir.mkdir(parents=True, exist_ok=True)
    if args.cycles_only:
        return cycles_layer(tools, suite, ident, conv, intrinsic, workdir, args)
    rng = np.random.default_rng(2026)
    start = time.perf_counter()
    known, reuse_known, programs = {}, {}, {}
    cycles_row = cycles_cached(conv, intrinsic, args)
    # TVM's strategy has no dilation: its baseline runs the zero-dilated
    # kernel; our strict mapping with native dilation is measured beside it.
    base = measure_mode(tools, conv, intrinsic, "strict", 1, workdir, args, rng,
                        computed=conv.with_zero_dilated_kernel(), known=known,
                        cycles_row=cycles_row and cycles_row["base"], reuse_known=reuse_known,
                        programs=programs, baseline=True)
    native = (measure_mode(tools, conv, intrinsic, "strict", 1, workdir, args, rng,
                           known=known, reuse_known=reuse_known)
              if conv.dil != 1 else None)
    relaxed = measure_mode(tools, conv, intrinsic, "relaxed", args.candidates, workdir, args, rng,
                           known=known, cycles_row=cycles_row and cycles_row["relaxed"],
                           reuse_known=reuse_known, programs=programs)
    if not args.keep:
        shutil.rmtree(workdir, ignore_errors=True)
    return {"suite": suite, "ident": ident, "conv": conv, "intrinsic": intrinsic,
            "base": base, "native_strict": native, "relaxed": relaxed,
            "cycles_cached": cycles_row is not None,
            "wall_s": time.perf_counter() - start, "load": os.getloadavg()[0]}


def cycles_cached(conv, intrinsic, args):
    """The layer's --cycles-only --schedule both row from --cycles-cache when
    its key matches (the same shape, intrinsic, candidates, clock, embedding
    time limits, tuner options and tools hash - of --cycles-cache-tools
    when given, else of the measuring tools; the numpy and raf-run repeat
    counts in its key do not change cycles and may differ), else None."""
    if not args.cycles_cache or args.schedule != "both":
        return None
    prefix = "-".join(map(str, conv.key() + (intrinsic, args.candidates, args.vta_mhz)))
    suffix = "-".join(map(str, (args.embed_timeout, args.embed_timeout_8x8x8, "both",
                                args.tuner, args.tune_trials, args.tune_seed, "cycles",
                                tools_hash(args.cycles_cache_tools or args.build_dir))))
    for path in sorted(pathlib.Path(args.cycles_cache).glob(f"{prefix}-*-{suffix}.pickle")):
        middle = path.name[len(prefix) + 1:-len(suffix) - len(".pickle") - 1]
        if re.fullmatch(r"[^-]+-[^-]+", middle):
            try:
                with path.open("rb") as f:
                    return pickle.load(f)
            except (OSError, EOFError, pickle.UnpicklingError):
                continue  # being written by a run of an older run.py
    return None


# ---------------------------------------------------------------------------
# Cycles only (--cycles-only): heuristic and tuned schedules, no host timing
# ---------------------------------------------------------------------------

KERNEL_LOOP = re.compile(r"tcg\.(?:tensor|reduce(?: \w+)?) %[\w.#]+ in \[(-?\d+), (-?\d+)\) "
                         r"name \"[^\"]*\"( gemm_axis)?")


def mac_steps(packed_text):
    """GEMM micro-op steps of the packed kernels' multiply-accumulates: the
    product of the extents of every loop that is not a GEMM axis (summed
    over the kernels). Every schedule runs each of these steps once, and the
    compute module spends at least one cycle on each (the cycle model's
    default gemm-cycles-per-uop, docs/vta.md), so this is a lower bound of
    any schedule's cycles, the tuned one's included. None when the module
    has no tcg.kernel."""
    total, found = 0, False
    for chunk in packed_text.split("tcg.kernel ")[1:]:
        found = True
        steps = 1
        # The kernel's body ends at the first line that closes its region at
        # the kernel's own indentation; the loops come first in any case.
        for lo, hi, gemm_axis in KERNEL_LOOP.findall(chunk.split("\n    }")[0]):
            if not gemm_axis:
                steps *= max(0, int(hi) - int(lo))
        total += steps
    return total if found else None


SSA_NUMBER = re.compile(r"%\d+\b")


def program_key(packed_text):
    """The whole packed function with its numbered SSA values renamed in
    order of appearance: two candidates with the same key are the same
    program (host code and kernel)."""
    names = {}
    return SSA_NUMBER.sub(lambda m: names.setdefault(m.group(0), f"%v{len(names)}"),
                          packed_text)


def kernel_key(packed_text):
    """The packed kernel and what follows it (the result-side rewrites), with
    the numbered SSA values renamed in order of appearance: two candidates
    with the same key compile to the same VTA program under either schedule
    (the heuristic search and the seeded tuner are deterministic), so only
    one of them is lowered and tuned."""
    at = packed_text.find("tcg.kernel ")
    if at < 0:
        return None
    names = {}
    return SSA_NUMBER.sub(lambda m: names.setdefault(m.group(0), f"%v{len(names)}"),
                          packed_text[at:])


def cycles_candidate(tools, emb, k, workdir, tag):
    """Applies candidate k: {"candidate", "ok", "packed", "bound", "key",
    "error"}."""
    packed, error = apply_strategy(tools, emb, k, workdir, tag)
    if error:
        return {"candidate": k, "ok": False, "error": error}
    text = packed.read_text()
    return {"candidate": k, "ok": True, "packed": packed, "bound": mac_steps(text),
            "key": kernel_key(text)}


def cycles_mode(tools, conv, intrinsic, mode, count, workdir, args, computed=None,
                known=None):
    """Embeds `computed` (default `conv`) and returns per candidate the
    heuristic schedule's cycles and, with a tuned schedule asked for, the
    tuned one's. Only the candidates that can matter are lowered and tuned:
    candidate k is skipped when its lower bound (mac_steps) is at least the
    fewest cycles found so far on that side, since it cannot be the best
    (candidates are visited in the order of their bounds). `known` maps the
    kernel keys measured before (the baseline's) to their candidates; a
    candidate with one of these kernels takes that one's results, and the
    keys measured here are added."""
    known = {} if known is None else known
    start = time.perf_counter()
    rc, out, err, emb, tag = embed(tools, computed or conv, intrinsic, mode, count, workdir,
                                   args)
    times = {"embed_s": time.perf_counter() - start, "lower_s": 0.0, "tune_s": 0.0}
    if rc != 0:
        return {"embedded": False, "error": "embedding: " + first_error(err),
                "candidates": [], "times": times}
    m = CANDIDATE_COUNT.search(out)
    found = int(m.group(1)) if m else 1
    maps = candidate_mappings(out)
    cands = [cycles_candidate(tools, emb, k, workdir, f"{tag}.c{k}")
             for k in range(min(found, count))]
    for r in cands:
        r["mapping"] = maps[r["candidate"]] if r["candidate"] < len(maps) else "?"
    # A candidate whose kernel equals an earlier one's (or the baseline's)
    # takes its results.
    first = {}
    for r in cands:
        if r["ok"] and r["key"] is not None:
            if r["key"] in known:
                r["same_as"], r["ref"] = "baseline", known[r["key"]]
            elif r["key"] in first:
                r["same_as"], r["ref"] = first[r["key"]]["candidate"], first[r["key"]]
            else:
                first[r["key"]] = r
    known.update(first)
    order = sorted((r for r in cands if r["ok"] and "same_as" not in r),
                   key=lambda r: (r["bound"] is None, r["bound"] or 0))

    def visit(side, measure):
        best = None
        for r in order:
            if best is not None and r["bound"] is not None and r["bound"] >= best:
                r[side] = {"ok": False, "pruned": True}
                continue
            start = time.perf_counter()
            r[side] = measure(r)
            times["lower_s" if side == "heuristic" else "tune_s"] += (
                time.perf_counter() - start)
            if r[side]["ok"]:
                best = min(best or r[side]["cycles"], r[side]["cycles"])

    visit("heuristic", lambda r: kernel_cycles(tools, r["packed"], workdir,
                                               r["packed"].name[:-len(".packed.mlir")]))
    if "tuned" in args.schedules:
        def tune(r):
            t = tuned_schedule(tools, r["packed"].read_text(), workdir,
                               r["packed"].name[:-len(".packed.mlir")], args)
            t.pop("text", None)
            return t
        visit("tuned", tune)
    for r in cands:
        r.pop("packed", None)
        r.pop("key", None)
        ref = r.pop("ref", None)
        if ref is not None:
            for side in ("heuristic", "tuned"):
                if side in ref:
                    r[side] = dict(ref[side], same_as=r["same_as"])
    return {"embedded": True, "candidates": cands, "times": times}


def cycles_layer(tools, suite, ident, conv, intrinsic, workdir, args):
    start = time.perf_counter()
    known = {}
    base = cycles_mode(tools, conv, intrinsic, "strict", 1, workdir, args,
                       computed=conv.with_zero_dilated_kernel(), known=known)
    relaxed = cycles_mode(tools, conv, intrinsic, "relaxed", args.candidates, workdir, args,
                          known=known)
    if not args.keep:
        shutil.rmtree(workdir, ignore_errors=True)
    return {"suite": suite, "ident": ident, "conv": conv, "intrinsic": intrinsic,
            "cycles_only": True, "base": base, "relaxed": relaxed,
            "wall_s": time.perf_counter() - start, "load": os.getloadavg()[0]}


def cycles_compare(row, side):
    """{"base", "best" (cycles), "cand", "op" (speed-up), "status"} of one
    side ("heuristic" or "tuned") of a --cycles-only row."""
    base = row["base"]["candidates"][:1]
    b = base[0].get(side) if base else None
    if not b or not b.get("ok"):
        why = (row["base"].get("error") or (b or {}).get("error")
               or (base[0].get("error") if base else "") or "not measured")
        return {"status": f"baseline: {why}"}
    measured = [(r[side]["cycles"], r["candidate"], r["mapping"])
                for r in row["relaxed"]["candidates"] if r.get(side, {}).get("ok")]
    if not measured:
        errors = [r.get(side, {}).get("error") or r.get("error")
                  for r in row["relaxed"]["candidates"]]
        why = row["relaxed"].get("error") or next((e for e in errors if e), "no candidate")
        return {"base": b["cycles"], "status": f"strategies: {why}"}
    cycles, cand, mapping = min(measured)
    return {"base": b["cycles"], "best": cycles, "cand": cand, "mapping": mapping,
            "op": b["cycles"] / cycles, "status": "ok"}


def cycles_status(row):
    h, t = cycles_compare(row, "heuristic"), cycles_compare(row, "tuned")
    if h["status"] != "ok":
        return h["status"]
    text = f"op heuristic {fmt_x(h['op'])}"
    if has_tuned_cycles(row):
        text += f", tuned {fmt_x(t.get('op'))}" if t["status"] == "ok" else f"; {t['status']}"
    return text


def has_tuned_cycles(row):
    return any("tuned" in r for mode in ("base", "relaxed")
               for r in row[mode]["candidates"])


def cycles_counts(rows):
    """How many candidates were lowered / tuned / skipped by the bound."""
    counts = {"candidates": 0, "heuristic": 0, "tuned": 0, "h_pruned": 0, "t_pruned": 0,
              "h_failed": 0, "t_failed": 0, "h_same": 0, "t_same": 0}
    for row in rows:
        for mode in ("base", "relaxed"):
            for r in row[mode]["candidates"]:
                counts["candidates"] += 1
                for side, key in (("heuristic", "h"), ("tuned", "t")):
                    v = r.get(side)
                    if v is None:
                        continue
                    if "same_as" in v:
                        counts[key + "_same"] += 1
                    elif v.get("pruned"):
                        counts[key + "_pruned"] += 1
                    elif v.get("ok"):
                        counts[side] += 1
                    else:
                        counts[key + "_failed"] += 1
    return counts


def cycles_table(title, rows, paper=None):
    """The tuned-vs-heuristic table of one suite (--cycles-only)."""
    lines = [f"## {title}", "",
             "| ID | layer (NCHW * OIHW, pad, stride) | base cycles heur. | base cycles tuned "
             "| base tuned/heur. | best heur. (cand.: cycles) | best tuned (cand.: cycles) | "
             "best tuned/heur. | Op S heur. | Op S tuned | cand. lowered / tuned / skipped "
             "by the bound / same kernel | s (embed, lower, tune) | status |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    ratios = {"base": [], "best": [], "op_h": [], "op_t": []}
    for row in rows:
        h, t = cycles_compare(row, "heuristic"), cycles_compare(row, "tuned")
        c = cycles_counts([row])
        times = [row[m].get("times", {}) for m in ("base", "relaxed")]
        secs = [sum(x.get(k, 0.0) for x in times) for k in ("embed_s", "lower_s", "tune_s")]
        both = h["status"] == "ok" and t["status"] == "ok"
        if both:
            ratios["base"].append(t["base"] / h["base"])
            ratios["best"].append(t["best"] / h["best"])
            ratios["op_h"].append(h["op"])
            ratios["op_t"].append(t["op"])
        status = h["status"] if h["status"] != "ok" else (
            t["status"] if has_tuned_cycles(row) and t["status"] != "ok" else "ok")
        failed = [r.get(side, {}).get("error") for mode in ("base", "relaxed")
                  for r in row[mode]["candidates"] for side in ("heuristic", "tuned")
                  if r.get(side) and not r[side].get("ok") and not r[side].get("pruned")
                  and "same_as" not in r[side]]
        if status == "ok" and failed:
            status += f"; {len(failed)} candidate side(s) failed: {failed[0]}"
        fmt_r = lambda a, b: f"{a / b:.4f}" if a and b else "-"
        lines.append(
            f"| {row['ident']} | {row['conv'].shape_text()} | {h.get('base', '-')} | "
            f"{t.get('base', '-')} | {fmt_r(t.get('base'), h.get('base'))} | "
            + (f"{h['cand']}: {h['best']}" if "best" in h else "-") + " | "
            + (f"{t['cand']}: {t['best']}" if "best" in t else "-") + " | "
            f"{fmt_r(t.get('best'), h.get('best'))} | {fmt_x(h.get('op'))} | "
            f"{fmt_x(t.get('op'))} | {c['heuristic']} / {c['tuned']} / "
            f"{c['h_pruned']}+{c['t_pruned']} / {c['h_same']} | "
            + ", ".join(f"{x:.0f}" for x in secs) + f" | {short(status, 80)} |")
    n = len(ratios["op_h"])
    g = {k: geomean(v)[0] for k, v in ratios.items()}
    lines.append(f"| **Geo-mean ({n} of {len(rows)} layers with both sides)** | | | | "
                 f"**{g['base']:.4f}** | | | **{g['best']:.4f}** | **{fmt_x(g['op_h'])}** | "
                 f"**{fmt_x(g['op_t'])}** | | | |" if n else
                 f"| **Geo-mean (0 of {len(rows)} layers)** | | | | | | | | | | | | |")
    lines.append("")
    if paper:
        lines += [f"Dissertation operator speed-up (FPGA, AutoTVM-tuned on both sides): "
                  f"{fmt_x(paper['op'])}.", ""]
    c = cycles_counts(rows)
    lines += [f"Candidates (baseline + relaxed): {c['candidates']}; heuristic schedule lowered "
              f"for {c['heuristic']} ({c['h_failed']} failed, {c['h_pruned']} skipped by the "
              f"bound, {c['h_same']} with the same kernel as another candidate), tuned for "
              f"{c['tuned']} ({c['t_failed']} failed, {c['t_pruned']} skipped by the bound, "
              f"{c['t_same']} the same kernel).", ""]
    return lines, g, n


# ---------------------------------------------------------------------------
# Comparison
# ---------------------------------------------------------------------------


# The host transform time of a candidate: the compiled host code measured
# by raf-run (new) or the numpy replay of the rewrites (old).
HOST_KEYS = {"compiled": ("new_ok", "host_s", "new_combined_s", "host_error"),
             "numpy": ("ok", "trans_s", "combined_s", "trans_error")}


def compare(row, baseline="base", host="compiled"):
    """Speed-ups and ratios of the best candidate against the baseline
    (`native_strict`: our strict mapping with native dilation instead), host
    transforms from the compiled host code or (`host="numpy"`) the replay."""
    OK, TRANS, COMBINED, ERROR = HOST_KEYS[host]
    side = row[baseline]
    base = side["candidates"][0] if side["candidates"] else None
    cands = row["relaxed"]["candidates"]
    c = {"base": base}
    problems = []
    if not side["embedded"]:
        problems.append("baseline " + side["error"])
    elif not base.get(OK):
        problems.append("baseline " + (base.get("error") or base.get(ERROR)
                                       or "failed"))
    good = [r for r in cands if r.get(OK)]
    if not row["relaxed"]["embedded"]:
        problems.append("strategies " + row["relaxed"]["error"])
    elif not good:
        first = cands[0] if cands else {}
        problems.append(f"strategies: all {len(cands)} candidates failed, first: "
                        + (first.get("error") or first.get(ERROR) or "failed"))
    c["status"] = "; ".join(problems) if problems else "ok"
    c["failed_candidates"] = [r for r in cands if not r.get(OK)]
    if good:
        c["best"] = min(good, key=lambda r: r[COMBINED])
        c["best_op"] = min((r for r in cands if r.get("cycles_ok")), key=lambda r: r["cycles"])
    if good and base and base.get(OK):
        b, s = base, c["best"]
        c.update(op=b["cycles"] / s["cycles"], transf=b[TRANS] / s[TRANS]
                 if s[TRANS] > 0 else float("inf"),
                 combined=b[COMBINED] / s[COMBINED],
                 data=s["data_bytes"] / b["data_bytes"],
                 weights=s["weight_bytes"] / b["weight_bytes"],
                 tot=(s["data_bytes"] + s["weight_bytes"])
                 / (b["data_bytes"] + b["weight_bytes"]))
    return c


def tuned_view(row):
    """The row with every candidate's tuned schedule in place of its
    heuristic one (cycles, operator time, roofline, combined time with the
    compiled host code); a candidate whose tuning failed is not measured."""
    def swap(r):
        t = r.get("tuned")
        if t and t.get("pruned"):
            # Not tuned: its bound shows it cannot be the tuned side's best.
            return dict(r, cycles_ok=False, ok=False, new_ok=False, error=t["error"])
        if t and not t.get("ok") and r.get("cycles_ok"):
            # The tuner found no schedule: the candidate keeps its heuristic
            # one (the tuned table counts these).
            return dict(r, tuning_failed=t.get("error"))
        if not t or not r.get("cycles_ok"):
            return dict(r, cycles_ok=False, ok=False, new_ok=False,
                        error=(t or {}).get("error") or r.get("error") or "not tuned")
        v = dict(r, cycles=t["cycles"], op_s=t["op_s"],
                 roofline=r["roofline"] * t["cycles"] / r["cycles"])
        if r.get("trans_ok"):
            v["combined_s"] = t["op_s"] + r["trans_s"]
        if t.get("host_s") is not None:
            v.update(host_s=t["host_s"], new_ok=True, new_combined_s=t["op_s"] + t["host_s"])
        else:
            v["new_ok"] = False
        return v

    view = dict(row)
    for side in ("base", "native_strict", "relaxed"):
        if row.get(side):
            view[side] = dict(row[side], candidates=[swap(r) for r in row[side]["candidates"]])
    return view


def has_tuned(row):
    return any("tuned" in r for side in ("base", "relaxed")
               for r in row[side]["candidates"])


def tuned_table(rows):
    """Tuned against heuristic schedules, per layer: the baseline's and the
    best strategy's cycles and the speed-ups with either schedule (each
    side picks its own best candidate)."""
    rows = [r for r in rows if has_tuned(r)]
    if not rows:
        return [], {}
    lines = ["Tuned vs heuristic schedules (each candidate's schedule tuned inside the "
             "compiler by `--vta-schedule=method=tune`, or chosen by the lowering's heuristic "
             "search; each side picks its own best candidate by combined time; tuned/heur. = "
             "cycles of the tuned schedule / the heuristic's, below 1 is faster):", "",
             "| ID | base cycles heur. | base cycles tuned | base tuned/heur. | best heur. "
             "(cand.: cycles) | best tuned (cand.: cycles) | best tuned/heur. | Op S heur. | "
             "Op S tuned | Combined S heur. | Combined S tuned | tuned schedules checked "
             "by raf-run |", "|" + "---|" * 12]
    comps, ratios, all_ratios, failures = [], {"base": [], "best": []}, [], []
    for row in rows:
        h, t = compare(row), compare(tuned_view(row))
        comps.append((h, t))
        hb, tb, hs, ts = h.get("base"), t.get("base"), h.get("best"), t.get("best")
        rb = (tb["cycles"] / hb["cycles"] if hb and tb and hb.get("cycles_ok")
              and tb.get("cycles_ok") else None)
        rs = ts["cycles"] / hs["cycles"] if hs and ts else None
        if rb:
            ratios["base"].append(rb)
        if rs:
            ratios["best"].append(rs)
        checks = {"ran": 0, "equal": 0, "bits": 0, "same": 0, "failed": 0, "pruned": 0,
                  "check_failed": 0}
        for side in ("base", "relaxed"):
            for r in row[side]["candidates"]:
                tu = r.get("tuned")
                if not tu:
                    continue
                if tu.get("pruned"):
                    checks["pruned"] += 1
                    continue
                if tu.get("check_failed"):
                    checks["check_failed"] += 1
                if not tu.get("ok"):
                    checks["failed"] += 1
                    failures.append(tu.get("error", ""))
                    continue
                if r.get("cycles_ok"):
                    all_ratios.append(tu["cycles"] / r["cycles"])
                if "run_host_s" in tu:
                    checks["ran"] += 1
                    checks["equal"] += "cycles_differ" not in tu
                    checks["bits"] += tu.get("output_equal") is True
                elif tu.get("checked", "").startswith("same"):
                    checks["same"] += 1
        check = (f"{checks['ran']} run: cycles equal on {checks['equal']}, output "
                 f"bit-identical on {checks['bits']}"
                 + (f"; {checks['same']} with the heuristic's cycles" if checks["same"] else "")
                 + (f"; {checks['failed']} not tuned (kept the heuristic "
                    "schedule)" if checks["failed"] else "")
                 + (f"; {checks['pruned']} not tuned (bound above the best)"
                    if checks["pruned"] else "")
                 + (f"; raf-run FAILED on {checks['check_failed']}"
                    if checks["check_failed"] else ""))
        lines.append("| " + " | ".join([
            str(row["ident"]),
            str(hb["cycles"]) if hb and hb.get("cycles_ok") else "-",
            str(tb["cycles"]) if tb and tb.get("cycles_ok") else "-",
            f"{rb:.4f}" if rb else "-",
            f"{hs['candidate']}: {hs['cycles']}" if hs else "-",
            f"{ts['candidate']}: {ts['cycles']}" if ts else "-",
            f"{rs:.4f}" if rs else "-",
            fmt_x(h.get("op")), fmt_x(t.get("op")),
            fmt_x(h.get("combined")), fmt_x(t.get("combined")), check]) + " |")
    both = [(h, t) for h, t in comps if "op" in h and "op" in t]
    means = {"heur": {k: geomean([h.get(k) for h, _ in both])[0] for k in COLUMNS},
             "tuned": {k: geomean([t.get(k) for _, t in both])[0] for k in COLUMNS},
             "n": len(both)}
    lines.append("| " + " | ".join([
        f"**Geo-mean ({len(both)} layers)**", "", "",
        f"**{geomean(ratios['base'])[0]:.4f}**" if ratios["base"] else "", "", "",
        f"**{geomean(ratios['best'])[0]:.4f}**" if ratios["best"] else "",
        f"**{fmt_x(means['heur']['op'])}**", f"**{fmt_x(means['tuned']['op'])}**",
        f"**{fmt_x(means['heur']['combined'])}**", f"**{fmt_x(means['tuned']['combined'])}**",
        ""]) + " |")
    lines.append("")
    if all_ratios:
        lines.append(f"Over all {len(all_ratios)} tuned candidates: tuned/heuristic cycles "
                     f"{min(all_ratios):.4f} to {max(all_ratios):.4f}, geo-mean "
                     f"{geomean(all_ratios)[0]:.4f}; tuned faster on "
                     f"{sum(x < 1 for x in all_ratios)}, equal on "
                     f"{sum(x == 1 for x in all_ratios)}, slower on "
                     f"{sum(x > 1 for x in all_ratios)}."
                     + (f" {len(failures)} candidate(s) not tuned (they keep the heuristic "
                        f"schedule in the tuned columns), e.g. {short(failures[0], 140)}"
                        if failures else ""))
        lines.append("")
    return lines, means


def geomean(values):
    values = [v for v in values if v is not None and v > 0 and math.isfinite(v)]
    return (math.exp(sum(math.log(v) for v in values) / len(values)), len(values)) \
        if values else (float("nan"), 0)


def fmt_x(v):
    return "-" if v is None or (isinstance(v, float) and math.isnan(v)) else f"x{v:.3f}"


def fmt_ms(seconds):
    return "-" if seconds is None else f"{seconds * 1e3:.3f}"


def fmt_kib(nbytes):
    return "-" if nbytes is None else f"{nbytes / 1024:.1f}"


def short(text, n=90):
    text = (text or "").replace("|", "/").replace("\n", " ")
    return text if len(text) <= n else text[:n - 3] + "..."


COLUMNS = ["op", "transf", "combined", "data", "weights", "tot"]


@functools.lru_cache(maxsize=None)
def host_bandwidth():
    """This machine's single-thread copy bandwidth, bytes read + written per
    second: the best of 5 numpy copies of 64 MiB."""
    src = np.ones(64 << 20, dtype=np.int8)
    dst = np.empty_like(src)
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        np.copyto(dst, src)
        best = min(best, time.perf_counter() - start)
    return 2 * src.nbytes / best


def speedup_bound(row):
    """The best combined speed-up the cycle model allows when each side's
    host rewrites run at the host's copy bandwidth: max over the candidates
    of (base cycles time + base bytes / BW) / (cycles time + bytes / BW),
    bytes = what the rewrites read and write with the int8 result VTA
    stores (the numpy replay's count)."""
    base = row["base"]["candidates"][0] if row["base"]["candidates"] else None
    if not base or not base.get("cycles_ok") or base.get("trans_bytes") is None:
        return None
    bw = host_bandwidth()
    floor = lambda r: r["op_s"] + r["trans_bytes"] / bw
    cands = [r for r in row["relaxed"]["candidates"]
             if r.get("cycles_ok") and r.get("trans_bytes") is not None]
    return max((floor(base) / floor(r) for r in cands), default=None)


def suite_table(title, rows, paper=None):
    """The suite's table: the best candidate by combined time with the
    compiled host code (new), and beside it the speed-ups with the numpy
    replay of the rewrites (old, its own best candidate)."""
    lines = [f"## {title}", ""]
    header = ("| ID | layer (NCHW * OIHW, pad, stride) | out | base cycles | best cand. | "
              "best cycles | base host ms (compiled) | best host ms (compiled) | "
              "base transf ms (numpy) | best transf ms (numpy) | base moved KiB | "
              "best moved KiB | Op S | Transf. S | Combined S | old: Transf. S (numpy) | "
              "old: Combined S (numpy) | bound (host at copy bandwidth) | Data | Weights | "
              "Tot. | roofline base | roofline best | best-op cand. (if other) | status |")
    rule = "|" + "---|" * 25
    lines += [header, rule]
    comps, olds = [], []
    for row in rows:
        c, old = compare(row), compare(row, host="numpy")
        comps.append(c)
        olds.append(old)
        conv, b, s = row["conv"], c.get("base"), c.get("best")
        cells = [str(row["ident"]), conv.shape_text(), conv.out_text(),
                 str(b["cycles"]) if b and b.get("cycles_ok") else "-",
                 f"{s['candidate']}: {s['mapping']}" if s else "-",
                 str(s["cycles"]) if s else "-",
                 fmt_ms(b.get("host_s")) if b else "-",
                 fmt_ms(s.get("host_s")) if s else "-",
                 fmt_ms(b.get("trans_s")) if b else "-",
                 fmt_ms(s.get("trans_s")) if s else "-",
                 fmt_kib(b.get("trans_bytes")) if b else "-",
                 fmt_kib(s.get("trans_bytes")) if s else "-"]
        cells += [fmt_x(c.get(k)) for k in ("op", "transf", "combined")]
        cells += [fmt_x(old.get("transf")), fmt_x(old.get("combined"))]
        c["bound"] = speedup_bound(row)
        cells.append(fmt_x(c["bound"]))
        cells += [fmt_x(c.get(k)) for k in ("data", "weights", "tot")]
        cells += [f"{b['roofline']:.2f}" if b and b.get("cycles_ok") else "-",
                  f"{s['roofline']:.2f}" if s else "-"]
        bo = c.get("best_op")
        cells.append(f"{bo['candidate']} ({bo['cycles']} cycles)"
                     if bo and s and bo is not s and bo["cycles"] < s["cycles"] else "")
        status = c.get("status", "?")
        failed = c["failed_candidates"]
        if status == "ok" and failed:
            status = (f"ok; {len(failed)} candidate(s) failed: "
                      + (failed[0].get("error") or failed[0].get("host_error") or ""))
        if old.get("status", "ok") != "ok":
            status += "; numpy replay: " + old["status"]
        differ = [r for r in row["relaxed"]["candidates"] + ([b] if b else [])
                  if r.get("host_cycles_differ")]
        if differ:
            status += (f"; raf-run cycles differ from the report on {len(differ)} "
                       f"candidate(s) (e.g. {differ[0]['host_cycles_differ']})")
        cells.append(short(status, 160))
        lines.append("| " + " | ".join(cells) + " |")
    both = [c for c in comps if "op" in c]
    old_both = [c for c in olds if "op" in c]
    means = {k: geomean([c.get(k) for c in both]) for k in COLUMNS}
    old_means = {k: geomean([c.get(k) for c in old_both]) for k in COLUMNS}
    n, n_old = len(both), len(old_both)
    geo = ["Geo-mean", f"{n} of {len(rows)} layers where both sides succeed (old: {n_old})",
           "", "", "", "", "", "", "", "", "", ""]
    geo += [fmt_x(means[k][0]) for k in ("op", "transf", "combined")]
    geo += [fmt_x(old_means["transf"][0]), fmt_x(old_means["combined"][0])]
    means["bound"] = geomean([c.get("bound") for c in both])
    geo.append(fmt_x(means["bound"][0]))
    geo += [fmt_x(means[k][0]) for k in ("data", "weights", "tot")]
    geo += [f"{geomean([c['base']['roofline'] for c in both])[0]:.2f}" if both else "-",
            f"{geomean([c['best']['roofline'] for c in both])[0]:.2f}" if both else "-"]
    geo += ["", ""]
    lines.append("| " + " | ".join(f"**{g}**" if g else "" for g in geo) + " |")
    lines.append("")
    lines += ["| geo-mean | Op S | Transf. S | Combined S | Data | Weights | Tot. |",
              "|---|---|---|---|---|---|---|",
              f"| this run, new: compiled host code ({n} layers) | "
              + " | ".join(fmt_x(means[k][0]) for k in COLUMNS) + " |",
              f"| this run, old: numpy replay of the rewrites ({n_old} layers) | "
              + " | ".join(fmt_x(old_means[k][0]) for k in COLUMNS) + " |"]
    if paper:
        lines.append("| dissertation (FPGA, AutoTVM-tuned, ARM host) | "
                     + " | ".join(fmt_x(paper[k]) for k in COLUMNS) + " |")
    lines.append("")
    below = [str(row["ident"]) for row, c in zip(rows, comps)
             if c.get("combined") is not None and c["combined"] < 1.0]
    lines.append(
        f"Bound (host rewrites at this machine's copy bandwidth, "
        f"{host_bandwidth() / 1e9:.1f} GB/s read + written, int8 result; cycles as "
        f"measured): geo-mean {fmt_x(means['bound'][0])} over {means['bound'][1]} layers. "
        + (f"Combined (compiled host) below x1.0 on layer(s) {', '.join(below)}."
           if below else "Combined (compiled host) at least x1.0 on every measured layer."))
    lines.append("")
    return lines, comps, means


def dilated_table(rows):
    """The dilated layers against both baselines: TVM's (zero-dilated
    kernel) and our strict mapping with native dilation."""
    rows = [r for r in rows if r.get("native_strict")]
    if not rows:
        return []
    lines = ["Dilated layers: TVM's strategy has no dilation (its packed conv2d asserts "
             "dilation == (1, 1)), so the baseline above runs the kernel dilated with zeros "
             "(d*(k-1)+1 taps). Our `mode=strict` mapping handles dilation natively; against "
             "it the best strategy gains:", "",
             "| ID | layer | TVM baseline cycles (zero-dilated kernel) | strict, native "
             "dilation cycles | best cycles | Op S vs TVM | Op S vs native strict | Combined "
             "S vs TVM | Combined S vs native strict | Weights vs TVM |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for row in rows:
        tvm, native = compare(row), compare(row, "native_strict")
        nb = native.get("base")
        lines.append("| " + " | ".join([
            str(row["ident"]), row["conv"].shape_text(),
            str(tvm["base"]["cycles"]) if tvm.get("base") and tvm["base"].get("cycles_ok")
            else "-",
            str(nb["cycles"]) if nb and nb.get("cycles_ok") else "-",
            str(tvm["best"]["cycles"]) if tvm.get("best") else "-",
            fmt_x(tvm.get("op")), fmt_x(native.get("op")), fmt_x(tvm.get("combined")),
            fmt_x(native.get("combined")), fmt_x(tvm.get("weights"))]) + " |")
    lines.append("")
    return lines


def all_candidates(done):
    for row in done.values():
        if row.get("cycles_only"):
            continue
        for side in ("base", "native_strict", "relaxed"):
            if row.get(side):
                yield from row[side]["candidates"]


def host_clock_note(done, args):
    """Which clock the compiled host times of the reported rows are on."""
    clocks = [r["host_clock"] if "host_clock" in r else "wall"
              for r in all_candidates(done) if r.get("host_ok")]
    cpu, wall = clocks.count("cpu"), clocks.count("wall")
    if wall == 0:
        return ("`host-cpu-ms` (the thread's CPU time, which waiting for a core on the "
                "loaded machine does not inflate)")
    if cpu == 0:
        return "`host-ms` (wall time)"
    return (f"`host-cpu-ms` (the thread's CPU time) on {cpu} candidates, `host-ms` (wall "
            f"time) on {wall} measured before raf-run printed the CPU time")


def checks_note(done):
    """How the tuned side of --schedule both was measured (--checks)."""
    cands = list(all_candidates(done))
    sources = {}
    for r in cands:
        sources[r.get("cycle_source")] = sources.get(r.get("cycle_source"), 0) + 1
    tuned = [r["tuned"] for r in cands if r.get("tuned")]
    pruned = sum(1 for t in tuned if t.get("pruned"))
    reused = sum(1 for t in tuned if t.get("same_as"))
    cached = sum(1 for t in tuned if t.get("source") == "cycles-only cache")
    ran = sum(1 for t in tuned if "run_host_s" in t)
    compiled = [t for t in tuned if t.get("compiled_by_raf_run")]
    heur = [r["heuristic_check"] for r in cands if r.get("heuristic_check")]
    reuse = ""
    if compiled:
        reuse = (f"; {len(compiled)} candidate(s) whose heuristic cycles and tuned schedule "
                 "were known (the cycles-only cache or an earlier candidate with the same "
                 "packed kernel) were compiled by raf-run with the tuned schedule recorded on "
                 "the kernel (no schedule search, no tuning): raf-run's cycles equal the "
                 f"tuned ones on {sum(1 for t in compiled if 'cycles_differ' not in t)} of "
                 f"{sum(1 for t in compiled if 'run_host_s' in t)}; heuristic sample (one "
                 "heuristic module per such layer through raf-run's own search): "
                 f"{len(heur)} run, cycles equal to the known ones on "
                 f"{sum(1 for h in heur if h.get('equal'))}, output bit-identical to the "
                 f"tuned schedule's on {sum(1 for h in heur if h.get('output_equal'))}"
                 + (f", raf-run FAILED on {sum(1 for h in heur if not h.get('ok'))}"
                    if any(not h.get("ok") for h in heur) else ""))
    return ("heuristic cycles from " + ", ".join(f"{v} {k}" for k, v in sorted(
        sources.items(), key=lambda kv: -kv[1]) if k) + " candidate(s) (raf-run: the "
            "program it compiled with the lowering's schedule search, simulated; remark: "
            "the `--tcg-lower-to-vta` report); tuned: "
            f"{len(tuned)} candidate(s), {cached} from the cycles-only cache, {reused} "
            f"with another candidate's kernel, {pruned} not tuned because their bound "
            f"(MAC steps + host time) is above the best tuned combined time; {ran} tuned "
            "module(s) run by raf-run (the sample: the best tuned strategy of each layer, "
            "or every tuned module whose cycles differ with `--checks all`)" + reuse)


def load_note(done, elapsed):
    """How the layers were measured: read from --results-cache or now, the
    measuring time and the machine's load average (1 min) after each layer."""
    rows = list(done.values())
    cached = sum(1 for r in rows if r.get("cached"))
    loads = [r["load"] for r in rows if "load" in r]
    text = (f"{len(rows) - cached} layer(s) measured by this invocation, {cached} read "
            "from `--results-cache` or `--results-store` (measured by earlier invocations "
            "with the same options; the time above is this invocation's). ") if cached else ""
    builds = {}
    for r in rows:
        tools = r.get("tools") or {}
        builds.setdefault((tools.get("hash", "?"), tools.get("commit", "?")), []).append(r)
    if len(builds) > 1 or any(r.get("cached") for r in rows):
        text += "Tools (binaries' hash, source commit) that measured the layers: " + "; ".join(
            f"{h} ({c}): {len(rs)} layer(s)" for (h, c), rs in sorted(
                builds.items(), key=lambda item: -len(item[1]))) + ". "
    text += (f"Measuring all layers took {sum(r['wall_s'] for r in rows) / 60:.1f} min of "
             "wall time. ")
    if loads:
        text += (f"Machine load average (1 min) after each layer: {min(loads):.1f} to "
                 f"{max(loads):.1f} (median {statistics.median(loads):.1f}) on "
                 f"{os.cpu_count()} cores, shared with other work.")
    return text


def plot(results, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    panels = [(suite, rows) for suite, rows in results.items() if rows]
    fig, axes = plt.subplots(len(panels), 1, figsize=(max(8, 0.28 * max(
        len(r) for _, r in panels) + 3), 3.6 * len(panels)), squeeze=False)
    for ax, (suite, rows) in zip(axes[:, 0], panels):
        labels, op, comb = [], [], []
        for row in rows:
            c = compare(row)
            labels.append(str(row["ident"]))
            op.append(c.get("op", float("nan")))
            comb.append(c.get("combined", float("nan")))
        xs = np.arange(len(labels))
        ax.bar(xs - 0.2, op, 0.4, label="operator (cycles)")
        ax.bar(xs + 0.2, comb, 0.4, label="combined (operator + host transforms)")
        ax.axhline(1.0, color="black", linewidth=0.8)
        ax.set_yscale("log")
        ax.set_xticks(xs)
        ax.set_xticklabels(labels, fontsize=7, rotation=90 if len(labels) > 20 else 0)
        ax.set_ylabel("speed-up over baseline")
        ax.set_title(SUITE_TITLES.get(suite, suite), fontsize=9)
        ax.legend(fontsize=7)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    return True


SUITE_TITLES = {}


# ---------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------


def write_cycles_report(results, chosen, done, elapsed, tools, args, out):
    """The --cycles-only report: per suite the tuned-vs-heuristic table."""
    tuned = "tuned" in args.schedules
    lines = [
        "# VTA: cycles of tuned and heuristic schedules, every layer",
        "",
        f"Machine: {machine_info()}.",
        "",
        f"Produced by `bench/vta/run.py --cycles-only"
        f"{' --layers ' + args.layers if args.layers else ''}"
        f"{' --schedule ' + args.schedule if args.schedule != 'heuristic' else ''}` "
        f"(see bench/vta/README.md, \"Cycles only\") in {elapsed / 60:.1f} min with "
        f"{args.jobs} job(s); tools in `{args.build_dir}` (hash {tools_hash(args.build_dir)}); "
        "heuristic = the `--tcg-lower-to-vta` schedule search (its report remark), "
        + (f"tuned = `--vta-schedule=\"method=tune tuner={args.tuner} "
           f"trials={args.tune_trials} seed={args.tune_seed} requant-shift={REQUANT_SHIFT}\"` "
           "(the tuner's remark); " if tuned else "")
        + f"top {args.candidates} relaxed candidates; no host code timed.",
        "",
        load_note(done, elapsed),
        "",
        "Baseline = `mode=strict` candidate 0 (TVM's strategy; a dilated layer on the "
        "zero-dilated kernel); best = the relaxed candidate with the fewest cycles, chosen "
        "per side. tuned/heur. = tuned cycles / heuristic cycles (below 1: tuning is "
        "faster). A relaxed candidate is lowered (or tuned) only if its bound, the packed "
        "kernel's GEMM multiply-accumulate micro-op steps (one cycle each, in every "
        "schedule), is below the fewest cycles found so far on that side: the others cannot "
        "be the best; candidates are visited in the order of their bounds.",
        "",
    ]
    summary = []
    for suite in chosen:
        paper = PAPER_CASE if suite == "case" else PAPER_GEMM8 if suite == "gemm8" else None
        table, g, n = cycles_table(SUITE_TITLES[suite], results[suite], paper)
        lines += table
        summary.append((SUITE_TITLES[suite], len(results[suite]), n, g))
    lines += ["## Summary", "",
              "| suite | layers | with both sides | base tuned/heur. | best tuned/heur. | "
              "Op S heur. | Op S tuned |", "|---|---|---|---|---|---|---|"]
    for title, total, n, g in summary:
        lines.append(f"| {title} | {total} | {n} | {g['base']:.4f} | {g['best']:.4f} | "
                     f"{fmt_x(g['op_h'])} | {fmt_x(g['op_t'])} |" if n else
                     f"| {title} | {total} | 0 | - | - | - | - |")
    lines.append("")
    text = "\n".join(lines)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text)
    print(text)
    print(f"written to {out}", file=sys.stderr)


def select(all_suites, args):
    chosen = [s for s in args.suites.split(",") if s]
    wanted = {}
    if args.layers:
        for item in args.layers.split(","):
            suite, _, ident = item.partition(":")
            wanted.setdefault(suite, set()).add(int(ident))
        chosen = [s for s in chosen if s in wanted]
    elif args.quick:
        wanted = QUICK
    jobs = []
    for suite in chosen:
        title, intrinsic, layers = all_suites[suite]
        for ident, conv in layers:
            if suite in wanted and ident not in wanted[suite]:
                continue
            jobs.append((suite, ident, conv, intrinsic))
    return chosen, jobs


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="a few small layers (CI), results to /tmp unless --out")
    parser.add_argument("--suites", default="case,deepbench,gemm8")
    parser.add_argument("--layers", default="",
                        help="suite:ID,... (e.g. case:4,deepbench:9,gemm8:0)")
    parser.add_argument("--candidates", type=int, default=5,
                        help="top-K relaxed candidates, each applied and measured")
    parser.add_argument("--vta-mhz", type=float, default=333.0,
                        help="VTA clock for operator time (Ultra96, TVM-VTA's ultra96_sample.json)")
    parser.add_argument("--repeat", type=int, default=None,
                        help="timed repetitions per rewrite op (median; default 5, quick 3)")
    parser.add_argument("--host-repeat", type=int, default=None,
                        help="timed raf-run runs of the compiled host code per candidate "
                             "(median; default 5, quick 2)")
    parser.add_argument("--timeout", type=float, default=300.0,
                        help="seconds per tool run (a timeout is a failure)")
    parser.add_argument("--embed-timeout", type=int, default=10000,
                        help="ms of the embedding search per layer (1x16x16)")
    parser.add_argument("--embed-timeout-8x8x8", type=int, default=60000,
                        help="ms of the embedding search per layer (8x8x8)")
    parser.add_argument("--schedule", choices=("heuristic", "tuned", "both"),
                        default="heuristic",
                        help="VTA schedules measured: the lowering's heuristic search, "
                             "the tuned one (--vta-schedule=method=tune), or both side by "
                             "side")
    parser.add_argument("--tuner", default="validity",
                        help="tuner of --schedule=tuned|both (random, autotvm, validity)")
    parser.add_argument("--tune-trials", type=int, default=750,
                        help="tuning budget per kernel (measured configurations)")
    parser.add_argument("--tune-seed", type=int, default=0)
    parser.add_argument("--cycles-only", action="store_true",
                        help="operator cycles only (no host timing, no numpy replay): the "
                             "heuristic and, with --schedule tuned|both, the tuned schedule "
                             "of the baseline and of the relaxed candidates that can be the "
                             "best by their MAC-step bound; writes the tuned-vs-heuristic "
                             "tables")
    parser.add_argument("--host-clock", choices=("cpu", "wall"), default="cpu",
                        help="host transform time of the compiled host code: the thread's "
                             "CPU time (raf-run's host-cpu-ms; default) or the wall time "
                             "(host-ms)")
    parser.add_argument("--checks", choices=("sample", "all"), default="sample",
                        help="with --schedule both: sample = time each candidate's host "
                             "code once (heuristic cycles from that raf-run or "
                             "--cycles-cache), tune only candidates that can be the "
                             "best, run one tuned module per layer through raf-run; all = "
                             "lower every candidate with the report and run every tuned "
                             "module whose cycles differ (before 2026-11-27)")
    parser.add_argument("--cycles-cache", default=None,
                        help="a --cycles-only --schedule both results cache: layers whose "
                             "key matches (same tools and options) take their cycles from it")
    parser.add_argument("--cycles-cache-tools", default=None,
                        help="the directory of the tools that wrote --cycles-cache (default: "
                             "--build-dir): its cycles are used with other measuring tools; "
                             "only valid when both builds give the same cycles (raf-run checks "
                             "the tuned cycles of every candidate and the heuristic cycles of "
                             "one per layer)")
    parser.add_argument("--jobs", type=int, default=1, help="layers in parallel")
    parser.add_argument("--results-cache", default=None,
                        help="directory of per-layer results: a layer stored there (same "
                             "shape, intrinsic and options) is not measured again, so "
                             "several runs (e.g. on parts of a suite) add up")
    parser.add_argument("--results-store", default=None,
                        help="like --results-cache, but the records are JSON keyed without "
                             "the tools' hash, so that they outlive a build (e.g. "
                             "bench/results/vta-store, kept in the repository: a suite "
                             "measured over several sessions); each record names the "
                             "tools (hash and commit) that measured it, and the report "
                             "counts the layers of each")
    parser.add_argument("--stored-only", action="store_true",
                        help="with --results-store: measure nothing, report the layers "
                             "the store holds (the others are named on stderr and left out)")
    parser.add_argument("--tools-commit", default=None,
                        help="the source commit the tools were built from, recorded in "
                             "--results-store (default: the checkout's HEAD, with "
                             "'+changes' when lib/, include/ or tools/ differ; give it when "
                             "--build-dir is a copy of an earlier build)")
    parser.add_argument("--out", default=None)
    parser.add_argument("--plot", default=None)
    parser.add_argument("--keep", default=None, help="keep the intermediate IR here")
    parser.add_argument("--build-dir", default=None,
                        help="directory of raf-opt etc. (default $RAF_BUILD_DIR/bin or "
                             "build/bin)")
    args = parser.parse_args()
    if args.build_dir is None:
        build = pathlib.Path(os.environ.get("RAF_BUILD_DIR", ROOT / "build"))
        if not build.is_absolute():
            build = ROOT / build
        args.build_dir = str(build / "bin")
    if args.stored_only and not args.results_store:
        parser.error("--stored-only needs --results-store")
    args.schedules = {"both": ("heuristic", "tuned")}.get(args.schedule, (args.schedule,))
    if args.repeat is None:
        args.repeat = 3 if args.quick else 5
    if args.host_repeat is None:
        args.host_repeat = 2 if args.quick else 5
    partial = args.quick or bool(args.layers)
    out = pathlib.Path(args.out) if args.out else (
        pathlib.Path(tempfile.gettempdir()) / "raf-vta-quick.md" if partial
        else ROOT / "bench" / "results" / "vta.md")
    png = pathlib.Path(args.plot) if args.plot else out.with_suffix(".png")
    tools = Tools(pathlib.Path(args.build_dir), args.timeout)
    if tools.missing():
        sys.exit("missing tools: " + ", ".join(str(t) for t in tools.missing())
                 + " (build them or pass --build-dir / RAF_BUILD_DIR)")
    workdir = pathlib.Path(args.keep) if args.keep else pathlib.Path(
        tempfile.mkdtemp(prefix="raf-vta-bench-"))
    workdir.mkdir(parents=True, exist_ok=True)
    args.workdir = str(workdir)
    all_suites = suites()
    for key, (title, _, _) in all_suites.items():
        SUITE_TITLES[key] = title
    chosen, jobs = select(all_suites, args)
    sampled = args.checks == "sample" and args.schedule == "both" and not args.cycles_only
    print(f"tools: {args.build_dir}; cycles from "
          f"{'raf-run (heuristic), the tuner or the caches' if sampled else 'the --tcg-lower-to-vta report remark' if tools.remark else 'raf-vta-sim'}"
          f"{' (--timing-only)' if not tools.remark and tools.timing_only else ''}; "
          f"{len(jobs)} layers; files in {workdir}", file=sys.stderr, flush=True)

    # A layer measured in two suites with the same intrinsic runs once.
    unique = {}
    for suite, ident, conv, intrinsic in jobs:
        unique.setdefault((conv.key(), intrinsic), (suite, ident, conv, intrinsic, args))
    if args.stored_only:
        missing = [job for key, job in unique.items()
                   if not store_path(job[2], job[3], args).exists()]
        if missing:
            print(f"--stored-only: {len(missing)} layer(s) not in {args.results_store}, left "
                  "out: " + ", ".join(f"{j[0]}:{j[1]}" for j in missing),
                  file=sys.stderr, flush=True)
        unique = {key: job for key, job in unique.items() if job not in missing}
        jobs = [j for j in jobs if (j[2].key(), j[3]) in unique]
        chosen = [s for s in chosen if any(j[0] == s for j in jobs)]
        if not unique:
            sys.exit(f"--stored-only: none of the layers is in {args.results_store}")
    started = time.perf_counter()
    done = {}
    total = len(unique)

    def report(result, i):
        elapsed = time.perf_counter() - started
        eta = elapsed / i * (total - i)
        if result.get("cycles_only"):
            print(f"[{i}/{total}] {result['suite']} {result['ident']} {result['conv'].name} "
                  f"({result['conv'].shape_text()}, {result['intrinsic']}): "
                  f"{cycles_status(result)}; {result['wall_s']:.1f} s; load "
                  f"{result['load']:.1f}; elapsed {elapsed / 60:.1f} min, ETA "
                  f"{eta / 60:.1f} min", file=sys.stderr, flush=True)
            return
        c, o = compare(result), compare(result, host="numpy")
        status = (f"op {fmt_x(c['op'])} transf {fmt_x(c['transf'])} combined "
                  f"{fmt_x(c['combined'])} (old, numpy: transf {fmt_x(o.get('transf'))} "
                  f"combined {fmt_x(o.get('combined'))})" if "op" in c
                  else short(c.get("status", ""), 100))
        if has_tuned(result):
            t = compare(tuned_view(result))
            status += (f"; tuned: op {fmt_x(t.get('op'))} combined "
                       f"{fmt_x(t.get('combined'))}")
        print(f"[{i}/{total}] {result['suite']} {result['ident']} {result['conv'].name} "
              f"({result['conv'].shape_text()}, {result['intrinsic']}): {status}; "
              f"{result['wall_s']:.1f} s; elapsed {elapsed / 60:.1f} min, ETA "
              f"{eta / 60:.1f} min", file=sys.stderr, flush=True)

    try:
        if args.jobs > 1:
            with concurrent.futures.ProcessPoolExecutor(args.jobs) as pool:
                futures = {pool.submit(measure_layer, job): key for key, job in unique.items()}
                for i, future in enumerate(concurrent.futures.as_completed(futures), 1):
                    done[futures[future]] = future.result()
                    report(done[futures[future]], i)
        else:
            for i, (key, job) in enumerate(unique.items(), 1):
                done[key] = measure_layer(job)
                report(done[key], i)
    finally:
        if not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)
    elapsed = time.perf_counter() - started

    results = {s: [] for s in chosen}
    for suite, ident, conv, intrinsic in jobs:
        row = dict(done[(conv.key(), intrinsic)])
        row.update(suite=suite, ident=ident)
        results[suite].append(row)

    if args.cycles_only:
        write_cycles_report(results, chosen, done, elapsed, tools, args, out)
        return
    plotted = plot(results, png)
    try:
        plot_link = png.relative_to(out.parent)
    except ValueError:
        plot_link = png
    lines = [
        "# VTA: operator cycles and host layout transforms of the embedding strategies",
        "",
        f"Machine: {machine_info()}.",
        "",
        f"Produced by `bench/vta/run.py{' --quick' if args.quick else ''}"
        f"{' --layers ' + args.layers if args.layers else ''}"
        f"{' --schedule ' + args.schedule if args.schedule != 'heuristic' else ''}` "
        f"(see bench/vta/README.md) in "
        f"{elapsed / 60:.1f} min with {args.jobs} job(s); cycles from "
        + ("raf-run's compiled program or the caches (the sources are counted below)"
           if args.checks == "sample" and args.schedule == "both" else
           'the `--tcg-lower-to-vta` report remark' if tools.remark else
           '`raf-vta-sim` on the lowered binary (default cycle model)') +
        f", `requant-shift={REQUANT_SHIFT}`, VTA clock {args.vta_mhz:g} MHz; top "
        f"{args.candidates} relaxed candidates; schedules: "
        + {"heuristic": "the lowering's heuristic search",
           "tuned": "tuned",
           "both": "the lowering's heuristic search and tuned, side by side"}[args.schedule]
        + (f" (tuned = `--vta-schedule=\"method=tune tuner={args.tuner} "
           f"trials={args.tune_trials} seed={args.tune_seed}\"` on each packed kernel: "
           f"{args.tune_trials} cycle-model measurements in the template space, the "
           "schedule recorded on the kernel and compiled as it is by raf-run)"
           if args.schedule != "heuristic" else "")
        + "; host transforms (new) = "
        + host_clock_note(done, args)
        + f" of `raf-run --target=vta-sim --threads=1 --repeat={args.host_repeat}` (median "
        f"over the timed runs of the compiled host code's time outside the VTA runtime's "
        f"launches), (old) the median of {args.repeat} numpy runs per rewrite op"
        + ("; " + checks_note(done) if args.schedule == "both" and not args.cycles_only
           else "") + ".",
        "",
        load_note(done, elapsed),
        "",
        "**These are cycle-model numbers** (the project's VTA simulator, not an FPGA) "
        "combined with layout transforms **measured on this machine's CPU**: new = the "
        "host code around the launch compiled by `--raf-cpu-pipeline` and run by "
        "`raf-run --target=vta-sim` (one thread; its CPU or wall time, as said above, "
        "minus the time inside the runtime's launch, i.e. operand copies into the "
        "simulated DRAM, simulation and result copies), old = the rewrites replayed op by op with numpy (not the ARM "
        "host, not TVM's fused relay kernels); the weights are pre-packed (compile time, "
        "not counted) in both. Baseline = "
        "`mode=strict` candidate 0 (TVM's static strategy; for a dilated layer on the "
        "kernel dilated with zeros, as TVM's strategy has no dilation); best = the relaxed candidate "
        "with the lowest combined time. Speed-ups S = baseline time / best time; Data, "
        "Weights, Tot. = best bytes / baseline bytes of the packed kernel operands (lower "
        "is smaller). *moved KiB*: bytes the activation rewrites read and write (a reshape "
        "of a contiguous array moves none). Roofline = cycles / max(MACs / (BATCH*BLOCK_IN*BLOCK_OUT), "
        f"(input + weight + output bytes) / {DMA_BYTES_PER_CYCLE}), of the original int8 "
        "convolution. Geo-means over the layers where both the baseline and at least one "
        "strategy succeed.",
        "",
    ]
    if plotted:
        lines += [f"![speed-ups]({plot_link})", ""]
    summary = {}
    for suite in chosen:
        title = SUITE_TITLES[suite]
        paper = PAPER_CASE if suite == "case" else PAPER_GEMM8 if suite == "gemm8" else None
        table, comps, means = suite_table(title, results[suite], paper)
        summary[suite] = (means, comps)
        lines += table
        lines += tuned_table(results[suite])[0]
        if suite == "case":
            lines += dilated_table(results[suite])
            native = [compare(row, "native_strict") if row.get("native_strict")
                      else compare(row) for row in results[suite]]
            native = [c for c in native if "op" in c]
            if any(row.get("native_strict") for row in results[suite]) and native:
                lines += ["With our native-dilation strict mapping as the baseline of the "
                          "dilated layers instead, the geo-means are: "
                          + ", ".join(f"{k} {fmt_x(geomean([c.get(k) for c in native])[0])}"
                                      for k in COLUMNS) + ".", ""]
        if suite == "gemm8":
            lines += ["The 8x8x8 baseline is TVM's strategy with BATCH = 8: the batch of 1 is "
                      "padded to 8.", ""]
    failures = [(suite, row, compare(row)) for suite in chosen for row in results[suite]]
    failures = [(s, r, c) for s, r, c in failures if c.get("status") != "ok"]
    lines += ["## Failures", ""]
    for suite in chosen:
        comps = [compare(row) for row in results[suite]]
        base_ok = sum(1 for c in comps if c["base"] and c["base"]["ok"])
        strat_ok = sum(1 for c in comps if "best" in c)
        cands = [r for row in results[suite] for r in row["relaxed"]["candidates"]]
        lines.append(f"- {SUITE_TITLES[suite]}: baseline measured on {base_ok} of {len(comps)} "
                     f"layers, at least one strategy on {strat_ok}; {sum(r['ok'] for r in cands)}"
                     f" of {len(cands)} candidates measured (cycles and transforms), "
                     f"{sum(not r['cycles_ok'] for r in cands if 'cycles_ok' in r)} did not "
                     f"lower, {sum(1 for r in cands if 'trans_error' in r)} had rewrites that "
                     "could not be replayed.")
    lines.append("")
    if failures:
        reasons = {}
        for _, _, c in failures:
            reason = re.sub(r"\d+", "N", c.get("status", "?"))[:120]
            reasons[reason] = reasons.get(reason, 0) + 1
        lines += ["| reason (numbers replaced by N) | layers |", "|---|---|"]
        lines += [f"| {short(k, 120)} | {v} |" for k, v in sorted(reasons.items(),
                                                                  key=lambda kv: -kv[1])]
    else:
        lines.append("None.")
    lines.append("")
    text = "\n".join(lines)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text)
    print(text)
    print(f"written to {out}" + (f" and {png}" if plotted else " (no plot: matplotlib is "
                                 "not importable)"), file=sys.stderr)


if __name__ == "__main__":
    main()
