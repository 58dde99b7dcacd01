"""The hand-written relay models in examples/ against PyTorch.

Each example function is run by ``raf-run`` on both targets (compiled for
the CPU and on the reference evaluator) with the weights PyTorch uses, and
compared with the same network computed by PyTorch in float64:

* ``@basic_block`` / ``@basic_block_downsample``: torchvision's
  ``BasicBlock`` (eval mode, random batch-norm statistics);
* ``@lenet`` / ``@loss``: LeNet-5 written with ``torch.nn.functional``;
* ``@encoder_layer``: a BERT-base encoder layer written with
  ``torch.nn.functional``; its three dropouts use the mask relay defines
  (docs/relay-dialect.md), computed here with numpy from that formula.

Tolerances: the compiled path accumulates in f32 and in a different order
than PyTorch, so results are compared with rtol = atol = 1e-4 relative to
the output's scale; the evaluator computes in double and rounds once.
"""

import subprocess

import numpy as np
import pytest
import torch
import torch.nn.functional as F
import torchvision

from raf_tools import require_tools, REPO, RAF_RUN  # noqa: E402

require_tools(RAF_RUN)

TARGETS = ["cpu", "interp"]


def run(example, entry, arguments, target, tmp_path):
    """Runs examples/<example> @entry on `arguments` (numpy arrays)."""
    command = [str(RAF_RUN), str(REPO / "examples" / example),
               f"--entry={entry}", f"--target={target}"]
    for index, array in enumerate(arguments):
        path = tmp_path / f"arg{index}.npy"
        np.save(path, array)
        command.append(f"--input={path}")
    output = tmp_path / "out.npy"
    command.append(f"--output={output}")
    result = subprocess.run(command, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return np.load(output)


def assert_close(ours, reference):
    reference = np.asarray(reference, dtype=np.float64)
    scale = max(1.0, float(np.abs(reference).max()))
    assert ours.shape == reference.shape
    np.testing.assert_allclose(ours, reference, rtol=1e-4, atol=1e-4 * scale)


def f32(array):
    return np.ascontiguousarray(array, dtype=np.float32)


def batch_norm_arguments(bn):
    return [f32(bn.weight.detach()), f32(bn.bias.detach()),
            f32(bn.running_mean), f32(bn.running_var)]


def randomize_batch_norms(module, generator):
    for bn in module.modules():
        if isinstance(bn, torch.nn.BatchNorm2d):
            channels = bn.num_features
            bn.weight.data = torch.rand(channels, generator=generator) + 0.5
            bn.bias.data = torch.randn(channels, generator=generator) * 0.1
            bn.running_mean = torch.randn(channels, generator=generator) * 0.1
            bn.running_var = torch.rand(channels, generator=generator) + 0.5


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("downsample", [False, True])
def test_basic_block(target, downsample, tmp_path):
    generator = torch.Generator().manual_seed(0)
    if downsample:
        projection = torch.nn.Sequential(
            torch.nn.Conv2d(64, 128, 1, stride=2, bias=False),
            torch.nn.BatchNorm2d(128))
        block = torchvision.models.resnet.BasicBlock(64, 128, stride=2,
                                                     downsample=projection)
    else:
        block = torchvision.models.resnet.BasicBlock(64, 64)
    randomize_batch_norms(block, generator)
    block = block.eval().double()
    x = torch.randn(1, 64, 56, 56, generator=generator, dtype=torch.float64)
    arguments = [f32(x), f32(block.conv1.weight.detach())]
    arguments += batch_norm_arguments(block.bn1)
    arguments += [f32(block.conv2.weight.detach())]
    arguments += batch_norm_arguments(block.bn2)
    if downsample:
        arguments += [f32(projection[0].weight.detach())]
        arguments += batch_norm_arguments(projection[1])
    entry = "basic_block_downsample" if downsample else "basic_block"
    with torch.no_grad():
        # Same f32 values as the arguments, computed in float64.
        x = torch.from_numpy(arguments[0]).double()
        reference = block(x).numpy()
    ours = run("resnet18_basic_block.mlir", entry, arguments, target, tmp_path)
    assert_close(ours, reference)


def lenet_weights(generator):
    shapes = [(6, 1, 5, 5), (6,), (16, 6, 5, 5), (16,), (120, 400), (120,),
              (84, 120), (84,), (10, 84), (10,)]
    return [f32(torch.randn(*shape, generator=generator) * 0.2)
            for shape in shapes]


def lenet_torch(x, w):
    w = [torch.from_numpy(a).double() for a in w]
    h = F.max_pool2d(F.relu(F.conv2d(x, w[0], w[1], padding=2)), 2)
    h = F.max_pool2d(F.relu(F.conv2d(h, w[2], w[3])), 2)
    h = h.reshape(h.shape[0], -1)
    h = F.relu(F.linear(h, w[4], w[5]))
    h = F.relu(F.linear(h, w[6], w[7]))
    return F.log_softmax(F.linear(h, w[8], w[9]), dim=-1)


@pytest.mark.parametrize("target", TARGETS)
def test_lenet_and_loss(target, tmp_path):
    generator = torch.Generator().manual_seed(1)
    x = f32(torch.randn(8, 1, 28, 28, generator=generator))
    labels = torch.randint(0, 10, (8,), generator=generator).numpy()
    weights = lenet_weights(generator)
    log_probs = lenet_torch(torch.from_numpy(x).double(), weights)
    ours = run("lenet.mlir", "lenet", [x] + weights, target, tmp_path)
    assert_close(ours, log_probs.numpy())
    loss = F.nll_loss(log_probs, torch.from_numpy(labels))
    ours = run("lenet.mlir", "loss", [x, labels.astype(np.int64)] + weights,
               target, tmp_path)
    assert_close(ours, loss.numpy())


def dropout_keep_mask(shape, rate, seed):
    """relay.nn.dropout's mask, from the formula in docs/relay-dialect.md."""
    index = np.arange(int(np.prod(shape)), dtype=np.uint64)
    x = (index + np.uint64(seed) * np.uint64(0x9E3779B9)) & np.uint64(0xFFFFFFFF)
    x ^= x >> np.uint64(16)
    x = (x * np.uint64(0x85EBCA6B)) & np.uint64(0xFFFFFFFF)
    x ^= x >> np.uint64(13)
    x = (x * np.uint64(0xC2B2AE35)) & np.uint64(0xFFFFFFFF)
    x ^= x >> np.uint64(16)
    u = (x >> np.uint64(8)).astype(np.float64) * 2.0 ** -24
    return torch.from_numpy((u >= rate).reshape(shape))


def dropout(t, rate, seed):
    return t * dropout_keep_mask(tuple(t.shape), rate, seed) / (1.0 - rate)


@pytest.mark.parametrize("target", TARGETS)
def test_encoder_layer(target, tmp_path):
    generator = torch.Generator().manual_seed(2)

    def randn(*shape, scale=0.05):
        return f32(torch.randn(*shape, generator=generator) * scale)

    x = randn(1, 128, 768, scale=1.0)
    names = ["wq", "bq", "wk", "bk", "wv", "bv", "wo", "bo", "g1", "be1",
             "w1", "b1", "w2", "b2", "g2", "be2"]
    shapes = [(768, 768), (768,)] * 4 + [(768,), (768,), (3072, 768),
                                         (3072,), (768, 3072), (768,),
                                         (768,), (768,)]
    weights = [randn(*shape) for shape in shapes]
    weights[8] = weights[8] + 1.0   # layer-norm gains around 1
    weights[14] = weights[14] + 1.0
    w = dict(zip(names, (torch.from_numpy(a).double() for a in weights)))

    t = torch.from_numpy(x).double()

    def heads(v):  # 1x128x768 -> 12x128x64
        return v.reshape(1, 128, 12, 64).permute(0, 2, 1, 3).reshape(12, 128, 64)

    q = heads(F.linear(t, w["wq"], w["bq"]))
    k = heads(F.linear(t, w["wk"], w["bk"]))
    v = heads(F.linear(t, w["wv"], w["bv"]))
    probs = dropout(torch.softmax(q @ k.transpose(1, 2) * 0.125, dim=-1),
                    0.1, 1)
    ctx = (probs @ v).reshape(1, 12, 128, 64).permute(0, 2, 1, 3)
    ctx = ctx.reshape(1, 128, 768)
    attn = F.layer_norm(dropout(F.linear(ctx, w["wo"], w["bo"]), 0.1, 2) + t,
                        (768,), w["g1"], w["be1"], eps=1e-12)
    ffn = F.linear(F.gelu(F.linear(attn, w["w1"], w["b1"])), w["w2"], w["b2"])
    reference = F.layer_norm(dropout(ffn, 0.1, 3) + attn, (768,), w["g2"],
                             w["be2"], eps=1e-12)
    ours = run("transformer_encoder_layer.mlir", "encoder_layer",
               [x] + weights, target, tmp_path)
    assert_close(ours, reference.numpy())
