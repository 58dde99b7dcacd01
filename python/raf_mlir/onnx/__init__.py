"""``python3 -m raf_mlir.onnx``: the ONNX frontend's command line.

The library API is :func:`raf_mlir.onnx_frontend.import_onnx`.
"""
