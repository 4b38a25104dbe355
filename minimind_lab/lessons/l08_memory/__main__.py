"""``python -m minimind_lab.lessons.l08_memory sweep [--out FILE]``: train lesson 08's stored
sweeps (``sweep.py``) under the reproducible CPU settings and write the record the lesson reads."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from ..._progress import Progress
from ...runtime import REPRODUCIBLE_CPU_ENV
from .sweep import (
    SWEEP,
    SWEEP_FILE,
    SweepRecord,
    SweepRow,
    load_sweep,
    planned_runs,
    run_sweep,
    save_sweep,
)
from .task import SETUP


def main(argv: list[str] | None = None) -> int:
    """Parse the command line and run the sweep; returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m minimind_lab.lessons.l08_memory")
    parser.add_argument("command", choices=["sweep"], help="train and store the sweeps")
    parser.add_argument("--out", default=str(SWEEP_FILE), help="where to write the record")
    parser.add_argument(
        "--resume",
        default=None,
        help="an unfinished record (written after every run) whose rows are kept, not retrained",
    )
    args = parser.parse_args(argv)
    if any(os.environ.get(k) != v for k, v in REPRODUCIBLE_CPU_ENV.items()):
        # the settings act when torch starts: run again under them (as the lessons' tests do)
        env = {**os.environ, **REPRODUCIBLE_CPU_ENV}
        command = [sys.executable, "-m", "minimind_lab.lessons.l08_memory", *sys.argv[1:]]
        os.execve(sys.executable, command, env)

    partial = Path(f"{args.out}.partial")
    done: tuple[SweepRow, ...] = ()
    if args.resume:
        earlier = load_sweep(args.resume)
        if (earlier.setup, earlier.settings) != (SETUP, SWEEP):
            raise SystemExit(f"{args.resume} was made with other settings; not resumed")
        done = earlier.rows

    planned = planned_runs(SETUP, SWEEP)
    left = {name: runs - sum(r.model == name for r in done) for name, runs in planned.items()}
    finished = dict.fromkeys(planned, 0)
    shown: list[str] = []  # the model whose group the second bar shows

    with Progress(sum(left.values()), "runs", slots=1) as bars:

        def progress(record: SweepRecord, row: SweepRow) -> None:
            save_sweep(record, partial)
            finished[row.model] += 1
            if shown != [row.model]:  # the second bar follows this model's group
                shown[:] = [row.model]
                bars.start(0, row.model, left[row.model], "run")
            bars.step(0, finished[row.model])
            scores = ", ".join(f"{k} {v:.3f}" for k, v in row.accuracy.items())
            bars.finish(
                f"{row.model:<22} lr {row.lr:<7g} {row.steps:>4} steps seed {row.seed}: {scores}"
            )

        record = run_sweep(SETUP, SWEEP, progress, done)
    print(f"wrote {save_sweep(record, args.out)} ({len(record.rows)} runs)")
    partial.unlink(missing_ok=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
