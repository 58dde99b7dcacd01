#!/usr/bin/python3
"""CPU benchmark: RAF-MLIR (raf-run --target=cpu) vs PyTorch eager, forward and training step.

For every model, in one run and one after the other on the same weights and
inputs:

* forward: the model imported with the torch.fx frontend (eval mode),
  compiled by ``raf-run --target=cpu`` (``--raf-cpu-pipeline`` + LLVM JIT),
  against PyTorch eager under ``torch.no_grad()``;
* training step: the model with its loss (cross-entropy for classifiers,
  mean squared error against a random target for the encoder layer and the
  dense layer) imported in training mode (batch norm on batch statistics),
  turned into ``@train_step`` by ``raf-opt --raf-training-pipeline``
  (autodiff + SGD, lr 0.01) and run by ``raf-run --entry=train_step``,
  against PyTorch's ``zero_grad(); loss = f(x, y); loss.backward();
  torch.optim.SGD.step()``;

each at 1 thread (``raf-run --threads=1``, ``torch.set_num_threads(1)``) and
at all threads (``--threads=N``, ``torch.set_num_threads(N)``, N =
``os.cpu_count()``). Times are medians of the timed runs after one warm-up
(ours: ``raf-run --repeat``, which times only the call of the compiled code).
FLOPs are counted by ``flops.py`` (convolutions and matrix products PyTorch
executes, backward included); the peak is measured by ``peak.c``.

Numerics are checked in the same run: forward, the max abs difference of the
outputs; training, the loss and the parameter update (new - old) against
PyTorch's, as ``||upd_ours - upd_torch|| / ||upd_torch||`` over all
parameters, and ours and PyTorch's against PyTorch's step in float64.

Compile times are raf-run's ``compile:`` line (with --no-compile-cache) and
the wall time of raf-opt. Failures (import, raf-opt, raf-run) are recorded
in the tables with their first error line. bench/cpu/README.md describes
the method and reads the results.

Usage: bench/cpu/run.py [--quick] [--models a,b,...] [--modes forward,train]
                        [--repeat N] [--train-repeat N] [--threads 1,N]
                        [--out bench/results/cpu.md]
"""

from __future__ import annotations

import argparse
import copy
import datetime
import os
import pathlib
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, Tuple

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT / "python"))
sys.path.insert(0, str(ROOT / "python" / "tests"))
sys.path.insert(0, str(HERE))

def openblas_coretype_for_cpu() -> Optional[str]:
    """SkylakeX with AVX-512 (F/CD/BW/DQ/VL), Haswell with AVX2 + FMA."""
    flags = set()
    try:
        for line in pathlib.Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("flags"):
                flags = set(line.split(":", 1)[1].split())
                break
    except OSError:
        pass
    if {"avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl"} <= flags:
        return "SkylakeX"
    if {"avx2", "fma"} <= flags:
        return "Haswell"
    return None


# The user's OPENBLAS_CORETYPE, before the choice below changes it.
ORIGINAL_CORETYPE = os.environ.get("OPENBLAS_CORETYPE")
# Set before numpy and torch load an OpenBLAS (torch's libblas.so.3 may
# resolve to one), which reads it once: the stock PyTorch and the ctypes
# reference then use the kernels our BLAS runtime picks.
if not ORIGINAL_CORETYPE and openblas_coretype_for_cpu():
    os.environ["OPENBLAS_CORETYPE"] = openblas_coretype_for_cpu()

import numpy as np  # noqa: E402
import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402
import torchvision  # noqa: E402

import flops  # noqa: E402
from raf_mlir.torch_frontend import import_module  # noqa: E402

LR = 0.01
START = time.perf_counter()
# Options every raf-run call gets (--no-compile-cache when raf-run has a
# compile cache: compile times are measured, not looked up).
RAF_RUN_OPTIONS: List[str] = []
PEAK_VECTOR_BITS = ["?"]  # the peak probe's vector width
PEAK_ACCUMULATORS = ["?"]  # and its accumulators per thread
# raf-run's `blas:` line (which OpenBLAS and kernels our BLAS calls used).
RAF_BLAS: List[str] = []
# PyTorch with OpenBLAS: Debian's torch links libblas.so.3, which the
# alternatives system points at the reference BLAS here; OpenBLAS's build of
# the same library preloaded into a PyTorch subprocess takes its place
# (most convolutions still go to oneDNN, but PyTorch computes a 1x1
# convolution as a matrix product through BLAS: 1-2 GFLOP/s with the
# reference BLAS, 50-80 with OpenBLAS at 1 thread). The first path that exists
# is used.
TORCH_OPENBLAS_PRELOADS = ["/usr/lib/x86_64-linux-gnu/openblas-pthread/libblas.so.3",
                           "/usr/lib/aarch64-linux-gnu/openblas-pthread/libblas.so.3"]
# The preloaded library, and the GEMM check of each PyTorch at each thread
# count: {("reference" | "openblas", threads): GFLOP/s}.
TORCH_OPENBLAS: List[str] = []
TORCH_GEMM: Dict[Tuple[str, int], float] = {}
GEMM_CHECK_SIZE = 512


def log(message: str) -> None:
    elapsed = time.perf_counter() - START
    print(f"[{int(elapsed) // 60:3d}:{int(elapsed) % 60:02d}] {message}", flush=True)


# ---------------------------------------------------------------------------
# Models
# ---------------------------------------------------------------------------


@dataclass
class Spec:
    title: str
    factory: Callable[[], nn.Module]
    shape: Tuple[int, ...]
    loss: str  # "cross_entropy" (1000 classes) or "mse"


def bert_layer() -> nn.Module:
    return nn.TransformerEncoderLayer(d_model=768, nhead=12, dim_feedforward=3072,
                                      dropout=0.0, activation="gelu", batch_first=True)


MODELS: Dict[str, Spec] = {
    "resnet18": Spec("ResNet-18", torchvision.models.resnet18, (1, 3, 224, 224),
                     "cross_entropy"),
    "resnet50": Spec("ResNet-50", torchvision.models.resnet50, (1, 3, 224, 224),
                     "cross_entropy"),
    "mobilenet_v2": Spec("MobileNetV2", torchvision.models.mobilenet_v2, (1, 3, 224, 224),
                         "cross_entropy"),
    "alexnet": Spec("AlexNet", torchvision.models.alexnet, (1, 3, 224, 224), "cross_entropy"),
    "vgg11": Spec("VGG-11", torchvision.models.vgg11, (1, 3, 224, 224), "cross_entropy"),
    "bert_layer": Spec("BERT-base encoder layer (seq 128)", bert_layer, (1, 128, 768), "mse"),
    "dense_b1": Spec("dense 9216->4096, batch 1", lambda: nn.Linear(9216, 4096), (1, 9216),
                     "mse"),
    "dense_b64": Spec("dense 9216->4096, batch 64", lambda: nn.Linear(9216, 4096), (64, 9216),
                      "mse"),
}
QUICK_MODELS = ["dense_b1", "resnet18"]


class WithLoss(nn.Module):
    """The model and its loss: ``forward(x, target) -> scalar loss``."""

    def __init__(self, model: nn.Module, loss: str) -> None:
        super().__init__()
        self.model = model
        self.kind = loss

    def forward(self, x: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
        y = self.model(x)
        if self.kind == "cross_entropy":
            return F.cross_entropy(y, target)
        d = y - target
        return (d * d).mean()


def make_model(spec: Spec) -> nn.Module:
    torch.manual_seed(0)
    model = spec.factory()
    # Dropout is not imported in training mode (random masks): p = 0 on both
    # sides (eval mode is unaffected).
    for module in model.modules():
        if isinstance(module, nn.modules.dropout._DropoutNd):
            module.p = 0.0
    if len(spec.shape) == 4:
        # Randomly initialised CNNs are degenerate (ResNet-50's and
        # MobileNetV2's logits ~1e-9): activations that vanish layer after
        # layer run into denormals, which makes either side's time an artefact
        # of the weights. Calibrate as the model zoo does (near-zero
        # parameters made random, batch-norm statistics estimated).
        import zoo_models  # python/tests

        zoo_models.calibrated(model, size=spec.shape[-1])
    return model


def make_data(spec: Spec, model: nn.Module) -> Tuple[torch.Tensor, torch.Tensor]:
    generator = torch.Generator().manual_seed(1)
    x = torch.randn(*spec.shape, generator=generator)
    if spec.loss == "cross_entropy":
        target = torch.randint(0, 1000, (spec.shape[0],), generator=generator)
    else:
        with torch.no_grad():
            shape = model.eval()(x).shape
        target = torch.randn(*shape, generator=generator)
    return x, target


# ---------------------------------------------------------------------------
# Measurements
# ---------------------------------------------------------------------------


@dataclass
class RafRun:
    median_ms: Optional[float] = None
    min_ms: Optional[float] = None
    # The calling thread's CPU time of the same calls (raf-run's
    # cpu-median-ms / cpu-min-ms).
    cpu_median_ms: Optional[float] = None
    cpu_min_ms: Optional[float] = None
    pipeline_ms: Optional[float] = None
    llvm_ms: Optional[float] = None
    error: Optional[str] = None  # one line for the table
    details: Optional[str] = None  # the first lines of stderr
    outputs: List[np.ndarray] = field(default_factory=list)


def error_summary(stderr: str, returncode: int) -> Tuple[str, str]:
    """(one line for the table, a few lines for the failure list)."""
    lines = [line.rstrip() for line in stderr.splitlines() if line.strip()]
    first = next((line for line in lines if "error" in line.lower()), None)
    if returncode < 0:
        import signal
        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            name = f"signal {-returncode}"
        head = f"crashed ({name})"
        first = f"{head}: {first}" if first else head
    if first is None:
        first = lines[0] if lines else f"exit code {returncode}"
    first = re.sub(r"\s+", " ", first).replace("|", "/")
    first = re.sub(r"^\S*/", "", first)  # drop directories of a leading file path
    if len(first) > 160:
        first = first[:157] + "..."
    return first, "\n".join(lines[:12])


def run_raf(tool: pathlib.Path, mlir: pathlib.Path, entry: str, inputs: List[pathlib.Path],
            num_outputs: int, threads: int, repeat: int, workdir: pathlib.Path,
            timeout: float) -> RafRun:
    outputs = [workdir / f"out_{threads}_{i:03d}.npy" for i in range(num_outputs)]
    command = [str(tool), str(mlir), f"--entry={entry}", "--target=cpu",
               f"--threads={threads}", f"--repeat={repeat}", *RAF_RUN_OPTIONS,
               *[f"--input={p}" for p in inputs], *[f"--output={p}" for p in outputs]]
    # raf-run makes its own OPENBLAS_CORETYPE choice unless the user made one.
    env = dict(os.environ)
    if not ORIGINAL_CORETYPE:
        env.pop("OPENBLAS_CORETYPE", None)
    try:
        run = subprocess.run(command, capture_output=True, text=True, timeout=timeout,
                             env=env)
    except subprocess.TimeoutExpired:
        return RafRun(error=f"timed out after {timeout:.0f} s",
                      details=f"timed out after {timeout:.0f} s")
    if run.returncode != 0:
        line, details = error_summary(run.stderr, run.returncode)
        return RafRun(error=line, details=details)
    result = RafRun()
    timing = re.search(r"timing: runs=\d+ median-ms=([0-9.]+) min-ms=([0-9.]+)", run.stdout)
    compile_ = re.search(r"compile: pipeline-ms=([0-9.]+) llvm-ms=([0-9.]+)", run.stdout)
    if not timing:
        return RafRun(error="no timing line in raf-run's output", details=run.stdout[-2000:])
    result.median_ms = float(timing.group(1))
    result.min_ms = float(timing.group(2))
    cpu = re.search(r"cpu-median-ms=([0-9.]+) cpu-min-ms=([0-9.]+)", run.stdout)
    if not cpu:
        return RafRun(error="no cpu-median-ms in raf-run's timing line (an older raf-run?)",
                      details=run.stdout[-2000:])
    result.cpu_median_ms = float(cpu.group(1))
    result.cpu_min_ms = float(cpu.group(2))
    blas = re.search(r"^blas: (.*)$", run.stdout, re.M)
    if blas and not RAF_BLAS:
        RAF_BLAS.append(blas.group(1))
    if compile_:
        result.pipeline_ms = float(compile_.group(1))
        result.llvm_ms = float(compile_.group(2))
    result.outputs = [np.load(p) for p in outputs]
    for p in outputs:
        p.unlink()
    return result


def timed_runs(estimate_ms: float, repeat: int, budget_s: float) -> int:
    """Runs to time: ``repeat``, fewer (at least 3) when they would take
    longer than ``budget_s`` seconds at ``estimate_ms`` each."""
    if estimate_ms <= 0:
        return repeat
    return max(min(repeat, 3), min(repeat, int(budget_s * 1e3 / estimate_ms)))


def mapped_blas() -> List[str]:
    """Files of BLAS libraries mapped into this process (/proc/self/maps):
    which library torch's libblas.so.3 resolved to."""
    try:
        with open("/proc/self/maps") as maps:
            paths = {line.split()[-1] for line in maps if "/" in line}
    except OSError:
        return []
    return sorted(p for p in paths if re.search(r"blas", os.path.basename(p), re.I))


def set_blas_threads(threads: int) -> Optional[int]:
    """Sets the threads of an OpenBLAS mapped into this process (torch's
    libblas.so.3 when the system's alternative is OpenBLAS) and returns the
    previous count; None without one. torch.set_num_threads does not reach
    a BLAS that PyTorch was not built against (BLAS_INFO=generic), and
    OpenBLAS otherwise starts a thread per core: a "1-thread" PyTorch would
    then compute its matrix products on two threads."""
    import ctypes
    for path in mapped_blas():
        if "openblas" not in path.lower():
            continue
        lib = ctypes.CDLL(path)  # the mapped library: the same instance
        if not hasattr(lib, "openblas_set_num_threads"):
            continue
        previous = lib.openblas_get_num_threads()
        lib.openblas_set_num_threads(threads)
        return previous
    return None


@dataclass
class TorchTimes:
    """PyTorch's timed calls: wall-clock and the calling thread's CPU time
    (``time.thread_time``), median and fastest, in ms; ``thread_share`` is
    the thread's CPU time over the whole process's (``time.process_time``),
    summed over the timed calls: 1 when all of PyTorch's work ran on the
    calling thread, which the 1-thread CPU times rely on."""

    median_ms: float
    min_ms: float
    cpu_median_ms: float
    cpu_min_ms: float
    thread_share: float


def torch_median_ms(call: Callable[[], None], repeat: int, threads: int,
                    budget_s: float) -> TorchTimes:
    """Times of the timed calls of ``call`` at ``threads``."""
    previous = torch.get_num_threads()
    torch.set_num_threads(threads)
    previous_blas = set_blas_threads(threads)
    try:
        start = time.perf_counter()
        call()  # warm-up
        warm_up_ms = (time.perf_counter() - start) * 1e3
        times, cpu_times = [], []
        thread_total = process_total = 0.0
        for _ in range(timed_runs(warm_up_ms, repeat, budget_s)):
            process_start = time.process_time()
            thread_start = time.thread_time()
            start = time.perf_counter()
            call()
            times.append((time.perf_counter() - start) * 1e3)
            thread_s = time.thread_time() - thread_start
            process_total += time.process_time() - process_start
            thread_total += thread_s
            cpu_times.append(thread_s * 1e3)
    finally:
        torch.set_num_threads(previous)
        if previous_blas is not None:
            set_blas_threads(previous_blas)
    return TorchTimes(statistics.median(times), min(times), statistics.median(cpu_times),
                      min(cpu_times), thread_total / process_total if process_total else 0.0)


def torch_gemm_gflops(threads: int) -> float:
    """GFLOP/s of a GEMM_CHECK_SIZE^3 torch.mm at ``threads`` (median of 3):
    shows which BLAS this process's PyTorch calls."""
    previous = torch.get_num_threads()
    torch.set_num_threads(threads)
    previous_blas = set_blas_threads(threads)
    try:
        n = GEMM_CHECK_SIZE
        generator = torch.Generator().manual_seed(0)
        a = torch.randn(n, n, generator=generator)
        b = torch.randn(n, n, generator=generator)
        torch.mm(a, b)
        times = []
        for _ in range(3):
            start = time.perf_counter()
            torch.mm(a, b)
            times.append(time.perf_counter() - start)
    finally:
        torch.set_num_threads(previous)
        if previous_blas is not None:
            set_blas_threads(previous_blas)
    return 2 * n ** 3 / statistics.median(times) / 1e9


def torch_worker(key: str, mode: str, threads: int, repeat: int, budget_s: float) -> None:
    """``--torch-worker``: PyTorch's median and fastest time of one model's
    forward or training step, built as the main process builds it, and the
    GEMM check; one JSON line on stdout. Run with OpenBLAS preloaded."""
    import json
    spec = MODELS[key]
    model = make_model(spec)
    if mode == "forward":
        model.eval()
        x, _ = make_data(spec, model)

        def call():
            with torch.no_grad():
                model(x)
    else:
        x, target = make_data(spec, model)
        wrapped = WithLoss(model, spec.loss).train()
        sgd = torch.optim.SGD(wrapped.parameters(), lr=LR)

        def call():
            sgd.zero_grad()
            wrapped(x, target).backward()
            sgd.step()
    measured = torch_median_ms(call, repeat, threads, budget_s)
    # Whether OpenBLAS is mapped into this process, i.e. the preload worked.
    with open("/proc/self/maps") as maps:
        mapped = any("openblas" in line.lower() for line in maps)
    print(json.dumps({**measured.__dict__,
                      "gemm_gflops": torch_gemm_gflops(threads),
                      "openblas_mapped": mapped}), flush=True)


def torch_openblas_ms(key: str, mode: str, threads: int, repeat: int, budget_s: float,
                      timeout: float) -> Tuple[Optional[TorchTimes], str]:
    """(times, error) of PyTorch with OpenBLAS preloaded, in a subprocess."""
    import json
    if not TORCH_OPENBLAS:
        return None, "no OpenBLAS libblas.so.3 to preload"
    env = dict(os.environ, LD_PRELOAD=TORCH_OPENBLAS[0],
               OPENBLAS_NUM_THREADS=str(threads), OMP_NUM_THREADS=str(threads))
    # The kernels our BLAS runtime picks (0.3.21 would fall back to SSE3
    # kernels on this CPU model otherwise).
    core = ORIGINAL_CORETYPE or openblas_coretype_for_cpu()
    if core:
        env["OPENBLAS_CORETYPE"] = core
    command = [sys.executable, str(HERE / "run.py"), "--torch-worker",
               f"{key}:{mode}:{threads}:{repeat}:{budget_s:g}"]
    try:
        run = subprocess.run(command, capture_output=True, text=True, timeout=timeout,
                             env=env)
    except subprocess.TimeoutExpired:
        return None, f"timed out after {timeout:.0f} s"
    lines = [line for line in run.stdout.splitlines() if line.startswith("{")]
    if run.returncode != 0 or not lines:
        line, _ = error_summary(run.stderr, run.returncode)
        return None, line
    values = json.loads(lines[-1])
    if not values.get("openblas_mapped"):
        return None, "OpenBLAS not mapped in the worker (/proc/self/maps): the preload failed"
    TORCH_GEMM[("openblas", threads)] = max(TORCH_GEMM.get(("openblas", threads), 0.0),
                                            values["gemm_gflops"])
    return TorchTimes(**{name: values[name] for name in TorchTimes.__dataclass_fields__}), ""


def measure_both(side: "Side", label: str, ours: Callable[[int, int], "RafRun"],
                 torch_call: Callable[[], None], repeat: int, threads_list: List[int],
                 budget_s: float, worker: Optional[Tuple[str, str, float]] = None) -> None:
    """PyTorch, then ours, then PyTorch with OpenBLAS (``worker``: model key,
    mode and timeout of the subprocess) at each thread count. Our run count
    is chosen from PyTorch's time (times the ratio at the previous thread
    count)."""
    ratio = 1.0
    for threads in threads_list:
        log(f"  {label}: PyTorch, {threads} thread(s)")
        measured = torch_median_ms(torch_call, repeat, threads, budget_s)
        side.torch[threads] = measured
        torch_ms = measured.median_ms
        log(f"    {torch_ms:.2f} ms (thread CPU {measured.cpu_median_ms:.2f} ms)")
        log(f"  {label}: raf-run --threads={threads}")
        run = ours(threads, timed_runs(torch_ms * ratio, repeat, budget_s))
        side.ours[threads] = run
        if run.error:
            log(f"    error: {run.error}")
        else:
            ratio = run.median_ms / torch_ms
            log(f"    {run.median_ms:.2f} ms (thread CPU {run.cpu_median_ms:.2f} ms; compile "
                f"{fmt_s(run.pipeline_ms)} + "
                f"{fmt_s(run.llvm_ms)} s)")
        if worker and TORCH_OPENBLAS:
            key, mode, timeout = worker
            log(f"  {label}: PyTorch + OpenBLAS (LD_PRELOAD), {threads} thread(s)")
            measured, error = torch_openblas_ms(key, mode, threads, repeat, budget_s,
                                                timeout)
            if error:
                side.torch_openblas_error[threads] = error
                log(f"    error: {error}")
            else:
                side.torch_openblas[threads] = measured
                log(f"    {measured.median_ms:.2f} ms (thread CPU "
                    f"{measured.cpu_median_ms:.2f} ms)")


@dataclass
class Side:
    """One mode (forward or training step) of one model."""

    flop: Optional[int] = None
    ours: Dict[int, RafRun] = field(default_factory=dict)  # threads -> run
    torch: Dict[int, TorchTimes] = field(default_factory=dict)  # threads -> times
    # PyTorch with OpenBLAS preloaded (a subprocess).
    torch_openblas: Dict[int, TorchTimes] = field(default_factory=dict)
    torch_openblas_error: Dict[int, str] = field(default_factory=dict)
    error: Optional[str] = None  # a failure before raf-run (import, raf-opt)
    details: Optional[str] = None
    checks: Dict[int, str] = field(default_factory=dict)  # threads -> numerics
    autodiff_ms: Optional[float] = None  # raf-opt --raf-training-pipeline


@dataclass
class Result:
    key: str
    title: str
    forward: Side = field(default_factory=Side)
    train: Side = field(default_factory=Side)


def measure_forward(key: str, spec: Spec, args, tools, threads_list,
                    workdir: pathlib.Path) -> Side:
    side = Side()
    model = make_model(spec).eval()
    x, _ = make_data(spec, model)
    side.flop, _ = flops.count(lambda: model(x))
    with torch.no_grad():
        reference = model(x).numpy()
    log("  forward: importing")
    try:
        imported = import_module(model, (x,), function_name="forward")
    except Exception as error:  # noqa: BLE001 - recorded, not hidden
        side.error = f"import failed: {type(error).__name__}: {str(error).splitlines()[0]}"
        side.details = str(error)
        return side
    directory = workdir / "forward"
    mlir = imported.write(directory)
    inputs = [directory / a.npy for a in imported.arguments]

    def call():
        with torch.no_grad():
            model(x)

    def ours(threads: int, repeat: int) -> RafRun:
        return run_raf(tools["raf-run"], mlir, "forward", inputs, imported.num_results,
                       threads, repeat, directory, args.timeout)
    measure_both(side, "forward", ours, call, args.repeat, threads_list, args.budget,
                 (key, "forward", args.timeout))
    scale = float(np.abs(reference).max())
    for threads, run in side.ours.items():
        if run.outputs:
            diff = float(np.abs(run.outputs[0] - reference).max())
            side.checks[threads] = f"{diff:.1e} (max \\|out\\| {scale:.1e})"
    shutil.rmtree(directory, ignore_errors=True)
    return side


def measure_train(key: str, spec: Spec, args, tools, threads_list,
                  workdir: pathlib.Path) -> Side:
    side = Side()
    model = make_model(spec)
    x, target = make_data(spec, model)
    wrapped = WithLoss(model, spec.loss).train()

    # FLOPs of one step, and PyTorch's step from the initial weights (the
    # reference for our numerics), on copies.
    counted = copy.deepcopy(wrapped).train()
    side.flop, _ = flops.count(lambda: counted(x, target).backward())
    references = {}
    for dtype in (torch.float32, torch.float64):
        reference_model = copy.deepcopy(wrapped).train().to(dtype)
        optimizer = torch.optim.SGD(reference_model.parameters(), lr=LR)
        optimizer.zero_grad()
        loss = reference_model(x.to(dtype),
                               target.to(dtype) if target.is_floating_point() else target)
        loss.backward()
        optimizer.step()
        references[dtype] = (float(loss), {n: p.detach().numpy().astype(np.float64)
                                           for n, p in reference_model.named_parameters()})
        del reference_model, optimizer, loss
    reference_loss, reference_params = references[torch.float32]
    exact_params = references[torch.float64][1]

    log("  training step: importing (training mode)")
    try:
        imported = import_module(wrapped, (x, target), function_name="main", training=True)
    except Exception as error:  # noqa: BLE001
        side.error = f"import failed: {type(error).__name__}: {str(error).splitlines()[0]}"
        side.details = str(error)
        return side
    parameters = dict(wrapped.named_parameters())
    grad = [a for a in imported.arguments if a.name in parameters]
    others = [a for a in imported.arguments if a.name not in parameters]
    directory = workdir / "train"
    forward_mlir = imported.write(directory)
    step = directory / "step.mlir"
    options = (f"requires-grad={','.join(str(a.index) for a in grad)} "
               f"optimizer=sgd lr={LR}")
    log("  training step: raf-opt --raf-training-pipeline")
    start = time.perf_counter()
    try:
        made = subprocess.run([str(tools["raf-opt"]), str(forward_mlir),
                               f"--raf-training-pipeline={options}", "-o", str(step)],
                              capture_output=True, text=True, timeout=args.timeout)
    except subprocess.TimeoutExpired:
        side.error = f"raf-opt --raf-training-pipeline timed out after {args.timeout:.0f} s"
        return side
    side.autodiff_ms = (time.perf_counter() - start) * 1e3
    if made.returncode != 0:
        line, details = error_summary(made.stderr, made.returncode)
        side.error = f"raf-opt --raf-training-pipeline: {line}"
        side.details = details
        return side
    # @train_step(params in requires-grad order, other arguments in order)
    #   -> (loss, running statistics..., new params...)
    inputs = [directory / a.npy for a in grad + others]
    num_aux = imported.num_results - 1
    num_outputs = 1 + num_aux + len(grad)
    initial = {a.name: np.load(directory / a.npy) for a in grad}
    # PyTorch's steps run on a copy (they change its weights).
    timed = copy.deepcopy(wrapped).train()
    sgd = torch.optim.SGD(timed.parameters(), lr=LR)

    def call():
        sgd.zero_grad()
        timed(x, target).backward()
        sgd.step()

    def ours(threads: int, repeat: int) -> RafRun:
        return run_raf(tools["raf-run"], step, "train_step", inputs, num_outputs, threads,
                       repeat, directory, args.timeout)
    measure_both(side, "training step", ours, call, args.train_repeat, threads_list,
                 args.budget, (key, "train", args.timeout))
    def update_error(new: Dict[str, np.ndarray], reference: Dict[str, np.ndarray]):
        """||upd - upd_ref|| / ||upd_ref|| over all parameters, and the
        parameter contributing most to the numerator with its own ratio."""
        num = den = 0.0
        worst = (-1.0, "", 0.0)
        for a in grad:
            update = new[a.name] - initial[a.name]
            reference_update = reference[a.name] - initial[a.name]
            error = float(((update - reference_update) ** 2).sum())
            size = float((reference_update ** 2).sum())
            num += error
            den += size
            if error > worst[0]:
                worst = (error, a.name, (error / size) ** 0.5 if size > 0 else float("inf"))
        return ((num / den) ** 0.5 if den > 0 else float("nan")), worst

    torch_exact, _ = update_error(reference_params, exact_params)
    for threads, run in side.ours.items():
        if not run.outputs:
            continue
        loss = float(run.outputs[0])
        new = {a.name: o.astype(np.float64) for a, o in zip(grad, run.outputs[1 + num_aux:])}
        ours_torch, worst = update_error(new, reference_params)
        ours_exact, _ = update_error(new, exact_params)
        loss_rel = abs(loss - reference_loss) / max(abs(reference_loss), 1e-30)
        name = worst[1][len("model."):] if worst[1].startswith("model.") else worst[1]
        side.checks[threads] = (
            f"loss {loss:.5g} vs {reference_loss:.5g} (rel {loss_rel:.0e}); update rel diff "
            f"{ours_torch:.1e} (most: `{name}` {worst[2]:.0e}); vs f64: ours "
            f"{ours_exact:.0e}, PyTorch {torch_exact:.0e}")
    shutil.rmtree(directory, ignore_errors=True)
    return side


# ---------------------------------------------------------------------------
# Machine
# ---------------------------------------------------------------------------


def build_peak_probe(workdir: pathlib.Path) -> Optional[pathlib.Path]:
    """bench/cpu/peak.c compiled with gcc -O3 -march=native (None without gcc)."""
    compiler = shutil.which("gcc") or shutil.which("cc")
    if not compiler:
        return None
    binary = workdir / "peak"
    subprocess.run([compiler, "-O3", "-march=native", "-pthread", str(HERE / "peak.c"),
                    "-o", str(binary)], check=True)
    return binary


def measure_peak(binary: Optional[pathlib.Path], threads_list: List[int],
                 seconds: float) -> Dict[int, Tuple[float, float]]:
    """{threads: (hardware GFLOP/s per CPU time, delivered GFLOP/s per wall
    time)} of the peak probe ((0, 0) without a probe)."""
    peaks = {t: (0.0, 0.0) for t in threads_list}
    if binary is None:
        return peaks
    for threads in threads_list:
        out = subprocess.run([str(binary), str(threads), str(seconds)], capture_output=True,
                             text=True, check=True).stdout
        PEAK_VECTOR_BITS[0] = re.search(r"vector-bits=(\d+)", out).group(1)
        PEAK_ACCUMULATORS[0] = re.search(r"accumulators=(\d+)", out).group(1)
        peaks[threads] = (float(re.search(r"gflops-cpu-time=([0-9.]+)", out).group(1)),
                          float(re.search(r"gflops=([0-9.]+)", out).group(1)))
    return peaks


# OpenBLAS measured directly (ctypes), as the reference for our BLAS-backed
# contractions: the same library file and core-type choice as raf-run's BLAS
# runtime (lib/Runtime/BLASRuntime.cpp).
OPENBLAS_PATHS = ["/usr/lib/x86_64-linux-gnu/openblas-pthread/libopenblas.so.0",
                  "/usr/lib/x86_64-linux-gnu/libopenblas.so.0",
                  "/usr/lib/aarch64-linux-gnu/openblas-pthread/libopenblas.so.0"]
# (label, M, N, K, B stored [N, K]): a large square SGEMM and the two dense
# layers' products (x W^T with the [out, in] weight, as ours calls it).
BLAS_SHAPES = [("SGEMM 2048^3", 2048, 2048, 2048, False),
               ("dense 9216->4096, batch 64 (x W^T)", 64, 4096, 9216, True),
               ("dense 9216->4096, batch 1 (SGEMV)", 1, 4096, 9216, True)]


def choose_openblas_coretype() -> str:
    """What the BLAS runtime does: keep a user's OPENBLAS_CORETYPE, else
    the choice of openblas_coretype_for_cpu()."""
    if ORIGINAL_CORETYPE:
        return f"OPENBLAS_CORETYPE={ORIGINAL_CORETYPE} (environment)"
    core = openblas_coretype_for_cpu()
    if not core:
        return "OPENBLAS_CORETYPE unset"
    os.environ["OPENBLAS_CORETYPE"] = core
    return f"OPENBLAS_CORETYPE={core} (chosen from the CPU's instruction set)"


def measure_openblas(threads_list: List[int], repeat: int) -> Tuple[str, Dict]:
    """(description, {(label, threads): (median ms, GFLOP/s)}) of OpenBLAS's
    SGEMM/SGEMV on BLAS_SHAPES (thread CPU time at 1 thread, wall above, as
    the models); empty without the library."""
    import ctypes
    path = next((p for p in OPENBLAS_PATHS if os.path.exists(p)), None)
    if not path:
        return "OpenBLAS not found", {}
    source = choose_openblas_coretype()
    lib = ctypes.CDLL(path)
    lib.openblas_get_config.restype = ctypes.c_char_p
    lib.openblas_get_corename.restype = ctypes.c_char_p
    description = (f"{lib.openblas_get_config().decode()}; kernels "
                   f"{lib.openblas_get_corename().decode()}; {source}")
    ptr = ctypes.c_void_p
    rng = np.random.default_rng(0)
    rates = {}
    for label, m, n, k, transposed in BLAS_SHAPES:
        a = rng.standard_normal((m, k), dtype=np.float32)
        b = rng.standard_normal((n, k) if transposed else (k, n), dtype=np.float32)
        c = np.zeros((m, n), np.float32)
        if m == 1:
            def call():  # y = W x (row-major W [N, K])
                lib.cblas_sgemv(101, 111, n, k, ctypes.c_float(1.0), b.ctypes.data_as(ptr),
                                k, a.ctypes.data_as(ptr), 1, ctypes.c_float(0.0),
                                c.ctypes.data_as(ptr), 1)
        else:
            def call():
                lib.cblas_sgemm(101, 111, 112 if transposed else 111, m, n, k,
                                ctypes.c_float(1.0), a.ctypes.data_as(ptr), k,
                                b.ctypes.data_as(ptr), k if transposed else n,
                                ctypes.c_float(0.0), c.ctypes.data_as(ptr), n)
        for threads in threads_list:
            lib.openblas_set_num_threads(threads)
            call()
            times = []
            for _ in range(repeat):
                # The same clock as the models' at this thread count: at
                # one thread OpenBLAS computes on the calling thread.
                clock = time.thread_time if cpu_timed(threads) else time.perf_counter
                start = clock()
                call()
                times.append((clock() - start) * 1e3)
            ms = statistics.median(times)
            rates[(label, threads)] = (ms, 2 * m * n * k / ms / 1e6)
    return description, rates


def blas_tables(results: List[Result], modes: List[str], threads_list: List[int],
                blas: Tuple[str, Dict], peaks: Dict[int, float]) -> List[str]:
    description, rates = blas
    if not rates:
        return [f"OpenBLAS was not measured: {description}."]
    lines = [f"OpenBLAS 0.3.21 measured in this run through ctypes ({description}); "
             "median of the timed calls after one warm-up, by the calling thread's CPU "
             "time at 1 thread (OpenBLAS computes on it) and wall-clock above:", "",
             "| product | threads | time | OpenBLAS ms | OpenBLAS GFLOP/s (% peak) |",
             "|---|---:|---|---:|---:|"]
    for label, *_ in BLAS_SHAPES:
        for t in threads_list:
            ms, rate = rates[(label, t)]
            peak = peaks.get(t, 0.0)
            share = f" ({100 * rate / peak:.1f} %)" if peak else ""
            lines.append(f"| {label} | {t} | {time_name(t)} | {fmt_ms(ms)} | "
                         f"{rate:.1f}{share} |")
    same_shape = {"dense_b64": "dense 9216->4096, batch 64 (x W^T)",
                  "dense_b1": "dense 9216->4096, batch 1 (SGEMV)"}
    lines += ["", "Ours against OpenBLAS: our GFLOP/s (the model's FLOP over our median "
              "time, thread CPU at 1 thread, wall above) divided by OpenBLAS's 2048^3 SGEMM at the same thread count, and for "
              "the dense layers by OpenBLAS on the layer's own product (forward only; the "
              "aim is within 1.5x, i.e. a ratio of at least 0.67).", "",
              "| model | mode | threads | ours GFLOP/s | / SGEMM 2048^3 | / OpenBLAS same product |",
              "|---|---|---:|---:|---:|---:|"]
    names = {"forward": "forward", "train": "training step"}
    for result in results:
        for mode in modes:
            side = getattr(result, mode)
            for t in threads_list:
                run = side.ours.get(t)
                _, ours_ms = ours_cell(side, t, True)
                if not side.flop or not ours_ms:
                    continue
                ours = side.flop / ours_ms / 1e6
                square = rates[("SGEMM 2048^3", t)][1]
                own = "-"
                if mode == "forward" and result.key in same_shape:
                    own = f"{ours / rates[(same_shape[result.key], t)][1]:.2f}"
                lines.append(f"| {result.title} | {names[mode]} | {t} | {ours:.1f} | "
                             f"{ours / square:.2f} | {own} |")
    return lines


def torch_gemm_text() -> str:
    """The GEMM check of PyTorch's BLAS, each PyTorch at each thread count."""
    parts = []
    for which, name in (("reference", "PyTorch"), ("openblas", "PyTorch + OpenBLAS")):
        for (kind, threads), rate in sorted(TORCH_GEMM.items()):
            if kind == which:
                parts.append(f"{name} {threads}T {rate:.1f}")
    return (f"torch.mm {GEMM_CHECK_SIZE}^3 GFLOP/s: " + ", ".join(parts)) if parts else "-"


def peak_text(peaks: Dict[int, Tuple[float, float]]) -> str:
    return ", ".join(f"{t} thread{'s' if t > 1 else ''}: {hw:.1f} ({wall:.1f} delivered)"
                     for t, (hw, wall) in peaks.items())


def machine_description() -> str:
    model = platform.processor() or "x86_64"
    try:
        for line in pathlib.Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{os.cpu_count()} cores, {model}"


def torch_blas() -> str:
    config = torch.__config__.show()
    blas = re.search(r"BLAS_INFO=([^,\s]+)", config)
    dnn = re.search(r"MKL-DNN v([0-9.]+)", config)
    return (f"BLAS_INFO={blas.group(1) if blas else '?'}"
            + (f", oneDNN (MKL-DNN) v{dnn.group(1)}" if dnn else ""))


def uptime() -> str:
    try:
        return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    except OSError:
        return "load average: " + ", ".join(f"{x:.2f}" for x in os.getloadavg())


def git_commit() -> str:
    try:
        return subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                              capture_output=True, text=True).stdout.strip()
    except OSError:
        return "?"


# ---------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------


def fmt_s(ms: Optional[float]) -> str:
    if ms is None:
        return "-"
    return f"{ms / 1e3:.2f}" if ms < 10e3 else f"{ms / 1e3:.1f}"


def fmt_ms(ms: Optional[float]) -> str:
    if ms is None:
        return "-"
    return f"{ms:.1f}" if ms >= 10 else f"{ms:.2f}"


def fmt_rate(flop: Optional[int], ms: Optional[float], peak: float) -> str:
    if not flop or not ms:
        return "-"
    gflops = flop / ms / 1e6
    percent = f" ({100 * gflops / peak:.1f} %)" if peak else ""
    return f"{gflops:.1f}{percent}"


def cpu_timed(threads: int) -> bool:
    """Whether times at ``threads`` are compared by the calling thread's CPU
    time. At 1 thread all of either side's work runs on that thread (raf-run
    --threads=1 and OpenBLAS at one thread; PyTorch at set_num_threads(1),
    checked by TorchTimes.thread_share), so its CPU time is the work done,
    without the waiting for cores that other processes hold. At more
    threads the calling thread's CPU time misses the workers' and the sum
    over threads is not a time to completion: wall-clock there."""
    return threads == 1


def time_name(threads: int) -> str:
    return "thread CPU" if cpu_timed(threads) else "wall"


def torch_times(times: Optional[TorchTimes], threads: int,
                cpu: Optional[bool] = None) -> Tuple[Optional[float], Optional[float]]:
    """(median, min) of PyTorch's ``times``, by CPU time where ``cpu`` (by
    default where cpu_timed(threads))."""
    if times is None:
        return None, None
    if cpu if cpu is not None else cpu_timed(threads):
        return times.cpu_median_ms, times.cpu_min_ms
    return times.median_ms, times.min_ms


def ours_cell(side: Side, threads: int, first: bool,
              cpu: Optional[bool] = None) -> Tuple[str, Optional[float]]:
    """(table text, time in ms or None) of our run at ``threads``, by CPU
    time where ``cpu`` (by default where cpu_timed(threads))."""
    run = side.ours.get(threads)
    if side.error:
        return (f"**failed:** {side.error.replace('|', '/')}" if first
                else "failed (see above)"), None
    if run is None:
        return "-", None
    if run.error:
        return f"**failed:** {run.error}", None
    if cpu if cpu is not None else cpu_timed(threads):
        return f"{fmt_ms(run.cpu_median_ms)} ({fmt_ms(run.cpu_min_ms)})", run.cpu_median_ms
    return f"{fmt_ms(run.median_ms)} ({fmt_ms(run.min_ms)})", run.median_ms


def faster_torch(side: Side, threads: int) -> Tuple[Optional[float], bool]:
    """The faster of the two PyTorch medians at ``threads`` (thread CPU time
    at 1 thread, wall above), and whether it is stock PyTorch's (the
    OpenBLAS column slower: noise or load, flagged)."""
    stock, _ = torch_times(side.torch.get(threads), threads)
    openblas, _ = torch_times(side.torch_openblas.get(threads), threads)
    if openblas is None:
        return None, False
    if stock is not None and stock < openblas:
        return stock, True
    return openblas, False


def thread_shares(results: List["Result"], threads: int) -> Dict[str, List[float]]:
    """TorchTimes.thread_share of every PyTorch measurement at ``threads``:
    {"stock" | "openblas": [share, ...]}."""
    shares: Dict[str, List[float]] = {"stock": [], "openblas": []}
    for result in results:
        for side in (result.forward, result.train):
            if threads in side.torch:
                shares["stock"].append(side.torch[threads].thread_share)
            if threads in side.torch_openblas:
                shares["openblas"].append(side.torch_openblas[threads].thread_share)
    return shares


def mode_table(results: List[Result], mode: str, threads_list: List[int],
               peaks: Dict[int, float]) -> List[str]:
    lines = ["| model | GFLOP | threads | time | ours ms (min) | PyTorch ms (min) |"
             " ours / PyTorch | PyTorch + OpenBLAS ms (min) | ours / faster PyTorch |"
             " ours wall ms (min) | PyTorch wall ms (min) | PyTorch + OpenBLAS wall ms (min) |"
             " ours GFLOP/s (% peak) | PyTorch GFLOP/s (% peak) | numerics vs PyTorch |",
             "|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"]

    def torch_text(times: Optional[TorchTimes], t: int, cpu: Optional[bool] = None) -> str:
        median, fastest = torch_times(times, t, cpu)
        return "-" if median is None else f"{fmt_ms(median)} ({fmt_ms(fastest)})"

    for result in results:
        side = getattr(result, mode)
        flop = f"{side.flop / 1e9:.3f}" if side.flop else "-"
        for t in threads_list:
            first = t == threads_list[0]
            ours, ours_ms = ours_cell(side, t, first)
            ours_wall, _ = ours_cell(side, t, first, cpu=False)
            torch_ms, _ = torch_times(side.torch.get(t), t)
            ratio = f"{ours_ms / torch_ms:.2f}" if ours_ms and torch_ms else "-"
            openblas_text = torch_text(side.torch_openblas.get(t), t)
            openblas_wall = torch_text(side.torch_openblas.get(t), t, cpu=False)
            if t in side.torch_openblas_error:
                openblas_text = f"failed: {side.torch_openblas_error[t].replace('|', '/')}"
                openblas_wall = "failed"
            best_ms, stock_faster = faster_torch(side, t)
            openblas_ratio = (f"{ours_ms / best_ms:.2f}" + (" (stock faster)" if stock_faster
                                                            else "")
                              if ours_ms and best_ms else "-")
            lines.append(
                f"| {result.title} | {flop} | {t} | {time_name(t)} | {ours} |"
                f" {torch_text(side.torch.get(t), t)} | {ratio} |"
                f" {openblas_text} | {openblas_ratio} |"
                f" {ours_wall} | {torch_text(side.torch.get(t), t, cpu=False)} |"
                f" {openblas_wall} |"
                f" {fmt_rate(side.flop, ours_ms, peaks.get(t, 0.0))} |"
                f" {fmt_rate(side.flop, torch_ms, peaks.get(t, 0.0))} |"
                f" {side.checks.get(t, '-')} |")
    return lines


def summary_table(results: List[Result], modes: List[str],
                  threads_list: List[int]) -> List[str]:
    """Ours / PyTorch per model, mode and thread count (thread CPU time at 1
    thread, wall above), and compile times."""
    header, rule = "| model |", "|---|"
    names = {"forward": "forward", "train": "training step"}
    for mode in modes:
        for t in threads_list:
            header += f" {names[mode]} {t}T: ours / PyTorch {time_name(t)} ms |"
            rule += "---:|"
    for mode in modes:
        for t in threads_list:
            header += f" {names[mode]} {t}T: ours / faster PyTorch {time_name(t)} ms |"
            rule += "---:|"
    for mode in modes:
        header += f" {names[mode]} compile s |"
        rule += "---:|"
    lines = [header, rule]
    for result in results:
        row = f"| {result.title} |"
        for column in ("stock", "faster"):
            for mode in modes:
                side = getattr(result, mode)
                for t in threads_list:
                    _, ours_ms = ours_cell(side, t, True)
                    flag = False
                    if column == "faster":
                        torch_ms, flag = faster_torch(side, t)
                    else:
                        torch_ms, _ = torch_times(side.torch.get(t), t)
                    if ours_ms and torch_ms:
                        row += (f" {fmt_ms(ours_ms)} / {fmt_ms(torch_ms)} = "
                                f"**{ours_ms / torch_ms:.2f}**"
                                + (" (stock faster)" if flag else "") + " |")
                    elif side.error or (side.ours.get(t) and side.ours[t].error):
                        row += f" failed / {fmt_ms(torch_ms)} |"
                    else:
                        row += " - |"
        for mode in modes:
            side = getattr(result, mode)
            run = side.ours.get(threads_list[0])
            total = (run.pipeline_ms + run.llvm_ms + (side.autodiff_ms or 0.0)
                     if run and run.pipeline_ms is not None else None)
            row += f" {fmt_s(total)} |"
        lines.append(row)
    return lines


def compile_table(results: List[Result], modes: List[str],
                  threads_list: List[int]) -> List[str]:
    header, rule = "| model |", "|---|"
    if "forward" in modes:
        for t in threads_list:
            header += f" forward {t}T: pipeline + LLVM s |"
            rule += "---:|"
    if "train" in modes:
        header += " training: raf-opt s |"
        rule += "---:|"
        for t in threads_list:
            header += f" training {t}T: pipeline + LLVM s |"
            rule += "---:|"
    lines = [header, rule]

    def cell(run: Optional[RafRun]) -> str:
        if run is None or run.pipeline_ms is None:
            return "-"
        total = run.pipeline_ms + run.llvm_ms
        return f"{fmt_s(run.pipeline_ms)} + {fmt_s(run.llvm_ms)} = **{fmt_s(total)}**"

    for result in results:
        row = f"| {result.title} |"
        if "forward" in modes:
            for t in threads_list:
                row += f" {cell(result.forward.ours.get(t))} |"
        if "train" in modes:
            row += f" {fmt_s(result.train.autodiff_ms)} |"
            for t in threads_list:
                row += f" {cell(result.train.ours.get(t))} |"
        lines.append(row)
    return lines


def failures(results: List[Result]) -> List[str]:
    lines = []
    for result in results:
        for mode, side in (("forward", result.forward), ("training step", result.train)):
            entries = []
            if side.error:
                entries.append(("", side.details or side.error))
            for t, run in side.ours.items():
                if run.error:
                    entries.append((f", --threads={t}", run.details or run.error))
            for t, error in side.torch_openblas_error.items():
                entries.append((f", PyTorch + OpenBLAS worker, {t} thread(s)", error))
            for suffix, text in entries:
                lines += ["", f"{result.title}, {mode}{suffix}:", "", "```",
                          text.strip(), "```"]
    return lines


def thread_share_text(results: List[Result], threads_list: List[int]) -> str:
    """Where PyTorch's 1-thread work ran: its calling thread's share of the
    process's CPU time over the timed calls, the range over the
    measurements."""
    if 1 not in threads_list:
        return ""
    shares = thread_shares(results, 1)
    parts = [f"{name} {100 * min(shares[key]):.1f}-{100 * max(shares[key]):.1f} %"
             for key, name in (("stock", "PyTorch"), ("openblas", "PyTorch + OpenBLAS"))
             if shares[key]]
    if not parts:
        return ""
    return ("At 1 thread, PyTorch's calling thread accounted for this share of its "
            "process's CPU time (`time.thread_time` / `time.process_time` summed over the "
            "timed calls, range over the measurements): " + ", ".join(parts) + ".")


def report(results: List[Result], args, modes: List[str], threads_list: List[int],
           peak_sets, load_start: str, load_end: str, started: str, minutes: float,
           blas: Tuple[str, Dict]) -> str:
    n = threads_list[-1]
    peaks, peaks_start, peaks_end = peak_sets
    peak_list = ", ".join(f"{peaks[t]:.1f} GFLOP/s at {t} thread{'s' if t > 1 else ''}"
                          for t in threads_list)
    argv, shown = sys.argv[1:], []
    while argv:
        a = argv.pop(0)
        if a == "--out":
            argv = argv[1:]
        elif not a.startswith("--out="):
            shown.append(a)
    command = " ".join(["bench/cpu/run.py", *shown])
    blas_text = ", ".join(f"`{os.path.realpath(p)}`" for p in mapped_blas()) or "no BLAS"
    if any("openblas" in p.lower() for p in mapped_blas()):
        blas_text += (" (OpenBLAS: stock PyTorch computes its matrix products with it too; "
                      "its threads are set to each row's thread count by "
                      "`openblas_set_num_threads`, which `torch.set_num_threads` does not "
                      "reach)")
    lines = [
        "# CPU benchmark: RAF-MLIR vs PyTorch eager (forward and training step)",
        "",
        f"Generated by `{command}` on {started} (commit {git_commit()}; {minutes:.0f} "
        "minutes); bench/cpu/README.md explains the method and reads the results.",
        "",
        f"- Machine: {machine_description()}. fp32 peak measured by `bench/cpu/peak.c` "
        f"(an FMA loop on {PEAK_ACCUMULATORS[0]} independent {PEAK_VECTOR_BITS[0]}-bit "
        "accumulators per thread, "
        "gcc -O3 -march=native; FLOP per second of each thread's CPU time, summed): "
        f"**{peak_list}**. % peak compares with the peak at the same thread count. The "
        "probe's FLOP per wall-clock second shows what the machine delivered while it ran "
        f"(other work takes turns on the cores): before the models, GFLOP/s "
        f"{peak_text(peaks_start)}; after, {peak_text(peaks_end)}.",
        f"- Load: at start `{load_start}`; at end `{load_end}`. Other work shares the "
        "machine when the load is above 0. Wall-clock times include waiting for the "
        "cores (multi-threaded runs suffer most); the 1-thread rows are therefore "
        "compared by the calling thread's CPU time (column `time`), which counts only "
        "the work done.",
        f"- PyTorch {torch.__version__}: {torch_blas()} (`torch.__config__.show()`): "
        "matrix products (`nn.Linear`, attention) and 1x1 convolutions go to the "
        "system's `libblas.so.3` (with BLAS_INFO=generic; the reference BLAS unless the "
        "alternatives system points it elsewhere), other convolutions to oneDNN. "
        f"Mapped into this process: {blas_text}. Its default thread count here is "
        f"{torch.get_num_threads()}; the {n}-thread rows set `torch.set_num_threads({n})`, "
        f"ours `raf-run --threads={n}`.",
        "- PyTorch + OpenBLAS: the same PyTorch in a subprocess with "
        + (f"`LD_PRELOAD={TORCH_OPENBLAS[0]}` (OpenBLAS's build of the libblas.so.3 that "
           "torch links; OPENBLAS_NUM_THREADS = the thread count, the OPENBLAS_CORETYPE our "
           "runtime uses), measured right after ours on the same model, weights and "
           "inputs. Whether the preload took effect is checked by a GEMM in each process: "
           f"{torch_gemm_text()}, and each worker reports OpenBLAS mapped into it "
           "(`/proc/self/maps`; a cell where it is not is a failure). The preload changes "
           "the matrix products (`nn.Linear`, attention) and the 1x1 convolutions, which "
           "PyTorch computes as matrix products through BLAS (a 1x1 convolution at 1 "
           "thread: 1-2 GFLOP/s on the reference BLAS, 50-80 with OpenBLAS), unless "
           "torch's own libblas.so.3 is already OpenBLAS (see above: then the two columns "
           "run the same library and kernels and differ only by the process); other "
           "convolutions go to oneDNN in both columns. The fair ratio is ours / the faster of the two "
           "PyTorch columns, marked `(stock faster)` where stock PyTorch was faster "
           "(noise or load: OpenBLAS does not slow the same code down)."
           if TORCH_OPENBLAS else "not measured (no OpenBLAS libblas.so.3 found, or "
           "`--torch-openblas=none`)."),
        f"- Times: median of {args.repeat} (forward) / {args.train_repeat} (training step) "
        f"timed runs after one warm-up (fewer, at least 3, when they would take more than "
        f"{args.budget:g} s); ours is `raf-run --repeat` (the compiled call only, not "
        "compilation or argument copies); the tables give the fastest run in parentheses, "
        "less affected by other work on the machine. **At 1 thread the compared times "
        "(ratios, GFLOP/s) are the calling thread's CPU time** of each timed call: ours "
        "raf-run's `cpu-median-ms` / `cpu-min-ms` (with `--threads=1` OpenBLAS computes "
        "on that thread too), PyTorch's `time.thread_time()` around each call at "
        "`torch.set_num_threads(1)`; the wall-clock times are kept in the `wall` "
        "columns. " + thread_share_text(results, threads_list) + " At more threads "
        "the calling thread's CPU time misses the other threads' work, so those rows "
        "compare wall-clock times. Ratio = ours / PyTorch, of the medians (below 1: we "
        f"are faster). Training: batch norm on batch statistics, dropout p = 0, SGD lr "
        f"{LR}.",
        "- Our large matrix products and convolutions call OpenBLAS (the CPU pipeline's "
        "`blas=auto`, docs/lowering.md): "
        + (f"raf-run reported `{RAF_BLAS[0]}`." if RAF_BLAS else
           "raf-run reported no BLAS calls (a build without OpenBLAS, or blas=off).")
        + f" OPENBLAS_CORETYPE in the environment of this run: "
        f"`{ORIGINAL_CORETYPE or 'unset'}`.",
        "- GFLOP: 2 x multiply-accumulates of the convolutions and matrix products "
        "PyTorch executes (forward; forward + backward for the training step), counted "
        "by `bench/cpu/flops.py` over aten operators; the same count divides both sides' "
        "times.",
        "",
        "## Summary",
        "",
        *summary_table(results, modes, threads_list),
        "",
        f"Compile s: at {threads_list[0]} thread{'s' if threads_list[0] > 1 else ''}, "
        "`--raf-cpu-pipeline` + LLVM (+ `raf-opt --raf-training-pipeline` for the training "
        "step); details below.",
    ]
    if "forward" in modes:
        lines += [
            "",
            "## Forward",
            "",
            *mode_table(results, "forward", threads_list, peaks),
            "",
            "Numerics: max abs difference of our outputs from PyTorch's, and the largest "
            "output magnitude for scale.",
        ]
    if "train" in modes:
        lines += [
            "",
            "## Training step (forward + backward + SGD update)",
            "",
            *mode_table(results, "train", threads_list, peaks),
            "",
            "Numerics: our loss vs PyTorch's and their relative difference; the relative "
            "difference of the parameter update (new - initial weights), "
            "`||upd_ours - upd_torch|| / ||upd_torch||` over all parameters, "
            "with the parameter contributing most and its own ratio; and the same measure "
            "of ours and of PyTorch's float32 step against PyTorch's step in float64 (same "
            "weights and data), which shows how closely float32 can follow the model at all.",
        ]
    lines += ["", "## OpenBLAS on this machine, and ours against it", "",
              *blas_tables(results, modes, threads_list, blas, peaks)]
    lines += [
        "",
        "## Compile time (ours)",
        "",
        *compile_table(results, modes, threads_list),
        "",
        "`pipeline` is `--raf-cpu-pipeline`, `LLVM` LLVM's optimisation and code "
        "generation, both as `raf-run` reports them (`compile: pipeline-ms=... "
        "llvm-ms=...`)"
        + ("; `raf-opt` is building `@train_step` with `--raf-training-pipeline` "
           "(autodiff, SGD, canonicalisation; wall time including parsing and printing)"
           if "train" in modes else "")
        + "."
        + (" raf-run runs with `--no-compile-cache`, so every compile is measured."
           if "--no-compile-cache" in RAF_RUN_OPTIONS else ""),
    ]
    failed = failures(results)
    if failed:
        lines += ["", "## Failures (first lines of the error output)", *failed]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help=f"models {','.join(QUICK_MODELS)} (unless --models), 2 timed "
                             "runs (unless --repeat / --train-repeat)")
    parser.add_argument("--models", default="",
                        help=f"comma-separated subset of: {', '.join(MODELS)}")
    parser.add_argument("--repeat", type=int, default=None,
                        help="timed forward runs (default 20; --quick 2)")
    parser.add_argument("--train-repeat", type=int, default=None,
                        help="timed training steps (default 10; --quick 2)")
    parser.add_argument("--modes", default="forward,train",
                        help="forward, train or both (default)")
    parser.add_argument("--threads", default="",
                        help="thread counts to compare (default: 1 and os.cpu_count())")
    parser.add_argument("--budget", type=float, default=20,
                        help="seconds of timed runs per measurement: slow models get fewer "
                             "runs, at least 3 (default 20)")
    parser.add_argument("--timeout", type=float, default=1800,
                        help="seconds per raf-run / raf-opt call")
    parser.add_argument("--build-dir", default=os.environ.get("RAF_BUILD_DIR",
                                                              str(ROOT / "build")))
    parser.add_argument("--out", default=str(ROOT / "bench/results/cpu.md"))
    parser.add_argument("--torch-openblas", default="auto",
                        help="libblas.so.3 of OpenBLAS to preload into a second PyTorch "
                             "(the 'PyTorch + OpenBLAS' columns): auto (Debian's "
                             "openblas-pthread build), a path, or none")
    parser.add_argument("--torch-worker", default="", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.torch_worker:
        key, mode, threads, repeat, budget = args.torch_worker.split(":")
        torch_worker(key, mode, int(threads), int(repeat), float(budget))
        return 0
    if args.torch_openblas == "auto":
        TORCH_OPENBLAS.extend([p for p in TORCH_OPENBLAS_PRELOADS if os.path.exists(p)][:1])
    elif args.torch_openblas != "none":
        if not os.path.exists(args.torch_openblas):
            parser.error(f"--torch-openblas: {args.torch_openblas} does not exist")
        TORCH_OPENBLAS.append(args.torch_openblas)
    if args.repeat is None:
        args.repeat = 2 if args.quick else 20
    if args.train_repeat is None:
        args.train_repeat = 2 if args.quick else 10
    keys = [k.strip() for k in args.models.split(",") if k.strip()] or \
        (QUICK_MODELS if args.quick else list(MODELS))
    unknown = [k for k in keys if k not in MODELS]
    if unknown:
        parser.error(f"unknown model(s) {', '.join(unknown)}; choose from {', '.join(MODELS)}")
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    if not modes or any(m not in ("forward", "train") for m in modes):
        parser.error("--modes takes forward, train or forward,train")
    if args.threads:
        threads_list = sorted({int(t) for t in args.threads.split(",")})
    else:
        threads_list = sorted({1, os.cpu_count() or 1})

    build = pathlib.Path(args.build_dir)
    if not build.is_absolute():
        build = ROOT / build
    started = datetime.datetime.now().strftime("%Y-%m-%d %H:%M")
    load_start = uptime()
    log(f"load at start: {load_start}")
    with tempfile.TemporaryDirectory(prefix="raf-bench-cpu-") as tmp:
        workdir = pathlib.Path(tmp)
        # A private copy of the tools: a rebuild during the run cannot mix
        # two versions into one table.
        tools = {}
        for name in ("raf-run", "raf-opt"):
            source = build / "bin" / name
            if not source.exists():
                print(f"error: {source} is missing (build the tools first)", file=sys.stderr)
                return 1
            tools[name] = workdir / name
            shutil.copy2(source, tools[name])
        help_text = subprocess.run([str(tools["raf-run"]), "--help"], capture_output=True,
                                   text=True).stdout
        if "--no-compile-cache" in help_text:
            RAF_RUN_OPTIONS.append("--no-compile-cache")
        for threads in threads_list:
            TORCH_GEMM[("reference", threads)] = torch_gemm_gflops(threads)
        log("PyTorch's BLAS: " + torch_gemm_text())
        log("measuring the fp32 peak (bench/cpu/peak.c)")
        probe = build_peak_probe(workdir)
        peaks_start = measure_peak(probe, threads_list, 0.1 if args.quick else 0.5)
        log("  GFLOP/s " + peak_text(peaks_start))
        results = []
        for index, key in enumerate(keys):
            spec = MODELS[key]
            log(f"[{index + 1}/{len(keys)}] {spec.title}")
            result = Result(key, spec.title)
            model_dir = workdir / key
            if "forward" in modes:
                result.forward = measure_forward(key, spec, args, tools, threads_list,
                                                 model_dir)
            if "train" in modes:
                result.train = measure_train(key, spec, args, tools, threads_list,
                                             model_dir)
            results.append(result)
            shutil.rmtree(model_dir, ignore_errors=True)
        log("measuring OpenBLAS (SGEMM 2048^3, the dense layers' products)")
        blas = measure_openblas(threads_list, 3 if args.quick else 10)
        log(f"  {blas[0]}")
        log("measuring the fp32 peak again")
        peaks_end = measure_peak(probe, threads_list, 0.1 if args.quick else 0.5)
        log("  GFLOP/s " + peak_text(peaks_end))
    peaks = {t: max(peaks_start[t][0], peaks_end[t][0]) for t in threads_list}
    load_end = uptime()
    log(f"load at end: {load_end}")
    minutes = (time.perf_counter() - START) / 60
    text = report(results, args, modes, threads_list, (peaks, peaks_start, peaks_end),
                  load_start, load_end, started, minutes, blas)
    out = pathlib.Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text)
    print()
    print(text)
    log(f"written to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
