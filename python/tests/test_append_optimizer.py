"""Training steps of --raf-append-optimizer against torch.optim.

The module under test is a hand-written gradient function of the form
--raf-autodiff="inline-backward=true" produces, for a linear model with a
mean squared error loss:

    loss = mean((x @ w^T + b - y)^2)
    @main(x, w, b, y, dy) -> (loss, x @ w^T + b, dL/dw, dL/db)
        {raf.grad_params = [1, 2]}

`raf-opt --raf-append-optimizer` appends @train_step; `raf-run` executes it
on each target for three steps, feeding the new parameters and optimizer
states back as the step function's attributes describe, and every loss,
auxiliary result, parameter and state is compared with the same model
trained by torch.optim.SGD, SGD(momentum) or Adam from the same weights on
the same batches.

Run with:  /usr/bin/python3 -m pytest python/tests/test_append_optimizer.py
The build directory is $RAF_BUILD_DIR (default: <repo>/build).
"""

import re
import subprocess

import numpy as np
import pytest
import torch

from raf_tools import require_tools, RAF_OPT, RAF_RUN  # noqa: E402

require_tools(RAF_OPT, RAF_RUN)

BATCH, IN, OUT = 8, 4, 3
STEPS = 3
MLIR_DTYPES = {np.float32: "f32", np.float64: "f64"}

# The relative tolerance asked of each result, scaled by the largest
# magnitude of the reference array so that states near zero (Adam's second
# moments are ~1e-5) are held to the same relative standard. Sums of a few
# f32 products in a different order differ by a few ulps (~1e-7 relative);
# a wrong formula or a misplaced state differs by far more than 1e-5.
TOLERANCES = {np.float32: 1e-5, np.float64: 1e-12}


def gradient_module(dtype):
    """The gradient function, written by hand as autodiff would emit it."""
    e = MLIR_DTYPES[dtype]
    x, w, b, y = (f"tensor<{BATCH}x{IN}x{e}>", f"tensor<{OUT}x{IN}x{e}>",
                  f"tensor<{OUT}x{e}>", f"tensor<{BATCH}x{OUT}x{e}>")
    s = f"tensor<{e}>"
    return f"""
func.func @main(%x: {x}, %w: {w}, %b: {b}, %y: {y}, %dy: {s})
    -> ({s}, {y}, {w}, {b}) attributes {{raf.grad_params = array<i64: 1, 2>}} {{
  %p = relay.nn.dense %x, %w : ({x}, {w})
  %q = relay.add %p, %b : ({y}, {b})
  %d = relay.subtract %q, %y : ({y}, {y})
  %sq = relay.multiply %d, %d : ({y}, {y})
  %loss = relay.mean %sq : ({y})
  // dL/dd = dy * 2 d / (BATCH * OUT)
  %c = relay.constant dense<{2.0 / (BATCH * OUT)!r}> : {s}
  %s = relay.multiply %dy, %c : ({s}, {s})
  %gd = relay.multiply %d, %s : ({y}, {s})
  %gdt = relay.transpose %gd {{axes = array<i64: 1, 0>}} : ({y})
  %xt = relay.transpose %x {{axes = array<i64: 1, 0>}} : ({x})
  %gw = relay.nn.dense %gdt, %xt : (tensor<{OUT}x{BATCH}x{e}>, tensor<{IN}x{BATCH}x{e}>)
  %gb = relay.sum %gd {{axis = array<i64: 0>}} : ({y})
  return %loss, %q, %gw, %gb : {s}, {y}, {w}, {b}
}}
"""


class Optimizer:
    """One torch.optim configuration and its raf-opt pass options."""

    def __init__(self, id, kind, options, make, state_names):
        self.id, self.kind, self.options = id, kind, options
        self.make, self.state_names = make, state_names

    def pass_options(self):
        return " ".join([f"kind={self.kind}"] +
                        [f"{k}={v}" for k, v in self.options.items()])


OPTIMIZERS = [
    Optimizer("sgd", "sgd", {"lr": 0.1},
              lambda p: torch.optim.SGD(p, lr=0.1), []),
    Optimizer("sgd-weight-decay", "sgd", {"lr": 0.05, "weight-decay": 0.1},
              lambda p: torch.optim.SGD(p, lr=0.05, weight_decay=0.1), []),
    Optimizer("momentum", "momentum", {"lr": 0.05},
              lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.9),
              ["momentum_buffer"]),
    Optimizer("momentum-weight-decay", "momentum",
              {"lr": 0.02, "momentum": 0.5, "weight-decay": 0.2},
              lambda p: torch.optim.SGD(p, lr=0.02, momentum=0.5,
                                        weight_decay=0.2),
              ["momentum_buffer"]),
    Optimizer("adam", "adam", {"lr": 0.01},
              lambda p: torch.optim.Adam(p, lr=0.01),
              ["exp_avg", "exp_avg_sq"]),
    Optimizer("adam-options", "adam",
              {"lr": 0.03, "beta1": 0.8, "beta2": 0.99, "eps": 1e-6,
               "weight-decay": 0.05},
              lambda p: torch.optim.Adam(p, lr=0.03, betas=(0.8, 0.99),
                                         eps=1e-6, weight_decay=0.05),
              ["exp_avg", "exp_avg_sq"]),
]

CASES = [(opt, np.float32) for opt in OPTIMIZERS] + [
    (opt, np.float64) for opt in OPTIMIZERS if "-" not in opt.id
]


def append_optimizer(tmp_path, optimizer, dtype):
    source = tmp_path / "grad.mlir"
    source.write_text(gradient_module(dtype))
    step = tmp_path / "step.mlir"
    process = subprocess.run(
        [str(RAF_OPT), str(source),
         f"--raf-append-optimizer={optimizer.pass_options()}", "-o",
         str(step)],
        capture_output=True, text=True, timeout=600)
    assert process.returncode == 0, process.stderr
    return step


def step_layout(step_path):
    """(num_params, num_states, num_aux) as recorded on @train_step."""
    text = step_path.read_text()
    header = next(line for line in text.splitlines()
                  if "func.func @train_step" in line)
    def read(name):
        return int(re.search(rf"raf\.{name} = (\d+)", header).group(1))
    return read("num_params"), read("num_states"), read("num_aux")


def run_step(tmp_path, step_path, arguments, num_results, target, index):
    command = [str(RAF_RUN), str(step_path), "--entry=train_step",
               f"--target={target}"]
    for i, array in enumerate(arguments):
        path = tmp_path / f"step{index}_arg{i}.npy"
        np.save(path, array)
        command.append(f"--input={path}")
    outputs = [tmp_path / f"step{index}_result{i}.npy"
               for i in range(num_results)]
    command += [f"--output={path}" for path in outputs]
    process = subprocess.run(command, capture_output=True, text=True,
                             timeout=600)
    assert process.returncode == 0, (
        f"raf-run --target={target} failed (exit {process.returncode}):\n"
        f"{process.stderr}")
    return [np.load(path) for path in outputs]


def torch_reference(optimizer, w0, b0, batches):
    """Per step: loss, prediction, new (w, b) and the optimizer states in the
    step function's order (momentum: v_w, v_b; adam: m_w, m_b, v_w, v_b, t).
    """
    w = torch.nn.Parameter(torch.from_numpy(w0.copy()))
    b = torch.nn.Parameter(torch.from_numpy(b0.copy()))
    opt = optimizer.make([w, b])
    steps = []
    for x, y in batches:
        opt.zero_grad()
        prediction = torch.from_numpy(x) @ w.T + b
        loss = ((prediction - torch.from_numpy(y)) ** 2).mean()
        loss.backward()
        opt.step()
        states = [opt.state[p][name].detach().numpy().copy()
                  for name in optimizer.state_names for p in (w, b)]
        if optimizer.kind == "adam":
            states.append(np.array(float(opt.state[w]["step"]), np.float32))
        steps.append([loss.detach().numpy(), prediction.detach().numpy(),
                      w.detach().numpy().copy(), b.detach().numpy().copy()] +
                     states)
    return steps


@pytest.mark.parametrize("target", ["interp", "cpu"])
@pytest.mark.parametrize("optimizer,dtype", CASES,
                         ids=[f"{o.id}-{MLIR_DTYPES[d]}" for o, d in CASES])
def test_train_step_matches_torch_optim(optimizer, dtype, target, tmp_path):
    rng = np.random.default_rng(7)
    w0 = rng.uniform(-1, 1, (OUT, IN)).astype(dtype)
    b0 = rng.uniform(-1, 1, (OUT,)).astype(dtype)
    batches = [(rng.uniform(-1, 1, (BATCH, IN)).astype(dtype),
                rng.uniform(-1, 1, (BATCH, OUT)).astype(dtype))
               for _ in range(STEPS)]
    expected = torch_reference(optimizer, w0, b0, batches)

    step_path = append_optimizer(tmp_path, optimizer, dtype)
    num_params, num_states, num_aux = step_layout(step_path)
    assert num_params == 2 and num_aux == 1
    assert num_states == {"sgd": 0, "momentum": 2, "adam": 5}[optimizer.kind]

    # The caller initialises every state to zero (Adam's counter included).
    params = [w0, b0]
    states = [np.zeros_like(p) for _ in optimizer.state_names for p in params]
    if optimizer.kind == "adam":
        states.append(np.zeros((), np.float32))
    first_result = 1 + num_aux
    for index, (x, y) in enumerate(batches):
        results = run_step(tmp_path, step_path, params + states + [x, y],
                           first_result + num_params + num_states, target,
                           index)
        assert len(results) == len(expected[index])
        for r, (got, want) in enumerate(zip(results, expected[index])):
            where = f"step {index + 1}, result #{r}"
            assert got.dtype == want.dtype, f"{where}: dtype {got.dtype}"
            assert got.shape == want.shape, f"{where}: shape {got.shape}"
            rtol = TOLERANCES[dtype]
            if r == len(results) - 1 and optimizer.kind == "adam":
                rtol = 0.0  # the step counter is an exact small integer
            np.testing.assert_allclose(
                got.astype(np.float64), want.astype(np.float64), rtol=rtol,
                atol=rtol * float(np.abs(want).max()), err_msg=where)
        # Results after the loss and auxiliary ones replace the arguments
        # in order: new parameters, then new states.
        updated = results[first_result:]
        params, states = updated[:num_params], updated[num_params:]
