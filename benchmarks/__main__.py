"""Command line: ``python -m benchmarks [--quick] [--out PATH] [--only SECTION ...]``.

Full run (default): every lesson 3× cold, every widget with ≥ 20 values per control, every
control in JupyterLab in Chromium with ≥ 20 key presses or option changes, the FFN at hidden 512
and 768 with 512 tokens (inside the window where its ratio means something), the figures CLI 3×;
writes ``benchmarks/RESULTS.md``.
``--quick``: one lesson once, one widget with 3 values per control, one control in the browser
(and the floor), the FFN at hidden 768 with 256 tokens (where its ratio to the floor means
something; benchmarks/README.md), figures skipped;
meant for CI, so give it ``--out`` to leave RESULTS.md alone. Exit status 1 only on errors (a
lesson or widget that raises, a variant that disagrees), never on timing. Without Chromium or
Playwright the browser section is skipped and says why, as the browser tests skip; with
``MINIMIND_LAB_REQUIRE_BROWSER=1`` (CI) that is an error instead.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from . import machine
from .browser import bench_browser
from .ffn import FULL_TOKENS, QUICK_HIDDEN, QUICK_TOKENS, bench_ffn
from .figures import bench_figures
from .lessons import bench_lessons, lesson_paths
from .report import Report, render
from .sliders import bench_widgets, registered_widgets

SECTIONS = ("lessons", "sliders", "browser", "ffn", "figures")
DEFAULT_OUT = Path(__file__).resolve().parent / "RESULTS.md"
FFN_DIFF_LIMIT = {"float32": 1e-3, "bfloat16": 1e-1}


def parse_args(argv: list[str]) -> argparse.Namespace:
    """The command line's options."""
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="few repeats, tiny sizes, one lesson and one widget (CI smoke run)",
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=DEFAULT_OUT,
        help="where to write the Markdown report (default benchmarks/RESULTS.md)",
    )
    parser.add_argument(
        "--only",
        nargs="+",
        choices=SECTIONS,
        default=list(SECTIONS),
        help="run only these sections",
    )
    parser.add_argument(
        "--threads",
        type=int,
        default=machine.usable_cores(),
        help="torch threads for the FFN section (default: usable cores)",
    )
    parser.add_argument(
        "--repeats",
        type=int,
        default=None,
        help="cold runs per lesson and figure regenerations (default 3; quick 1)",
    )
    parser.add_argument(
        "--sets",
        type=int,
        default=None,
        help="values set per control, at least (default 20; quick 3)",
    )
    parser.add_argument(
        "--no-profile",
        action="store_true",
        help="do not cProfile what misses its budget (quick mode never does)",
    )
    parser.add_argument(
        "--json", type=Path, default=None, help="also write the raw numbers as JSON here"
    )
    return parser.parse_args(argv)


def main(argv: list[str]) -> int:
    """Run the chosen sections, print the report, write it; 1 if anything errored."""
    args = parse_args(argv)
    quick = args.quick
    repeats = args.repeats or (1 if quick else 3)
    sets = args.sets or (3 if quick else 20)
    profile = not (quick or args.no_profile)
    hiddens = [QUICK_HIDDEN] if quick else [512, 768]
    tokens = QUICK_TOKENS if quick else FULL_TOKENS
    rounds, min_sample = (5, 0.005) if quick else (7, 0.05)
    sections = [s for s in SECTIONS if s in args.only]
    report = Report(
        machine=machine.describe(args.threads),
        settings={
            "Mode": "quick (smoke run; numbers are not comparable)" if quick else "full",
            "Sections": ", ".join(sections),
            "Lesson runs each / figure runs": str(repeats),
            "Values per control (at least)": str(sets),
            "FFN sizes": f"hidden {hiddens}, {tokens} tokens, {rounds} interleaved rounds "
            f"(samples ≥ {min_sample * 1e3:.0f} ms), at {args.threads} and 1 "
            "thread(s)",
            "Profile budget misses": "yes (cProfile)" if profile else "no",
        },
    )
    log = print
    started = time.perf_counter()
    raw: dict[str, object] = {}
    if "lessons" in sections:
        report.loads["before lessons"] = machine.load_average()
        paths = lesson_paths()
        if quick:
            paths = paths[:1]
            report.lessons_note = "Quick mode: the first lesson only, one run."
        if not paths:
            report.lessons_note = "No notebooks in notebooks/ yet."
        log(f"[benchmarks] lessons: {len(paths)} notebooks × {repeats}")
        report.lessons = bench_lessons(paths, repeats, log=log)
        if profile:
            from .lessons import NOTEBOOKS
            from .sliders import _run_worker

            for r in report.lessons:
                if r.wall is not None and not r.within_budget:
                    prof, err = _run_worker(["profile-notebook", str(NOTEBOOKS / r.name)], 600)
                    r.profile = prof if prof is not None else f"profiling failed: {err}"
        raw["lessons"] = {r.name: r.runs for r in report.lessons}
    if "sliders" in sections:
        report.loads["before sliders"] = machine.load_average()
        widgets = registered_widgets()
        if quick:
            widgets = widgets[:1]
            report.widgets_note = f"Quick mode: the first widget only, {sets} values per control."
        if not widgets:
            report.widgets_note = "No widgets registered in WIDGET_REGISTRY yet."
        log(f"[benchmarks] sliders: {len(widgets)} widgets, ≥ {sets} values per control")
        report.widgets = bench_widgets(widgets, sets, profile_misses=profile, log=log)
        raw["sliders"] = {
            w.name: {c.control: c.overall.as_dict() if c.overall else None for c in w.controls}
            for w in report.widgets
        }
    if "browser" in sections:
        report.loads["before browser"] = machine.load_average()
        widgets = registered_widgets()[: 1 if quick else None]
        log(f"[benchmarks] browser: {len(widgets)} widgets, {sets} changes per control")
        report.browser = bench_browser(widgets, sets, quick=quick, log=log)
        if report.browser.error:
            report.errors.append(f"browser: {report.browser.error}")
        raw["browser"] = {
            f"{c.widget} / {c.control}": c.total.as_dict() if c.total else None
            for c in [*report.browser.controls, *filter(None, [report.browser.floor])]
        }
    if "ffn" in sections:
        report.loads["before FFN"] = machine.load_average()
        log(f"[benchmarks] ffn: hidden {hiddens}, {tokens} tokens, {args.threads} threads")
        report.ffn = bench_ffn(hiddens, tokens, rounds, min_sample, args.threads, log=log)
        for case in report.ffn:
            if not case.error and case.max_abs_diff > FFN_DIFF_LIMIT.get(case.dtype, 1e-3):
                case.error = (
                    f"variants disagree: max |diff| {case.max_abs_diff:.2e} for h={case.hidden}"
                )
        raw["ffn"] = [
            {
                "hidden": c.hidden,
                "mode": c.mode,
                "device": c.device,
                "variants": {v.name: v.time.as_dict() for v in c.variants},
            }
            for c in report.ffn
        ]
    if "figures" in sections:
        report.loads["before figures"] = machine.load_average()
        if quick:
            from .figures import FiguresResult

            report.figures = FiguresResult(note="skipped in quick mode")
        else:
            log(f"[benchmarks] figures × {repeats}")
            report.figures = bench_figures(repeats, log=log)
    report.loads["at the end"] = machine.load_average()
    report.settings["Suite wall time"] = f"{time.perf_counter() - started:.0f} s"
    text = render(report, sections)
    print()
    print(text)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text, encoding="utf-8")
    if args.json:
        args.json.write_text(json.dumps(raw, indent=1), encoding="utf-8")
    print(f"[benchmarks] wrote {args.out}")
    if report.errors:
        print(f"[benchmarks] {len(report.errors)} error(s); exit status 1", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
