"""Lesson 08's experiment: what the MLP buys in a tiny MiniMind trained on a task with facts.

The task (``FactTask``, ``make_corpus``) mixes three kinds of question in one short sequence, and
labels every position with the kind of question its next token answers:

* **recall** (事实补全): ``s r → f[s, r]``, a fact from a fixed table that only weights can hold;
* **copy**: ``M x … M → x``, a token from earlier in the context that only attention can fetch;
* **fetch**: ``it r → f[s, r]`` for the sequence's subject ``s`` seen several tokens earlier:
  attention must bring the subject to the relation, and then the fact must be looked up.

Three MiniMind2-layout models (``model_config``) with the same number of non-embedding parameters
(full; attention-only, twice as wide; MLP-only) are trained by ``train_model`` (minibatch Adam on
the answer positions, seeded, on a fixed two threads, cached). The analyses read a trained model:
``knockout_accuracies`` (消融 ablation with forward hooks), ``activation_patching`` (激活修补) and
``key_value_reading`` (键值记忆); ``corrupt_subjects``, ``cache_outputs`` and ``restored_logits``
are the steps of the patching. For a learner's own checkpoint, ``sample_probe`` (text the model
writes itself) and ``next_token_probe`` (text from its tokenizer) make a corpus of running text.
Everything here computes; ``plots/l08_memory.py`` draws.
"""

from __future__ import annotations

import copy
import math
import statistics
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import lru_cache

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from .._checks import check_nonnegative_int, check_positive_int
from .._threads import fixed_threads, one_thread
from ..minimind import MiniMindConfig
from ..model import MiniMindForCausalLM
from ..runtime import seeded
from ..sizing import count_parameters
from ..train import Adam

__all__ = [
    "KINDS",
    "MINIMIND_BOS_ID",
    "MODEL_NAMES",
    "NEXT_TOKEN",
    "NO_ANSWER",
    "SETUP",
    "SITES",
    "SUBJECT_KINDS",
    "Corpus",
    "Corruption",
    "FactTask",
    "KeyValueReading",
    "PatchingResult",
    "Setup",
    "TrainedModel",
    "TrainingLog",
    "UnitSummary",
    "accuracy_per_kind",
    "accuracy_table",
    "activation_patching",
    "answer_probability",
    "build_model",
    "cache_outputs",
    "corrupt_subjects",
    "fact_task",
    "key_value_reading",
    "knockout_accuracies",
    "learning_curve",
    "make_corpus",
    "mlp_coefficients",
    "model_config",
    "next_token_probe",
    "parameter_counts",
    "read_unit",
    "relation_only_accuracy",
    "replaced_outputs",
    "restored_logits",
    "sample_probe",
    "sequence_table",
    "spread",
    "subject_only_accuracy",
    "top_contexts",
    "train_and_evaluate",
    "train_model",
    "train_on_answers",
    "training_run_count",
    "unit_summary",
    "value_logits",
    "vocabulary_names",
]

#: The kinds of question, in the order of their codes in ``Corpus.kinds`` (0, 1, 2).
KINDS: tuple[str, ...] = ("recall", "copy", "fetch")
#: ``Corpus.kinds`` at a position whose next token is not graded.
NO_ANSWER = -1
#: The three models the lesson compares.
MODEL_NAMES: tuple[str, ...] = ("full", "attention-only", "MLP-only")


@dataclass(frozen=True)
class Setup:
    """Lesson 08's task, models, training and analyses, read by the notebook, widget and figures.

    Task: ``n_subjects × n_relations`` facts, each one of ``n_attributes`` shared attributes,
    drawn from ``fact_seed``; ``n_noise`` filler tokens, ``n_fill`` of them per sequence. Models
    (MiniMind2 layout): ``hidden_size``, ``num_hidden_layers``, heads; ``intermediate_size=None``
    takes MiniMind2's rule (8/3·h rounded up to 64: 192 at h = 64); the attention-only model is
    ``attention_only_hidden_size`` wide, the MLP-only model has ``mlp_only_intermediate_size``.
    Training: ``steps`` minibatches of ``batch_size`` fresh sequences (data seed
    ``data_seed_offset + seed``), Adam at ``lr`` with a cosine decay; ``long_steps`` for the
    longer attention-only runs; on ``training_threads`` CPU threads (a fixed count fixes how torch
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


# --- the task ------------------------------------------------------------------------------------


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


# --- the models ----------------------------------------------------------------------------------


def model_config(name: str, task: FactTask, setup: Setup = SETUP) -> MiniMindConfig:
    """The MiniMind2 config of model ``name`` (one of ``MODEL_NAMES``) for ``task``.

    ``"full"``: attention and MLP in every block. ``"attention-only"``: no MLPs, width
    ``setup.attention_only_hidden_size`` (2h buys back the MLPs' parameters when m = 3h).
    ``"MLP-only"``: no attention, MLP width ``setup.mlp_only_intermediate_size``.
    """
    if name not in MODEL_NAMES:
        raise ValueError(f"unknown model {name!r}; expected one of: {', '.join(MODEL_NAMES)}")
    common = {
        "num_hidden_layers": setup.num_hidden_layers,
        "num_attention_heads": setup.num_attention_heads,
        "num_key_value_heads": setup.num_key_value_heads,
        "vocab_size": task.vocab_size,
        "max_position_embeddings": task.seq_len,
        "version": "minimind2",
    }
    if name == "full":
        return MiniMindConfig(
            hidden_size=setup.hidden_size, intermediate_size=setup.intermediate_size, **common
        )
    if name == "attention-only":
        return MiniMindConfig(hidden_size=setup.attention_only_hidden_size, use_mlp=False, **common)
    return MiniMindConfig(
        hidden_size=setup.hidden_size,
        intermediate_size=setup.mlp_only_intermediate_size,
        use_attention=False,
        **common,
    )


def build_model(name: str, seed: int, task: FactTask, setup: Setup = SETUP) -> MiniMindForCausalLM:
    """Model ``name``, initialised under ``seeded(seed)`` (the caller's RNG is left alone)."""
    config = model_config(name, task, setup)
    with seeded(seed):
        return MiniMindForCausalLM(config)


def parameter_counts(model: nn.Module) -> tuple[int, int]:
    """``(all parameters, parameters outside the token embedding)``, counted from the module.

    The LM head shares the embedding's tensor, so it is counted once (as MiniMind does).
    """
    embed = model.model.embed_tokens.weight if hasattr(model, "model") else None
    if embed is None:
        raise ValueError("expected a MiniMindForCausalLM (with .model.embed_tokens)")
    total = count_parameters(model)
    return total, total - embed.numel()


# --- training ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TrainingLog:
    """What one training run recorded at every step.

    ``losses``: cross-entropy on the batch's answer positions; ``batch_accuracy``: per kind, the
    share of the batch's answers the model got right *before* that step's update (each batch is
    new data, so this is a held-out learning curve); ``seconds``: wall time of the loop.
    """

    losses: tuple[float, ...]
    batch_accuracy: dict[str, tuple[float, ...]]
    seconds: float


def train_on_answers(
    model: nn.Module, corpus: Corpus, steps: int, batch_size: int, lr: float
) -> TrainingLog:
    """Train ``model`` for ``steps`` minibatches of ``batch_size`` sequences of ``corpus``.

    Loss: cross-entropy at the answer positions only. Adam (``ml.Adam``, betas 0.9 and 0.98),
    learning rate ``lr`` decaying to 0 on a cosine. ``corpus`` needs ``steps · batch_size``
    sequences; batch ``i`` is rows ``i·batch_size`` onwards, so no sequence is seen twice.
    """
    if len(corpus) < steps * batch_size:
        raise ValueError(f"corpus has {len(corpus)} sequences; {steps}·{batch_size} needed")
    adam = Adam(model.parameters(), lr=lr, betas=(0.9, 0.98))  # ml.fit's Adam, lesson 02
    losses, right = [], {kind: [] for kind in corpus.kind_names}
    start = time.perf_counter()
    model.train()
    for step in range(steps):
        batch = corpus.rows(step * batch_size, (step + 1) * batch_size)
        logits = model(batch.ids[:, :-1])  # (B, T-1, vocab): a guess at every next token
        kinds, targets = batch.kinds[:, :-1], batch.ids[:, 1:]  # (B, T-1) each
        graded = kinds >= 0  # the answer positions
        loss = F.cross_entropy(logits[graded], targets[graded])
        adam.zero_grad()
        loss.backward()
        adam.lr = lr * (0.5 * (1 + math.cos(math.pi * step / steps)))  # cosine: lr → 0
        adam.step()
        losses.append(loss.item())
        hit = logits.detach().argmax(-1) == targets  # (B, T-1)
        for code, kind in enumerate(corpus.kind_names):
            right[kind].append(hit[kinds == code].float().mean().item())
    model.eval()
    seconds = time.perf_counter() - start
    return TrainingLog(tuple(losses), {k: tuple(v) for k, v in right.items()}, seconds)


@dataclass(frozen=True)
class TrainedModel:
    """One trained model and what it scored on the held-out corpus.

    ``accuracy``: per kind, argmax accuracy at the answer positions of
    ``make_corpus(task, setup.eval_size, setup.eval_seed)``. ``parameters`` and
    ``non_embedding_parameters`` are counted from the module. ``model`` is the caller's copy.
    """

    name: str
    seed: int
    steps: int
    model: MiniMindForCausalLM
    log: TrainingLog
    accuracy: dict[str, float]
    parameters: int
    non_embedding_parameters: int


_training_runs = 0


def training_run_count() -> int:
    """How many models ``train_model`` has actually trained (cache misses) in this process.

    A test or benchmark reads it before and after a widget redraw to see that nothing trained.
    """
    return _training_runs


def train_and_evaluate(name: str, seed: int, steps: int, setup: Setup = SETUP) -> TrainedModel:
    """Build model ``name``, train it on fresh data, score it on held-out data (no cache).

    ``train_model`` is the cached way to call this; every call here trains (and is counted by
    ``training_run_count``).
    """
    global _training_runs
    _training_runs += 1
    task = fact_task(setup)
    model = build_model(name, seed, task, setup)  # initialised under seeded(seed)
    data = make_corpus(task, steps * setup.batch_size, seed=setup.data_seed_offset + seed)
    with fixed_threads(setup.training_threads):  # backward gains from a second thread
        log = train_on_answers(model, data, steps, setup.batch_size, setup.lr)
    held_out = make_corpus(task, setup.eval_size, setup.eval_seed)
    accuracy = accuracy_per_kind(model, held_out)  # forward passes on one thread, as _logits says
    total, non_embedding = parameter_counts(model)
    return TrainedModel(name, seed, steps, model, log, accuracy, total, non_embedding)


_cached_training = lru_cache(maxsize=32)(train_and_evaluate)


def train_model(
    name: str, seed: int, steps: int | None = None, setup: Setup = SETUP
) -> TrainedModel:
    """``train_and_evaluate(name, seed, steps, setup)``, cached on the arguments.

    The model is initialised under ``seeded(seed)``; the data are ``steps · batch_size`` fresh
    sequences from ``make_corpus`` with seed ``setup.data_seed_offset + seed``; training runs on
    ``setup.training_threads`` CPU threads. The caller's RNG and thread count are left as they
    were. ``steps=None`` means ``setup.steps``. A second call trains nothing and hands back its
    own copy of the model.
    """
    if not isinstance(setup, Setup):
        raise ValueError(f"setup must be an l08.Setup, got {type(setup).__name__}")
    if name not in MODEL_NAMES:
        raise ValueError(f"unknown model {name!r}; expected one of: {', '.join(MODEL_NAMES)}")
    check_nonnegative_int("seed", seed)
    steps = setup.steps if steps is None else check_positive_int("steps", steps)
    cached = _cached_training(name, seed, steps, setup)
    return replace(cached, model=copy.deepcopy(cached.model), accuracy=dict(cached.accuracy))


def learning_curve(log: TrainingLog, kind: str, window: int = 10) -> tuple[list[int], list[float]]:
    """Batch accuracy of ``kind`` averaged over blocks of ``window`` steps.

    Returns ``(steps, accuracy)``: the last step of each block and the block's mean accuracy.
    """
    if kind not in log.batch_accuracy:
        raise ValueError(f"unknown kind {kind!r}; expected one of: {', '.join(log.batch_accuracy)}")
    check_positive_int("window", window)
    values = log.batch_accuracy[kind]
    blocks = range(0, len(values) - window + 1, window)
    return [b + window for b in blocks], [statistics.fmean(values[b : b + window]) for b in blocks]


# --- evaluation and hooks ------------------------------------------------------------------------


def _logits(model: nn.Module, ids: Tensor) -> Tensor:
    """``model(ids)`` as float32 without gradients, on one CPU thread (fastest at this size, and
    far faster than two threads on a busy machine)."""
    with torch.no_grad(), one_thread():
        return model(ids).float()


def accuracy_per_kind(model: nn.Module, corpus: Corpus) -> dict[str, float]:
    """Argmax accuracy at the graded positions of ``corpus``, per kind name.

    Puts ``model`` in eval mode. Raises ``ValueError`` if a kind has no graded position.
    """
    model.eval()
    prediction = _logits(model, corpus.ids[:, :-1]).argmax(-1)  # (N, T-1)
    kinds, targets = corpus.kinds[:, :-1], corpus.ids[:, 1:]
    result = {}
    for code, kind in enumerate(corpus.kind_names):
        graded = kinds == code
        if not graded.any():
            raise ValueError(f"the corpus has no graded position of kind {kind!r}")
        result[kind] = (prediction[graded] == targets[graded]).float().mean().item()
    return result


def accuracy_table(runs: Sequence[TrainedModel]) -> dict[str, dict[str, list[float]]]:
    """``{model name: {kind: [accuracy per run, in the order given]}}`` from trained runs."""
    if not runs:
        raise ValueError("accuracy_table needs at least one trained run")
    table: dict[str, dict[str, list[float]]] = {}
    for run in runs:
        per_kind = table.setdefault(run.name, {kind: [] for kind in run.accuracy})
        for kind, value in run.accuracy.items():
            per_kind[kind].append(value)
    return table


def spread(values: Sequence[float]) -> tuple[float, float, float]:
    """``(mean, min, max)`` of ``values``."""
    if not values:
        raise ValueError("spread needs at least one value")
    return statistics.fmean(values), min(values), max(values)


#: What a hook may do to a sublayer's output: ``(B, T, h)`` → ``(B, T, h)``.
Replacement = Callable[[Tensor], Tensor]


def _sublayer(model: nn.Module, sublayer: str, layer: int) -> nn.Module:
    if sublayer not in ("mlp", "self_attn"):
        raise ValueError(f"sublayer must be 'mlp' or 'self_attn', got {sublayer!r}")
    layers = model.model.layers
    if isinstance(layer, bool) or not isinstance(layer, int) or not 0 <= layer < len(layers):
        raise ValueError(f"layer must be an integer from 0 to {len(layers) - 1}, got {layer!r}")
    module = getattr(layers[layer], sublayer)
    if module is None:
        raise ValueError(f"layer {layer} of this model has no {sublayer}")
    return module


@contextmanager
def replaced_outputs(
    model: nn.Module, replacements: Mapping[tuple[str, int], Replacement]
) -> Iterator[None]:
    """Within the block, ``(sublayer, layer)``'s output is replaced by ``fn(output)``.

    ``sublayer`` is ``"mlp"`` or ``"self_attn"``: a forward hook on
    ``model.model.layers[layer].<sublayer>`` returns the new output. ``lambda out:
    torch.zeros_like(out)`` knocks the sublayer out. The hooks come off afterwards, also on error.
    """
    modules = [(_sublayer(model, s, i), fn) for (s, i), fn in replacements.items()]
    handles = [m.register_forward_hook(lambda _m, _a, out, fn=fn: fn(out)) for m, fn in modules]
    try:
        yield
    finally:
        for handle in handles:
            handle.remove()


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


# --- activation patching -------------------------------------------------------------------------


#: The kinds whose answer depends on the subject, which activation patching corrupts.
SUBJECT_KINDS: tuple[str, ...] = ("recall", "fetch")
#: The sites ``restored_logits`` can put back: a layer's MLP output, or the residual stream
#: (残差流) entering layer ℓ (``"hidden"``, ℓ = 0 is the embedding's output, ℓ = L the last
#: layer's output before the final norm).
SITES: tuple[str, ...] = ("mlp", "hidden")


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
    if site == "mlp":
        return _sublayer(model, "mlp", layer)
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
            raise ValueError(f"site must be one of {', '.join(SITES)}, got {site!r}")
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


# --- the MLP as key-value memory -----------------------------------------------------------------


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
    that have one answer / ask one relation.
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

    def share_above(self, threshold: float = 0.5, control: bool = False) -> float:
        """The share of units whose hit rate (or control hit rate) exceeds ``threshold``."""
        rates = self.control_hit_rate if control else self.hit_rate
        return (rates > threshold).float().mean().item()


def key_value_reading(
    model: nn.Module, task: FactTask, corpus: Corpus, layer: int, k: int = 50
) -> KeyValueReading:
    """Read layer ``layer``'s MLP as key–value memory on the recall and fetch positions."""
    check_positive_int("k", k)
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

    return KeyValueReading(
        layer, k, coefficients, answers, tokens, previous, logits, favourite,
        hits(favourite), hits(control), purity(answers), purity(tokens),
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


# --- your own MiniMind ---------------------------------------------------------------------------

#: The one kind of question of a probe made of running text: every next token.
NEXT_TOKEN: tuple[str, ...] = ("next token",)
#: ``<|im_start|>`` in MiniMind's tokenizer (MiniMind2 and minimind-3): the token every training
#: text starts with.
MINIMIND_BOS_ID = 1


def next_token_probe(ids: Tensor) -> Corpus:
    """Running text ``(N, T)`` as a ``Corpus`` whose one kind is ``"next token"``: every
    position but the last is graded (its answer is the token after it)."""
    if not isinstance(ids, Tensor) or ids.dim() != 2 or ids.shape[1] < 2:
        shape = tuple(ids.shape) if isinstance(ids, Tensor) else type(ids).__name__
        raise ValueError(f"ids must be a (N, T) tensor of token ids with T ≥ 2, got {shape}")
    kinds = torch.zeros_like(ids, dtype=torch.long)
    kinds[:, -1] = NO_ANSWER
    return Corpus(ids.long().clone(), kinds, NEXT_TOKEN)


def sample_probe(
    model: nn.Module, n: int, length: int, seed: int, start_id: int = MINIMIND_BOS_ID
) -> Corpus:
    """``n`` texts of ``length`` tokens that ``model`` writes itself, as a ``next_token_probe``.

    Each starts with ``start_id`` and continues by sampling every next token from the model's
    own distribution (temperature 1, a generator seeded with ``seed``; the caller's RNG is left
    alone), so the text is in the model's own language even without a tokenizer to write it.
    """
    check_positive_int("n", n)
    check_nonnegative_int("seed", seed)
    if check_positive_int("length", length) < 2:
        raise ValueError(f"length must be at least 2 (a token and the one after it), got {length}")
    vocab = model.lm_head.weight.shape[0]
    if isinstance(start_id, bool) or not isinstance(start_id, int) or not 0 <= start_id < vocab:
        raise ValueError(f"start_id must be a token id from 0 to {vocab - 1}, got {start_id!r}")
    g = torch.Generator().manual_seed(seed)
    ids = torch.full((n, 1), start_id, dtype=torch.long)
    model.eval()
    for _ in range(length - 1):
        p = _logits(model, ids)[:, -1].softmax(-1)  # (n, vocab)
        ids = torch.cat([ids, torch.multinomial(p, 1, generator=g)], 1)
    return next_token_probe(ids)


def vocabulary_names(vocab_size: int, tokenizer: object | None = None) -> list[str]:
    """A name for every token id: ``tokenizer.decode([id])`` (``repr`` of it, so spaces and
    newlines show) when a tokenizer is given, else the id itself as text."""
    check_positive_int("vocab_size", vocab_size)
    if tokenizer is None:
        return [str(i) for i in range(vocab_size)]
    return [repr(tokenizer.decode([i]))[1:-1] or f"<{i}>" for i in range(vocab_size)]
