"""Lesson 08: the standard patching picture (component × position × layer, logit difference) and
a path-patching test of whether the answer must pass through the MLPs (whether they mediate it).

Positions are read by their **role** in the sequence (the chunks come in a random order, so an
absolute position means a different token in every row): ``ROLES`` names them, and
``position_roles`` finds each role's position(s) in every row.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import Tensor, nn

from .patching import SUBJECT_KINDS, Corruption, cache_outputs, corrupt_subjects, restored_logits
from .task import KINDS, Corpus, FactTask

__all__ = [
    "ROLES",
    "PatchingGrid",
    "PathPatching",
    "logit_difference",
    "path_patching",
    "patching_grid",
    "position_roles",
]

#: The role of each position, in reading order of the chunks: ``<bos>``; the recall chunk
#: ``s r a``; the fetch chunk ``it r' a'``; the two copy chunks ``M₁ x₁`` and ``M₂ x₂`` (the
#: graded M is the second); and the noise fillers.
ROLES: tuple[str, ...] = ("<bos>", "s", "r", "a", "it", "r'", "a'", "M₁", "x₁", "M₂", "x₂", "noise")


def position_roles(task: FactTask, corpus: Corpus) -> dict[str, Tensor]:
    """``{role: (N, T-1) bool mask}``: where each of ``ROLES`` sits in the model's input
    (``corpus.ids[:, :-1]``). Every role has one position per row (``noise``: ``n_fill``), except
    that an answer token that ends its row (``a'`` or ``x₂`` in the last chunk) is not input."""
    ids, kinds = corpus.ids[:, :-1], corpus.kinds[:, :-1]
    n, t = ids.shape
    graded = {k: kinds == KINDS.index(k) for k in KINDS}

    def after(mask: Tensor) -> Tensor:  # the position right after each marked one
        return torch.cat([torch.zeros(n, 1, dtype=torch.bool), mask[:, :-1]], 1)

    def before(mask: Tensor) -> Tensor:
        return torch.cat([mask[:, 1:], torch.zeros(n, 1, dtype=torch.bool)], 1)

    marks = ids == task.MARK
    second = graded["copy"]
    first = marks & ~second
    noise = (ids >= task.noise0) & ~after(marks)
    roles = {
        "<bos>": torch.arange(t)[None, :].expand(n, t) == 0,
        "s": task.is_subject(ids),
        "r": graded["recall"],
        "a": after(graded["recall"]),
        "it": before(graded["fetch"]),
        "r'": graded["fetch"],
        "a'": after(graded["fetch"]),
        "M₁": first,
        "x₁": after(first),
        "M₂": second,
        "x₂": after(second),
        "noise": noise,
    }
    return {role: roles[role] for role in ROLES}


def logit_difference(
    logits: Tensor, corruption: Corruption, kind: str, corrupt_answer: Tensor
) -> float:
    """Mean over the usable rows of ``logit(right answer) − logit(the corrupted subject's
    answer)`` at ``kind``'s graded position. ``logits``: ``(N, T, vocab)``; ``corrupt_answer``:
    ``(N,)`` token ids. The usual patching metric: it reads the model's preference between the
    two answers, before the softmax squashes it."""
    rows = torch.arange(logits.shape[0])
    at = logits[rows, corruption.last[kind]]  # (N, vocab)
    diff = at[rows, corruption.answer[kind]] - at[rows, corrupt_answer]  # (N,)
    return diff[corruption.usable].mean().item()


def _corrupt_answers(task: FactTask, corruption: Corruption) -> dict[str, Tensor]:
    rows = torch.arange(len(corruption.ids))
    other = corruption.corrupt[rows, corruption.subject]
    return {k: task.answer(other, corruption.ids[rows, corruption.last[k]]) for k in SUBJECT_KINDS}


def _probability(logits: Tensor, corruption: Corruption, kind: str) -> float:
    rows = torch.arange(logits.shape[0])
    p = logits[rows, corruption.last[kind]].softmax(-1)[rows, corruption.answer[kind]]
    return p[corruption.usable].mean().item()


@dataclass(frozen=True)
class PatchingGrid:
    """Every sublayer's output restored at every role, one at a time, for one kind.

    ``sites``: the row labels (``"attention 0"``, ``"MLP 0"``, ...); ``roles``: ``ROLES``.
    ``logit_share``: ``(sites, roles)`` the share of the clean–corrupt logit difference restored,
    ``(LD − LD_corrupt) / (LD_clean − LD_corrupt)``; ``probability_share``: the same with the
    probability of the right answer. ``ld_clean``/``ld_corrupt``, ``p_clean``/``p_corrupt``:
    the unpatched runs. Over ``n`` sequences.
    """

    kind: str
    sites: tuple[str, ...]
    roles: tuple[str, ...]
    logit_share: Tensor
    probability_share: Tensor
    ld_clean: float
    ld_corrupt: float
    p_clean: float
    p_corrupt: float
    n: int

    def share(self, site: str, role: str, metric: str = "logit") -> float:
        """One cell of the grid: ``metric`` is ``"logit"`` or ``"probability"``."""
        if site not in self.sites or role not in self.roles:
            raise ValueError(
                f"no cell ({site!r}, {role!r}); sites {self.sites}, roles {self.roles}"
            )
        if metric not in ("logit", "probability"):
            raise ValueError(f"metric must be 'logit' or 'probability', got {metric!r}")
        table = self.logit_share if metric == "logit" else self.probability_share
        return table[self.sites.index(site), self.roles.index(role)].item()


def _site_label(site: str, layer: int) -> str:
    return f"{'MLP' if site == 'mlp' else 'attention'} {layer}"


def patching_grid(
    model: nn.Module, task: FactTask, corpus: Corpus, seed: int = 7
) -> dict[str, PatchingGrid]:
    """Activation patching of every attention and MLP output at every role (``ROLES``), layer by
    layer: the subject swapped as in ``corrupt_subjects`` (seed ``seed``), one site's clean
    output put back at one role's position(s) per run. Returns ``{kind: PatchingGrid}`` for
    recall and fetch (one patched run serves both)."""
    corruption = corrupt_subjects(task, corpus, seed)
    n_layers = len(model.model.layers)
    sites = [(s, i) for i in range(n_layers) for s in ("self_attn", "mlp")]
    model.eval()
    clean, clean_logits = cache_outputs(model, corruption.ids, sites)
    _, corrupt_logits = cache_outputs(model, corruption.corrupt, [])
    wrong = _corrupt_answers(task, corruption)
    roles = position_roles(task, corpus)  # (N, T-1) masks, as corruption.ids
    ld = {k: torch.zeros(len(sites), len(ROLES)) for k in SUBJECT_KINDS}
    pr = {k: torch.zeros(len(sites), len(ROLES)) for k in SUBJECT_KINDS}
    base = {
        k: (
            logit_difference(clean_logits, corruption, k, wrong[k]),
            logit_difference(corrupt_logits, corruption, k, wrong[k]),
            _probability(clean_logits, corruption, k),
            _probability(corrupt_logits, corruption, k),
        )
        for k in SUBJECT_KINDS
    }
    for i, site in enumerate(sites):
        for j, role in enumerate(ROLES):
            logits = restored_logits(model, corruption.corrupt, clean, {site: roles[role]})
            for k in SUBJECT_KINDS:
                ld_clean, ld_corrupt, p_clean, p_corrupt = base[k]
                value = logit_difference(logits, corruption, k, wrong[k])
                ld[k][i, j] = (value - ld_corrupt) / (ld_clean - ld_corrupt)
                p = _probability(logits, corruption, k)
                pr[k][i, j] = (p - p_corrupt) / (p_clean - p_corrupt)
    labels = tuple(_site_label(s, i) for s, i in sites)
    n = int(corruption.usable.sum())
    return {k: PatchingGrid(k, labels, ROLES, ld[k], pr[k], *base[k], n) for k in SUBJECT_KINDS}


@dataclass(frozen=True)
class PathPatching:
    """Must what layer 0's attention delivers pass through the MLPs (do they mediate it)?

    For one kind, the share of the logit difference restored (as in ``PatchingGrid``) at the
    graded position when, in the corrupted run:

    * ``attention``: layer 0's attention output is restored, everything after it recomputes;
    * ``attention_mlp0_frozen``: the same, but layer 0's MLP output there is held at its
      corrupted value (it cannot react to the clean attention output it reads);
    * ``attention_mlps_frozen``: the same with every layer's MLP output held corrupted there;
    * ``mlp0``: layer 0's MLP output is restored while the attention output it read stays
      corrupted (the patch of ``activation_patching``: the grid's MLP-0 cell again).

    Holding a site at its corrupted value shows whether the effect is mediated by it; it does not
    show what the site computes (a lookup, or a re-map of a code attention already wrote).
    """

    kind: str
    attention: float
    attention_mlp0_frozen: float
    attention_mlps_frozen: float
    mlp0: float
    n: int


def path_patching(
    model: nn.Module, task: FactTask, corpus: Corpus, seed: int = 7
) -> dict[str, PathPatching]:
    """``PathPatching`` for recall and fetch: ``{kind: PathPatching}``. Caches layer 0's
    attention and every MLP output in the clean and in the corrupted run (``cache_outputs``),
    then restores or holds them at the graded position (``restored_logits``, whose hooks put a
    cached tensor back wherever it came from)."""
    corruption = corrupt_subjects(task, corpus, seed)
    n_layers = len(model.model.layers)
    mlps = [("mlp", i) for i in range(n_layers)]
    sites = [("self_attn", 0), *mlps]
    model.eval()
    clean, clean_logits = cache_outputs(model, corruption.ids, sites)
    corrupt, corrupt_logits = cache_outputs(model, corruption.corrupt, sites)
    wrong = _corrupt_answers(task, corruption)
    result = {}
    for k in SUBJECT_KINDS:
        at = corruption.last[k]
        ld_clean = logit_difference(clean_logits, corruption, k, wrong[k])
        ld_corrupt = logit_difference(corrupt_logits, corruption, k, wrong[k])

        def share(sources: dict, k: str = k, at: Tensor = at, lo=ld_corrupt, hi=ld_clean) -> float:
            logits = restored_logits(model, corruption.corrupt, sources, dict.fromkeys(sources, at))
            return (logit_difference(logits, corruption, k, wrong[k]) - lo) / (hi - lo)

        attention = {("self_attn", 0): clean["self_attn", 0]}
        result[k] = PathPatching(
            k,
            share(attention),
            share({**attention, ("mlp", 0): corrupt["mlp", 0]}),
            share({**attention, **{m: corrupt[m] for m in mlps}}),
            share({("mlp", 0): clean["mlp", 0]}),
            int(corruption.usable.sum()),
        )
    return result
