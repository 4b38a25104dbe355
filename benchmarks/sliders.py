"""Slider latency: every widget in ``WIDGET_REGISTRY``, every control, many values, timed.

One set = assign a new value to a control and wait for the redraw to finish. ``InteractivePlot``
redraws synchronously inside the control's observer (Agg backend, PNG rendered), so the time from
the assignment returning is the whole redraw: ``draw`` plus PNG encoding plus pushing the outputs.

Each widget runs in a fresh worker process (``python -m benchmarks._worker widget NAME``), so
caches start cold: the first visit of a value is "first touch", later visits are "warm".

Re-fit controls (budget 300 ms instead of 150 ms) are those declared with
``continuous_update=False`` (the project convention for sliders that re-fit) or during whose
redraws ``minimind_lab.fit`` was seen to run (read from ``minimind_lab.fit_call_count()`` before
and after each first touch; nothing in the package is replaced).
"""

from __future__ import annotations

import cProfile
import gc
import io
import json
import math
import pstats
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .stats import Summary, summarize

ROOT = Path(__file__).resolve().parent.parent
REDRAW_BUDGET_S = 0.150
REFIT_BUDGET_S = 0.300
RESULT_MARKER = "BENCHMARK-RESULT:"


# ---------------------------------------------------------------- values to set on a control


def _distinct_values(control: Any, count: int) -> tuple[str, list[Any]] | None:
    """("value" | "index", distinct settable values) across the control's range, or None.

    Selection widgets (Dropdown, ToggleButtons, SelectionSlider, ...) are driven by ``index``;
    sliders by ``value``, ``count`` evenly spaced points from min to max snapped to the step.
    """
    import ipywidgets as w

    if isinstance(control, w.widgets.widget_selection._Selection):
        return "index", list(range(len(control.options)))
    if isinstance(control, (w.Checkbox, w.ToggleButton)):
        return "value", [False, True]
    if isinstance(control, w.FloatLogSlider):
        lo, hi, step = control.min, control.max, control.step or 0.0
        exps = [lo + (hi - lo) * i / max(count - 1, 1) for i in range(count)]
        if step:
            exps = [lo + round((e - lo) / step) * step for e in exps]
        return "value", _dedupe([control.base ** min(max(e, lo), hi) for e in exps])
    if isinstance(control, (w.IntRangeSlider, w.FloatRangeSlider)):
        lo_value = control.value[0]
        kind, highs = _numeric_points(control, count, lower=lo_value)
        return kind, [(lo_value, h) for h in highs if h > lo_value]
    if hasattr(control, "min") and hasattr(control, "max"):
        return _numeric_points(control, count)
    return None


def _numeric_points(control: Any, count: int, lower: float | None = None) -> tuple[str, list]:
    lo = control.min if lower is None else lower
    hi = control.max
    step = getattr(control, "step", None) or 0
    is_int = isinstance(control.min, int) and isinstance(step, int)
    if is_int:
        step = max(step, 1)
        grid = range(lo, hi + 1, step)
        if len(grid) <= count:
            return "value", list(grid)
        picks = [grid[round(i * (len(grid) - 1) / (count - 1))] for i in range(count)]
        return "value", _dedupe(picks)
    points = [lo + (hi - lo) * i / max(count - 1, 1) for i in range(count)]
    if step:
        points = [min(max(lo + round((p - lo) / step) * step, lo), hi) for p in points]
    return "value", _dedupe([round(p, 12) for p in points])


def _dedupe(values: list) -> list:
    seen: list = []
    for v in values:
        if not any(_same(v, s) for s in seen):
            seen.append(v)
    return seen


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, float) or isinstance(b, float):
        try:
            return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)
        except TypeError:
            return False
    return a == b


def value_plan(control: Any, sets: int) -> tuple[str, list[Any], int] | None:
    """How to drive ``control``: (attribute, values in order, number of first-touch values).

    The first pass visits every distinct value except the current one (first touch, cold); then
    the values are cycled from the current one (warm) until at least ``sets`` assignments and
    at least 10 warm ones (or a full warm pass, if shorter) are planned. Consecutive values
    always differ, so every assignment redraws.
    Returns None for a control type this suite does not know how to drive.
    """
    found = _distinct_values(control, sets)
    if found is None:
        return None
    attribute, values = found
    current = getattr(control, attribute)
    others = [v for v in values if not _same(v, current)]
    if not others:
        return None
    cycle = [current, *others]
    plan = list(others)
    warm_needed = max(min(len(cycle), 10), sets - len(others))
    plan += [cycle[i % len(cycle)] for i in range(warm_needed)]
    return attribute, plan, len(others)


# ---------------------------------------------------------------- the worker side


class GCClock:
    """Seconds the garbage collector ran, summed, via ``gc.callbacks`` (any generation)."""

    def __init__(self) -> None:
        self.total = 0.0
        self._start = 0.0

    def __call__(self, phase: str, _info: dict) -> None:
        if phase == "start":
            self._start = time.perf_counter()
        else:
            self.total += time.perf_counter() - self._start


def _set_and_time(plot: Any, control: Any, attribute: str, value: Any) -> tuple[float, float, int]:
    """(wall seconds, process CPU seconds, redraws) of one assignment."""
    before = plot.redraw_count
    cpu_start = time.process_time()
    start = time.perf_counter()
    setattr(control, attribute, value)
    elapsed = time.perf_counter() - start
    return elapsed, time.process_time() - cpu_start, plot.redraw_count - before


def measure_widget(name: str, sets: int) -> dict[str, Any]:
    """Build widget ``name`` and time ``sets``+ assignments per control (runs in the worker)."""
    import matplotlib

    matplotlib.use("Agg")
    from minimind_lab import fit_call_count
    from minimind_lab.widgets import all_widgets

    lesson, builder = all_widgets()[name]
    gc_clock = GCClock()
    gc.callbacks.append(gc_clock)
    start = time.perf_counter()
    plot = builder()
    build_s = time.perf_counter() - start
    controls = []
    for kw, control in plot.controls.items():
        row: dict[str, Any] = {
            "control": kw,
            "type": type(control).__name__,
            "continuous_update": getattr(control, "continuous_update", None),
        }
        plan = value_plan(control, sets)
        if plan is None:
            row["note"] = "not driven: unknown control type or a single value"
            controls.append(row)
            continue
        attribute, values, first_touch = plan
        initial = getattr(control, attribute)
        cold, warm, cpu, gc_pauses, redraws, cold_fits = [], [], [], [], [], 0
        for i, value in enumerate(values):
            fits_before, gc_before = fit_call_count(), gc_clock.total
            elapsed, cpu_s, n_redraws = _set_and_time(plot, control, attribute, value)
            (cold if i < first_touch else warm).append(elapsed)
            cpu.append(cpu_s)
            gc_pauses.append(gc_clock.total - gc_before)
            redraws.append(n_redraws)
            if i < first_touch:
                cold_fits += fit_call_count() - fits_before
        setattr(control, attribute, initial)  # leave the others' baseline as built
        row.update(
            cold=cold,
            warm=warm,
            cpu=cpu,
            gc=gc_pauses,
            fit_calls_first_touch=cold_fits,
            redraws_min=min(redraws),
            redraws_max=max(redraws),
            values=[_short(v) for v in values[:first_touch]],
        )
        controls.append(row)
    return {"name": name, "lesson": lesson, "build_s": build_s, "controls": controls}


def profile_widget(name: str, control_kw: str, sets: int, top: int = 12) -> str:
    """cProfile of building ``name`` and one first-touch pass over ``control_kw`` (worker side)."""
    import matplotlib

    matplotlib.use("Agg")
    from minimind_lab.widgets import all_widgets

    _, builder = all_widgets()[name]
    profiler = cProfile.Profile()
    profiler.enable()
    plot = builder()
    control = plot.controls[control_kw]
    plan = value_plan(control, sets)
    if plan is not None:
        attribute, values, first_touch = plan
        for value in values[:first_touch]:
            setattr(control, attribute, value)
    profiler.disable()
    return format_profile(profiler, top)


def format_profile(profiler: cProfile.Profile, top: int = 12) -> str:
    """Top functions by cumulative time: first the project's own, then any by own time."""
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.sort_stats("cumulative").print_stats(r"minimind_lab", top)
    stats.sort_stats("tottime").print_stats(top)
    lines = [ln for ln in out.getvalue().splitlines() if ln.strip()]
    return "\n".join(ln.replace(str(ROOT) + "/", "") for ln in lines)


def _short(value: Any) -> str:
    text = f"{value:.4g}" if isinstance(value, float) else repr(value)
    return text[:20]


# ---------------------------------------------------------------- the parent side


@dataclass
class ControlResult:
    """Latency of one control of one widget."""

    widget: str
    lesson: str
    control: str
    kind: str = ""
    refit: bool = False
    refit_reason: str = ""
    first_touch: Summary | None = None
    warm: Summary | None = None
    overall: Summary | None = None
    cpu: Summary | None = None
    gc_max_s: float = 0.0
    redraws_max: int = 1
    note: str = ""
    profile: str = ""

    @property
    def budget_s(self) -> float:
        """150 ms for redraw-only controls, 300 ms for re-fitting ones."""
        return REFIT_BUDGET_S if self.refit else REDRAW_BUDGET_S

    @property
    def within_budget(self) -> bool | None:
        """p95 over all sets within budget; None if not measured."""
        return None if self.overall is None else self.overall.p95 <= self.budget_s

    @property
    def first_touch_within_budget(self) -> bool | None:
        """p95 over first-touch sets within budget; None if there were none."""
        return None if self.first_touch is None else self.first_touch.p95 <= self.budget_s


@dataclass
class WidgetResult:
    """One widget: its build time and its controls."""

    name: str
    lesson: str
    build_s: float | None = None
    controls: list[ControlResult] = field(default_factory=list)
    error: str | None = None


def registered_widgets() -> list[tuple[str, str]]:
    """(lesson, name) of every registered widget, in lesson then name order."""
    from minimind_lab.widgets import all_widgets

    return sorted((lesson, name) for name, (lesson, _) in all_widgets().items())


def _run_worker(args: list[str], timeout: float) -> tuple[Any, str]:
    proc = subprocess.run(
        [sys.executable, "-m", "benchmarks._worker", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    for line in reversed(proc.stdout.splitlines()):
        if line.startswith(RESULT_MARKER):
            return json.loads(line[len(RESULT_MARKER) :]), ""
    tail = (proc.stderr or proc.stdout).strip().splitlines()
    return None, (tail[-1] if tail else f"worker exited {proc.returncode}")[:300]


def _classify(row: dict[str, Any]) -> tuple[bool, str]:
    reasons = []
    if row.get("continuous_update") is False:
        reasons.append("continuous_update=False")
    if row.get("fit_calls_first_touch", 0) > 0:
        reasons.append(f"fit() ran {row['fit_calls_first_touch']}×")
    return bool(reasons), ", ".join(reasons) or "redraw only"


def bench_widgets(
    names: list[tuple[str, str]], sets: int, profile_misses: bool, timeout: float = 600, log=print
) -> list[WidgetResult]:
    """Measure each widget in its own worker process; profile the controls that miss budget."""
    results = []
    for lesson, name in names:
        result = WidgetResult(name, lesson)
        payload, error = _run_worker(["widget", name, "--sets", str(sets)], timeout)
        if payload is None:
            result.error = error
            log(f"  widget {name}: ERROR {error}")
            results.append(result)
            continue
        result.build_s = payload["build_s"]
        for row in payload["controls"]:
            control = ControlResult(name, lesson, row["control"], kind=row["type"])
            control.note = row.get("note", "")
            if "cold" in row:
                control.refit, control.refit_reason = _classify(row)
                cold, warm = row["cold"], row["warm"]
                control.first_touch = summarize(cold) if cold else None
                control.warm = summarize(warm) if warm else None
                control.overall = summarize(cold + warm)
                control.cpu = summarize(row["cpu"])
                control.gc_max_s = max(row["gc"])
                control.redraws_max = row["redraws_max"]
                if row["redraws_min"] < 1:
                    control.note = "some sets did not redraw (value coerced?)"
                elif row["redraws_max"] > 1:
                    control.note = f"up to {row['redraws_max']} redraws per set"
            result.controls.append(control)
        missed = [
            c
            for c in result.controls
            if c.within_budget is False or c.first_touch_within_budget is False
        ]
        if profile_misses and missed:  # one profile per widget: its slowest control
            worst = max(missed, key=lambda c: c.overall.p95 / c.budget_s)
            prof, perr = _run_worker(
                ["profile-widget", name, worst.control, "--sets", str(sets)], timeout
            )
            worst.profile = prof if prof is not None else f"profiling failed: {perr}"
        log(
            f"  widget {name}: build {result.build_s * 1e3:.0f} ms, {len(result.controls)} controls"
        )
        results.append(result)
    return results
