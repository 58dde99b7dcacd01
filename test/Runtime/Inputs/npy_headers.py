"""Reads crafted .npy files with numpy and with raf-run and compares.

Usage: npy_headers.py RAF_RUN WORKDIR

Every case is a header (and data) written byte by byte; numpy.load is the
oracle. Where numpy reads an array, raf-run must read the same dtype, shape
and bytes (it returns the argument from an identity function and writes it
with --output), or refuse it with an error naming a documented restriction
(big-endian, Fortran order, structured types, trailing bytes); where numpy
refuses the file, raf-run must refuse it too. Prints one line per case and
"all N cases agree" at the end.
"""

import io
import pathlib
import struct
import subprocess
import sys

import numpy as np

RAF_RUN, WORK = sys.argv[1], pathlib.Path(sys.argv[2])
WORK.mkdir(parents=True, exist_ok=True)

F4 = np.array([1.5, 2.5], np.float32).tobytes()
I4 = np.array([1, 2], np.int32).tobytes()
GOOD = "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }"


def npy(header, data, major=1, minor=0):
    raw = header.encode("latin1" if major < 3 else "utf8")
    size = struct.pack("<H" if major == 1 else "<I", len(raw))
    return b"\x93NUMPY" + bytes([major, minor]) + size + raw + data


# name, file contents, what raf-run may refuse although numpy reads it
CASES = [
    ("plain", npy(GOOD, F4), None),
    ("version 2.0", npy(GOOD, F4, major=2), None),
    ("version 3.0 (UTF-8)", npy(GOOD, F4, major=3), None),
    ("version 1.1", npy(GOOD, F4, minor=1), None),
    ("version 4.0", npy(GOOD, F4, major=4), None),
    ("version 3.0, not UTF-8", npy(GOOD, F4, major=3)[:12] + b"\xff" + npy(GOOD, F4, major=3)[13:], None),
    ("duplicated descr: the last wins",
     npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'descr': '<i4'}", I4), None),
    ("duplicated shape: the last wins",
     npy("{'descr': '<f4', 'shape': (3,), 'fortran_order': False, 'shape': (2,)}", F4), None),
    ("unknown key", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'x': 1}", F4), None),
    ("missing key", npy("{'descr': '<f4', 'shape': (2,)}", F4), None),
    ("not a dict", npy("[('descr', '<f4')]", F4), None),
    ("a set", npy("{'descr', 'fortran_order', 'shape'}", F4), None),
    ("double quotes, comments, newlines, continuation",
     npy('{"descr": "<f4", # the type\n "fortran_order": \\\n False,\n "shape": (2,)}\n', F4), None),
    ("concatenated, escaped and prefixed strings",
     npy("{u'de' \"scr\": '<\\x66' r'4', 'fortran_order': False, 'shape': (2,)}", F4), None),
    ("triple quotes", npy("{'''descr''': '<f4', 'fortran_order': False, 'shape': (2,)}", F4), None),
    ("bytes key", npy("{b'descr': '<f4', 'fortran_order': False, 'shape': (2,)}", F4), None),
    ("descr without byte order", npy("{'descr': 'f4', 'fortran_order': False, 'shape': (2,)}", F4), None),
    ("descr '|f4'", npy("{'descr': '|f4', 'fortran_order': False, 'shape': (2,)}", F4), None),
    ("descr by name", npy("{'descr': 'int32', 'fortran_order': False, 'shape': (2,)}", I4), None),
    ("descr '?'", npy("{'descr': '?', 'fortran_order': False, 'shape': (2,)}", b"\x01\x00"), None),
    ("descr '>i1'", npy("{'descr': '>i1', 'fortran_order': False, 'shape': (2,)}", b"\x01\xff"), None),
    ("descr with a space", npy("{'descr': '<i4 ', 'fortran_order': False, 'shape': (2,)}", I4), None),
    ("big-endian", npy("{'descr': '>f4', 'fortran_order': False, 'shape': (2,)}", F4), "unsupported element type"),
    ("structured", npy("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,)}", F4), "structured"),
    ("Fortran order", npy("{'descr': '<f4', 'fortran_order': True, 'shape': (2,)}", F4), "Fortran"),
    ("fortran_order 0", npy("{'descr': '<f4', 'fortran_order': 0, 'shape': (2,)}", F4), None),
    ("fortran_order None", npy("{'descr': '<f4', 'fortran_order': None, 'shape': (2,)}", F4), None),
    ("shape list", npy("{'descr': '<f4', 'fortran_order': False, 'shape': [2]}", F4), None),
    ("shape int", npy("{'descr': '<f4', 'fortran_order': False, 'shape': 2}", F4), None),
    ("shape (True, 2)", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (True, 2)}", F4), None),
    ("shape negative", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (-2,)}", F4), None),
    ("shape float", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2.0,)}", F4), None),
    ("shape hex, sign, parentheses", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (+(0x1), 0b10,)}", F4), None),
    ("shape with Python 2 L (1.0)", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2L,)}", F4), None),
    ("shape with Python 2 L (3.0)", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2L,)}", F4, major=3), None),
    ("shape with leading zero", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (02,)}", F4), None),
    ("scalar", npy("{'descr': '<f4', 'fortran_order': False, 'shape': ()}", F4[:4]), None),
    ("2-D, trailing commas", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (1,2,),}", F4), None),
    ("a name", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (n,)}", F4), None),
    ("unterminated", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2,)", F4), None),
    ("header over 10000 bytes", npy(GOOD + " " * 10000, F4, major=2), None),
    ("data too short", npy(GOOD, F4[:4]), None),
    ("data too long (numpy ignores the rest)", npy(GOOD, F4 + b"junk"), "data is 12 bytes"),
    ("deeply nested", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'x': " + "(" * 300 + ")" * 300 + "}", F4), None),
]


def numpy_reads(contents):
    try:
        return np.load(io.BytesIO(contents)), None
    except Exception as error:  # numpy raises several types
        return None, f"{type(error).__name__}: {error}"


# (kind, size) -> MLIR element type; others (structured) get f32.
MLIR_TYPES = {("f", 4): "f32", ("i", 4): "i32", ("b", 1): "i1", ("i", 1): "i8"}

agree = 0
for index, (name, contents, refusal) in enumerate(CASES):
    path = WORK / f"case{index}.npy"
    path.write_bytes(contents)
    expected, numpy_error = numpy_reads(contents)
    # An identity function of the type numpy read (any type when it refused).
    if expected is not None:
        element = MLIR_TYPES.get((expected.dtype.kind, expected.dtype.itemsize), "f32")
        dims = "x".join(str(d) for d in expected.shape)
        tensor = f"tensor<{dims + 'x' if dims else ''}{element}>"
    else:
        tensor = "tensor<2xf32>"
    module = WORK / f"case{index}.mlir"
    module.write_text(f"func.func @main(%x: {tensor}) -> {tensor} {{\n"
                      f"  return %x : {tensor}\n}}\n")
    out = WORK / f"case{index}.out.npy"
    run = subprocess.run([RAF_RUN, str(module), "--target=interp",
                          f"--input={path}", f"--output={out}"],
                         capture_output=True, text=True)
    message = run.stderr.strip().splitlines()[0] if run.stderr.strip() else ""
    crashed = run.returncode < 0 or "Stack dump" in run.stderr
    if crashed:
        verdict = f"CRASH {run.returncode}"
    elif expected is None:
        verdict = ("agree: both refuse" if run.returncode != 0 and "error" in message
                   else f"DISAGREE: numpy refuses ({numpy_error}), raf-run reads it")
    elif run.returncode != 0:
        verdict = (f"agree: refused as documented ({refusal})"
                   if refusal and refusal in message
                   else f"DISAGREE: numpy reads {expected.dtype} {expected.shape}, raf-run: {message}")
    else:
        got = np.load(out)
        same = (got.dtype == expected.dtype and got.shape == expected.shape
                and got.tobytes() == expected.tobytes())
        verdict = ("agree: same array" if same
                   else f"DISAGREE: numpy {expected.dtype} {expected.shape} {expected.tolist()}, "
                        f"raf-run {got.dtype} {got.shape} {got.tolist()}")
    agree += verdict.startswith("agree")
    print(f"{name}: {verdict}")
    if not verdict.startswith("agree"):
        print(f"  raf-run said: {message}")
print(f"all {len(CASES)} cases agree" if agree == len(CASES)
      else f"{len(CASES) - agree} of {len(CASES)} cases disagree")
