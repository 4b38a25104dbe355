"""Lesson 08: the sweeps too slow for the lesson, stored as data with the settings that made them.

Two sweeps over the lesson's models, three seeds each, written by one command::

    python -m minimind_lab.lessons.l08_memory sweep

1. **Learning rates**: every model of ``SweepSettings.lr_models`` trained for ``lr_steps`` steps
   at every learning rate of ``lrs``, so each model can be compared at its own best.
2. **Steps to a recall threshold**: every model of ``step_models`` trained, at its own best
   learning rate from sweep 1, with a budget of each of ``step_counts`` steps (a new run per
   budget, its cosine schedule over that budget); per seed, the smallest budget after which
   held-out recall and fetch both reach ``threshold``.

The record (``sweep.json`` beside this module) holds the lesson's ``Setup``, the
``SweepSettings``, the arithmetic it ran under and one row per run: ``(model, lr, steps, seed)``
and the held-out accuracy per kind. The lesson reads it; a test re-runs one row and checks it.
"""

from __future__ import annotations

import dataclasses
import json
import os
import statistics
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import torch

from ...runtime import REPRODUCIBLE_CPU_ENV
from .models import ALL_MODEL_NAMES
from .task import SETUP, Setup
from .training import train_model

__all__ = [
    "SWEEP",
    "SWEEP_FILE",
    "SweepRecord",
    "SweepRow",
    "SweepSettings",
    "load_sweep",
    "planned_runs",
    "run_sweep",
    "save_sweep",
    "sweep_point",
]

#: Where ``python -m minimind_lab.lessons.l08_memory sweep`` writes the record the lesson reads.
SWEEP_FILE = Path(__file__).with_name("sweep.json")


@dataclass(frozen=True)
class SweepSettings:
    """What the two sweeps train (see the module docstring)."""

    lr_models: tuple[str, ...] = (
        "full",
        "attention-only",
        "narrow attention-only",
        "plain MLP",
        "frozen MLP",
        "MLPs removed",
    )
    lrs: tuple[float, ...] = (1e-3, 2e-3, 3e-3, 5e-3, 1e-2)
    lr_steps: int = 200
    step_models: tuple[str, ...] = ("full", "attention-only", "narrow attention-only")
    step_counts: tuple[int, ...] = (100, 150, 200, 300, 400)
    threshold: float = 0.98

    def __post_init__(self) -> None:
        for name in (*self.lr_models, *self.step_models):
            if name not in ALL_MODEL_NAMES:
                raise ValueError(f"unknown model {name!r}; expected one of {ALL_MODEL_NAMES}")
        if not self.lrs or any(not lr > 0 for lr in self.lrs):
            raise ValueError(f"lrs must be positive numbers, got {self.lrs!r}")
        if not self.step_counts or any(s < 1 for s in self.step_counts):
            raise ValueError(f"step_counts must be positive integers, got {self.step_counts!r}")
        if not 0 < self.threshold <= 1:
            raise ValueError(f"threshold must be in (0, 1], got {self.threshold!r}")


SWEEP = SweepSettings()


@dataclass(frozen=True)
class SweepRow:
    """One trained run: model, learning rate, step budget, seed, held-out accuracy per kind."""

    model: str
    lr: float
    steps: int
    seed: int
    accuracy: dict[str, float]


def sweep_point(name: str, seed: int, steps: int, lr: float, setup: Setup = SETUP) -> SweepRow:
    """Train model ``name`` (``train_model``, cached) at learning rate ``lr`` for ``steps`` steps
    and return its held-out accuracy as a ``SweepRow``: the one computation both sweeps repeat."""
    run = train_model(name, seed, steps, replace(setup, lr=lr))
    return SweepRow(name, lr, steps, seed, dict(run.accuracy))


@dataclass(frozen=True)
class SweepRecord:
    """The stored sweeps: the settings that made them and one ``SweepRow`` per run."""

    setup: Setup
    settings: SweepSettings
    rows: tuple[SweepRow, ...]
    arithmetic: dict[str, str] = field(default_factory=dict)

    def accuracies(self, model: str, lr: float, steps: int, kind: str = "recall") -> list[float]:
        """``kind``'s held-out accuracy of every seed's run of ``(model, lr, steps)``, in seed
        order. Raises ``ValueError`` when the record has no such run."""
        rows = sorted(
            (r for r in self.rows if (r.model, r.lr, r.steps) == (model, lr, steps)),
            key=lambda r: r.seed,
        )
        if not rows:
            raise ValueError(f"the sweep has no run of {model!r} at lr {lr} for {steps} steps")
        return [r.accuracy[kind] for r in rows]

    def facts(self, model: str, lr: float, steps: int) -> list[float]:
        """Per seed, the mean of recall and fetch accuracy (the two kinds that need the facts)."""
        recall = self.accuracies(model, lr, steps, "recall")
        fetch = self.accuracies(model, lr, steps, "fetch")
        return [(a + b) / 2 for a, b in zip(recall, fetch, strict=True)]

    def best_lr(self, model: str) -> float:
        """The learning rate of ``lrs`` whose ``lr_steps``-step runs get the facts right most
        often, averaged over the seeds (ties: the smaller learning rate)."""
        means = {
            lr: statistics.fmean(self.facts(model, lr, self.settings.lr_steps))
            for lr in self.settings.lrs
        }
        return max(means, key=lambda lr: (means[lr], -lr))

    def steps_to_threshold(self, model: str) -> list[int | None]:
        """Per seed, the smallest budget of ``step_counts`` after which the run at ``model``'s
        best learning rate answers recall and fetch both at ``threshold`` or better (``None``:
        not within the largest budget)."""
        lr, out = self.best_lr(model), []
        seeds = sorted({r.seed for r in self.rows if r.model == model})
        for seed in seeds:
            reached = [
                r.steps
                for r in self.rows
                if (r.model, r.lr, r.seed) == (model, lr, seed)
                and r.steps in self.settings.step_counts
                and min(r.accuracy["recall"], r.accuracy["fetch"]) >= self.settings.threshold
            ]
            out.append(min(reached) if reached else None)
        return out


def planned_runs(setup: Setup = SETUP, settings: SweepSettings = SWEEP) -> dict[str, int]:
    """How many runs ``run_sweep`` trains per model: each learning rate and seed for the
    ``lr_models``, each step count and seed for the ``step_models``, a run both sweeps share
    (the rate sweep's step count at the best rate) once."""
    seeds = len(setup.seeds)
    runs = dict.fromkeys((*settings.lr_models, *settings.step_models), 0)
    for name in settings.lr_models:
        runs[name] += len(settings.lrs) * seeds
    for name in settings.step_models:
        shared = name in settings.lr_models and settings.lr_steps in settings.step_counts
        runs[name] += (len(settings.step_counts) - shared) * seeds
    return runs


def run_sweep(
    setup: Setup = SETUP,
    settings: SweepSettings = SWEEP,
    progress: Callable[[SweepRecord, SweepRow], None] | None = None,
    done: Sequence[SweepRow] = (),
) -> SweepRecord:
    """Train every run of both sweeps (``len(lr_models)·len(lrs)·seeds`` plus
    ``len(step_models)·len(step_counts)·seeds``, the shared ones once) and return the record.

    ``done``: rows of an unfinished record of the same setup and settings, not trained again.
    ``progress(record so far, new row)`` is called after every run (to print it, or to save).
    """
    rows = {(r.model, r.lr, r.steps, r.seed): r for r in done}
    arithmetic = {k: os.environ.get(k, "") for k in REPRODUCIBLE_CPU_ENV}
    arithmetic["torch"] = torch.__version__
    arithmetic["training_threads"] = str(setup.training_threads)

    def point(name: str, seed: int, steps: int, lr: float) -> None:
        if (name, lr, steps, seed) not in rows:
            rows[name, lr, steps, seed] = row = sweep_point(name, seed, steps, lr, setup)
            if progress is not None:
                progress(SweepRecord(setup, settings, tuple(rows.values()), arithmetic), row)

    for name in settings.lr_models:
        for lr in settings.lrs:
            for seed in setup.seeds:
                point(name, seed, settings.lr_steps, lr)
    partial = SweepRecord(setup, settings, tuple(rows.values()))
    for name in settings.step_models:
        lr = partial.best_lr(name) if name in settings.lr_models else setup.lr
        for steps in settings.step_counts:
            for seed in setup.seeds:
                point(name, seed, steps, lr)
    return SweepRecord(setup, settings, tuple(rows.values()), arithmetic)


def save_sweep(record: SweepRecord, path: Path | str = SWEEP_FILE) -> Path:
    """Write ``record`` as JSON to ``path`` (through a temporary file, so a failed write leaves
    the old file as it was)."""
    path = Path(path)
    data = {
        "command": "python -m minimind_lab.lessons.l08_memory sweep",
        "setup": dataclasses.asdict(record.setup),
        "settings": dataclasses.asdict(record.settings),
        "arithmetic": record.arithmetic,
        "rows": [dataclasses.asdict(r) for r in record.rows],
    }
    text = json.dumps(data, indent=1, sort_keys=True) + "\n"
    handle, temporary = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return path


def _tuples(data: dict, names: Sequence[str]) -> dict:
    return {k: tuple(v) if k in names else v for k, v in data.items()}


def load_sweep(path: Path | str = SWEEP_FILE) -> SweepRecord:
    """Read a record written by ``save_sweep``. Raises ``ValueError`` naming the file when it is
    missing or not such a record."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        setup = Setup(**_tuples(data["setup"], ("seeds",)))
        settings = SweepSettings(
            **_tuples(data["settings"], ("lr_models", "lrs", "step_models", "step_counts"))
        )
        rows = tuple(SweepRow(**r) for r in data["rows"])
    except (OSError, json.JSONDecodeError, KeyError, TypeError) as error:
        raise ValueError(
            f"{path} is not a lesson-08 sweep record ({error}); write it with "
            "`python -m minimind_lab.lessons.l08_memory sweep`"
        ) from error
    return SweepRecord(setup, settings, rows, dict(data.get("arithmetic", {})))
