"""Tests of the torch.fx frontend (raf_mlir.torch_frontend).

Every imported module is written to disk and parsed and verified by
``raf-opt`` (the relay dialect's shape inference runs at parse time and
checks every result type the frontend printed). The translation's semantics
are checked numerically against PyTorch with the reference evaluator
``raf_mlir.relay_eval``, and -- once ``raf-run`` is built -- with
``raf_mlir.compare.run_and_compare``.

Tools are looked up in ``$RAF_BUILD_DIR/bin`` (default ``<repo>/build/bin``).
"""

from __future__ import annotations

import copy
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision

sys.path.insert(0, str(Path(__file__).resolve().parent))

from raf_mlir.compare import run_and_compare  # noqa: E402
from raf_mlir.relay_eval import evaluate  # noqa: E402
from raf_mlir.torch_frontend import (ImportedModule, UnsupportedOperationError,  # noqa: E402
                                     import_module)
from torch_models import FunctionalMix, make_small_cnn  # noqa: E402

from raf_tools import REPO, RAF_OPT, RAF_RUN  # noqa: E402


# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def raf_opt() -> Path:
    if not RAF_OPT.exists():
        pytest.skip(f"raf-opt not found at {RAF_OPT} (build it or set RAF_BUILD_DIR)")
    return RAF_OPT


@pytest.fixture(scope="module")
def raf_run() -> Path:
    if not RAF_RUN.exists():
        pytest.skip(f"raf-run not found at {RAF_RUN} (build it or set RAF_BUILD_DIR)")
    try:
        probe = subprocess.run([str(RAF_RUN), "--help"], capture_output=True, timeout=60)
    except OSError as error:
        pytest.skip(f"raf-run at {RAF_RUN} cannot be executed: {error}")
    if probe.returncode != 0:
        pytest.skip(f"'{RAF_RUN} --help' failed with exit code {probe.returncode}")
    return RAF_RUN


def verify(imported: ImportedModule, directory: Path, raf_opt: Path) -> str:
    """Writes the module and checks that raf-opt parses and verifies it."""
    path = imported.write(directory)
    result = subprocess.run([str(raf_opt), str(path)], capture_output=True, text=True,
                            timeout=600)
    assert result.returncode == 0, f"raf-opt rejected {path}:\n{result.stderr[:4000]}"
    return path.read_text()


def count(text: str, op: str) -> int:
    """Number of ``relay.<op>`` operations in ``text``."""
    return len(re.findall(rf"= relay\.{re.escape(op)} ", text))


def signature_arguments(text: str, function: str = "forward") -> list:
    header = re.search(rf"func\.func @{function}\((.*?)\)\s*->", text, re.S).group(1)
    return re.findall(r"(%[\w.$-]+): (tensor<[^>]*>)", header)


def check_manifest(imported: ImportedModule, directory: Path, text: str) -> dict:
    """The manifest, the .npy files and the signature agree."""
    manifest = json.loads((directory / "manifest.json").read_text())
    args = signature_arguments(text, imported.function_name)
    assert len(manifest["arguments"]) == len(args) == len(imported.arguments)
    for entry, (_, type_text) in zip(manifest["arguments"], args):
        array = np.load(directory / entry["npy"])
        assert list(array.shape) == entry["shape"]
        assert array.dtype.name == entry["dtype"]
        dims = "x".join(str(d) for d in entry["shape"])
        assert type_text.startswith(f"tensor<{dims}x" if dims else "tensor<")
    kinds = [a["kind"] for a in manifest["arguments"]]
    inputs = kinds.count("input")
    assert kinds[:inputs] == ["input"] * inputs  # inputs come first
    assert set(kinds[inputs:]) <= {"parameter", "state"}
    return manifest


def check_numerics(imported: ImportedModule, atol: float = 1e-4, rtol: float = 1e-4) -> None:
    """The emitted function computes what PyTorch computes."""
    outputs = evaluate(imported.mlir_text, imported.argument_arrays(), imported.function_name)
    assert len(outputs) == len(imported.reference_outputs)
    for got, expected in zip(outputs, imported.reference_outputs):
        assert got.shape == expected.shape
        np.testing.assert_allclose(got, expected, rtol=rtol, atol=atol)


def randomize_batch_norm(model: nn.Module) -> nn.Module:
    """Non-trivial running statistics, so batch norm is really tested."""
    generator = torch.Generator().manual_seed(1)
    for module in model.modules():
        if isinstance(module, nn.modules.batchnorm._BatchNorm):
            n = module.num_features
            module.running_mean.copy_(torch.rand(n, generator=generator) - 0.5)
            module.running_var.copy_(torch.rand(n, generator=generator) + 0.5)
            module.weight.data.copy_(torch.rand(n, generator=generator) + 0.5)
            module.bias.data.copy_(torch.rand(n, generator=generator) - 0.5)
    return model


def torchvision_model(name: str) -> nn.Module:
    torch.manual_seed(0)
    return randomize_batch_norm(getattr(torchvision.models, name)())


# ---------------------------------------------------------------------------
# Vision models
# ---------------------------------------------------------------------------


def test_resnet18(tmp_path, raf_opt):
    x = torch.randn(1, 3, 224, 224)
    imported = import_module(torchvision_model("resnet18"), x)
    text = verify(imported, tmp_path, raf_opt)
    assert count(text, "nn.conv2d") == 20  # 17 + 3 downsample projections
    assert count(text, "nn.batch_norm") == 20
    assert count(text, "nn.relu") == 17
    assert count(text, "add") == 8
    assert count(text, "nn.max_pool2d") == 1
    assert count(text, "nn.global_avg_pool2d") == 1
    assert count(text, "nn.dense") == 1
    assert "training = true" not in text
    manifest = check_manifest(imported, tmp_path, text)
    names = [a["name"] for a in manifest["arguments"]]
    assert names[:3] == ["x", "conv1.weight", "bn1.weight"]
    assert names[-2:] == ["fc.weight", "fc.bias"]
    assert not any(n.endswith("num_batches_tracked") for n in names)
    assert len(names) == 1 + 20 + 20 * 4 + 2
    assert manifest["arguments"][1]["npy"] == "001_conv1.weight.npy"
    assert re.search(r"-> tensor<1x1000xf32> \{", text)
    check_numerics(imported)


def test_resnet50(tmp_path, raf_opt):
    imported = import_module(torchvision_model("resnet50"), torch.randn(1, 3, 224, 224))
    text = verify(imported, tmp_path, raf_opt)
    assert count(text, "nn.conv2d") == 53
    assert count(text, "nn.batch_norm") == 53
    assert count(text, "add") == 16
    check_manifest(imported, tmp_path, text)


def test_mobilenet_v2(tmp_path, raf_opt):
    imported = import_module(torchvision_model("mobilenet_v2"), torch.randn(1, 3, 224, 224))
    text = verify(imported, tmp_path, raf_opt)
    assert count(text, "nn.conv2d") == 52
    assert len(re.findall(r"relay\.nn\.conv2d [^\n]*groups = ", text)) == 17  # depthwise
    # ReLU6 = relu then minimum with 6.
    assert count(text, "minimum") == 35
    assert "relay.constant dense<6.0> : tensor<f32>" in text
    assert count(text, "add") == 10
    check_manifest(imported, tmp_path, text)
    check_numerics(imported)


def test_small_cnn_functional_and_bias(tmp_path, raf_opt):
    imported = import_module(make_small_cnn(), torch.randn(2, 3, 16, 16))
    text = verify(imported, tmp_path, raf_opt)
    assert count(text, "nn.avg_pool2d") == 1
    assert count(text, "nn.bias_add") == 2  # conv bias (axis 1) and linear bias
    check_numerics(imported)


# ---------------------------------------------------------------------------
# Transformers
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("batch_first", [True, False])
@pytest.mark.parametrize("norm_first", [False, True])
@pytest.mark.parametrize("activation", ["relu", "gelu"])
def test_transformer_encoder_layer(tmp_path, raf_opt, batch_first, norm_first, activation):
    torch.manual_seed(0)
    layer = nn.TransformerEncoderLayer(d_model=64, nhead=4, dim_feedforward=128,
                                       batch_first=batch_first, norm_first=norm_first,
                                       activation=activation)
    x = torch.randn(2, 10, 64) if batch_first else torch.randn(10, 2, 64)
    imported = import_module(layer, x)
    text = verify(imported, tmp_path, raf_opt)
    assert count(text, "nn.dense") == 4  # fused qkv, out, ff1, ff2
    assert count(text, "split") == 1
    assert count(text, "nn.batch_matmul") == 2
    assert count(text, "nn.softmax") == 1
    assert count(text, "nn.layer_norm") == 2
    assert count(text, "nn.gelu" if activation == "gelu" else "nn.relu") == 1
    assert count(text, "nn.dropout") == 0  # eval mode
    # Split q, k, v into heads and merge them; [L, B, E] operands in and out.
    assert count(text, "transpose") == (4 if batch_first else 6)
    check_manifest(imported, tmp_path, text)
    check_numerics(imported)


def test_multihead_attention_cross_with_weights(tmp_path, raf_opt):
    torch.manual_seed(0)
    mha = nn.MultiheadAttention(32, 4)
    nn.init.normal_(mha.in_proj_bias)
    inputs = (torch.randn(5, 2, 32), torch.randn(7, 2, 32), torch.randn(7, 2, 32))
    imported = import_module(mha, inputs)
    text = verify(imported, tmp_path, raf_opt)
    assert count(text, "strided_slice") == 6  # q/k/v rows of in_proj weight and bias
    assert count(text, "mean") == 1  # head-averaged attention weights
    assert len(imported.reference_outputs) == 2
    check_numerics(imported)


def test_bert_base_encoder(tmp_path, raf_opt):
    """12-layer BERT-base-sized encoder: d_model 768, 12 heads, ff 3072, seq 128."""
    torch.manual_seed(0)
    layer = nn.TransformerEncoderLayer(d_model=768, nhead=12, dim_feedforward=3072,
                                       activation="gelu", batch_first=True)
    encoder = nn.TransformerEncoder(layer, num_layers=12, enable_nested_tensor=False)
    imported = import_module(encoder, torch.randn(1, 128, 768))
    text = verify(imported, tmp_path, raf_opt)
    assert count(text, "nn.dense") == 12 * 4
    assert count(text, "nn.batch_matmul") == 12 * 2
    assert count(text, "nn.softmax") == 12
    assert count(text, "nn.layer_norm") == 12 * 2
    assert count(text, "nn.gelu") == 12
    assert "tensor<12x128x128xf32>" in text  # attention scores: batch * heads
    manifest = check_manifest(imported, tmp_path, text)
    assert len(manifest["arguments"]) == 1 + 12 * 12
    check_numerics(imported, atol=2e-4)


def test_functional_mix(tmp_path, raf_opt):
    torch.manual_seed(0)
    inputs = (torch.randn(2, 6, 16), torch.randn(2, 6, 16))
    imported = import_module(FunctionalMix(), inputs)
    text = verify(imported, tmp_path, raf_opt)
    names = [a.name for a in imported.arguments]
    assert names == ["x", "y", "w", "b", "norm_weight", "offset"]
    assert count(text, "strided_slice") == 1  # joined[:, 0]
    assert count(text, "concatenate") == 1
    assert len(imported.reference_outputs) == 2
    check_numerics(imported)


# ---------------------------------------------------------------------------
# Losses and training mode
# ---------------------------------------------------------------------------


class _Classifier(nn.Module):
    """conv + batch norm (called twice) + linear head + a loss."""

    def __init__(self, loss: nn.Module) -> None:
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, padding=1)
        self.bn = nn.BatchNorm2d(4, momentum=0.3)
        self.fc = nn.Linear(4, 5)
        self.loss = loss

    def forward(self, x, target):
        h = torch.relu(self.bn(self.conv(x)))
        h = self.bn(h)  # the second call sees the first call's statistics
        logits = self.fc(F.adaptive_avg_pool2d(h, 1).flatten(1))
        return self.loss(logits, target)


def test_training_mode_batch_norm(tmp_path, raf_opt):
    torch.manual_seed(0)
    model = randomize_batch_norm(_Classifier(nn.CrossEntropyLoss()))
    before = {k: v.clone() for k, v in model.state_dict().items()}
    inputs = (torch.randn(4, 3, 6, 6), torch.tensor([0, 4, 2, 2]))
    imported = import_module(model, inputs, function_name="main", training=True)
    text = verify(imported, tmp_path, raf_opt)
    assert count(text, "nn.batch_norm") == 2
    assert text.count("training = true") == 2 and "momentum = 0.3 : f64" in text
    # The model is left in training mode with its buffers as they were.
    assert model.training
    for name, value in model.state_dict().items():
        assert torch.equal(value, before[name]), name
    # loss, then the running mean and variance after both calls.
    assert len(imported.reference_outputs) == 3
    assert re.search(r"-> \(tensor<f32>, tensor<4xf32>, tensor<4xf32>\)", text)
    reference = copy.deepcopy(model)
    loss = reference(*inputs)
    np.testing.assert_allclose(imported.reference_outputs[0], loss.detach().numpy(), rtol=1e-6)
    np.testing.assert_allclose(imported.reference_outputs[1], reference.bn.running_mean.numpy())
    np.testing.assert_allclose(imported.reference_outputs[2], reference.bn.running_var.numpy())
    check_numerics(imported)


@pytest.mark.parametrize("loss, target, ops", [
    (nn.CrossEntropyLoss(), torch.tensor([0, 4, 2, 1]), ["nn.log_softmax", "nn.nll_loss"]),
    (nn.CrossEntropyLoss(reduction="sum", ignore_index=2), torch.tensor([0, 4, 2, 1]),
     ["nn.log_softmax", "nn.nll_loss"]),
    (nn.CrossEntropyLoss(), torch.softmax(torch.randn(4, 5), 1), ["nn.cross_entropy"]),
])
def test_losses(tmp_path, raf_opt, loss, target, ops):
    torch.manual_seed(0)
    imported = import_module(_Classifier(loss), (torch.randn(4, 3, 6, 6), target))
    text = verify(imported, tmp_path, raf_opt)
    for op in ops:
        assert count(text, op) == 1
    if loss.ignore_index != -100:
        assert "ignore_index = 2 : i64" in text
    check_numerics(imported)


class _NllWithDropout(nn.Module):
    def __init__(self, p: float) -> None:
        super().__init__()
        self.fc = nn.Linear(4, 3)
        self.p = p

    def forward(self, x, y):
        return F.nll_loss(F.log_softmax(F.dropout(self.fc(x), self.p, self.training), 1), y)


def test_training_mode_dropout():
    inputs = (torch.randn(2, 4), torch.tensor([0, 2]))
    imported = import_module(_NllWithDropout(0.0), inputs, training=True)
    assert count(imported.mlir_text, "nn.nll_loss") == 1
    check_numerics(imported)
    with pytest.raises(UnsupportedOperationError, match="p=0.5 in training mode"):
        import_module(_NllWithDropout(0.5), inputs, training=True)
    import_module(_NllWithDropout(0.5), inputs)  # eval mode: the identity


# ---------------------------------------------------------------------------
# Options, CLI and errors
# ---------------------------------------------------------------------------


def test_params_as_constants(tmp_path, raf_opt):
    torch.manual_seed(0)
    layer = nn.TransformerEncoderLayer(d_model=32, nhead=4, dim_feedforward=64,
                                       batch_first=True)
    imported = import_module(layer, torch.randn(1, 6, 32), function_name="encoder",
                             params_as_constants=True)
    text = verify(imported, tmp_path, raf_opt)
    assert (tmp_path / "encoder.mlir").exists()
    assert len(imported.params) == 0
    assert [a.kind for a in imported.arguments] == ["input"]
    assert len(signature_arguments(text, "encoder")) == 1
    assert count(text, "constant") >= len(list(layer.parameters()))
    assert 'relay.constant dense<"0x' in text
    check_numerics(imported)


def test_cli_torchvision(tmp_path, raf_opt):
    env = dict(os.environ, PYTHONPATH=str(REPO / "python"))
    result = subprocess.run(
        [sys.executable, "-m", "raf_mlir.torch", "torchvision:resnet18",
         "--input-shape", "1,3,64,64", "--output-dir", str(tmp_path), "--seed", "3"],
        capture_output=True, text=True, env=env, timeout=300)
    assert result.returncode == 0, result.stderr
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["function"] == "forward"
    assert manifest["arguments"][0]["shape"] == [1, 3, 64, 64]
    subprocess.run([str(raf_opt), str(tmp_path / "forward.mlir")], check=True,
                   capture_output=True)
    # Same seed, same weights.
    torch.manual_seed(3)
    expected = torchvision.models.resnet18().state_dict()["conv1.weight"].numpy()
    np.testing.assert_array_equal(np.load(tmp_path / "001_conv1.weight.npy"), expected)


def test_cli_factory_and_errors(tmp_path):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(REPO / "python"), str(REPO / "python" / "tests")]))
    ok = subprocess.run(
        [sys.executable, "-m", "raf_mlir.torch", "torch_models:make_encoder_layer",
         "--input-shape", "1,8,64", "--output-dir", str(tmp_path / "ok"),
         "--function-name", "layer", "--params-as-constants"],
        capture_output=True, text=True, env=env, timeout=300)
    assert ok.returncode == 0, ok.stderr
    assert (tmp_path / "ok" / "layer.mlir").exists()
    missing = subprocess.run(
        [sys.executable, "-m", "raf_mlir.torch", "torchvision:no_such_model",
         "--input-shape", "1,3,8,8", "--output-dir", str(tmp_path / "bad")],
        capture_output=True, text=True, env=env, timeout=300)
    assert missing.returncode != 0
    assert "no_such_model" in missing.stderr


class _Sorts(nn.Module):
    def forward(self, x):
        return torch.sort(torch.relu(x), dim=-1)[0]


class _Fft(nn.Module):
    def forward(self, x):
        return torch.fft.fft(x).real


class _Conv1d(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(4, 4, 3)

    def forward(self, x):
        return self.conv(x)


class _MaskedAttention(nn.Module):
    def __init__(self):
        super().__init__()
        self.attn = nn.MultiheadAttention(4, 2, batch_first=True)

    def forward(self, x, mask):
        return self.attn(x, x, x, attn_mask=mask)[0]


class _RoundedDiv(nn.Module):
    def __init__(self, mode, method=False):
        super().__init__()
        self.mode = mode
        self.method = method

    def forward(self, x, y):
        if self.method:
            return x.div(y, rounding_mode=self.mode)
        return torch.div(x, y, rounding_mode=self.mode)


class _FloorDivOperator(nn.Module):
    def forward(self, x, y):
        return x // y


class _FloorDivide(nn.Module):
    def forward(self, x, y):
        return torch.floor_divide(x, y)


_DIV_INPUTS = (torch.tensor([[7.0, -7.0, 5.5]]), torch.full((1, 3), 2.0))


@pytest.mark.parametrize("model, inputs, operation, node", [
    (_Sorts(), (torch.randn(2, 4),), "torch.sort", "sort"),
    (_RoundedDiv("floor"), _DIV_INPUTS, "torch.div", "div"),
    (_RoundedDiv("trunc"), _DIV_INPUTS, "torch.div", "div"),
    (_RoundedDiv("floor", method=True), _DIV_INPUTS, "Tensor.div", "div"),
    (_FloorDivOperator(), _DIV_INPUTS, "operator.floordiv", "floordiv"),
    (_FloorDivide(), _DIV_INPUTS, "torch.floor_divide", "floor_divide"),
    (_Fft(), (torch.randn(2, 4),), "torch.fft.fft", "fft_fft"),
    (_Conv1d(), (torch.randn(2, 4, 6),), "torch.nn.modules.conv.Conv1d", "conv"),
    (_MaskedAttention(), (torch.randn(1, 3, 4), torch.zeros(3, 3)),
     "torch.nn.modules.activation.MultiheadAttention", "attn"),
])
def test_unsupported_operation(model, inputs, operation, node):
    with pytest.raises(UnsupportedOperationError) as info:
        import_module(model, inputs)
    assert info.value.operation == operation
    assert info.value.node_name == node
    assert f"'{operation}'" in str(info.value) and f"'{node}'" in str(info.value)
    if isinstance(model, _RoundedDiv):
        assert f"rounding_mode='{model.mode}'" in str(info.value)


# ---------------------------------------------------------------------------
# Numerical comparison with raf-run
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["resnet18", "resnet50", "mobilenet_v2"])
def test_raf_run_torchvision(tmp_path, raf_run, name):
    """torchvision models compiled for the CPU against PyTorch."""
    x = torch.randn(1, 3, 224, 224)
    imported = import_module(torchvision_model(name), x)
    result = run_and_compare(imported, x, raf_run, target="cpu", rtol=1e-3, atol=1e-3,
                             workdir=tmp_path)
    assert result.ok, str(result)


@pytest.mark.parametrize("target", ["cpu"])
def test_raf_run_transformer_encoder_layer(tmp_path, raf_run, target):
    torch.manual_seed(0)
    layer = nn.TransformerEncoderLayer(d_model=64, nhead=4, dim_feedforward=128,
                                       batch_first=True)
    x = torch.randn(2, 10, 64)
    imported = import_module(layer, x)
    result = run_and_compare(imported, x, raf_run, target=target, rtol=1e-4, atol=1e-4,
                             workdir=tmp_path)
    assert result.ok, str(result)


@pytest.mark.parametrize("target", ["cpu"])
def test_raf_run_bert_base_encoder(tmp_path, raf_run, target):
    """The 12-layer BERT-base-sized encoder, compiled and run."""
    torch.manual_seed(0)
    layer = nn.TransformerEncoderLayer(d_model=768, nhead=12, dim_feedforward=3072,
                                       activation="gelu", batch_first=True)
    encoder = nn.TransformerEncoder(layer, num_layers=12, enable_nested_tensor=False)
    x = torch.randn(1, 128, 768)
    imported = import_module(encoder, x)
    result = run_and_compare(imported, x, raf_run, target=target, rtol=1e-3, atol=1e-3,
                             workdir=tmp_path)
    assert result.ok, str(result)
