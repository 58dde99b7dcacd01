#!/usr/bin/python3
"""CPU forward latency: RAF-MLIR (--raf-cpu-pipeline + LLVM JIT) vs PyTorch eager.

Models: torchvision ResNet-18 (batch 1, 3x224x224) and one BERT-base encoder
layer (d_model 768, 12 heads, feed-forward 3072, GELU, sequence 128, batch 1).
Both sides run the same weights and inputs, one after the other in this
process tree, so the ratios compare like with like. Each side reports the
median of --repeat timed runs after one warm-up run; compilation time is not
included on our side (raf-run compiles once, then times only calls).

Our compiled code is single-threaded, so the primary comparison is against
PyTorch restricted to one thread; PyTorch with its default thread count is
reported as well.

Usage: bench/cpu/run.py [--repeat N] [--out bench/results/cpu.md]
"""

import argparse
import json
import os
import platform
import pathlib
import re
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python"))

import numpy as np  # noqa: E402
import torch  # noqa: E402
import torchvision  # noqa: E402

from raf_mlir.torch_frontend import import_module  # noqa: E402


def build_dir() -> pathlib.Path:
    return pathlib.Path(os.environ.get("RAF_BUILD_DIR", ROOT / "build"))


def bert_layer() -> torch.nn.Module:
    return torch.nn.TransformerEncoderLayer(
        d_model=768, nhead=12, dim_feedforward=3072, dropout=0.1,
        activation="gelu", batch_first=True)


MODELS = {
    "ResNet-18 (1x3x224x224)":
        (lambda: torchvision.models.resnet18(), (1, 3, 224, 224)),
    "BERT-base encoder layer (seq 128)":
        (bert_layer, (1, 128, 768)),
}


def torch_median_ms(model, example, repeat, threads):
    previous = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        with torch.no_grad():
            model(example)  # warm-up
            times = []
            for _ in range(repeat):
                start = time.perf_counter()
                model(example)
                times.append((time.perf_counter() - start) * 1e3)
    finally:
        torch.set_num_threads(previous)
    return statistics.median(times)


def raf_median_ms(imported, example, workdir, repeat, reference):
    """Compiles and times the model with raf-run; checks the result too."""
    imported.write(workdir)
    manifest = json.loads((workdir / "manifest.json").read_text())
    inputs = [f"--input={workdir / entry['npy']}"
              for entry in manifest["arguments"]]
    output = workdir / "output.npy"
    command = [str(build_dir() / "bin" / "raf-run"), str(workdir / manifest["mlir"]),
               f"--entry={manifest['function']}", "--target=cpu",
               *inputs, f"--output={output}", f"--repeat={repeat}"]
    print("   ", " ".join(command[:4]), "...", flush=True)
    run = subprocess.run(command, capture_output=True, text=True)
    if run.returncode != 0:
        raise RuntimeError(f"raf-run failed:\n{run.stderr}")
    match = re.search(r"median-ms=([0-9.]+)", run.stdout)
    error = float(np.abs(np.load(output) - reference).max())
    return float(match.group(1)), error


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--out", default=str(ROOT / "bench/results/cpu.md"))
    args = parser.parse_args()

    rows = []
    for index, (name, (factory, shape)) in enumerate(MODELS.items()):
        print(f"[{index + 1}/{len(MODELS)}] {name}", flush=True)
        torch.manual_seed(0)
        model = factory().eval()
        example = torch.randn(*shape)
        with torch.no_grad():
            reference = model(example).numpy()
        print("    importing", flush=True)
        imported = import_module(model, (example,))
        with tempfile.TemporaryDirectory() as tmp:
            ours, error = raf_median_ms(imported, example, pathlib.Path(tmp),
                                        args.repeat, reference)
        print("    PyTorch eager", flush=True)
        torch_one = torch_median_ms(model, example, args.repeat, 1)
        torch_all = (torch_median_ms(model, example, args.repeat,
                                     torch.get_num_threads())
                     if torch.get_num_threads() > 1 else torch_one)
        rows.append((name, ours, torch_one, torch_all, error))
        print(f"    ours {ours:.2f} ms, PyTorch 1 thread {torch_one:.2f} ms, "
              f"max |diff| {error:.2e}", flush=True)

    threads = torch.get_num_threads()
    multi = threads > 1
    lines = [
        "# CPU forward latency: RAF-MLIR vs PyTorch eager",
        "",
        f"Machine: {os.cpu_count()} cores ({platform.processor() or 'x86_64'}); "
        f"torch {torch.__version__} (default threads: {threads}); median of "
        f"{args.repeat} runs after one warm-up; same weights and input on both "
        "sides. Ratio = ours / PyTorch (lower is better; below 1 means we are "
        "faster). Our compiled code runs on one thread.",
        "",
        "| model | RAF-MLIR ms | PyTorch 1 thread ms | ratio |"
        + (f" PyTorch {threads} threads ms | ratio |" if multi else "")
        + " max abs diff |",
        "|---|---:|---:|---:|" + ("---:|---:|" if multi else "") + "---:|",
    ]
    for name, ours, one, all_threads, error in rows:
        lines.append(f"| {name} | {ours:.2f} | {one:.2f} | {ours / one:.2f} |"
                     + (f" {all_threads:.2f} | {ours / all_threads:.2f} |"
                        if multi else "")
                     + f" {error:.1e} |")
    table = "\n".join(lines) + "\n"
    print()
    print(table)
    pathlib.Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    pathlib.Path(args.out).write_text(table)
    print(f"written to {args.out}")


if __name__ == "__main__":
    main()
