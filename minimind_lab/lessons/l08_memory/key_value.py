"""Lesson 08: the MLP read as key–value memory (键值记忆): keys that fire, values written."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import torch
from torch import Tensor, nn

from ..._checks import check_nonnegative_int, check_positive_int
from ..._threads import one_thread
from .evaluation import _logits, _sublayer
from .task import KINDS, Corpus, FactTask

__all__ = [
    "KeyValueReading",
    "UnitSummary",
    "key_value_reading",
    "mlp_coefficients",
    "read_unit",
    "top_contexts",
    "unit_summary",
    "value_logits",
]


def mlp_coefficients(model: nn.Module, ids: Tensor, layer: int) -> tuple[Tensor, Tensor]:
    """Layer ``layer``'s MLP read as a key–value memory (键值记忆), on ``ids`` ``(B, T)``.

    Returns ``(a, out)``: ``a = act(gate_proj(x)) * up_proj(x)``, ``(B, T, m)``, how strongly
    each of the m units fires (its key matched by ``x``, the MLP's input), and the MLP's output
    ``(B, T, h)`` from the same pass, which is ``down_proj(a) = Σ_j a_j · W_down[:, j]``.
    """
    mlp = _sublayer(model, "mlp", layer)
    seen: dict[str, Tensor] = {}

    def keep(_module: nn.Module, args: tuple[Tensor, ...], out: Tensor) -> None:
        seen["x"], seen["out"] = args[0].detach(), out.detach()

    handle = mlp.register_forward_hook(keep)
    try:
        _logits(model, ids)
    finally:
        handle.remove()
    with torch.no_grad(), one_thread():
        x = seen["x"]
        a = mlp.act_fn(mlp.gate_proj(x)) * mlp.up_proj(x)  # (B, T, m)
    return a, seen["out"]


def value_logits(model: nn.Module, layer: int) -> Tensor:
    """How each unit's value vector ``W_down[:, j]`` moves the logits: ``(m, vocab)``.

    Row ``j`` is ``lm_head.weight @ (norm.weight ⊙ W_down[:, j])``: the direct path through the
    final RMSNorm's gain and the (tied) LM head, per unit of ``a_j``. The norm also divides by
    the position's RMS, a positive number, which scales a row but does not reorder it.
    """
    mlp = _sublayer(model, "mlp", layer)
    with torch.no_grad():
        gain = model.model.norm.weight.float()  # (h,)
        values = mlp.down_proj.weight.float() * gain[:, None]  # (h, m)
        return (model.lm_head.weight.float() @ values).T  # (m, vocab)


def top_contexts(coefficients: Tensor, unit: int, k: int) -> tuple[Tensor, Tensor]:
    """The ``k`` rows of ``coefficients`` ``(N, m)`` where unit ``unit`` fires hardest (by |a|).

    Returns ``(rows (k,), a (k,))``, strongest first. ``k`` is capped at ``N``.
    """
    if coefficients.dim() != 2:
        raise ValueError(f"coefficients must be (N, m), got shape {tuple(coefficients.shape)}")
    m = coefficients.shape[1]
    if isinstance(unit, bool) or not isinstance(unit, int) or not 0 <= unit < m:
        raise ValueError(f"unit must be an integer from 0 to {m - 1}, got {unit!r}")
    check_positive_int("k", k)
    column = coefficients[:, unit]
    rows = column.abs().topk(min(k, len(column))).indices
    return rows, column[rows]


@dataclass(frozen=True)
class KeyValueReading:
    """Every unit of one layer read as a key (its top contexts) and a value (what it promotes).

    Over the ``N`` graded recall/fetch positions: ``coefficients`` ``(N, m)``; ``answers``,
    ``tokens``, ``previous``: ``(N,)`` the right answer, the token read there and the one
    before it. ``favourite``: ``(2, m)`` the attribute each unit's value vector promotes most
    when ``a_j > 0`` (row 0) and when ``a_j < 0`` (row 1). ``hit_rate``: ``(m,)`` the share of
    the unit's ``k`` top contexts whose answer is the favourite for the sign it fired with;
    ``control_hit_rate``: the same contexts scored against the next unit's favourites.
    ``answer_purity`` / ``relation_purity``: ``(m,)`` the largest share of the top contexts
    that have one answer / ask one relation. ``facts``: ``(N,)`` the fact asked at each position
    (``subject · n_relations + relation``); ``distinct_facts``: ``(m,)`` how many different facts
    a unit's ``k`` top contexts ask (the same fact asked in many sequences counts once);
    ``random_distinct_facts``: ``(m,)`` the same for ``k`` positions drawn at random (seeded),
    the count to compare with.
    """

    layer: int
    k: int
    coefficients: Tensor
    answers: Tensor
    tokens: Tensor
    previous: Tensor
    logits: Tensor
    favourite: Tensor
    hit_rate: Tensor
    control_hit_rate: Tensor
    answer_purity: Tensor = field(repr=False)
    relation_purity: Tensor = field(repr=False)
    facts: Tensor | None = field(default=None, repr=False)
    distinct_facts: Tensor | None = field(default=None, repr=False)
    random_distinct_facts: Tensor | None = field(default=None, repr=False)

    def share_above(self, threshold: float = 0.5, control: bool = False) -> float:
        """The share of units whose hit rate (or control hit rate) exceeds ``threshold``."""
        rates = self.control_hit_rate if control else self.hit_rate
        return (rates > threshold).float().mean().item()


def key_value_reading(
    model: nn.Module, task: FactTask, corpus: Corpus, layer: int, k: int = 50, seed: int = 0
) -> KeyValueReading:
    """Read layer ``layer``'s MLP as key–value memory on the recall and fetch positions.

    ``seed`` draws the random positions that ``random_distinct_facts`` counts (own generator).
    """
    check_positive_int("k", k)
    check_nonnegative_int("seed", seed)
    ids = corpus.ids[:, :-1]
    a, _ = mlp_coefficients(model, ids, layer)
    kinds = corpus.kinds[:, :-1]
    graded = (kinds == KINDS.index("recall")) | (kinds == KINDS.index("fetch"))
    if int(graded.sum()) < k:
        raise ValueError(f"k={k} exceeds the {int(graded.sum())} recall/fetch positions")
    coefficients = a[graded]  # (N, m)
    answers, tokens = corpus.ids[:, 1:][graded], ids[graded]
    previous = torch.cat([torch.full_like(ids[:, :1], task.BOS), ids[:, :-1]], 1)[graded]
    logits = value_logits(model, layer)  # (m, vocab)
    attributes = torch.arange(task.attribute0, task.attribute0 + task.n_attributes)
    on_attributes = logits[:, attributes]  # (m, n_attributes)
    favourite = torch.stack(
        [attributes[on_attributes.argmax(1)], attributes[(-on_attributes).argmax(1)]]
    )  # (2, m)
    top = coefficients.abs().topk(k, dim=0).indices  # (k, m)
    positive = torch.gather(coefficients, 0, top) > 0  # (k, m)
    m = coefficients.shape[1]

    def hits(fav: Tensor) -> Tensor:
        expected = torch.where(positive, fav[0][None, :], fav[1][None, :])  # (k, m)
        return (answers[top] == expected).float().mean(0)

    control = favourite[:, (torch.arange(m) + 1) % m]  # another unit's value

    def purity(labels: Tensor) -> Tensor:  # (m,)
        counts = [torch.bincount(labels[top[:, j]]).max() for j in range(m)]
        return torch.stack(counts).float() / k

    rows = torch.arange(len(ids))
    subject = ids[rows, task.is_subject(ids).float().argmax(1)]  # (B,) each row's subject
    asked = (subject[:, None] - task.subject0) * task.n_relations + (ids - task.relation0)
    facts = asked[graded]  # (N,) the fact each graded position asks

    def distinct(chosen: Tensor) -> Tensor:  # (k, m) row indices → (m,) distinct facts
        return torch.tensor([len(set(facts[chosen[:, j]].tolist())) for j in range(m)])

    g = torch.Generator().manual_seed(seed)
    drawn = torch.stack([torch.randperm(len(facts), generator=g)[:k] for _ in range(m)], 1)
    return KeyValueReading(
        layer, k, coefficients, answers, tokens, previous, logits, favourite,
        hits(favourite), hits(control), purity(answers), purity(tokens),
        facts, distinct(top), distinct(drawn),
    )  # fmt: skip


@dataclass(frozen=True)
class UnitSummary:
    """One unit of a ``KeyValueReading``, ready to print or draw.

    ``contexts``: its strongest contexts as ``(previous token, token, answer, a_j)``;
    ``sign``: +1 or −1, the sign ``a_j`` takes in most of its top contexts; ``promoted``: the
    tokens whose logits ``sign · a_j · W_down[:, j]`` raises most, as ``(name, logit change per
    unit of |a_j|)``; ``hit_rate``: from a ``KeyValueReading`` (``None`` from ``read_unit``).
    """

    layer: int
    unit: int
    sign: int
    contexts: list[tuple[str, str, str, float]]
    promoted: list[tuple[str, float]]
    hit_rate: float | None


def unit_summary(
    reading: KeyValueReading,
    unit: int,
    names: Sequence[str],
    n_contexts: int = 8,
    n_tokens: int = 8,
) -> UnitSummary:
    """The key (top contexts) and value (promoted tokens) of one unit of ``reading``."""
    check_positive_int("n_contexts", n_contexts)
    check_positive_int("n_tokens", n_tokens)
    if len(names) != reading.logits.shape[1]:
        raise ValueError(f"names must name all {reading.logits.shape[1]} tokens, got {len(names)}")
    rows, a = top_contexts(reading.coefficients, unit, reading.k)  # the sign: over all k
    contexts = [
        (names[reading.previous[r]], names[reading.tokens[r]], names[reading.answers[r]])
        for r in rows[:n_contexts].tolist()
    ]
    hit_rate = float(reading.hit_rate[unit])
    return _summary(
        reading.layer, unit, a, contexts, reading.logits[unit], names, n_tokens, hit_rate
    )


def _summary(
    layer: int,
    unit: int,
    a: Tensor,
    contexts: list[tuple[str, str, str]],
    logits: Tensor,
    names: Sequence[str],
    n_tokens: int,
    hit_rate: float | None,
) -> UnitSummary:
    """``a``: the unit's coefficients at its top contexts, strongest first (the sign is their
    majority's); ``contexts``: the first few of those, as token names."""
    sign = 1 if int((a > 0).sum()) * 2 >= len(a) else -1
    change = sign * logits  # (vocab,)
    top = change.topk(min(n_tokens, len(change)))
    promoted = [
        (names[i], float(v)) for i, v in zip(top.indices.tolist(), top.values.tolist(), strict=True)
    ]
    shown = [(*c, float(v)) for c, v in zip(contexts, a[: len(contexts)].tolist(), strict=True)]
    return UnitSummary(layer, unit, sign, shown, promoted, hit_rate)


def read_unit(
    model: nn.Module,
    corpus: Corpus,
    layer: int,
    unit: int,
    names: Sequence[str],
    n_contexts: int = 8,
    n_tokens: int = 8,
) -> UnitSummary:
    """Key and value of one unit on any corpus (a trained task model or your own MiniMind).

    The key: the graded positions of ``corpus`` where ``a_j`` is largest in size, as
    ``(previous token, token, next token, a_j)`` (previous token ``""`` at a row's first
    position, which has none). The value: the tokens ``value_logits`` says
    ``sign · W_down[:, j]`` promotes most. ``names``: one string per token id.
    """
    check_positive_int("n_contexts", n_contexts)
    check_positive_int("n_tokens", n_tokens)
    logits = value_logits(model, layer)
    if len(names) != logits.shape[1]:
        raise ValueError(f"names must name all {logits.shape[1]} tokens, got {len(names)}")
    ids = corpus.ids[:, :-1]
    a, _ = mlp_coefficients(model, ids, layer)
    graded = corpus.kinds[:, :-1] >= 0
    if not graded.any():
        raise ValueError("the corpus has no graded position")
    previous = torch.cat([torch.full_like(ids[:, :1], -1), ids[:, :-1]], 1)[graded]  # -1: none
    tokens, following = ids[graded], corpus.ids[:, 1:][graded]
    rows, values = top_contexts(a[graded], unit, n_contexts)
    contexts = [
        (names[previous[r]] if previous[r] >= 0 else "", names[tokens[r]], names[following[r]])
        for r in rows.tolist()
    ]
    return _summary(layer, unit, values, contexts, logits[unit], names, n_tokens, None)
