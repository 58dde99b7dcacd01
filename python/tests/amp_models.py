"""The models of the mixed-precision training tests and of
bench/autocast/run.py, each wrapped with its cross-entropy loss, and their
synthetic data.

* ``mlp``: Linear(16, 32)-ReLU-Linear(32, 4), batches of 8;
* ``cnn``: 8x8 single-channel images, conv-batch norm-ReLU-max pool,
  conv-batch norm-ReLU-average pool, a dense head; batches of 8;
* ``transformer``: ``nn.TransformerEncoderLayer(d_model=32, nhead=4,
  dim_feedforward=64, dropout=0.0, activation="gelu", batch_first=True)``,
  mean over the sequence of 8, a dense head; batches of 4.

Data: noisy copies of one random pattern per class (4 classes), learnable in
a few SGD steps.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import List, Tuple

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

CLASSES = 4


class MLP(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc1 = nn.Linear(16, 32)
        self.fc2 = nn.Linear(32, CLASSES)

    def forward(self, x: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
        return F.cross_entropy(self.fc2(F.relu(self.fc1(x))), labels)


class CNN(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(4)
        self.conv2 = nn.Conv2d(4, 8, 3, padding=1)
        self.bn2 = nn.BatchNorm2d(8)
        self.fc = nn.Linear(8 * 2 * 2, CLASSES)

    def forward(self, x: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
        x = F.max_pool2d(F.relu(self.bn1(self.conv1(x))), 2)
        x = F.avg_pool2d(F.relu(self.bn2(self.conv2(x))), 2)
        return F.cross_entropy(self.fc(torch.flatten(x, 1)), labels)


class Transformer(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.encoder = nn.TransformerEncoderLayer(d_model=32, nhead=4, dim_feedforward=64,
                                                  dropout=0.0, activation="gelu",
                                                  batch_first=True)
        self.head = nn.Linear(32, CLASSES)

    def forward(self, x: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
        return F.cross_entropy(self.head(self.encoder(x).mean(dim=1)), labels)


@dataclass
class Case:
    model: nn.Module
    batches: List[Tuple[np.ndarray, np.ndarray]]  # (x, labels) per step


def _batches(shape: Tuple[int, ...], batch: int, steps: int,
             seed: int) -> List[Tuple[np.ndarray, np.ndarray]]:
    generator = torch.Generator().manual_seed(seed)
    centers = torch.randn(CLASSES, *shape, generator=generator)
    result = []
    for _ in range(steps):
        labels = torch.randint(0, CLASSES, (batch,), generator=generator)
        x = centers[labels] + 0.5 * torch.randn(batch, *shape, generator=generator)
        result.append((x.numpy(), labels.numpy()))
    return result


MODELS = ["mlp", "cnn", "transformer"]


def make_case(name: str, steps: int) -> Case:
    """Model ``name`` (weights from seed 0) and ``steps`` batches."""
    torch.manual_seed(0)
    if name == "mlp":
        return Case(MLP(), _batches((16,), 8, steps, 1))
    if name == "cnn":
        return Case(CNN(), _batches((1, 8, 8), 8, steps, 2))
    if name == "transformer":
        return Case(Transformer(), _batches((8, 32), 4, steps, 3))
    raise KeyError(name)
