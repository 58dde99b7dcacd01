"""Numerical check of every applicable top-down solution (Rieber 2022, ch. 3).

For each of the seven operators of Tab. 3.3 (bench/topdown/operators.mlir),
--tcg-topdown-embed=search=true (configuration 4, selective masking) ranks
the solutions it can apply; `solution=K` applies the K-th and every
statement kernel carries `topdown.solution = array<i64: K, count>`. Each
checked solution is strategy-applied with --tcg-apply-strategy and run on
raf-run; the result must match PyTorch (the oracle of
test/Dialect/TCG/TopDown/Inputs/operators_oracle.py, standard-normal inputs,
so negative values reach the maxima, ReLU and the exponentials). A solution
the strategy derivation cannot consume must be refused with a located error
(counted and reported), never a crash or a wrong number.

By default an operator with at most SMALL applicable solutions has all of
them checked and a larger one an evenly spaced sample of SAMPLE (the first
and the last included; RAF_TOPDOWN_SAMPLE=N sets its size);
RAF_TOPDOWN_ALL=1 checks every solution.

The larger variants closer to the dissertation's operators (Conv2D with bias and same
padding, with ReLU, capsule routing with two routing iterations; the
oracle's expected_variants) are checked the same way, by default VARIANT_SAMPLE
evenly spaced solutions each (every embedding reruns their search: about a
minute for Conv2D + bias + ReLU); their search runs without a time limit
(time-limit=0), so that only the graph and candidate limits stop it and the
solution count does not depend on the machine's load. A summary
line per operator is printed (pytest -s), and with
RAF_TOPDOWN_SUMMARY=<path> appended to that file as JSON lines.

Run with:  /usr/bin/python3 -m pytest python/tests/test_topdown_solutions.py
"""

import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from raf_tools import RAF_OPT, RAF_RUN, REPO, require_tools  # noqa: E402

pytest.importorskip("torch")
require_tools(RAF_OPT, RAF_RUN)

OPERATORS_MLIR = REPO / "bench" / "topdown" / "operators.mlir"
VARIANTS_MLIR = REPO / "bench" / "topdown" / "variants.mlir"
ORACLE = REPO / "test" / "Dialect" / "TCG" / "TopDown" / "Inputs" / \
    "operators_oracle.py"
EMBED = ("--tcg-topdown-embed=search=true selective-masking=true "
         "max-maskings=65536 solution=%d")
SMALL = 40
SAMPLE = int(os.environ.get("RAF_TOPDOWN_SAMPLE", "8"))
VARIANT_SAMPLE = 3
ALL = os.environ.get("RAF_TOPDOWN_ALL", "") not in ("", "0")

# The operands of each operator, named as in operators_oracle.SHAPES.
OPERANDS = {
    "fc_bias": ["x", "w", "b"],
    "fc_bias_sigmoid": ["x", "w", "b"],
    "gemm": ["x", "w"],
    "attention": ["q", "k", "s"],
    "conv2d_nhwc": ["data", "hwio"],
    "conv2d_relu_nhwc": ["data", "hwio"],
    "capsule_routing": ["blog", "u"],
}
# The larger variants closer to the dissertation's operators
# (bench/topdown/variants.mlir).
VARIANTS = {
    "conv2d_bias_nhwc": ["data", "hwio", "cb"],
    "conv2d_bias_relu_nhwc": ["data", "hwio", "cb"],
    "capsule_routing_r2": ["blog", "u"],
}
OPERANDS.update(VARIANTS)

SOLUTION = re.compile(r"topdown\.solution = array<i64: (\d+), (\d+)>")
# What a tool prints when it crashes rather than refusing with a diagnostic.
CRASH = re.compile(r"Stack dump|LLVM ERROR|Assertion .* failed|"
                   r"PLEASE submit a bug report|Segmentation fault")


def load_oracle():
    spec = importlib.util.spec_from_file_location("operators_oracle", ORACLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def function_source(name):
    """The text of func.func @name in operators.mlir (variants.mlir for
    the variants)."""
    path = VARIANTS_MLIR if name in VARIANTS else OPERATORS_MLIR
    text = path.read_text()
    match = re.search(r"^func\.func @%s\(.*?^}\n" % name, text,
                      re.MULTILINE | re.DOTALL)
    assert match, "no @%s in %s" % (name, path)
    return match.group(0)


def run(command):
    result = subprocess.run([str(c) for c in command], capture_output=True,
                            text=True, timeout=900)
    assert not CRASH.search(result.stderr) and result.returncode >= 0, (
        "%s crashed (exit %d):\n%s" % (Path(str(command[0])).name,
                                       result.returncode,
                                       result.stderr[:4000]))
    return result


def options(name, k):
    """The --tcg-topdown-embed option of solution k of operator `name`."""
    return EMBED % k + (" time-limit=0" if name in VARIANTS else "")


def embed(name, source, k, out):
    result = run([RAF_OPT, source, options(name, k), "-o", out])
    assert result.returncode == 0, result.stderr[:4000]
    found = {(int(a), int(b)) for a, b in SOLUTION.findall(out.read_text())}
    assert len(found) == 1, found
    rank, count = found.pop()
    assert rank == k
    return count


def chosen(count, small=SMALL, sample=SAMPLE):
    if ALL or count <= small:
        return list(range(count))
    return sorted({round(i * (count - 1) / (sample - 1))
                   for i in range(sample)})


@pytest.fixture(scope="module")
def oracle(tmp_path_factory):
    module = load_oracle()
    prefix = str(tmp_path_factory.mktemp("topdown") / "in")
    module.inputs(prefix)
    expected = module.expected(prefix)
    expected.update(module.expected_variants(prefix))
    return module, prefix, expected


@pytest.mark.parametrize("name", list(OPERANDS))
def test_solutions(name, oracle, tmp_path):
    module, prefix, expected = oracle
    want = expected[name].numpy()
    source = tmp_path / ("%s.mlir" % name)
    source.write_text(function_source(name))
    count = embed(name, source, 0, tmp_path / "emb.0.mlir")
    assert count >= 1

    # Past the last applicable solution: a located error naming the count.
    beyond = run([RAF_OPT, source, options(name, count), "-o", os.devnull])
    assert beyond.returncode == 1
    assert ("error: --tcg-topdown-embed: solution=%d is out of range" % count
            in beyond.stderr and
            "found %d applicable solution(s)" % count in beyond.stderr), \
        beyond.stderr[:2000]

    checked, refused, wrong = [], [], []
    # The applied program of each checked solution, without its rank: the
    # applicable solutions count each program once, so no two may match.
    programs = {}
    sample = ((VARIANT_SAMPLE, VARIANT_SAMPLE) if name in VARIANTS else
              (SMALL, SAMPLE))
    for k in chosen(count, *sample):
        emb = tmp_path / ("emb.%d.mlir" % k)
        if k:
            assert embed(name, source, k, emb) == count
        applied = tmp_path / ("applied.%d.mlir" % k)
        result = run([RAF_OPT, emb, "--tcg-apply-strategy", "-o", applied])
        if result.returncode != 0:
            # The strategy cannot consume it: a located error, no output.
            assert re.search(r"\.mlir:\d+:\d+: error: ", result.stderr), \
                result.stderr[:4000]
            refused.append((k, result.stderr.splitlines()[0]))
            continue
        program = SOLUTION.sub("", applied.read_text())
        assert program not in programs, (
            "solutions %d and %d of %s apply the same program"
            % (programs.get(program), k, name))
        programs[program] = k
        embedded = emb.read_text().count("#tcg.embedding<")
        packed = applied.read_text().count("tcg.tensorize =")
        output = tmp_path / ("out.%d.npy" % k)
        command = [RAF_RUN, applied, "--entry=%s" % name]
        command += ["--input=%s.%s.npy" % (prefix, operand)
                    for operand in OPERANDS[name]]
        result = run(command + ["--output=%s" % output])
        assert result.returncode == 0, (k, result.stderr[:4000])
        got = np.load(output)
        checked.append(k)
        ok = module.close(got, want) and packed == embedded
        if not ok:
            error = (float(np.abs(got - want).max())
                     if got.shape == want.shape else "shape %s" % (got.shape,))
            wrong.append((k, error, packed, embedded))
        print("  %s solution %d/%d: %s" % (name, k, count,
                                           "ok" if ok else "MISMATCH"),
              flush=True)

    summary = {"operator": name, "applicable": count,
               "checked": len(checked), "refused": len(refused),
               "wrong": len(wrong), "all": ALL}
    print("topdown solutions:", json.dumps(summary))
    for k, line in refused:
        print("  solution %d refused by --tcg-apply-strategy: %s" % (k, line))
    if os.environ.get("RAF_TOPDOWN_SUMMARY"):
        with open(os.environ["RAF_TOPDOWN_SUMMARY"], "a") as f:
            f.write(json.dumps(dict(summary, refusals=refused,
                                    mismatches=wrong)) + "\n")
    assert not wrong, (
        "solutions of %s that differ from PyTorch or were not fully packed "
        "(rank, max abs error, packed, embedded): %s" % (name, wrong))
    assert checked, "no solution of %s could be applied" % name
