"""Smoke test of bench/cpu/run.py in its quickest mode: the 9216 -> 4096
dense layer at batch 1, forward and training step, one timed run each. The
run must finish, print its progress, and write the markdown with the peak,
the load, the three tables (forward, training step, compile time) and a
numeric row per table for the dense layer (times, GFLOP/s, numerics), no
failures. The 1-thread rows compare thread CPU times, kept next to the
wall-clock ones: each CPU median is at most its wall median (one thread
cannot use more CPU than time passes), the summary's 1-thread ratios are the
CPU columns', and PyTorch's calling thread did (nearly) all of its
process's work at 1 thread.

Run with:  /usr/bin/python3 -m pytest python/tests/test_bench_cpu.py
"""

import os
import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from raf_tools import BUILD, RAF_OPT, RAF_RUN, REPO, require_tools  # noqa: E402

require_tools(RAF_OPT, RAF_RUN)


def table_rows(text: str, heading: str):
    """The rows (as cell lists) of the first table after ``## heading``."""
    section = text.split(f"## {heading}", 1)[1]
    rows = []
    for line in section.splitlines()[1:]:
        if line.startswith("|"):
            rows.append([c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]])
        elif rows:
            break
    return rows


def test_quick_dense(tmp_path):
    out = tmp_path / "cpu.md"
    env = dict(os.environ, RAF_BUILD_DIR=str(BUILD))
    run = subprocess.run(
        [sys.executable, str(REPO / "bench" / "cpu" / "run.py"), "--quick",
         "--models", "dense_b1", "--repeat", "1", "--train-repeat", "1", "--out", str(out)],
        capture_output=True, text=True, timeout=300, env=env)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert "[1/1] dense 9216->4096, batch 1" in run.stdout, run.stdout
    assert "training step: raf-run --threads=1" in run.stdout, run.stdout

    text = out.read_text()
    assert text.startswith("# CPU benchmark")
    assert re.search(r"fp32 peak .*\*\*[0-9.]+ GFLOP/s at 1 thread", text), text
    assert re.search(r"FMA loop on 1[26] independent", text), text
    assert "Load: at start" in text and "load average" in text
    assert "BLAS_INFO=" in text
    assert "## Failures" not in text, text

    threads = sorted({1, os.cpu_count() or 1})
    # Where PyTorch's 1-thread work ran: its calling thread's share of the
    # process's CPU time (below ~50 % when OpenBLAS behind torch's
    # libblas.so.3 keeps a thread per core).
    shares = re.search(r"PyTorch's calling thread accounted for .*?: PyTorch "
                       r"([0-9.]+)-([0-9.]+) %", text)
    assert shares and float(shares.group(1)) >= 90, shares and shares.group(0)
    one_thread = {}
    for heading in ("Forward", "Training step"):
        header, _, *rows = table_rows(text, heading)
        assert [r[header.index("threads")] for r in rows] == [str(t) for t in threads], rows
        for row in rows:
            t = int(row[header.index("threads")])
            assert row[header.index("time")] == ("thread CPU" if t == 1 else "wall"), row
            for compared, wall in (("ours ms (min)", "ours wall ms (min)"),
                                   ("PyTorch ms (min)", "PyTorch wall ms (min)")):
                median, _ = map(float, re.fullmatch(r"([0-9.]+) \(([0-9.]+)\)",
                                                    row[header.index(compared)]).groups())
                wall_median, _ = map(float, re.fullmatch(
                    r"([0-9.]+) \(([0-9.]+)\)", row[header.index(wall)]).groups())
                if t == 1:
                    # Per call CPU <= wall, so the medians too (2 % and
                    # 0.05 ms for rounding).
                    assert median <= wall_median * 1.02 + 0.05, (compared, row)
                else:
                    assert median == wall_median, (compared, row)
            if t == 1:
                one_thread[heading] = (
                    float(row[header.index("ours ms (min)")].split()[0]),
                    float(row[header.index("PyTorch ms (min)")].split()[0]))
            assert row[0] == "dense 9216->4096, batch 1", row
            assert float(row[1]) > 0.07, row  # GFLOP: 2 * 9216 * 4096 = 0.0755 forward
            for column in ("ours ms (min)", "PyTorch ms (min)"):
                median, fastest = re.fullmatch(r"([0-9.]+) \(([0-9.]+)\)",
                                               row[header.index(column)]).groups()
                assert 0 < float(fastest) <= float(median), (column, row)
            assert float(row[header.index("ours / PyTorch")]) > 0, row
            for column in ("ours GFLOP/s (% peak)", "PyTorch GFLOP/s (% peak)"):
                rate = row[header.index(column)]
                assert re.fullmatch(r"[0-9.]+ \([0-9.]+ %\)", rate), rate
            numerics = row[header.index("numerics vs PyTorch")]
            if heading == "Forward":
                assert float(numerics.split()[0]) < 1e-3, numerics
            else:
                loss_rel = float(re.search(r"\(rel ([0-9.e+-]+)\)", numerics).group(1))
                update = float(re.search(r"update rel diff ([0-9.e+-]+)", numerics).group(1))
                assert loss_rel < 1e-4 and update < 1e-3, numerics
    if "PyTorch + OpenBLAS: the same PyTorch" in text:
        # Each worker reported OpenBLAS mapped (else the cell is a failure,
        # which "## Failures" above would show).
        assert "/proc/self/maps" in text, text
        for heading in ("Forward", "Training step"):
            header, _, *rows = table_rows(text, heading)
            for row in rows:
                assert re.fullmatch(r"[0-9.]+ \([0-9.]+\)",
                                    row[header.index("PyTorch + OpenBLAS ms (min)")]), row
                assert re.fullmatch(r"[0-9.]+( \(stock faster\))?",
                                    row[header.index("ours / faster PyTorch")]), row
    header, _, row = table_rows(text, "Summary")
    assert row[0] == "dense 9216->4096, batch 1"
    assert all(re.search(r"\*\*[0-9.]+\*\*", c) for c in row[1:1 + 2 * len(threads)]), row
    for heading, mode in (("Forward", "forward"), ("Training step", "training step")):
        cell = row[header.index(f"{mode} 1T: ours / PyTorch thread CPU ms")]
        ours, torch_ms = map(float, re.match(r"([0-9.]+) / ([0-9.]+) =", cell).groups())
        assert (ours, torch_ms) == one_thread[heading], (cell, one_thread)
    if len(threads) > 1:
        assert f"forward {threads[-1]}T: ours / PyTorch wall ms" in header, header
    header, _, *rows = table_rows(text, "OpenBLAS on this machine")
    assert [r[header.index("time")] for r in rows[:len(threads)]] == \
        ["thread CPU" if t == 1 else "wall" for t in threads], rows
    header, _, row = table_rows(text, "Compile time")
    assert row[0] == "dense 9216->4096, batch 1"
    compiles = [c for h, c in zip(header, row) if "pipeline + LLVM" in h]
    assert len(compiles) == 2 * len(threads)
    assert all(re.search(r"= \*\*[0-9.]+\*\*", c) for c in compiles), row


def test_faster_torch_and_worker_failures():
    """The fair ratio takes the faster PyTorch column and flags stock
    PyTorch; a PyTorch + OpenBLAS worker's failure reaches ## Failures."""
    sys.path.insert(0, str(REPO / "bench" / "cpu"))
    import run as bench  # noqa: E402

    def times(wall, cpu):
        return bench.TorchTimes(wall, wall, cpu, cpu, 1.0)

    # At 1 thread by CPU time (stock faster there, though slower by wall),
    # above by wall-clock time.
    side = bench.Side(torch={1: times(10.0, 9.0), 2: times(30.0, 28.0)},
                      torch_openblas={1: times(9.5, 9.5), 2: times(20.0, 35.0)},
                      torch_openblas_error={4: "OpenBLAS not mapped in the worker"})
    assert bench.faster_torch(side, 1) == (9.0, True)
    assert bench.faster_torch(side, 2) == (20.0, False)
    assert bench.faster_torch(side, 4) == (None, False)
    result = bench.Result("m", "model m", forward=side)
    text = "\n".join(bench.failures([result]))
    assert "model m, forward, PyTorch + OpenBLAS worker, 4 thread(s)" in text, text
    assert "OpenBLAS not mapped in the worker" in text, text
