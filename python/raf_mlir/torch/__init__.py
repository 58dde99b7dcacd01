"""``python3 -m raf_mlir.torch``: the PyTorch frontend's command line.

The library API is :func:`raf_mlir.torch_frontend.import_module`.
"""
