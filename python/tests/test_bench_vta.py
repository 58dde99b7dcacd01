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
        if key == "All 108 DeepBench":
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
