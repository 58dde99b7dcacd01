"""Exceptions raised by the RAF-MLIR frontends."""

from typing import Optional


class FrontendError(Exception):
    """Base class of every error a frontend reports about its input."""


class UnsupportedOperationError(FrontendError):
    """An operation (or a use of it) that the frontend cannot translate.

    The message names the operation (the fx target or module type, the ONNX
    op type) and the graph node that uses it, so the offending part of the
    model can be found. ``graph`` names the kind of graph (``fx``, ``ONNX``);
    ``location`` is where the node comes from when that is known
    (``file.py:line`` of the model code for fx graphs). The message is one
    line.
    """

    def __init__(self, operation: str, node_name: str, reason: str = "",
                 graph: str = "fx", location: Optional[str] = None):
        self.operation = operation
        self.node_name = node_name
        self.reason = reason
        self.location = location
        message = f"unsupported operation '{operation}' at {graph} node '{node_name}'"
        if location:
            message += f" ({location})"
        if reason:
            message += f": {reason}"
        super().__init__(" ".join(message.split()))
