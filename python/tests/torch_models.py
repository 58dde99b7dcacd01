"""Small PyTorch models used by the frontend tests (and as CLI factories,
e.g. ``python3 -m raf_mlir.torch torch_models:make_small_cnn``)."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class SmallCNN(nn.Module):
    """Conv (bias, stride, depthwise), batch norm, relu6, pools, linear."""

    def __init__(self) -> None:
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, stride=2, padding=1)
        self.bn = nn.BatchNorm2d(8)
        self.depthwise = nn.Conv2d(8, 8, 3, padding=1, groups=8, bias=False)
        self.act = nn.ReLU6()
        self.pool = nn.AvgPool2d(2)
        self.fc = nn.Linear(8, 5)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.act(self.bn(self.conv(x)))
        x = F.max_pool2d(self.depthwise(x), 2, 1, padding=1)
        x = self.pool(x)
        x = F.adaptive_avg_pool2d(x, (1, 1))
        return self.fc(torch.flatten(x, 1))


class FunctionalMix(nn.Module):
    """Exercises functional calls and tensor methods the frontend handles."""

    def __init__(self) -> None:
        super().__init__()
        self.w = nn.Parameter(torch.randn(16, 16))
        self.b = nn.Parameter(torch.randn(16))
        self.norm_weight = nn.Parameter(torch.rand(16) + 0.5)
        self.register_buffer("offset", torch.randn(16))

    def forward(self, x: torch.Tensor, y: torch.Tensor):
        batch, seq, width = x.size(0), x.size(1), x.shape[2]
        h = F.linear(x, self.w, self.b)
        h = F.gelu(h, approximate="tanh") + torch.relu(y) * 0.5 - self.offset
        h = F.layer_norm(h, (width,), self.norm_weight, None, 1e-6)
        heads = h.view(batch, seq, 2, width // 2).permute(0, 2, 1, 3).contiguous()
        scores = torch.matmul(heads, heads.transpose(-2, -1)) / 4.0
        probs = scores.softmax(dim=-1)
        context = torch.matmul(probs, heads).transpose(1, 2).reshape(batch, seq, width)
        parts = context.chunk(2, dim=-1)
        a, b = parts[0], parts[1]
        joined = torch.cat([b, a], dim=-1)
        first = joined[:, 0]
        pooled = joined.mean(dim=1, keepdim=True)
        clipped = F.hardtanh(pooled, -0.5, 0.5) + F.relu6(first.unsqueeze(1))
        return torch.sigmoid(clipped).squeeze(1), torch.bmm(x, y.transpose(1, 2))


def make_small_cnn() -> nn.Module:
    torch.manual_seed(0)
    return SmallCNN()


def make_encoder_layer() -> nn.Module:
    torch.manual_seed(0)
    return nn.TransformerEncoderLayer(d_model=64, nhead=4, dim_feedforward=128,
                                      batch_first=True)
