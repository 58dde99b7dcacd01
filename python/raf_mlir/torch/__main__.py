"""Imports a PyTorch model into a relay-dialect MLIR module.

Usage::

    python3 -m raf_mlir.torch torchvision:resnet18 --input-shape 1,3,224,224 --output-dir out/
    python3 -m raf_mlir.torch my.models:make_encoder --input-shape 1,128,768 --output-dir out/
    python3 -m raf_mlir.torch torchvision:resnet18 --input-shape 4,3,64,64 --output-dir out/ \\
        --train --loss cross_entropy --labels random [--lr 0.01]

``<model-spec>`` is ``torchvision:<constructor>`` (any ``torchvision.models``
constructor, built without pretrained weights) or ``<module.path>:<factory>``
(a function of no arguments returning an ``nn.Module``; the module must be
importable, e.g. through ``PYTHONPATH``). Weights are random, seeded by
``--seed``; example inputs are standard-normal (float) or uniform in
``[0, --int-high)`` (integer) with the same seed. ``--dtype float64`` converts
the model (and the default input dtype) to float64.

The output directory receives ``<function>.mlir``, one ``.npy`` per function
argument, ``expected_<i>.npy`` (PyTorch's outputs for those inputs) and
``manifest.json`` (see :class:`raf_mlir.imported.ImportedModule`). Every
argument has a kind (``input``, ``label``, ``parameter``, ``state``) and a
``requires_grad`` flag, also written into the module as
``raf.requires_grad``.

With ``--train`` the model is imported in training mode with its loss
appended: ``@<function>(inputs..., labels, weights...) -> (loss, updated
running statistics...)``, the module ``raf-opt --raf-training-pipeline``
turns into a training step. The labels are an argument (``--labels``: a
``.npy`` file, or ``random[:SEED]``), and PyTorch's results of one step are
written next to the module: the loss, the updated running statistics, every
trainable parameter's gradient (``expected_grad_<index>_<name>.npy``) and
its value after one SGD step with ``--lr`` (``expected_step_<index>_<name>.npy``).
``manifest.json`` gains a ``training`` section that lists the ``raf-opt``
and ``raf-run`` commands and which file goes with which argument and result.
"""

from __future__ import annotations

import argparse
import copy
import importlib
import inspect
import keyword
import math
import shlex
import sys
from collections import OrderedDict
from pathlib import Path
from typing import Any, Dict, List, NoReturn, Optional, Sequence, Tuple

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from raf_mlir.errors import FrontendError, one_line
from raf_mlir.imported import ImportedModule, npy_file_name
from raf_mlir.torch_frontend import import_module

_DTYPES = {"float32": torch.float32, "float64": torch.float64, "int64": torch.int64,
           "int32": torch.int32}


# ---------------------------------------------------------------------------
# Losses appended by --train
# ---------------------------------------------------------------------------


def _cross_entropy(output: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
    return F.cross_entropy(output, labels)


def _nll(output: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
    # The model's output is taken as log-probabilities, as F.nll_loss does.
    return F.nll_loss(output, labels)


def _mse(output: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
    # F.mse_loss with reduction="mean", written with the operators the
    # frontend translates (subtract, multiply, mean).
    difference = output - labels
    return (difference * difference).mean()


#: --loss name -> (the loss, what it expects of the labels).
LOSSES = {
    "cross_entropy": (_cross_entropy, "class indices (integers) or class probabilities"),
    "nll": (_nll, "class indices (integers)"),
    "mse": (_mse, "targets of the output's shape (floats)"),
}


class CommandLineError(Exception):
    """A bad command line: reported as one ``error: ...`` line, exit code 2."""


class _Parser(argparse.ArgumentParser):
    """Reports usage errors as one ``error: ...`` line (exit code 2)."""

    def error(self, message: str) -> NoReturn:
        print(f"error: {' '.join(message.split())} (see --help)", file=sys.stderr)
        sys.exit(2)


# ---------------------------------------------------------------------------
# Models and example data
# ---------------------------------------------------------------------------


def load_model(spec: str) -> nn.Module:
    """Builds the model a ``<source>:<name>`` spec names."""
    if ":" not in spec:
        raise ValueError(f"model spec '{spec}' is not of the form <source>:<name>")
    source, name = spec.split(":", 1)
    if source == "torchvision":
        import torchvision.models

        constructor = getattr(torchvision.models, name, None)
        if constructor is None or not callable(constructor):
            raise ValueError(f"torchvision.models has no constructor '{name}'")
        return constructor()
    module = importlib.import_module(source)
    factory = getattr(module, name, None)
    if factory is None or not callable(factory):
        raise ValueError(f"module '{source}' has no callable '{name}'")
    model = factory()
    if not isinstance(model, nn.Module):
        raise ValueError(f"{spec}() returned {type(model).__name__}, not an nn.Module")
    return model


def parse_shape(text: str) -> List[int]:
    try:
        shape = [int(d) for d in text.split(",") if d.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"bad shape '{text}' (expected e.g. 1,3,224,224)")
    if any(d <= 0 for d in shape):
        raise argparse.ArgumentTypeError(f"bad shape '{text}': dimensions must be positive")
    return shape


def make_inputs(shapes: Sequence[Sequence[int]], dtypes: Sequence[str], int_high: int,
                generator: torch.Generator) -> List[torch.Tensor]:
    inputs = []
    for shape, dtype in zip(shapes, dtypes):
        torch_dtype = _DTYPES[dtype]
        if torch_dtype.is_floating_point:
            inputs.append(torch.randn(*shape, generator=generator, dtype=torch_dtype))
        else:
            inputs.append(torch.randint(0, int_high, tuple(shape), generator=generator,
                                        dtype=torch_dtype))
    return inputs


# ---------------------------------------------------------------------------
# Training mode
# ---------------------------------------------------------------------------


def _input_names(model: nn.Module, count: int) -> List[str]:
    """Names for the training forward's inputs: the model's own forward
    parameter names where they are usable, ``input_<i>`` otherwise."""
    try:
        parameters = [p.name for p in inspect.signature(model.forward).parameters.values()
                      if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):
        parameters = []
    names = []
    for i in range(count):
        name = parameters[i] if i < len(parameters) else f"input_{i}"
        if not name.isidentifier() or keyword.iskeyword(name) or name in names or \
                name in ("self", "labels"):
            name = f"input_{i}"
        names.append(name)
    return names


def attach_loss(model: nn.Module, loss: str, num_inputs: int) -> nn.Module:
    """Makes ``model`` compute its loss: ``forward(inputs..., labels) ->
    loss(model.forward(inputs...), labels)``.

    The model's class is replaced by a subclass (nothing is wrapped), so
    parameter and buffer names -- and thus the argument names and ``.npy``
    files -- stay those of ``model.state_dict()``.
    """
    base = type(model)
    names = _input_names(model, num_inputs)
    # A forward with one named parameter per input (torch.fx cannot trace
    # ``forward(*args)`` on every Python version), plus the labels.
    source = (f"def forward(self, {', '.join(names)}, labels):\n"
              f"    return _loss(_base_forward(self, {', '.join(names)}), labels)\n")
    namespace: Dict[str, Any] = {"_loss": LOSSES[loss][0], "_base_forward": base.forward}
    exec(compile(source, f"<{base.__qualname__} with {loss} loss>", "exec"), namespace)
    trained = type(base.__name__, (base,), {"forward": namespace["forward"],
                                            "__module__": base.__module__})
    trained.__qualname__ = f"{base.__qualname__}+{loss}"
    model.__class__ = trained
    return model


def make_labels(spec: str, loss: str, output: torch.Tensor, default_seed: int) -> torch.Tensor:
    """The labels ``--labels`` gives for ``output`` (checked against it)."""
    class_indices = loss in ("cross_entropy", "nll")
    if class_indices:
        if output.dim() < 2:
            raise CommandLineError(
                f"--loss {loss} needs a model output of shape [N, C, ...] (class scores), "
                f"got {list(output.shape)}")
        index_shape = list(output.shape[:1]) + list(output.shape[2:])
    if spec == "random" or spec.startswith("random:"):
        seed_text = spec[len("random:"):] if ":" in spec else str(default_seed)
        try:
            seed = int(seed_text)
        except ValueError:
            raise CommandLineError(f"bad --labels '{spec}': the seed of random:SEED must be "
                                   "an integer") from None
        generator = torch.Generator().manual_seed(seed)
        if class_indices:
            return torch.randint(0, output.shape[1], tuple(index_shape), generator=generator,
                                 dtype=torch.int64)
        return torch.randn(*output.shape, generator=generator, dtype=output.dtype)

    path = Path(spec)
    if path.suffix != ".npy":
        raise CommandLineError(f"bad --labels '{spec}': expected a .npy file, 'random' or "
                               "'random:SEED'")
    try:
        array = np.load(path, allow_pickle=False)
    except (OSError, ValueError) as error:
        raise CommandLineError(f"cannot read --labels {spec}: {one_line(error, False)}") \
            from None
    shape = list(array.shape)
    if class_indices and array.dtype.kind in "iu":
        if shape != index_shape:
            raise CommandLineError(
                f"--labels {spec} has shape {shape}, but --loss {loss} on the model output "
                f"{list(output.shape)} needs class indices of shape {index_shape}")
        if array.size and (array.min() < 0 or array.max() >= output.shape[1]):
            raise CommandLineError(
                f"--labels {spec} holds class indices in [{array.min()}, {array.max()}], "
                f"outside [0, {output.shape[1]}) (the output has {output.shape[1]} classes)")
        return torch.from_numpy(array.astype(np.int64))
    if loss == "cross_entropy" and array.dtype.kind == "f":
        if shape != list(output.shape) or output.dim() != 2:
            raise CommandLineError(
                f"--labels {spec} holds floats of shape {shape}: class probabilities for "
                f"--loss cross_entropy must have the output's shape [N, C], here "
                f"{list(output.shape)}")
        return torch.from_numpy(array).to(output.dtype)
    if loss == "mse" and array.dtype.kind in "fiu":
        if shape != list(output.shape):
            raise CommandLineError(
                f"--labels {spec} has shape {shape}, but --loss mse needs the model "
                f"output's shape {list(output.shape)}")
        return torch.from_numpy(array).to(output.dtype)
    raise CommandLineError(f"--labels {spec} holds {array.dtype.name} values; --loss {loss} "
                           f"needs {LOSSES[loss][1]}")


def training_section(imported: ImportedModule, model: nn.Module, inputs: Sequence[torch.Tensor],
                     labels: torch.Tensor, loss: str, lr: float,
                     directory: Path) -> Dict[str, Any]:
    """Runs one PyTorch training step on ``model`` (from the imported
    weights), writes its gradients and updated parameters into
    ``directory`` and returns the manifest's ``training`` section."""
    model.train()
    model.zero_grad(set_to_none=True)
    # import_module left the weights and buffers as they were before its
    # reference run, so this step starts from the written arguments.
    output = model(*inputs, labels)
    output.backward()
    reference_loss = imported.reference_outputs[0]
    if not np.allclose(output.detach().numpy(), reference_loss, rtol=1e-6, atol=0):
        raise FrontendError(f"the reference step's loss {float(output)} differs from the "
                            f"import's {float(reference_loss)}")
    state = model.state_dict(keep_vars=True)
    trained = [a for a in imported.arguments if a.requires_grad]
    num_stats = imported.num_results - 1
    width = max(3, len(str(len(imported.arguments) - 1)))
    gradient_files, step_files = [], []
    with torch.no_grad():
        for argument in trained:
            parameter = state[argument.name]
            gradient = parameter.grad
            if gradient is None:  # the loss does not depend on it
                gradient = torch.zeros_like(parameter)
            stem = npy_file_name(argument.index, argument.name, width)
            gradient_files.append(f"expected_grad_{stem}")
            step_files.append(f"expected_step_{stem}")
            np.save(directory / gradient_files[-1], gradient.detach().numpy())
            # torch.optim.SGD without momentum or weight decay: w' = w - lr g.
            np.save(directory / step_files[-1], (parameter - lr * gradient).detach().numpy())
    np.save(directory / "dy.npy", np.ones(reference_loss.shape, reference_loss.dtype))

    others = [a for a in imported.arguments if not a.requires_grad]
    updates = imported.result_updates or [None] * imported.num_results
    stats_results = [{"name": imported.arguments[updates[1 + i]].name
                      if updates[1 + i] is not None else f"running statistic #{i}",
                      "updates_argument": updates[1 + i], "npy": f"expected_{1 + i}.npy"}
                     for i in range(num_stats)]
    step_name = "train_step"
    step_mlir = "train_step.mlir"
    pipeline = f"entry={imported.function_name} optimizer=sgd lr={lr!r}"
    step_arguments = [a.npy for a in trained] + [a.npy for a in others]
    step_results = ([{"name": "loss", "npy": "expected_0.npy"}] + stats_results +
                    [{"name": a.name, "updates_argument": a.index, "npy": f}
                     for a, f in zip(trained, step_files)])
    gradient_arguments = [a.npy for a in imported.arguments] + ["dy.npy"]
    gradient_results = ([{"name": "loss", "npy": "expected_0.npy"}] + stats_results +
                        [{"name": a.name, "gradient_of_argument": a.index, "npy": f}
                         for a, f in zip(trained, gradient_files)])

    def run_command(entry: str, files: Sequence[str], results: Sequence[Dict[str, Any]],
                    prefix: str) -> str:
        return " ".join([f"raf-run {step_mlir} --entry={entry} --target=cpu"] +
                        [f"--input={f}" for f in files] +
                        [f"--output={prefix}_{i}.npy" for i in range(len(results))])

    commands = {
        "pipeline": f"raf-opt {imported.mlir_file_name} "
                    f"--raf-training-pipeline=\"{pipeline}\" -o {step_mlir}",
        "train_step": run_command(step_name, step_arguments, step_results, "step"),
        "gradients": run_command(imported.function_name, gradient_arguments,
                                 gradient_results, "grad"),
    }
    _write_script(directory / "train.sh", commands)

    return {
        "loss": loss,
        "optimizer": "sgd",
        "lr": lr,
        "requires_grad": [a.index for a in trained],
        "pipeline": {
            "mlir": step_mlir,
            "command": commands["pipeline"],
        },
        "train_step": {
            "function": step_name,
            "arguments": step_arguments,
            "results": step_results,
            "command": commands["train_step"],
        },
        "gradients": {
            "function": imported.function_name,
            "arguments": gradient_arguments,
            "results": gradient_results,
            "command": commands["gradients"],
        },
    }


def _write_script(path: Path, commands: Dict[str, str]) -> None:
    """``train.sh [cpu|interp]``: the pipeline, one step and the gradients,
    with the tools from ``$RAF_BIN`` (default: on PATH)."""
    def tool(command: str) -> str:
        return "\"${RAF_BIN:+$RAF_BIN/}" + command.replace(" ", "\" ", 1)

    lines = [
        "#!/bin/sh",
        "# One training step of the imported model (written by python3 -m raf_mlir.torch",
        "# --train): step_<i>.npy are @train_step's results, grad_<i>.npy the gradient",
        "# function's; manifest.json's training section pairs them with PyTorch's",
        "# expected_*.npy. Usage: sh train.sh [cpu|interp]  (tools from $RAF_BIN or PATH)",
        "set -e",
        '[ -z "$RAF_BIN" ] || RAF_BIN="$(cd "$RAF_BIN" && pwd)"',
        'cd "$(dirname "$0")"',
        'target="${1:-cpu}"',
        tool(commands["pipeline"]),
        tool(commands["train_step"]).replace("--target=cpu", '--target="$target"'),
        tool(commands["gradients"]).replace("--target=cpu", '--target="$target"'),
    ]
    path.write_text("\n".join(lines) + "\n")
    path.chmod(0o755)


# ---------------------------------------------------------------------------
# Driver
# ---------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="python3 -m raf_mlir.torch",
        description="Import a PyTorch model (torch.fx) into a relay-dialect MLIR module.")
    parser.add_argument("model", help="torchvision:<constructor> or <module.path>:<factory>")
    parser.add_argument("--input-shape", type=parse_shape, action="append", required=True,
                        help="shape of one input, e.g. 1,3,224,224 (repeat for several inputs)")
    parser.add_argument("--input-dtype", action="append", choices=sorted(_DTYPES),
                        help="dtype of the corresponding input (default: --dtype)")
    parser.add_argument("--dtype", choices=["float32", "float64"], default="float32",
                        help="floating-point type of the model's parameters and buffers and "
                             "of the inputs without --input-dtype (default float32; float64 "
                             "for comparisons that float32 rounding would blur)")
    parser.add_argument("--int-high", type=int, default=100,
                        help="exclusive upper bound of random integer inputs (default 100)")
    parser.add_argument("--output-dir", required=True, help="directory to write into")
    parser.add_argument("--function-name", default="forward",
                        help="name of the emitted func.func (default forward)")
    parser.add_argument("--params-as-constants", action="store_true",
                        help="emit weights as relay.constant instead of function arguments")
    parser.add_argument("--seed", type=int, default=0,
                        help="seed of the random weights and inputs (default 0)")
    training = parser.add_argument_group(
        "training", "import the model in training mode with a loss, for "
                    "raf-opt --raf-training-pipeline")
    training.add_argument("--train", action="store_true",
                          help="training mode: batch norm uses batch statistics and returns "
                               "its updated running statistics; the loss is appended")
    training.add_argument("--loss", help="the loss on the model output: " +
                          ", ".join(sorted(LOSSES)) + " (with --train)")
    training.add_argument("--labels",
                          help="the loss targets: a .npy file, or random[:SEED] (class "
                               "indices for cross_entropy/nll, standard-normal floats for "
                               "mse; SEED defaults to --seed) (with --train)")
    training.add_argument("--lr", type=float,
                          help="learning rate of the SGD step the reference results are "
                               "computed for (default 0.01, as --raf-training-pipeline)")
    return parser


def check_training_options(args: argparse.Namespace) -> None:
    if not args.train:
        for flag, value in (("--loss", args.loss), ("--labels", args.labels),
                            ("--lr", args.lr)):
            if value is not None:
                raise CommandLineError(f"{flag} needs --train")
        return
    if args.params_as_constants:
        raise CommandLineError("--train cannot be combined with --params-as-constants (the "
                               "trained parameters must be function arguments)")
    if args.function_name == "train_step":
        raise CommandLineError("--function-name train_step is the name of the step "
                               "--raf-training-pipeline adds; choose another")
    if args.loss is None:
        raise CommandLineError(f"--train needs --loss ({', '.join(sorted(LOSSES))})")
    if args.loss not in LOSSES:
        raise CommandLineError(f"unknown --loss '{args.loss}' (expected one of "
                               f"{', '.join(sorted(LOSSES))})")
    if args.labels is None:
        raise CommandLineError("--train needs --labels (a .npy file, or random[:SEED])")
    if args.lr is None:
        args.lr = 0.01
    if not math.isfinite(args.lr) or args.lr <= 0:
        raise CommandLineError(f"--lr must be a positive number, got {args.lr}")


def main(argv: Sequence[str] = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)

    dtypes = args.input_dtype or []
    if len(dtypes) > len(args.input_shape):
        parser.error("more --input-dtype than --input-shape options")
    dtypes = dtypes + [args.dtype] * (len(args.input_shape) - len(dtypes))

    # Every failure is reported as one "error: ..." line, never a traceback.
    try:
        check_training_options(args)
    except CommandLineError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    torch.manual_seed(args.seed)
    try:
        model = load_model(args.model)
    except (ValueError, ImportError) as error:
        print(f"error: {one_line(error, with_type=False)}", file=sys.stderr)
        return 2
    except Exception as error:  # the model's constructor failed
        print(f"error: building {args.model} failed: {one_line(error)}", file=sys.stderr)
        return 2
    if args.dtype != "float32":
        model = model.to(_DTYPES[args.dtype])
    generator = torch.Generator().manual_seed(args.seed)
    inputs = make_inputs(args.input_shape, dtypes, args.int_high, generator)

    labels = None
    if args.train:
        try:
            # The output's shape and dtype decide the labels'; a copy runs so
            # that the model's running statistics stay untouched.
            with torch.no_grad():
                output = copy.deepcopy(model).train()(*inputs)
        except Exception as error:
            print(f"error: running {args.model} in training mode failed: {one_line(error)}",
                  file=sys.stderr)
            return 1
        if not isinstance(output, torch.Tensor) or not output.is_floating_point():
            what = (f"a {output.dtype} tensor" if isinstance(output, torch.Tensor)
                    else type(output).__name__)
            print(f"error: --train needs a model returning one float tensor (its loss input), "
                  f"{args.model} returns {what} in training mode", file=sys.stderr)
            return 1
        try:
            labels = make_labels(args.labels, args.loss, output, args.seed)
        except CommandLineError as error:
            print(f"error: {error}", file=sys.stderr)
            return 2
        attach_loss(model, args.loss, len(inputs))

    try:
        example = tuple(inputs) + ((labels,) if labels is not None else ())
        imported = import_module(model, example, function_name=args.function_name,
                                 params_as_constants=args.params_as_constants,
                                 training=args.train)
        if labels is not None:
            label_name = list(imported.inputs)[-1]
            imported.set_argument_kinds({label_name: ("label", False)})
            directory = Path(args.output_dir)
            directory.mkdir(parents=True, exist_ok=True)
            section = training_section(imported, model, inputs, labels, args.loss, args.lr,
                                       directory)
        path = imported.write(args.output_dir)
        if labels is not None:
            _add_to_manifest(Path(args.output_dir) / "manifest.json", "training", section)
    except FrontendError as error:
        print(f"error: {one_line(error, with_type=False)}", file=sys.stderr)
        return 1
    except Exception as error:
        print(f"error: importing {args.model} failed: {one_line(error)}", file=sys.stderr)
        return 1
    counts = OrderedDict((kind, sum(a.kind == kind for a in imported.arguments))
                         for kind in ("input", "label", "parameter", "state"))
    summary = ", ".join(f"{n} {kind}" for kind, n in counts.items() if n)
    print(f"wrote {path} ({len(imported.arguments)} arguments: {summary}; "
          f"{len(imported.reference_outputs)} result(s)) and manifest.json")
    if labels is not None:
        script = shlex.quote(str(Path(args.output_dir) / "train.sh"))
        print(f"one training step: sh {script} [cpu|interp] "
              f"(commands and expected results in manifest.json's training section)")
    return 0


def _add_to_manifest(path: Path, key: str, value: Any) -> None:
    import json

    manifest = json.loads(path.read_text())
    manifest[key] = value
    path.write_text(json.dumps(manifest, indent=2) + "\n")


if __name__ == "__main__":
    sys.exit(main())
