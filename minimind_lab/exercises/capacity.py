"""Lesson 09's build-it piece: the bits of a fact table a model holds (知识容量, in bits).

The measure (as Allen-Zhu & Li 2024 count knowledge: the loss summed over the facts, taken from
what a uniform guess would need): each fact ``f`` asks for one of ``|A|`` equally likely
attributes, so a uniform guess knows nothing and a sure right answer knows ``log2|A|`` bits. A
model whose cross-entropy on the answer is ``CE_f`` bits holds ``log2|A| − CE_f`` bits of that
fact (below 0 when it does worse than the guess), and the table's bits are the sum over the
facts.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable

import torch
from torch import Tensor

from ..i18n import tr
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

#: ``fn(logits, targets, num_attributes)``: logits ``(F, V)``, targets ``(F,)`` → bits, a real
#: number (a float, a NumPy scalar or a 0-dim tensor).
FactBitsFn = Callable[[Tensor, Tensor, int], object]


def fact_bits(logits: Tensor, targets: Tensor, num_attributes: int) -> Tensor:
    """The reference, as ``l09.stored_bits``: ``Σ_f (log2|A| − CE_f)``, CE in bits.

    ``logits``: ``(F, V)``, one row per fact over ``V ≥ |A|`` tokens (the attributes only, or the
    whole vocabulary); ``targets``: ``(F,)`` int64, the right token of each fact. ``CE_f`` is the
    cross-entropy of fact ``f`` over all ``V`` tokens, in bits. Returns a 0-dim tensor in the
    logits' dtype.
    """
    ce_bits = -logits.log_softmax(dim=-1).gather(-1, targets[:, None]).squeeze(-1) / math.log(2)
    return (math.log2(num_attributes) - ce_bits).sum()  # ()


def _per_fact(logits: Tensor, targets: Tensor) -> tuple[Tensor, Tensor]:
    """Cross-entropy in nats ``(F,)`` and the probability of the right token ``(F,)``."""
    log_p = logits.log_softmax(dim=-1).gather(-1, targets[:, None]).squeeze(-1)
    return -log_p, log_p.exp()


def _mistakes(logits: Tensor, targets: Tensor, num_attributes: int) -> WrongVersions:
    """Known wrong totals, each a 0-dim tensor like the reference's."""
    ce_nats, p = _per_fact(logits, targets)
    ce = ce_nats / math.log(2)  # bits
    base = math.log2(num_attributes)
    vocab = logits.shape[-1]
    right = logits.argmax(dim=-1) == targets
    return {
        tr(
            "natural log: your bits are in nats (ln|A| − CE in nats); use log2 for both, or divide "
            "by ln 2"
        ): lambda: (math.log(num_attributes) - ce_nats).sum(),
        tr(
            "the cross-entropy is in nats while log2|A| is in bits; divide the cross-entropy by "
            "ln 2"
        ): lambda: (base - ce_nats).sum(),
        tr(
            "each fact is floored at 0: a fact the model knows worse than a uniform guess must "
            "cost bits (the measure sums log2|A| − CE over the facts, as the loss is summed); "
            "drop the clamp"
        ): lambda: (base - ce).clamp(min=0).sum(),
        tr(
            "the total is floored at 0: a model that does worse than a uniform guess holds "
            "fewer than 0 bits; drop the clamp"
        ): lambda: (base - ce).sum().clamp(min=0),
        tr(
            "each fact is capped at 0 (clamp(max=0)), so no fact adds bits; a fact holds up to "
            "log2|A| bits, and below 0 only when the model does worse than a uniform guess; drop "
            "the clamp"
        ): lambda: (base - ce).clamp(max=0).sum(),
        tr(
            "the total is capped at 0 (clamp(max=0)); a model that knows the facts holds more "
            "than 0 bits; drop the clamp"
        ): lambda: (base - ce).sum().clamp(max=0),
        tr(
            "log10 where log2 is meant: bits are base-2 logarithms (log2|A|, and the "
            "cross-entropy divided by ln 2)"
        ): lambda: (math.log10(num_attributes) - ce_nats / math.log(10)).sum(),
        tr(
            "the cross-entropy is in base 10 (divided by ln 10) while log2|A| is in bits; divide "
            "it by ln 2"
        ): lambda: (base - ce_nats / math.log(10)).sum(),
        tr("the mean over the facts; the table's bits are the sum"): (lambda: (base - ce).mean()),
        tr(
            "the probability of the right attribute stands where its cross-entropy (−log2 p) should"
        ): lambda: (base - p).sum(),
        tr(
            "the probability of the right attribute times log2|A|; a fact's bits are log2|A| "
            "minus its cross-entropy −log2 p"
        ): lambda: (p * base).sum(),
        tr(
            "log2|A| for every fact the model gets right (argmax); the measure uses the "
            "cross-entropy, so an unsure right answer holds less"
        ): lambda: (right * base).sum().to(logits.dtype),
        tr(
            "the baseline is log2 of the vocabulary size ({vocab}); it is log2|A| "
            "({num_attributes} attributes), the bits of a uniform guess among them",
            vocab=vocab,
            num_attributes=num_attributes,
        ): lambda: (math.log2(vocab) - ce).sum(),
        tr(
            "this is the cross-entropy summed over the facts, in bits (the loss); a fact holds "
            "log2|A| minus it"
        ): lambda: ce.sum(),
        tr("the subtraction is reversed: CE − log2|A|; a fact holds log2|A| − CE"): lambda: (
            ce - base
        ).sum(),
        tr(
            "the log2|A| baseline is missing: this is minus the loss; a fact holds log2|A| − CE"
        ): lambda: (-ce).sum(),
        tr(
            "the softmax runs over the facts (dim 0), not over the tokens of each fact (dim -1)"
        ): lambda: (
            base + logits.log_softmax(dim=0).gather(-1, targets[:, None]).squeeze(-1) / math.log(2)
        ).sum(),
    }


def _facts(
    g: torch.Generator,
    num_facts: int,
    vocab: int,
    num_attributes: int,
    *,
    known: int,
    worse: int,
    dtype: torch.dtype = torch.float32,
) -> tuple[Tensor, Tensor, int]:
    """Random logits ``(F, V)`` with ``known`` facts pushed toward their answer and ``worse``
    facts pushed away from it (below a uniform guess); answers among the last ``|A|`` tokens."""
    logits = 1.5 * torch.randn(num_facts, vocab, generator=g, dtype=dtype)
    targets = vocab - num_attributes + torch.randint(num_attributes, (num_facts,), generator=g)
    rows = torch.arange(num_facts)
    push = torch.zeros(num_facts, dtype=dtype)
    push[:known] = 5.0
    push[known : known + worse] = -3.0
    logits[rows, targets] += push
    return logits, targets, num_attributes


def _large(g: torch.Generator) -> tuple[Tensor, Tensor, int]:
    """Logits of size about 100 ``(6, 4)``: the first three facts answered with the top logit
    (about 2 bits each), the others with a random one; ``exp`` of them overflows float32."""
    logits = 100 * torch.randn(6, 4, generator=g)
    targets = torch.randint(4, (6,), generator=g)
    targets[:3] = logits[:3].argmax(dim=-1)
    return logits, targets, 4


def _cases() -> dict[str, tuple[Tensor, Tensor, int]]:
    g = torch.Generator().manual_seed(909)
    sure = torch.zeros(5, 16)
    sure_targets = torch.randint(16, (5,), generator=g)
    sure[torch.arange(5), sure_targets] = 30.0
    return {
        tr("8 facts, |A| = 4, logits over the attributes only"): _facts(
            g, 8, 4, 4, known=4, worse=1
        ),
        tr("6 facts, |A| = 5, logits over a vocabulary of 20 (as in the lesson)"): _facts(
            g, 6, 20, 5, known=3, worse=2
        ),
        tr("a model that knows nothing: equal logits, |A| = 8"): (
            torch.zeros(4, 8),
            torch.randint(8, (4,), generator=g),
            8,
        ),
        tr("a model worse than a uniform guess on every fact, |A| = 4"): _facts(
            g, 6, 4, 4, known=0, worse=6
        ),
        tr("a sure model: logit 30 on every answer, |A| = 16"): (sure, sure_targets, 16),
        tr("float64, 5 facts, |A| = 6, vocabulary 12"): _facts(
            g, 5, 12, 6, known=2, worse=2, dtype=torch.float64
        ),
        tr("large logits (up to a few hundred), |A| = 4"): _large(g),
        tr("one fact, |A| = 2"): _facts(g, 1, 2, 2, known=1, worse=0),
    }


def _as_total(result: object, case: str, num_facts: int) -> Tensor:
    """The learner's result as a float64 0-dim tensor: any real number is accepted (a Python
    float or int, a NumPy scalar, a tensor of one element of any real dtype)."""
    if isinstance(result, bool | str | bytes) or result is None:
        value = None
    else:
        try:
            value = result if isinstance(result, Tensor) else torch.as_tensor(result)
        except (TypeError, ValueError, RuntimeError):
            value = None
    if value is None or value.dtype == torch.bool or value.is_complex():
        raise ExerciseError(
            tr(
                "{case}: your function returned a {kind}; expected the bits as a real number (a "
                "float, or a 0-dim tensor)",
                case=case,
                kind=type(result).__name__,
            )
        )
    if value.dim() == 1 and value.shape[0] == num_facts and num_facts > 1:
        raise ExerciseError(
            tr(
                "{case}: you returned one number per fact (shape {shape}); the table's bits are "
                "their sum, one number",
                case=case,
                shape=tuple(value.shape),
            )
        )
    if value.numel() != 1:
        raise ExerciseError(
            tr(
                "{case}: your result has shape {shape}; expected one number (a float or a 0-dim "
                "tensor)",
                case=case,
                shape=tuple(value.shape),
            )
        )
    return value.detach().reshape(()).to(torch.float64)


def _forbidden() -> Forbidden:
    """The lesson's own measure and the checker's reference: the exercise is to write it."""
    message = tr(
        "your code calls the lesson's own measure (l09.stored_bits, or the checker's reference "
        "fact_bits); write the bits yourself"
    )
    forbidden: dict[Callable[..., object], str] = {fact_bits: message}
    lesson = sys.modules.get("minimind_lab.lessons.l09_capacity")  # only if a notebook loaded it
    stored_bits = getattr(lesson, "stored_bits", None)
    if callable(stored_bits):
        forbidden[stored_bits] = message
    return forbidden


@checker
def check_fact_bits(fn: FactBitsFn) -> None:
    """Check ``fn(logits, targets, num_attributes)`` against ``fact_bits``; raise if it is off.

    ``logits``: ``(F, V)``, the model's scores for each fact's answer over ``V ≥ |A|`` tokens;
    ``targets``: ``(F,)`` int64, the right token; ``num_attributes``: ``|A|``. ``fn`` returns the
    bits the model holds about the table as one real number: a Python float (``.item()``), a
    NumPy scalar, or a 0-dim tensor of any floating dtype (a float32 total from float64 logits
    is fine); it is compared with the reference in float64 within a tolerance of 1e-4 relative.
    Cases: attributes only and a larger vocabulary, a model that knows nothing and one that is
    sure, facts known worse than a uniform guess (and a model worse than it on every fact),
    float64, large logits, one fact. Calling ``l09.stored_bits`` (the lesson's own measure) is
    refused, and so is a function that changes ``logits`` or ``targets``. Prints one line when
    every case matches.
    """
    require_function("fn", fn, tr("a function fn(logits, targets, num_attributes) returning bits"))
    cases = _cases()
    for case, (logits, targets, num_attributes) in cases.items():
        result = run_learner(
            fn,
            case,
            logits.clone(),
            targets.clone(),
            num_attributes,
            names=("logits", "targets"),
            forbidden=_forbidden(),
        )
        expected = fact_bits(logits, targets, num_attributes).to(torch.float64)
        got = _as_total(result, case, targets.shape[0])
        compare_tensor(
            got,
            expected,
            case=case,
            what="total",
            wrong_versions=_mistakes(logits, targets, num_attributes),
            nan_cause=tr(
                "either exp of a large logit overflows (inf/inf = NaN), or a probability "
                "underflows to 0 and a one-hot times its log2 is 0·(−∞) = NaN; take the right "
                "token's log-probability with log_softmax(...).gather or F.cross_entropy, which "
                "stay finite"
            ),
        )
    success(tr("your bits match the reference on {n} cases.", n=len(cases)))
