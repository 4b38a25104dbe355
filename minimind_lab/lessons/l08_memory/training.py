"""Lesson 08: Training on the answer positions, cached per (model, seed, steps, setup)."""

from __future__ import annotations

import copy
import math
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

import torch.nn.functional as F
from torch import nn

from ..._checks import check_nonnegative_int, check_positive_int
from ..._threads import fixed_threads
from ...model import MiniMindForCausalLM
from ...train import Adam
from .._run_cache import compute_if_free, is_being_computed, shared_result
from .evaluation import accuracy_per_kind
from .models import ALL_MODEL_NAMES, MODEL_NAMES, build_model, parameter_counts
from .task import SETUP, Corpus, Setup, fact_task, make_corpus

__all__ = [
    "TrainedModel",
    "accuracy_table",
    "TrainingLog",
    "learning_curve",
    "train_and_evaluate",
    "train_model",
    "train_on_answers",
    "training_run_count",
]


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


_training_runs = 0


def training_run_count() -> int:
    """How many models this process has actually trained (``train_model``'s cache misses, and
    under ``python3 run.py test`` the lesson's models trained while waiting for another).

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


def _train_once_per_run(name: str, seed: int, steps: int, setup: Setup) -> TrainedModel:
    """``train_and_evaluate``, or what another process of this test run already trained.

    Under ``python3 run.py test`` the notebook's kernel, the figure builders and the browser's
    kernel each need these models; ``shared_result`` trains them once per run and arithmetic
    (``lessons/_run_cache.py``). Outside a test run it simply trains.
    """
    key = (name, seed, steps, setup)
    _train_others_while_busy(key)
    return shared_result("l08-training", key, lambda: train_and_evaluate(name, seed, steps, setup))


def _train_others_while_busy(key: tuple[str, int, int, Setup]) -> None:
    """While another process of the test run trains ``key``'s model, train the lesson's other
    models (``SETUP``'s ``MODEL_NAMES`` × seeds) that no process has started, instead of waiting
    idle. Only for the lesson's own models: a test's small setups are left to wait.

    Both editions of lesson 08 run side by side under ``python3 run.py test`` and ask for the
    same models in the same order; each model then trained in one kernel while the other waited
    for it. Now the waiting kernel trains the next free model and stores it for whichever kernel
    asks first, so the two split the models between them. Checked between trainings, so it may
    return one training after ``key``'s model is stored; it returns at once when no free model
    is left (``shared_result`` then waits for ``key``'s). Outside a test run nothing is ever
    busy and this returns at once. These trainings count in ``training_run_count``.
    """
    name, seed = key[0], key[1]
    lesson = [(n, s, SETUP.steps, SETUP) for n in MODEL_NAMES for s in SETUP.seeds]
    if key not in lesson:
        return
    while is_being_computed("l08-training", key):
        for other in lesson:
            if other == key:
                continue
            try:
                trained = compute_if_free(
                    "l08-training", other, lambda other=other: train_and_evaluate(*other)
                )
            except Exception as error:
                raise RuntimeError(
                    f"training {other[0]!r} seed {other[1]} while waiting for {name!r} seed "
                    f"{seed} (trained here for another process of the test run) failed"
                ) from error
            if trained:
                break
        else:
            return


_cached_training = lru_cache(maxsize=32)(_train_once_per_run)


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
    if name not in ALL_MODEL_NAMES:
        raise ValueError(f"unknown model {name!r}; expected one of: {', '.join(ALL_MODEL_NAMES)}")
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
