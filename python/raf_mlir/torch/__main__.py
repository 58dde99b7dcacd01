"""Imports a PyTorch model into a relay-dialect MLIR module.

Usage::

    python3 -m raf_mlir.torch torchvision:resnet18 --input-shape 1,3,224,224 --output-dir out/
    python3 -m raf_mlir.torch my.models:make_encoder --input-shape 1,128,768 --output-dir out/

``<model-spec>`` is ``torchvision:<constructor>`` (any ``torchvision.models``
constructor, built without pretrained weights) or ``<module.path>:<factory>``
(a function of no arguments returning an ``nn.Module``; the module must be
importable, e.g. through ``PYTHONPATH``). Weights are random, seeded by
``--seed``; example inputs are standard-normal (float) or uniform in
``[0, --int-high)`` (integer) with the same seed.

The output directory receives ``<function>.mlir``, one ``.npy`` per function
argument, ``expected_<i>.npy`` (PyTorch's outputs for those inputs) and
``manifest.json`` (see :class:`raf_mlir.torch_frontend.ImportedModule`).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import List, Sequence

import torch
import torch.nn as nn

from raf_mlir.errors import FrontendError, one_line
from raf_mlir.torch_frontend import import_module

_DTYPES = {"float32": torch.float32, "float64": torch.float64, "int64": torch.int64,
           "int32": torch.int32}


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


def main(argv: Sequence[str] = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python3 -m raf_mlir.torch",
        description="Import a PyTorch model (torch.fx) into a relay-dialect MLIR module.")
    parser.add_argument("model", help="torchvision:<constructor> or <module.path>:<factory>")
    parser.add_argument("--input-shape", type=parse_shape, action="append", required=True,
                        help="shape of one input, e.g. 1,3,224,224 (repeat for several inputs)")
    parser.add_argument("--input-dtype", action="append", choices=sorted(_DTYPES),
                        help="dtype of the corresponding input (default float32)")
    parser.add_argument("--int-high", type=int, default=100,
                        help="exclusive upper bound of random integer inputs (default 100)")
    parser.add_argument("--output-dir", required=True, help="directory to write into")
    parser.add_argument("--function-name", default="forward",
                        help="name of the emitted func.func (default forward)")
    parser.add_argument("--params-as-constants", action="store_true",
                        help="emit weights as relay.constant instead of function arguments")
    parser.add_argument("--seed", type=int, default=0,
                        help="seed of the random weights and inputs (default 0)")
    args = parser.parse_args(argv)

    dtypes = args.input_dtype or []
    if len(dtypes) > len(args.input_shape):
        parser.error("more --input-dtype than --input-shape options")
    dtypes = dtypes + ["float32"] * (len(args.input_shape) - len(dtypes))

    # Every failure is reported as one "error: ..." line, never a traceback.
    torch.manual_seed(args.seed)
    try:
        model = load_model(args.model)
    except (ValueError, ImportError) as error:
        print(f"error: {one_line(error, with_type=False)}", file=sys.stderr)
        return 2
    except Exception as error:  # the model's constructor failed
        print(f"error: building {args.model} failed: {one_line(error)}", file=sys.stderr)
        return 2
    generator = torch.Generator().manual_seed(args.seed)
    inputs = make_inputs(args.input_shape, dtypes, args.int_high, generator)
    try:
        imported = import_module(model, inputs, function_name=args.function_name,
                                 params_as_constants=args.params_as_constants)
        path = imported.write(args.output_dir)
    except FrontendError as error:
        print(f"error: {one_line(error, with_type=False)}", file=sys.stderr)
        return 1
    except Exception as error:
        print(f"error: importing {args.model} failed: {one_line(error)}", file=sys.stderr)
        return 1
    print(f"wrote {path} ({len(imported.arguments)} arguments, "
          f"{len(imported.reference_outputs)} result(s)) and manifest.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
