"""Data-parallel training of a CNN with batch norm and of a transformer
layer (--raf-data-parallel zero=0, 1, 2) against PyTorch.

The models are imported from PyTorch in training mode with the torch
frontend (as in test_autodiff_vs_torch.py), written for the per-rank batch,
differentiated with --raf-autodiff, made data parallel over N ranks and given
an optimizer step (--raf-append-optimizer; --raf-zero-partition for zero=1,
2). The step runs for 10 steps on N simulated ranks (raf-run --target=interp
--ranks=N) and, with Open MPI, as N MPI processes on the CPU (mpirun -np N
raf-run --target=cpu; N = 4 with RAF_TEST_MPI_RANKS_4=1, as in
test_data_parallel.py), rank r on block r of an 8-sample batch, feeding back
the new parameters, its optimizer state blocks and its batch-norm running
statistics.

* Transformer (nn.TransformerEncoderLayer, mean over the sequence, linear
  head, cross-entropy; no batch norm): the parameters after every step equal
  torch.optim training on the whole, concatenated batch within 1e-5
  relative (of the tensor's largest element), every rank's loss is
  PyTorch's loss on its block. SGD with momentum: Adam divides by the root
  of the squared gradient, which turns the float32 rounding noise of
  gradients that are zero in exact arithmetic (the attention's key bias:
  softmax ignores it) into steps of the learning rate's size.
* CNN with batch norm (conv, BatchNorm2d, ReLU, dense, cross-entropy; Adam),
  "cnn_bn": --raf-data-parallel synchronises the batch statistics
  (sync-batch-norm=true, the default; PyTorch's SyncBatchNorm), so the
  parameters, the optimizer states and every rank's running statistics
  equal torch.optim training on the whole batch, and rank r's loss is the
  mean of the whole batch's per-sample losses over its block.
* The same CNN with sync-batch-norm=false, "cnn_bn_local": the semantics of
  PyTorch's DistributedDataParallel without SyncBatchNorm: rank r
  normalises with the statistics of its own block and keeps its own
  running statistics, and the gradients are averaged. The reference is that
  computation in PyTorch (the mean over the ranks of each block's loss,
  each block with its rank's running statistics).

The references run in float64 from the same float32 starting values.

Run with:  /usr/bin/python3 -m pytest python/tests/test_data_parallel_models.py
"""

import os
import shutil
import subprocess
import sys

import numpy as np
import pytest
import torch
import torch.nn as nn
import torch.nn.functional as F

from raf_tools import require_tools, REPO, RAF_OPT, RAF_RUN  # noqa: E402
sys.path.insert(0, str(REPO / "python"))

from raf_mlir.torch_frontend import import_module  # noqa: E402

require_tools(RAF_OPT, RAF_RUN)

BATCH = 8
STEPS = 10
RTOL = 1e-5


class CNN(nn.Module):
    def __init__(self):
        super().__init__()
        # No bias: batch norm removes it (its gradient is zero, and Adam would
        # turn the rounding noise of that zero into full steps).
        self.conv = nn.Conv2d(2, 4, 3, padding=1, bias=False)
        self.bn = nn.BatchNorm2d(4)
        self.fc = nn.Linear(4 * 5 * 5, 3)

    def logits(self, x):
        h = F.relu(self.bn(self.conv(x)))
        return self.fc(torch.flatten(h, 1))

    def forward(self, x, labels):
        return F.cross_entropy(self.logits(x), labels)


class Transformer(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.TransformerEncoderLayer(
            d_model=8, nhead=2, dim_feedforward=16, dropout=0.0,
            activation="gelu", batch_first=True)
        self.head = nn.Linear(8, 3)

    def logits(self, x):
        return self.head(self.encoder(x).mean(dim=1))

    def forward(self, x, labels):
        return F.cross_entropy(self.logits(x), labels)


# model: (class, input shape per sample, optimizer options, torch optimizer,
# torch state names, whether batch norm is synchronised)
MODELS = {
    "cnn_bn": (CNN, (2, 5, 5), "kind=adam lr=0.01",
               lambda p: torch.optim.Adam(p, lr=0.01),
               ["exp_avg", "exp_avg_sq"], True),
    "cnn_bn_local": (CNN, (2, 5, 5), "kind=adam lr=0.01",
                     lambda p: torch.optim.Adam(p, lr=0.01),
                     ["exp_avg", "exp_avg_sq"], False),
    "transformer": (Transformer, (4, 8), "kind=momentum lr=0.05 momentum=0.9",
                    lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.9),
                    ["momentum_buffer"], True),
}


def make_model(name):
    torch.manual_seed(0)
    model = MODELS[name][0]()
    generator = torch.Generator().manual_seed(1)
    for module in model.modules():
        if isinstance(module, nn.BatchNorm2d):
            c = module.num_features
            module.weight.data = torch.rand(c, generator=generator) + 0.5
            module.bias.data = torch.randn(c, generator=generator) * 0.1
            module.running_mean = torch.randn(c, generator=generator) * 0.1
            module.running_var = torch.rand(c, generator=generator) + 0.5
    return model


def batches(name):
    rng = np.random.default_rng(5)
    shape = MODELS[name][1]
    return [(rng.standard_normal((BATCH,) + shape).astype(np.float32),
             rng.integers(0, 3, BATCH).astype(np.int64))
            for _ in range(STEPS)]


def reference(name, ranks, data):
    """Per step: parameters, optimizer states, each rank's loss and each
    rank's running statistics, computed by PyTorch in float64."""
    model = make_model(name).double()
    model.train()
    params = list(model.parameters())
    opt = MODELS[name][3](params)
    buffers = [b for _, b in model.named_buffers() if b.is_floating_point()]
    rank_buffers = [[b.detach().clone() for b in buffers]
                    for _ in range(ranks)]
    local = BATCH // ranks
    history = []
    for x, labels in data:
        opt.zero_grad()
        x = torch.from_numpy(x).double()
        labels = torch.from_numpy(labels)
        losses = []
        if not MODELS[name][5]:
            # DistributedDataParallel without SyncBatchNorm: each rank's
            # block with its own statistics; gradients averaged.
            total = 0
            for r in range(ranks):
                for b, v in zip(buffers, rank_buffers[r]):
                    b.data.copy_(v)
                block = slice(r * local, (r + 1) * local)
                loss = model(x[block], labels[block])
                losses.append(float(loss))
                rank_buffers[r] = [b.detach().clone() for b in buffers]
                total = total + loss / ranks
            total.backward()
        else:
            # The whole batch (synchronised batch norm: every rank's running
            # statistics are the whole batch's); rank r's loss is the mean
            # of the per-sample losses of its block.
            per_sample = F.cross_entropy(model.logits(x), labels,
                                         reduction="none")
            for r in range(ranks):
                losses.append(float(per_sample[r * local:(r + 1) * local]
                                    .mean()))
            per_sample.mean().backward()
            rank_buffers = [[b.detach().clone() for b in buffers]
                            for _ in range(ranks)]
        opt.step()
        states = [opt.state[p][n].detach().numpy().copy()
                  for n in MODELS[name][4] for p in params]
        history.append(([p.detach().numpy().copy() for p in params], states,
                        losses,
                        [[v.numpy().copy() for v in rb]
                         for rb in rank_buffers]))
    return history


def build_step(name, ranks, zero, directory):
    model = make_model(name)
    shape = MODELS[name][1]
    local = BATCH // ranks
    example = (torch.zeros((local,) + shape),
               torch.zeros(local, dtype=torch.int64))
    imported = import_module(model, example, function_name="main",
                             training=True)
    parameters = dict(model.named_parameters())
    grad_indices = [a.index for a in imported.arguments
                    if a.name in parameters]
    forward = imported.write(directory / "forward")
    step = directory / "step.mlir"
    passes = [f"--raf-autodiff=inline-backward=true requires-grad="
              + ",".join(map(str, grad_indices)),
              f"--raf-data-parallel=world-size={ranks} zero={zero} "
              f"sync-batch-norm={str(MODELS[name][5]).lower()}",
              f"--raf-append-optimizer={MODELS[name][2]}"]
    if zero:
        passes.append("--raf-zero-partition")
    process = subprocess.run([str(RAF_OPT), str(forward)] + passes +
                             ["-o", str(step)], capture_output=True,
                             text=True, timeout=600)
    assert process.returncode == 0, process.stderr[:4000]
    names = [a.name for a in imported.arguments]
    others = [n for i, n in enumerate(names) if i not in grad_indices]
    return step, names, grad_indices, others, imported.num_results - 1


def split_state(state, ranks):
    shape = state.shape if state.ndim else (1,)
    rows = -(-shape[0] // ranks)
    padded = np.zeros((rows * ranks,) + shape[1:], state.dtype)
    padded[:shape[0]] = state.reshape(shape)
    return [padded[r * rows:(r + 1) * rows] for r in range(ranks)]


def join_state(blocks, like):
    shape = like.shape if like.ndim else (1,)
    return np.concatenate(blocks)[:shape[0]].reshape(like.shape)


def assert_close(actual, expected, what):
    scale = max(float(np.max(np.abs(expected))), 1e-30)
    error = float(np.max(np.abs(actual - expected)))
    assert error <= RTOL * scale, (
        f"{what}: max |error| {error:.3g} > {RTOL} * {scale:.3g}")


MPIRUN = shutil.which("mpirun")


def launcher(target, ranks):
    if target == "interp":
        return [str(RAF_RUN), "--target=interp", f"--ranks={ranks}"]
    if MPIRUN is None:
        pytest.skip("mpirun is not installed (scripts/install-deps.sh)")
    if ranks > 2 and not os.environ.get("RAF_TEST_MPI_RANKS_4"):
        pytest.skip("4 MPI processes run with RAF_TEST_MPI_RANKS_4=1")
    return [MPIRUN, "--allow-run-as-root", "--oversubscribe", "-np",
            str(ranks), str(RAF_RUN), "--target=cpu", "--threads=1"]


@pytest.mark.parametrize("target", ["interp", "cpu"])
@pytest.mark.parametrize("ranks", [2, 4])
@pytest.mark.parametrize("zero", [0, 1, 2])
@pytest.mark.parametrize("name", list(MODELS))
def test_models_data_parallel(name, zero, ranks, target, tmp_path):
    data = batches(name)
    expected = reference(name, ranks, data)
    step, names, grad_indices, others, num_aux = build_step(
        name, ranks, zero, tmp_path)
    model = make_model(name)
    values = dict(model.state_dict())
    params = [values[names[i]].numpy().copy() for i in grad_indices]
    state_names = MODELS[name][4]
    states = [np.zeros_like(p) for _ in state_names for p in params]
    if "adam" in MODELS[name][2]:
        states.append(np.zeros((), np.float32))
    partitioned = [zero > 0 and i < len(state_names) * len(params)
                   for i in range(len(states))]
    rank_states = [[split_state(s, ranks)[r] if part else s
                    for s, part in zip(states, partitioned)]
                   for r in range(ranks)]
    # Running statistics (float buffers) per rank; the batch per rank.
    buffers = [n for n in others if n not in ("x", "labels") and
               values[n].is_floating_point()]
    rank_buffers = [[values[n].numpy().copy() for n in buffers]
                    for _ in range(ranks)]
    assert num_aux == len(buffers)
    local = BATCH // ranks
    environment = dict(os.environ,
                       RAF_COMPILE_CACHE=str(tmp_path / "cache"))
    for index, (x, labels) in enumerate(data):
        command = launcher(target, ranks) + [str(step), "--entry=train_step"]
        for i, array in enumerate(params):
            np.save(tmp_path / f"p{i}.npy", array)
            command.append(f"--input={tmp_path}/p{i}.npy")
        for i in range(len(states)):
            for r in range(ranks):
                np.save(tmp_path / f"s{i}_{r}.npy", rank_states[r][i])
            command.append(f"--input={tmp_path}/s{i}_%r.npy")
        for n in others:
            for r in range(ranks):
                block = slice(r * local, (r + 1) * local)
                if n == "x":
                    value = x[block]
                elif n == "labels":
                    value = labels[block]
                elif n in buffers:
                    value = rank_buffers[r][buffers.index(n)]
                else:
                    value = values[n].numpy()
                np.save(tmp_path / f"o_{n}_{r}.npy", value)
            command.append(f"--input={tmp_path}/o_{n}_%r.npy")
        num_results = 1 + num_aux + len(params) + len(states)
        command += [f"--output={tmp_path}/out{i}_r%r.npy"
                    for i in range(num_results)]
        process = subprocess.run(command, capture_output=True, text=True,
                                 timeout=900, env=environment)
        assert process.returncode == 0, process.stderr[:4000]
        results = [[np.load(tmp_path / f"out{i}_r{r}.npy")
                    for i in range(num_results)] for r in range(ranks)]
        want_params, want_states, want_losses, want_buffers = expected[index]
        for r in range(ranks):
            assert abs(float(results[r][0]) - want_losses[r]) <= 1e-5 * max(
                1.0, abs(want_losses[r])), f"step {index} rank {r} loss"
            for i in range(num_aux):
                assert_close(results[r][1 + i], want_buffers[r][i],
                             f"step {index} rank {r} {buffers[i]}")
        first = 1 + num_aux
        first_state = first + len(params)
        for r in range(1, ranks):
            for i in range(first, first_state):
                np.testing.assert_allclose(results[r][i], results[0][i],
                                           rtol=1e-6, atol=1e-7)
        params = results[0][first:first_state]
        for i, (got, want) in enumerate(zip(params, want_params)):
            assert_close(got, want, f"step {index} parameter {i}")
        rank_states = [results[r][first_state:] for r in range(ranks)]
        joined = [join_state([rank_states[r][i] for r in range(ranks)],
                             states[i]) if part else rank_states[0][i]
                  for i, part in enumerate(partitioned)]
        for i, (got, want) in enumerate(zip(joined, want_states)):
            assert_close(got, want, f"step {index} state {i}")
        rank_buffers = [[results[r][1 + i] for i in range(num_aux)]
                        for r in range(ranks)]
