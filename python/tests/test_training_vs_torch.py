"""Training steps from --raf-training-pipeline follow PyTorch's loss trajectory.

A 2-layer MLP (16 -> 32 -> 4, ReLU) with a cross-entropy loss, written in
the relay dialect (arguments: the batch, the labels, then the weights in
PyTorch's state_dict order), is compiled by ``raf-opt --raf-training-pipeline`` into
``@train_step(params, optimizer states, x, labels) -> (loss, new params, new
states)`` and run with ``raf-run`` for 20 steps, feeding the new parameters
and states back. The same model trained by torch.optim.SGD / Adam from the
same weights on the same batches is the oracle: every step's loss must agree
(f32; relative 1e-4 over 20 steps, where reassociated f32 sums drift by a
few ulps per step) and the loss must fall.

Run with:  /usr/bin/python3 -m pytest python/tests/test_training_vs_torch.py
"""

import pathlib
import subprocess
import tempfile

import numpy as np
import pytest
import torch
import torch.nn as nn

from raf_tools import RAF_OPT, RAF_RUN  # noqa: E402

STEPS = 20
BATCH, IN, HIDDEN, CLASSES = 8, 16, 32, 4


class MLPLoss(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(IN, HIDDEN)
        self.fc2 = nn.Linear(HIDDEN, CLASSES)

    def forward(self, x, labels):
        logits = self.fc2(torch.relu(self.fc1(x)))
        return nn.functional.cross_entropy(logits, labels)


MLP_MLIR = f"""
func.func @main(%x: tensor<{BATCH}x{IN}xf32>, %labels: tensor<{BATCH}xi64>,
                %w1: tensor<{HIDDEN}x{IN}xf32>, %b1: tensor<{HIDDEN}xf32>,
                %w2: tensor<{CLASSES}x{HIDDEN}xf32>, %b2: tensor<{CLASSES}xf32>)
    -> tensor<f32> {{
  %h = relay.nn.dense %x, %w1 : (tensor<{BATCH}x{IN}xf32>, tensor<{HIDDEN}x{IN}xf32>)
  %hb = relay.nn.bias_add %h, %b1 : (tensor<{BATCH}x{HIDDEN}xf32>, tensor<{HIDDEN}xf32>)
  %r = relay.nn.relu %hb : (tensor<{BATCH}x{HIDDEN}xf32>)
  %o = relay.nn.dense %r, %w2 : (tensor<{BATCH}x{HIDDEN}xf32>, tensor<{CLASSES}x{HIDDEN}xf32>)
  %ob = relay.add %o, %b2 : (tensor<{BATCH}x{CLASSES}xf32>, tensor<{CLASSES}xf32>)
  %loss = relay.nn.cross_entropy %ob, %labels : (tensor<{BATCH}x{CLASSES}xf32>, tensor<{BATCH}xi64>)
  return %loss : tensor<f32>
}}
"""


def batches():
    generator = torch.Generator().manual_seed(0)
    centers = torch.randn(CLASSES, IN, generator=generator) * 2
    for _ in range(STEPS):
        labels = torch.randint(0, CLASSES, (BATCH,), generator=generator)
        x = centers[labels] + torch.randn(BATCH, IN, generator=generator)
        yield x, labels


def torch_trajectory(model, make_optimizer):
    optimizer = make_optimizer(model.parameters())
    losses = []
    for x, labels in batches():
        optimizer.zero_grad()
        loss = model(x, labels)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses


def raf_trajectory(model, options, states, target, workdir):
    source = workdir / "mlp.mlir"
    source.write_text(MLP_MLIR)
    weights = [p.detach().numpy().copy() for p in model.state_dict().values()]
    param_indices = ",".join(str(2 + i) for i in range(len(weights)))
    step = workdir / "step.mlir"
    subprocess.run(
        [str(RAF_OPT), str(source), "-o", str(step),
         f"--raf-training-pipeline=requires-grad={param_indices} {options}"],
        check=True)
    params = [np.ascontiguousarray(w) for w in weights]
    losses = []
    for k, (x, labels) in enumerate(batches()):
        args = params + states + [x.numpy(), labels.numpy()]
        inputs, outputs = [], []
        for i, a in enumerate(args):
            path = workdir / f"in{i}.npy"
            np.save(path, a)
            inputs.append(f"--input={path}")
        count = 1 + len(params) + len(states)
        for i in range(count):
            outputs.append(f"--output={workdir / f'out{i}.npy'}")
        subprocess.run([str(RAF_RUN), str(step), "--entry=train_step",
                        f"--target={target}", *inputs, *outputs],
                       check=True, stdout=subprocess.DEVNULL)
        results = [np.load(workdir / f"out{i}.npy") for i in range(count)]
        losses.append(float(results[0]))
        params = results[1:1 + len(params)]
        states = results[1 + len(params):]
    return losses


def zero_states(model, per_param):
    return [np.zeros(p.shape, np.float32)
            for _ in range(per_param) for p in model.parameters()]


CASES = {
    "sgd": ("optimizer=sgd lr=0.1", 0,
            lambda ps: torch.optim.SGD(ps, lr=0.1)),
    "momentum": ("optimizer=momentum lr=0.05 momentum=0.9", 1,
                 lambda ps: torch.optim.SGD(ps, lr=0.05, momentum=0.9)),
    "adam": ("optimizer=adam lr=0.01", 2,
             lambda ps: torch.optim.Adam(ps, lr=0.01)),
}


@pytest.mark.parametrize("target", ["cpu", "interp"])
@pytest.mark.parametrize("kind", sorted(CASES))
def test_trajectory_matches_torch(kind, target):
    options, states_per_param, make_optimizer = CASES[kind]
    torch.manual_seed(1)
    model = MLPLoss()
    reference_model = MLPLoss()
    reference_model.load_state_dict(model.state_dict())
    expected = torch_trajectory(reference_model, make_optimizer)
    states = zero_states(model, states_per_param)
    if kind == "adam":
        states.append(np.zeros((), np.float32))  # the step counter t
    with tempfile.TemporaryDirectory() as tmp:
        got = raf_trajectory(model, options, states, target,
                             pathlib.Path(tmp))
    np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-6)
    assert got[-1] < 0.5 * got[0], f"{kind} did not train: {got}"
