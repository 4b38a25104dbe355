"""``python -m minimind_lab.lessons.l08_memory sweep [--out FILE]``: train lesson 08's stored
sweeps (``sweep.py``) under the reproducible CPU settings and write the record the lesson reads."""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from ...runtime import REPRODUCIBLE_CPU_ENV
from .sweep import SWEEP, SWEEP_FILE, SweepRecord, SweepRow, load_sweep, run_sweep, save_sweep
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
    start = time.perf_counter()

    partial = Path(f"{args.out}.partial")
    done: tuple[SweepRow, ...] = ()
    if args.resume:
        earlier = load_sweep(args.resume)
        if (earlier.setup, earlier.settings) != (SETUP, SWEEP):
            raise SystemExit(f"{args.resume} was made with other settings; not resumed")
        done = earlier.rows

    def progress(record: SweepRecord, row: SweepRow) -> None:
        save_sweep(record, partial)
        scores = ", ".join(f"{k} {v:.3f}" for k, v in row.accuracy.items())
        seconds = time.perf_counter() - start
        print(
            f"[{seconds:6.0f} s] {row.model:<22} lr {row.lr:<7g} {row.steps:>4} steps "
            f"seed {row.seed}: {scores}",
            flush=True,
        )

    record = run_sweep(SETUP, SWEEP, progress, done)
    print(f"wrote {save_sweep(record, args.out)} ({len(record.rows)} runs)")
    partial.unlink(missing_ok=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
