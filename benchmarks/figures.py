"""Time to regenerate every figure: ``python -m minimind_lab.figures --out <tmpdir>``."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from .stats import Summary, summarize

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class FiguresResult:
    """Repeated regenerations of all figures (each a new process, into a new empty folder)."""

    wall: Summary | None = None
    files: int = 0
    note: str = ""
    error: str | None = None
    runs: list[float] = field(default_factory=list)


def figures_cli_present() -> bool:
    """Whether ``minimind_lab.figures`` exists (it is written by another task)."""
    return importlib.util.find_spec("minimind_lab.figures") is not None


def bench_figures(repeats: int, timeout: float = 600, log=print) -> FiguresResult:
    """Run the figures CLI ``repeats`` times; wall time includes interpreter start and imports."""
    result = FiguresResult()
    if not figures_cli_present():
        result.note = "skipped: minimind_lab.figures does not exist yet"
        return result
    for i in range(repeats):
        with tempfile.TemporaryDirectory() as tmp:
            start = time.perf_counter()
            proc = subprocess.run(
                [sys.executable, "-m", "minimind_lab.figures", "--out", tmp],
                cwd=ROOT,
                capture_output=True,
                text=True,
                timeout=timeout,
            )
            wall = time.perf_counter() - start
            if proc.returncode != 0:
                tail = (proc.stderr or proc.stdout).strip().splitlines()
                result.error = f"exit {proc.returncode}: {tail[-1] if tail else ''}"[:300]
                log(f"  figures: ERROR {result.error}")
                return result
            result.files = sum(1 for p in Path(tmp).rglob("*") if p.is_file())
        result.runs.append(wall)
        log(f"  figures run {i + 1}/{repeats}: {wall:.2f} s, {result.files} files")
    result.wall = summarize(result.runs)
    return result
