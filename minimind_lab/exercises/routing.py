"""The MoE lesson's build-it piece: the top-k routing step of a mixture of experts (专家)."""

from __future__ import annotations

from collections.abc import Callable

import torch
from torch import Tensor

from .._checks import check_bool
from ..i18n import tr, tr_noop
from ..moe import MoEFeedForward
from ._compare import (
    ExerciseError,
    Forbidden,
    WrongVersions,
    checker,
    compare_tensor,
    require_function,
    run_learner,
    success,
)

#: ``fn(logits, k)``: router logits ``(*, E)`` → ``(weights (*, k), experts (*, k))``.
RoutingFn = Callable[[Tensor, int], tuple[Tensor, Tensor]]


def top_k_routing(logits: Tensor, k: int, renormalize: bool = True) -> tuple[Tensor, Tensor]:
    """The reference, as ``ml.MoEFeedForward.route``: softmax over experts, then the top k.

    ``logits``: ``(*, E)``. Returns ``weights`` ``(*, k)`` (rescaled to sum to one when
    ``renormalize``, else the raw softmax scores) and ``experts`` ``(*, k)`` (indices, highest
    score first).
    """
    scores = logits.softmax(dim=-1)  # (*, E)
    weights, experts = scores.topk(k, dim=-1)  # (*, k)
    if renormalize:
        weights = weights / weights.sum(dim=-1, keepdim=True)
    return weights, experts


def _by_expert(weights: Tensor, experts: Tensor) -> tuple[Tensor, Tensor]:
    """Both sorted by expert index per token, so any order of the k choices compares equal."""
    order = experts.argsort(dim=-1)
    return weights.gather(-1, order), experts.gather(-1, order)


def _mistakes(logits: Tensor, k: int, experts: Tensor) -> WrongVersions:
    """Known wrong weights, each sorted by expert index like ``experts`` ``(*, k)``."""
    scores = logits.softmax(-1)
    raw, chosen = scores.topk(k, dim=-1)
    top_logits = logits.topk(k, dim=-1)
    return {
        tr("the weights are not rescaled to sum to one (divide by their sum over the k)"): (
            lambda: _by_expert(raw, chosen)[0]
        ),
        tr(
            "the weights are rescaled to sum to one; here the raw softmax scores are "
            "expected (MiniMind2 with top_k = 1 keeps them)"
        ): lambda: _by_expert(raw / raw.sum(-1, keepdim=True), chosen)[0],
        tr("the weights are the raw logits; apply the softmax over the experts first"): (
            lambda: _by_expert(top_logits.values, top_logits.indices)[0]
        ),
        tr("the softmax runs over the tokens (dim 0), not over the experts (dim -1)"): (
            lambda: logits.softmax(0).gather(-1, experts)
        ),
    }


def _cases() -> dict[str, tuple[Tensor, int]]:
    g = torch.Generator().manual_seed(909)
    return {
        tr_noop("6 tokens, 4 experts, k=1"): (torch.randn(6, 4, generator=g), 1),
        tr_noop("6 tokens, 4 experts, k=2"): (torch.randn(6, 4, generator=g), 2),
        tr_noop("(2, 3) tokens, 8 experts, k=3"): (torch.randn(2, 3, 8, generator=g), 3),
        tr_noop("5 tokens, 4 experts, k=4 (all of them)"): (torch.randn(5, 4, generator=g), 4),
        tr_noop("float64, 4 tokens, 6 experts, k=2"): (
            torch.randn(4, 6, generator=g, dtype=torch.float64),
            2,
        ),
    }


@checker
def check_top_k_routing(fn: RoutingFn, renormalize: bool = True) -> None:
    """Check ``fn(logits, k)`` against ``top_k_routing``; raise ``ExerciseError`` if off.

    ``fn`` returns ``(weights, experts)``, each ``(*, k)``; the k choices of a token may come in
    any order, as long as each weight stands beside its expert. ``renormalize=True``: the
    weights are rescaled to sum to one (minimind-3, and MiniMind2 when ``top_k > 1``);
    ``False``: the raw softmax scores. ``MoEFeedForward.route`` is the package's own routing, so
    calling it is refused; so is a function that changes ``logits`` in place. Prints one line
    when every case matches.
    """
    require_function("fn", fn, tr("a function fn(logits, k) returning (weights, experts)"))
    check_bool("renormalize", renormalize)
    forbidden: Forbidden = dict.fromkeys(
        (top_k_routing, MoEFeedForward.route),
        tr(
            "your code calls the package's own routing (MoEFeedForward.route, or the checker's "
            "reference top_k_routing); write the softmax, the top k and the rescaling yourself"
        ),
    )
    for key, (logits, k) in _cases().items():
        case = tr(key)
        result = run_learner(fn, case, logits.clone(), k, names=("logits",), forbidden=forbidden)
        if not (isinstance(result, tuple | list) and len(result) == 2):
            raise ExerciseError(
                tr(
                    "{case}: your function returned a {kind}; expected a pair (weights, experts)",
                    case=case,
                    kind=type(result).__name__,
                )
            )
        weights, experts = result
        if not isinstance(experts, Tensor) or experts.dtype != torch.int64:
            raise ExerciseError(
                tr(
                    "{case}: experts should be an int64 tensor of indices (what topk returns), "
                    "got {got}",
                    case=case,
                    got=getattr(experts, "dtype", type(experts).__name__),
                )
            )
        ref_w, ref_e = top_k_routing(logits, k, renormalize)
        if experts.shape != ref_e.shape:
            raise ExerciseError(
                tr(
                    "{case}: experts has shape {got}, expected {expected}",
                    case=case,
                    got=tuple(experts.shape),
                    expected=tuple(ref_e.shape),
                )
            )
        got_w, got_e = (
            _by_expert(weights, experts)
            if isinstance(weights, Tensor) and (weights.shape == experts.shape)
            else (weights, experts.sort(dim=-1).values)
        )
        ref_w, ref_e = _by_expert(ref_w, ref_e)
        if not torch.equal(got_e, ref_e):
            if torch.equal(got_e, _by_expert(*logits.softmax(-1).topk(k, largest=False))[1]):
                raise ExerciseError(
                    tr("{case}: you chose the k lowest scores; take the largest", case=case)
                )
            bad = int((got_e != ref_e).any(dim=-1).sum())
            raise ExerciseError(
                tr(
                    "{case}: {bad} tokens chose other experts than the k with the highest scores",
                    case=case,
                    bad=bad,
                )
            )
        compare_tensor(
            got_w,
            ref_w,
            case=case,
            what="weights",
            wrong_versions=_mistakes(logits, k, ref_e),
            nan_cause=tr(
                "exp of a large logit overflows (softmax subtracts the maximum first), and "
                "dividing by a sum of weights that is 0 gives 0/0"
            ),
        )
    mode = tr("rescaled to sum to one") if renormalize else tr("raw softmax scores")
    success(
        tr(
            "your routing picks the same experts and weights ({mode}) on {n} cases.",
            mode=mode,
            n=len(_cases()),
        )
    )
