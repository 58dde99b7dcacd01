"""Python side of RAF-MLIR: frontends that emit the ``relay`` dialect.

Modules:

* :mod:`raf_mlir.relay_text` -- an emitter for relay-dialect MLIR text.
* :mod:`raf_mlir.torch_frontend` -- imports a PyTorch ``nn.Module`` through
  ``torch.fx`` (command line: ``python3 -m raf_mlir.torch``).
* :mod:`raf_mlir.compare` -- runs an imported module with ``raf-run`` and
  compares its results with PyTorch's.
"""

from raf_mlir.errors import UnsupportedOperationError

__all__ = ["UnsupportedOperationError"]
