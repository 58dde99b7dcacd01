#!/usr/bin/python3
"""Peak memory of training steps and the rematerialisation trade-off
(--raf-memory-report, --raf-memory-schedule, --raf-rematerialize) with raf-opt.

Every model is imported with the torch.fx frontend in training mode (weights
are function arguments, the loss is part of the graph) and turned into a
training step by ``raf-opt --raf-training-pipeline`` with ``requires-grad`` =
the parameters' argument indices, exactly as bench/autodiff does; the
function measured is ``@train_step`` (forward, backward and the SGD update).

Large models (method=raf; method=optimal falls back to raf on them):

* BERT-base: bench/autodiff's ``EncoderClassifier(12)`` (12
  ``nn.TransformerEncoderLayer(768, 12, 3072, gelu)`` layers, sequence 128)
  at batch 1 (bench/autodiff's size) and, unless ``--quick``, batches 8
  and 32 (a usual per-device training batch, where activations dominate);
* torchvision ResNet-50 (batch 1, 3x224x224) with cross-entropy.

For each: the memory report (peak, parameters, ops), the step's FLOPs
(``--relay-print-op-properties=totals=1``), the floor no recomputation can
go below (parameters + returned results, which the memory model keeps to the
end), the peak after ``--raf-memory-schedule``, then ``--raf-rematerialize``
at budgets from 100 % of the unoptimised peak down to 10 % plus the smallest
budget method=raf reports, with method=raf, RAF's trace alone
(``score-offsets=0.1 prune=false``, RAF's rematerialization.cc exactly) and method=optimal.

Small graphs (method=raf vs method=optimal side by side): MLPs, a 1-layer
d_model-64 encoder and a small CNN, whose ``@train_step`` is small enough for
the exact (Gecode) method; ``optimal-max-ops`` is raised to the step's op
count and both methods get the same ``min-tensor-bytes``.

One line of progress per run; the markdown (with machine information) goes
to bench/results/memory.md and the trade-off plot to bench/results/memory.png
(``--quick``: a smoke run with fewer budgets and models, 2 s Gecode limit,
written to /tmp unless --out/--plot are given).

Usage: bench/memory/run.py [--quick] [--time-limit-ms 30000]
                           [--bert-batches 1,8,32] [--out FILE.md]
                           [--plot FILE.png] [--keep DIR]
"""

import argparse
import importlib.util
import pathlib
import re
import shutil
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


def _load_autodiff_bench():
    spec = importlib.util.spec_from_file_location("bench_autodiff_run",
                                                  ROOT / "bench/autodiff/run.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


AUTODIFF = _load_autodiff_bench()  # model definitions, raf_opt(), machine_info()

from raf_mlir.torch_frontend import import_module  # noqa: E402

MiB = 1024 * 1024
TARGET_BUDGET_PCT = 50.0  # aim: smallest feasible budget on BERT-base ...
TARGET_FLOPS_PCT = 30.0   # ... with less recomputation than this
TARGET_GAP_PCT = 10.0     # aim: raf within this of optimal in recomputed FLOPs


# ---------------------------------------------------------------------------
# Models (each returns the scalar loss)
# ---------------------------------------------------------------------------


class MLP(nn.Module):
    def __init__(self, d_in: int, hidden: int, depth: int, classes: int) -> None:
        super().__init__()
        dims = [d_in] + [hidden] * depth
        self.layers = nn.ModuleList(nn.Linear(a, b) for a, b in zip(dims, dims[1:]))
        self.head = nn.Linear(hidden, classes)

    def forward(self, x: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
        for layer in self.layers:
            x = F.relu(layer(x))
        return F.cross_entropy(self.head(x), labels)


class SmallEncoder(nn.Module):
    def __init__(self, d_model: int = 64, heads: int = 4, ff: int = 256) -> None:
        super().__init__()
        layer = nn.TransformerEncoderLayer(d_model, heads, ff, dropout=0.0, activation="gelu",
                                           batch_first=True)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # enable_nested_tensor notices
            self.encoder = nn.TransformerEncoder(layer, 1)
        self.head = nn.Linear(d_model, 2)

    def forward(self, x: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
        return F.cross_entropy(self.head(self.encoder(x).mean(dim=1)), labels)


class SmallCNN(nn.Module):
    def __init__(self, channels: int = 8) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(3, channels, 3, padding=1)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1)
        self.fc = nn.Linear(channels, 10)

    def forward(self, x: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
        x = F.relu(self.conv2(F.relu(self.conv1(x))))
        return F.cross_entropy(self.fc(x.mean(dim=(2, 3))), labels)


class LeNet5(nn.Module):
    """LeNet-5 without batch norm: two 5x5 convolutions with max pooling,
    three fully connected layers."""

    def __init__(self) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(256, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2).flatten(1)
        x = F.relu(self.fc2(F.relu(self.fc1(x))))
        return F.cross_entropy(self.fc3(x), labels)


def large_models(bert_batches):
    """(name, make model, make inputs) of the large models."""
    models = []
    for batch in bert_batches:
        models.append((f"BERT-base, batch {batch}", lambda: AUTODIFF.EncoderClassifier(12),
                       lambda b=batch: (torch.randn(b, 128, 768), torch.ones(b, dtype=torch.long))))
    models.append(("ResNet-50, batch 1", AUTODIFF.ResNet50Loss,
                   lambda: (torch.randn(1, 3, 224, 224), torch.tensor([3]))))
    return models


def small_models(quick: bool):
    """(name, make model, make inputs, min-tensor-bytes) of the graphs small
    enough for method=optimal. Sizes are picked so that the activations (not
    the weights and gradients) make the peak."""
    mlp4 = ("MLP 64-128x4-10, batch 2048", lambda: MLP(64, 128, 4, 10),
            lambda: (torch.randn(2048, 64), torch.randint(0, 10, (2048,))), 1 << 20)
    mlp2 = ("MLP 64-128x2-10, batch 2048", lambda: MLP(64, 128, 2, 10),
            lambda: (torch.randn(2048, 64), torch.randint(0, 10, (2048,))), 1 << 20)
    encoder = ("encoder 1 layer d64 h4 ff256, seq 16, batch 16", SmallEncoder,
               lambda: (torch.randn(16, 16, 64), torch.ones(16, dtype=torch.long)), 64 << 10)
    cnn = ("CNN 3-8-8 conv3x3, 1x3x32x32", SmallCNN,
           lambda: (torch.randn(1, 3, 32, 32), torch.tensor([3])), 16 << 10)
    lenet = ("LeNet-5, batch 32", LeNet5,
             lambda: (torch.randn(32, 1, 28, 28), torch.randint(0, 10, (32,))), 64 << 10)
    return [mlp2, cnn] if quick else [mlp4, mlp2, encoder, cnn, lenet]


# ---------------------------------------------------------------------------
# raf-opt
# ---------------------------------------------------------------------------


def run_raf_opt(args, source: pathlib.Path, output: pathlib.Path):
    command = [str(AUTODIFF.raf_opt()), "--mlir-print-op-on-diagnostic=false", *args,
               str(source), "-o", str(output), "--mlir-timing"]
    start = time.perf_counter()
    run = subprocess.run(command, capture_output=True, text=True)
    return run, time.perf_counter() - start, command


def pass_ms(stderr: str, name: str) -> float:
    # The last column before the name is the wall time (with several
    # threads --mlir-timing prints user time first).
    match = re.search(r"([0-9.]+) \(\s*[0-9.]+%\)\s+" + re.escape(name) + r"\s*$", stderr, re.M)
    return 1e3 * float(match.group(1)) if match else float("nan")


def generate(model, inputs, workdir: pathlib.Path, slug: str) -> dict:
    """Imports the model, runs --raf-training-pipeline, and checks that
    @train_step has no calls left."""
    start = time.perf_counter()
    imported = import_module(model, inputs, function_name="main", training=True)
    import_s = time.perf_counter() - start
    parameters = {n for n, _ in model.named_parameters()}
    grads = ",".join(str(a.index) for a in imported.arguments if a.name in parameters)
    forward = workdir / f"{slug}.mlir"
    forward.write_text(imported.mlir_text)
    del imported
    train = workdir / f"{slug}.train.mlir"
    run, _, command = run_raf_opt([f"--raf-training-pipeline=requires-grad={grads}"], forward,
                                  train)
    if run.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed:\n{run.stderr[-4000:]}")
    calls = len(re.findall(r"\b(func\.call|relay\.call)\b", train.read_text()))
    return {"import_s": import_s, "train": train, "forward_ops": AUTODIFF.count_ops(forward),
            "num_params": len(parameters), "calls": calls}


_REPORT = re.compile(r"remark: @train_step: peak (\d+) bytes \([^)]*\) "
                     r"(?:at step (\d+) of (\d+) \(([^)]*)\)|at entry \(parameters only\), "
                     r"(\d+) steps); parameters (\d+) bytes \([^)]*\); (\d+) buffers")


def memory_report(source: pathlib.Path, workdir: pathlib.Path) -> dict:
    # With in-place updates (the report's and --raf-rematerialize's
    # default, RAF's InplaceUpdate, as --target=cpu runs the step): an
    # updated parameter is counted once in both models.
    run, wall, command = run_raf_opt(["--raf-memory-report=entry=train_step tensors=1"], source,
                                     workdir / "report.mlir")
    if run.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed:\n{run.stderr[-4000:]}")
    not_traced = re.search(r"@train_step: not traced: ([^\n]*)", run.stderr)
    if not_traced:
        return {"traced": False, "reason": not_traced.group(1)}
    match = _REPORT.search(run.stderr)
    if not match:
        raise RuntimeError(f"no memory report for @train_step in:\n{run.stderr[-3000:]}")
    peak, step, steps, op, entry_steps, params, buffers = match.groups()
    # The liveness table (tensors=1): the bytes of the returned results.
    returned = sum(int(m.group(1)) for m in
                   re.finditer(r"^\S+\s+\d+\s+\d+\s+(\d+)\s+result\s*$", run.stderr, re.M))
    return {"traced": True, "peak": int(peak), "peak_step": int(step) if step else None,
            "steps": int(steps or entry_steps), "peak_op": op or "entry",
            "params": int(params), "buffers": int(buffers), "returned": returned,
            "floor": int(params) + returned, "report_ms": pass_ms(run.stderr, "RafMemoryReport")}


def step_flops(source: pathlib.Path, workdir: pathlib.Path) -> int:
    run, _, command = run_raf_opt(["--relay-print-op-properties=totals=1"], source,
                                  workdir / "props.mlir")
    match = re.search(r"remark: @train_step: (\d+) operators, flops=(\d+)", run.stderr)
    if run.returncode != 0 or not match:
        raise RuntimeError(f"{' '.join(command)}: no FLOPs total:\n{run.stderr[-3000:]}")
    return int(match.group(2))


def schedule(source: pathlib.Path, workdir: pathlib.Path, slug: str):
    output = workdir / f"{slug}.sched.mlir"
    run, _, command = run_raf_opt(["--raf-memory-schedule"], source, output)
    if run.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed:\n{run.stderr[-4000:]}")
    moves = re.search(r"remark: @train_step: (\d+) moves", run.stderr)
    return output, (int(moves.group(1)) if moves else 0), pass_ms(run.stderr, "RafMemorySchedule")


_ATTR = re.compile(r"raf\.remat\.(\w+) = (\"[^\"]*\"|-?\d+|true|false)")
_GECODE = re.compile(r"\(Gecode, (proven: )?(\d+) nodes, (\d+) ms")


# method=raf as RAF has it (src/pass/rematerialization.cc): one trace with RAF's score, unpruned.
RAF_TRACE_ONLY = "score-offsets=0.1 prune=false"


def rematerialize(source: pathlib.Path, workdir: pathlib.Path, budget: int, method: str,
                  min_tensor_bytes: int, optimal_max_ops: int, time_limit_ms: int,
                  extra: str = "") -> dict:
    output = workdir / "remat.mlir"
    if output.exists():
        output.unlink()
    options = (f"budget={budget} method={method} entry=train_step "
               f"min-tensor-bytes={min_tensor_bytes} optimal-max-ops={optimal_max_ops} "
               f"time-limit-ms={time_limit_ms} {extra}").strip()
    run, wall, _ = run_raf_opt([f"--raf-rematerialize={options}"], source, output)
    stderr = run.stderr
    result = {"budget": budget, "method": method, "ok": run.returncode == 0, "wall_s": wall,
              "pass_ms": pass_ms(stderr, "RafRematerialize"),
              "no_plan_in_time": "Gecode found no plan within" in stderr,
              "too_many_ops": bool(re.search(r"ops, more than optimal-max-ops", stderr)),
              "internal_error": "internal error" in stderr}
    raf_min = re.search(r"the smallest budget method=raf reaches for @train_step is (\d+) bytes",
                        stderr)
    opt_min = re.search(r"the smallest budget method=optimal reaches is (at most )?(\d+) bytes",
                        stderr)
    result["raf_min"] = int(raf_min.group(1)) if raf_min else None
    result["opt_min"] = int(opt_min.group(2)) if opt_min else None
    result["opt_min_proven"] = bool(opt_min) and not opt_min.group(1)
    result["opt_infeasible"] = "with any recomputation (method=optimal)" in stderr
    if result["ok"]:
        header = next(line for line in output.read_text().splitlines()
                      if "func.func @train_step" in line)
        attrs = {k: v.strip('"') for k, v in _ATTR.findall(header)}
        result.update(peak=int(attrs["peak_bytes"]), ops=int(attrs["num_recomputed_ops"]),
                      flops=int(attrs["recomputed_flops"]), used=attrs["method"])
        result["proven"] = attrs.get("optimal_proven") == "true"
        result["fallback"] = "fallback" in result["used"]
        gecode = _GECODE.search(stderr)
        result["solve_ms"] = int(gecode.group(3)) if gecode else None
        # raf's plan beat every plan of the exact model: its own optimum.
        model = re.search(r"the exact model's (optimum|best plan) recomputes (\d+) FLOPs", stderr)
        result["model_flops"] = int(model.group(2)) if model else None
        result["model_proven"] = bool(model) and model.group(1) == "optimum"
        result["model_none"] = "the exact model has no plan for this budget" in stderr
    else:
        errors = [line.split("error: ", 1)[1] for line in stderr.splitlines() if "error: " in line]
        result["error"] = errors[0] if errors else stderr.strip()[-300:]
        result["fallback"] = result["no_plan_in_time"] or result["too_many_ops"]
    return result


# ---------------------------------------------------------------------------
# Formatting
# ---------------------------------------------------------------------------


def mib(b) -> str:
    return "-" if b is None else f"{b / MiB:.2f}"


def pct(part, whole) -> float:
    return 100.0 * part / whole if whole else float("nan")


def outcome(r, peak, step_flops_total) -> str:
    """Short text of one run for the progress lines."""
    if r["ok"]:
        return (f"peak {mib(r['peak'])} MiB ({pct(r['peak'], peak):.1f}%), {r['ops']} ops, "
                f"{r['flops'] / 1e9:.3f} GFLOPs ({pct(r['flops'], step_flops_total):.2f}%) "
                f"[{r['used']}]")
    if r["internal_error"]:
        return "INTERNAL ERROR: " + r["error"]
    if r["raf_min"] is not None:
        return f"infeasible (raf's smallest {mib(r['raf_min'])} MiB)"
    if r["opt_infeasible"]:
        bound = "" if r["opt_min_proven"] else "at most "
        return f"infeasible (optimal's smallest {bound}{mib(r['opt_min'])} MiB)"
    return "failed: " + r.get("error", "")


def optimal_cell(raf, opt) -> str:
    """What method=optimal did on a large model, relative to method=raf."""
    if opt["too_many_ops"]:
        head = "falls back to raf (> optimal-max-ops)"
    elif opt["no_plan_in_time"]:
        head = "falls back to raf (no plan in time)"
    elif opt["ok"] and opt["ops"] == 0:
        head = "nothing to recompute"
    elif opt["ok"] and opt.get("proven"):
        head = "optimal"
    else:
        head = opt.get("used", "")
    same = (raf["ok"] == opt["ok"] and raf.get("flops") == opt.get("flops")
            and raf.get("peak") == opt.get("peak") and raf.get("raf_min") == opt.get("raf_min"))
    return head + ("; same result" if same else "; DIFFERENT result")


# ---------------------------------------------------------------------------
# The measurements
# ---------------------------------------------------------------------------


def prepare(name, make_model, make_inputs, workdir, **extra):
    """Generates the model's training step and traces it. Returns the info
    record and, when the step is traced, its FLOPs (else None)."""
    slug = re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")
    torch.manual_seed(0)
    model = make_model()
    gen = generate(model, make_inputs(), workdir, slug)
    del model
    report = memory_report(gen["train"], workdir)
    info = {"name": name, "slug": slug, **gen, "report": report, **extra}
    if not report["traced"]:
        print(f"{name}: @train_step not traced: {report['reason']}", flush=True)
        return info, None
    info["step_flops"] = step_flops(gen["train"], workdir)
    return info, info["step_flops"]


def measure_large(name, make_model, make_inputs, workdir, args, budgets_pct):
    info, flops = prepare(name, make_model, make_inputs, workdir, runs=[], sched=None)
    if flops is None:
        return info
    train, report, gen = info["train"], info["report"], info
    peak = report["peak"]
    print(f"{name}: import {gen['import_s']:.1f} s; @train_step traced ({report['steps']} ops, "
          f"{report['buffers']} buffers, {gen['calls']} calls left); peak {mib(peak)} MiB at "
          f"step {report['peak_step']} ({report['peak_op']}); parameters {mib(report['params'])} "
          f"MiB; floor (parameters + returned) {mib(report['floor'])} MiB "
          f"({pct(report['floor'], peak):.1f}%); step {flops / 1e9:.2f} GFLOPs", flush=True)
    mtb = 1 << 20
    common = dict(min_tensor_bytes=mtb, optimal_max_ops=80, time_limit_ms=args.time_limit_ms)

    def sweep_point(source, budget, label):
        raf = rematerialize(source, workdir, budget, "raf", **common)
        c5 = rematerialize(source, workdir, budget, "raf", **common, extra=RAF_TRACE_ONLY)
        opt = rematerialize(source, workdir, budget, "optimal", **common)
        print(f"  {label:<28} budget {mib(budget):>9} MiB ({pct(budget, peak):5.1f}%)  raf: "
              f"{outcome(raf, peak, flops)}; {raf['pass_ms']:.1f} ms | RAF's trace alone: "
              f"{outcome(c5, peak, flops)} | optimal: {optimal_cell(raf, opt)}", flush=True)
        return {"label": label, "budget": budget, "raf": raf, "c5": c5, "opt": opt}

    for p in budgets_pct:
        info["runs"].append(sweep_point(train, peak * p // 100, f"{p}% of peak"))
    # The smallest budget method=raf reaches (from the error of an
    # impossible budget, then measured there).
    probe = rematerialize(train, workdir, 1, "raf", **common)
    info["raf_min"] = probe["raf_min"]
    if probe["raf_min"] is not None and all(r["budget"] != probe["raf_min"] for r in info["runs"]):
        info["runs"].append(sweep_point(train, probe["raf_min"], "smallest (raf)"))
    # Is the reported minimum tight? The plan at the minimum reaches a peak;
    # that peak as a budget is met by the same plan.
    at_min = next((r for r in info["runs"] if r["budget"] == probe["raf_min"]), None)
    if at_min and at_min["raf"]["ok"] and at_min["raf"]["peak"] < probe["raf_min"]:
        again = rematerialize(train, workdir, at_min["raf"]["peak"], "raf", **common)
        info["min_check"] = again
        print(f"  {'budget = peak at smallest':<28} budget {mib(at_min['raf']['peak']):>9} MiB: "
              f"raf: {outcome(again, peak, flops)}", flush=True)
    info["runs"].sort(key=lambda r: -r["budget"])

    # After the memory scheduler.
    sched, moves, sched_ms = schedule(train, workdir, info["slug"])
    sreport = memory_report(sched, workdir)
    sinfo = {"moves": moves, "ms": sched_ms, "report": sreport}
    if sreport["traced"]:
        sprobe = rematerialize(sched, workdir, 1, "raf", **common)
        sinfo["raf_min"] = sprobe["raf_min"]
        if sprobe["raf_min"] is not None:
            sinfo["at_min"] = rematerialize(sched, workdir, sprobe["raf_min"], "raf", **common)
        print(f"  after --raf-memory-schedule ({moves} moves, {sched_ms:.1f} ms): peak "
              f"{mib(sreport['peak'])} MiB ({pct(sreport['peak'], peak):.1f}%); raf's smallest "
              f"budget {mib(sinfo.get('raf_min'))} MiB; there "
              f"{outcome(sinfo['at_min'], peak, flops) if 'at_min' in sinfo else '-'}",
              flush=True)
    info["sched"] = sinfo
    return info


def measure_small(name, make_model, make_inputs, mtb, workdir, args, budgets_pct):
    info, flops = prepare(name, make_model, make_inputs, workdir, mtb=mtb, rows=[])
    if flops is None:
        return info
    train, report = info["train"], info["report"]
    peak = report["peak"]
    max_ops = max(80, report["steps"])
    info["max_ops"] = max_ops
    print(f"{name}: @train_step {report['steps']} ops, peak {mib(peak)} MiB, parameters "
          f"{mib(report['params'])} MiB, floor {pct(report['floor'], peak):.1f}%; "
          f"min-tensor-bytes={mtb}, optimal-max-ops={max_ops}, time-limit-ms="
          f"{args.time_limit_ms}", flush=True)
    common = dict(min_tensor_bytes=mtb, optimal_max_ops=max_ops, time_limit_ms=args.time_limit_ms)
    budgets = [(f"{p}%", peak * p // 100) for p in budgets_pct]
    probe = rematerialize(train, workdir, 1, "raf", **common)
    info["raf_min"] = probe["raf_min"]
    if probe["raf_min"] is not None and probe["raf_min"] < peak \
            and all(b != probe["raf_min"] for _, b in budgets):
        budgets.append(("smallest (raf)", probe["raf_min"]))
    budgets.sort(key=lambda lb: -lb[1])
    for label, budget in budgets:
        raf = rematerialize(train, workdir, budget, "raf", **common)
        c5 = rematerialize(train, workdir, budget, "raf", **common, extra=RAF_TRACE_ONLY)
        opt = rematerialize(train, workdir, budget, "optimal", **common)
        info["rows"].append({"label": label, "budget": budget, "raf": raf, "c5": c5, "opt": opt})
        print(f"  {label:<15} budget {pct(budget, peak):5.1f}%  raf: {outcome(raf, peak, flops)} "
              f"| RAF's trace alone: {outcome(c5, peak, flops)} "
              f"| optimal ({opt['wall_s']:.1f} s): {outcome(opt, peak, flops)}", flush=True)
    return info


def exact_optimum(opt):
    """(FLOPs, proven) of the exact model's best plan, or None: the plan
    method=optimal applied, or, when raf's plan beat every plan of the
    model, the model's own."""
    if not opt["ok"] or opt["fallback"]:
        return None
    if opt["used"].startswith("raf (cheaper than any plan"):
        if opt["model_flops"] is None:
            return None
        return opt["model_flops"], opt["model_proven"]
    return opt["flops"], opt["proven"]


def gap(row, method="raf"):
    """raf's (or RAF's trace alone, method="c5") recomputed FLOPs over
    optimal's, in % (None unless both have a plan of their own)."""
    raf, exact = row[method], exact_optimum(row["opt"])
    if not raf["ok"] or exact is None:
        return None
    flops = exact[0]
    if flops == 0:
        return 0.0 if raf["flops"] == 0 else float("inf")
    return pct(raf["flops"] - flops, flops)


# ---------------------------------------------------------------------------
# Plot and report
# ---------------------------------------------------------------------------


def plot(large, small, path: pathlib.Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(13, 5))
    ax = axes[0]
    for info in large:
        if not info["report"].get("traced"):
            continue
        peak = info["report"]["peak"]
        points = sorted((pct(r["budget"], peak), pct(r["raf"]["flops"], info["step_flops"]))
                        for r in info["runs"] if r["raf"]["ok"])
        if points:
            line, = ax.plot(*zip(*points), "o-", label=f"{info['name']}, raf")
            ax.axvline(pct(info["report"]["floor"], peak), color=line.get_color(), ls=":",
                       lw=1)
            trace_only = sorted((pct(r["budget"], peak), pct(r["c5"]["flops"], info["step_flops"]))
                                for r in info["runs"] if r["c5"]["ok"])
            if trace_only:
                ax.plot(*zip(*trace_only), "x--", color=line.get_color(), lw=1,
                        label=f"{info['name']}, RAF's trace alone")
    ax.set_title("Large models: raf (solid), RAF's trace alone (dashed)\n"
                 "dotted: floor = parameters + returned results")
    ax.set_xlabel("budget, % of the unoptimised peak")
    ax.set_ylabel("recomputed FLOPs, % of the training step")
    ax.set_xlim(105, 0)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)

    ax = axes[1]
    for info in small:
        if not info["report"].get("traced"):
            continue
        peak = info["report"]["peak"]
        raf = sorted((pct(r["budget"], peak), pct(r["raf"]["flops"], info["step_flops"]))
                     for r in info["rows"] if r["raf"]["ok"])
        opt = sorted((pct(r["budget"], peak), pct(exact[0], info["step_flops"]), exact[1])
                     for r in info["rows"] for exact in [exact_optimum(r["opt"])] if exact)
        color = None
        if raf:
            line, = ax.plot(*zip(*raf), "o-", label=f"{info['name']}, raf")
            color = line.get_color()
        if opt:
            xs, ys, proven = zip(*opt)
            line, = ax.plot(xs, ys, "--", color=color, label=f"{info['name']}, optimal")
            for x, y, p in opt:
                ax.plot([x], [y], "s", color=line.get_color(),
                        markerfacecolor=line.get_color() if p else "none")
    ax.set_title("Small graphs: raf (solid) vs the exact model's optimum\n"
                 "(dashed; hollow = not proven; above raf where raf's plan is outside it)")
    ax.set_xlabel("budget, % of the unoptimised peak")
    ax.set_ylabel("recomputed FLOPs, % of the training step")
    low, high = ax.get_xlim()
    ax.set_xlim(max(low, high), min(low, high))
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)


def large_tables(large):
    lines = [
        "| model | fwd ops | @train_step ops | step GFLOPs | parameters MiB | peak MiB (step, op) | "
        "floor MiB (% of peak) | after schedule MiB (%) | raf smallest budget MiB (%) | "
        "recomputed there: ops, GFLOPs (% of step) | raf smallest after schedule MiB (%) |",
        "|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|",
    ]
    for info in large:
        rep = info["report"]
        if not rep.get("traced"):
            lines.append(f"| {info['name']} | {info['forward_ops']} | not traced: "
                         f"{rep['reason']} |||||||||")
            continue
        peak = rep["peak"]
        at_min = next((r["raf"] for r in info["runs"] if r["budget"] == info.get("raf_min")),
                      None)
        sched = info["sched"] or {}
        srep = sched.get("report", {})
        lines.append(
            f"| {info['name']} | {info['forward_ops']} | {rep['steps']} | "
            f"{info['step_flops'] / 1e9:.2f} | {mib(rep['params'])} | {mib(peak)} "
            f"({rep['peak_step']}, {rep['peak_op']}) | {mib(rep['floor'])} "
            f"({pct(rep['floor'], peak):.1f}%) | "
            + (f"{mib(srep['peak'])} ({pct(srep['peak'], peak):.1f}%)" if srep.get("traced")
               else "-")
            + f" | {mib(info.get('raf_min'))} ({pct(info.get('raf_min') or 0, peak):.1f}%) | "
            + (f"{at_min['ops']}, {at_min['flops'] / 1e9:.3f} "
               f"({pct(at_min['flops'], info['step_flops']):.2f}%)" if at_min and at_min["ok"]
               else "-")
            + f" | {mib(sched.get('raf_min'))} "
            f"({pct(sched.get('raf_min') or 0, peak):.1f}%) |")
    lines.append("")
    for info in large:
        rep = info["report"]
        if not rep.get("traced"):
            continue
        peak = rep["peak"]
        lines += [
            f"**{info['name']}** (unoptimised peak {mib(peak)} MiB, step "
            f"{info['step_flops'] / 1e9:.2f} GFLOPs, min-tensor-bytes = 1 MiB):",
            "",
            "| budget | budget MiB | raf: peak MiB (% of unopt.) | recomputed ops | "
            "recomputed GFLOPs | % of step | pass ms | wall s | RAF's trace alone: peak MiB, "
            "GFLOPs (% of step) | method=optimal |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|",
        ]
        for r in info["runs"]:
            raf = r["raf"]
            if raf["ok"]:
                cells = (f"{mib(raf['peak'])} ({pct(raf['peak'], peak):.1f}%) | {raf['ops']} | "
                         f"{raf['flops'] / 1e9:.3f} | {pct(raf['flops'], info['step_flops']):.2f}")
            else:
                cells = ("INTERNAL ERROR" if raf["internal_error"] else
                         f"infeasible (smallest {mib(raf['raf_min'])})") + " | - | - | -"
            lines.append(f"| {r['label']} | {mib(r['budget'])} | {cells} | "
                         f"{raf['pass_ms']:.1f} | {raf['wall_s']:.2f} | "
                         f"{trace_only_cell(r['c5'], info['step_flops'])} | "
                         f"{optimal_cell(raf, r['opt'])} |")
        check = info.get("min_check")
        if check is not None:
            at_min = next(r["raf"] for r in info["runs"] if r["budget"] == info["raf_min"])
            lines += ["", f"The plan at raf's smallest budget ({mib(info['raf_min'])} MiB) "
                      f"reaches {mib(at_min['peak'])} MiB in the memory model; that peak as the "
                      f"budget: {'met' if check['ok'] else 'REJECTED'} "
                      f"({outcome(check, peak, info['step_flops'])})."]
        lines.append("")
    return lines


def trace_only_cell(c5, step_flops_total) -> str:
    if c5["ok"]:
        return (f"{mib(c5['peak'])}, {c5['flops'] / 1e9:.3f} "
                f"({pct(c5['flops'], step_flops_total):.2f}%)")
    if c5["raf_min"] is not None:
        return f"infeasible (smallest {mib(c5['raf_min'])})"
    return "failed"


def solve_text(opt) -> str:
    """Gecode's search time from the remark and the process's wall time."""
    solve = opt.get("solve_ms")
    return (f"{solve / 1e3:.2f} ({opt['wall_s']:.1f})" if solve is not None
            else f"- ({opt['wall_s']:.1f})")


def gap_text(g) -> str:
    return "-" if g is None else ("inf" if g == float("inf") else f"{g:+.1f}%")


def small_table(small):
    lines = [
        "| graph | ops | min-tensor-bytes | budget | budget % | raf: peak % | raf FLOPs (% of step) "
        "| RAF's trace alone: FLOPs | optimal: outcome | optimal peak % | optimal FLOPs "
        "(% of step) | proven | Gecode s (wall s) | gap raf vs optimal | gap RAF's trace alone "
        "vs optimal |",
        "|---|---:|---:|---|---:|---:|---:|---:|---|---:|---:|---|---:|---:|---:|",
    ]
    for info in small:
        rep = info["report"]
        if not rep.get("traced"):
            lines.append(f"| {info['name']} | not traced: {rep['reason']} ||||||||||||")
            continue
        peak, total = rep["peak"], info["step_flops"]
        for row in info["rows"]:
            raf, opt = row["raf"], row["opt"]
            if raf["ok"]:
                raf_cells = (f"{pct(raf['peak'], peak):.1f} | {raf['flops'] / 1e6:.2f} M "
                             f"({pct(raf['flops'], total):.2f}%)")
            else:
                raf_cells = ("INTERNAL ERROR | -" if raf["internal_error"] else
                             f"infeasible (smallest {pct(raf['raf_min'], peak):.1f}%) | -")
            if opt["internal_error"]:
                what, opt_cells, proven = "INTERNAL ERROR (plan over budget)", "- | -", "-"
            elif opt["ok"] and opt["used"].startswith("raf (cheaper than any plan"):
                # raf's plan is outside the exact model (which counts every
                # clone of a stage at once); the model's own optimum.
                if opt["model_flops"] is not None:
                    what = ("raf's plan, outside the exact model, whose "
                            + ("optimum" if opt["model_proven"] else "best plan (not proven)")
                            + " recomputes more")
                    opt_cells = (f"- | {opt['model_flops'] / 1e6:.2f} M "
                                 f"({pct(opt['model_flops'], total):.2f}%)")
                else:
                    what = ("raf's plan; the exact model has no plan" if opt["model_none"]
                            else "raf's plan; the exact model found no plan in time")
                    opt_cells = "- | -"
                proven = "yes" if opt["model_proven"] or opt["model_none"] else "no"
            elif opt["ok"] and not opt["fallback"]:
                raf_plan = opt["used"].startswith("raf")
                if opt["proven"]:
                    what = "raf's plan, proven optimal" if raf_plan else "optimal"
                else:
                    what = ("raf's plan, nothing cheaper found (time limit)" if raf_plan
                            else "best found (time limit)")
                opt_cells = (f"{pct(opt['peak'], peak):.1f} | {opt['flops'] / 1e6:.2f} M "
                             f"({pct(opt['flops'], total):.2f}%)")
                proven = "yes" if opt["proven"] else "no"
            elif opt["fallback"]:
                what = "no plan in time, fell back to raf" + (
                    "" if opt["ok"] else " (infeasible for raf)")
                opt_cells, proven = "- | -", "-"
            elif opt["opt_infeasible"]:
                what = ("infeasible; smallest " + ("" if opt["opt_min_proven"] else "at most ")
                        + f"{pct(opt['opt_min'], peak):.1f}%" if opt["opt_min"] is not None
                        else "infeasible")
                opt_cells = "- | -"
                proven = "yes" if opt["opt_min_proven"] else "no (bound)"
            else:
                what, opt_cells, proven = "failed: " + opt.get("error", "")[:80], "- | -", "-"
            c5 = row["c5"]
            c5_cell = (f"{c5['flops'] / 1e6:.2f} M" if c5["ok"] else
                       f"infeasible (smallest {pct(c5['raf_min'], peak):.1f}%)"
                       if c5["raf_min"] is not None else "failed")

            lines.append(
                f"| {info['name']} | {rep['steps']} | {info['mtb']} | {row['label']} | "
                f"{pct(row['budget'], peak):.1f} | {raf_cells} | {c5_cell} | {what} | {opt_cells} "
                f"| {proven} | {solve_text(opt)} | {gap_text(gap(row))} | "
                f"{gap_text(gap(row, 'c5'))} |")
    return lines


def assessment(large, small, args):
    lines = []
    bert = [i for i in large if i["name"].startswith("BERT-base") and i["report"].get("traced")]
    for info in bert:
        peak = info["report"]["peak"]
        smallest = info.get("raf_min")
        at_min = next((r["raf"] for r in info["runs"] if r["budget"] == smallest), None)
        flops_pct = pct(at_min["flops"], info["step_flops"]) if at_min and at_min["ok"] else None
        met = (smallest is not None and pct(smallest, peak) <= TARGET_BUDGET_PCT
               and flops_pct is not None and flops_pct < TARGET_FLOPS_PCT)
        floor_pct = pct(info["report"]["floor"], peak)
        lines.append(
            f"- **Aim: smallest feasible budget <= {TARGET_BUDGET_PCT:.0f}% of the unoptimised "
            f"peak on BERT-base with < {TARGET_FLOPS_PCT:.0f}% extra FLOPs** ({info['name']}): "
            f"{'met' if met else 'MISSED'}. raf's smallest budget is {mib(smallest)} MiB = "
            f"{pct(smallest or 0, peak):.1f}% of {mib(peak)} MiB"
            + (f", recomputing {flops_pct:.2f}% of the step's FLOPs" if flops_pct is not None
               else "")
            + f". No method can go below {floor_pct:.1f}% in this memory model: the parameters "
            f"({pct(info['report']['params'], peak):.1f}%) are live throughout and the updated "
            f"parameters ({pct(info['report']['returned'], peak):.1f}%) are results, live to the "
            f"end.")
    timed = [(r["raf"]["pass_ms"], r["raf"]["wall_s"], info["name"]) for info in large
             for r in info["runs"]]
    if timed:
        slowest = max(timed)
        lines.append(f"- Pass time on the large models: every `--raf-rematerialize` run "
                     f"(method=raf, including the bisection of a failing budget) took at most "
                     f"{slowest[0]:.1f} ms in the pass ({slowest[2]}); the slowest `raf-opt` "
                     f"process {max(t[1] for t in timed):.2f} s.")
    gaps = [(info["name"], row["label"], gap(row), exact_optimum(row["opt"])[1])
            for info in small for row in info["rows"] if gap(row) is not None]
    proven = [g for g in gaps if g[3]]
    unproven = [g for g in gaps if not g[3]]

    def listing(items):
        return ", ".join(f"{n} at {label}: {value:+.1f}%" for n, label, value, _ in items)

    if gaps:
        within = [g for g in proven if g[2] <= TARGET_GAP_PCT]
        beyond = [g for g in proven if g[2] > TARGET_GAP_PCT]
        verdict = ("met" if proven and not beyond else
                   "MISSED" if beyond else "not assessable")
        lines.append(
            f"- **Aim: raf within {TARGET_GAP_PCT:.0f}% of optimal in recomputed FLOPs where both "
            f"run**: {verdict}. {len(gaps)} budgets where both produced a plan; optimality "
            f"proven in {len(proven)}, raf within {TARGET_GAP_PCT:.0f}% of the proven optimum "
            f"in {len(within)} of them"
            + (f" ({listing(within)})" if within else "")
            + (f" and more than {TARGET_GAP_PCT:.0f}% above it in {len(beyond)} "
               f"({listing(beyond)})" if beyond else "")
            + "."
            + (f" Where Gecode stopped at the time limit its best plan only bounds the optimum "
               f"from above, so these gaps may understate raf's: {listing(unproven)}."
               if unproven else ""))
        c5_gaps = [(info["name"], row["label"], gap(row, "c5"), exact_optimum(row["opt"])[1])
                   for info in small for row in info["rows"] if gap(row, "c5") is not None]
        c5_within = [g for g in c5_gaps if g[3] and g[2] <= TARGET_GAP_PCT]
        lines.append(
            f"- RAF's trace alone (`{RAF_TRACE_ONLY}`, RAF's algorithm exactly) is within "
            f"{TARGET_GAP_PCT:.0f}% of the proven optimum in {len(c5_within)} of "
            f"{sum(1 for g in c5_gaps if g[3])} budgets where both produced a plan"
            + (f" ({listing(c5_gaps)})" if c5_gaps else "") + ".")
    else:
        lines.append(f"- **Aim: raf within {TARGET_GAP_PCT:.0f}% of optimal**: not assessable: "
                     "no budget where both methods produced a plan of their own.")
    runs = [row for info in small for row in info["rows"]]
    no_plan = [row for row in runs if row["opt"]["no_plan_in_time"]]
    agree = [(info["name"], row) for info in small for row in info["rows"]
             if row["opt"]["opt_infeasible"] and row["opt"]["opt_min_proven"]]
    outside = [r for r in runs if r["opt"]["ok"]
               and r["opt"]["used"].startswith("raf (cheaper than any plan")]
    exact = [(r, exact_optimum(r["opt"])) for r in runs]
    proven_plans = [r for r, e in exact if e and e[1] and r not in outside]
    solve_times = sorted(r["opt"]["solve_ms"] for r in proven_plans
                         if r["opt"].get("solve_ms") is not None)
    unproven_plans = sum(1 for r, e in exact if e and not e[1])
    model_more = sum(1 for r in outside if r["opt"]["model_flops"] is not None)
    lines.append(
        f"- method=optimal over {len(runs)} small-graph budgets: its own plan, proven optimal, "
        f"{len(proven_plans)} times"
        + (f" (Gecode {solve_times[0] / 1e3:.2f}-{solve_times[-1] / 1e3:.2f} s)"
           if solve_times else "")
        + f"; raf's plan, which the exact model cannot express and no plan of it matches, "
        f"{len(outside)} times (the model's own optimum recomputes more {model_more} times, "
        f"the model has no plan for the budget {len(outside) - model_more} times); a plan not "
        f"proven optimal {unproven_plans} times; no plan within the time limit (fallback to "
        f"raf) {len(no_plan)} times; a proven infeasible budget {len(agree)} times"
        + (" (" + "; ".join(
            f"{n} at {', '.join(row['label'] for m, row in agree if m == n)}: smallest budget "
            f"{mib(rows[0]['opt']['opt_min'])} MiB, raf's {mib(rows[0]['raf']['raf_min'])} MiB"
            for n, rows in ((n, [row for m, row in agree if m == n])
                            for n in dict.fromkeys(n for n, _ in agree))) + ")"
           if agree else "")
        + ".")
    loose = [(info["name"], info["raf_min"], info["min_check"]) for info in large
             if info.get("min_check") and not info["min_check"]["ok"]]
    for name, smallest, check in loose:
        at_min = next(r["raf"] for i in large if i["name"] == name for r in i["runs"]
                      if r["budget"] == smallest)
        lines.append(
            f"- {name}: raf's reported smallest budget ({mib(smallest)} MiB) is not tight: its "
            f"plan reaches {mib(at_min['peak'])} MiB in the memory model, yet that as the budget "
            "is rejected (the heuristic's own accounting is more conservative than the memory "
            "model's).")
    both_infeasible = [(info["name"], row["label"]) for info in small for row in info["rows"]
                       if not row["raf"]["ok"] and row["opt"]["ok"] and not row["opt"]["fallback"]]
    if both_infeasible:
        lines.append("- Budgets optimal meets and raf does not: " + ", ".join(
            f"{n} at {label}" for n, label in both_infeasible) + ".")
    errors = [(info["name"], row["label"], m) for info in small for row in info["rows"]
              for m in ("raf", "opt") if row[m]["internal_error"]]
    errors += [(info["name"], r["label"], m) for info in large for r in info["runs"]
               for m in ("raf", "opt") if r[m]["internal_error"]]
    if errors:
        lines.append("- Internal errors (a plan that does not meet its budget in the memory "
                     "model): " + ", ".join(f"{n} at {label} (method="
                                            f"{'optimal' if m == 'opt' else m})"
                                            for n, label, m in errors)
                     + "; see \"Problems found in the passes\" in bench/memory/README.md.")
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smoke run")
    parser.add_argument("--time-limit-ms", type=int, default=None,
                        help="Gecode's limit per search (default 30000, --quick 2000)")
    parser.add_argument("--bert-batches", default=None, help="default 1,8,32 (--quick: 1)")
    parser.add_argument("--out", default=None)
    parser.add_argument("--plot", default=None)
    parser.add_argument("--keep", help="keep the .mlir files in this directory")
    args = parser.parse_args()
    if args.time_limit_ms is None:
        args.time_limit_ms = 2000 if args.quick else 30000
    if args.bert_batches is None:
        args.bert_batches = "1" if args.quick else "1,8,32"
    scratch = pathlib.Path(tempfile.gettempdir())
    out = pathlib.Path(args.out or (scratch / "raf-memory-quick.md" if args.quick
                                    else ROOT / "bench/results/memory.md"))
    png = pathlib.Path(args.plot or out.with_suffix(".png"))
    if not AUTODIFF.raf_opt().exists():
        sys.exit(f"{AUTODIFF.raf_opt()} is not built (scripts/build.sh raf-opt)")
    large_pct = [100, 90, 70, 50] if args.quick else [100, 95, 90, 80, 70, 60, 50, 40, 30, 20, 10]
    small_pct = [95, 85] if args.quick else [95, 90, 85, 80]
    workdir = pathlib.Path(args.keep or tempfile.mkdtemp(prefix="raf-memory-bench-"))
    workdir.mkdir(parents=True, exist_ok=True)
    print(f"raf-opt: {AUTODIFF.raf_opt()}; files in {workdir}", flush=True)
    started = time.perf_counter()
    try:
        large = [measure_large(name, mk, inputs, workdir, args, large_pct)
                 for name, mk, inputs in large_models(int(b) for b in
                                                       args.bert_batches.split(","))]
        small = [measure_small(name, mk, inputs, mtb, workdir, args, small_pct)
                 for name, mk, inputs, mtb in small_models(args.quick)]
    finally:
        if not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)
    elapsed = time.perf_counter() - started

    plot(large, small, png)
    try:
        plot_link = png.relative_to(out.parent)
    except ValueError:
        plot_link = png
    lines = [
        "# Peak memory and rematerialisation of training steps",
        "",
        f"Machine: {AUTODIFF.machine_info()}.",
        "",
        f"Produced by `bench/memory/run.py{' --quick' if args.quick else ''}` "
        f"(see bench/memory/README.md) in {elapsed / 60:.1f} min. Models are imported by the "
        "torch frontend in training mode and turned into `@train_step` (forward, backward, SGD "
        "update) by `--raf-training-pipeline` with the parameters as `requires-grad`; every "
        "number is the memory model's (docs/memory.md: parameters live throughout, each op "
        "result a buffer from its op to its last use, returned values to the end). Budgets "
        "are % of the unoptimised peak of `@train_step`; recomputed FLOPs are % of the step's "
        "FLOPs (`--relay-print-op-properties=totals=1`). *Floor* = parameters + returned "
        "results, a lower bound on the peak of any rematerialisation (both are live at the "
        "last op whatever is recomputed). *pass ms*: `RafRematerialize` in `--mlir-timing` "
        "(including its bisection for the smallest budget when the budget fails); *wall s*: "
        "the `raf-opt` process.",
        "",
        f"![trade-off]({plot_link})",
        "",
        "## Large models (method=raf; method=optimal falls back to raf)",
        "",
        *large_tables(large),
        "## raf vs optimal on small graphs",
        "",
        f"Gecode time limit {args.time_limit_ms} ms per search (an infeasible budget then runs "
        "a bisection of feasibility searches, sharing another limit, for the smallest budget); "
        "`optimal-max-ops` = the step's op count. *gap* = (raf FLOPs - optimal FLOPs) / "
        "optimal FLOPs where both produced a plan; *proven*: Gecode proved that no plan of the "
        "exact model recomputes fewer FLOPs (`raf.remat.optimal_proven`); *Gecode s*: the "
        "search time in the pass's remark, *wall s*: the whole `raf-opt` process of "
        "method=optimal.",
        "",
        *small_table(small),
        "",
        "## Assessment",
        "",
        *assessment(large, small, args),
        "",
    ]
    text = "\n".join(lines)
    print()
    print(text)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text)
    print(f"written to {out} and {png}")


if __name__ == "__main__":
    main()
