"""Lesson 08: Knockouts (消融 ablation): accuracy with sublayers zeroed."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import torch
from torch import Tensor, nn

from .evaluation import accuracy_per_kind, replaced_outputs
from .task import Corpus

__all__ = ["knockout_accuracies"]


def _zero(out: Tensor) -> Tensor:
    return torch.zeros_like(out)


def knockout_accuracies(
    model: nn.Module, corpus: Corpus, knockouts: Mapping[str, Sequence[tuple[str, int]]]
) -> dict[str, dict[str, float]]:
    """Accuracy per kind with each named set of sublayers zeroed: ``{name: {kind: accuracy}}``.

    ``knockouts``: name → ``[(sublayer, layer), ...]`` (an empty list measures the intact model),
    e.g. ``{"none": [], "MLP 0": [("mlp", 0)], "attention 1": [("self_attn", 1)]}``.
    """
    result = {}
    for label, parts in knockouts.items():
        with replaced_outputs(model, {part: _zero for part in parts}):
            result[label] = accuracy_per_kind(model, corpus)
    return result
