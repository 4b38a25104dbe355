"""Synthetic tokens of a few distinct kinds, a stand-in for hidden states that need different work.

Lesson 09 routes them through a mixture of experts: tokens of one kind sit close together, so even
an untrained linear router tends to send them to the same expert.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from .._checks import check_positive_int

__all__ = [
    "SETUP",
    "Setup",
    "clustered_tokens",
]


@dataclass(frozen=True)
class Setup:
    """Lesson 09's batch and mixture, read by the notebook, the widget and the figure."""

    hidden_size: int = 32
    tokens_per_kind: int = 8
    kinds: str = "ABC"
    num_experts: int = 4
    top_k: int = 2
    seed: int = 0


SETUP = Setup()


def clustered_tokens(
    hidden_size: int = 32,
    tokens_per_kind: int = 8,
    kinds: str = "ABC",
    seed: int = 0,
    spread: float = 0.5,
) -> tuple[torch.Tensor, list[str]]:
    """Tokens of ``len(kinds)`` kinds: ``(len(kinds)·tokens_per_kind, hidden_size)`` and labels.

    Each kind is a random centre (standard deviation 2) plus Gaussian noise of std ``spread``;
    labels read ``"A0", "A1", ..., "C7"`` in the same order as the rows. CPU, float32.
    """
    check_positive_int("hidden_size", hidden_size)
    check_positive_int("tokens_per_kind", tokens_per_kind)
    if not kinds:
        raise ValueError("kinds must name at least one kind, got an empty string")
    if not spread >= 0:
        raise ValueError(f"spread must be ≥ 0, got {spread!r}")
    g = torch.Generator().manual_seed(seed)
    centres = 2.0 * torch.randn(len(kinds), hidden_size, generator=g)
    noise = spread * torch.randn(len(kinds), tokens_per_kind, hidden_size, generator=g)
    x = (centres[:, None, :] + noise).reshape(-1, hidden_size)  # (kinds·tokens, h)
    labels = [f"{kind}{i}" for kind in kinds for i in range(tokens_per_kind)]
    return x, labels
