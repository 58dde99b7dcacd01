"""Writes the .npy files of issue-inputs.test into the directory argv[1].

Headers are written byte by byte (numpy/lib/format.py's layout), because
numpy never writes a duplicated key, an unknown key or a shape its data does
not fill.
"""

import pathlib
import struct
import sys

import numpy as np

out = pathlib.Path(sys.argv[1])
F4 = np.array([1.5, 2.5], np.float32).tobytes()
I4 = np.array([1, 2], np.int32).tobytes()


def npy(header, data, major=1):
    raw = header.encode("latin1" if major < 3 else "utf8")
    size = struct.pack("<H" if major == 1 else "<I", len(raw))
    return b"\x93NUMPY" + bytes([major, 0]) + size + raw + data


(out / "duplicated.npy").write_bytes(npy(
    "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'descr': '<i4'}", I4))
(out / "version3.npy").write_bytes(npy(
    "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", F4, major=3))
(out / "unknown-key.npy").write_bytes(npy(
    "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'x': 1}", F4))
(out / "huge-shape.npy").write_bytes(npy(
    "{'descr': '<f4', 'fortran_order': False, 'shape': (1099511627776,), }", F4))
