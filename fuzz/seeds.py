"""Writes a fuzz target's seed corpus, taken from the tests (docs/fuzzing.md).

Usage: seeds.py TARGET OUTDIR TOOLS_DIR

  mlir-parse, relay-export, pass-pipeline: every .mlir test and example, and
      each chunk of the split-input-file tests (`// -----`);
  relay-import: every Relay text program of the tests (split-file sections
      of the tests that run --import-relay);
  vta-binary, vta-sim: the binaries raf-translate --vta-isa-to-bin writes
      for every test that holds a vta_isa.program;
  npy: arrays written by numpy (every dtype the reader knows, versions 1.0,
      2.0 and 3.0, empty and scalar shapes).

Files are named by the SHA-1 of their contents, as libFuzzer names its
corpus, so rerunning adds nothing twice.
"""

import hashlib
import io
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
TARGET, OUT, TOOLS = sys.argv[1], pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3])
OUT.mkdir(parents=True, exist_ok=True)
written = 0


def write(data):
    global written
    if isinstance(data, str):
        data = data.encode()
    if not data or len(data) > 64 * 1024:
        return
    path = OUT / hashlib.sha1(data).hexdigest()
    if not path.exists():
        path.write_bytes(data)
        written += 1


def mlir_files():
    for d in ("test", "examples"):
        yield from sorted((ROOT / d).rglob("*.mlir"))


def mlir_chunks():
    for path in mlir_files():
        text = path.read_text(errors="replace")
        yield text
        if "// -----" in text:
            yield from re.split(r"^// -----\s*$", text, flags=re.M)


def split_file_sections(text):
    """The `//--- name` sections of a split-file test."""
    parts = re.split(r"^//--- (\S+)\s*$", text, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2]))


if TARGET in ("mlir-parse", "relay-export", "pass-pipeline"):
    for chunk in mlir_chunks():
        write(chunk)
elif TARGET == "relay-import":
    for path in sorted((ROOT / "test").rglob("*.test")):
        text = path.read_text(errors="replace")
        if "import-relay" not in text:
            continue
        for name, body in split_file_sections(text).items():
            if not name.endswith(".mlir"):
                write(body)
elif TARGET in ("vta-binary", "vta-sim"):
    # vta_isa programs as they are, and those the tile-level (vta) and
    # packed-GEMM (tcg) tests lower to.
    lowerings = {"vta_isa.program": [], "vta.": ["--convert-vta-to-vta-isa"],
                 "tcg.": ["--tcg-lower-to-vta"]}
    with tempfile.TemporaryDirectory() as tmp:
        for i, chunk in enumerate(mlir_chunks()):
            for marker, passes in lowerings.items():
                if marker not in chunk:
                    continue
                src = pathlib.Path(tmp) / f"{i}.mlir"
                src.write_text(chunk)
                try:
                    if passes:
                        opt = subprocess.run([str(TOOLS / "raf-opt"), str(src)] + passes,
                                             capture_output=True, timeout=30)
                        if opt.returncode != 0:
                            continue
                        src.write_bytes(opt.stdout)
                    run = subprocess.run([str(TOOLS / "raf-translate"), "--vta-isa-to-bin",
                                          str(src), "-o", "-"], capture_output=True,
                                         timeout=30)
                except (subprocess.TimeoutExpired, FileNotFoundError):
                    continue
                if run.returncode == 0:
                    write(run.stdout)
elif TARGET == "npy":
    import numpy as np

    arrays = [np.arange(6).astype(t).reshape(2, 3) for t in
              ("bool", "i1", "i2", "i4", "i8", "u1", "f2", "f4", "f8")]
    arrays += [np.zeros((0, 3), "f4"), np.array(1.5, "f4"),
               np.arange(24, dtype="<i4").reshape(2, 3, 4),
               np.arange(4, dtype=">f4"), np.asfortranarray(np.eye(2))]
    for a in arrays:
        for version in ((1, 0), (2, 0), (3, 0)):
            buf = io.BytesIO()
            np.lib.format.write_array(buf, a, version=version)
            write(buf.getvalue())
else:
    sys.exit(f"seeds.py: unknown target '{TARGET}'")
print(f"seeds.py: {written} new seeds for {TARGET} in {OUT}")
