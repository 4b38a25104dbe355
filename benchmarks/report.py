"""The Markdown report (printed and written to RESULTS.md) from the sections' results."""

from __future__ import annotations

from dataclasses import dataclass, field

from .browser import BROWSER_REDRAW_BUDGET_S, BROWSER_REFIT_BUDGET_S, BrowserResult
from .ffn import FORWARD_GOAL, FULL_TOKENS, QUICK_HIDDEN, QUICK_TOKENS, FFNCase
from .figures import FiguresResult
from .lessons import (
    ALL_LESSONS_BUDGET_S,
    LESSON_BUDGET_S,
    TRAINED_LESSON_BUDGET_S,
    LessonResult,
)
from .sliders import REDRAW_BUDGET_S, REFIT_BUDGET_S, WidgetResult
from .stats import fmt_ms, fmt_seconds

SECTION_TITLES = {
    "lessons": "## 1. Lessons: cold run time",
    "sliders": "## 2. Sliders: set value → redraw finished",
    "browser": "## 3. In the browser: key press → new picture on screen",
    "ffn": "## 4. FeedForward against its floor",
    "figures": "## 5. Figures: regenerate all",
}


@dataclass
class Report:
    """Everything one run measured, plus the run's settings and load."""

    machine: dict[str, str]
    settings: dict[str, str]
    lessons: list[LessonResult] | None = None
    lessons_note: str = ""
    widgets: list[WidgetResult] | None = None
    widgets_note: str = ""
    browser: BrowserResult | None = None
    ffn: list[FFNCase] | None = None
    figures: FiguresResult | None = None
    loads: dict[str, str] = field(default_factory=dict)
    verdicts: list[str] = field(default_factory=list)
    misses: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def _mark(ok: bool | None) -> str:
    return "–" if ok is None else ("pass" if ok else "**MISS**")


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines


def _details(summary: str, body: str) -> list[str]:
    return [
        "",
        f"<details><summary>{summary}</summary>",
        "",
        "```text",
        body.rstrip(),
        "```",
        "",
        "</details>",
    ]


def _lessons(report: Report) -> list[str]:
    out = [SECTION_TITLES["lessons"], ""]
    if report.lessons_note:
        out += [report.lessons_note, ""]
    if not report.lessons:
        return out + ["No lessons were run.", ""]
    out += [
        f"Each notebook executed top to bottom in a **new kernel** by nbclient (wall time from "
        f"kernel start to the last reply). Budget on a 2-core CPU: each lesson that trains "
        f"models (`trains` in the lesson registry) ≤ {TRAINED_LESSON_BUDGET_S:.0f} s; each other "
        f"≤ {LESSON_BUDGET_S:.0f} s "
        f"(median) and all others together ≤ {ALL_LESSONS_BUDGET_S:.0f} s. `Kernel CPU` "
        "= the kernel process's CPU time (median): wall ≫ CPU means the run waited for a "
        "core (a busy machine), not that the lesson computes that long.",
        "",
    ]
    rows, total = [], 0.0
    for r in report.lessons:
        if r.wall is None:
            rows.append([r.name, "ERROR", "", "", "", "", r.error or ""])
            report.errors.append(f"lesson {r.name}: {r.error}")
            continue
        if not r.trains_a_model:
            total += r.wall.median
        slow = r.slowest_cells[0] if r.slowest_cells else None
        slow_text = f"cell {slow.index} `{slow.first_line}` {slow.seconds:.2f} s" if slow else ""
        cpu_text = f"{r.cpu.median:.2f} s" if r.cpu else "n/a"
        rows.append(
            [
                r.name,
                f"{r.wall.median:.2f} s",
                f"{r.wall.minimum:.2f}–{r.wall.maximum:.2f} s",
                cpu_text,
                f"{r.kernel_start.median:.2f} s",
                str(r.wall.n),
                _mark(r.within_budget),
                slow_text.replace("|", "\\|"),
            ]
        )
        if not r.within_budget:
            report.misses.append(
                f"lesson {r.name}: median {r.wall.median:.2f} s > "
                f"{r.budget:.0f} s (kernel CPU {cpu_text})"
            )
    ran = [r for r in report.lessons if r.wall is not None]
    others = [r for r in ran if not r.trains_a_model]
    all_ok = all(r.wall is not None for r in report.lessons) and total <= ALL_LESSONS_BUDGET_S
    cpu_total = sum(r.cpu.median for r in others if r.cpu)
    rows.append(
        [
            f"**all {len(others)} others** (sum of medians)",
            f"**{total:.2f} s**",
            "",
            f"{cpu_total:.2f} s",
            "",
            "",
            _mark(all_ok),
            "",
        ]
    )
    if ran:
        n_ok = sum(bool(r.within_budget) for r in ran)
        report.verdicts.append(
            f"Lessons: {n_ok}/{len(report.lessons)} within their budget; all but the trained "
            f"model's {total:.1f} s vs {ALL_LESSONS_BUDGET_S:.0f} s "
            f"({'pass' if all_ok else 'MISS'})."
        )
    if ran and total > ALL_LESSONS_BUDGET_S:
        report.misses.append(f"all other lessons: {total:.2f} s > {ALL_LESSONS_BUDGET_S:.0f} s")
    out += _table(
        [
            "Lesson",
            "Median wall",
            "Min–max",
            "Kernel CPU",
            "Kernel start",
            "Runs",
            "≤ budget",
            "Slowest cell (median)",
        ],
        rows,
    )
    for r in report.lessons:
        if r.slowest_cells and not r.within_budget:
            cells = "\n".join(
                f"cell {c.index}: {c.seconds:.2f} s  {c.first_line}" for c in r.slowest_cells
            )
            out += _details(f"{r.name}: slowest cells", cells)
        if r.profile:
            out += _details(f"{r.name}: cProfile (in-process run of all cells)", r.profile)
    return out + [""]


def _sliders(report: Report) -> list[str]:
    out = [SECTION_TITLES["sliders"], ""]
    if report.widgets_note:
        out += [report.widgets_note, ""]
    if not report.widgets:
        return out + ["No widgets were measured.", ""]
    out += [
        "Each widget is built in a fresh worker process (cold caches). For each control the "
        "suite assigns values across its range (slider min..max, every dropdown option), first "
        "each new value once (**first touch**, cold), then cycling again (**warm**); other "
        "controls stay at their defaults. Time = assignment until `InteractivePlot` finished "
        "the synchronous redraw (draw + PNG via Agg + outputs). **Re-fit** controls are those "
        "with `continuous_update=False` or during whose redraws `minimind_lab.train.fit` ran; "
        f"budget p95 ≤ {REFIT_BUDGET_S * 1e3:.0f} ms for them, ≤ "
        f"{REDRAW_BUDGET_S * 1e3:.0f} ms for redraw-only controls. The verdict uses p95 over "
        "all sets (wall time, what a learner waits); the first-touch verdict is shown beside it. "
        "`CPU` is the worker's CPU time per set (all sets): it does not grow while the process "
        "waits for a core, so wall ≫ CPU means the machine was busy, not that the code is slow. "
        "`Max GC` = the longest time the garbage collector ran within one set (`gc.callbacks`). "
        "Times in ms.",
        "",
    ]
    rows, builds = [], []
    for w in report.widgets:
        if w.error:
            builds.append([w.name, w.lesson, "ERROR: " + w.error.replace("|", "\\|")])
            report.errors.append(f"widget {w.name}: {w.error}")
            continue
        builds.append([w.name, w.lesson, f"{w.build_s * 1e3:.0f} ms"])
        for c in w.controls:
            if c.overall is None:
                rows.append([w.name, c.control, c.kind, "", "", "", "", "", "", "", "", "", c.note])
                continue
            ft = c.first_touch
            ft_text = (
                f"{fmt_ms(ft.median)} / {fmt_ms(ft.p95)} / {fmt_ms(ft.maximum)} (n={ft.n})"
                if ft
                else "–"
            )
            wm = c.warm
            warm_text = f"{fmt_ms(wm.median)} / {fmt_ms(wm.p95)} (n={wm.n})" if wm else "–"
            kind = f"re-fit ({c.refit_reason})" if c.refit else "redraw"
            rows.append(
                [
                    w.name,
                    c.control,
                    c.kind,
                    kind,
                    ft_text,
                    warm_text,
                    f"{fmt_ms(c.overall.median)} / {fmt_ms(c.overall.p95)}",
                    f"{fmt_ms(c.cpu.median)} / {fmt_ms(c.cpu.p95)}",
                    fmt_ms(c.gc_max_s),
                    f"{c.budget_s * 1e3:.0f}",
                    _mark(c.within_budget),
                    _mark(c.first_touch_within_budget),
                    c.note,
                ]
            )
            if c.within_budget is False or c.first_touch_within_budget is False:
                which = "all sets" if c.within_budget is False else "first touch only"
                p95 = c.overall.p95 if c.within_budget is False else c.first_touch.p95
                cpu_ok = c.cpu.p95 <= c.budget_s
                report.misses.append(
                    f"slider {w.name}.{c.control} ({which}): p95 {p95 * 1e3:.0f} ms > "
                    f"{c.budget_s * 1e3:.0f} ms; CPU p95 {c.cpu.p95 * 1e3:.0f} ms "
                    + (
                        "(within budget: the miss is waiting for a core)"
                        if cpu_ok
                        else "(over budget: the work itself is too slow)"
                    )
                )
    measured = [c for w in report.widgets for c in w.controls if c.overall is not None]
    if measured:
        report.verdicts.append(
            f"Sliders: {sum(bool(c.within_budget) for c in measured)}/{len(measured)} controls "
            f"within budget (p95, all sets); "
            f"{sum(c.first_touch_within_budget is not False for c in measured)}/{len(measured)} "
            "on first touch."
        )
    out += _table(["Widget", "Lesson", "Build + first draw"], builds) + [""]
    out += _table(
        [
            "Widget",
            "Control",
            "Type",
            "Kind",
            "First touch p50 / p95 / max",
            "Warm p50 / p95",
            "All p50 / p95",
            "CPU p50 / p95",
            "Max GC",
            "Budget",
            "All p95",
            "First-touch p95",
            "Note",
        ],
        rows,
    )
    for w in report.widgets:
        for c in w.controls:
            if c.profile:
                out += _details(
                    f"{w.name}.{c.control}: cProfile (build + first-touch pass)", c.profile
                )
    return out + [""]


def _ffn(report: Report) -> list[str]:
    out = [SECTION_TITLES["ffn"], ""]
    if not report.ffn:
        return out + ["Not run.", ""]
    first = next((c for c in report.ffn if not c.error), None)
    tokens = first.tokens if first else "?"
    out += [
        f"{tokens} tokens; the floor is the matrix products alone on preallocated tensors "
        "(3 forward, 9 forward+backward). Forward under `no_grad`; forward+backward computes "
        "gradients for input and weights. Variants are timed interleaved, one sample each per "
        "round. `×floor` = the variant's time over the floor's in the same round, median over "
        "rounds (min–max in brackets); `best/best` = fastest sample over the floor's fastest. "
        "At 1 thread the calling thread's CPU time (`time.thread_time`) is the whole cost and "
        "does not stretch when other processes take the cores, so `×floor, CPU time` is the "
        "load-independent comparison; the wall-time ratios at the full thread count show what "
        f"a learner's machine sees. Goal: forward ≤ {FORWARD_GOAL:.2f}× floor (median ratio; "
        "CPU time at 1 thread, wall time otherwise).",
        "",
        "The ratio means something only where the matrix products fill the call and the "
        "intermediates stay small: when a call lasts well under a millisecond (h = 64, 128 "
        "tokens) the fixed cost of each extra operation (call, dispatch, allocation) shows as "
        "tens of percent, and when the intermediates (tokens × m floats) reach megabytes, "
        "whether the memory allocator hands a call fresh pages, which the floor's preallocated "
        "tensors never need, depends on what the process did before, so the ratio jumps between "
        "runs. The full run measures at "
        f"{FULL_TOKENS} tokens and `--quick` at hidden {QUICK_HIDDEN} with {QUICK_TOKENS} tokens "
        "for that reason; "
        '`benchmarks/README.md` ("Where the FFN ratio means something") has the sweep.',
        "",
    ]
    rows = []
    for c in report.ffn:
        where = f"{c.device}/{c.dtype}"
        if c.error:
            rows.append(
                [
                    where,
                    str(c.threads),
                    str(c.hidden),
                    "",
                    c.mode,
                    "ERROR",
                    c.error.replace("|", "\\|"),
                    "",
                    "",
                    "",
                    "",
                    "",
                    "",
                ]
            )
            report.errors.append(f"ffn h={c.hidden} {c.mode}: {c.error}")
            continue
        for v in c.variants:
            ratio = (
                f"{v.ratio.median:.3f} ({v.ratio.minimum:.3f}–{v.ratio.maximum:.3f})"
                if v.ratio
                else "1"
            )
            use_cpu = c.threads == 1 and c.device == "cpu"
            cpu = "–"
            if use_cpu:
                cpu = (
                    f"{v.cpu_ratio.median:.3f} ({v.cpu_ratio.minimum:.3f}–"
                    f"{v.cpu_ratio.maximum:.3f})"
                    if v.cpu_ratio
                    else "1"
                )
            goal = ""
            if c.mode == "forward" and v.name == "FeedForward":
                judged = v.cpu_ratio if use_cpu else v.ratio
                ok = judged.median <= FORWARD_GOAL
                goal = _mark(ok)
                if not ok:
                    report.misses.append(
                        f"FeedForward forward h={c.hidden} {where} {c.threads} thread(s): "
                        f"{judged.median:.3f}× floor ({'CPU time' if use_cpu else 'wall'}) > "
                        f"{FORWARD_GOAL:.2f}×"
                    )
            rows.append(
                [
                    where,
                    str(c.threads),
                    str(c.hidden),
                    str(c.intermediate),
                    c.mode,
                    v.name,
                    fmt_seconds(v.time.median),
                    fmt_seconds(v.time.iqr),
                    fmt_seconds(v.time.minimum),
                    ratio,
                    f"{v.best_ratio:.3f}",
                    cpu,
                    goal,
                ]
            )
    goal_rows = [r for r in rows if r[-1]]
    if goal_rows:
        report.verdicts.append(
            f"FeedForward forward ≤ {FORWARD_GOAL:.2f}× floor: "
            f"{sum(r[-1] == 'pass' for r in goal_rows)}/{len(goal_rows)} cases."
        )
    out += _table(
        [
            "Device/dtype",
            "Threads",
            "h",
            "m",
            "Mode",
            "Variant",
            "Median wall",
            "IQR",
            "Fastest",
            "×floor, wall (min–max)",
            "best/best",
            "×floor, CPU time",
            f"≤ {FORWARD_GOAL:.2f}×",
        ],
        rows,
    )
    diffs = ", ".join(
        sorted({f"h={c.hidden} {c.mode}: {c.max_abs_diff:.1e}" for c in report.ffn if not c.error})
    )
    out += ["", f"Max |difference| of FeedForward and fused vs reference: {diffs}.", ""]
    if any(c.kernels == "DEFAULT" for c in report.ffn):
        out += [
            "torch ran its portable CPU kernels here (capability DEFAULT, e.g. "
            "`ATEN_CPU_CAPABILITY=default`, which the test command sets so that numbers match "
            "on every machine): SiLU and the product are not vectorized, so every ratio comes "
            "out higher than with the machine's own kernels, as a learner runs them.",
            "",
        ]
    return out


def _figures(report: Report) -> list[str]:
    out = [SECTION_TITLES["figures"], ""]
    f = report.figures
    if f is None:
        return out + ["Not run.", ""]
    if f.note:
        out += [f.note, ""]
    if f.error:
        report.errors.append(f"figures: {f.error}")
        return out + [f"ERROR: {f.error}", ""]
    if f.wall is None:
        return out
    out += [
        "`python -m minimind_lab.figures --out <new tmpdir>`, wall time including "
        "interpreter start.",
        "",
    ]
    out += _table(
        ["Runs", "Median", "Min–max", "Files written"],
        [
            [
                str(f.wall.n),
                fmt_seconds(f.wall.median),
                f"{fmt_seconds(f.wall.minimum)}–{fmt_seconds(f.wall.maximum)}",
                str(f.files),
            ]
        ],
    )
    return out + [""]


def _browser(report: Report) -> list[str]:
    out = [SECTION_TITLES["browser"], ""]
    result = report.browser
    if result is None:
        return out + ["Not measured.", ""]
    if result.error:
        return out + [f"Not measured: {result.error}", ""]
    if result.skipped:
        report.verdicts.append(f"Browser: skipped, nothing measured: {result.skipped}.")
        return out + [f"Skipped: {result.skipped}.", ""]
    out += [
        "JupyterLab in headless Chromium (the browser suite's server and page helpers) runs a "
        "notebook that builds every lesson widget and a **floor** widget. Each control gets "
        f"{result.changes} learner changes: a real key press on the slider handle (ArrowRight, "
        "back at the end) or the next dropdown option. Time runs from the moment the page got "
        "the key or option event: **to picture** until the `<img>` has its new `src`; "
        "**decode** until `img.decode()` resolved; **frame** until the next animation frame; "
        "**total** is their sum, what the learner waits for. **Kernel** = `draw()` + PNG "
        "encoding as the kernel timed them (`InteractivePlot.timings`, 0 for a frame served "
        "from the widget's frame cache); **messaging** = to picture − kernel. **Drawn** is the "
        "share of changes the kernel drew (the rest came from the frame cache); **first "
        "touch** is total over the drawn changes only. The floor serves precomputed PNGs of a "
        "typical size, so its total is the pipeline with no kernel work. Budget: p95 total ≤ "
        f"{BROWSER_REDRAW_BUDGET_S * 1e3:.0f} ms for controls that only redraw, ≤ "
        f"{BROWSER_REFIT_BUDGET_S * 1e3:.0f} ms for those that re-fit "
        "(`continuous_update=False`). Times in ms: median / p95 (max for total).",
        "",
    ]
    if result.note:
        out += [result.note, ""]

    def cell(summary) -> str:
        return "–" if summary is None else f"{fmt_ms(summary.median)} / {fmt_ms(summary.p95)}"

    rows = []
    controls = [*result.controls, *([result.floor] if result.floor else [])]
    for c in controls:
        total = (
            "–"
            if c.total is None
            else (f"{fmt_ms(c.total.median)} / {fmt_ms(c.total.p95)} / {fmt_ms(c.total.maximum)}")
        )
        is_floor = c is result.floor
        verdict = "(reference)" if is_floor else _mark(c.within_budget)
        rows.append(
            [
                c.widget,
                c.lesson if not is_floor else "–",
                c.control,
                "no kernel work" if is_floor else ("re-fit" if c.refit else "redraw"),
                f"{c.budget * 1e3:.0f} ms" if not is_floor else "–",
                total,
                cell(c.kernel),
                cell(c.messaging),
                cell(c.decode),
                cell(c.frame),
                f"{c.drawn_share:.0%}",
                cell(c.first_touch),
                verdict,
                c.note,
            ]
        )
        if not is_floor and c.within_budget is False:
            report.misses.append(
                f"browser {c.widget} / {c.control}: p95 {c.total.p95 * 1e3:.0f} ms > "
                f"{c.budget * 1e3:.0f} ms"
            )
    out += _table(
        [
            "Widget",
            "Lesson",
            "Control",
            "Kind",
            "Budget",
            "Total (p50 / p95 / max)",
            "Kernel",
            "Messaging",
            "Decode",
            "Frame",
            "Drawn",
            "First touch",
            "p95 ≤ budget",
            "Note",
        ],
        rows,
    )
    measured = [c for c in result.controls if c.total is not None]
    if measured:
        n_ok = sum(bool(c.within_budget) for c in measured)
        floor = result.floor.total if result.floor and result.floor.total else None
        floor_text = f"; floor p50 {fmt_ms(floor.median)}, p95 {fmt_ms(floor.p95)}" if floor else ""
        report.verdicts.append(
            f"Browser: {n_ok}/{len(measured)} controls within their p95 budget{floor_text}."
        )
    return out + [""]


def render(report: Report, sections: list[str]) -> str:
    """The whole report as Markdown; fills ``report.misses`` and ``report.errors``."""
    out = [
        "# minimind-lab benchmark results",
        "",
        "Written by `python -m benchmarks` (see `benchmarks/README.md`). Timings on a shared "
        "machine are noisy; read the load averages below before comparing runs.",
        "",
        "## Machine",
        "",
    ]
    out += _table(["", ""], [[k, v] for k, v in report.machine.items()]) + [""]
    out += _table(["Setting", "Value"], [[k, v] for k, v in report.settings.items()]) + [""]
    renderers = {
        "lessons": _lessons,
        "sliders": _sliders,
        "browser": _browser,
        "ffn": _ffn,
        "figures": _figures,
    }
    body = []
    for name in sections:
        body += renderers[name](report)
    out += body
    if report.loads:
        out += ["## Load during the run", ""]
        out += _table(
            ["When", "Load average (1/5/15 min)"], [[k, v] for k, v in report.loads.items()]
        ) + [""]
    out += ["## Budgets", ""]
    out += [f"- {v}" for v in report.verdicts]
    if report.misses:
        out += [f"- MISS: {m}" for m in report.misses]
    else:
        out += ["- Every measured budget is met."]
    if report.errors:
        out += ["", "## Errors", ""] + [f"- {e}" for e in report.errors]
    return "\n".join(out).rstrip() + "\n"
