"""Lesson 08: The task: the vocabulary, the fact table, the sequences and their floors."""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import Tensor

from ..._checks import check_nonnegative_int, check_positive_int
from ...i18n import tr_noop

__all__ = [
    "KINDS",
    "NO_ANSWER",
    "SETUP",
    "Corpus",
    "FactTask",
    "Setup",
    "fact_exposures",
    "fact_task",
    "make_corpus",
    "relation_only_accuracy",
    "sequence_table",
    "subject_only_accuracy",
]


#: The kinds of question, in the order of their codes in ``Corpus.kinds`` (0, 1, 2). The names
#: are data (dict keys, printed as they are); a plot translates them where it draws them.
KINDS: tuple[str, ...] = (tr_noop("recall"), tr_noop("copy"), tr_noop("fetch"))
#: ``Corpus.kinds`` at a position whose next token is not graded.
NO_ANSWER = -1
#: The three models the lesson compares.


@dataclass(frozen=True)
class Setup:
    """Lesson 08's task, models, training and analyses, read by the notebook, widget and figures.

    Task: ``n_subjects × n_relations`` facts, each one of ``n_attributes`` shared attributes,
    drawn from ``fact_seed``; ``n_noise`` filler tokens, ``n_fill`` of them per sequence. Models
    (MiniMind2 layout): ``hidden_size``, ``num_hidden_layers``, heads; ``intermediate_size=None``
    takes MiniMind2's rule (8/3·h rounded up to 64: 192 at h = 64); the attention-only model is
    ``attention_only_hidden_size`` wide, the MLP-only model has ``mlp_only_intermediate_size``.
    Controls: the narrow attention-only model is ``hidden_size`` wide with
    ``narrow_attention_layers`` layers; the plain-MLP model has a non-gated SiLU MLP of width
    ``plain_intermediate_size`` (2·h·m = 3·h·192 at the defaults); the frozen-MLP model is the
    full model with its MLPs left at their random initialisation.
    Training: ``steps`` minibatches of ``batch_size`` fresh sequences (data seed
    ``data_seed_offset + seed``), Adam at ``lr`` with a cosine decay; ``long_steps``, a longer
    budget for one-off runs (the stored sweep's budgets are ``SweepSettings.step_counts``); on
    ``training_threads`` CPU threads (a fixed count fixes how torch
    splits its sums, so the numbers do not depend on the machine's core count). Evaluation:
    ``eval_size`` held-out sequences from ``eval_seed``; activation patching uses the first
    ``patch_size`` of them, corrupted with ``corrupt_seed``.
    """

    n_subjects: int = 32
    n_relations: int = 16
    n_attributes: int = 16
    n_noise: int = 16
    n_fill: int = 3
    fact_seed: int = 0
    hidden_size: int = 64
    intermediate_size: int | None = None
    num_hidden_layers: int = 2
    num_attention_heads: int = 4
    num_key_value_heads: int = 2
    attention_only_hidden_size: int = 128
    mlp_only_intermediate_size: int = 256
    narrow_attention_layers: int = 8
    plain_intermediate_size: int = 288
    steps: int = 200
    long_steps: int = 300
    batch_size: int = 64
    lr: float = 3e-3
    training_threads: int = 2
    seeds: tuple[int, ...] = (0, 1, 2)
    data_seed_offset: int = 1000
    eval_size: int = 1000
    eval_seed: int = 999_999
    patch_size: int = 500
    corrupt_seed: int = 7
    top_k: int = 25

    def __post_init__(self) -> None:
        for name in ("n_subjects", "n_attributes", "n_noise", "hidden_size", "num_hidden_layers"):
            check_positive_int(name, getattr(self, name))
        for name in ("num_attention_heads", "num_key_value_heads", "attention_only_hidden_size"):
            check_positive_int(name, getattr(self, name))
        for name in ("narrow_attention_layers", "plain_intermediate_size"):
            check_positive_int(name, getattr(self, name))
        for name in ("mlp_only_intermediate_size", "steps", "long_steps", "batch_size"):
            check_positive_int(name, getattr(self, name))
        check_positive_int("training_threads", self.training_threads)
        check_positive_int("eval_size", self.eval_size)
        if check_positive_int("patch_size", self.patch_size) > self.eval_size:
            raise ValueError(
                f"patch_size must be at most eval_size={self.eval_size} (it patches the first "
                f"held-out sequences), got {self.patch_size}"
            )
        check_positive_int("top_k", self.top_k)
        for name in ("n_fill", "fact_seed", "data_seed_offset", "eval_seed", "corrupt_seed"):
            check_nonnegative_int(name, getattr(self, name))
        if self.intermediate_size is not None:
            check_positive_int("intermediate_size", self.intermediate_size)
        if check_positive_int("n_relations", self.n_relations) < 2:
            raise ValueError(
                f"n_relations must be at least 2 (fetch asks a relation other than recall's), "
                f"got {self.n_relations}"
            )
        if not isinstance(self.seeds, tuple) or not self.seeds:
            raise ValueError(f"seeds must be a non-empty tuple of integers, got {self.seeds!r}")
        for seed in self.seeds:
            check_nonnegative_int("seed", seed)
        ok = isinstance(self.lr, (int, float)) and not isinstance(self.lr, bool)
        if not ok or not math.isfinite(self.lr) or self.lr <= 0:
            raise ValueError(f"lr must be a finite number > 0, got {self.lr!r}")


SETUP = Setup()


@dataclass(frozen=True)
class FactTask:
    """The vocabulary and the fact table.

    Token ids, in order: ``0 <bos>``, ``1 M`` (copy marker), ``2 it``, then the subjects
    ``s0…``, the relations ``r0…``, the attributes ``a0…`` (shared by every relation) and the
    noise tokens ``n0…``. ``facts``: ``(n_subjects, n_relations)`` attribute indices, so the
    answer token of ``(s, r)`` is ``attribute0 + facts[s, r]``.
    """

    n_subjects: int
    n_relations: int
    n_attributes: int
    n_noise: int
    n_fill: int
    facts: Tensor

    BOS = 0
    MARK = 1
    IT = 2

    @property
    def subject0(self) -> int:
        """The id of ``s0``."""
        return 3

    @property
    def relation0(self) -> int:
        """The id of ``r0``."""
        return self.subject0 + self.n_subjects

    @property
    def attribute0(self) -> int:
        """The id of ``a0``."""
        return self.relation0 + self.n_relations

    @property
    def noise0(self) -> int:
        """The id of ``n0``."""
        return self.attribute0 + self.n_attributes

    @property
    def vocab_size(self) -> int:
        """How many token ids there are."""
        return self.noise0 + self.n_noise

    @property
    def seq_len(self) -> int:
        """Tokens per sequence: ``<bos>``, four chunks (3 + 2 + 2 + 3 tokens) and the fillers."""
        return 1 + 10 + self.n_fill

    @property
    def n_facts(self) -> int:
        """``n_subjects · n_relations``."""
        return self.n_subjects * self.n_relations

    def token_names(self) -> list[str]:
        """A readable name for every id: ``names[id]``."""
        names = ["<bos>", "M", "it"]
        names += [f"s{i}" for i in range(self.n_subjects)]
        names += [f"r{i}" for i in range(self.n_relations)]
        names += [f"a{i}" for i in range(self.n_attributes)]
        names += [f"n{i}" for i in range(self.n_noise)]
        return names

    def is_subject(self, ids: Tensor) -> Tensor:
        """Boolean mask of the subject tokens in ``ids`` (any shape)."""
        return (ids >= self.subject0) & (ids < self.relation0)

    def answer(self, subject_ids: Tensor, relation_ids: Tensor) -> Tensor:
        """The attribute token of each (subject token, relation token) pair (same shape)."""
        s, r = subject_ids - self.subject0, relation_ids - self.relation0
        return self.attribute0 + self.facts[s, r]


def fact_task(setup: Setup = SETUP) -> FactTask:
    """The task of ``setup``: its fact table drawn once from ``setup.fact_seed`` (own generator)."""
    if not isinstance(setup, Setup):
        raise ValueError(f"setup must be an l08.Setup, got {type(setup).__name__}")
    generator = torch.Generator().manual_seed(setup.fact_seed)
    facts = torch.randint(
        setup.n_attributes, (setup.n_subjects, setup.n_relations), generator=generator
    )
    return FactTask(
        setup.n_subjects, setup.n_relations, setup.n_attributes, setup.n_noise, setup.n_fill, facts
    )


@dataclass(frozen=True)
class Corpus:
    """Token sequences with the kind of question asked at each position.

    ``ids``: ``(N, T)`` token ids. ``kinds``: ``(N, T)``; at position ``t`` the code (index into
    ``kind_names``) of the question whose answer is ``ids[:, t + 1]``, or ``NO_ANSWER`` (-1)
    where the next token is not graded. A model reads ``ids[:, :-1]`` and is graded on
    ``ids[:, 1:]`` where ``kinds[:, :-1] ≥ 0``.
    """

    ids: Tensor
    kinds: Tensor
    kind_names: tuple[str, ...] = KINDS

    def __post_init__(self) -> None:
        if not isinstance(self.ids, Tensor) or self.ids.dim() != 2 or self.ids.shape[1] < 2:
            shape = tuple(self.ids.shape) if isinstance(self.ids, Tensor) else type(self.ids)
            raise ValueError(f"ids must be a (N, T) tensor with T ≥ 2, got {shape}")
        if not isinstance(self.kinds, Tensor) or self.kinds.shape != self.ids.shape:
            shape = tuple(self.kinds.shape) if isinstance(self.kinds, Tensor) else self.kinds
            raise ValueError(f"kinds must have the shape of ids {tuple(self.ids.shape)}: {shape}")
        if self.kinds.numel() and (
            int(self.kinds.min()) < NO_ANSWER or int(self.kinds.max()) >= len(self.kind_names)
        ):
            raise ValueError(
                f"kinds must be -1 or a code below {len(self.kind_names)} "
                f"({', '.join(self.kind_names)}), got values from {int(self.kinds.min())} "
                f"to {int(self.kinds.max())}"
            )

    def __len__(self) -> int:
        return self.ids.shape[0]

    def rows(self, start: int, stop: int) -> Corpus:
        """Sequences ``start:stop`` (views, not copies)."""
        return Corpus(self.ids[start:stop], self.kinds[start:stop], self.kind_names)


def make_corpus(task: FactTask, n: int, seed: int) -> Corpus:
    """``n`` sequences of the task, drawn from their own generator seeded with ``seed``.

    A sequence is ``<bos>`` and then, in a random order, the chunks ``s r1 a`` (recall, graded at
    ``r1``), ``M x`` twice (copy, graded at the second ``M``), ``it r2 a'`` (fetch, graded at
    ``r2``; it always comes after the recall chunk, and ``r2 ≠ r1``) and ``n_fill`` single noise
    tokens. ``s`` is the sequence's one subject; ``x`` and the fillers are noise tokens.
    Returns ``Corpus`` with ``ids``, ``kinds``: ``(n, task.seq_len)``.
    """
    check_positive_int("n", n)
    check_nonnegative_int("seed", seed)
    g = torch.Generator().manual_seed(seed)
    subject = task.subject0 + torch.randint(task.n_subjects, (n,), generator=g)
    r_recall = torch.randint(task.n_relations, (n,), generator=g)
    shift = 1 + torch.randint(task.n_relations - 1, (n,), generator=g)
    r_fetch = task.relation0 + (r_recall + shift) % task.n_relations  # never r_recall
    r_recall = task.relation0 + r_recall
    payload = task.noise0 + torch.randint(task.n_noise, (n,), generator=g)
    fillers = task.noise0 + torch.randint(task.n_noise, (n, task.n_fill), generator=g)
    mark, it = torch.full((n,), task.MARK), torch.full((n,), task.IT)
    gap = torch.full((n,), -1)  # pads a chunk to three slots
    recall, copy_, fetch = (KINDS.index(k) for k in ("recall", "copy", "fetch"))
    a_recall, a_fetch = task.answer(subject, r_recall), task.answer(subject, r_fetch)
    # each chunk: (tokens (n, 3), kind code per slot, length); shuffled below
    chunks = [
        (torch.stack([subject, r_recall, a_recall], 1), [-1, recall, -1], 3),
        (torch.stack([mark, payload, gap], 1), [-1, -1, -1], 2),
        (torch.stack([mark, payload, gap], 1), [copy_, -1, -1], 2),
        (torch.stack([it, r_fetch, a_fetch], 1), [-1, fetch, -1], 3),
    ]
    for j in range(task.n_fill):
        chunks.append((torch.stack([fillers[:, j], gap, gap], 1), [-1, -1, -1], 1))
    keys = torch.rand(n, len(chunks), generator=g)
    for first, second in ((0, 3), (1, 2)):  # recall before fetch; the graded M comes second
        low = torch.minimum(keys[:, first], keys[:, second])
        keys[:, second] = torch.maximum(keys[:, first], keys[:, second])
        keys[:, first] = low
    order = keys.argsort(1)  # (n, chunks): which chunk sits in each slot
    lengths = torch.tensor([c[2] for c in chunks])[order]  # (n, chunks)
    starts = 1 + lengths.cumsum(1) - lengths  # first position of each slot
    tokens = torch.stack([c[0] for c in chunks], 1)[torch.arange(n)[:, None], order]  # (n, k, 3)
    codes = torch.tensor([c[1] for c in chunks])[order]  # (n, k, 3)
    ids = torch.full((n, task.seq_len), task.BOS, dtype=torch.long)
    kinds = torch.full((n, task.seq_len), NO_ANSWER, dtype=torch.long)
    rows = torch.arange(n)[:, None].expand_as(order)
    for slot in range(3):
        used = slot < lengths
        ids[rows[used], (starts + slot)[used]] = tokens[:, :, slot][used]
        kinds[rows[used], (starts + slot)[used]] = codes[:, :, slot][used]
    return Corpus(ids, kinds, KINDS)


def sequence_table(task: FactTask, corpus: Corpus, row: int = 0) -> list[tuple[int, str, str, str]]:
    """One sequence, position by position: ``(position, token, next token, kind or "")``.

    The kind names the question the next token answers (empty where it is not graded).
    """
    check_nonnegative_int("row", row)
    if row >= len(corpus):
        raise ValueError(f"row must be below {len(corpus)} (the corpus size), got {row}")
    names = task.token_names()
    ids, kinds = corpus.ids[row].tolist(), corpus.kinds[row].tolist()
    table = []
    for t, (token, kind) in enumerate(zip(ids, kinds, strict=True)):
        following = names[ids[t + 1]] if t + 1 < len(ids) else ""
        table.append((t, names[token], following, corpus.kind_names[kind] if kind >= 0 else ""))
    return table


def fact_exposures(task: FactTask, corpus: Corpus) -> Tensor:
    """How often each fact is asked in ``corpus`` (at a graded recall or fetch position):
    ``(n_subjects, n_relations)`` counts. Each sequence asks two facts of its one subject."""
    ids, kinds = corpus.ids[:, :-1], corpus.kinds[:, :-1]
    if not (task.is_subject(ids).sum(1) == 1).all():
        raise ValueError("every sequence needs exactly one subject token")
    subject = ids[torch.arange(len(ids)), task.is_subject(ids).float().argmax(1)]  # (N,)
    asked = (kinds == KINDS.index("recall")) | (kinds == KINDS.index("fetch"))  # (N, T-1)
    s = (subject[:, None].expand_as(ids)[asked] - task.subject0).long()
    r = (ids[asked] - task.relation0).long()
    counts = torch.bincount(s * task.n_relations + r, minlength=task.n_facts)
    return counts.reshape(task.n_subjects, task.n_relations)


def relation_only_accuracy(task: FactTask) -> float:
    """The best recall accuracy without knowing the subject: per relation, guess its most
    common attribute over all subjects (subjects and relations equally likely)."""
    counts = F.one_hot(task.facts, task.n_attributes).sum(0)  # (relations, attributes)
    return float(counts.max(1).values.sum()) / task.n_facts


def subject_only_accuracy(task: FactTask) -> float:
    """The best recall accuracy without knowing the relation: per subject, guess its most
    common attribute over all relations (subjects and relations equally likely)."""
    counts = F.one_hot(task.facts, task.n_attributes).sum(1)  # (subjects, attributes)
    return float(counts.max(1).values.sum()) / task.n_facts
