"""The conventions of the pipelines (docs/ecosystem.md) through the Python
module raf_mlir_ir, in the Python process: exported names with
entry-prefix, the foreign-op check and the enumerated options of a pipeline
are the same as raf-opt's."""

import sys

import pytest

from raf_tools import BUILD, RAF_OPT, require_tools

require_tools(RAF_OPT)
sys.path.insert(0, str(BUILD / "python"))
ir = pytest.importorskip(
    "raf_mlir_ir",
    reason="raf_mlir_ir is not built (RAF_ENABLE_PYTHON needs pybind11-dev)")

SQUARE = """\
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.multiply %x, %x : (tensor<4xf32>, tensor<4xf32>)
  return %0 : tensor<4xf32>
}
"""

TOSA = """\
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tosa.abs %x : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
"""


def test_entry_prefix():
    ctx = ir.Context()
    m = ctx.parse(SQUARE)
    m.run("builtin.module(raf-cpu-pipeline{threads=1 entry-prefix=raf_})")
    text = str(m)
    assert "llvm.func @raf_main(" in text
    assert "llvm.func @_mlir_ciface_raf_main(" in text
    assert "llvm.func @main(" not in text


def test_foreign_op_names_conversion():
    ctx = ir.Context()
    m = ctx.parse(TOSA)
    with pytest.raises(ir.MLIRError) as error:
        m.run("builtin.module(raf-cpu-pipeline)")
    assert ("tosa.abs: no conversion to relay/linalg in this pipeline; "
            "run --convert-tosa-to-relay first") in str(error.value)
    m.run("builtin.module(convert-tosa-to-relay, raf-cpu-pipeline)")
    assert "llvm.func @main(" in str(m)


def test_enumerated_pipeline_option():
    ctx = ir.Context()
    m = ctx.parse(SQUARE)
    with pytest.raises(ir.MLIRError) as error:
        m.run("builtin.module(raf-cpu-pipeline{blas=maybe})")
    assert ("option 'blas' of raf-cpu-pipeline: unknown value 'maybe'; "
            "expected one of auto, on, off") in str(error.value)
