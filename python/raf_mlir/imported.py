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
"""

from __future__ import annotations

import json
import re
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

__all__ = ["ArgumentInfo", "ImportedModule", "make_arguments", "npy_file_name"]


@dataclass
class ArgumentInfo:
    """One argument of the emitted function, as listed in ``manifest.json``."""

    index: int
    name: str
    kind: str  # "input" or "parameter"
    shape: Tuple[int, ...]
    dtype: str  # numpy dtype name, e.g. "float32"
    npy: str  # file name written by ImportedModule.write

    def to_json(self) -> Dict[str, Any]:
        return {"index": self.index, "name": self.name, "kind": self.kind,
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

    def __post_init__(self) -> None:
        if self.result_types is None:
            self.result_types = [(tuple(r.shape), r.dtype.name) for r in self.reference_outputs]

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
        was written, ``null`` otherwise.
        """
        have_reference = bool(self.reference_outputs)
        return {
            "function": self.function_name,
            "mlir": self.mlir_file_name,
            "params_as_constants": self.params_as_constants,
            "arguments": [a.to_json() for a in self.arguments],
            "results": [
                {"index": i, "shape": list(shape), "dtype": dtype,
                 "npy": f"expected_{i}.npy" if have_reference else None}
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
                   params: Sequence[Tuple[str, np.ndarray]]) -> List[ArgumentInfo]:
    """The :class:`ArgumentInfo` list of ``inputs`` followed by ``params``."""
    count = len(inputs) + len(params)
    width = max(3, len(str(count - 1)))
    arguments = []
    for index, (name, array) in enumerate(list(inputs) + list(params)):
        kind = "input" if index < len(inputs) else "parameter"
        arguments.append(ArgumentInfo(index, name, kind, tuple(array.shape), array.dtype.name,
                                      npy_file_name(index, name, width)))
    return arguments
