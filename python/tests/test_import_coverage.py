"""Import coverage of the PyTorch (torch.fx) and ONNX frontends.

One small model per operator or construct that torchvision's classifiers
need (activations composed from relay operators, stochastic depth, padding,
shape access, einsum, roll, in-place writes, recurrent layers, ...), each
imported by the torch.fx frontend and -- exported with ``torch.onnx.export``
at opsets 13 and 17 -- by the ONNX frontend, run by ``raf-run`` on
``--target=interp`` and ``--target=cpu`` and compared with PyTorch. Then
scaled-down torchvision ViT, Swin and MaxViT models and three full-size
classifiers (ShuffleNetV2, MobileNetV3, EfficientNet; on the evaluator)
through both frontends, and the clean one-line errors of the command lines.

Tools are looked up in ``$RAF_BUILD_DIR/bin`` (default ``<repo>/build/bin``).
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path
from typing import Callable, Dict, Sequence, Tuple

import numpy as np
import onnx
import pytest
import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision
from torchvision.models.swin_transformer import PatchMergingV2, SwinTransformerBlockV2

sys.path.insert(0, str(Path(__file__).resolve().parent))

from raf_mlir.compare import run_and_compare, run_raf  # noqa: E402
from raf_mlir.errors import FrontendError, UnsupportedOperationError  # noqa: E402
from raf_mlir.onnx_frontend import import_onnx  # noqa: E402
from raf_mlir.torch_frontend import import_module  # noqa: E402

from raf_tools import REPO, RAF_RUN  # noqa: E402

TARGETS = ("interp", "cpu")


@pytest.fixture(scope="module")
def raf_run() -> Path:
    if not RAF_RUN.exists():
        pytest.skip(f"raf-run not found at {RAF_RUN} (build it or set RAF_BUILD_DIR)")
    return RAF_RUN


def randomized(model: nn.Module) -> nn.Module:
    """Eval mode, with running statistics and the weights torchvision
    initialises to zero (classifier heads) made random, so that every
    result depends on every layer."""
    generator = torch.Generator().manual_seed(1)
    with torch.no_grad():
        for module in model.modules():
            if isinstance(module, nn.modules.batchnorm._BatchNorm):
                n = module.num_features
                module.running_mean.copy_(torch.rand(n, generator=generator) - 0.5)
                module.running_var.copy_(torch.rand(n, generator=generator) + 0.5)
        for parameter in model.parameters():
            if parameter.numel() > 1 and not parameter.any():
                parameter.copy_(torch.randn(parameter.shape, generator=generator) * 0.1)
    return model.eval()


def check_torch(model: nn.Module, inputs: Sequence[torch.Tensor], raf_run: Path,
                tmp_path: Path, rtol: float = 1e-4, atol: float = 1e-4,
                targets: Sequence[str] = TARGETS):
    imported = import_module(model, tuple(inputs))
    for target in targets:
        result = run_and_compare(imported, tuple(inputs), raf_run, target=target, rtol=rtol,
                                 atol=atol, workdir=tmp_path / f"torch_{target}")
        assert result.ok, f"{target}: {result}"
    return imported


def check_onnx(model: nn.Module, inputs: Sequence[torch.Tensor], opset: int, raf_run: Path,
               tmp_path: Path, rtol: float = 1e-4, atol: float = 1e-4,
               targets: Sequence[str] = TARGETS):
    buffer = io.BytesIO()
    torch.onnx.export(model, tuple(inputs), buffer, opset_version=opset)
    onnx_model = onnx.load_from_string(buffer.getvalue())
    arrays = [t.numpy() for t in inputs]
    imported = import_onnx(onnx_model, example_inputs=arrays)
    with torch.no_grad():
        expected = model(*inputs)
    expected = [expected] if isinstance(expected, torch.Tensor) else list(expected)
    for target in targets:
        outputs, _ = run_raf(imported, arrays, raf_run, target=target,
                             workdir=tmp_path / f"onnx{opset}_{target}")
        assert len(outputs) == len(expected)
        for i, (got, want) in enumerate(zip(outputs, expected)):
            np.testing.assert_allclose(got, want.numpy(), rtol=rtol, atol=atol,
                                       err_msg=f"target {target}, result {i}")
    return imported


# ---------------------------------------------------------------------------
# One model per operator or construct
# ---------------------------------------------------------------------------


class Activation(nn.Module):
    """A linear layer, then the activation on inputs spread over [-6, 6]."""

    def __init__(self, activation: Callable[[torch.Tensor], torch.Tensor]) -> None:
        super().__init__()
        self.linear = nn.Linear(6, 8)
        self.activation = activation

    def forward(self, x):
        return self.activation(self.linear(x) * 4.0)


class Residual(nn.Module):
    """conv + a regulariser that is the identity in eval mode + skip."""

    def __init__(self, regulariser: nn.Module) -> None:
        super().__init__()
        self.conv = nn.Conv2d(4, 4, 3, padding=1)
        self.regulariser = regulariser

    def forward(self, x):
        return x + self.regulariser(self.conv(x))


class Functional(nn.Module):
    def __init__(self, fn: Callable[..., torch.Tensor]) -> None:
        super().__init__()
        self.fn = fn

    def forward(self, x):
        return self.fn(x)


class ChannelShuffle(nn.Module):
    """ShuffleNetV2's channel shuffle: the shape is unpacked from x.size()."""

    def forward(self, x):
        batch, channels, height, width = x.size()
        x = x.view(batch, 2, channels // 2, height, width)
        x = torch.transpose(x, 1, 2).contiguous()
        return x.view(batch, -1, height, width)


class ClassToken(nn.Module):
    """ViT's class token: n from x.shape, expand, cat, positional embedding."""

    def __init__(self) -> None:
        super().__init__()
        self.token = nn.Parameter(torch.randn(1, 1, 8))
        self.position = nn.Parameter(torch.randn(1, 5, 8))
        self.proj = nn.Conv2d(3, 8, 2, stride=2)

    def forward(self, x):
        n, c, h, w = x.shape
        torch._assert(h == 4 and w == 4, "the model expects 4x4 images")
        x = self.proj(x).reshape(n, 8, (h // 2) * (w // 2)).permute(0, 2, 1)
        x = torch.cat([self.token.expand(n, -1, -1), x], dim=1) + self.position
        return x[:, 0]


class ShapeArithmetic(nn.Module):
    """x.size(i), x.dim(), len(x) and tuple unpacking of chunks."""

    def forward(self, x):
        q, k, v = x.chunk(3, dim=-1)
        steps = x.size(1)
        scores = torch.einsum("bid,bjd->bij", q, k) / (q.shape[-1] ** 0.5)
        mixed = torch.matmul(torch.softmax(scores, dim=-1), v)
        return mixed.reshape(len(x), steps * mixed.size(2)) * x.dim()


class InPlaceWrites(nn.Module):
    """Swin V2's ``bias.clone()`` + ``bias[a:b].zero_()``, and item assignment."""

    def __init__(self) -> None:
        super().__init__()
        self.bias = nn.Parameter(torch.randn(9))

    def forward(self, x):
        bias = self.bias.clone()
        bias[3:6].zero_()
        y = x + bias
        y[:, 0] = 2.0
        return y


def _pads(**kwargs) -> nn.Module:
    return Functional(lambda x: F.pad(x, (1, 2, 2, 0), **kwargs))


#: name -> (model factory, input shapes, ONNX export works).
CASES: Dict[str, Tuple[Callable[[], nn.Module], Sequence[Tuple[int, ...]], bool]] = {
    "silu": (lambda: Activation(nn.SiLU()), [(2, 3, 6)], True),
    "hardswish": (lambda: Activation(nn.Hardswish()), [(2, 3, 6)], True),
    "hardsigmoid": (lambda: Activation(nn.Hardsigmoid()), [(2, 3, 6)], True),
    "mish": (lambda: Activation(nn.Mish()), [(2, 3, 6)], True),
    "gelu_tanh": (lambda: Activation(nn.GELU(approximate="tanh")), [(2, 3, 6)], True),
    "softplus": (lambda: Activation(nn.Softplus(beta=2.0)), [(2, 3, 6)], True),
    "elu": (lambda: Activation(nn.ELU(alpha=0.5)), [(2, 3, 6)], True),
    "leaky_relu": (lambda: Activation(nn.LeakyReLU(0.2)), [(2, 3, 6)], True),
    "prelu": (lambda: Activation(nn.PReLU()), [(2, 3, 6)], True),
    "functional_silu_hardswish": (
        lambda: Activation(lambda x: F.hardswish(F.silu(x)) + F.hardsigmoid(x)), [(2, 6)], True),
    "stochastic_depth": (lambda: Residual(torchvision.ops.StochasticDepth(0.5, "row")),
                         [(2, 4, 5, 5)], True),
    "dropout": (lambda: Residual(nn.Dropout(0.3)), [(2, 4, 5, 5)], True),
    "avg_pool_padding": (lambda: nn.AvgPool2d(3, stride=1, padding=1, count_include_pad=True),
                         [(1, 2, 5, 5)], True),
    "pad_zero": (lambda: Functional(lambda x: F.pad(x, (0, 0, 0, 0))), [(1, 2, 4, 5)], True),
    "pad_constant": (lambda: _pads(value=0.5), [(1, 2, 4, 5)], True),
    "pad_reflect": (lambda: _pads(mode="reflect"), [(1, 2, 4, 5)], True),
    "pad_replicate": (lambda: _pads(mode="replicate"), [(1, 2, 4, 5)], True),
    "channel_shuffle": (ChannelShuffle, [(1, 6, 3, 3)], True),
    "class_token": (ClassToken, [(2, 3, 4, 4)], True),
    "shape_arithmetic": (ShapeArithmetic, [(2, 4, 12)], True),
    "roll": (lambda: Functional(lambda x: torch.roll(x, shifts=(1, -2), dims=(1, 2))),
             [(2, 4, 5)], True),
    "adaptive_avg_pool_uneven": (lambda: nn.AdaptiveAvgPool2d((3, 2)), [(1, 2, 5, 7)], False),
    "adaptive_avg_pool_divisible": (lambda: nn.AdaptiveAvgPool2d(2), [(1, 2, 4, 6)], True),
    "repeat_stack_unbind": (
        lambda: Functional(lambda x: torch.stack(list(x.repeat(1, 2).unbind(1)), dim=0)),
        [(3, 2)], True),
    "clamp_normalize_where": (
        lambda: Functional(lambda x: torch.where(x > 0, F.normalize(x, dim=-1),
                                                 x.clamp(min=-0.5, max=0.25))),
        [(3, 4)], True),
    "masked_fill": (lambda: Functional(lambda x: x.masked_fill(x < 0, -1.0)), [(3, 4)], True),
    "in_place_writes": (InPlaceWrites, [(2, 9)], False),  # ONNX: aten::zero not exportable
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_torch(name, raf_run, tmp_path):
    factory, shapes, _ = CASES[name]
    torch.manual_seed(0)
    model = randomized(factory())
    inputs = [torch.randn(*shape) for shape in shapes]
    check_torch(model, inputs, raf_run, tmp_path)


@pytest.mark.parametrize("opset", [13, 17])
@pytest.mark.parametrize("name", sorted(n for n, case in CASES.items() if case[2]))
def test_onnx(name, opset, raf_run, tmp_path):
    factory, shapes, _ = CASES[name]
    torch.manual_seed(0)
    model = randomized(factory())
    inputs = [torch.randn(*shape) for shape in shapes]
    check_onnx(model, inputs, opset, raf_run, tmp_path)


def test_shape_reads_are_static():
    """Shape reads are Python values while tracing: no shape node reaches
    the graph, and the emitted reshape has the concrete shape."""
    imported = import_module(ChannelShuffle(), torch.randn(1, 6, 3, 3))
    assert "newshape = array<i64: 1, 2, 3, 3, 3>" in imported.mlir_text
    imported = import_module(randomized(ClassToken()), torch.randn(2, 3, 4, 4))
    assert "relay.broadcast_to" in imported.mlir_text


def test_activation_compositions():
    """Activations without a relay operator are composed from relay operators."""
    text = import_module(Activation(nn.Hardswish()), torch.randn(2, 6)).mlir_text
    assert "relay.minimum" in text and "relay.nn.relu" in text and "relay.divide" in text
    text = import_module(Activation(nn.SiLU()), torch.randn(2, 6)).mlir_text
    assert "relay.sigmoid" in text and "relay.multiply" in text
    text = import_module(Activation(nn.Mish()), torch.randn(2, 6)).mlir_text
    assert "relay.log" in text and "relay.tanh" in text


# ---------------------------------------------------------------------------
# Recurrent layers
# ---------------------------------------------------------------------------


class Recurrent(nn.Module):
    """A recurrent layer returning its output and final state(s)."""

    def __init__(self, rnn: nn.RNNBase, with_state: bool = False) -> None:
        super().__init__()
        self.rnn = rnn
        self.with_state = with_state

    def forward(self, x, h0=None, c0=None):
        if isinstance(self.rnn, nn.LSTM):
            output, (h, c) = self.rnn(x, None if h0 is None else (h0, c0))
            return output, h, c
        output, h = self.rnn(x, h0)
        return output, h


RNN_CASES = {
    "lstm": (lambda: nn.LSTM(5, 6), (4, 2, 5)),
    "lstm_batch_first_2_layers": (lambda: nn.LSTM(5, 6, num_layers=2, batch_first=True),
                                  (2, 4, 5)),
    "lstm_bidirectional": (lambda: nn.LSTM(5, 6, bidirectional=True), (3, 2, 5)),
    "lstm_projection": (lambda: nn.LSTM(5, 6, proj_size=3), (3, 2, 5)),
    "lstm_unbatched": (lambda: nn.LSTM(5, 6), (3, 5)),
    "gru": (lambda: nn.GRU(5, 6), (4, 2, 5)),
    "gru_bidirectional_2_layers": (
        lambda: nn.GRU(5, 6, num_layers=2, bidirectional=True, batch_first=True), (2, 3, 5)),
    "gru_no_bias": (lambda: nn.GRU(5, 6, bias=False), (3, 2, 5)),
    "rnn_tanh": (lambda: nn.RNN(5, 6), (3, 2, 5)),
    "rnn_relu_2_layers": (lambda: nn.RNN(5, 6, num_layers=2, nonlinearity="relu"), (3, 2, 5)),
}


@pytest.mark.parametrize("name", sorted(RNN_CASES))
def test_recurrent(name, raf_run, tmp_path):
    factory, shape = RNN_CASES[name]
    torch.manual_seed(0)
    model = Recurrent(factory()).eval()
    check_torch(model, [torch.randn(*shape)], raf_run, tmp_path)


#: Exported by torch.onnx as ONNX LSTM / GRU / RNN nodes (one per layer).
_RNN_ONNX = ["gru", "gru_bidirectional_2_layers", "lstm", "lstm_batch_first_2_layers",
             "lstm_bidirectional", "rnn_relu_2_layers"]


@pytest.mark.parametrize("name", _RNN_ONNX)
def test_recurrent_onnx(name, raf_run, tmp_path):
    factory, shape = RNN_CASES[name]
    torch.manual_seed(0)
    model = Recurrent(factory()).eval()
    check_onnx(model, [torch.randn(*shape)], 17 if name != "lstm" else 13, raf_run, tmp_path)


@pytest.mark.parametrize("kind", ["lstm", "gru"])
def test_recurrent_initial_state(kind, raf_run, tmp_path):
    torch.manual_seed(0)
    cls = nn.LSTM if kind == "lstm" else nn.GRU
    model = Recurrent(cls(4, 3, num_layers=2, batch_first=True)).eval()
    states = [torch.randn(2, 2, 3)] * (2 if kind == "lstm" else 1)
    imported = check_torch(model, [torch.randn(2, 5, 4)] + states, raf_run, tmp_path)
    # Unrolled: one recurrent dense per layer and time step, one input dense per layer.
    assert imported.mlir_text.count("= relay.nn.dense ") == 2 * 5 + 2


# ---------------------------------------------------------------------------
# torchvision architectures, scaled down
# ---------------------------------------------------------------------------


TINY_MODELS = {
    "vit": lambda: torchvision.models.VisionTransformer(
        image_size=32, patch_size=8, num_layers=2, num_heads=2, hidden_dim=32, mlp_dim=64),
    "swin": lambda: torchvision.models.SwinTransformer(
        patch_size=[4, 4], embed_dim=16, depths=[2, 2], num_heads=[2, 2], window_size=[4, 4],
        stochastic_depth_prob=0.2),
    "swin_v2": lambda: torchvision.models.SwinTransformer(
        patch_size=[4, 4], embed_dim=16, depths=[2, 2], num_heads=[2, 2], window_size=[4, 4],
        block=SwinTransformerBlockV2, downsample_layer=PatchMergingV2),
    "maxvit": lambda: torchvision.models.MaxVit(
        input_size=(32, 32), stem_channels=8, partition_size=2, block_channels=[16, 32],
        block_layers=[1, 1], head_dim=8, stochastic_depth_prob=0.2),
    "shufflenet_v2": lambda: torchvision.models.shufflenet_v2_x0_5(),
    "mobilenet_v3_small": lambda: torchvision.models.mobilenet_v3_small(),
    "efficientnet_b0": lambda: torchvision.models.efficientnet_b0(),
}
#: torch.onnx cannot export Swin V2 (its in-place aten::zero).
_NO_ONNX = {"swin_v2"}
#: Full-size classifiers run on the evaluator only: their operators are
#: compiled for the CPU by the tests above, and compiling the whole network
#: takes much longer than evaluating it.
_FULL_SIZE = {"shufflenet_v2", "mobilenet_v3_small", "efficientnet_b0"}


@pytest.mark.parametrize("name", sorted(TINY_MODELS))
def test_torchvision_torch(name, raf_run, tmp_path):
    torch.manual_seed(0)
    model = randomized(TINY_MODELS[name]())
    check_torch(model, [torch.randn(1, 3, 32, 32)], raf_run, tmp_path,
                targets=("interp",) if name in _FULL_SIZE else TARGETS)


@pytest.mark.parametrize("name", sorted(set(TINY_MODELS) - _NO_ONNX))
def test_torchvision_onnx(name, raf_run, tmp_path):
    torch.manual_seed(0)
    model = randomized(TINY_MODELS[name]())
    check_onnx(model, [torch.randn(1, 3, 32, 32)], 17, raf_run, tmp_path,
               targets=("interp",) if name in _FULL_SIZE else TARGETS)


# ---------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------


class _DataDependent(nn.Module):
    def forward(self, x):
        if x.sum() > 0:
            return x
        return -x


class _Sorts(nn.Module):
    def forward(self, x):
        return torch.sort(x, dim=-1)[0]


class _Fails(nn.Module):
    def forward(self, x):
        return x.view(7, -1)  # not a divisor of the element count


class _UpdatesWeight(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.weight = nn.Parameter(torch.ones(4))

    def forward(self, x):
        self.weight.mul_(2.0)
        return x * self.weight


class _WritesIntoAliased(nn.Module):
    def forward(self, x):
        y = x + 1.0
        z = y.view(2, 2)
        y[0] = 5.0  # z sees the write too
        return z


class _WritesIntoInput(nn.Module):
    def forward(self, x):
        x[0] = 5.0
        return x * 2.0


def test_in_place_writes_into_aliased_tensors_are_rejected():
    with pytest.raises(UnsupportedOperationError, match="which has a view 'view'"):
        import_module(_WritesIntoAliased(), torch.randn(4))
    x = torch.zeros(4)
    with pytest.raises(UnsupportedOperationError, match="model input"):
        import_module(_WritesIntoInput(), x)
    assert not x.any()


def make_sorts() -> nn.Module:
    return _Sorts()


def make_fails() -> nn.Module:
    return _Fails()


def _source_line(marker: str) -> int:
    lines = Path(__file__).read_text().splitlines()
    return next(i + 1 for i, line in enumerate(lines) if marker in line)


def test_data_dependent_control_flow_is_located():
    with pytest.raises(UnsupportedOperationError) as info:
        import_module(_DataDependent(), torch.randn(3))
    message = str(info.value)
    assert "\n" not in message
    assert f"test_import_coverage.py:{_source_line('if x.sum() > 0:')}" in message
    assert "tensor contents" in message


def test_in_place_update_of_a_weight_is_rejected():
    model = _UpdatesWeight()
    with pytest.raises(UnsupportedOperationError, match="in-place update of a parameter"):
        import_module(model, torch.randn(4))
    assert torch.equal(model.weight, torch.ones(4))  # tracing did not change it


def test_unsupported_operation_is_located():
    with pytest.raises(UnsupportedOperationError) as info:
        import_module(_Sorts(), torch.randn(2, 3))
    assert str(info.value) == (
        "unsupported operation 'torch.sort' at fx node 'sort' "
        f"(test_import_coverage.py:{_source_line('return torch.sort(x')})")


def test_failing_model_code_is_a_frontend_error():
    with pytest.raises(FrontendError, match=r"tracing _Fails failed at test_import_coverage"):
        import_module(_Fails(), torch.randn(2, 3))


def _cli(module: str, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(REPO / "python"), str(REPO / "python" / "tests")]))
    return subprocess.run([sys.executable, "-m", module, *args], capture_output=True,
                          text=True, env=env, timeout=300)


@pytest.mark.parametrize("factory, expected", [
    ("make_sorts", "error: unsupported operation 'torch.sort' at fx node 'sort' "
                   "(test_import_coverage.py:"),
    ("make_fails", "error: tracing _Fails failed at test_import_coverage.py:"),
])
def test_torch_command_line_errors_are_one_line(tmp_path, factory, expected):
    process = _cli("raf_mlir.torch", f"test_import_coverage:{factory}", "--input-shape", "2,3",
                   "--output-dir", str(tmp_path))
    assert process.returncode != 0
    assert process.stderr.startswith(expected), process.stderr
    assert process.stderr.count("\n") == 1 and "Traceback" not in process.stderr


def test_onnx_command_line_errors_are_one_line(tmp_path):
    model = onnx.helper.make_model(
        onnx.helper.make_graph(
            [onnx.helper.make_node("Round", ["x"], ["y"], name="round")], "g",
            [onnx.helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [2])],
            [onnx.helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [2])]),
        opset_imports=[onnx.helper.make_opsetid("", 13)])
    onnx.save(model, str(tmp_path / "round.onnx"))
    (tmp_path / "garbage.onnx").write_bytes(b"\x00not a model\xff" * 10)
    for name, expected in [("round.onnx", "error: unsupported operation 'Round' at ONNX node "
                                          "'round'"),
                           ("garbage.onnx", "error: "), ("missing.onnx", "error: ")]:
        process = _cli("raf_mlir.onnx", str(tmp_path / name), "--output-dir",
                       str(tmp_path / "out"))
        assert process.returncode != 0, name
        assert process.stderr.startswith(expected), process.stderr
        assert process.stderr.count("\n") == 1 and "Traceback" not in process.stderr
