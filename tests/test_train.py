"""The shared training loop."""

from __future__ import annotations

import pytest
import torch

import minimind_lab as ml


def test_fit_lowers_the_loss_and_repeats_exactly() -> None:
    def run() -> list[float]:
        gen = ml.seed_everything(0)
        x = torch.randn(64, 4, generator=gen)
        y = x[:, :1] * x[:, 1:2]
        model = torch.nn.Sequential(ml.GatedFFN(4, 16, act="silu"), torch.nn.Linear(4, 1))
        return ml.fit(model, x, y, steps=60, lr=1e-2)

    first, second = run(), run()
    assert len(first) == 60 and first[-1] < 0.5 * first[0]
    assert first == second


def test_fit_cross_entropy_and_errors() -> None:
    gen = ml.seed_everything(0)
    x = torch.randn(32, 2, generator=gen)
    labels = (x[:, 0] > 0).long()
    model = torch.nn.Linear(2, 2)
    history = ml.fit(model, x, labels, loss="cross_entropy", steps=50, lr=0.1)
    assert history[-1] < history[0]
    with pytest.raises(ValueError, match="unknown loss 'l1'"):
        ml.fit(model, x, labels, loss="l1")
    with pytest.raises(ValueError, match="steps must be a positive integer"):
        ml.fit(model, x, labels, loss="cross_entropy", steps=0)
    with pytest.raises(ValueError, match=r"output has shape \(32, 2\) but targets .*\(32, 1\)"):
        ml.fit(model, x, x[:, :1], loss="mse")
