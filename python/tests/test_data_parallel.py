"""Data-parallel training (--raf-data-parallel zero=0, 1, 2) against PyTorch.

An MLP (dense, relu, dense, mean squared error) and a small CNN (conv2d,
bias, relu, flatten, dense, mean squared error) are differentiated with
--raf-autodiff, made data parallel over N ranks with --raf-data-parallel,
and given an optimizer step with --raf-append-optimizer. The step runs on N
simulated ranks of the reference evaluator (raf-run --target=interp
--ranks=N) and, when Open MPI's mpirun is installed, as N MPI processes on
the CPU (mpirun -np N raf-run --target=cpu), rank r on block r of the batch,
for several steps, feeding the new parameters and states back. Every rank must hold the same parameters
after every step, equal (1e-5 relative) to torch.optim training the same
model on the whole batch, and each rank's loss must be PyTorch's loss on its
block. With ZeRO (zero=1, 2; --raf-zero-partition after
--raf-append-optimizer) each rank holds its block of every optimizer state
(dimension 0 padded to a multiple of N): the ranks' blocks, concatenated and
stripped of the padding, must equal torch.optim's state.

Run with:  /usr/bin/python3 -m pytest python/tests/test_data_parallel.py
The build directory is $RAF_BUILD_DIR (default: <repo>/build).
"""

import os
import re
import shutil
import subprocess

import numpy as np
import pytest
import torch

from raf_tools import require_tools, RAF_OPT, RAF_RUN  # noqa: E402

require_tools(RAF_OPT, RAF_RUN)

BATCH, IN, HIDDEN, OUT = 8, 5, 6, 3
STEPS = 10
RTOL = 1e-5


C, HW, K, F = 2, 5, 3, 3  # CNN: channels, image size, kernel, filters
CNN_FLAT = F * (HW - K + 1) ** 2


def cnn_module(local_batch):
    x = f"tensor<{local_batch}x{C}x{HW}x{HW}xf32>"
    y = f"tensor<{local_batch}x{OUT}xf32>"
    o = HW - K + 1
    c = f"tensor<{local_batch}x{F}x{o}x{o}xf32>"
    flat = f"tensor<{local_batch}x{CNN_FLAT}xf32>"
    w1, b1 = f"tensor<{F}x{C}x{K}x{K}xf32>", f"tensor<{F}xf32>"
    w2, b2 = f"tensor<{OUT}x{CNN_FLAT}xf32>", f"tensor<{OUT}xf32>"
    grad = "{raf.requires_grad = true}"
    data = "{raf.requires_grad = false}"
    return f"""
func.func @main(%w1: {w1} {grad}, %b1: {b1} {grad}, %w2: {w2} {grad},
                %b2: {b2} {grad}, %x: {x} {data}, %y: {y} {data})
    -> tensor<f32> {{
  %p = relay.nn.conv2d %x, %w1 : ({x}, {w1})
  %q = relay.nn.bias_add %p, %b1 {{axis = 1 : i64}} : ({c}, {b1})
  %r = relay.nn.relu %q : ({c})
  %f = relay.reshape %r {{newshape = array<i64: {local_batch}, {CNN_FLAT}>}} : ({c})
  %s = relay.nn.dense %f, %w2 : ({flat}, {w2})
  %t = relay.nn.bias_add %s, %b2 {{axis = 1 : i64}} : ({y}, {b2})
  %d = relay.subtract %t, %y : ({y}, {y})
  %e = relay.multiply %d, %d : ({y}, {y})
  %l = relay.mean %e : ({y})
  return %l : tensor<f32>
}}
"""


def cnn_torch(params, x):
    w1, b1, w2, b2 = params
    hidden = torch.relu(torch.nn.functional.conv2d(x, w1, b1))
    return hidden.reshape(x.shape[0], -1) @ w2.T + b2


def mlp_torch(params, x):
    w1, b1, w2, b2 = params
    return torch.relu(x @ w1.T + b1) @ w2.T + b2


def mlp_module(local_batch):
    x = f"tensor<{local_batch}x{IN}xf32>"
    y = f"tensor<{local_batch}x{OUT}xf32>"
    h = f"tensor<{local_batch}x{HIDDEN}xf32>"
    w1, b1 = f"tensor<{HIDDEN}x{IN}xf32>", f"tensor<{HIDDEN}xf32>"
    w2, b2 = f"tensor<{OUT}x{HIDDEN}xf32>", f"tensor<{OUT}xf32>"
    grad = "{raf.requires_grad = true}"
    data = "{raf.requires_grad = false}"
    return f"""
func.func @main(%w1: {w1} {grad}, %b1: {b1} {grad}, %w2: {w2} {grad},
                %b2: {b2} {grad}, %x: {x} {data}, %y: {y} {data})
    -> tensor<f32> {{
  %p = relay.nn.dense %x, %w1 : ({x}, {w1})
  %q = relay.nn.bias_add %p, %b1 {{axis = 1 : i64}} : ({h}, {b1})
  %r = relay.nn.relu %q : ({h})
  %s = relay.nn.dense %r, %w2 : ({h}, {w2})
  %t = relay.nn.bias_add %s, %b2 {{axis = 1 : i64}} : ({y}, {b2})
  %d = relay.subtract %t, %y : ({y}, {y})
  %e = relay.multiply %d, %d : ({y}, {y})
  %l = relay.mean %e : ({y})
  return %l : tensor<f32>
}}
"""


OPTIMIZERS = {
    "sgd": ("kind=sgd lr=0.1", lambda p: torch.optim.SGD(p, lr=0.1), []),
    "momentum": ("kind=momentum lr=0.05 momentum=0.9",
                 lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.9),
                 ["momentum_buffer"]),
    "adam": ("kind=adam lr=0.01", lambda p: torch.optim.Adam(p, lr=0.01),
             ["exp_avg", "exp_avg_sq"]),
}


MODELS = {
    "mlp": (mlp_module, mlp_torch, (BATCH, IN),
            [(HIDDEN, IN), (HIDDEN,), (OUT, HIDDEN), (OUT,)]),
    "cnn": (cnn_module, cnn_torch, (BATCH, C, HW, HW),
            [(F, C, K, K), (F,), (OUT, CNN_FLAT), (OUT,)]),
}


def build_step(tmp_path, ranks, options, model, zero=0, bucket_bytes=0):
    source = tmp_path / "forward.mlir"
    source.write_text(MODELS[model][0](BATCH // ranks))
    step = tmp_path / "step.mlir"
    passes = [f"--raf-data-parallel=world-size={ranks} zero={zero} "
              f"bucket-bytes={bucket_bytes}",
              f"--raf-append-optimizer={options}"]
    if zero > 0:
        passes.append("--raf-zero-partition")
    process = subprocess.run(
        [str(RAF_OPT), str(source), "--raf-autodiff=inline-backward=true"] +
        passes + ["-o", str(step)],
        capture_output=True, text=True, timeout=600)
    assert process.returncode == 0, process.stderr
    text = step.read_text()
    header = next(line for line in text.splitlines()
                  if "func.func @train_step" in line)
    body = text[text.index("func.func @train_step"):]
    # All four f32 gradients fit one bucket: one all-reduce (zero=0, 1) or
    # reduce-scatter (zero=2) instead of four, and under ZeRO one allgather
    # of the four updated parameter blocks.
    collectives = 4 if bucket_bytes == 0 else 1
    assert body.count("relay.comm.allreduce") == (collectives if zero < 2
                                                  else 0)
    if zero > 0:
        assert body.count("relay.comm.allgather") == collectives
        assert body.count("relay.comm.reduce_scatter") == (
            collectives if zero == 2 else 0)
    layout = {name: int(re.search(rf"raf\.{name} = (\d+)", header).group(1))
              for name in ("num_params", "num_states", "num_aux")}
    return step, layout


def block_rows(rows, ranks):
    """Rows of one rank's block of a dimension padded to a multiple of N."""
    return -(-rows // ranks)


def split_state(state, ranks):
    """Rank r's block of a ZeRO-partitioned state (zero-padded)."""
    shape = state.shape if state.ndim else (1,)
    rows = block_rows(shape[0], ranks)
    padded = np.zeros((rows * ranks,) + shape[1:], state.dtype)
    padded[:shape[0]] = state.reshape(shape)
    return [padded[r * rows:(r + 1) * rows] for r in range(ranks)]


def join_state(blocks, like):
    """The whole state from the ranks' blocks (padding removed)."""
    shape = like.shape if like.ndim else (1,)
    return np.concatenate(blocks)[:shape[0]].reshape(like.shape)


def torch_steps(forward, params0, batches, make, state_names):
    params = [torch.nn.Parameter(torch.from_numpy(p.copy())) for p in params0]
    opt = make(params)
    history = []
    for x, y in batches:
        opt.zero_grad()
        out = forward(params, torch.from_numpy(x))
        loss = ((out - torch.from_numpy(y)) ** 2).mean()
        loss.backward()
        opt.step()
        states = [opt.state[p][name].detach().numpy().copy()
                  for name in state_names for p in params]
        history.append(([p.detach().numpy().copy() for p in params], states))
    return history


def torch_loss(forward, params, x, y):
    out = forward([torch.from_numpy(p) for p in params], torch.from_numpy(x))
    return float(((out - torch.from_numpy(y)) ** 2).mean())


def assert_close(actual, expected, what):
    scale = max(float(np.max(np.abs(expected))), 1e-30)
    error = float(np.max(np.abs(actual - expected)))
    assert error <= RTOL * scale, (
        f"{what}: max |error| {error:.3g} > {RTOL} * {scale:.3g}")


MPIRUN = shutil.which("mpirun")


def launcher(target, ranks):
    """The command prefix that runs the step as `ranks` ranks."""
    if target == "interp":
        return [str(RAF_RUN), "--target=interp", f"--ranks={ranks}"]
    if MPIRUN is None:
        pytest.skip("mpirun is not installed (scripts/install-deps.sh)")
    # CI runs two MPI processes; four oversubscribe a two-core machine that
    # also runs other tests, where Open MPI has exited non-zero (once in
    # several runs). The evaluator's simulated ranks cover N = 4 always.
    if ranks > 2 and not os.environ.get("RAF_TEST_MPI_RANKS_4"):
        pytest.skip("4 MPI processes run with RAF_TEST_MPI_RANKS_4=1")
    # As root (containers) Open MPI needs --allow-run-as-root; the machine
    # may have fewer cores than ranks.
    return [MPIRUN, "--allow-run-as-root", "--oversubscribe", "-np",
            str(ranks), str(RAF_RUN), "--target=cpu", "--threads=1"]


def run_training(model, ranks, kind, target, tmp_path, zero=0,
                 bucket_bytes=0):
    _, forward, x_shape, param_shapes = MODELS[model]
    options, make, state_names = OPTIMIZERS[kind]
    rng = np.random.default_rng(11)
    params = [rng.uniform(-0.5, 0.5, shape).astype(np.float32)
              for shape in param_shapes]
    batches = [(rng.uniform(-1, 1, x_shape).astype(np.float32),
                rng.uniform(-1, 1, (BATCH, OUT)).astype(np.float32))
               for _ in range(STEPS)]
    expected = torch_steps(forward, params, batches, make, state_names)

    step, layout = build_step(tmp_path, ranks, options, model, zero,
                              bucket_bytes)
    assert layout["num_params"] == 4 and layout["num_aux"] == 0
    # Whole states; with ZeRO each rank passes its block of each.
    states = [np.zeros_like(p) for _ in state_names for p in params]
    if kind == "adam":
        states.append(np.zeros((), np.float32))
    assert layout["num_states"] == len(states)
    # Adam's step counter (the last state) is not partitioned.
    partitioned = [zero > 0 and i < len(state_names) * len(params)
                   for i in range(len(states))]
    rank_states = [[split_state(state, ranks)[rank] if part else state
                    for state, part in zip(states, partitioned)]
                   for rank in range(ranks)]
    local = BATCH // ranks
    for index, (x, y) in enumerate(batches):
        command = launcher(target, ranks) + [str(step), "--entry=train_step"]
        for i, array in enumerate(params):
            path = tmp_path / f"param{i}.npy"
            np.save(path, array)
            command.append(f"--input={path}")
        for i in range(len(states)):
            for rank in range(ranks):
                np.save(tmp_path / f"state{i}_{rank}.npy",
                        rank_states[rank][i])
            command.append(f"--input={tmp_path}/state{i}_%r.npy")
        for name, data in (("x", x), ("y", y)):
            for rank in range(ranks):
                np.save(tmp_path / f"{name}{rank}.npy",
                        data[rank * local:(rank + 1) * local])
            command.append(f"--input={tmp_path / name}%r.npy")
        num_results = 1 + len(params) + len(states)
        command += [f"--output={tmp_path}/out{i}_r%r.npy"
                    for i in range(num_results)]
        # Compiled once per process for the first step, then reused.
        environment = dict(os.environ, RAF_COMPILE_CACHE=str(tmp_path / "cache"))
        process = subprocess.run(command, capture_output=True, text=True,
                                 timeout=600, env=environment)
        assert process.returncode == 0, process.stderr
        results = [[np.load(tmp_path / f"out{i}_r{rank}.npy")
                    for i in range(num_results)] for rank in range(ranks)]
        # Each rank's loss is its own block's loss before the update.
        for rank in range(ranks):
            block = slice(rank * local, (rank + 1) * local)
            assert abs(float(results[rank][0]) -
                       torch_loss(forward, params, x[block], y[block])) <= 1e-5 * max(
                           1.0, abs(float(results[rank][0])))
        # Every rank takes the same step, the whole batch's step. (MPI's
        # reduction may add in a different order on different ranks.)
        first_state = 1 + len(params)
        for rank in range(1, ranks):
            for i in range(1, num_results):
                if i >= first_state and partitioned[i - first_state]:
                    continue
                np.testing.assert_allclose(results[rank][i], results[0][i],
                                           rtol=1e-6, atol=1e-7)
        new_params = results[0][1:first_state]
        rank_states = [results[rank][first_state:] for rank in range(ranks)]
        new_states = [join_state([rank_states[r][i] for r in range(ranks)],
                                 states[i]) if part else rank_states[0][i]
                      for i, part in enumerate(partitioned)]
        want_params, want_states = expected[index]
        for i, (got, want) in enumerate(zip(new_params, want_params)):
            assert_close(got, want, f"step {index} parameter {i}")
        for i, (got, want) in enumerate(zip(new_states, want_states)):
            assert_close(got, want, f"step {index} state {i}")
        params = new_params


@pytest.mark.parametrize("target", ["interp", "cpu"])
@pytest.mark.parametrize("kind", list(OPTIMIZERS))
@pytest.mark.parametrize("ranks", [2, 4])
@pytest.mark.parametrize("model", list(MODELS))
def test_data_parallel_equals_whole_batch(model, ranks, kind, target,
                                          tmp_path):
    run_training(model, ranks, kind, target, tmp_path)


@pytest.mark.parametrize("target", ["interp", "cpu"])
@pytest.mark.parametrize("kind", ["sgd", "adam"])
@pytest.mark.parametrize("ranks", [2, 4])
@pytest.mark.parametrize("model", list(MODELS))
@pytest.mark.parametrize("zero", [1, 2])
def test_zero_equals_whole_batch(zero, model, ranks, kind, target, tmp_path):
    """ZeRO-1/2 (--raf-zero-partition): states partitioned over the ranks,
    parameters gathered; the biases (3 and 6 rows) are padded for N = 4."""
    run_training(model, ranks, kind, target, tmp_path, zero=zero)


@pytest.mark.parametrize("target", ["interp", "cpu"])
@pytest.mark.parametrize("model", list(MODELS))
def test_bucketed_allreduce_equals_whole_batch(model, target, tmp_path):
    """bucket-bytes fuses the four gradient all-reduces into fewer."""
    run_training(model, 2, "momentum", target, tmp_path, bucket_bytes=1 << 20)


@pytest.mark.parametrize("target", ["interp", "cpu"])
@pytest.mark.parametrize("kind", ["sgd", "adam"])
@pytest.mark.parametrize("model", list(MODELS))
@pytest.mark.parametrize("zero", [1, 2])
def test_bucketed_zero_equals_whole_batch(zero, model, kind, target,
                                          tmp_path):
    """Buckets under ZeRO: the four gradients' all-reduces (zero=1) or
    reduce-scatters (zero=2, each gradient padded to its blocks) fused into
    one, and the four parameters' allgathers into one; the ranks' state
    blocks are those of the unbucketed partition."""
    run_training(model, 2, kind, target, tmp_path, zero=zero,
                 bucket_bytes=1 << 20)
