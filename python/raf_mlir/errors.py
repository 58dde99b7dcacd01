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


def one_line(error: BaseException, with_type: bool = True, limit: int = 1000) -> str:
    """``error`` as one line (for command-line diagnostics): its message with
    whitespace runs collapsed, prefixed by its type unless ``with_type`` is
    false."""
    text = " ".join(str(error).split()) or type(error).__name__
    if len(text) > limit:
        text = text[:limit] + " ..."
    return f"{type(error).__name__}: {text}" if with_type else text
