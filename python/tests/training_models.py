"""Model factories for the whole-model SGD-step checks of
``test_training_step_models.py``, importable by the command line
(``python3 -m raf_mlir.torch training_models:<factory> --train``) and by the
test, which rebuilds the same modules for PyTorch autograd."""

from __future__ import annotations

import torch
import torch.nn as nn


def make_mobilenet_v2() -> nn.Module:
    """torchvision's MobileNetV2 with 10 classes and no dropout (dropout in
    training mode would draw different masks here and in PyTorch)."""
    import torchvision

    torch.manual_seed(0)
    return torchvision.models.mobilenet_v2(num_classes=10, dropout=0.0)


class EncoderClassifier(nn.Module):
    """Token embedding, two post-norm transformer encoder layers (multi-head
    self-attention, GELU feed-forward, layer norm), mean over the sequence,
    a linear head."""

    def __init__(self) -> None:
        super().__init__()
        self.embedding = nn.Embedding(20, 32)
        self.encoder = nn.TransformerEncoder(
            nn.TransformerEncoderLayer(d_model=32, nhead=4, dim_feedforward=64, dropout=0.0,
                                       activation="gelu", batch_first=True),
            num_layers=2, enable_nested_tensor=False)
        self.head = nn.Linear(32, 5)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        return self.head(self.encoder(self.embedding(tokens)).mean(dim=1))


def make_encoder_classifier() -> nn.Module:
    torch.manual_seed(0)
    return EncoderClassifier()


class LSTMClassifier(nn.Module):
    """Embedding, a two-layer LSTM over the sequence, the last state
    classified."""

    def __init__(self) -> None:
        super().__init__()
        self.embedding = nn.Embedding(20, 8)
        self.lstm = nn.LSTM(8, 16, num_layers=2, batch_first=True)
        self.head = nn.Linear(16, 5)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        states, _ = self.lstm(self.embedding(tokens))
        return self.head(states[:, -1])


def make_lstm_classifier() -> nn.Module:
    torch.manual_seed(0)
    return LSTMClassifier()
