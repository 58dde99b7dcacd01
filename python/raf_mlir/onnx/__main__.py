"""Imports an ONNX model into a relay-dialect MLIR module.

Usage::

    python3 -m raf_mlir.onnx model.onnx --output-dir out/ [--params-as-constants]
        [--function-name NAME] [--seed N]

The output directory receives ``<function>.mlir``, one ``.npy`` per function
argument (graph inputs with random example data drawn with ``--seed``, then
the initializers read as tensors, in ``graph.initializer`` order) and
``manifest.json`` (see :class:`raf_mlir.imported.ImportedModule`). No
``expected_<i>.npy`` files are written: the frontend has no ONNX runtime.

Argument kinds: graph inputs are ``input``; initializers are ``parameter``
(``requires_grad`` when they are float tensors), except the running mean and
variance of ``BatchNormalization`` (its inputs 3 and 4), which are ``state``
and never require a gradient. The flags are also the module's
``raf.requires_grad`` argument attributes.
"""

from __future__ import annotations

import argparse
import sys
import warnings
from typing import Optional, Sequence

from raf_mlir.errors import FrontendError, one_line
from raf_mlir.imported import ImportedModule
from raf_mlir.onnx_frontend import import_onnx


def label_state(imported: ImportedModule) -> None:
    """Marks the running statistics of every BatchNormalization that are
    arguments as ``state`` (not trainable)."""
    names = {a.name for a in imported.arguments}
    state = {}
    for node in imported.model.graph.node:
        if node.domain in ("", "ai.onnx") and node.op_type == "BatchNormalization":
            for name in node.input[3:5]:
                if name in names:
                    state[name] = ("state", False)
    imported.set_argument_kinds(state)


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python3 -m raf_mlir.onnx",
        description="Import an ONNX model (opset 13 or later, static shapes) into a "
                    "relay-dialect MLIR module.")
    parser.add_argument("model", help="the .onnx file")
    parser.add_argument("--output-dir", required=True, help="directory to write into")
    parser.add_argument("--function-name", default="forward",
                        help="name of the emitted func.func (default forward)")
    parser.add_argument("--params-as-constants", action="store_true",
                        help="emit initializers as relay.constant instead of function arguments")
    parser.add_argument("--seed", type=int, default=0,
                        help="seed of the random example inputs (default 0)")
    args = parser.parse_args(argv)
    # Every failure is reported as one "error: ..." line, never a traceback
    # (protobuf's decoding warnings about a damaged file included).
    warnings.filterwarnings("ignore", category=RuntimeWarning, module="onnx")
    try:
        imported = import_onnx(args.model, function_name=args.function_name,
                               params_as_constants=args.params_as_constants, seed=args.seed)
        label_state(imported)
        path = imported.write(args.output_dir)
    except (FrontendError, OSError) as error:
        print(f"error: {one_line(error, with_type=False)}", file=sys.stderr)
        return 1
    except Exception as error:  # e.g. a file that is not an ONNX model
        print(f"error: importing {args.model} failed: {one_line(error)}", file=sys.stderr)
        return 1
    print(f"wrote {path} ({len(imported.arguments)} arguments, "
          f"{imported.num_results} result(s)) and manifest.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
