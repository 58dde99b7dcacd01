#!/usr/bin/python3
"""Casts that --raf-autocast inserts into training steps, and what fusion
makes of them.

Models (forward + cross-entropy, imported by the torch frontend in training
mode, weights as arguments): the MLP, CNN and transformer encoder layer of
python/tests/amp_models.py (the AMP training tests), a BERT-base-sized
encoder (12 layers of ``nn.TransformerEncoderLayer(768, 12, 3072, gelu)``,
sequence 128) and torchvision's ResNet-50, both from bench/autodiff/run.py.

Each is compiled by ``raf-opt --raf-training-pipeline`` (SGD) twice: in
float32 (``amp=none``) and with ``amp=f16``. In the ``@train_step`` function
the script counts:

* *ops*: relay operations of the f32 step (casts excluded);
* *casts f32*: casts the f32 step already has (the losses' gradients cast
  integer masks to f32);
* *casts AMP*: casts of the AMP step, split into casts to f16 and to f32;
  *inserted* is the difference to the f32 step;
* *f16 ops*: operations of the AMP step (casts excluded) with an f16 result;
* *casts if shared*: casts of the AMP step after ``--cse``, which merges the
  exclusive casts of one value into one shared cast (RAF Fig. 3b, the
  minimal number);
* *unfused*: casts whose result is still written to memory after
  ``--raf-fuse`` (CPU rule-based fusion): those outside fused groups and
  those whose result leaves their group; for the exclusive casts AutoCast
  inserts (Fig. 3d/e) and for the shared ones (Fig. 3b/c).

Prints one line per model and writes a markdown table (default
bench/results/autocast.md).

Usage: bench/autocast/run.py [--out bench/results/autocast.md] [--small-only]
"""

import argparse
import datetime
import importlib.util
import os
import pathlib
import platform
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python"))
sys.path.insert(0, str(ROOT / "python" / "tests"))

import torch  # noqa: E402

from raf_mlir.torch_frontend import import_module  # noqa: E402
from amp_models import MODELS, make_case  # noqa: E402


def raf_opt() -> pathlib.Path:
    build = pathlib.Path(os.environ.get("RAF_BUILD_DIR", ROOT / "build"))
    if not build.is_absolute():
        build = ROOT / build
    return build / "bin" / "raf-opt"


def autodiff_bench():
    """bench/autodiff/run.py, for its BERT-base and ResNet-50 models."""
    spec = importlib.util.spec_from_file_location("autodiff_bench",
                                                  ROOT / "bench" / "autodiff" / "run.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def configs(small_only: bool):
    titles = {"mlp": "MLP", "cnn": "CNN (conv, batch norm, pooling)",
              "transformer": "transformer encoder layer (d=32)"}
    for name in MODELS:
        def build(name=name):
            case = make_case(name, 1)
            x, labels = case.batches[0]
            return case.model, (torch.from_numpy(x), torch.from_numpy(labels))
        yield titles[name], build
    if small_only:
        return
    bench = autodiff_bench()
    for title, _, make_model, make_inputs in (bench.encoder_config(12), bench.resnet_config()):
        yield title, (lambda make_model=make_model, make_inputs=make_inputs:
                      (make_model(), make_inputs()))


def run_opt(source: pathlib.Path, output: pathlib.Path, *flags: str) -> str:
    result = subprocess.run([str(raf_opt()), str(source), "-o", str(output), *flags],
                            capture_output=True, text=True, timeout=3600)
    if result.returncode != 0:
        raise RuntimeError(f"raf-opt {' '.join(flags)} failed:\n{result.stderr[-3000:]}")
    return output.read_text()


def function_body(text: str, header: str) -> list:
    """The lines of the body of the function whose first line contains
    ``header``."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if header in line)
    end = next(i for i in range(start + 1, len(lines)) if re.match(r"^  }\s*$", lines[i]))
    return lines[start + 1:end]


def step_body(text: str) -> list:
    return function_body(text, "func.func @train_step(")


def materialized_casts(text: str) -> int:
    """Casts whose result is written to memory after --raf-fuse: those left
    in @train_step, and those inside a fused group whose result leaves the
    group (a shared cast fused with one consumer is still read by the
    others)."""
    total = sum(1 for line in step_body(text) if "relay.cast" in line)
    for name in re.findall(r"func\.func private @(train_step_fused_\d+)\(", text):
        body = function_body(text, f"func.func private @{name}(")
        casts = {m.group(1) for line in body
                 if (m := re.match(r"\s*(%\S+) = relay\.cast ", line))}
        returned = set()
        for line in body:
            if line.strip().startswith("return"):
                returned.update(re.findall(r"%[\w#]+", line.split(":")[0]))
        total += len(casts & returned)
    return total


_OP = re.compile(r"^\s*(?:%\S+(?:, %\S+)* = )?(relay\.[a-z0-9_.]+)")
_CAST = re.compile(r"relay\.cast %\S+ \{dtype = (\w+)")


def count(body: list) -> dict:
    ops = casts = low = 0
    targets = {}
    for line in body:
        match = _OP.match(line)
        if not match:
            continue
        if match.group(1) == "relay.cast":
            casts += 1
            target = _CAST.search(line).group(1)
            targets[target] = targets.get(target, 0) + 1
        elif match.group(1) != "relay.constant":
            ops += 1
            results = line.rsplit("->", 1)[-1] if "->" in line else ""
            low += "f16" in results
    return {"ops": ops, "casts": casts, "targets": targets, "low": low}


def measure(title: str, build, directory: pathlib.Path) -> dict:
    model, inputs = build()
    imported = import_module(model, inputs, function_name="main", training=True)
    parameters = dict(model.named_parameters())
    indices = [a.index for a in imported.arguments if a.name in parameters]
    forward = directory / "forward.mlir"
    forward.write_text(imported.mlir_text)
    options = f"requires-grad={','.join(map(str, indices))} optimizer=sgd lr=0.1"
    f32 = count(step_body(run_opt(forward, directory / "f32.mlir",
                                  f"--raf-training-pipeline={options}")))
    amp_path = directory / "amp.mlir"
    amp = count(step_body(run_opt(forward, amp_path,
                                  f"--raf-training-pipeline={options} amp=f16")))
    shared = count(step_body(run_opt(amp_path, directory / "shared.mlir", "--cse")))
    fused = materialized_casts(run_opt(amp_path, directory / "fused.mlir", "--raf-fuse"))
    shared_fused = materialized_casts(run_opt(amp_path, directory / "shared-fused.mlir",
                                              "--cse", "--raf-fuse"))
    return {"model": title, "ops": f32["ops"], "casts_f32": f32["casts"],
            "casts_amp": amp["casts"], "to_f16": amp["targets"].get("f16", 0),
            "to_f32": amp["targets"].get("f32", 0), "inserted": amp["casts"] - f32["casts"],
            "low": amp["low"], "amp_ops": amp["ops"], "shared": shared["casts"],
            "unfused": fused, "shared_unfused": shared_fused}


def machine_info() -> str:
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip() or "unknown"
    return (f"{platform.machine()}, Linux {platform.release()}; raf-opt built from commit "
            f"{commit}; torch {torch.__version__}; {datetime.date.today().isoformat()}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=str(ROOT / "bench" / "results" / "autocast.md"))
    parser.add_argument("--small-only", action="store_true",
                        help="only the three small models of the AMP tests")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for k, (title, build) in enumerate(configs(args.small_only)):
            directory = pathlib.Path(tmp) / str(k)
            directory.mkdir()
            row = measure(title, build, directory)
            rows.append(row)
            print(f"{title}: {row['ops']} ops, {row['inserted']} casts inserted "
                  f"({row['to_f16']} to f16, {row['to_f32']} to f32 in the AMP step), "
                  f"{row['low']} f16 ops; {row['shared']} casts if shared; unfused "
                  f"{row['unfused']} (exclusive) vs {row['shared_unfused']} (shared)",
                  flush=True)
    header = ("| model | ops | casts f32 | casts AMP | to f16 | to f32 | inserted | "
              "f16 ops | casts if shared | unfused (exclusive) | unfused (shared) |")
    table = [header, "|---" + "|---:" * 10 + "|"]
    for r in rows:
        table.append(f"| {r['model']} | {r['ops']} | {r['casts_f32']} | {r['casts_amp']} | "
                     f"{r['to_f16']} | {r['to_f32']} | {r['inserted']} | "
                     f"{r['low']} / {r['amp_ops']} | {r['shared']} | {r['unfused']} | "
                     f"{r['shared_unfused']} |")
    text = f"""# Casts inserted by `--raf-autocast`

Machine: {machine_info()}.

Produced by `bench/autocast/run.py` (see bench/autocast/README.md). Each model
(loss included) is compiled by `raf-opt --raf-training-pipeline` with SGD,
once in f32 and once with `amp=f16`; the counts are in `@train_step`.

Columns: *ops*: relay operations of the f32 step, casts and constants
excluded; *casts f32*: casts already in the f32 step (integer masks of the
loss gradients); *casts AMP*: casts in the AMP step, of which *to f16* and
*to f32* (the rest go to other types); *inserted*: casts AMP - casts f32;
*f16 ops*: operations of the AMP step with an f16 result / all operations;
*casts if shared*: the AMP step after `--cse`, which merges every value's
exclusive casts into one (RAF Fig. 3b); *unfused*: casts whose result is
still written to memory after `--raf-fuse` (CPU rule-based fusion): outside
any fused group, or inside one but read outside it; for AutoCast's exclusive
casts (Fig. 3d/e) and for the shared ones (Fig. 3b/c).

{chr(10).join(table)}
"""
    pathlib.Path(args.out).write_text(text)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
