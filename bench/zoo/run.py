#!/usr/bin/env python3
"""The model zoo: every torchvision classifier through both frontends on both
targets, compared with PyTorch on the same weights.

For each of the classifiers the installed torchvision ships (80 in 0.14) at
batch 1 and 224x224:

* the model is built with torchvision's random initialisation and
  calibrated (``tests/zoo_models.py``: near-zero parameters made random,
  batch-norm running statistics estimated on random batches), and checked
  not to be degenerate (finite, not all ~0, spread across classes, dependent
  on the input);
* PyTorch's forward time is measured (eval mode, ``--threads`` threads);
* for each frontend -- torch.fx (``fx``) and ONNX exported by torch.onnx at
  opsets 13 and 17 (``onnx13``, ``onnx17``) -- the model is imported, and
  ``raf-run`` runs it on ``--target=cpu`` (compiled; with the on-disk compile
  cache, ``--repeat``) and ``--target=interp`` (the reference evaluator);
  every result is compared with PyTorch's: max |d| / max |PyTorch|.

Every model runs in its own subprocess (a crash or a memory blow-up of one
does not stop the others); results are appended to a JSON file after every
(model, frontend, target), and a rerun skips what is recorded (resumable).
Interpreting a big model takes long (~0.2 GMAC/s): a run whose estimated
time (the compiled code's time times the interp/compiled ratio measured so far) is over
``--interp-budget`` is recorded as "not run" with the estimate, and a run
over ``--interp-timeout`` is stopped and recorded as such.

Usage::

    bench/zoo/run.py [--models a,b] [--frontends fx,onnx13,onnx17]
                     [--targets cpu,interp] [--json FILE] [--output FILE]
                     [--interp-budget S] [--shard I/N] [--table-only] [--retry-errors]

Writes ``bench/results/zoo.md`` (``--output``) from the JSON file
(``bench/zoo/results.json``) after every model.
"""

from __future__ import annotations

import argparse
import datetime
import fcntl
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import traceback
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Dict, List, Optional

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(REPO / "python"))
sys.path.insert(0, str(REPO / "python" / "tests"))

DEFAULT_JSON = HERE / "results.json"
DEFAULT_OUTPUT = REPO / "bench" / "results" / "zoo.md"
#: interp time / PyTorch single-thread time before any model has measured it
#: (ResNet-18: 9.4 s vs ~35 ms).
DEFAULT_INTERP_RATIO = 300.0


def log(message: str) -> None:
    print(f"[{datetime.datetime.utcnow():%H:%M:%S}] {message}", flush=True)


# ---------------------------------------------------------------------------
# The JSON store (shared by concurrent shards: read-modify-write under a lock)
# ---------------------------------------------------------------------------


@contextmanager
def locked(path: Path):
    path.parent.mkdir(parents=True, exist_ok=True)
    # The lock file lives outside the repository (keyed by the store's path).
    import hashlib
    key = hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:16]
    with open(os.path.join(tempfile.gettempdir(), f"raf-zoo-{key}.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def load(path: Path) -> Dict[str, Any]:
    if not path.exists():
        return {}
    return json.loads(path.read_text())


def update(path: Path, model: str, keys: List[str], value: Any) -> None:
    """Sets ``store[model][keys[0]][keys[1]]... = value`` on disk."""
    with locked(path):
        store = load(path)
        node = store.setdefault(model, {})
        for key in keys[:-1]:
            node = node.setdefault(key, {})
        node[keys[-1]] = value
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(store, indent=1, sort_keys=True) + "\n")
        tmp.replace(path)


def lookup(store: Dict[str, Any], model: str, *keys: str) -> Any:
    node: Any = store.get(model)
    for key in keys:
        if not isinstance(node, dict) or key not in node:
            return None
        node = node[key]
    return node


def one_line(text: str, limit: int = 150) -> str:
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    # raf-run: the first "error:" line; Python: the exception's message.
    first = next((line for line in lines if "error:" in line), lines[0] if lines else "")
    first = re.sub(r"^\S*/", "", first).replace("|", "/")
    return first if len(first) <= limit else first[:limit - 3] + "..."


# ---------------------------------------------------------------------------
# One model (runs in a subprocess)
# ---------------------------------------------------------------------------


def interp_estimate(store: Dict[str, Any], name: str, frontend: str) -> Optional[float]:
    """Seconds the evaluator is expected to take: the compiled code's run
    time for this model (this frontend's, else another's) times the median
    interp wall time / compiled run time measured so far (20-175x, median
    ~50x over the first hundred runs); PyTorch's time times the median interp
    / PyTorch ratio when the compiled code has not run (a cruder estimate:
    PyTorch's speed varies with the operators); None for an untimed model."""
    by_cpu, by_torch = [], []
    for record in store.values():
        torch_ms = record.get("torch_ms")
        for entry in (record.get("frontends") or {}).values():
            runs = entry.get("targets") or {}
            interp, cpu = runs.get("interp") or {}, runs.get("cpu") or {}
            if not interp.get("wall_s") or "same_as" in interp or interp.get("status") not in (
                    "match", "MISMATCH"):
                continue
            if cpu.get("run_ms"):
                by_cpu.append(interp["wall_s"] * 1e3 / cpu["run_ms"])
            if torch_ms:
                by_torch.append(interp["wall_s"] * 1e3 / torch_ms)
    entries = lookup(store, name, "frontends") or {}
    cpu_ms = [((e.get("targets") or {}).get("cpu") or {}).get("run_ms") for e in entries.values()]
    cpu_ms = (((entries.get(frontend) or {}).get("targets") or {}).get("cpu") or {}).get(
        "run_ms") or next((ms for ms in cpu_ms if ms), None)
    if cpu_ms and by_cpu:
        return statistics.median(by_cpu) * cpu_ms / 1e3
    torch_ms = lookup(store, name, "torch_ms")
    if torch_ms is None:
        return None
    return (statistics.median(by_torch) if by_torch else DEFAULT_INTERP_RATIO) * torch_ms / 1e3


def run_raf(args, imported, workdir: Path, target: str,
            torch_ms: Optional[float] = None) -> Dict[str, Any]:
    import numpy as np

    mlir = imported.write(workdir)
    outputs = [workdir / f"raf_output_{i}.npy" for i in range(imported.num_results)]
    command = [str(args.raf_run), str(mlir), f"--entry={imported.function_name}",
               f"--target={target}", *[f"--input={workdir / a.npy}" for a in imported.arguments],
               *[f"--output={p}" for p in outputs]]
    if target == "cpu":
        # Models that take seconds per run: one timed run after the first.
        repeat = args.repeat if (torch_ms or 0) < 2000 else 1
        command += [f"--threads={args.threads}", f"--repeat={repeat}"]
    timeout = args.interp_timeout if target == "interp" else args.cpu_timeout
    for attempt in range(10):  # the tool may be being relinked by a build
        start = time.perf_counter()
        try:
            process = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
            break
        except subprocess.TimeoutExpired:
            return {"status": "not run", "detail": f"stopped after {timeout:.0f} s (timeout)"}
        except OSError:
            if attempt == 9:
                raise
            time.sleep(30)
    wall = time.perf_counter() - start
    if process.returncode != 0:
        return {"status": "error", "wall_s": wall,
                "detail": one_line(process.stderr or process.stdout or
                                   f"raf-run exited with {process.returncode}")
                + ("" if process.returncode > 0 else f" (signal {-process.returncode})")}
    result: Dict[str, Any] = {"wall_s": wall}
    compile_ = re.search(r"compile: pipeline-ms=([0-9.]+) llvm-ms=([0-9.]+)(?: cache=(\w+))?",
                         process.stdout)
    if compile_:
        result["compile_ms"] = float(compile_.group(1)) + float(compile_.group(2))
        result["cache"] = compile_.group(3) or ""
    timing = re.search(r"timing: runs=\d+ median-ms=([0-9.]+)", process.stdout)
    if timing:
        result["run_ms"] = float(timing.group(1))
    result["outputs"] = [np.load(p) for p in outputs]
    return result


def run_model(args, name: str) -> None:
    import torch
    import zoo_models as zoo

    torch.set_num_threads(args.threads)
    store = load(args.json)
    if skip_interp_over_budget(args, store, name):
        return
    workdir = args.workdir / name
    shutil.rmtree(workdir, ignore_errors=True)
    workdir.mkdir(parents=True)
    start = time.perf_counter()
    size = zoo.image_size(name)
    model = zoo.calibrated(zoo.build(name), size=size)
    x = zoo.random_input(seed=0, size=size)
    reference = None
    if lookup(store, name, "torch_ms") is None:
        with torch.no_grad():
            t0 = time.perf_counter()
            y1 = zoo.logits(model(x))
            first_ms = (time.perf_counter() - t0) * 1e3
            y2 = zoo.logits(model(zoo.random_input(seed=2, size=size)))
        reference = y1.numpy()
        degenerate = zoo.degeneracy_of(y1, y2)
        update(args.json, name, ["params"], zoo.num_params(model))
        update(args.json, name, ["input"], list(x.shape))
        update(args.json, name, ["degeneracy"], str(degenerate))
        update(args.json, name, ["degenerate"], not degenerate.ok)
        # Models taking seconds: the first run is the time (its warm-up
        # overhead is negligible); otherwise a warm-up and timed runs.
        times = [first_ms]
        if first_ms < 2000:
            times = []
            with torch.no_grad():
                model(x)  # warm-up
                for _ in range(args.repeat):
                    t0 = time.perf_counter()
                    model(x)
                    times.append((time.perf_counter() - t0) * 1e3)
                    if sum(times) > 10e3:
                        break
        update(args.json, name, ["torch_ms"], statistics.median(times))
        log(f"{name}: {zoo.num_params(model) / 1e6:.1f} M params, PyTorch "
            f"{statistics.median(times):.1f} ms, calibration {degenerate} "
            f"({time.perf_counter() - start:.0f} s)")
        store = load(args.json)
    if reference is None:
        with torch.no_grad():
            reference = zoo.logits(model(x)).numpy()
    torch_ms = lookup(store, name, "torch_ms")
    for frontend in args.frontends:
        wanted = [t for t in args.targets
                  if not done(lookup(store, name, "frontends", frontend, "targets", t), args)]
        recorded_import = lookup(store, name, "frontends", frontend, "import")
        if not wanted and recorded_import is not None:
            continue
        t0 = time.perf_counter()
        known = zoo.known_export_failure(name, frontend)
        try:
            imported = zoo.import_model(model, x, frontend, workdir)
        except Exception as error:  # noqa: BLE001 -- every failure is recorded
            message = one_line(f"{type(error).__name__}: {error}")
            if known:
                message = f"{known} [{message}]"
            update(args.json, name, ["frontends", frontend],
                   {"import": "error", "import_detail": message, "known": bool(known),
                    "import_s": time.perf_counter() - t0, "targets": {}})
            log(f"{name} {frontend}: import failed: {message}")
            if not known:
                (workdir.parent / f"{name}-{frontend}.traceback").write_text(
                    traceback.format_exc())
            continue
        import_s = time.perf_counter() - t0
        update(args.json, name, ["frontends", frontend, "import"], "ok")
        update(args.json, name, ["frontends", frontend, "import_s"], import_s)
        update(args.json, name, ["frontends", frontend, "import_detail"], "")
        digest = module_digest(imported)
        update(args.json, name, ["frontends", frontend, "digest"], digest)
        log(f"{name} {frontend}: imported in {import_s:.1f} s")
        for target in wanted:
            target_dir = workdir / f"{frontend}_{target}"
            t1 = time.perf_counter()
            # ONNX opsets 13 and 17 often give the very same module (same
            # text, same argument arrays): its results are deterministic, so
            # they are taken over instead of being run again.
            same = same_module(load(args.json), name, frontend, target, digest)
            if same:
                record = dict(same[1], same_as=same[0])
                update(args.json, name, ["frontends", frontend, "targets", target], record)
                log(f"{name} {frontend} {target}: {record['status']} (the same module as "
                    f"{same[0]}: its result)")
                continue
            if target == "interp":
                estimate = interp_estimate(load(args.json), name, frontend)
                if estimate is not None and estimate > args.interp_budget:
                    record = {"status": "not run",
                              "detail": f"estimated {estimate / 60:.0f} min on the evaluator, "
                                        f"over the {args.interp_budget / 60:.0f} min budget"}
                    update(args.json, name, ["frontends", frontend, "targets", target], record)
                    log(f"{name} {frontend} {target}: not run ({record['detail']})")
                    continue
            result = run_raf(args, imported, target_dir, target, torch_ms)
            outputs = result.pop("outputs", None)
            if outputs is not None:
                error = zoo.compare(outputs[0], reference)
                result.update(status="match" if error.ok else "MISMATCH",
                              normalised=error.normalised, max_abs=error.max_abs,
                              max_rel=error.max_rel)
            update(args.json, name, ["frontends", frontend, "targets", target], result)
            shutil.rmtree(target_dir, ignore_errors=True)
            extra = ""
            if "normalised" in result:
                extra = f" max|d|/max|ref| {result['normalised']:.2g}"
            if "compile_ms" in result:
                extra += (f", compile {result['compile_ms'] / 1e3:.1f} s"
                          f"{' (cache hit)' if result.get('cache') == 'hit' else ''}")
            if "run_ms" in result:
                extra += f", run {result['run_ms']:.1f} ms (PyTorch {torch_ms:.1f} ms)"
            if result.get("detail"):
                extra += f" {result['detail']}"
            log(f"{name} {frontend} {target}: {result['status']}{extra} "
                f"({time.perf_counter() - t1:.0f} s)")
        del imported
    shutil.rmtree(workdir, ignore_errors=True)


def skip_interp_over_budget(args, store: Dict[str, Any], name: str) -> bool:
    """Records "not run" for the interp runs of a timed model whose estimate
    is over the budget, without building it; True when nothing else is left
    to run for the model."""
    if lookup(store, name, "torch_ms") is None or "interp" not in args.targets:
        return False
    left = False
    for frontend in args.frontends:
        entry = lookup(store, name, "frontends", frontend)
        if entry is None or entry.get("import") is None:
            left = True
            continue
        if entry.get("import") != "ok":
            continue
        for target in args.targets:
            if done((entry.get("targets") or {}).get(target), args):
                continue
            estimate = interp_estimate(store, name, frontend)
            if target == "interp" and estimate is not None and estimate > args.interp_budget:
                record = {"status": "not run",
                          "detail": f"estimated {estimate / 60:.0f} min on the evaluator, "
                                    f"over the {args.interp_budget / 60:.0f} min budget"}
                update(args.json, name, ["frontends", frontend, "targets", target], record)
                log(f"{name} {frontend} {target}: not run ({record['detail']})")
            else:
                left = True
    return not left


def module_digest(imported) -> str:
    """A hash of the module's text and every argument array."""
    import hashlib

    digest = hashlib.sha256(imported.mlir_text.encode())
    for array in imported.argument_arrays():
        digest.update(str((array.shape, array.dtype.str)).encode())
        digest.update(memoryview(array.tobytes()))
    return digest.hexdigest()


def same_module(store, name: str, frontend: str, target: str, digest: str):
    """``(frontend, record)`` of an earlier frontend that imported the very same
    module and has a (non-copied) result for ``target``, else None."""
    for other, entry in (lookup(store, name, "frontends") or {}).items():
        run = (entry.get("targets") or {}).get(target)
        if (other != frontend and entry.get("digest") == digest and run
                and "same_as" not in run and run.get("status") in ("match", "MISMATCH")):
            return other, run
    return None


def done(record: Optional[Dict[str, Any]], args) -> bool:
    if record is None:
        return False
    if args.retry_errors and record.get("status") in ("error", "MISMATCH"):
        return False
    if args.retry_not_run and record.get("status") == "not run":
        return False
    return True


# ---------------------------------------------------------------------------
# The table
# ---------------------------------------------------------------------------


def fmt_ms(ms: Optional[float]) -> str:
    if ms is None:
        return ""
    return f"{ms / 1e3:.2f} s" if ms >= 1000 else f"{ms:.1f} ms"


def target_cell(run: Optional[Dict[str, Any]]) -> str:
    if not run:
        return "pending"
    status = run.get("status")
    if status in ("match", "MISMATCH"):
        cell = f"{'ok' if status == 'match' else '**MISMATCH**'} {run['normalised']:.1e}"
        if run.get("same_as"):
            cell += f" (= {run['same_as']})"
        return cell
    if status == "not run":
        return f"not run ({run.get('detail', '')})"
    return f"**error**: {run.get('detail', '')}"


def write_table(args) -> None:
    import zoo_models as zoo

    store = load(args.json)
    names = zoo.classifier_names()
    lines = [
        "# Model zoo: every torchvision classifier, both frontends, both targets",
        "",
        "Generated by `bench/zoo/run.py` (see `bench/zoo/README.md`) from "
        "`bench/zoo/results.json`.",
        "",
        f"- torch {_version('torch')}, torchvision {_version('torchvision')}, "
        f"onnx {_version('onnx')}; {platform.processor() or platform.machine()}, "
        f"{os.cpu_count()} cores shared with other jobs (times are indicative).",
        "- Each model: torchvision's random initialisation, then calibrated "
        "(near-zero parameters made random, batch-norm statistics estimated on "
        "random batches; `python/tests/zoo_models.py`), input 1x3x224x224 N(0,1) "
        "(Inception V3: 1x3x299x299).",
        "- *calib*: the degeneracy check of the calibrated model in PyTorch (outputs "
        "finite, max |logit| >= 1e-6, std over classes >= 1e-2 of it, two inputs' "
        "outputs differing by >= 1e-2 of it); a degenerate model's comparison does "
        "not count as a match.",
        f"- *cpu* / *interp*: `ok` or `MISMATCH` and max|raf - PyTorch| / max|PyTorch| "
        f"over the logits; a match needs <= {zoo.TOLERANCE:g} (justified in "
        "`zoo_models.TOLERANCE`).",
        f"- Times: PyTorch eval forward and `raf-run --target=cpu --repeat` (the call "
        f"of the compiled code only), median, both at {args.threads} thread(s); "
        "*compile* is raf-run's pipeline + LLVM time (`hit`: taken from the on-disk "
        "compile cache); *interp* is the evaluator's wall time (parse, load and run). "
        "This PyTorch (Debian's) runs convolutions with oneDNN but matrix products "
        f"with {torch_blas()}, so dense- and attention-heavy models are slow in PyTorch.",
        "",
    ]
    header = ("| model | params | calib | frontend | import | cpu | interp | compile | "
              "cpu run | PyTorch | interp |")
    rows = [header, "|---|---:|---|---|---|---|---|---:|---:|---:|---:|"]
    counts = {"models": 0, "complete": 0}
    cells: Dict[str, int] = {}
    for name in names:
        record = store.get(name)
        if record is None or record.get("torch_ms") is None:
            rows.append(f"| {name} | | | | pending | | | | | | |")
            continue
        counts["models"] += 1
        calib = "ok" if not record.get("degenerate") else f"**degenerate**: {record['degeneracy']}"
        first = True
        complete = True
        for frontend in args.frontends:
            entry = lookup(store, name, "frontends", frontend) or {}
            runs = entry.get("targets") or {}
            if entry.get("import") == "ok":
                import_cell = f"ok ({entry.get('import_s', 0):.1f} s)"
            elif entry.get("import") == "error":
                label = "fails (torch)" if entry.get("known") else "**error**"
                import_cell = f"{label}: {entry.get('import_detail', '')}"
            else:
                import_cell = "pending"
                complete = False
            cpu, interp = runs.get("cpu"), runs.get("interp")
            if entry.get("import") == "error":
                cpu_cell = interp_cell = "-"
            else:
                cpu_cell, interp_cell = target_cell(cpu), target_cell(interp)
                for target in args.targets:
                    if not runs.get(target):
                        complete = False
                    else:
                        status = runs[target].get("status")
                        cells[status] = cells.get(status, 0) + 1
            compile_cell = ""
            if cpu and cpu.get("compile_ms") is not None:
                compile_cell = ("hit" if cpu.get("cache") == "hit"
                                else f"{cpu['compile_ms'] / 1e3:.1f} s")
            interp_time = ""
            if interp and interp.get("wall_s") is not None and interp.get("status") in (
                    "match", "MISMATCH"):
                interp_time = f"{interp['wall_s']:.1f} s"
            params = f"{record['params'] / 1e6:.1f} M" if first else ""
            rows.append(
                f"| {name if first else ''} | {params} | "
                f"{calib if first else ''} | {frontend} | {import_cell} | {cpu_cell} | "
                f"{interp_cell} | {compile_cell} | "
                f"{fmt_ms(cpu.get('run_ms')) if cpu else ''} | "
                f"{fmt_ms(record['torch_ms']) if first else ''} | {interp_time} |")
            first = False
        counts["complete"] += complete
    per_column: Dict[str, Dict[str, int]] = {}
    problems: List[str] = []
    degenerate = [n for n in names if lookup(store, n, "degenerate")]
    for name in names:
        for frontend in args.frontends:
            entry = lookup(store, name, "frontends", frontend)
            if not entry:
                for what in ["import"] + args.targets:
                    column = per_column.setdefault(f"{frontend} {what}", {})
                    column["pending"] = column.get("pending", 0) + 1
                continue
            key = "ok" if entry.get("import") == "ok" else (
                "fails in torch.onnx" if entry.get("known") else "error")
            column = per_column.setdefault(f"{frontend} import", {})
            column[key] = column.get(key, 0) + 1
            if key == "error":
                problems.append(f"{name} {frontend} import: {entry.get('import_detail')}")
            if entry.get("import") != "ok":
                continue
            for target in args.targets:
                run = (entry.get("targets") or {}).get(target)
                status = run.get("status") if run else "pending"
                column = per_column.setdefault(f"{frontend} {target}", {})
                column[status] = column.get(status, 0) + 1
                if status in ("error", "MISMATCH"):
                    problems.append(f"{name} {frontend} {target}: {target_cell(run)}")
    summary = [
        "## Summary",
        "",
        f"Written {datetime.datetime.utcnow():%Y-%m-%d %H:%M} UTC from the results recorded "
        "so far." + (f" {args.note}" if args.note else ""),
        "",
        f"- {len(names)} classifiers; {counts['models']} calibrated and timed in PyTorch "
        f"(degenerate after calibration: {', '.join(degenerate) or 'none'}); "
        f"{counts['complete']} with every frontend x target recorded "
        "(\"pending\": not reached yet by the run).",
        "",
        "| frontend x target | " + " | ".join(
            ["ok/match", "MISMATCH", "error", "fails in torch.onnx", "not run", "pending"]) + " |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for column in [f"{f} {what}" for f in args.frontends for what in ["import"] + args.targets]:
        counts_ = per_column.get(column, {})
        summary.append(f"| {column} | " + " | ".join(str(counts_.get(k, 0)) for k in [
            "ok" if column.endswith("import") else "match", "MISMATCH", "error",
            "fails in torch.onnx", "not run", "pending"]) + " |")
    for frontend in args.frontends:
        pending = [n for n in names if lookup(store, n, "frontends", frontend, "import") != "error"
                   and any(not lookup(store, n, "frontends", frontend, "targets", t)
                           for t in args.targets)]
        if pending:
            summary.append(f"\n{frontend}: {len(pending)} model(s) with a run still pending: "
                           + ", ".join(pending) + ".")
    summary += ["", "Errors and mismatches:" if problems else "No errors or mismatches.", ""]
    summary += [f"- {p}" for p in problems] + ([""] if problems else [])
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text("\n".join(lines + summary + ["## Results", ""] + rows) + "\n")


def torch_blas() -> str:
    try:
        import torch
        match = re.search(r"BLAS_INFO=(\w+)", torch.__config__.show())
        return f"the {match.group(1)} BLAS (`BLAS_INFO={match.group(1)}`)" if match else "?"
    except Exception:  # noqa: BLE001
        return "?"


def _version(module: str) -> str:
    try:
        return __import__(module).__version__
    except Exception:  # noqa: BLE001
        return "?"


# ---------------------------------------------------------------------------
# Driver
# ---------------------------------------------------------------------------


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", help="comma-separated names (default: every classifier)")
    parser.add_argument("--frontends", default="fx,onnx13,onnx17")
    parser.add_argument("--targets", default="cpu,interp")
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON)
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT)
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/raf-zoo"))
    parser.add_argument("--raf-run", type=Path,
                        default=Path(os.environ.get("RAF_BUILD_DIR", REPO / "build"))
                        / "bin" / "raf-run")
    parser.add_argument("--no-snapshot", action="store_true",
                        help="run the build's raf-run instead of a copy taken at the start")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--interp-budget", type=float, default=900,
                        help="skip interp runs estimated to take longer (seconds)")
    parser.add_argument("--interp-timeout", type=float, default=2700)
    parser.add_argument("--cpu-timeout", type=float, default=1800)
    parser.add_argument("--model-timeout", type=float, default=4 * 3600)
    parser.add_argument("--shard", default="0/1", help="I/N: every N-th model from the I-th")
    parser.add_argument("--reverse", action="store_true",
                        help="largest models first (e.g. a second process working towards a "
                             "first one: both skip what the other has recorded)")
    parser.add_argument("--retry-errors", action="store_true")
    parser.add_argument("--retry-not-run", action="store_true")
    parser.add_argument("--table-only", action="store_true")
    parser.add_argument("--note", help="a sentence for the table's summary (e.g. the run's state)")
    parser.add_argument("--one", help=argparse.SUPPRESS)  # worker: one model
    args = parser.parse_args(argv)
    args.frontends = args.frontends.split(",")
    args.targets = args.targets.split(",")
    args.json = args.json.resolve()
    return args


def forward_args(args) -> List[str]:
    keep = []
    for option in ("frontends", "targets"):
        keep += [f"--{option}", ",".join(getattr(args, option))]
    for option in ("json", "output", "workdir", "raf_run", "threads", "repeat",
                   "interp_budget", "interp_timeout", "cpu_timeout"):
        keep += [f"--{option.replace('_', '-')}", str(getattr(args, option))]
    keep += ["--retry-errors"] * args.retry_errors + ["--retry-not-run"] * args.retry_not_run
    return keep


def git_head() -> str:
    try:
        return subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"],
                              capture_output=True, text=True).stdout.strip()
    except OSError:
        return "?"


def model_order(names: List[str]) -> List[str]:
    """Cheapest first (parameter counts of torchvision's weights metadata), so
    that most models are done early."""
    import torchvision

    def size(name: str) -> int:
        try:
            weights = torchvision.models.get_model_weights(name)
            return min(w.meta.get("num_params", 0) for w in weights)
        except Exception:  # noqa: BLE001
            return 0
    return sorted(names, key=size)


def main(argv=None) -> int:
    args = parse_args(argv)
    os.environ.setdefault("OMP_NUM_THREADS", str(args.threads))
    if args.one:
        run_model(args, args.one)
        return 0
    import zoo_models as zoo

    if args.table_only:
        write_table(args)
        return 0
    names = zoo.classifier_names()
    if args.models:
        unknown = set(args.models.split(",")) - set(names)
        if unknown:
            print(f"error: unknown model(s) {', '.join(sorted(unknown))}", file=sys.stderr)
            return 1
        names = [n for n in names if n in args.models.split(",")]
    names = model_order(names)
    if not args.no_snapshot:
        # A copy of raf-run: a rebuild of the tree during the run neither
        # fails a run nor mixes two versions of the compiler in one table.
        snapshot = args.workdir / "bin" / f"raf-run-{os.getpid()}"
        snapshot.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(args.raf_run, snapshot)
        args.raf_run = snapshot
        built = datetime.datetime.utcfromtimestamp(snapshot.stat().st_mtime)
        log(f"raf-run: {snapshot} (a copy of the build's, built {built:%Y-%m-%d %H:%M} UTC; "
            f"checkout at {git_head()})")
    if args.reverse:
        names.reverse()
    index, count = (int(v) for v in args.shard.split("/"))
    names = names[index::count]
    log(f"{len(names)} models, frontends {','.join(args.frontends)}, "
        f"targets {','.join(args.targets)}; results in {args.json}")
    for i, name in enumerate(names):
        store = load(args.json)
        if lookup(store, name, "torch_ms") is not None and all(
                lookup(store, name, "frontends", fe, "import") == "error" or all(
                    done(lookup(store, name, "frontends", fe, "targets", t), args)
                    for t in args.targets)
                for fe in args.frontends):
            continue
        log(f"[{i + 1}/{len(names)}] {name}")
        start = time.perf_counter()
        try:
            process = subprocess.run(
                [sys.executable, __file__, "--one", name, *forward_args(args)],
                timeout=args.model_timeout)
            if process.returncode != 0:
                log(f"{name}: worker exited with {process.returncode}")
                update(args.json, name, ["worker_error"], f"exit status {process.returncode}")
        except subprocess.TimeoutExpired:
            log(f"{name}: stopped after {args.model_timeout:.0f} s")
        log(f"{name}: {time.perf_counter() - start:.0f} s")
        with locked(args.json):
            write_table(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
