"""Lesson run time: every ``notebooks/*.ipynb`` executed cold (a new kernel each run) by nbclient.

The wall time of one run spans kernel start to the last cell's reply, as a learner pressing
"Restart and run all" waits for it. The kernel process's CPU time (``/proc``, Linux) is recorded
beside it: it does not stretch while the kernel waits for a core on a busy machine. Per-cell
times come from nbclient's execution timestamps, so a slow lesson names its slow cells.
"""

from __future__ import annotations

import datetime as dt
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

from minimind_lab.lessons.registry import LESSONS

from .stats import Summary, summarize

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
LESSON_BUDGET_S = 15.0
#: The lessons that train models in the notebook (``trains`` in the lesson registry: lesson 08's
#: tiny MiniMinds, lesson 09's live point) have a budget of their own each ...
TRAINED_LESSONS = tuple(entry.notebook for entry in LESSONS if entry.trains)
TRAINED_LESSON_BUDGET_S = 40.0
#: ... and the others share one: their medians add up to at most this.
ALL_LESSONS_BUDGET_S = 35.0


@dataclass
class CellTime:
    """One code cell's execution time in one run."""

    index: int
    first_line: str
    seconds: float


@dataclass
class LessonResult:
    """Repeated cold runs of one notebook."""

    name: str
    wall: Summary | None = None
    kernel_start: Summary | None = None
    slowest_cells: list[CellTime] = field(default_factory=list)
    error: str | None = None
    runs: list[float] = field(default_factory=list)
    cpu: Summary | None = None
    profile: str = ""

    @property
    def trains_a_model(self) -> bool:
        """Whether this is a lesson with its own budget (``TRAINED_LESSONS``)."""
        return self.name in TRAINED_LESSONS

    @property
    def budget(self) -> float:
        """Its median wall-time budget in seconds."""
        return TRAINED_LESSON_BUDGET_S if self.trains_a_model else LESSON_BUDGET_S

    @property
    def within_budget(self) -> bool | None:
        """Median wall time within ``budget``; ``None`` if it did not run."""
        return None if self.wall is None else self.wall.median <= self.budget


def lesson_paths() -> list[Path]:
    """The registered lesson notebooks, in lesson order."""
    return [NOTEBOOKS / entry.notebook for entry in LESSONS]


def _parse_time(stamp: str | None) -> dt.datetime | None:
    if not stamp:
        return None
    return dt.datetime.fromisoformat(stamp.replace("Z", "+00:00"))


def _cell_times(nb) -> list[CellTime]:
    times = []
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        meta = cell.get("metadata", {}).get("execution", {})
        start = _parse_time(meta.get("iopub.execute_input") or meta.get("shell.execute_request"))
        end = _parse_time(meta.get("shell.execute_reply"))
        if start and end:
            first = next((ln for ln in cell.source.splitlines() if ln.strip()), "")
            times.append(CellTime(index, first[:60], (end - start).total_seconds()))
    return times


def _process_cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds of process ``pid`` (Linux ``/proc``), else None."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def _kernel_pid(client) -> int | None:
    provisioner = getattr(client.km, "provisioner", None)
    process = getattr(provisioner, "process", None)
    return getattr(process, "pid", None)


def run_once(path: Path, timeout: int = 600) -> tuple[float, float, list[CellTime], float | None]:
    """Execute ``path`` in a new kernel.

    Returns (wall seconds, kernel start seconds, cell times, kernel CPU seconds or None). Raises
    nbclient's ``CellExecutionError`` if a cell raises.
    """
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(
        nb,
        timeout=timeout,
        kernel_name="python3",
        record_timing=True,
        resources={"metadata": {"path": str(path.parent)}},
    )
    start = time.perf_counter()
    with client.setup_kernel():
        kernel_ready = time.perf_counter()
        for index, cell in enumerate(nb.cells):
            client.execute_cell(cell, index)
        pid = _kernel_pid(client)
        cpu = _process_cpu_seconds(pid) if pid else None
    wall = time.perf_counter() - start
    return wall, kernel_ready - start, _cell_times(nb), cpu


def bench_lessons(paths: list[Path], repeats: int, log=print) -> list[LessonResult]:
    """Run each notebook ``repeats`` times, each in a new kernel; rounds interleave the lessons."""
    results = {p.name: LessonResult(p.name) for p in paths}
    starts: dict[str, list[float]] = {p.name: [] for p in paths}
    cpus: dict[str, list[float]] = {p.name: [] for p in paths}
    cells: dict[str, list[list[CellTime]]] = {p.name: [] for p in paths}
    for round_index in range(repeats):
        for path in paths:
            result = results[path.name]
            if result.error:
                continue
            try:
                wall, kernel, cell_times, cpu = run_once(path)
            except Exception as exc:  # noqa: BLE001 - a failing lesson is reported, not fatal
                result.error = f"{type(exc).__name__}: {str(exc).strip().splitlines()[-1][:200]}"
                log(f"  lesson {path.name}: ERROR {result.error}")
                continue
            result.runs.append(wall)
            starts[path.name].append(kernel)
            if cpu is not None:
                cpus[path.name].append(cpu)
            cells[path.name].append(cell_times)
            log(f"  lesson {path.name} run {round_index + 1}/{repeats}: {wall:.2f} s")
    for name, result in results.items():
        if result.runs:
            result.wall = summarize(result.runs)
            result.kernel_start = summarize(starts[name])
            result.cpu = summarize(cpus[name]) if cpus[name] else None
            # Slowest cells by their median time over the runs.
            per_cell: dict[int, list[CellTime]] = {}
            for run in cells[name]:
                for ct in run:
                    per_cell.setdefault(ct.index, []).append(ct)
            medians = [
                CellTime(i, cts[0].first_line, summarize([c.seconds for c in cts]).median)
                for i, cts in per_cell.items()
            ]
            result.slowest_cells = sorted(medians, key=lambda c: -c.seconds)[:3]
    return list(results.values())
