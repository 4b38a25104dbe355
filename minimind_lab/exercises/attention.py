"""Lesson 01's build-it piece: causal attention weights from queries and keys."""

from __future__ import annotations

import math
from collections.abc import Callable

import torch
from torch import Tensor

from ..i18n import tr
from ._compare import checker, compare_tensor, require_function, run_learner, success

#: ``fn(q, k)``: ``(*, T, d)`` queries and keys → ``(*, T, T)`` weights.
AttentionWeightsFn = Callable[[Tensor, Tensor], Tensor]

#: How many random draws each case makes: a mistake that shows only on some draws (a row whose
#: allowed weights all underflow) is caught on one of them.
DRAWS = 5


def causal_attention_weights(q: Tensor, k: Tensor) -> Tensor:
    """The reference: ``softmax(q kᵀ / √d)`` with every later position masked out.

    ``q``, ``k``: ``(*, T, d)`` → ``(*, T, T)``; row ``i`` puts weight only on positions ``≤ i``
    and sums to one.
    """
    t, d = q.shape[-2], q.shape[-1]
    scores = q @ k.transpose(-2, -1) / math.sqrt(d)  # (*, T, T)
    allowed = torch.ones(t, t, dtype=torch.bool, device=q.device).tril()
    return scores.masked_fill(~allowed, float("-inf")).softmax(dim=-1)


def _masked_softmax(scores: Tensor, keep: Tensor) -> Tensor:
    return scores.masked_fill(~keep, float("-inf")).softmax(-1)


def _wrong_versions(q: Tensor, k: Tensor) -> dict[str, Callable[[], Tensor]]:
    t, d = q.shape[-2], q.shape[-1]
    raw = q @ k.transpose(-2, -1)  # (*, T, T)
    scaled = raw / math.sqrt(d)
    below = torch.ones(t, t, dtype=torch.bool, device=q.device).tril()
    above = torch.ones(t, t, dtype=torch.bool, device=q.device).triu()

    def renormalised() -> Tensor:
        kept = scaled.softmax(-1) * below
        return kept / kept.sum(-1, keepdim=True)

    def naive_exp() -> Tensor:
        e = scaled.masked_fill(~below, float("-inf")).exp()
        return e / e.sum(-1, keepdim=True)

    return {
        tr("the scores are not divided by √d (d = the query size) before the softmax"): lambda: (
            _masked_softmax(raw, below)
        ),
        tr("the scores are divided by d where the reference divides by √d"): lambda: (
            _masked_softmax(raw / d, below)
        ),
        tr(
            "the scores are divided by √T (T = the number of positions); the scale is √d, d = "
            "the size of a query (q.shape[-1])"
        ): lambda: _masked_softmax(raw / math.sqrt(t), below),
        tr(
            "the scores are k·qᵀ, the transpose of q·kᵀ: entry (i, j) must be query i with key j "
            "(q @ k.transpose(-2, -1))"
        ): lambda: _masked_softmax(k @ q.transpose(-2, -1) / math.sqrt(d), below),
        tr("no causal mask: every position reads later positions too"): lambda: scaled.softmax(-1),
        tr(
            "the mask is the wrong way round: it hides the past and keeps the future (use tril, "
            "not triu)"
        ): lambda: _masked_softmax(scaled, above),
        tr(
            "the mask hides the diagonal too (triu(0) or tril(-1)): position i must see itself, so "
            "row 0 has nothing left and becomes NaN; mask only j > i"
        ): lambda: _masked_softmax(scaled, below.tril(-1)),
        tr(
            "the softmax runs over the wrong dimension (dim=-2, the queries); each row (one query) "
            "should sum to one"
        ): lambda: scaled.masked_fill(~below, float("-inf")).softmax(-2),
        tr(
            "the softmax runs over dim 0 (the batch, or the heads); it runs over the keys, "
            "dim=-1, so that each row (one query) sums to one"
        ): lambda: scaled.masked_fill(~below, float("-inf")).softmax(0),
        tr(
            "the mask is applied after the softmax, so the rows no longer sum to one; set the "
            "future scores to -inf before the softmax"
        ): lambda: scaled.softmax(-1) * below,
        tr(
            "the mask is applied after the softmax and the rows renormalised: right in exact "
            "arithmetic, but where every allowed weight underflows to 0 a row is 0/0 = NaN; set "
            "the future scores to -inf before the softmax"
        ): renormalised,
        tr(
            "exp of the scores without subtracting each row's maximum overflows (inf/inf = NaN); "
            "use softmax, which subtracts it"
        ): naive_exp,
        tr(
            "the future scores are set to 0, not -inf, so exp(0) = 1 still gives them weight"
        ): lambda: scaled.masked_fill(~below, 0.0).softmax(-1),
    }


def _cases() -> dict[str, list[tuple[Tensor, Tensor]]]:
    g = torch.Generator().manual_seed(101)

    def draws(
        *shape: int, scale: float = 1.0, dtype: torch.dtype = torch.float32
    ) -> list[tuple[Tensor, Tensor]]:
        return [
            (
                scale * torch.randn(*shape, generator=g, dtype=dtype),
                scale * torch.randn(*shape, generator=g, dtype=dtype),
            )
            for _ in range(DRAWS)
        ]

    one = torch.randn(1, 4, generator=g)
    return {
        tr("one position, q and k of shape (1, 4)"): [(one, one.clone()), *draws(1, 4)[1:]],
        tr("a batch of heads, q and k of shape (2, 3, 5, 8)"): draws(2, 3, 5, 8),
        tr("float64 inputs of shape (6, 4)"): draws(6, 4, dtype=torch.float64),
        tr("large scores, q and k of shape (4, 16) times 30"): draws(4, 16, scale=30.0),
    }


@checker
def check_causal_attention_weights(fn: AttentionWeightsFn) -> None:
    """Check ``fn(q, k)`` against ``causal_attention_weights``; raise ``ExerciseError`` if off.

    Cases, each drawn five times: one query and key ``(1, 4)``; a batch of heads
    ``(2, 3, 5, 8)``; float64; large scores (an exp without the max subtracted overflows, and a
    softmax masked afterwards underflows). A function that changes ``q`` or ``k`` in place is
    refused. Prints one line when every case matches.
    """
    require_function("fn", fn, tr("a function fn(q, k) returning attention weights"))
    cases = _cases()
    for name, draws in cases.items():
        for i, (q, k) in enumerate(draws):
            case = tr("{case} (draw {i} of {n})", case=name, i=i + 1, n=len(draws))
            got = run_learner(
                fn,
                case,
                q.clone(),
                k.clone(),
                names=("q", "k"),
                forbidden={
                    causal_attention_weights: tr(
                        "your code calls the checker's own reference, causal_attention_weights; "
                        "write the weights yourself"
                    )
                },
            )
            compare_tensor(
                got,
                causal_attention_weights(q, k),
                case=case,
                what="attention weights",
                wrong_versions=_wrong_versions(q, k),
                nan_cause=tr(
                    "a row whose scores are all -inf before the softmax is 0/0 (the diagonal "
                    "masked too?), and an exp without each row's maximum subtracted overflows"
                ),
            )
    success(tr("causal attention weights match the reference on {n} cases.", n=len(cases)))
