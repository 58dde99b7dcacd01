"""Relay text for the int8 operator tests of the accelerator path
(test_tcg_strategies.py, test_vta_lowering.py): one operator with int8
operands accumulated in int32, and a checked tool run."""

import subprocess
from pathlib import Path


def tensor_type(shape, dtype):
    return "tensor<" + "".join(f"{d}x" for d in shape) + dtype + ">"


def i64_array(values):
    return "array<i64: " + ", ".join(str(v) for v in values) + ">"


def relay_function(op, attrs, shapes, result_shape):
    """@main applying relay.<op> to int8 arguments of the given shapes, with
    an int32 result (out_dtype = i32)."""
    args = ", ".join(f"%a{i}: {tensor_type(s, 'i8')}"
                     for i, s in enumerate(shapes))
    operands = ", ".join(f"%a{i}" for i in range(len(shapes)))
    types = ", ".join(tensor_type(s, "i8") for s in shapes)
    result = tensor_type(result_shape, "i32")
    attr_text = ", ".join(attrs + ["out_dtype = i32"])
    return (f"func.func @main({args}) -> {result} {{\n"
            f"  %0 = relay.{op} {operands} {{{attr_text}}} : ({types}) -> "
            f"{result}\n"
            f"  return %0 : {result}\n}}\n")


def run_tool(command):
    """Runs a tool and returns its stdout; a non-zero exit fails the test
    with the tool's stderr."""
    result = subprocess.run([str(c) for c in command], capture_output=True,
                            text=True, timeout=900)
    assert result.returncode == 0, (
        f"{Path(str(command[0])).name} failed:\n{result.stderr[:4000]}")
    return result.stdout
