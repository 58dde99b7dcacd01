#!/usr/bin/env python3
"""Top-down embedding benchmark (Rieber 2022, chapter 3).

Runs `raf-opt --tcg-topdown-search` on the seven operators of Tab. 3.3
(operators.mlir) and writes bench/results/topdown.md:

  * Tab. 3.3: nodes, candidates, solutions, hit rate and the median number of
    transformations under configuration 4, with the dissertation's numbers;
  * Tab. 3.4 / Fig. 3.15: candidates and solutions per configuration;
  * Tab. 3.5: the layout transposition study (every permutation of the
    operands and computations of GEMM's rank 2 and conv2d's rank 4);
  * search times, which the dissertation does not report;
  * the solution `--tcg-topdown-embed=search=true` applies per operator,
    with its coverage on the graph applied, beside the search's best;
  * the larger variants of variants.mlir, closer to the dissertation's
    operators (VARIANTS) as extra, labelled rows of Tab. 3.3, Tab. 3.4 and the applied
    table, with their own reading.

The hand-written paragraph on the numerical check of every applicable
solution (KEEP) is carried over from the existing results file.

  run.py [--raf-opt PATH] [--time-limit S] [--out PATH]
"""
import argparse
import itertools
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# Tab. 3.3 (configuration 4): nodes, candidates, solutions, hit rate %, #trans.
PAPER = {
    "fc_bias": ("FC + Bias", 16, 24, 4, 16.6, 7),
    "fc_bias_sigmoid": ("FC + Bias + Sigmoid", 29, 144, 4, 2.7, 12),
    "gemm": ("GEMM", 11, 35, 4, 11.4, 8),
    "attention": ("Attention", 26, 289, 9, 3.1, 11),
    "conv2d_nhwc": ("Conv2D (NHWC)", 26, 59503, 682, 1.1, 25),
    "conv2d_relu_nhwc": ("Conv2D + ReLU (NHWC)", 56, 440428, 1428, 0.3, 33),
    "capsule_routing": ("Capsule Routing", 127, 1023516, 12, 0.001, 32),
}
# The larger variants of variants.mlir, closer to the dissertation's
# operators: name ->
# (label, the Tab. 3.3 operator whose dissertation row they are compared to).
VARIANTS = {
    "conv2d_bias_nhwc": ("Conv2D + bias, same padding (NHWC)", "conv2d_nhwc"),
    "conv2d_bias_relu_nhwc": ("Conv2D + bias + ReLU, same padding (NHWC)",
                              "conv2d_relu_nhwc"),
    "capsule_routing_r2": ("Capsule Routing, 2 routing iterations",
                           "capsule_routing"),
}
# The hand-written paragraph of the results file that run.py keeps.
KEEP = "**Every applicable solution, checked numerically**"
# Tab. 3.5: candidates, solutions, hit rate %.
PAPER_LAYOUT = {"gemm": (73, 5, 6.8), "conv2d_nhwc": (1372653, 3810, 0.27)}

LINE = re.compile(
    r"topdown-search (\S+): config (\d), (\d+) nodes, (\d+) graphs, (\d+) "
    r"candidates, (\d+) solutions, hit rate ([\d.]+)%, median transformations "
    r"([\d.]+), ([\d.]+) s(?:, stopped by the (\w+) limit)?")
BEST = re.compile(r"  best: graph \d+, covers (\d+) of (\d+) nodes with (\d+) "
                  r"instructions, \d+ transformations: (.*)")


# The reading under the tables; %s: the operators solved, those not solved,
# then the sentence on search times (search_times).
READING = (
    "Configuration 4 finds fully covering solutions for %s (not solved: %s). "
    "What the convolutions and capsule routing needed is selective masking "
    "(§3.2.2: \"output dimensions can be masked out selectively\"): their "
    "products read an operand whose innermost dimension is not the innermost "
    "iterator (HWIO weights: the output channel oc under the reduction over "
    "ic; the routing coefficients c[i, j] and predictions u[i, j, d] under "
    "the reduction over i). Hiding only outer dimensions leaves that "
    "dimension visible, so no instruction's access leaves match (the "
    "outer-masking column: no solution for either convolution or capsule "
    "routing); hiding it, a loop around the instruction, makes the reduced "
    "dimension the visible one, read with a stride. As in §3.4.3, "
    "configuration 1 solves only GEMM and attention, fission (configuration "
    "2) is what FC + bias, the convolutions and capsule routing need, "
    "fusion and inlining alone (configuration 3) add no solution, and "
    "configuration 4 has the most candidates and solutions. Candidate "
    "counts are exact over all maskings now (enumerated per computation and "
    "combined), of the dissertation's order for the small operators and one "
    "to two orders below it for the convolutions and capsule routing, whose "
    "label trees are smaller than the dissertation's (our kernels: one "
    "routing iteration; no bias in the convolutions, which for Conv2D is "
    "what §3.4.4's two input tensors say; an access expression such as "
    "oh + kh one leaf, not Fig. 3.2's expression tree). %s\n\n"
    "Chapter 6 comparison: the dataflow embedding takes an operator that is "
    "one tensor expression (GEMM, Conv2D) and maps one intrinsic onto it, "
    "with the remaining dimensions (Conv2D: the kernel window) as loops "
    "around it, so it embeds mv.mul.add and dot.mul.add into Conv2D, where "
    "the top-down search with that intrinsic alone finds no cover: it must "
    "cover the kh and kw reductions by instructions too (red.add with the "
    "whole Tab. 3.1 set), the one-to-one mapping of dimensions §3.5.2 names "
    "as its limit. Both find GEMM; on Conv2D the dataflow embedding's best "
    "embeddings execute no MAC beyond the minimum. The top-down search "
    "covers the multi-statement operators (FC + bias, sigmoid, attention, "
    "Conv2D + ReLU, capsule routing), which the dataflow embedding refuses "
    "(one tensor expression per kernel, no reduction combined with other "
    "values). Times are of the same order (milliseconds to a second), the "
    "dataflow embedding's rising with the embeddings it counts.")


def label(name):
    """The table label of an operator of operators.mlir or variants.mlir."""
    if name in PAPER:
        return PAPER[name][0]
    return "*variant:* " + VARIANTS[name][0]


def kept_paragraph(path):
    """The hand-written KEEP paragraph of the existing results file, or
    None."""
    if not os.path.exists(path):
        return None
    text = open(path).read()
    start = text.find(KEEP)
    if start < 0:
        return None
    end = text.find("\n\n", start)
    return text[start:end if end >= 0 else len(text)].rstrip()


def search_times(per_config, originals):
    """The sentence on search times of the reading, from the numbers."""
    slowest = max(per_config[(n, 4)]["seconds"] for n in originals)
    stopped = ["%s (the %s limit)" % (VARIANTS[n][0],
                                        per_config[(n, 4)]["limit"])
               for n in VARIANTS
               if (n, 4) in per_config and per_config[(n, 4)]["limit"]]
    return ("The searches of the seven take at most %.3g s; %s." % (
        slowest, "the larger variants' searches that stop at a limit "
        "(below): " + ", ".join(stopped) if stopped else
        "no search of the larger variants (below) stops at a limit"))


def variants_reading(per_config, applied, longer, long_limit):
    """The reading of the variants' rows, from their numbers; `longer`: the
    searches rerun with `long_limit` seconds where the time limit stopped
    them."""
    parts = []
    for name, (text, base) in VARIANTS.items():
        r = per_config.get((name, 4))
        if r is None:
            continue
        b = per_config[(base, 4)]
        p = PAPER[base]
        state = ("stopped by the %s limit after %d graphs, so its counts are "
                 "what the search reached" % (r["limit"], r["graphs"])
                 if r["limit"] else "complete (%d graphs)" % r["graphs"])
        if name in longer:
            t = longer[name]
            state += (" (given %g s: %d graphs, %d candidates, %d solutions "
                      "in %.3g s%s)" % (
                          long_limit, t["graphs"], t["candidates"],
                          t["solutions"], t["seconds"],
                          ", stopped by the %s limit" % t["limit"]
                          if t["limit"] else ", complete"))
        parts.append(
            "%s: %d nodes (%d; dissertation %d), %d candidates (%d; "
            "dissertation %s), %d "
            "solution%s (%d; dissertation %s), %.3g s, %s; applied: %s." % (
                text, r["nodes"], b["nodes"], p[1], r["candidates"],
                b["candidates"], format(p[2], ","), r["solutions"],
                "" if r["solutions"] == 1 else "s", b["solutions"],
                format(p[3], ","), r["seconds"], state,
                applied.get(name, "-")))
    return " ".join(parts)


# The interpretation of the variants' rows (their numbers come first).
VARIANTS_READING = (
    "Bias and padding add no access leaves to our label trees (an access "
    "such as oh + kh is one leaf here, where the access nodes of the "
    "dissertation's Fig. 3.2 form an expression tree, so its count of the "
    "same kernel is larger; the padding is a view of the read), but the "
    "bias adds a statement once fission has split the kernel, and with it "
    "fusion and inlining options and maskings (the candidate counts above "
    "against the Tab. 3.3 kernel's in parentheses); §3.4.4 gives the "
    "dissertation's Conv2D two input tensors, so a bias does not explain "
    "its count. "
    "Where a search stops at a limit, its counts are lower bounds and its "
    "solutions those of the graphs it reached. Both larger variants grow "
    "multiplicatively: Alg. 3's conflict-free fusion and inlining "
    "combinations with the statements after fission, and the maskings, "
    "enumerated per computation and combined, with the computations "
    "(for capsule routing with two iterations see the configuration 2 "
    "column of Tab. 3.4: the maskings of its fully fissioned graph alone). "
    "That is what the "
    "dissertation's §3.5.2 says of the sequential operators (\"Even the "
    "limited set of transformations presented in this chapter can enlarge "
    "the search space to intractable sizes ... Operands with sequential "
    "computations, like Conv2D + ReLU or CapsuleRouting, are especially "
    "affected by this\").")


def split_functions(path):
    """name -> the text of each func.func of `path`."""
    text = open(path).read()
    parts = re.split(r"(?m)^(?=func\.func @)", text)
    funcs = {}
    for part in parts:
        m = re.match(r"func\.func @(\w+)", part)
        if m:
            funcs[m.group(1)] = part
    return funcs


def search(raf_opt, text, options):
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write(text)
        name = f.name
    try:
        proc = subprocess.run(
            [raf_opt, name, "--tcg-topdown-search=" + options, "-o",
             os.devnull], capture_output=True, text=True)
    finally:
        os.unlink(name)
    if proc.returncode != 0:
        raise SystemExit("raf-opt failed:\n" + proc.stderr)
    results = []
    for line in proc.stdout.splitlines():
        m = LINE.match(line)
        if m:
            results.append({
                "name": m.group(1), "config": int(m.group(2)),
                "nodes": int(m.group(3)), "graphs": int(m.group(4)),
                "candidates": int(m.group(5)), "solutions": int(m.group(6)),
                "hit": float(m.group(7)), "trans": float(m.group(8)),
                "seconds": float(m.group(9)), "limit": m.group(10) or "",
                "best": ""})
            continue
        m = BEST.match(line)
        if m and results:
            results[-1]["best"] = "%s (%s of %s nodes)" % (
                m.group(4), m.group(1), m.group(2))
    return results


EMBEDDING = re.compile(r'tcg\.embedding = #tcg\.embedding<"([^"]+)", topdown')
FAILS = re.compile(r"fails = (\d+),")
APPLIED = re.compile(r"topdown\.applied_coverage = array<i64: (\d+), (\d+)>")
SOLUTION = re.compile(r"topdown\.solution = array<i64: \d+, (\d+)>")


def embed(raf_opt, text, options):
    """--tcg-topdown-embed=search=true on `text`: the instructions of the
    attached embeddings in statement order and the refused better solutions
    (`fails`) and the applied coverage, or the error."""
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write(text)
        name = f.name
    try:
        proc = subprocess.run(
            [raf_opt, name, "--tcg-topdown-embed=search=true " + options],
            capture_output=True, text=True)
    finally:
        os.unlink(name)
    if proc.returncode != 0:
        m = re.search(r"error: (.*)", proc.stderr)
        return {"error": m.group(1) if m else proc.stderr}
    fails = [int(f) for f in FAILS.findall(proc.stdout)]
    coverage = APPLIED.search(proc.stdout)
    count = SOLUTION.search(proc.stdout)
    stopped = re.search(r"the search stopped at its (\w+) limit", proc.stderr)
    return {"instructions": EMBEDDING.findall(proc.stdout),
            "applicable": int(count.group(1)) if count else 0,
            "limit": stopped.group(1) if stopped else "",
            "fails": max(fails) if fails else 0,
            "coverage": "%s of %s nodes" % coverage.groups() if coverage
                        else "-"}


DATAFLOW_COST = re.compile(r"cost = (\d+), mac = \[(\d+), (\d+)\]")
DATAFLOW_SEARCH = re.compile(
    r"search = \{nodes = \d+, fails = \d+, solutions = (\d+), assets = \d+"
    r"(?:, distinct = (\d+), complete = (\w+))?(?:, time_ms = ([\d.]+))?\}")


def dataflow(raf_opt, text, intrinsic, timeout_ms):
    """--tcg-dataflow-embed of `intrinsic` on the one kernel of `text`."""
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write(text)
        name = f.name
    try:
        proc = subprocess.run(
            [raf_opt, name, "--tcg-dataflow-embed=intrinsic=%s report-time=true "
             "count=100000 timeout=%d" % (intrinsic, timeout_ms)],
            capture_output=True, text=True)
    finally:
        os.unlink(name)
    if proc.returncode != 0:
        m = re.search(r"error: (.*)", proc.stderr)
        return {"found": False, "error": m.group(1) if m else proc.stderr}
    cost = DATAFLOW_COST.search(proc.stdout)
    search_stats = DATAFLOW_SEARCH.search(proc.stdout)
    return {"found": True, "cost": int(cost.group(1)),
            "mac": (int(cost.group(2)), int(cost.group(3))),
            "solutions": int(search_stats.group(1)),
            "distinct": search_stats.group(2) or "-",
            "complete": search_stats.group(3) == "true",
            "ms": float(search_stats.group(4) or 0)}


def comparison(args, funcs, limit):
    """Chapter 6: top-down vs dataflow embedding, same operators and
    intrinsics. Returns the table's lines."""
    compare = split_functions(os.path.join(HERE, "compare.mlir"))
    lines = []
    w = lines.append
    w("## Top-down vs dataflow embedding (chapter 6)")
    w("")
    w("Same operators, same Tab. 3.1 intrinsics. Top-down: "
      "`--tcg-topdown-search` (configuration 4, selective masking) with only "
      "the named intrinsic, and with the whole Tab. 3.1 set; dataflow: "
      "`--tcg-dataflow-embed` (relaxed mode, %d ms timeout) with the named "
      "intrinsic, counting the distinct embeddings (`count`). GEMM and "
      "Conv2D at the sizes of `bench/topdown/compare.mlir` (the dataflow "
      "embedding needs the reduction at least as long as the intrinsic's; "
      "the top-down matching ignores sizes), the other operators as in "
      "Tab. 3.3. Costs are each method's own: top-down, coverage (Eq. 3.4: "
      "covered nodes / nodes of the chosen graph); dataflow, "
      "w_MAC O_MAC + w_Data O_Data (§4.3.6) with the executed / minimal "
      "MACs of the best embedding." % args.dataflow_timeout)
    w("")
    w("| operator | intrinsic | top-down: found / solutions | time (s) | "
      "best coverage | top-down, all Tab. 3.1: solutions | dataflow: found / "
      "distinct embeddings | time (ms) | best cost (MACs executed / minimal) |")
    w("| --- | --- | --- | ---: | --- | ---: | --- | ---: | --- |")
    rows = [(n, compare[n], i) for n in ("gemm", "conv2d_nhwc")
            for i in ("mv.mul.add.16x16", "dot.mul.add.16")]
    rows += [(n, funcs[n], "mv.mul.add.16x16")
             for n in ("fc_bias", "fc_bias_sigmoid", "attention",
                       "conv2d_relu_nhwc", "capsule_routing")]
    for name, text, intrinsic in rows:
        one = search(args.raf_opt, text, "config=4 intrinsics=%s %s" %
                     (intrinsic, limit))[0]
        full = search(args.raf_opt, text, "config=4 " + limit)[0]
        d = dataflow(args.raf_opt, text, intrinsic, args.dataflow_timeout)
        best = "-"
        m = re.match(r".*\((\d+) of (\d+) nodes\)", one["best"])
        if m:
            best = "%s of %s" % (m.group(1), m.group(2))
        if d["found"]:
            df = "yes / %s%s" % (d["distinct"], "" if d["complete"] else "+")
            dt = "%.1f" % d["ms"]
            dc = "%d (%d / %d)" % (d["cost"], d["mac"][0], d["mac"][1])
        else:
            df = "no: %s" % d["error"].split(";")[0].replace("|", "/")
            dt = "-"
            dc = "-"
        w("| %s | %s | %s / %d | %.3f | %s | %d | %s | %s | %s |" % (
            label(name), intrinsic, "yes" if one["solutions"] else "no",
            one["solutions"], one["seconds"], best, full["solutions"], df,
            dt, dc))
        print("compare %s %s %s %s" % (name, intrinsic, one, d),
              file=sys.stderr)
    w("")
    return lines


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--raf-opt",
                        default=os.path.join(ROOT, "build", "bin", "raf-opt"))
    parser.add_argument("--time-limit", type=float, default=30)
    parser.add_argument("--max-maskings", type=int, default=65536)
    parser.add_argument("--long-time-limit", type=float, default=300,
                        help="time limit of the rerun of a variant whose "
                             "search the time limit stopped")
    parser.add_argument("--dataflow-timeout", type=int, default=60000)
    parser.add_argument("--only-comparison", action="store_true",
                        help="print the comparison table to stdout only")
    parser.add_argument("--out",
                        default=os.path.join(ROOT, "bench", "results",
                                             "topdown.md"))
    args = parser.parse_args()
    funcs = split_functions(os.path.join(HERE, "operators.mlir"))
    originals = list(funcs)
    funcs.update(split_functions(os.path.join(HERE, "variants.mlir")))
    unknown = [n for n in funcs if n not in PAPER and n not in VARIANTS]
    if unknown:
        raise SystemExit("no PAPER or VARIANTS entry for %s" %
                         ", ".join(unknown))
    kept = kept_paragraph(args.out)
    # Selective masking (§3.2.2) in every table; the outer-only masking of
    # earlier runs is kept as a column of Tab. 3.3. Maskings are enumerated
    # per computation, so a larger per-computation limit stays cheap.
    limit = ("time-limit=%g max-maskings=%d selective-masking=true" %
             (args.time_limit, args.max_maskings))
    outer_limit = ("time-limit=%g max-maskings=%d" %
                   (args.time_limit, args.max_maskings))

    if args.only_comparison:
        print("\n".join(comparison(args, funcs, limit)))
        return

    per_config = {}
    for config in (1, 2, 3, 4):
        for name, text in funcs.items():
            r = search(args.raf_opt, text, "config=%d %s" % (config, limit))
            per_config[(name, config)] = r[0]
            print("config %d %-18s %s" % (config, name, r[0]), file=sys.stderr)

    longer = {}
    for name in VARIANTS:
        if per_config.get((name, 4), {}).get("limit") == "time":
            longer[name] = search(
                args.raf_opt, funcs[name], "config=4 " +
                limit.replace("time-limit=%g" % args.time_limit,
                              "time-limit=%g" % args.long_time_limit))[0]
            print("longer %-18s %s" % (name, longer[name]), file=sys.stderr)

    outer = {}
    for name, text in funcs.items():
        outer[name] = search(args.raf_opt, text, "config=4 " + outer_limit)[0]
        print("outer %-18s %s" % (name, outer[name]), file=sys.stderr)

    layouts = {}
    for name, rank in (("gemm", 2), ("conv2d_nhwc", 4)):
        total = {"candidates": 0, "solutions": 0, "seconds": 0.0,
                 "limits": set(), "perms": 0, "distinct": set()}
        for perm in itertools.permutations(range(rank)):
            r = search(args.raf_opt, funcs[name],
                       "config=4 layout=%s %s" %
                       (",".join(map(str, perm)), limit))[0]
            total["candidates"] += r["candidates"]
            total["solutions"] += r["solutions"]
            total["seconds"] += r["seconds"]
            total["perms"] += 1
            total["distinct"].add((r["candidates"], r["solutions"]))
            if r["limit"]:
                total["limits"].add(r["limit"])
        layouts[name] = total
        print("layout %s %s" % (name, total), file=sys.stderr)

    out = []
    w = out.append
    w("# Top-down embedding (Rieber 2022, chapter 3): results")
    w("")
    w("Generated by `bench/topdown/run.py` (`raf-opt --tcg-topdown-search`, "
      "time limit %g s per search, `selective-masking=true`, "
      "`max-maskings=%d` per computation) on the operators of "
      "`bench/topdown/operators.mlir`; see bench/topdown/README.md for what "
      "the columns count and how they differ from the dissertation's." %
      (args.time_limit, args.max_maskings))
    w("")
    w("## Tab. 3.3: configuration 4")
    w("")
    w("| operator | nodes | candidates | solutions | hit rate | median #trans "
      "| graphs | time (s) | best solution | outer masking only: candidates "
      "/ solutions | dissertation: nodes / candidates "
      "/ solutions / hit rate / #trans |")
    w("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- "
      "| --- |")
    for name in funcs:
        r = per_config[(name, 4)]
        p = PAPER[name] if name in PAPER else PAPER[VARIANTS[name][1]]
        o = outer[name]
        hit = 100.0 * r["solutions"] / r["candidates"] if r["candidates"] else 0
        w("| %s | %d | %d | %d | %.3g%% | %g | %d | %.3f%s | %s | %d / %d%s "
          "| %s%d / %d / %d / %g%% / %d |" % (
              label(name), r["nodes"], r["candidates"], r["solutions"], hit,
              r["trans"], r["graphs"], r["seconds"],
              " (%s limit)" % r["limit"] if r["limit"] else "",
              r["best"] or "none", o["candidates"], o["solutions"],
              " (%s limit)" % o["limit"] if o["limit"] else "",
              "" if name in PAPER else "%s's row: " % p[0],
              p[1], p[2], p[3], p[4], p[5]))
    w("")
    w("The rows marked *variant* are the operators of "
      "`bench/topdown/variants.mlir`, larger variants closer to the "
      "dissertation's operators, not part of Tab. 3.3's seven, each "
      "compared with the dissertation's row of the operator it varies: "
      "Conv2D with a bias and same padding (Eqs. 2.1-2.4: the offset "
      "-floor(K_H d_h / 2) read through a zero-padded view; §3.4.4 gives "
      "Tab. 3.3's Conv2D two inputs, so no bias: this row shows what the "
      "bias statement adds), the same with ReLU as a second statement "
      "(Eq. 2.1), and capsule routing with two routing iterations of Sabour "
      "et al.'s algorithm unrolled (joined by the agreement update "
      "b_ij += u_ij . v_j). The dissertation does not list its operator "
      "graphs; docs/topdown-embedding.md quotes what its text says about "
      "them. A count marked with a limit is what the search reached before "
      "it stopped.")
    w("")
    w("## Tab. 3.4 / Fig. 3.15: candidates / solutions per configuration")
    w("")
    w("| operator | config 1 | config 2 | config 3 | config 4 |")
    w("| --- | --- | --- | --- | --- |")
    for name in funcs:
        cells = []
        for config in (1, 2, 3, 4):
            r = per_config[(name, config)]
            cell = "%d / %d" % (r["candidates"], r["solutions"])
            if r["solutions"]:
                cell = "**%s**" % cell
            if r["limit"]:
                cell += " (%s limit)" % r["limit"]
            cells.append(cell)
        w("| %s | %s |" % (label(name), " | ".join(cells)))
    w("")
    w("## Tab. 3.5: layout transposition (configuration 4, every permutation)")
    w("")
    w("| kernel | permutations | candidates | solutions | hit rate | "
      "candidates rel. to Tab. 3.3 | solutions rel. to Tab. 3.3 | time (s) | "
      "dissertation: candidates / solutions / hit rate |")
    w("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    for name, t in layouts.items():
        base = per_config[(name, 4)]
        rel = lambda a, b: ("%.2f" % (a / b)) if b else "-"
        hit = 100.0 * t["solutions"] / t["candidates"] if t["candidates"] else 0
        p = PAPER_LAYOUT[name]
        w("| %s | %d | %d | %d | %.2f%% | %s | %s | %.2f%s | %d / %d / %g%% |" %
          (label(name), t["perms"], t["candidates"], t["solutions"], hit,
           rel(t["candidates"], base["candidates"]),
           rel(t["solutions"], base["solutions"]), t["seconds"],
           " (limits: %s)" % ", ".join(sorted(t["limits"]))
           if t["limits"] else "", p[0], p[1], p[2]))
    w("")
    for name, t in layouts.items():
        base = per_config[(name, 4)]
        if t["distinct"] == {(base["candidates"], base["solutions"])}:
            w("%s: every permutation gives the untransposed kernel's %d "
              "candidates and %d solutions, so the ratios are just the number "
              "of permutations (%d): transposing every operand and "
              "computation of the rank alike leaves each access's order of "
              "iterators, which is what the label trees see, as it was." %
              (label(name), base["candidates"], base["solutions"],
               t["perms"]))
        else:
            w("%s: per permutation, candidates / solutions: %s." % (
                label(name), ", ".join("%d / %d" % c
                                          for c in sorted(t["distinct"]))))
        w("")
    w("## Applied: `--tcg-topdown-embed=search=true` (configuration 4)")
    w("")
    w("The solution the pass attaches (one kernel per statement, each "
      "covered statement with its instruction's `#tcg.embedding`; a fused "
      "solution split back into its statements), in statement order; its "
      "coverage (Eq. 3.4) on the graph applied (`topdown.applied_coverage`), "
      "which is what the pass ranks solutions by; and `fails` (solutions it "
      "could not apply). The search's best (Tab. 3.3's column) is ranked on "
      "the searched graph; for a fused graph (Fig. 3.12) the applied "
      "statements hold more nodes (the split local rows and the fused "
      "iterator's new dimensions), so a fused best can rank below an "
      "unfused solution once it is applied. *Applicable* counts the "
      "solutions the pass can apply that give distinct programs "
      "(`topdown.solution`; solutions applying the same statements with "
      "the same embeddings count once, an access such as oh + kh and "
      "kh + oh alike). "
      "`test/Dialect/TCG/TopDown/topdown-embed-search.mlir` strategy-applies "
      "these statements and checks them on `raf-run` against PyTorch.")
    w("")
    w("| operator | applied instructions | applied coverage | fails | "
      "applicable | the search's best (coverage of the searched graph) |")
    w("| --- | --- | --- | ---: | ---: | --- |")
    applied = {}
    for name, text in funcs.items():
        e = embed(args.raf_opt, text, "config=4 " + limit)
        best = per_config[(name, 4)]["best"]
        if "error" in e:
            w("| %s | error: %s | - | - | - | %s |" % (
                label(name), e["error"].replace("|", "/"), best))
            applied[name] = "error: %s" % e["error"]
            continue
        applied[name] = "%d instructions covering %s, %d applicable%s" % (
            len(e["instructions"]), e["coverage"], e["applicable"],
            " (%s limit)" % e["limit"] if e["limit"] else "")
        same = sorted(e["instructions"]) == sorted(best.split(" (")[0].split())
        w("| %s | %s | %s | %d | %d%s | %s |" % (
            label(name), " ".join(e["instructions"]), e["coverage"],
            e["fails"], e["applicable"],
            " (%s limit)" % e["limit"] if e["limit"] else "",
            "the same instructions" if same else best))
        print("embed %-18s %s" % (name, e), file=sys.stderr)
    w("")
    if kept:
        w(kept)
        w("")
    out.extend(comparison(args, funcs, limit))
    solved = [PAPER[n][0] for n in originals
              if per_config[(n, 4)]["solutions"]]
    unsolved = [PAPER[n][0] for n in originals
                if not per_config[(n, 4)]["solutions"]]
    w("## Reading")
    w("")
    w(READING % (", ".join(solved) or "no operator",
                 ", ".join(unsolved) or "none",
                 search_times(per_config, originals)))
    w("")
    reading = variants_reading(per_config, applied, longer,
                               args.long_time_limit)
    if reading:
        w("The larger variants (configuration 4, same "
          "limits; in parentheses the Tab. 3.3 kernel it varies, then the "
          "dissertation's number): " + reading + " " + VARIANTS_READING)
        w("")
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as f:
        f.write("\n".join(out))
    print("wrote " + args.out, file=sys.stderr)


if __name__ == "__main__":
    main()
