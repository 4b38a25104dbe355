"""Lesson 08: activation patching (激活修补): corrupt the subject, restore a site, measure."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import torch
from torch import Tensor, nn

from ..._checks import check_nonnegative_int
from .evaluation import _logits, _sublayer
from .task import Corpus, FactTask

__all__ = [
    "SITES",
    "SUBJECT_KINDS",
    "Corruption",
    "PatchingResult",
    "activation_patching",
    "answer_probability",
    "cache_outputs",
    "corrupt_subjects",
    "restored_logits",
]


#: The kinds whose answer depends on the subject, which activation patching corrupts.
SUBJECT_KINDS: tuple[str, ...] = ("recall", "fetch")
#: The sites ``restored_logits`` can put back: a layer's MLP or attention (``"self_attn"``)
#: output, or the residual stream (残差流) entering layer ℓ (``"hidden"``, ℓ = 0 is the
#: embedding's output, ℓ = L the last layer's output before the final norm).
SITES: tuple[str, ...] = ("mlp", "self_attn", "hidden")


@dataclass(frozen=True)
class Corruption:
    """Clean inputs and the same inputs with the subject swapped, for activation patching.

    ``ids``/``corrupt``: ``(N, T)`` model inputs (the corpus without its last token), equal
    everywhere but at ``subject`` ``(N,)``, the position of each sequence's one subject token.
    ``last[kind]``/``answer[kind]``: ``(N,)`` the graded position (the relation token) and the
    right answer of each subject kind. ``usable``: ``(N,)`` bool, the rows where the swap
    changes the right answer of every subject kind (only those are measured).
    """

    ids: Tensor
    corrupt: Tensor
    subject: Tensor
    last: dict[str, Tensor]
    answer: dict[str, Tensor]
    usable: Tensor


def corrupt_subjects(task: FactTask, corpus: Corpus, seed: int = 7) -> Corruption:
    """Swap each sequence's subject for another subject whose facts for both asked relations
    (recall's and fetch's) differ, drawn from a generator seeded with ``seed`` (up to 100
    redraws; rows still unchanged after that are marked not ``usable``)."""
    check_nonnegative_int("seed", seed)
    ids = corpus.ids[:, :-1]
    subjects = task.is_subject(ids)
    asked = {k: corpus.kinds[:, :-1] == corpus.kind_names.index(k) for k in SUBJECT_KINDS}
    if not (subjects.sum(1) == 1).all() or any((a.sum(1) != 1).any() for a in asked.values()):
        raise ValueError("every sequence needs exactly one subject, recall and fetch position")
    rows = torch.arange(len(ids))
    subject = subjects.float().argmax(1)  # (N,)
    last = {k: a.float().argmax(1) for k, a in asked.items()}  # (N,) the relation token
    relation = {k: ids[rows, at] for k, at in last.items()}
    answer = {k: task.answer(ids[rows, subject], r) for k, r in relation.items()}
    g = torch.Generator().manual_seed(seed)
    other = task.subject0 + torch.randint(task.n_subjects, (len(ids),), generator=g)
    for _ in range(100):  # redraw where the other subject would leave an answer unchanged
        same = torch.zeros(len(ids), dtype=torch.bool)
        for k in SUBJECT_KINDS:
            same |= task.answer(other, relation[k]) == answer[k]
        if not same.any():
            break
        other[same] = task.subject0 + torch.randint(
            task.n_subjects, (int(same.sum()),), generator=g
        )
    usable = torch.ones(len(ids), dtype=torch.bool)
    for k in SUBJECT_KINDS:
        usable &= task.answer(other, relation[k]) != answer[k]
    corrupt = ids.clone()
    corrupt[rows, subject] = other
    return Corruption(ids.clone(), corrupt, subject, last, answer, usable)


def answer_probability(logits: Tensor, corruption: Corruption, kind: str) -> float:
    """Mean probability of ``kind``'s right answer at its graded position, over the usable rows.

    ``logits``: ``(N, T, vocab)`` from a run on ``corruption.ids`` or ``corruption.corrupt``.
    """
    if kind not in corruption.last:
        raise ValueError(f"kind must be one of {', '.join(corruption.last)}, got {kind!r}")
    rows = torch.arange(logits.shape[0])
    p = logits[rows, corruption.last[kind]].softmax(-1)[rows, corruption.answer[kind]]  # (N,)
    return p[corruption.usable].mean().item()


def _site_module(model: nn.Module, site: str, layer: int) -> nn.Module:
    """The module whose output is ``site`` at ``layer`` (see ``SITES``)."""
    if site in ("mlp", "self_attn"):
        return _sublayer(model, site, layer)
    if site != "hidden":
        raise ValueError(f"site must be one of {', '.join(SITES)}, got {site!r}")
    layers = model.model.layers
    if isinstance(layer, bool) or not isinstance(layer, int) or not 0 <= layer <= len(layers):
        raise ValueError(
            f"hidden-state layer must be an integer from 0 (the embedding) to {len(layers)} "
            f"(after the last layer), got {layer!r}"
        )
    return model.model.embed_tokens if layer == 0 else layers[layer - 1]


def cache_outputs(
    model: nn.Module, ids: Tensor, sites: Sequence[tuple[str, int]]
) -> tuple[dict[tuple[str, int], Tensor], Tensor]:
    """One pass over ``ids`` ``(B, T)``: the output ``(B, T, h)`` of every ``(site, layer)`` in
    ``sites``, and the logits ``(B, T, vocab)``."""
    outputs: dict[tuple[str, int], Tensor] = {}
    handles = []
    for site, layer in sites:

        def keep(_module: nn.Module, _args: object, out: Tensor, key=(site, layer)) -> None:
            outputs[key] = out.detach().clone()

        handles.append(_site_module(model, site, layer).register_forward_hook(keep))
    try:
        logits = _logits(model, ids)
    finally:
        for handle in handles:
            handle.remove()
    return outputs, logits


def restored_logits(
    model: nn.Module,
    corrupt_ids: Tensor,
    clean: Mapping[tuple[str, int], Tensor],
    restore: Mapping[tuple[str, int], Tensor],
) -> Tensor:
    """Logits ``(B, T, vocab)`` of a run on ``corrupt_ids`` ``(B, T)`` in which, for each
    ``(site, layer) → positions`` of ``restore`` (``positions``: ``(B,)``, one per row, or a
    ``(B, T)`` bool mask), that site's output is overwritten there with its value in ``clean``
    (``cache_outputs`` of the clean run). The hooks come off afterwards, also on error."""
    rows = torch.arange(corrupt_ids.shape[0])
    handles = []
    for key, positions in restore.items():
        if key not in clean:
            raise ValueError(f"no clean output cached for {key}; have {list(clean)}")
        where = positions if positions.dtype == torch.bool else None

        def put_back(_module, _args, out, saved=clean[key], at=positions, mask=where) -> Tensor:
            out = out.clone()
            if mask is not None:
                out[mask] = saved[mask]
            else:
                out[rows, at] = saved[rows, at]
            return out

        handles.append(_site_module(model, *key).register_forward_hook(put_back))
    try:
        return _logits(model, corrupt_ids)
    finally:
        for handle in handles:
            handle.remove()


@dataclass(frozen=True)
class PatchingResult:
    """Corrupt the subject, restore one site from the clean run, measure p(answer).

    ``p_clean``/``p_corrupt``: mean probability of the right answer at the graded position of
    ``kind`` in the clean and the corrupted run; ``patched[(layer, where)]``: the same after
    restoring that layer's MLP output (``layer`` an index or ``"all"``) at ``where``
    (``"subject"`` or ``"last"``, the graded position); ``hidden[(layer, "subject")]``: after
    restoring the whole residual stream entering layer ``layer`` (0 … L) at the subject, the
    restoration Meng et al. plot as "hidden state". Over ``n`` sequences.
    """

    kind: str
    p_clean: float
    p_corrupt: float
    patched: dict[tuple[int | str, str], float]
    n: int
    hidden: dict[tuple[int, str], float] = field(default_factory=dict)

    def restored(self, layer: int | str, where: str, site: str = "mlp") -> float:
        """Share of the clean–corrupt gap that the patch closes: ``(p − p_corrupt)/(p_clean −
        p_corrupt)``. Raises ``ValueError`` when there is no such patch, or when the corruption
        left p(answer) unchanged (``|p_clean − p_corrupt| ≤ 1e-6``: no gap to close)."""
        table = {"mlp": self.patched, "hidden": self.hidden}.get(site)
        if table is None:
            raise ValueError(f"site must be 'mlp' or 'hidden' here, got {site!r}")
        if (layer, where) not in table:
            raise ValueError(f"no {site} patch at ({layer!r}, {where!r}); have {list(table)}")
        gap = self.p_clean - self.p_corrupt
        if not abs(gap) > 1e-6:
            raise ValueError(
                f"the corruption did not change p(answer) for {self.kind} (p_clean "
                f"{self.p_clean:.6f}, p_corrupt {self.p_corrupt:.6f}): there is no gap to restore"
            )
        return (table[layer, where] - self.p_corrupt) / gap


def activation_patching(
    model: nn.Module, task: FactTask, corpus: Corpus, seed: int = 7
) -> dict[str, PatchingResult]:
    """Activation patching (激活修补) of every MLP and of the residual stream at the subject.

    ``corrupt_subjects`` swaps each sequence's subject (seed ``seed``). Then, one at a time,
    a site's output at one position is overwritten with its value from the clean run
    (``restored_logits``): each layer's MLP output at the subject or at the kind's graded
    position ("last"); every layer's MLP output at the graded position together (``"all"``);
    and the residual stream entering each layer ℓ = 0 … L at the subject. Returns
    ``{"recall": PatchingResult, "fetch": PatchingResult}``.
    """
    corruption = corrupt_subjects(task, corpus, seed)
    n_layers = len(model.model.layers)
    model.eval()
    sites = [("mlp", i) for i in range(n_layers)] + [("hidden", i) for i in range(n_layers + 1)]
    clean, clean_logits = cache_outputs(model, corruption.ids, sites)
    corrupt_logits = _logits(model, corruption.corrupt)
    subject, last = corruption.subject, corruption.last

    def p(restore: Mapping[tuple[str, int], Tensor], kinds: Sequence[str]) -> dict[str, float]:
        logits = restored_logits(model, corruption.corrupt, clean, restore)
        return {k: answer_probability(logits, corruption, k) for k in kinds}

    patched: dict[str, dict[tuple[int | str, str], float]] = {k: {} for k in SUBJECT_KINDS}
    hidden: dict[str, dict[tuple[int, str], float]] = {k: {} for k in SUBJECT_KINDS}
    for layer in range(n_layers):
        for k, value in p({("mlp", layer): subject}, SUBJECT_KINDS).items():  # serves both
            patched[k][layer, "subject"] = value
        for k in SUBJECT_KINDS:
            patched[k][layer, "last"] = p({("mlp", layer): last[k]}, [k])[k]
    for k in SUBJECT_KINDS:
        every = {("mlp", layer): last[k] for layer in range(n_layers)}
        patched[k]["all", "last"] = p(every, [k])[k]
    for layer in range(n_layers + 1):
        for k, value in p({("hidden", layer): subject}, SUBJECT_KINDS).items():
            hidden[k][layer, "subject"] = value
    n = int(corruption.usable.sum())
    return {
        k: PatchingResult(
            k,
            answer_probability(clean_logits, corruption, k),
            answer_probability(corrupt_logits, corruption, k),
            patched[k],
            n,
            hidden[k],
        )
        for k in SUBJECT_KINDS
    }
