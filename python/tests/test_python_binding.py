"""The Python module raf_mlir_ir (docs/ecosystem.md, "Python"): parse, run
pass pipelines and print in the Python process. Its results are compared with
raf-opt's on the same input and pipeline; errors are Python exceptions with
located diagnostics."""

import subprocess
import sys

import pytest

from raf_tools import BUILD, RAF_OPT, require_tools

require_tools(RAF_OPT)
sys.path.insert(0, str(BUILD / "python"))
ir = pytest.importorskip(
    "raf_mlir_ir",
    reason="raf_mlir_ir is not built (RAF_ENABLE_PYTHON needs pybind11-dev)")

MLP = """\
func.func @main(%x: tensor<4x8xf32>, %w: tensor<16x8xf32>) -> tensor<4x16xf32> {
  %0 = relay.nn.dense %x, %w : (tensor<4x8xf32>, tensor<16x8xf32>)
  %1 = relay.nn.relu %0 : (tensor<4x16xf32>)
  return %1 : tensor<4x16xf32>
}
"""

LOSS = """\
func.func @main(%x: tensor<4x8xf32>, %w: tensor<16x8xf32>) -> tensor<f32> {
  %0 = relay.nn.dense %x, %w : (tensor<4x8xf32>, tensor<16x8xf32>)
  %1 = relay.nn.relu %0 : (tensor<4x16xf32>)
  %2 = relay.sum %1 : (tensor<4x16xf32>)
  return %2 : tensor<f32>
}
"""


def raf_opt(text, *args):
    return subprocess.run([str(RAF_OPT), *args, "-"], input=text, text=True,
                          capture_output=True, check=True).stdout


@pytest.fixture(scope="module")
def ctx():
    return ir.Context()


def test_dialects(ctx):
    for name in ("relay", "tcg", "vta", "vta_isa", "linalg", "affine", "llvm"):
        assert name in ctx.dialects


def test_parse_and_print_round_trip(ctx):
    module = ctx.parse(MLP)
    assert str(module) + "\n" == raf_opt(MLP)
    assert ctx.parse(str(module)).to_string() == str(module)
    assert '"relay.nn.dense"' in module.to_string(generic=True)
    module.verify()


@pytest.mark.parametrize("text,pipeline", [
    (MLP, "builtin.module(convert-relay-to-linalg)"),
    (LOSS, "builtin.module(raf-autodiff{inline-backward=true},"
           "convert-relay-to-linalg)"),
    (MLP, "builtin.module(raf-cpu-pipeline{threads=1})"),
])
def test_pipelines_match_raf_opt(ctx, text, pipeline):
    module = ctx.parse(text)
    module.run(pipeline)
    # raf-opt ends its output with an empty line.
    assert str(module) + "\n" == raf_opt(text, f"--pass-pipeline={pipeline}")


def test_run_in_steps(ctx):
    module = ctx.parse(MLP)
    module.run("builtin.module(convert-relay-to-linalg)")
    assert "linalg.matmul" in str(module)
    assert "relay." not in str(module)
    # Upstream passes are registered too.
    module.run("builtin.module(canonicalize,cse)")
    module.verify()


def test_parse_error_is_located(ctx):
    with pytest.raises(ir.MLIRError) as info:
        ctx.parse("func.func @f() {\n  %0 = relay.nn.bogus\n}\n", name="bad.mlir")
    assert "bad.mlir:2:" in str(info.value)
    assert "error:" in str(info.value)
    assert isinstance(info.value, ValueError)


def test_unknown_pass(ctx):
    module = ctx.parse(MLP)
    with pytest.raises(ir.MLIRError, match="raf-no-such-pass"):
        module.run("builtin.module(raf-no-such-pass)")


def test_failing_pass_reports_without_module_dump(ctx):
    module = ctx.parse(MLP)
    with pytest.raises(ir.MLIRError) as info:
        module.run("builtin.module(raf-autodiff{entry=nope})")
    assert "error:" in str(info.value)
    assert "see current operation" not in str(info.value)


def test_parse_file_and_module_outlives_context(tmp_path):
    path = tmp_path / "mlp.mlir"
    path.write_text(MLP)
    module = ir.Context().parse_file(str(path))
    # The module keeps its context alive.
    module.run("builtin.module(convert-relay-to-linalg)")
    assert "linalg.matmul" in str(module)
    with pytest.raises(ir.MLIRError, match="cannot open"):
        ir.Context().parse_file(str(tmp_path / "missing.mlir"))
