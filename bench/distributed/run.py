#!/usr/bin/env python3
"""Per-rank memory of data-parallel BERT-base training per ZeRO level.

BERT-base (bench/autodiff's ``EncoderClassifier(12)``: 12
``nn.TransformerEncoderLayer(768, 12, 3072, gelu)``, sequence 128, a linear
head and cross entropy) is imported through the PyTorch frontend at the
per-rank batch, differentiated, made data parallel over N ranks
(``--raf-data-parallel="world-size=N zero=Z"``), given an Adam step
(``--raf-append-optimizer``) and, for Z = 1, 2, partitioned
(``--raf-zero-partition``). ``--raf-memory-report`` then gives the peak of
one rank's step (the memory model: every tensor's bytes from its
definition to its last use, arguments included) and the bytes of its
arguments. The table sets them against ZeRO's model (Rajbhandari et al.
2020, §5.1; DeepSpeed's "2 + 2 + K bytes per parameter" for mixed
precision) written for this fp32 Adam step: parameters 4, gradients 4 and
optimizer states K = 8 bytes per parameter (Adam's m and v), so
``(4 + 4 + 8) P`` for zero=0, ``(4 + 4 + 8 / N) P`` for zero=1 and
``(4 + (4 + 8) / N) P`` for zero=2.

Run:  /usr/bin/python3 bench/distributed/run.py [--ranks 1,2,4,8]
          [--batch 1] [--out bench/results/distributed.md]
"""

import argparse
import importlib.util
import pathlib
import re
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python"))

import torch  # noqa: E402


def _load(path: str, name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


AUTODIFF = _load("bench/autodiff/run.py", "bench_autodiff_run")

from raf_mlir.torch_frontend import import_module  # noqa: E402

MiB = 1024 * 1024
_REPORT = re.compile(r"remark: @train_step: peak (\d+) bytes .*?parameters (\d+) bytes")


def raf_opt(args, source: pathlib.Path, output: pathlib.Path):
    command = [str(AUTODIFF.raf_opt()), "--mlir-print-op-on-diagnostic=false",
               str(source), *args, "-o", str(output)]
    run = subprocess.run(command, capture_output=True, text=True)
    if run.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed:\n{run.stderr[-4000:]}")
    return run


def measure(forward: pathlib.Path, grads: str, ranks: int, zero: int,
            workdir: pathlib.Path) -> dict:
    passes = ["--inline",
              f"--raf-autodiff=requires-grad={grads} inline-backward=true",
              f"--raf-data-parallel=world-size={ranks} zero={zero}",
              "--raf-append-optimizer=kind=adam lr=0.001"]
    if zero > 0:
        passes.append("--raf-zero-partition")
    # The same step without and with in-place updates (RAF's
    # InplaceUpdate, --raf-memory-report's inplace-update, the default).
    passes += ["--canonicalize", "--cse",
               "--raf-memory-report=entry=train_step inplace-update=0",
               "--raf-memory-report=entry=train_step"]
    start = time.perf_counter()
    run = raf_opt(passes, forward, workdir / f"step-{ranks}-{zero}.mlir")
    matches = _REPORT.findall(run.stderr)
    if len(matches) != 2:
        raise RuntimeError(f"no memory reports in:\n{run.stderr[-3000:]}")
    return {"copy_peak": int(matches[0][0]), "peak": int(matches[1][0]),
            "args": int(matches[1][1]),
            "seconds": time.perf_counter() - start}


def zero_model(params: int, ranks: int, zero: int) -> int:
    """ZeRO's per-rank bytes of parameters, gradients and Adam states
    (fp32: 4 + 4 + 8 bytes per parameter, partitioned by stage)."""
    if zero == 0:
        return (4 + 4 + 8) * params
    if zero == 1:
        return (4 + 4) * params + 8 * params // ranks
    return 4 * params + (4 + 8) * params // ranks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ranks", default="1,2,4,8")
    parser.add_argument("--batch", type=int, default=1, help="per-rank batch")
    parser.add_argument("--out", type=pathlib.Path,
                        default=ROOT / "bench/results/distributed.md")
    args = parser.parse_args()
    ranks_list = [int(r) for r in args.ranks.split(",")]

    torch.manual_seed(0)
    model = AUTODIFF.EncoderClassifier(12)
    params = sum(p.numel() for p in model.parameters())
    inputs = (torch.randn(args.batch, 128, 768),
              torch.ones(args.batch, dtype=torch.long))
    imported = import_module(model, inputs, function_name="main",
                             training=True)
    names = {n for n, _ in model.named_parameters()}
    grads = ",".join(str(a.index) for a in imported.arguments
                     if a.name in names)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        workdir = pathlib.Path(tmp)
        forward = workdir / "bert.mlir"
        forward.write_text(imported.mlir_text)
        del imported
        for ranks in ranks_list:
            for zero in (0, 1, 2):
                result = measure(forward, grads, ranks, zero, workdir)
                result.update(ranks=ranks, zero=zero,
                              model=zero_model(params, ranks, zero))
                rows.append(result)
                print(f"N={ranks} zero={zero}: peak {result['peak'] / MiB:.1f} MiB "
                      f"(not in place {result['copy_peak'] / MiB:.1f} MiB), "
                      f"arguments {result['args'] / MiB:.1f} MiB, ZeRO model "
                      f"{result['model'] / MiB:.1f} MiB ({result['seconds']:.0f} s)",
                      flush=True)

    lines = [
        "# Data-parallel BERT-base: per-rank memory per ZeRO level",
        "",
        f"Generated by `bench/distributed/run.py` (BERT-base, {params} "
        f"parameters, sequence 128, per-rank batch {args.batch}, Adam, fp32).",
        "",
        "*Peak* is `--raf-memory-report`'s peak of one rank's `@train_step` "
        "(arguments, activations, gradients, optimizer temporaries) with the "
        "update in place (new parameters and states written into their "
        "arguments, RAF's InplaceUpdate, as `--target=cpu` runs it); "
        "*not in place* the same with `inplace-update=0` (every new "
        "parameter and state a buffer of its own); "
        "*arguments* the bytes the rank passes in (parameters, its blocks "
        "of Adam's m and v, the batch). *ZeRO model* is the paper's "
        "per-rank bytes of parameters + gradients + optimizer states "
        "(fp32 Adam: 4 + 4 + 8 bytes per parameter, the partitioned parts "
        "divided by N), without activations.",
        "",
        "| N | zero | peak (MiB) | not in place (MiB) | arguments (MiB) "
        "| ZeRO model (MiB) |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for r in rows:
        lines.append(f"| {r['ranks']} | {r['zero']} | {r['peak'] / MiB:.1f} | "
                     f"{r['copy_peak'] / MiB:.1f} | "
                     f"{r['args'] / MiB:.1f} | {r['model'] / MiB:.1f} |")
    args.out.write_text("\n".join(lines) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
