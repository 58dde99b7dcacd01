#!/usr/bin/python3
"""Validity-driven auto-tuning of VTA schedules (Rieber 2022, chapter 5) on
the 13 DeepBench layers of Tab. 5.1, with the cycle model standing in for
the FPGA.

Per layer the driver runs ``raf-tune`` (tools/raf-tune):

    raf-tune space   --conv=...            knobs, size, valid ratio (Tab. 5.1)
    raf-tune truth   --conv=... --cache=D  cycles of every configuration,
                                           computed once and cached
    raf-tune tune    --tuner=T --runs=R    autotvm, validity (full, no SSDM,
                                           no BSA) and random (Tab. 5.4)
    raf-tune analyse                       clusters (Eq. 5.1), model accuracy
                                           and nDCG vs. valid ratio (Figs. 5.2,
                                           5.3)

and writes bench/results/tuning.md (tables with the dissertation's numbers
beside ours), bench/results/tuning.json (every run without curves) and the
plots tuning-model.png and tuning-convergence.png.

Usage: bench/tuning/run.py [--quick] [--layers 8,48] [--runs 20]
                           [--jobs 2] [--cache DIR] [--out FILE]
See bench/tuning/README.md.
"""

import argparse
import concurrent.futures
import json
import os
import pathlib
import re
import subprocess
import sys
import time

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))
from machine import machine_info  # noqa: E402

DEEPBENCH = ROOT / "bench" / "embedding" / "deepbench_108.tsv"
LAYERS = [3, 5, 8, 17, 42, 48, 53, 59, 76, 78, 92, 106, 107]
QUICK_LAYERS = [8, 48, 107]

# Tab. 5.1: search-space size and valid ratio.
PAPER_SPACE = {3: (768, 0.06), 5: (3072, 0.068), 8: (9216, 0.067),
               17: (20480, 0.027), 42: (9216, 0.047), 48: (2240, 0.151),
               53: (18433, 0.035), 59: (6145, 0.008), 76: (14400, 0.088),
               78: (15361, 0.099), 92: (28800, 0.082), 106: (7169, 0.122),
               107: (6144, 0.231)}
# Tab. 5.4: convergence (median trials to best) and robustness (IQR)
# relative to AutoTVM, for full / no SSDM / no BSA.
PAPER_T54 = {
    3: (0.305, 0.223, 0.308, 0.345, 0.282, 0.452),
    5: (0.460, 0.668, 0.540, 0.362, 0.426, 0.289),
    8: (0.433, 0.548, 0.412, 0.375, 0.453, 0.288),
    17: (0.438, 0.479, 0.537, 0.580, 0.593, 0.491),
    42: (0.319, 0.312, 0.455, 0.177, 0.157, 0.408),
    48: (0.270, 0.390, 0.284, 0.333, 0.251, 0.350),
    53: (0.480, 0.491, 0.571, 0.333, 0.367, 0.599),
    59: (0.120, 0.111, 0.120, 0.861, 1.238, 0.879),
    76: (0.460, 0.530, 0.493, 0.251, 0.364, 0.325),
    78: (0.447, 0.557, 0.457, 0.176, 0.353, 0.271),
    92: (0.492, 0.518, 0.604, 0.269, 0.453, 0.194),
    106: (0.403, 0.720, 0.456, 0.631, 0.938, 0.788),
    107: (0.786, 0.735, 0.857, 0.815, 1.164, 1.178),
}
PAPER_T54_MEAN = (0.416, 0.483, 0.469, 0.424, 0.541, 0.501)
# Tab. 5.6: overheads in seconds (knob features, context-relation features,
# presampling, sample selection, pre-training).
PAPER_T56 = {78: (77.8, 656.8, 416.8, 13.4, 512.8),
             8: (77.5, 1118.7, 375.5, 13.0, 839.9),
             92: (88.4, 1139.7, 396.0, 11.7, 653.7)}

# Tab. 5.5: pre-trained (transfer-learning) AutoTVM relative to the untrained
# baseline, convergence and robustness (10 runs).
PAPER_T55 = {3: (1.213, 0.649), 5: (2.085, 1.914), 8: (0.193, 0.027),
             17: (0.388, 0.164), 42: (0.207, 0.065), 48: (0.501, 0.448),
             53: (0.365, 0.227), 59: (0.937, 5.386), 76: (0.953, 0.171),
             78: (1.189, 0.542), 92: (1.618, 0.615), 106: (1.487, 1.226),
             107: (0.624, 0.302)}
PAPER_T55_MEAN = (0.905, 0.903)

VARIANTS = [("autotvm", ["--tuner=autotvm"]),
            ("full", ["--tuner=validity"]),
            ("no_ssdm", ["--tuner=validity", "--no-ssdm"]),
            ("no_bsa", ["--tuner=validity", "--no-bsa"]),
            ("random", ["--tuner=random"])]
CURVE_VARIANTS = ("autotvm", "full")


def deepbench_convs():
    convs = {}
    for line in DEEPBENCH.read_text().splitlines()[1:]:
        (i, w, h, c, n, k, s, r, pad_w, pad_h, ws, hs) = map(int, line.split())
        # raf-tune's order: N,C,H,W,OC,KH,KW,padH,padW,strideH,strideW.
        convs[i] = dict(n=n, c=c, h=h, w=w, oc=k, kh=r, kw=s, pad_h=pad_h,
                        pad_w=pad_w, sh=hs, sw=ws)
    return convs


def conv_arg(cv):
    return "--conv=" + ",".join(str(cv[k]) for k in (
        "n", "c", "h", "w", "oc", "kh", "kw", "pad_h", "pad_w", "sh", "sw"))


def shape_text(cv):
    return (f"{cv['n']}x{cv['c']}x{cv['h']}x{cv['w']} * {cv['oc']}x{cv['kh']}x{cv['kw']}"
            f" p{cv['pad_h']},{cv['pad_w']} s{cv['sh']},{cv['sw']}")


def log(msg):
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def raf_tune(args, extra, layer, what, progress=False):
    """Runs raf-tune; with `progress`, its stderr (the ground truth's
    progress lines) goes straight to ours."""
    cmd = ["nice", "-n", str(args.nice), str(args.tool), *extra]
    env = dict(os.environ, OMP_NUM_THREADS="1")
    start = time.perf_counter()
    proc = subprocess.run(cmd, stdout=subprocess.PIPE,
                          stderr=None if progress else subprocess.PIPE, text=True, env=env)
    if proc.returncode != 0:
        detail = "see the output above" if progress else proc.stderr.strip()[-500:]
        raise RuntimeError(f"layer {layer} {what}: {detail}")
    lines = [json.loads(x) for x in proc.stdout.splitlines() if x.strip()]
    log(f"layer {layer}: {what} done in {time.perf_counter() - start:.0f} s")
    return lines


def summarise_runs(lines, trials):
    """Median and IQR of trials to the best configuration; runs that never
    reach it count as `trials` (censored) and are counted."""
    to_best = [x["trials_to_best"] if x["trials_to_best"] is not None else trials
               for x in lines]
    missed = sum(x["trials_to_best"] is None for x in lines)
    within = [x["trials_to_1pct"] for x in lines if x["trials_to_1pct"] is not None]
    q1, med, q3 = np.percentile(to_best, [25, 50, 75])
    s = {"median": float(med), "iqr": float(q3 - q1), "missed": missed,
         "runs": len(lines),
         "within_1pct_all": len(within) == len(lines),
         "median_to_1pct": float(np.median(within)) if within else None,
         "train_seconds": float(np.mean([x["train_seconds"] for x in lines])),
         "anneal_seconds": float(np.mean([x["anneal_seconds"] for x in lines])),
         "selection_seconds": float(np.mean([x["selection_seconds"] for x in lines])),
         "presample_oracle_seconds": float(np.mean(
             [x["presample_oracle_seconds"] for x in lines])),
         "best_cycles_median": float(np.median(
             [x["best_cycles"] for x in lines if x["best_cycles"] is not None]
             or [float("nan")]))}
    # Overheads of Tab. 5.6 and the scale of the model's scores, in runs of a
    # raf-tune that reports them.
    if lines and "trainings" in lines[0]:
        s["feature_seconds"] = float(np.mean([x["feature_seconds"] for x in lines]))
        per_epoch = [x["train_seconds"] / x["trainings"] for x in lines if x["trainings"]]
        s["train_seconds_per_epoch"] = float(np.mean(per_epoch)) if per_epoch else None
        spreads = [x["prediction_spread"] for x in lines if x.get("prediction_spread")]
        if spreads:
            # Per run the mean over its models of the 5th/95th percentiles of
            # their scores; the median over runs.
            s["prediction_p05"] = float(np.median([np.mean([p[0] for p in sp]) for sp in spreads]))
            s["prediction_p95"] = float(np.median([np.mean([p[1] for p in sp]) for sp in spreads]))
    # Model-proposed plans: AutoTVM's annealing returns only configurations
    # scored >= 0, and the batch is topped up at random.
    plans = [n for x in lines for n in x.get("plan_sizes", [])]
    if plans:
        s["plan_mean"] = float(np.mean(plans))
    curves = [x.get("curve") for x in lines if x.get("curve")]
    if curves:
        opt = lines[0]["optimum_cycles"]
        arr = np.array([[c / opt if c is not None else np.nan for c in curve]
                        for curve in curves], dtype=float)
        # Median over runs of best-so-far / optimum (nan until valid).
        s["curve"] = [None if np.isnan(v) else round(float(v), 5)
                      for v in np.nanmedian(np.where(np.isnan(arr), np.inf, arr), axis=0)]
    return s


def layer_job(args, layer, cv):
    base = [conv_arg(cv), f"--cache={args.cache}", f"--validity={args.validity}"]
    res = {"layer": layer, "shape": shape_text(cv), "validity": args.validity}
    res["space"] = raf_tune(args, ["space", conv_arg(cv), f"--validity={args.validity}"],
                            layer, "space")[0]
    if args.validity != "schedule":
        res["space_schedule"] = raf_tune(args, ["space", conv_arg(cv), "--validity=schedule"],
                                         layer, "space (schedule check)")[0]
    res["truth"] = raf_tune(args, ["truth", *base], layer, "ground truth", progress=True)[0]
    if res["truth"]["valid"] == 0:
        res["error"] = "no valid configuration"
        return res
    res["tuners"] = {}
    for name, flags in VARIANTS:
        if args.tuners and name not in args.tuners:
            continue
        extra = ["tune", *base, *flags, f"--runs={args.runs}", f"--trials={args.trials}",
                 f"--epoch={args.epoch}", f"--seed={args.seed}"]
        if name in CURVE_VARIANTS:
            extra.append("--curves")
        lines = raf_tune(args, extra, layer, f"tune {name} x{args.runs}")
        res["tuners"][name] = {"summary": summarise_runs(lines, args.trials),
                               "runs": [{k: v for k, v in x.items()
                                         if k not in ("curve", "prediction_spread")}
                                        for x in lines]}
    if not args.no_analyse:
        res["analyse"] = raf_tune(args, ["analyse", *base, f"--repeats={args.repeats}",
                                         f"--seed={args.seed}"], layer, "analyse")
    return res


def transfer_job(args, layer, convs):
    """Tab. 5.5: AutoTVM with a base model pre-trained on the other
    layers of Tab. 5.1 (the layer's own data excluded, as §5.1.3.2)."""
    others = ";".join(conv_arg(convs[x])[len("--conv="):] for x in LAYERS if x != layer)
    extra = ["tune", conv_arg(convs[layer]), f"--cache={args.cache}",
             f"--validity={args.validity}", "--tuner=autotvm", f"--pretrain-on={others}",
             f"--pretrain-samples={args.pretrain_samples}", f"--runs={args.transfer_runs}",
             f"--trials={args.trials}", f"--epoch={args.epoch}", f"--seed={args.seed}"]
    lines = raf_tune(args, extra, layer, f"tune pretrained x{args.transfer_runs}")
    s = summarise_runs(lines, args.trials)
    s["pretrain_seconds"] = lines[0]["pretrain_seconds"]
    s["pretrain_samples"] = lines[0]["pretrain_samples"]
    s["trials_to_best"] = [x["trials_to_best"] for x in lines]
    return s


def ratio(a, b):
    return a / b if b else float("nan")


def trials_to_best(runs, trials):
    return np.array([x["trials_to_best"] if x["trials_to_best"] is not None else trials
                     for x in runs], dtype=float)


def iqr(values):
    q1, q3 = np.percentile(values, [25, 75])
    return float(q3 - q1)


def mean_ratios(layers, trials, tuner="full"):
    """The means over layers of Tab. 5.4's convergence and robustness
    ratios of `tuner` against AutoTVM; `layers` maps a layer to its
    (AutoTVM, tuner) trials-to-best arrays. Ratios with an AutoTVM IQR of 0
    are left out, as in the table."""
    conv, rob = [], []
    for base, new in layers.values():
        conv.append(np.median(new) / np.median(base))
        b = iqr(base)
        if b > 0:
            rob.append(iqr(new) / b)
    return float(np.mean(conv)), float(np.mean(rob))


def bootstrap_ratios(layers, trials, resamples=2000, seed=0):
    """5th and 95th percentiles of the mean ratios when each layer's runs
    of each tuner are resampled with replacement: how much the means of
    20 runs per layer move by chance."""
    rng = np.random.default_rng(seed)
    conv, rob = [], []
    for _ in range(resamples):
        drawn = {k: (rng.choice(a, len(a)), rng.choice(b, len(b)))
                 for k, (a, b) in layers.items()}
        c, r = mean_ratios(drawn, trials)
        conv.append(c)
        rob.append(r)
    return np.percentile(conv, [5, 95]), np.percentile(rob, [5, 95])


def all_within_1pct(runs):
    return all(x["trials_to_1pct"] is not None for x in runs)


def fmt(v, digits=3):
    if v is None or (isinstance(v, float) and np.isnan(v)):
        return "-"
    return f"{v:.{digits}f}"


def rule_text(rule):
    """raf-tune reports each violated rule with its numbers left out; show
    the gaps as N."""
    text = re.sub(r" (?=[ ,])", " N", rule.strip())
    return re.sub(r" (not|of|holds)$", r" \1 N", text)


def yes_no(tuner):
    return "yes" if all_within_1pct(tuner["runs"]) else "no"


def robustness_noise(ok, args):
    """How far the means of Tab. 5.4 move by chance: a bootstrap over the
    runs, and the replicate campaigns with other seeds (--replicate)."""
    out = []
    layers = {r["layer"]: (trials_to_best(r["tuners"]["autotvm"]["runs"], args.trials),
                           trials_to_best(r["tuners"]["full"]["runs"], args.trials))
              for r in ok}
    e = args.epoch
    out += ["### Where the spread comes from", "",
            f"Runs by the epoch in which they reach the optimum (E0 = trials 1-{e}, the "
            "validity-driven tuner's presampled first epoch, AutoTVM's random one; E1-E2 = "
            f"trials {e + 1}-{3 * e}; later), with the quartiles of trials to the optimum. "
            "Where E0 holds the optimum in some runs but not in others, the distribution "
            "is bimodal and its IQR spans from E0 to the model-driven epochs; otherwise "
            "the IQR is the spread over the model-driven epochs, as AutoTVM's.", "",
            "| Layer | Full: E0 / E1-E2 / later | Full Q1-Q3 | AutoTVM: E0 / E1-E2 / later "
            "| AutoTVM Q1-Q3 | Rob. full |", "|---|---|---|---|---|---|"]
    for k, (base, new) in layers.items():
        def split(x):
            return (f"{int(np.sum(x <= e))} / {int(np.sum((x > e) & (x <= 3 * e)))} / "
                    f"{int(np.sum(x > 3 * e))}")

        def quartiles(x):
            q1, q3 = np.percentile(x, [25, 75])
            return f"{q1:.0f}-{q3:.0f}"
        out.append(f"| {k} | {split(new)} | {quartiles(new)} | {split(base)} | "
                   f"{quartiles(base)} | {fmt(ratio(iqr(new), iqr(base)))} |")
    out.append("")
    (c5, c95), (r5, r95) = bootstrap_ratios(layers, args.trials)
    out += ["### How much of Tab. 5.4 is chance", "",
            f"Bootstrap over the runs (each layer's {args.runs} runs of AutoTVM and of the "
            "full tuner drawn with replacement, 2000 times): the mean convergence ratio "
            f"lies between {c5:.3f} and {c95:.3f}, the mean robustness ratio between "
            f"{r5:.3f} and {r95:.3f} (5th-95th percentiles). An IQR of 20 runs is a "
            "noisy statistic, and a ratio of two of them more so; the dissertation's 20 "
            "runs per layer carry the same uncertainty.", ""]
    reps = []
    for path in args.replicate or []:
        data = {r["layer"]: r for r in json.loads(pathlib.Path(path).read_text())
                if "tuners" in r}
        seed = next((x["runs"][0]["seed"] for r in data.values()
                     for x in [r["tuners"]["full"]]), None)
        reps.append((pathlib.Path(path).name, seed, data))
    if not reps:
        return out
    main_seed = ok[0]["tuners"]["full"]["runs"][0]["seed"]
    head = ["Layer", f"Rob. full, seeds {main_seed}+"]
    head += [f"Rob. full, seeds {seed}+" for _, seed, _ in reps]
    head += ["Rob. pooled", f"Conv. full, seeds {main_seed}+"]
    head += [f"Conv. full, seeds {seed}+" for _, seed, _ in reps]
    head += ["Conv. pooled", "Rob. paper"]
    out += [f"Replicate campaigns with other seeds ({', '.join(n for n, _, _ in reps)}; "
            "same code, tuners and ground truths): the ratios of the full tuner per "
            "campaign and for all runs pooled.", "",
            "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    campaigns = [layers] + [
        {k: (trials_to_best(d[k]["tuners"]["autotvm"]["runs"], args.trials),
             trials_to_best(d[k]["tuners"]["full"]["runs"], args.trials))
         for k in layers if k in d} for _, _, d in reps]
    pooled = {k: (np.concatenate([c[k][0] for c in campaigns if k in c]),
                  np.concatenate([c[k][1] for c in campaigns if k in c])) for k in layers}
    for k in layers:
        def rob(c):
            return fmt(ratio(iqr(c[k][1]), iqr(c[k][0]))) if k in c else "-"

        def conv(c):
            return fmt(ratio(np.median(c[k][1]), np.median(c[k][0]))) if k in c else "-"
        cells = [rob(c) for c in campaigns] + [rob(pooled)]
        cells += [conv(c) for c in campaigns] + [conv(pooled)]
        out.append(f"| {k} | " + " | ".join(cells) + f" | {PAPER_T54[k][3]} |")
    means = [mean_ratios({k: v for k, v in c.items()}, args.trials) for c in campaigns]
    pm = mean_ratios(pooled, args.trials)
    complete = all(len(c) == len(layers) for c in campaigns)
    out.append("| Mean | " + " | ".join(f"**{m[1]:.3f}**" for m in means)
               + f" | **{pm[1]:.3f}** | " + " | ".join(f"**{m[0]:.3f}**" for m in means)
               + f" | **{pm[0]:.3f}** | 0.424 |")
    if not complete:
        out.append("")
        out.append("(A replicate campaign does not cover every layer; its mean is over the "
                   "layers it has.)")
    out.append("")
    return out


def tables(results, args):
    out = []
    ok = [r for r in results if "tuners" in r]
    # Tab. 5.1
    out += ["## Tab. 5.1: search spaces", "",
            "Size = product of the knob sizes (TVM's VTA conv2d template knobs and the "
            "4-valued permutation). Valid = passes the validity rules of the run: "
            + ("`checkSchedule` (the static check; every configuration that passes it also "
               "builds and simulates here)" if args.validity == "schedule" else
               "`checkSchedule` and TVM's pipeline rules (`--validity=tvm`: every tile copy "
               "one 2D DMA as TVM's InjectDMAIntrin folds it, padding loads of one channel "
               "block, thread counts dividing the loops they split; docs/tuning.md)")
            + ". Valid (schedule) = passes `checkSchedule` alone (what our code generation "
            "builds and the hardware model runs). "
            "Check = measured cost of one validity query (the dissertation's compile-based "
            "check: about 0.5 s).", "",
            "| Layer | Shape (NxCxHxW * OCxKHxKW) | Size | Size (paper) | Valid ratio | "
            "Valid (schedule) | "
            "Valid ratio (paper) | Check (us/query) | Ground truth (s) | Optimum (cycles) |",
            "|---|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        sp, tr = r["space"], r.get("truth", {})
        ps, pv = PAPER_SPACE[r["layer"]]
        sched = r.get("space_schedule", sp)
        out.append(f"| {r['layer']} | {r['shape']} | {sp['size']} | {ps} | "
                   f"{fmt(tr.get('valid_ratio'))} | {fmt(sched.get('check_valid_ratio'))} | {pv} | "
                   f"{fmt(1e6 * sp['check_seconds_per_query'], 1)} | "
                   f"{fmt(tr.get('measure_seconds'), 0)} | {fmt(tr.get('optimum_cycles'), 0)} |")
    vr = [r["truth"]["valid_ratio"] for r in results if "truth" in r]
    if vr:
        out.append(f"\nMean valid ratio {np.mean(vr):.3f} (min {min(vr):.3f}, max "
                   f"{max(vr):.3f}); the dissertation: 0.083 (0.008, 0.231).")
        sv = [r["space_schedule"]["check_valid_ratio"] for r in results if "space_schedule" in r]
        if sv:
            out.append(f"Under the schedule check alone: mean {np.mean(sv):.3f} (min "
                       f"{min(sv):.3f}, max {max(sv):.3f}).")
    out.append("")
    out.append("Invalid configurations by the rule the check reports first "
               "(N stands for the numbers of each configuration):\n")
    for r in results:
        reasons = r["space"].get("invalid_reasons", {})
        total = sum(reasons.values()) or 1
        parts = [f"{rule_text(k)}: {v / total:.0%}" for k, v in
                 sorted(reasons.items(), key=lambda kv: -kv[1])]
        out.append(f"* layer {r['layer']}: " + ("; ".join(parts) or "none"))
    out.append("")

    # Eq. 5.1 clusters
    out += ["## §5.1.1: cluster structure (Eq. 5.1)", "",
            "Connected components of the configurations at Manhattan distance 1 with "
            "the same validity (edges between a valid and an invalid configuration "
            "removed). The dissertation found exactly one valid and one invalid "
            "segment for every layer.", "",
            "| Layer | Valid | Valid components | Largest valid component | Invalid components |",
            "|---|---|---|---|---|"]
    for r in results:
        cl = next((x for x in r.get("analyse", []) if x["kind"] == "clusters"), None)
        if cl:
            out.append(f"| {r['layer']} | {cl['valid']} | {cl['valid_components']} | "
                       f"{cl['largest_valid']} | {cl['invalid_components']} |")
    out.append("")

    # Tab. 5.4
    out += ["## Tab. 5.4: convergence and robustness relative to AutoTVM", "",
            f"{args.runs} runs per layer and tuner, {args.trials} trials in epochs of "
            f"{args.epoch}. Convergence = median trials to the best configuration of the "
            "layer (ground-truth optimum), robustness = its IQR; a run that never finds it "
            f"counts as {args.trials} trials. Ours / paper.", "",
            "| Layer | AutoTVM median (IQR) | Full median (IQR) | Conv. full | No SSDM | No BSA "
            "| Rob. full | No SSDM | No BSA | Random median | missed (AutoTVM/full) "
            "| to 1%: AutoTVM / full | all runs within 1% by "
            f"{args.trials}: AutoTVM / full |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    cols = {k: [] for k in range(6)}
    for r in ok:
        t = {k: v["summary"] for k, v in r["tuners"].items()}
        for name, _ in VARIANTS:
            t.setdefault(name, {"median": float("nan"), "iqr": float("nan"), "missed": "-",
                                "median_to_1pct": None})
        base = t["autotvm"]
        vals = [ratio(t["full"]["median"], base["median"]),
                ratio(t["no_ssdm"]["median"], base["median"]),
                ratio(t["no_bsa"]["median"], base["median"]),
                ratio(t["full"]["iqr"], base["iqr"]),
                ratio(t["no_ssdm"]["iqr"], base["iqr"]),
                ratio(t["no_bsa"]["iqr"], base["iqr"])]
        for k, v in enumerate(vals):
            cols[k].append(v)
        p = PAPER_T54[r["layer"]]
        cells = [f"{fmt(v)} / {p[k]}" for k, v in enumerate(vals)]
        out.append(f"| {r['layer']} | {base['median']:.0f} ({base['iqr']:.0f}) | "
                   f"{t['full']['median']:.0f} ({t['full']['iqr']:.0f}) | "
                   + " | ".join(cells)
                   + f" | {fmt(t['random']['median'], 0)} | {base['missed']}/{t['full']['missed']} "
                   f"| {fmt(base['median_to_1pct'], 0)} / {fmt(t['full']['median_to_1pct'], 0)} "
                   f"| {yes_no(r['tuners']['autotvm'])} / {yes_no(r['tuners']['full'])} |")
    if ok:
        means = [float(np.nanmean([v for v in cols[k] if np.isfinite(v)] or [np.nan]))
                 for k in range(6)]
        out.append("| Mean | | | " + " | ".join(
            f"**{fmt(m)}** / {PAPER_T54_MEAN[k]}" for k, m in enumerate(means)) + " | | | | |")
        out.append("")
        out.append(f"Mean convergence ratio {fmt(means[0])} (speed-up in trials "
                   f"x{fmt(1 / means[0], 2)}; aim <= 0.416, x2.40), robustness {fmt(means[3])} "
                   f"(aim <= 0.424, x2.35). Ratios with an AutoTVM IQR of 0 are left out of "
                   f"the means.")
        within = [r["layer"] for r in ok
                  if all(v["summary"]["within_1pct_all"] for k, v in r["tuners"].items()
                         if k != "random")]
        out.append(f"Every run of every model-based tuner within 1% of the optimum by "
                   f"{args.trials} trials: {len(within)} of {len(ok)} layers.")
        full_within = [r["layer"] for r in ok if all_within_1pct(r["tuners"]["full"]["runs"])]
        out.append(f"Every run of the validity-driven tuner (full) within 1% by {args.trials} "
                   f"trials: {len(full_within)} of {len(ok)} layers"
                   + (f" (not: {', '.join(str(r['layer']) for r in ok if r['layer'] not in full_within)})"
                      if len(full_within) < len(ok) else "") + ".")
        out.append("")
        out += robustness_noise(ok, args)
    out.append("")

    # Tab. 5.5
    tl = [r for r in ok if r.get("transfer")]
    if tl:
        runs = tl[0]["transfer"]["runs"]
        out += ["## Tab. 5.5: transfer learning vs. the validity-driven tuner", "",
                f"Pre-trained = AutoTVM with a base model trained on "
                f"{tl[0]['transfer']['pretrain_samples']} random configurations of the other "
                f"12 layers (the layer's own data excluded; AutoTVM's fit_log: 400 rounds, "
                f"early stop 100, recall@{2 * args.epoch}; its margin discounted by "
                f"2^(-n/64) in later models; the first epoch chosen by annealing on it), "
                f"{runs} runs per layer. Features comparable across layers "
                f"(`VTAScheduleSpace::appendRelationFeatures`: buffer rows and fill, threads, "
                f"permutation, tile counts, rows loaded, micro-ops, intensity, DMA dimensions, "
                f"tile shares) instead of the dissertation's context-relation features; every "
                f"configuration has them (the dissertation could use 63.04% of its samples). "
                f"Ratios relative to the untrained AutoTVM baseline of Tab. 5.4 (ours / paper).",
                "",
                "| Layer | Pre-trained median (IQR) | Conv. new method | Conv. pre-trained | "
                "Rob. new method | Rob. pre-trained | Pre-training (s) | missed |",
                "|---|---|---|---|---|---|---|---|"]
        cols = [[], [], [], []]
        for r in tl:
            base = r["tuners"]["autotvm"]["summary"]
            full = r["tuners"]["full"]["summary"]
            pre = r["transfer"]
            paper = PAPER_T54[r["layer"]]
            p55 = PAPER_T55[r["layer"]]
            vals = [ratio(full["median"], base["median"]), ratio(pre["median"], base["median"]),
                    ratio(full["iqr"], base["iqr"]), ratio(pre["iqr"], base["iqr"])]
            for k, v in enumerate(vals):
                cols[k].append(v)
            out.append(f"| {r['layer']} | {pre['median']:.0f} ({pre['iqr']:.0f}) | "
                       f"{fmt(vals[0])} / {paper[0]} | {fmt(vals[1])} / {p55[0]} | "
                       f"{fmt(vals[2])} / {paper[3]} | {fmt(vals[3])} / {p55[1]} | "
                       f"{fmt(pre['pretrain_seconds'], 1)} | {pre['missed']} |")
        means = [float(np.nanmean([v for v in c if np.isfinite(v)] or [np.nan])) for c in cols]
        out.append(f"| Mean | | **{fmt(means[0])}** / 0.416 | **{fmt(means[1])}** / "
                   f"{PAPER_T55_MEAN[0]} | **{fmt(means[2])}** / 0.424 | **{fmt(means[3])}** / "
                   f"{PAPER_T55_MEAN[1]} | | |")
        out.append("")

    # Tuned vs heuristic
    out += ["## Tuned schedules vs. the heuristic search", "",
            "Cycles of the best schedule of the template space (exhaustive ground truth), "
            "the median best schedule the validity-driven tuner found in "
            f"{args.trials} trials, and `--vta-schedule=method=heuristic` (the analytic "
            "estimate over the larger space with remainder tiles and every loop order, "
            "best 8 simulated).", "",
            "| Layer | Template optimum | Tuned (median of runs) | Heuristic | Heuristic / tuned |",
            "|---|---|---|---|---|"]
    for r in ok:
        tuned = r["tuners"]["full"]["summary"]["best_cycles_median"]
        heur = r["truth"].get("heuristic_cycles")
        out.append(f"| {r['layer']} | {r['truth']['optimum_cycles']:.0f} | {tuned:.0f} | "
                   f"{heur if heur is not None else '-'} | "
                   f"{fmt(heur / tuned) if heur else '-'} |")
    out.append("")

    # Tab. 5.6
    out += ["## Tab. 5.6: overheads per tuning run (seconds)", "",
            "Presampling = 1000 validity queries at the measured cost of the static "
            "check (the table answers them during the experiment); selection = Alg. 5 for "
            "E0; knob features = computing the knob features of every configuration the "
            "model is trained on or scores (training and annealing), summed over a run; "
            "training and annealing summed over a run's epochs, and training per epoch "
            "(one model per epoch; AutoTVM's loop, the validity-driven tuner spends the "
            "same). Paper: knob features, presampling, sample selection, pre-training "
            "(Tab. 5.6; its presampling is 1000 compiles of about 0.4 s).", "",
            "| Layer | Presampling | Selection | Knob features (validity) | "
            "Training (validity) | per epoch | Annealing (validity) | "
            "Training (AutoTVM) | per epoch | "
            "Paper: knob / presampling / selection / pre-training |",
            "|---|---|---|---|---|---|---|---|---|---|"]
    for r in ok:
        f = r["tuners"]["full"]["summary"]
        a = r["tuners"]["autotvm"]["summary"]
        p = PAPER_T56.get(r["layer"])
        paper = f"{p[0]} / {p[2]} / {p[3]} / {p[4]}" if p else "-"
        out.append(f"| {r['layer']} | {fmt(f['presample_oracle_seconds'], 4)} | "
                   f"{fmt(f['selection_seconds'], 4)} | {fmt(f.get('feature_seconds'), 3)} | "
                   f"{fmt(f['train_seconds'], 2)} | {fmt(f.get('train_seconds_per_epoch'), 3)} | "
                   f"{fmt(f['anneal_seconds'], 2)} | {fmt(a['train_seconds'], 2)} | "
                   f"{fmt(a.get('train_seconds_per_epoch'), 3)} | {paper} |")
    if not any("trainings" in r["tuners"]["full"]["summary"] or
               "feature_seconds" in r["tuners"]["full"]["summary"] for r in ok):
        out.append("")
        out.append("(Knob-feature time and training per epoch: not recorded by the raf-tune "
                   "of this campaign.)")
    out.append("")

    # Scale of the model's scores vs. the bias of BSA.
    spread = [r for r in ok if "prediction_p05" in r["tuners"]["full"]["summary"]]
    if spread:
        out += ["## §5.2.3: the scale of the model's scores and the bias of BSA", "",
                "BSA adds 1 to the score of a known-valid configuration, chosen against "
                "predictions \"mostly in the interval [-7, 7]\" (Rieber 2022, §5.2.3). The "
                "spread of our models' scores: per run, the mean over its models of the 5th "
                "and 95th percentiles of the scores of 1000 uniformly drawn configurations "
                "(drawn apart from the tuning); the median over runs. Plan: the mean length "
                "of the plans the annealing proposed after a training (at most the epoch of "
                f"{args.epoch}; AutoTVM's find_maximums returns only configurations scored "
                ">= 0, and the rest of the batch is random).", "",
                "| Layer | Full: 5th / 95th percentile | No BSA | AutoTVM | Plan: full | "
                "no BSA | AutoTVM |", "|---|---|---|---|---|---|---|"]
        for r in spread:
            cells = []
            for name in ("full", "no_bsa", "autotvm"):
                t = r["tuners"].get(name, {}).get("summary", {})
                cells.append(f"{fmt(t.get('prediction_p05'), 2)} / "
                             f"{fmt(t.get('prediction_p95'), 2)}")
            for name in ("full", "no_bsa", "autotvm"):
                t = r["tuners"].get(name, {}).get("summary", {})
                cells.append(fmt(t.get("plan_mean"), 1))
            out.append(f"| {r['layer']} | " + " | ".join(cells) + " |")
        out.append("")

    # Model analyses
    rows = {}
    for r in results:
        for x in r.get("analyse", []):
            if x["kind"] == "model":
                rows.setdefault(x["ratio"], []).append(x)
    if rows:
        out += ["## §5.1.2: model quality vs. valid ratio of the training set (Figs. 5.2, 5.3)",
                "", f"XGBoost ranking model (AutoTVM's parameters, knob features) trained on "
                f"configurations with the given share of valid ones, tested on uniformly "
                f"drawn others; mean over layers and {args.repeats} repetitions. Accuracy "
                "is Eq. 5.2 with (n^2 - n) / 2 pairs. Paper: valid-valid accuracy grows "
                "roughly linearly with the ratio, nDCG is bell-shaped with its optimum near "
                "0.5.", "",
                "| Valid ratio | Accuracy (all pairs) | Valid-valid | Valid-invalid | nDCG | "
                "nDCG@50 | Layers |", "|---|---|---|---|---|---|---|"]
        for ratio_ in sorted(rows):
            xs = rows[ratio_]

            def m(key):
                v = [x[key] for x in xs if x[key] is not None]
                return float(np.mean(v)) if v else None
            out.append(f"| {ratio_:.1f} | {fmt(m('accuracy'))} | {fmt(m('accuracy_valid_valid'))} | "
                       f"{fmt(m('accuracy_valid_invalid'))} | {fmt(m('ndcg'))} | "
                       f"{fmt(m('ndcg_at_50'))} | {len(xs)} |")
        out.append("")
    return out, rows


def plots(results, model_rows, out_dir, args):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return []
    written = []
    if model_rows:
        ratios = sorted(model_rows)
        fig, (a1, a2) = plt.subplots(1, 2, figsize=(10, 3.8))
        for key, label in (("accuracy", "all pairs"), ("accuracy_valid_valid", "valid-valid"),
                           ("accuracy_valid_invalid", "valid-invalid")):
            ys = [np.mean([x[key] for x in model_rows[q] if x[key] is not None] or [np.nan])
                  for q in ratios]
            a1.plot(ratios, ys, marker="o", label=label)
        a1.set_xlabel("valid ratio of the training set")
        a1.set_ylabel("pairwise ranking accuracy (Eq. 5.2)")
        a1.legend(fontsize=8)
        for key, label in (("ndcg", "nDCG"), ("ndcg_at_50", "nDCG@50")):
            ys = [np.mean([x[key] for x in model_rows[q]]) for q in ratios]
            a2.plot(ratios, ys, marker="o", label=label)
        a2.set_xlabel("valid ratio of the training set")
        a2.set_ylabel("nDCG (Eq. 5.3)")
        a2.legend(fontsize=8)
        fig.suptitle("Fig. 5.2 / 5.3: XGBoost model quality vs. valid ratio (mean over layers)",
                     fontsize=9)
        fig.tight_layout()
        path = out_dir / f"{args.prefix}-model.png"
        fig.savefig(path, dpi=100)
        plt.close(fig)
        written.append(path)
    ok = [r for r in results if "tuners" in r]
    if ok:
        cols = 4
        rows_ = (len(ok) + cols - 1) // cols
        fig, axes = plt.subplots(rows_, cols, figsize=(3.2 * cols, 2.6 * rows_), squeeze=False)
        for ax, r in zip(axes.flat, ok):
            for name, style in (("autotvm", "-"), ("full", "-")):
                curve = r["tuners"][name]["summary"].get("curve")
                if curve:
                    ys = [np.nan if (c is None or not np.isfinite(c)) else c for c in curve]
                    ax.plot(range(1, len(ys) + 1), ys, style,
                            label="AutoTVM" if name == "autotvm" else "validity-driven")
            ax.set_title(f"layer {r['layer']}", fontsize=8)
            ax.set_ylim(0.99, 1.3)
            ax.tick_params(labelsize=7)
        for ax in list(axes.flat)[len(ok):]:
            ax.axis("off")
        axes.flat[0].legend(fontsize=7)
        fig.suptitle("median best-so-far cycles / optimum vs. trials", fontsize=9)
        fig.tight_layout()
        path = out_dir / f"{args.prefix}-convergence.png"
        fig.savefig(path, dpi=100)
        plt.close(fig)
        written.append(path)
    return written


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true",
                   help=f"layers {QUICK_LAYERS}, 3 runs, 2 analyse repeats, output to /tmp")
    p.add_argument("--layers", default="")
    p.add_argument("--runs", type=int, default=None)
    p.add_argument("--trials", type=int, default=750)
    p.add_argument("--epoch", type=int, default=50)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--repeats", type=int, default=None, help="analyse repetitions")
    p.add_argument("--no-analyse", action="store_true")
    p.add_argument("--jobs", type=int, default=1, help="layers in parallel")
    p.add_argument("--nice", type=int, default=10)
    p.add_argument("--transfer", action="store_true",
                   help="run only Tab. 5.5 (pre-trained AutoTVM) for the layers of the "
                   "report's JSON, kept in <prefix>-transfer.json, and rewrite the report")
    p.add_argument("--transfer-runs", type=int, default=10)
    p.add_argument("--pretrain-samples", type=int, default=30000)
    p.add_argument("--validity", default="tvm", choices=["tvm", "schedule"],
                   help="validity rules (raf-tune --validity): tvm = the schedule check and "
                   "TVM's pipeline rules (the dissertation's), schedule = our check alone")
    p.add_argument("--cache", default=os.environ.get("RAF_TUNE_CACHE", "/tmp/raf-tune-cache"))
    p.add_argument("--out", default=None)
    p.add_argument("--prefix", default=None)
    p.add_argument("--note", default="", help="a line for the report (e.g. partial)")
    p.add_argument("--build-dir", default=None)
    p.add_argument("--tuners", default="",
                   help="run only these tuners (comma-separated: "
                   + ", ".join(n for n, _ in VARIANTS) + "; default all)")
    p.add_argument("--replicate", action="append", default=None,
                   help="the tuning.json of a campaign with other seeds, reported beside "
                   "Tab. 5.4 (repeatable)")
    p.add_argument("--from-json", default=None,
                   help="rewrite the report from a tuning.json of an earlier campaign")
    args = p.parse_args()
    args.tuners = [x for x in args.tuners.split(",") if x]
    unknown_tuners = set(args.tuners) - {n for n, _ in VARIANTS}
    if unknown_tuners:
        sys.exit(f"error: unknown tuners {sorted(unknown_tuners)}")
    if args.tuners and not {"autotvm", "full"} <= set(args.tuners):
        sys.exit("error: --tuners needs autotvm and full (Tab. 5.4 compares them)")
    build = pathlib.Path(args.build_dir or os.environ.get("RAF_BUILD_DIR", ROOT / "build"))
    args.tool = build / "bin" / "raf-tune"
    if not args.tool.exists() and not args.from_json:
        sys.exit(f"error: {args.tool} not found (build the raf-tune target)")
    layers = ([int(x) for x in args.layers.split(",") if x] or
              (QUICK_LAYERS if args.quick else LAYERS))
    unknown = [x for x in layers if x not in PAPER_SPACE]
    if unknown:
        sys.exit(f"error: layers {unknown} are not in Tab. 5.1 ({LAYERS})")
    args.runs = args.runs or (3 if args.quick else 20)
    args.repeats = args.repeats or (2 if args.quick else 5)
    out_dir = pathlib.Path("/tmp") if args.quick else ROOT / "bench" / "results"
    args.prefix = args.prefix or ("tuning-quick" if args.quick else "tuning")
    out = pathlib.Path(args.out) if args.out else out_dir / f"{args.prefix}.md"
    convs = deepbench_convs()
    start = time.perf_counter()
    results, errors = [], []
    # The 1-minute load average at the start and after every layer: the
    # machine is shared, and the overheads of Tab. 5.6 depend on it.
    loads = [os.getloadavg()[0]]

    def write_report():
        results.sort(key=lambda r: r["layer"])
        attach_transfer()
        lines, model_rows = tables(results, args)
        pngs = plots(results, model_rows, out.parent, args)
        done = len(results) + len(errors)
        head = ["# Validity-driven auto-tuning of VTA schedules (Rieber 2022, chapter 5)", "",
                f"Machine: {machine_info()}.", "",
                f"Layers {', '.join(map(str, [r['layer'] for r in results]))}"
                f" of Tab. 5.1; {args.runs} runs each; "
                + (f"report rewritten from {pathlib.Path(args.from_json).name}. " if args.from_json
                   else f"wall time {time.perf_counter() - start:.0f} s (niced, on a shared "
                   "machine). ")
                + "Ground "
                "truth: the cycle model (docs/vta.md) over every configuration, standing in "
                "for the FPGA. Generated by `bench/tuning/run.py` (bench/tuning/README.md, "
                "docs/tuning.md).", ""]
        if not args.from_json:
            started = time.gmtime(time.time() - (time.perf_counter() - start))
            head += [f"Started {time.strftime('%Y-%m-%d %H:%M', started)} UTC; "
                     f"load average (1 min) {min(loads):.1f}-{max(loads):.1f} "
                     f"on {os.cpu_count()} cores, sampled at the start and after each layer.", ""]
        if done < len(layers):
            pending = sorted(set(layers) - {r["layer"] for r in results})
            head += [f"**Partial: {done} of {len(layers)} layers so far; pending: "
                     f"{', '.join(map(str, pending))}.**", ""]
        if args.note:
            head += [f"**{args.note}**", ""]
        if errors:
            head += ["Errors:", ""] + [f"* {e}" for e in errors] + [""]
        if pngs:
            head += [f"Plots: {', '.join(p.name for p in pngs)}.", ""]
        out.write_text("\n".join(head + lines) + "\n")
        raw = out.with_suffix(".json")
        raw.write_text(json.dumps(results, indent=1) + "\n")
        log(f"wrote {out} and {raw}")

    transfer_path = out.parent / f"{args.prefix}-transfer.json"
    transfer = (json.loads(transfer_path.read_text()) if transfer_path.exists() else {})

    def attach_transfer():
        for r in results:
            if str(r["layer"]) in transfer:
                r["transfer"] = transfer[str(r["layer"])]

    if args.transfer:
        args.from_json = args.from_json or str(out.with_suffix(".json"))
        results.extend(json.loads(pathlib.Path(args.from_json).read_text()))
        for r in sorted(results, key=lambda r: PAPER_SPACE[r["layer"]][0]):
            if r["layer"] not in layers or "tuners" not in r:
                continue
            transfer[str(r["layer"])] = transfer_job(args, r["layer"], convs)
            transfer_path.write_text(json.dumps(transfer, indent=1) + "\n")
            loads.append(os.getloadavg()[0])
            attach_transfer()
            write_report()
        return 0

    if args.from_json:
        results.extend(json.loads(pathlib.Path(args.from_json).read_text()))
        attach_transfer()
        layers = sorted(set(layers) | {r["layer"] for r in results})
        errors.extend(f"layer {x}: not run" for x in layers
                      if x not in {r["layer"] for r in results})
        errors[:] = []
        write_report()
        return 0

    # Cheap layers first, so that a partial campaign has the most layers.
    order = sorted(layers, key=lambda x: PAPER_SPACE[x][0])
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = {pool.submit(layer_job, args, layer, convs[layer]): layer for layer in order}
        for n, fut in enumerate(concurrent.futures.as_completed(futures), 1):
            layer = futures[fut]
            try:
                results.append(fut.result())
            except RuntimeError as e:
                errors.append(f"layer {layer}: {e}")
            elapsed = time.perf_counter() - start
            loads.append(os.getloadavg()[0])
            log(f"{n}/{len(layers)} layers done, {elapsed:.0f} s, ETA "
                f"{elapsed / n * (len(layers) - n):.0f} s")
            write_report()
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
