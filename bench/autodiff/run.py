#!/usr/bin/python3
"""Compile time of training-graph generation (--raf-autodiff) with raf-opt.

Models, imported with the torch.fx frontend in training mode (weights are
function arguments, the loss is part of the graph):

* BERT-base-sized encoders: ``nn.TransformerEncoder`` of
  ``nn.TransformerEncoderLayer(768, 12, 3072, dropout=0.0, activation="gelu",
  batch_first=True)`` layers, sequence 128, batch 1, then mean over the
  sequence, ``nn.Linear(768, 2)`` and cross-entropy; at depths 1, 4, 12 (BERT
  base) and 48 for the scaling;
* torchvision ResNet-50 (batch 1, 3x224x224, training-mode batch norm, whose
  updated running statistics are auxiliary results) and cross-entropy.

For each model and each pipeline, ``raf-opt <pipeline> model.mlir -o
out.mlir --mlir-timing`` runs ``--repeat`` times (default 3); the table gives
medians of the in-process times ``--mlir-timing`` reports (the passes, and
raf-opt's total including parsing and printing) and of the end-to-end wall
time of the process (also loading the tool and its shared libraries).
Pipelines (both differentiate with respect to the model's parameters,
``requires-grad`` = their argument indices, not the input or the batch-norm
buffers):

* ``autodiff``: ``--raf-autodiff=inline-backward=true``;
* ``training``: ``--raf-training-pipeline`` when ``raf-opt --help`` lists it,
  otherwise ``--raf-autodiff=inline-backward=true --canonicalize --cse``.

One line of progress is printed per configuration; the markdown table (with
machine information) goes to bench/results/autodiff.md. Python import time
is shown for context only; it is not part of the measured compile time.

Usage: bench/autodiff/run.py [--repeat N] [--depths 1,4,12,48]
                             [--out bench/results/autodiff.md] [--keep DIR]
"""

import argparse
import os
import pathlib
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import warnings

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python"))

import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402
import torchvision  # noqa: E402

from raf_mlir.torch_frontend import import_module  # noqa: E402

sys.path.insert(0, str(ROOT / "bench"))
from machine import machine_info as bench_machine_info  # noqa: E402

TARGET_SECONDS = 1.0  # the issue's target for BERT-base


def raf_opt() -> pathlib.Path:
    return pathlib.Path(os.environ.get("RAF_BUILD_DIR", ROOT / "build")) / "bin" / "raf-opt"


# ---------------------------------------------------------------------------
# Models (each returns the scalar loss)
# ---------------------------------------------------------------------------


class EncoderClassifier(nn.Module):
    def __init__(self, layers: int) -> None:
        super().__init__()
        layer = nn.TransformerEncoderLayer(768, 12, 3072, dropout=0.0, activation="gelu",
                                           batch_first=True)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # enable_nested_tensor notices
            self.encoder = nn.TransformerEncoder(layer, layers)
        self.head = nn.Linear(768, 2)

    def forward(self, x: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
        return F.cross_entropy(self.head(self.encoder(x).mean(dim=1)), labels)


class ResNet50Loss(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.net = torchvision.models.resnet50()

    def forward(self, x: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
        return F.cross_entropy(self.net(x), labels)


def encoder_config(layers: int):
    return (f"encoder {layers} layer{'s' if layers > 1 else ''}"
            + (" (BERT-base)" if layers == 12 else ""),
            layers, lambda: EncoderClassifier(layers),
            lambda: (torch.randn(1, 128, 768), torch.tensor([1])))


def resnet_config():
    return ("ResNet-50", None, ResNet50Loss,
            lambda: (torch.randn(1, 3, 224, 224), torch.tensor([3])))


# ---------------------------------------------------------------------------
# Measuring
# ---------------------------------------------------------------------------


_TIMING_LINE = re.compile(r"^\s*([0-9.]+) \(\s*[0-9.]+%\)( +)(.*?)\s*$")


def parse_timing(stderr: str) -> dict:
    """Top-level entries of --mlir-timing's wall-time column, in seconds
    (nested entries -- a pipeline's passes, analyses -- are indented after
    the percentage and are left out; a pass that runs twice at the top level
    gets a suffix, e.g. ``Canonicalizer#2``)."""
    entries = []
    for line in stderr.splitlines():
        match = _TIMING_LINE.match(line)
        if match:
            entries.append((len(match.group(2)), match.group(3), float(match.group(1))))
    if not entries:
        raise RuntimeError(f"no --mlir-timing report in:\n{stderr[-2000:]}")
    indent = min(depth for depth, _, _ in entries)
    top = {}
    for depth, name, seconds in entries:
        if depth == indent:
            key, n = name, 1
            while key in top:
                n += 1
                key = f"{name}#{n}"
            top[key] = seconds
    if "Total" not in top:
        raise RuntimeError(f"no total in the --mlir-timing report:\n{stderr[-2000:]}")
    return top


def count_ops(path: pathlib.Path) -> int:
    return sum(1 for line in path.read_text().splitlines()
               if re.match(r"\s*(%\S+(, %\S+)* = )?relay\.", line))


def measure(flags, source: pathlib.Path, output: pathlib.Path, repeat: int,
            grads: str) -> dict:
    """Medians of passes / raf-opt total / process wall time, in ms."""
    passes, totals, walls, autodiff, per_pass = [], [], [], [], {}
    for _ in range(repeat):
        command = [str(raf_opt()), *flags, str(source), "-o", str(output), "--mlir-timing"]
        command = [c.replace("@GRADS@", grads) for c in command]
        start = time.perf_counter()
        run = subprocess.run(command, capture_output=True, text=True)
        wall = time.perf_counter() - start
        if run.returncode != 0:
            raise RuntimeError(f"{' '.join(command)} failed:\n{run.stderr[-4000:]}")
        top = parse_timing(run.stderr)
        not_passes = sum(top.get(k, 0.0) for k in ("Parser", "Output", "Rest", "Total"))
        passes.append(sum(top.values()) - not_passes)
        totals.append(top["Total"])
        walls.append(wall)
        autodiff.append(top.get("RafAutodiff", float("nan")))
        for key, value in top.items():
            per_pass.setdefault(key, []).append(value)
    ms = lambda values: 1e3 * statistics.median(values)  # noqa: E731
    return {"passes": ms(passes), "total": ms(totals), "wall": ms(walls),
            "autodiff": ms(autodiff), "autodiff_min": 1e3 * min(autodiff),
            "ops": count_ops(output),
            "breakdown": {k: ms(v) for k, v in per_pass.items() if k not in ("Total", "Rest")}}


def pipelines():
    """(name, raf-opt flags, description) of the measured pipelines;
    ``@GRADS@`` stands for the indices of the model's parameters."""
    helptext = subprocess.run([str(raf_opt()), "--help"], capture_output=True,
                              text=True).stdout
    autodiff = ["--raf-autodiff=inline-backward=true requires-grad=@GRADS@"]
    if "raf-training-pipeline" in helptext:
        training = (["--raf-training-pipeline=requires-grad=@GRADS@"],
                    "`--raf-training-pipeline` (inline, autodiff, SGD step, canonicalize, cse)")
    else:
        training = (autodiff + ["--canonicalize", "--cse"],
                    "`--raf-autodiff=inline-backward=true --canonicalize --cse` "
                    "(no `--raf-training-pipeline` in this raf-opt)")
    return [("autodiff", autodiff, "`--raf-autodiff=inline-backward=true`"),
            ("training", training[0], training[1])]


# ---------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------


def machine_info() -> str:
    return bench_machine_info([f"torch {torch.__version__}"])


def per_layer_text(row) -> str:
    return f"{row['per_layer']:.3f}" if row["layers"] else "-"


def linear_fit(xs, ys):
    """Least squares y = a + b x and R^2."""
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
    a = my - b * mx
    ss_res = sum((y - a - b * x) ** 2 for x, y in zip(xs, ys))
    ss_tot = sum((y - my) ** 2 for y in ys) or 1.0
    return a, b, 1 - ss_res / ss_tot


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--depths", default="1,4,12,48")
    parser.add_argument("--out", default=str(ROOT / "bench/results/autodiff.md"))
    parser.add_argument("--keep", help="keep the .mlir files in this directory")
    args = parser.parse_args()
    if not raf_opt().exists():
        sys.exit(f"{raf_opt()} is not built (scripts/build.sh raf-opt)")
    depths = [int(d) for d in args.depths.split(",")]
    configs = [encoder_config(d) for d in depths] + [resnet_config()]
    measured = pipelines()
    workdir = pathlib.Path(args.keep or tempfile.mkdtemp(prefix="raf-autodiff-bench-"))
    workdir.mkdir(parents=True, exist_ok=True)

    header = (f"{'model':<28} {'layers':>6} {'fwd ops':>8} {'import s':>9} "
              f"{'pipeline':<9} {'out ops':>8} {'autodiff ms':>12} {'(min)':>6} {'passes ms':>10} "
              f"{'raf-opt ms':>11} {'wall ms':>8} {'ms/layer':>9}")
    print(f"raf-opt: {raf_opt()}; median of {args.repeat} runs; files in {workdir}")
    print(header, flush=True)
    rows = []
    try:
        for name, layers, make_model, make_inputs in configs:
            torch.manual_seed(0)
            model = make_model()
            start = time.perf_counter()
            imported = import_module(model, make_inputs(), function_name="main",
                                     training=True)
            import_s = time.perf_counter() - start
            slug = re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")
            source = workdir / f"{slug}.mlir"
            source.write_text(imported.mlir_text)
            parameters = {n for n, _ in model.named_parameters()}
            grads = ",".join(str(a.index) for a in imported.arguments if a.name in parameters)
            del model, imported
            forward_ops = count_ops(source)
            for pipeline, flags, _ in measured:
                result = measure(flags, source, workdir / f"{slug}.{pipeline}.mlir", args.repeat,
                                 grads)
                per_layer = result["passes"] / layers if layers else float("nan")
                row = dict(name=name, layers=layers, forward_ops=forward_ops,
                           import_s=import_s, pipeline=pipeline, per_layer=per_layer, **result)
                rows.append(row)
                print(f"{name:<28} {layers or '-':>6} {forward_ops:>8} {import_s:>9.1f} "
                      f"{pipeline:<9} {result['ops']:>8} {result['autodiff']:>12.2f} "
                      f"{result['autodiff_min']:>6.1f} "
                      f"{result['passes']:>10.2f} {result['total']:>11.2f} "
                      f"{result['wall']:>8.1f} "
                      f"{'' if not layers else f'{per_layer:.3f}':>9}", flush=True)
    finally:
        if not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)

    # Scaling of the autodiff pass with depth (every run of the pass, in both
    # pipelines, counts for the minimum: the least disturbed measurement).
    fit_text = []
    depth_rows = sorted({r["layers"] for r in rows if r["layers"]})
    if len(depth_rows) >= 2:
        medians = [next(r["autodiff"] for r in rows
                        if r["layers"] == d and r["pipeline"] == "autodiff") for d in depth_rows]
        minima = [min(r["autodiff_min"] for r in rows if r["layers"] == d) for d in depth_rows]
        for label, values in (("median", medians), ("minimum", minima)):
            a, b, r2 = linear_fit(depth_rows, values)
            per_layer = ", ".join(f"{v / d:.3f}" for d, v in zip(depth_rows, values))
            fit_text.append(
                f"- {label} of the `RafAutodiff` pass: fit {a:.2f} ms + {b:.3f} ms x layers "
                f"(R^2 = {r2:.4f}); ms per layer at {', '.join(map(str, depth_rows))} layers: "
                f"{per_layer}; {depth_rows[-1] // depth_rows[0]}x the layers take "
                f"{values[-1] / values[0]:.1f}x the time.")
        ratio = minima[-1] / minima[-2] / (depth_rows[-1] / depth_rows[-2])
        fit_text.append(
            f"- from {depth_rows[-2]} to {depth_rows[-1]} layers the minimum grows "
            f"{minima[-1] / minima[-2]:.2f}x for {depth_rows[-1] / depth_rows[-2]:.0f}x the "
            f"layers ({ratio:.2f} of linear; >1 would be superlinear).")
        pipeline = {r["layers"]: r for r in rows if r["layers"] and r["pipeline"] == "training"}
        low, high = pipeline.get(depth_rows[-2]), pipeline.get(depth_rows[-1])
        if low and high:
            growth = ", ".join(
                f"{k} {high['breakdown'][k] / low['breakdown'][k]:.1f}x"
                for k in high["breakdown"] if low["breakdown"].get(k))
            fit_text.append(
                f"- the training pipeline's passes grow {high['passes'] / low['passes']:.2f}x "
                f"from {depth_rows[-2]} to {depth_rows[-1]} layers; per entry: {growth} "
                "(see README: `--raf-append-optimizer` is quadratic in the number of "
                "parameters).")
    fit_text = "Scaling with depth (the 1-layer model also has the fixed head and loss):\n\n" \
        + "\n".join(fit_text) if fit_text else ""
    bert = next((r for r in rows if r["layers"] == 12 and r["pipeline"] == "autodiff"), None)
    verdict = ""
    if bert:
        ok = bert["wall"] / 1e3 < TARGET_SECONDS
        verdict = (f"Target (issue): training-graph generation for BERT-base under "
                   f"{TARGET_SECONDS:.0f} s: {'met' if ok else 'MISSED'} "
                   f"({bert['autodiff']:.1f} ms in the pass, {bert['wall']:.0f} ms end to end).")

    lines = [
        "# Training-graph generation time (`--raf-autodiff`)",
        "",
        f"Machine: {machine_info()}.",
        "",
        f"Produced by `bench/autodiff/run.py` (see bench/autodiff/README.md): median of "
        f"{args.repeat} runs of `raf-opt <pipeline> model.mlir -o out.mlir --mlir-timing`. "
        "Models are imported by the torch frontend in training mode with the weights as "
        "arguments; the encoders are `nn.TransformerEncoderLayer(768, 12, 3072, gelu)` stacks "
        "(sequence 128, batch 1) with a linear head and cross-entropy, ResNet-50 is "
        "torchvision's (1x3x224x224) with cross-entropy.",
        "",
        "Pipelines: " + "; ".join(f"**{n}** = {d}" for n, _, d in measured) + ".",
        "",
        "Columns: *fwd ops* / *out ops*: relay operations before / after; *autodiff ms*: the "
        "`RafAutodiff` pass alone (median; *(min)*: the fastest run); *passes ms*: every pass of the pipeline; *raf-opt ms*: "
        "`--mlir-timing`'s total (parsing + passes + printing); *wall ms*: the whole "
        "`raf-opt` process; *ms/layer*: passes ms / layers; *import s*: the Python "
        "frontend, for context (not compile time).",
        "",
        "| model | layers | fwd ops | pipeline | out ops | autodiff ms | (min) | passes ms | "
        "raf-opt ms | wall ms | ms/layer | import s |",
        "|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['name']} | {r['layers'] or '-'} | {r['forward_ops']} | {r['pipeline']} | "
            f"{r['ops']} | {r['autodiff']:.2f} | {r['autodiff_min']:.1f} | {r['passes']:.2f} | "
            f"{r['total']:.2f} | "
            f"{r['wall']:.1f} | {per_layer_text(r)} | "
            f"{r['import_s']:.1f} |")
    breakdown = ""
    bert_training = next((r for r in rows if r["layers"] == 12 and r["pipeline"] == "training"),
                         None)
    if bert_training:
        breakdown = ("Where the training pipeline's time goes for BERT-base (median ms, "
                     "`--mlir-timing`'s top-level entries): " + ", ".join(
                         f"{k} {v:.1f}" for k, v in bert_training["breakdown"].items()) + ".")
    lines += ["", fit_text, "", breakdown, "", verdict, ""]
    text = "\n".join(lines)
    print()
    print(text)
    out = pathlib.Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text)
    print(f"written to {out}")


if __name__ == "__main__":
    main()
