"""The result of a frontend import and its on-disk layout.

Every frontend (:mod:`raf_mlir.torch_frontend`, :mod:`raf_mlir.onnx_frontend`)
returns an :class:`ImportedModule`: the relay-dialect module as text, the
arrays of the function's arguments (model inputs, then weights) and, when the
frontend can compute them, reference outputs. :meth:`ImportedModule.write`
produces the layout the command lines write::

    <function>.mlir        one public func.func @<function>
    000_<name>.npy ...     one file per function argument, in argument order
    expected_<i>.npy       reference result i (when known)
    manifest.json          function, arguments and results (see manifest())

Every argument has a *kind* -- ``input`` (model data), ``label`` (the
targets of a loss), ``parameter`` (a weight) or ``state`` (a buffer the
model updates but does not train, e.g. batch-norm running statistics) --
and a ``requires_grad`` flag, true only for trainable parameters. The flag
is also written into the module as the argument attribute
``raf.requires_grad``, which ``--raf-autodiff`` and
``--raf-training-pipeline`` read when no ``requires-grad`` option is given
(docs/autodiff.md), so inputs, labels and running statistics are never
differentiated.
"""

from __future__ import annotations

import json
import re
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

__all__ = ["ArgumentInfo", "ImportedModule", "annotate_requires_grad", "make_arguments",
           "npy_file_name", "ARGUMENT_KINDS"]

#: The kinds of function arguments (see the module docstring).
ARGUMENT_KINDS = ("input", "label", "parameter", "state")

#: The argument attribute --raf-autodiff reads (AttributeNames.h).
REQUIRES_GRAD_ATTR = "raf.requires_grad"


@dataclass
class ArgumentInfo:
    """One argument of the emitted function, as listed in ``manifest.json``."""

    index: int
    name: str
    kind: str  # one of ARGUMENT_KINDS
    shape: Tuple[int, ...]
    dtype: str  # numpy dtype name, e.g. "float32"
    npy: str  # file name written by ImportedModule.write
    requires_grad: bool = False  # a trainable parameter

    def to_json(self) -> Dict[str, Any]:
        return {"index": self.index, "name": self.name, "kind": self.kind,
                "requires_grad": self.requires_grad,
                "shape": list(self.shape), "dtype": self.dtype, "npy": self.npy}


@dataclass
class ImportedModule:
    """A model translated to relay MLIR, with its weights and example data.

    Attributes:
        function_name: name of the public ``func.func``.
        mlir_text: the module as text.
        params: weights that are function arguments, in argument order
            (name -> array); empty with ``params_as_constants``.
        inputs: the example inputs (name -> array), in argument order.
        arguments: every function argument (inputs, then params).
        reference_outputs: the source framework's outputs for the example
            inputs, in result order (empty when the frontend has no way to
            compute them, e.g. ONNX without a runtime).
        model: the source model (an eval-mode ``nn.Module``, an
            ``onnx.ModelProto``, ...).
        params_as_constants: whether weights are ``relay.constant`` operations.
        result_types: ``(shape, numpy dtype name)`` of every result; taken
            from ``reference_outputs`` when not given.
        result_updates: per result, the index of the argument it is the new
            value of (a training-mode batch norm's updated running
            statistics), else ``None``; ``None`` when no result updates one.
    """

    function_name: str
    mlir_text: str
    params: "OrderedDict[str, np.ndarray]"
    inputs: "OrderedDict[str, np.ndarray]"
    arguments: List[ArgumentInfo]
    reference_outputs: List[np.ndarray]
    model: Any = field(repr=False)
    params_as_constants: bool = False
    result_types: Optional[List[Tuple[Tuple[int, ...], str]]] = None
    result_updates: Optional[List[Optional[int]]] = None

    def __post_init__(self) -> None:
        if self.result_types is None:
            self.result_types = [(tuple(r.shape), r.dtype.name) for r in self.reference_outputs]
        self._annotate()

    def _annotate(self) -> None:
        self.mlir_text = annotate_requires_grad(
            self.mlir_text, self.function_name, [a.requires_grad for a in self.arguments])

    def set_argument_kinds(self, kinds: Dict[str, Tuple[str, bool]]) -> None:
        """Relabels arguments: ``name -> (kind, requires_grad)``; the
        module's ``raf.requires_grad`` attributes follow."""
        by_name = {a.name: a for a in self.arguments}
        for name, (kind, requires_grad) in kinds.items():
            if name not in by_name:
                raise KeyError(f"no argument named '{name}'")
            if kind not in ARGUMENT_KINDS:
                raise ValueError(f"unknown argument kind '{kind}'")
            if requires_grad and (kind != "parameter" or
                                  np.dtype(by_name[name].dtype).kind != "f"):
                raise ValueError(f"argument '{name}' cannot require a gradient: only float "
                                 "parameters are trainable")
            by_name[name].kind = kind
            by_name[name].requires_grad = requires_grad
        self._annotate()

    @property
    def mlir_file_name(self) -> str:
        return f"{self.function_name}.mlir"

    @property
    def num_results(self) -> int:
        return len(self.result_types)

    def argument_arrays(self) -> List[np.ndarray]:
        """Every argument's array, in argument order."""
        return list(self.inputs.values()) + list(self.params.values())

    def manifest(self) -> Dict[str, Any]:
        """The content of ``manifest.json``.

        ``results[i].npy`` is ``expected_<i>.npy`` when a reference output
        was written, ``null`` otherwise; ``results[i].updates_argument``
        names the argument a result is the new value of (training mode).
        """
        have_reference = bool(self.reference_outputs)
        return {
            "function": self.function_name,
            "mlir": self.mlir_file_name,
            "params_as_constants": self.params_as_constants,
            "arguments": [a.to_json() for a in self.arguments],
            "results": [
                {"index": i, "shape": list(shape), "dtype": dtype,
                 "npy": f"expected_{i}.npy" if have_reference else None,
                 **({"updates_argument": self.result_updates[i]}
                    if self.result_updates and self.result_updates[i] is not None else {})}
                for i, (shape, dtype) in enumerate(self.result_types)
            ],
        }

    def write(self, directory: Union[str, Path]) -> Path:
        """Writes the module, one ``.npy`` per argument, the reference outputs
        (``expected_<i>.npy``, if any) and ``manifest.json`` into ``directory``.

        Returns the path of the ``.mlir`` file.
        """
        directory = Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        mlir_path = directory / self.mlir_file_name
        mlir_path.write_text(self.mlir_text)
        for info, array in zip(self.arguments, self.argument_arrays()):
            np.save(directory / info.npy, array)
        for i, array in enumerate(self.reference_outputs):
            np.save(directory / f"expected_{i}.npy", array)
        (directory / "manifest.json").write_text(json.dumps(self.manifest(), indent=2) + "\n")
        return mlir_path


def npy_file_name(index: int, name: str, width: int) -> str:
    """``<index>_<name>.npy`` with a zero-padded index and a file-safe name."""
    return f"{index:0{width}d}_{re.sub(r'[^A-Za-z0-9_.-]', '_', name)}.npy"


def make_arguments(inputs: Sequence[Tuple[str, np.ndarray]],
                   params: Sequence[Tuple[str, np.ndarray]],
                   param_kinds: Optional[Sequence[Tuple[str, bool]]] = None
                   ) -> List[ArgumentInfo]:
    """The :class:`ArgumentInfo` list of ``inputs`` followed by ``params``.

    ``param_kinds`` gives ``(kind, requires_grad)`` per param; by default
    every param is a ``parameter`` that requires a gradient when it is a
    float tensor. Inputs never require one.
    """
    if param_kinds is None:
        param_kinds = [("parameter", array.dtype.kind == "f") for _, array in params]
    if len(param_kinds) != len(params):
        raise ValueError(f"{len(param_kinds)} kinds for {len(params)} params")
    count = len(inputs) + len(params)
    width = max(3, len(str(count - 1)))
    kinds = [("input", False)] * len(inputs) + list(param_kinds)
    arguments = []
    for index, ((name, array), (kind, grad)) in enumerate(zip(list(inputs) + list(params),
                                                              kinds)):
        arguments.append(ArgumentInfo(index, name, kind, tuple(array.shape), array.dtype.name,
                                      npy_file_name(index, name, width), bool(grad)))
    return arguments


_OPEN = {"(": ")", "<": ">", "[": "]", "{": "}"}


def _split_top_level(text: str, start: int) -> Tuple[List[Tuple[int, int]], int]:
    """The spans of the comma-separated entries of the parenthesised list
    that opens just before ``start``, and the index of its closing ``)``.
    Brackets of every kind and string literals nest."""
    spans, stack, begin, i = [], [], start, start
    while i < len(text):
        ch = text[i]
        if ch == '"':
            i += 1
            while i < len(text) and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
        elif ch == ">" and i > 0 and text[i - 1] == "-":
            pass  # the arrow of a function type closes nothing
        elif ch in _OPEN:
            stack.append(_OPEN[ch])
        elif stack and ch == stack[-1]:
            stack.pop()
        elif not stack and ch in "),":
            if text[begin:i].strip():
                spans.append((begin, i))
            if ch == ")":
                return spans, i
            begin = i + 1
        i += 1
    raise ValueError("unterminated argument list")


def annotate_requires_grad(mlir_text: str, function: str,
                           requires_grad: Sequence[bool]) -> str:
    """``mlir_text`` with ``{raf.requires_grad = true|false}`` on every
    argument of ``func.func @<function>`` (an existing mark is replaced,
    other argument attributes are kept)."""
    match = re.search(rf"func\.func\s+(?:\w+\s+)?@{re.escape(function)}\(", mlir_text)
    if match is None:
        raise ValueError(f"no func.func @{function} in the module")
    spans, _ = _split_top_level(mlir_text, match.end())
    if len(spans) != len(requires_grad):
        raise ValueError(f"@{function} has {len(spans)} arguments, "
                         f"{len(requires_grad)} requires_grad flags were given")
    pieces, last = [], 0
    for (begin, end), flag in zip(spans, requires_grad):
        entry = mlir_text[begin:end].rstrip()
        trailing = mlir_text[begin + len(entry):end]
        mark = f"{REQUIRES_GRAD_ATTR} = {'true' if flag else 'false'}"
        if entry.endswith("}"):
            # An attribute dictionary: drop an old mark, add the new one.
            open_at = entry.rindex("{")
            body = re.sub(rf"\s*{re.escape(REQUIRES_GRAD_ATTR)}\s*=\s*(true|false)\s*,?", "",
                          entry[open_at + 1:-1]).strip().rstrip(",")
            entry = entry[:open_at] + "{" + (f"{body}, " if body else "") + mark + "}"
        else:
            entry = f"{entry} {{{mark}}}"
        pieces += [mlir_text[last:begin], entry, trailing]
        last = end
    pieces.append(mlir_text[last:])
    return "".join(pieces)
