#!/usr/bin/python3
"""Dataflow embedding of the VTA GEMM into the DeepBench convolutions.

For every convolution of ``deepbench_108.tsv`` (the 108 DeepBench inference
layers as the dissertation indexes them, Rieber 2022, Tab. 5.1; NCHW data, OIHW
weights, int8 with int32 accumulation) the driver writes a relay function and
runs

    raf-opt --convert-relay-to-tcg \
            --tcg-dataflow-embed="intrinsic=vta.gemm.1x16x16 mode=M report-time=true" \
            --tcg-print-embeddings

in ``mode=strict`` (TVM's n->x, oc->y, ic->z mapping) and ``mode=relaxed``
(the solver's choice), one process per layer and mode, and records from the
report: whether an embedding was found, the solve time the pass measured
(model construction and search, not process start-up), the search nodes,
the best embedding by the cost term (MAC and data-movement overheads,
weights 1 and 1; max-candidates 1, so the solve time is the time to find it
and prove it cheapest), its mapping and strategy class, and in relaxed mode
the number of distinct embeddings the whole space holds (``count``,
enumerated after the search and not part of the solve time). Then the same for the
8x8x8 GEMM on the ten layers of the dissertation's Tab. 4.6.

Progress goes to stderr (one line per run); the markdown table, with machine
information, goes to bench/results/embedding.md (``--out`` to change).

Usage: bench/embedding/run.py [--quick] [--modes strict,relaxed]
                              [--max-candidates 1] [--timeout 10000]
                              [--timeout-8x8x8 60000] [--count 10000]
                              [--only ID,ID] [--out FILE.md]
"""

import argparse
import pathlib
import re
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python" / "tests"))
sys.path.insert(0, str(ROOT / "bench"))

from machine import machine_info  # noqa: E402
from layers import TAB_4_6  # noqa: E402
from raf_tools import RAF_OPT  # noqa: E402

HERE = pathlib.Path(__file__).resolve().parent



class Conv:
    """A convolution in NCHW / OIHW with symmetric padding."""

    def __init__(self, name, n, c, h, w, oc, kh, kw, pad_h, pad_w, sh, sw):
        self.name = name
        self.n, self.c, self.h, self.w = n, c, h, w
        self.oc, self.kh, self.kw = oc, kh, kw
        self.pad_h, self.pad_w, self.sh, self.sw = pad_h, pad_w, sh, sw
        self.oh = (h + 2 * pad_h - kh) // sh + 1
        self.ow = (w + 2 * pad_w - kw) // sw + 1

    def shape_text(self):
        return (f"{self.n}x{self.c}x{self.h}x{self.w} * {self.oc}x{self.c}x{self.kh}x{self.kw}"
                f" p{self.pad_h},{self.pad_w} s{self.sh},{self.sw}")

    def mlir(self):
        data = f"tensor<{self.n}x{self.c}x{self.h}x{self.w}xi8>"
        weight = f"tensor<{self.oc}x{self.c}x{self.kh}x{self.kw}xi8>"
        out = f"tensor<{self.n}x{self.oc}x{self.oh}x{self.ow}xi32>"
        return (
            f"func.func @{self.name}(%x: {data}, %w: {weight}) -> {out} {{\n"
            f"  %0 = relay.nn.conv2d %x, %w {{strides = array<i64: {self.sh}, {self.sw}>, "
            f"padding = array<i64: {self.pad_h}, {self.pad_w}, {self.pad_h}, {self.pad_w}>, "
            f"out_dtype = i32}} : ({data}, {weight}) -> {out}\n"
            f"  return %0 : {out}\n}}\n")


def deepbench(path):
    layers = []
    for line in path.read_text().splitlines()[1:]:
        (i, w, h, c, n, k, s, r, pad_w, pad_h, ws, hs) = map(int, line.split())
        layers.append((i, Conv(f"layer{i}", n, c, h, w, k, r, s, pad_h, pad_w, hs, ws)))
    return layers


def tab_4_6():
    layers = []
    for i, ((n, c, h, w), (oc, ic, kh, kw), pad, stride) in enumerate(TAB_4_6):
        assert ic == c
        layers.append((i, Conv(f"tab46_{i}", n, c, h, w, oc, kh, kw, pad, pad, stride, stride)))
    return layers


AXIS = re.compile(r"^  ([a-z]): (.*)$")
COST = re.compile(r"^ *cost (\d+): MAC (\d+) / (\d+) \(x([\d.]+)\), data (\d+) / (\d+) "
                  r"\(x([\d.]+)\), memory access (\w+)")
SEARCH = re.compile(r"^  search: (optimal|not proven optimal), (\d+) candidate\(s\), (\d+) nodes, "
                    r"(\d+) fails, (\d+) solutions, (\d+) assets"
                    r"(?:, (at least )?(\d+) distinct embeddings)?, ([\d.]+) ms")
CANDIDATE_AXIS = re.compile(r"^    ([a-z]): (.*)$")


def parse_report(text):
    """The best embedding and the candidates' mappings from the report."""
    best = {"axes": {}, "candidates": []}
    current = None
    for line in text.splitlines():
        if line.startswith("embedding of"):
            current = best["axes"]
        elif line.startswith("  candidate "):
            current = {}
            best["candidates"].append(current)
        elif (m := AXIS.match(line)) and current is best["axes"]:
            current[m.group(1)] = m.group(2)
        elif (m := CANDIDATE_AXIS.match(line)) and current is not None:
            current[m.group(1)] = m.group(2)
        elif (m := COST.match(line)) and "cost" not in best:
            best["cost"] = int(m.group(1))
            best["mac_ratio"] = float(m.group(4))
            best["data_ratio"] = float(m.group(7))
            best["memory"] = m.group(8)
        elif m := SEARCH.match(line):
            best["optimal"] = m.group(1) == "optimal"
            best["num_candidates"] = int(m.group(2))
            best["nodes"] = int(m.group(3))
            best["distinct"] = (int(m.group(8)), m.group(7) is None) if m.group(8) else None
            best["ms"] = float(m.group(9))
    return best


def mapping_text(axes):
    """'y=oc16 z=kw8*kh2' for the axes that cover something."""
    parts = []
    for axis in sorted(axes):
        value = axes[axis]
        if value == "-":
            continue
        dims = [d.strip() for d in value.split(",")]
        parts.append(f"{axis}=" + "*".join(d.replace(" (stride ", "/s").replace(")", "")
                                           .replace(" ", "") for d in dims))
    return " ".join(parts) or "-"


def axis_dims(value):
    """[(iterator, length, stride)] of one axis line of the report."""
    dims = []
    if value.strip() == "-":
        return dims
    for part in value.split(","):
        m = re.match(r"\s*(\w+) (\d+)(?: \(stride (\d+)\))?", part)
        dims.append((m.group(1), int(m.group(2)), int(m.group(3) or 1)))
    return dims


def strategy_class(axes, memory="kept"):
    """A coarse name for the layout a mapping implies (Rieber 2022, Tab. 4.1): what
    the reduction axis z packs, and how the output axes x, y cover the image
    (image pack when the outputs' data do not overlap, output unroll when the
    layout must duplicate data)."""
    parts = []
    z = [name for name, _, _ in axis_dims(axes.get("z", "-"))]
    kernel = [name for name in z if name in ("kh", "kw")]
    if not kernel:
        parts.append("channel packing" + (" (TVM)" if z == ["ic"] else ""))
    else:
        parts.append("stencil unroll (" + "*".join(z) + ")")
    for axis in ("x", "y"):
        spatial = [(name, stride) for name, _, stride in axis_dims(axes.get(axis, "-"))
                   if name in ("oh", "ow")]
        if not spatial:
            continue
        names = "*".join(n for n, _ in spatial)
        if memory == "kept":
            parts.append(f"image pack ({axis}={names})")
        else:
            parts.append(f"output unroll, duplicating data ({axis}={names})")
    return " + ".join(parts)


def run_layer(conv, intrinsic, mode, args, workdir):
    path = workdir / f"{conv.name}.mlir"
    path.write_text(conv.mlir())
    timeout = args.timeout_8x8x8 if intrinsic.endswith("8x8x8") else args.timeout
    option = (f"intrinsic={intrinsic} mode={mode} report-time=true "
              f"max-candidates={args.max_candidates} timeout={timeout}"
              + (f" count={args.count}" if mode == "relaxed" else ""))
    start = time.monotonic()
    proc = subprocess.run([str(RAF_OPT), str(path), "--convert-relay-to-tcg",
                           f"--tcg-dataflow-embed={option}", "--tcg-print-embeddings",
                           "-o", "/dev/null"], capture_output=True, text=True)
    wall = (time.monotonic() - start) * 1000
    result = {"wall_ms": wall, "found": proc.returncode == 0}
    if proc.returncode != 0:
        errors = [line for line in proc.stderr.splitlines() if "error:" in line]
        result["error"] = errors[0].split("error:", 1)[1].strip() if errors else proc.stderr.strip()
        return result
    result.update(parse_report(proc.stdout))
    result["warning"] = "warning:" in proc.stderr
    return result


def summarise(results):
    found = [r for r in results if r["found"]]
    times = [r["ms"] for r in found]
    nodes = [r["nodes"] for r in found]
    return {
        "found": len(found),
        "total": len(results),
        "median_ms": statistics.median(times) if times else float("nan"),
        "max_ms": max(times) if times else float("nan"),
        "median_nodes": statistics.median(nodes) if nodes else float("nan"),
        "max_nodes": max(nodes) if nodes else 0,
        "optimal": sum(1 for r in found if r.get("optimal")),
    }


def distinct_strategies(result):
    """All distinct embeddings of the space (count option), else the
    distinct mappings among the candidates."""
    if result.get("distinct"):
        count, complete = result["distinct"]
        return str(count) if complete else f">= {count}"
    maps = {mapping_text(result["axes"])}
    for cand in result["candidates"]:
        maps.add(mapping_text(cand))
    return str(len(maps))



def fmt_ms(value):
    return f"{value:.1f}"


def report(args, suites):
    lines = ["# Dataflow embedding of the VTA GEMM into DeepBench convolutions", "",
             "Produced by `bench/embedding/run.py"
             + (" --quick" if args.quick else "") + "` "
             f"(max-candidates={args.max_candidates}, timeout={args.timeout} ms per layer, "
             f"{args.timeout_8x8x8} ms for the 8x8x8 GEMM, count={args.count} in relaxed "
             "mode).",
             f"Machine: {machine_info()}.", "",
             "Solve time is what `--tcg-dataflow-embed` measured per kernel (building the "
             "polyhedral graph and the Gecode model, the asset portfolio and the k-best branch "
             "and bound), without process start-up. *Nodes* are Gecode search nodes over all "
             "searches of the layer. *Optimal*: branch and bound finished, so the candidates are "
             "the cheapest by the cost term. *Embeddings*: the distinct embeddings (mappings) "
             "the whole space holds, enumerated after the search (`count`, not part of the solve "
             "time). MAC and data ratios are the best embedding's executed MACs and "
             "moved elements over the minimum (padding and duplication overheads); "
             "`memory access duplicated` means the layout must copy data (im2col).", ""]
    for title, intrinsic, results in suites:
        lines += [f"## {title}", ""]
        lines += ["| mode | embedded | proved optimal | median solve (ms) | max solve (ms) | "
                  "median nodes | max nodes |", "|---|---|---|---|---|---|---|"]
        for mode, rows in results.items():
            s = summarise([r for _, _, r in rows])
            lines.append(f"| {mode} | {s['found']}/{s['total']} | {s['optimal']} | "
                         f"{fmt_ms(s['median_ms'])} | {fmt_ms(s['max_ms'])} | "
                         f"{s['median_nodes']:.0f} | {s['max_nodes']} |")
        lines.append("")
        if "relaxed" in results:
            wins = {}
            for _, _, r in results["relaxed"]:
                if r["found"]:
                    key = strategy_class(r["axes"], r.get("memory", "kept"))
                    wins[key] = wins.get(key, 0) + 1
            lines += ["Winning strategy by the cost term (relaxed mode):", "",
                      "| strategy of the best embedding | layers |", "|---|---|"]
            for key, count in sorted(wins.items(), key=lambda kv: -kv[1]):
                lines.append(f"| {key} | {count} |")
            lines.append("")
        modes = list(results)
        header = "| ID | shape (NCHW * OIHW, pad, stride) |"
        rule = "|---|---|"
        for mode in modes:
            header += (f" {mode}: mapping | MAC x | data x | ms | nodes |"
                       + (" embeddings |" if mode == "relaxed" else ""))
            rule += "---|---|---|---|---|" + ("---|" if mode == "relaxed" else "")
        lines += [header, rule]
        by_id = {}
        for mode in modes:
            for ident, conv, r in results[mode]:
                by_id.setdefault(ident, (conv, {}))[1][mode] = r
        for ident, (conv, per_mode) in sorted(by_id.items()):
            row = f"| {ident} | {conv.shape_text()} |"
            for mode in modes:
                r = per_mode.get(mode)
                if r is None or not r["found"]:
                    reason = (r or {}).get("error", "not run")[:60]
                    row += f" not embedded: {reason} | | | | |" + (" |" if mode == "relaxed" else "")
                    continue
                row += (f" {mapping_text(r['axes'])} | {r['mac_ratio']:.3f} | "
                        f"{r['data_ratio']:.3f} | {fmt_ms(r['ms'])} | {r['nodes']} |")
                if mode == "relaxed":
                    row += f" {distinct_strategies(r)} |"
            lines.append(row)
        lines.append("")
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="every 9th DeepBench layer and 3 Tab. 4.6 layers")
    parser.add_argument("--modes", default="strict,relaxed")
    parser.add_argument("--max-candidates", type=int, default=1,
                        help="candidates per search (1: the best; the space's "
                             "size is counted separately with --count)")
    parser.add_argument("--timeout", type=int, default=10000,
                        help="ms per layer for the 1x16x16 GEMM")
    parser.add_argument("--timeout-8x8x8", type=int, default=60000,
                        help="ms per layer for the 8x8x8 GEMM, whose relaxed "
                             "space is far larger")
    parser.add_argument("--count", type=int, default=10000,
                        help="relaxed mode: enumerate up to this many distinct embeddings")
    parser.add_argument("--only", default="", help="comma-separated DeepBench IDs")
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    modes = [m for m in args.modes.split(",") if m]
    layers = deepbench(HERE / "deepbench_108.tsv")
    small = tab_4_6()
    if args.only:
        wanted = {int(i) for i in args.only.split(",")}
        layers = [(i, c) for i, c in layers if i in wanted]
    if args.quick:
        layers = layers[::9]
        small = small[::4]
    out = pathlib.Path(args.out) if args.out else (
        pathlib.Path("/tmp/embedding.md") if args.quick or args.only
        else ROOT / "bench" / "results" / "embedding.md")
    suites = []
    with tempfile.TemporaryDirectory() as tmp:
        workdir = pathlib.Path(tmp)
        for title, intrinsic, suite in (
                ("VTA GEMM 1x16x16 on the 108 DeepBench convolutions", "vta.gemm.1x16x16", layers),
                ("VTA GEMM 8x8x8 on the layers of Tab. 4.6", "vta.gemm.8x8x8", small)):
            results = {}
            total = len(suite) * len(modes)
            done = 0
            for mode in modes:
                rows = []
                for ident, conv in suite:
                    r = run_layer(conv, intrinsic, mode, args, workdir)
                    done += 1
                    status = (f"{mapping_text(r['axes'])}, {fmt_ms(r['ms'])} ms, "
                              f"{r['nodes']} nodes" if r["found"]
                              else f"NOT EMBEDDED: {r.get('error', '')[:80]}")
                    print(f"[{done}/{total}] {intrinsic} {mode} {conv.name} "
                          f"({conv.shape_text()}): {status}", file=sys.stderr, flush=True)
                    rows.append((ident, conv, r))
                results[mode] = rows
            suites.append((title, intrinsic, results))
    text = report(args, suites)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text)
    print(text)
    print(f"written to {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
