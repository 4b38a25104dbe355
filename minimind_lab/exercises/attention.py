"""Lesson 01's build-it piece: causal attention weights from queries and keys."""

from __future__ import annotations

import math
from collections.abc import Callable

import torch
from torch import Tensor

from ..i18n import tr
from ._compare import checker, compare_tensor, require_callable, run_learner, success

#: ``fn(q, k)``: ``(*, T, d)`` queries and keys → ``(*, T, T)`` weights.
AttentionWeightsFn = Callable[[Tensor, Tensor], Tensor]


def causal_attention_weights(q: Tensor, k: Tensor) -> Tensor:
    """The reference: ``softmax(q kᵀ / √d)`` with every later position masked out.

    ``q``, ``k``: ``(*, T, d)`` → ``(*, T, T)``; row ``i`` puts weight only on positions ``≤ i``
    and sums to one.
    """
    t, d = q.shape[-2], q.shape[-1]
    scores = q @ k.transpose(-2, -1) / math.sqrt(d)  # (*, T, T)
    allowed = torch.ones(t, t, dtype=torch.bool, device=q.device).tril()
    return scores.masked_fill(~allowed, float("-inf")).softmax(dim=-1)


def _wrong_versions(q: Tensor, k: Tensor) -> dict[str, Callable[[], Tensor]]:
    t, d = q.shape[-2], q.shape[-1]
    raw = q @ k.transpose(-2, -1)  # (*, T, T)
    scaled = raw / math.sqrt(d)
    below = torch.ones(t, t, dtype=torch.bool, device=q.device).tril()
    above = torch.ones(t, t, dtype=torch.bool, device=q.device).triu()
    return {
        tr("the scores are not divided by √d (d = the query size) before the softmax"): lambda: (
            raw.masked_fill(~below, float("-inf")).softmax(-1)
        ),
        tr("the scores are divided by d where the reference divides by √d"): lambda: (
            (raw / d).masked_fill(~below, float("-inf")).softmax(-1)
        ),
        tr("no causal mask: every position reads later positions too"): lambda: scaled.softmax(-1),
        tr(
            "the mask is the wrong way round: it hides the past and keeps the future (use tril, "
            "not triu)"
        ): lambda: scaled.masked_fill(~above, float("-inf")).softmax(-1),
        tr(
            "the softmax runs over the wrong dimension (dim=-2, the queries); each row (one query) "
            "should sum to one"
        ): lambda: scaled.masked_fill(~below, float("-inf")).softmax(-2),
        tr(
            "the mask is applied after the softmax, so the rows no longer sum to one; set the "
            "future scores to -inf before the softmax"
        ): lambda: scaled.softmax(-1) * below,
        tr(
            "the future scores are set to 0, not -inf, so exp(0) = 1 still gives them weight"
        ): lambda: scaled.masked_fill(~below, 0.0).softmax(-1),
    }


@checker
def check_causal_attention_weights(fn: AttentionWeightsFn) -> None:
    """Check ``fn(q, k)`` against ``causal_attention_weights``; raise ``ExerciseError`` if off.

    Cases: one query and key ``(1, 4)``; a batch of heads ``(2, 3, 5, 8)``; float64; large scores
    (an exp without the max subtracted overflows). Prints one line when every case matches.
    """
    require_callable("fn", fn, "a function fn(q, k) returning attention weights")
    g = torch.Generator().manual_seed(101)
    cases = {
        tr("one position, q and k of shape (1, 4)"): (torch.randn(1, 4, generator=g),) * 2,
        tr("a batch of heads, q and k of shape (2, 3, 5, 8)"): (
            torch.randn(2, 3, 5, 8, generator=g),
            torch.randn(2, 3, 5, 8, generator=g),
        ),
        tr("float64 inputs of shape (6, 4)"): (
            torch.randn(6, 4, generator=g, dtype=torch.float64),
            torch.randn(6, 4, generator=g, dtype=torch.float64),
        ),
        tr("large scores, q and k of shape (4, 16) times 30"): (
            30 * torch.randn(4, 16, generator=g),
            30 * torch.randn(4, 16, generator=g),
        ),
    }
    for case, (q, k) in cases.items():
        got = run_learner(fn, case, q.clone(), k.clone())
        compare_tensor(
            got,
            causal_attention_weights(q, k),
            case=case,
            what="attention weights",
            wrong_versions=_wrong_versions(q, k),
        )
    success(tr("causal attention weights match the reference on {n} cases.", n=len(cases)))
