"""Smoke test of bench/vta/run.py --quick: the run finishes, and the
markdown has the three suites' tables with their columns, a geo-mean row per
table, the dissertation's reference rows and a status per layer.

Run with:  /usr/bin/python3 -m pytest python/tests/test_bench_vta.py
"""

import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from raf_tools import BUILD, RAF_OPT, RAF_TRANSLATE, REPO, require_tools  # noqa: E402

require_tools(RAF_OPT, RAF_TRANSLATE, BUILD / "bin" / "raf-vta-sim")

COLUMNS = ["Op S", "Transf. S", "Combined S", "Data", "Weights", "Tot."]


def tables(text):
    """{section title: [rows as cell lists]} of the markdown tables that
    follow a '## ' heading (the first table of each section)."""
    result = {}
    for section in re.split(r"^## ", text, flags=re.M)[1:]:
        title, _, body = section.partition("\n")
        rows = []
        for line in body.splitlines():
            if line.startswith("|"):
                rows.append(line)
            elif rows:
                break
        result[title.strip()] = [[c.strip() for c in r.strip("|").split("|")] for r in rows]
    return result


def test_quick(tmp_path):
    out = tmp_path / "vta.md"
    run = subprocess.run(
        [sys.executable, str(REPO / "bench" / "vta" / "run.py"), "--quick",
         "--build-dir", str(BUILD / "bin"), "--out", str(out),
         "--plot", str(tmp_path / "vta.png"), "--candidates", "2", "--timeout", "120"],
        capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-4000:]
    # Progress: one line per layer with i/N and an ETA.
    assert re.search(r"^\[1/\d+\] .* ETA ", run.stderr, re.M), run.stderr
    text = out.read_text()
    assert text.startswith("# VTA")
    assert "Machine: " in text and "cycle-model numbers" in text
    found = tables(text)
    suites = {"Case study": None, "All 108 DeepBench": None, "Tab. 4.6": None}
    for title, rows in found.items():
        for key in suites:
            if key in title:
                suites[key] = rows
    for key, rows in suites.items():
        assert rows, f"no table for {key}:\n{text}"
        header = rows[0]
        for column in ["ID", "base cycles", "best cycles", *COLUMNS, "status"]:
            assert column in header, (key, header)
        assert "roofline base" in header and "roofline best" in header
        body = [r for r in rows[2:] if r and not r[0].startswith("**")]
        geo = [r for r in rows[2:] if r and r[0] == "**Geo-mean**"]
        assert body, key
        assert len(geo) == 1, key
        assert re.search(r"\d+ of \d+ layers", geo[0][1]), geo
        for row in body:
            assert len(row) == len(header), (key, row)
            status = row[header.index("status")]
            assert status, row
            if status.startswith("ok"):
                cycles = row[header.index("base cycles")]
                assert cycles.isdigit() and int(cycles) > 0, row
                for column in COLUMNS:
                    assert re.fullmatch(r"x\d+\.\d{3}", row[header.index(column)]), row
    assert "x2.813" in text and "x4.990" in text  # the dissertation's rows
    assert "## Failures" in text


def bench_module():
    import importlib.util
    spec = importlib.util.spec_from_file_location("vta_bench", REPO / "bench" / "vta" / "run.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_pad_replay_matches_numpy_pad():
    """The replay's pad (zeros plus one slice copy) is np.pad."""
    import numpy as np
    bench = bench_module()
    rng = np.random.default_rng(7)
    for shape, width in [((1, 3, 5, 4), [0, 7, 0, 13, 1, 1, 2, 0]),
                         ((2, 1, 6), [0, 0, 3, 0, 0, 5]), ((4,), [0, 0])]:
        x = rng.integers(-128, 128, size=shape, dtype=np.int8)
        entry = {"op": "relay.nn.pad",
                 "attrs": "pad_width = array<i64: " + ", ".join(map(str, width)) + ">"}
        got = bench.replay(entry, [x])
        want = np.pad(x, [(width[2 * i], width[2 * i + 1]) for i in range(x.ndim)])
        assert got.dtype == want.dtype and got.shape == want.shape
        assert np.array_equal(got, want)


def test_zero_dilated_kernel_baseline_computes_the_same():
    """The dilated layers' TVM baseline (a kernel dilated with zeros,
    dilation 1) has the layer's output shape and values (torch as oracle)."""
    import numpy as np
    import torch
    bench = bench_module()
    conv = bench.Conv("d", 1, 3, 13, 11, 4, 3, 2, 1, 0, 1, 2, dil=3)
    zero = conv.with_zero_dilated_kernel()
    assert (zero.kh, zero.kw, zero.dil) == (7, 4, 1)
    assert (zero.oh, zero.ow) == (conv.oh, conv.ow)
    assert zero.macs() > conv.macs()
    assert "dilation" not in zero.mlir() and "dilation" in conv.mlir()
    assert bench.Conv("u", 1, 3, 8, 8, 4, 3, 3, 1, 1, 1, 1).with_zero_dilated_kernel().dil == 1
    rng = np.random.default_rng(3)
    x = torch.tensor(rng.integers(-8, 8, size=(conv.n, conv.c, conv.h, conv.w)),
                     dtype=torch.float64)
    w = rng.integers(-8, 8, size=(conv.oc, conv.c, conv.kh, conv.kw))
    wz = np.zeros((conv.oc, conv.c, zero.kh, zero.kw), dtype=w.dtype)
    wz[:, :, ::conv.dil, ::conv.dil] = w
    stride, pad = (conv.sh, conv.sw), (conv.pad_h, conv.pad_w)
    want = torch.nn.functional.conv2d(x, torch.tensor(w, dtype=torch.float64), stride=stride,
                                      padding=pad, dilation=conv.dil)
    got = torch.nn.functional.conv2d(x, torch.tensor(wz, dtype=torch.float64), stride=stride,
                                     padding=pad)
    assert tuple(got.shape) == (conv.n, conv.oc, conv.oh, conv.ow)
    assert torch.equal(got, want)


def test_mac_steps_bounds_the_cycles(tmp_path):
    """The --cycles-only pruning bound: the packed kernel's multiply-
    accumulate micro-op steps are N * OC/16 * OH * OW * IC/16 * KH * KW for
    TVM's strict mapping on 1x16x16, and the compiled schedule's cycles are
    at least that many."""
    bench = bench_module()
    conv = bench.Conv("t", 1, 16, 6, 6, 32, 3, 3, 1, 1, 1, 1)
    source = tmp_path / "conv.mlir"
    source.write_text(conv.mlir())
    emb, packed = tmp_path / "emb.mlir", tmp_path / "packed.mlir"
    subprocess.run([str(RAF_OPT), str(source), "--convert-relay-to-tcg",
                    "--tcg-dataflow-embed=intrinsic=vta.gemm.1x16x16 mode=strict "
                    "max-candidates=1", "-o", str(emb)], check=True)
    subprocess.run([str(RAF_OPT), str(emb), "--tcg-apply-strategy=candidate=0", "-o",
                    str(packed)], check=True)
    steps = bench.mac_steps(packed.read_text())
    assert steps == 1 * 2 * 6 * 6 * 1 * 3 * 3
    lowered = subprocess.run([str(RAF_OPT), str(packed), "--tcg-lower-to-vta=report=true "
                              "requant-shift=8", "-o", str(tmp_path / "vta.mlir")],
                             capture_output=True, text=True, check=True)
    cycles = int(re.search(r"remark: vta: cycles=(\d+)", lowered.stderr).group(1))
    assert cycles >= steps
    assert bench.mac_steps("func.func @main() { return }") is None


def test_cycles_only(tmp_path):
    """--cycles-only writes the tuned-vs-heuristic table per suite with
    progress, without timing host code."""
    out = tmp_path / "vta-cycles.md"
    run = subprocess.run(
        [sys.executable, str(REPO / "bench" / "vta" / "run.py"), "--cycles-only",
         "--layers", "case:4", "--schedule", "both", "--tune-trials", "20",
         "--candidates", "2", "--build-dir", str(BUILD / "bin"), "--out", str(out)],
        capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stderr[-4000:]
    assert re.search(r"^\[1/1\] case 4 .*op heuristic x\d+\.\d{3}, tuned x\d+\.\d{3}.* ETA ",
                     run.stderr, re.M), run.stderr
    text = out.read_text()
    rows = tables(text)
    table = next(r for t, r in rows.items() if t.startswith("Case study"))
    header = table[0]
    body = [r for r in table[2:] if r and r[0] == "4"]
    assert len(body) == 1 and body[0][header.index("status")] == "ok", table
    heur, tuned = (int(body[0][header.index(c)]) for c in ("base cycles heur.",
                                                           "base cycles tuned"))
    assert heur > 0 and tuned > 0
    assert body[0][header.index("base tuned/heur.")] == f"{tuned / heur:.4f}"
    assert "## Summary" in text and not any("host" in c for c in header)


def test_vta_sim_stats_host_clock():
    """raf-run's statistics line: host-cpu-ms (the thread's CPU time) when
    the tool prints it, else the wall time's host-ms."""
    bench = bench_module()
    new = ("vta-sim: kernels=1 cycles=191 instructions=30 uops=5 host-ms=2.500 "
           "launch-ms=0.065 host-cpu-ms=0.125\n")
    old = "vta-sim: kernels=1 cycles=191 instructions=30 uops=5 host-ms=2.500 launch-ms=0.065\n"
    m = bench.VTA_SIM_STATS.search(new)
    assert m and m.group(3) == "2.500" and m.group(5) == "0.125"
    m = bench.VTA_SIM_STATS.search(old)
    assert m and m.group(4) == "0.065" and m.group(5) is None


def test_sampled_checks(tmp_path):
    """--schedule both with the default --checks sample: the host code is
    timed once per candidate on the thread's CPU clock, the heuristic
    cycles come from that raf-run, and one tuned module per layer is run
    through raf-run (cycles equal to the tuner's, output bit-identical)."""
    out = tmp_path / "vta.md"
    run = subprocess.run(
        [sys.executable, str(REPO / "bench" / "vta" / "run.py"), "--layers", "case:4",
         "--schedule", "both", "--tune-trials", "20", "--candidates", "2",
         "--host-repeat", "1", "--repeat", "1", "--build-dir", str(BUILD / "bin"),
         "--out", str(out), "--plot", str(tmp_path / "vta.png")],
        capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stderr[-4000:]
    text = out.read_text()
    assert "`host-cpu-ms` (the thread's CPU time" in text, text
    assert re.search(r"heuristic cycles from \d+ raf-run candidate", text), text
    row = next(line for line in text.splitlines()
               if line.startswith("| 4 |") and "run: cycles equal" in line)
    assert "1 run: cycles equal on 1, output bit-identical on 1" in row, row


def test_known_schedule_compiled_by_raf_run(tmp_path):
    """A candidate whose tuned schedule is known (the cycles-only cache or an
    earlier candidate with the same packed kernel) is compiled by raf-run
    with that schedule recorded on the kernel: raf-run's cycles are the
    tuner's, and its output is the heuristic schedule's bit for bit."""
    import numpy as np
    bench = bench_module()
    conv = bench.Conv("t", 1, 16, 6, 6, 32, 3, 3, 1, 1, 1, 1)
    source = tmp_path / "conv.mlir"
    source.write_text(conv.mlir())
    emb, packed, tuned = (tmp_path / f"{n}.mlir" for n in ("emb", "packed", "tuned"))
    subprocess.run([str(RAF_OPT), str(source), "--convert-relay-to-tcg",
                    "--tcg-dataflow-embed=intrinsic=vta.gemm.1x16x16 mode=strict "
                    "max-candidates=1", "-o", str(emb)], check=True)
    subprocess.run([str(RAF_OPT), str(emb), "--tcg-apply-strategy=candidate=0", "-o",
                    str(packed)], check=True)
    tune = subprocess.run([str(RAF_OPT), str(packed), "--vta-schedule=method=tune "
                           "tuner=validity trials=20 seed=0 requant-shift=8 report=true",
                           "-o", str(tuned)], capture_output=True, text=True, check=True)
    cycles = int(bench.SCHEDULE_REMARK.search(tune.stderr).group(1))
    schedule = bench.SCHEDULE_ATTR.search(tuned.read_text()).group(1)
    text = packed.read_text()
    attached = bench.attach_schedule(text, schedule)
    assert attached is not None and attached.count(f"vta.schedule = {schedule}") == 1
    assert bench.attach_schedule(attached, schedule) is None  # already scheduled
    assert bench.attach_schedule(text, schedule + "; " + schedule) is None  # two kernels
    known = bench.reusable_schedule(
        {"heuristic": {"ok": True, "cycles": 7}, "tuned": {"ok": True, "cycles": cycles,
                                                         "schedule": schedule}}, None, None)
    assert known["schedule"] == schedule and known["source"] == "cycles-only cache"
    assert bench.reusable_schedule(None, "k", {"k": known}) == known
    assert bench.reusable_schedule(None, "other", {"k": known}) is None
    tools = bench.Tools(BUILD / "bin", 600)
    run = bench.compiled_host(tools, attached, tmp_path, "tuned", 0)
    heuristic = bench.compiled_host(tools, text, tmp_path, "heur", 0)
    assert run["ok"] and heuristic["ok"], (run, heuristic)
    assert run["cycles"] == cycles
    assert np.array_equal(np.load(tmp_path / "tuned.out.npy"), np.load(tmp_path / "heur.out.npy"))


def test_cycles_cache_reused_by_the_combined_run(tmp_path):
    """--schedule both with a --cycles-only cache written by the tools given
    as --cycles-cache-tools: every candidate takes its heuristic cycles and
    tuned schedule from the cache, raf-run compiles the tuned schedule (its
    cycles equal the cache's) and one heuristic module per layer is checked
    (cycles equal, output bit-identical)."""
    cache = tmp_path / "cycles"
    common = ["--layers", "case:4", "--schedule", "both", "--tune-trials", "20",
              "--candidates", "2", "--build-dir", str(BUILD / "bin")]
    script = str(REPO / "bench" / "vta" / "run.py")
    run = subprocess.run([sys.executable, script, "--cycles-only", *common, "--results-cache",
                          str(cache), "--out", str(tmp_path / "cycles.md")],
                         capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stderr[-4000:]
    out = tmp_path / "vta.md"
    run = subprocess.run([sys.executable, script, *common, "--host-repeat", "1", "--repeat",
                          "1", "--cycles-cache", str(cache), "--cycles-cache-tools",
                          str(BUILD / "bin"), "--out", str(out), "--plot",
                          str(tmp_path / "vta.png")],
                         capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stderr[-4000:]
    text = out.read_text()
    m = re.search(r"(\d+) candidate\(s\) whose heuristic cycles and tuned schedule were known "
                  r".*?raf-run's cycles equal the tuned ones on (\d+) of (\d+); heuristic "
                  r"sample .*?: (\d+) run, cycles equal to the known ones on (\d+), output "
                  r"bit-identical to the tuned schedule's on (\d+)", text)
    assert m, text
    known, equal, ran, sample, sample_equal, sample_bits = map(int, m.groups())
    assert known >= 2 and equal == ran == known
    assert sample == sample_equal == sample_bits == 1
    assert re.search(r"tuned: \d+ candidate\(s\), \d+ from the cycles-only cache", text)


def test_program_key_is_the_function_up_to_ssa_numbering():
    """A relaxed candidate whose packed function is the baseline's up to SSA
    numbering is the same program and takes the baseline's measurement."""
    bench = bench_module()
    a = "%3 = relay.transpose %arg0\n%4 = tcg.kernel \"nn.conv2d\" (%data = %3)\nreturn %4\n"
    b = "%7 = relay.transpose %arg0\n%9 = tcg.kernel \"nn.conv2d\" (%data = %7)\nreturn %9\n"
    c = "%7 = relay.reshape %arg0\n%9 = tcg.kernel \"nn.conv2d\" (%data = %7)\nreturn %9\n"
    assert bench.program_key(a) == bench.program_key(b)
    assert bench.program_key(a) != bench.program_key(c)
    assert bench.kernel_key(a) == bench.kernel_key(c)  # same kernel, other host code


def test_results_store_round_trip():
    """The JSON store gives back what was stored: tuples stay tuples (the
    harness compares embeddings as tuples), numpy scalars become numbers,
    the Conv is left out."""
    bench = bench_module()
    import numpy as np
    value = {"conv": object(), "mapping": (("x", None), ("y", "oc16")),
             "cycles": np.int64(7), "op_s": np.float64(0.5),
             "relaxed": [{"candidate": 0, "ok": True, "schedule": "s"}]}
    back = bench.from_json(bench.json.loads(bench.json.dumps(bench.to_json(value))))
    assert back == {k: v for k, v in value.items() if k != "conv"}
    assert isinstance(back["mapping"], tuple) and isinstance(back["mapping"][0], tuple)
    assert type(back["cycles"]) is int
    try:
        bench.to_json({"bad": object()})
    except TypeError as error:
        assert "object" in str(error)
    else:
        raise AssertionError("an unstorable value was stored")


def test_results_store_read_back(tmp_path):
    """A layer measured into --results-store is read back by the next run
    (same report rows, the layer counted as read back, the tools named)
    instead of being measured again."""
    store = tmp_path / "store"
    script = str(REPO / "bench" / "vta" / "run.py")
    common = ["--layers", "case:10", "--candidates", "2", "--host-repeat", "1", "--repeat",
              "1", "--build-dir", str(BUILD / "bin"), "--results-store", str(store),
              "--tools-commit", "test"]
    reports = []
    for run_index in range(2):
        out = tmp_path / f"vta{run_index}.md"
        run = subprocess.run([sys.executable, script, *common, "--out", str(out), "--plot",
                              str(tmp_path / f"vta{run_index}.png")],
                             capture_output=True, text=True, timeout=900)
        assert run.returncode == 0, run.stderr[-4000:]
        reports.append(out.read_text())
    records = list(store.glob("*.json"))
    assert len(records) == 1, records
    record = bench_module().json.loads(records[0].read_text())
    assert record["tools"]["commit"] == "test" and len(record["tools"]["hash"]) == 12
    assert record["layer"] == "1x1x40x151 * 32x1x5x20 p8,8 s2,8"
    assert "0 layer(s) measured by this invocation, 1 read" not in reports[0]
    assert "0 layer(s) measured by this invocation, 1 read" in reports[1]
    assert f"{record['tools']['hash']} (test): 1 layer(s)" in reports[1]
    first, second = tables(reports[0]), tables(reports[1])
    case = [title for title in first if title.startswith("Case study")]
    assert case
    # The bound column is computed at render time from this machine's copy
    # bandwidth, measured anew by each run; every other cell is stored.
    header = first[case[0]][0]
    bound = [i for i, name in enumerate(header) if name.startswith("bound")]
    assert len(bound) == 1, header

    def stored_cells(rows):
        return [[c for i, c in enumerate(row) if i not in bound] for row in rows]

    assert stored_cells(first[case[0]]) == stored_cells(second[case[0]])

    # --stored-only measures nothing: a layer not in the store is named and
    # left out, and a store without any of the layers is an error.
    out = tmp_path / "stored-only.md"
    only = [sys.executable, script, *common, "--stored-only", "--out", str(out), "--plot",
            str(tmp_path / "stored-only.png")]
    only[only.index("case:10")] = "case:10,case:4"
    run = subprocess.run(only, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-4000:]
    assert "1 layer(s) not in" in run.stderr and "left out: case:4" in run.stderr
    assert stored_cells(tables(out.read_text())[case[0]]) == stored_cells(first[case[0]])
    only[only.index("case:10,case:4")] = "case:4"
    run = subprocess.run(only, capture_output=True, text=True, timeout=300)
    assert run.returncode != 0 and "none of the layers is in" in run.stderr
