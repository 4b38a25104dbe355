"""The benchmark suite's quick mode runs end to end and writes every section (no timing checks).

Without Chromium the browser section is skipped and says why, as the browser tests skip
(``lab_browser/availability.py``), unless ``MINIMIND_LAB_REQUIRE_BROWSER=1``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import ipywidgets as widgets
import nbformat
import pytest

from benchmarks.ffn import QUICK_HIDDEN, QUICK_TOKENS
from benchmarks.report import SECTION_TITLES
from benchmarks.sliders import RESULT_MARKER, value_plan
from benchmarks.stats import percentile, summarize
from lab_browser.availability import (
    CHROMIUM_ENV,
    HOW_TO_INSTALL,
    REQUIRE_ENV,
    REQUIRED_NOTE,
    why_no_browser,
)

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def quick_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    out = tmp_path_factory.mktemp("bench") / "RESULTS.md"
    proc = subprocess.run(
        [sys.executable, "-m", "benchmarks", "--quick", "--out", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return proc.stdout, out.read_text(encoding="utf-8")


@pytest.mark.slow
def test_quick_mode_writes_every_section(quick_run: tuple[str, str]) -> None:
    stdout, markdown = quick_run
    for text in (stdout, markdown):
        for heading in [
            "# minimind-lab benchmark results",
            "## Machine",
            *SECTION_TITLES.values(),
            "## Load during the run",
            "## Budgets",
        ]:
            assert heading in text, heading
    for fact in ["| CPU |", "| Python |", "| torch |", "| Device |", "| Mode | quick"]:
        assert fact in markdown, fact
    # The FFN table has the floor and the three real variants, forward and forward+backward,
    # at the machine's thread count and at 1 thread (the same when the machine has one core).
    for variant in ["floor", "FeedForward", "reference", "fused gate+up"]:
        assert markdown.count(f"| {variant} |") in (2, 4), variant
    # ... at the one size where the ratio to the floor means something (benchmarks/README.md).
    ffn_rows = [line for line in _section(markdown, "ffn").splitlines() if "| cpu/" in line]
    assert ffn_rows and all(f"| {QUICK_HIDDEN} |" in row for row in ffn_rows), ffn_rows
    assert f"hidden [{QUICK_HIDDEN}], {QUICK_TOKENS} tokens" in markdown
    if os.environ.get("ATEN_CPU_CAPABILITY") == "default":  # the test command's settings
        assert "torch ran its portable CPU kernels here" in _section(markdown, "ffn")
    # The browser section: one lesson control and the floor, each with a measured total; or,
    # where the browser tests skip (no Chromium, not required), a skip that says why.
    browser = _section(markdown, "browser")
    missing = why_no_browser()
    if missing is None:
        assert len(_browser_rows(browser)) == 2, browser
        assert _browser_rows(browser)[-1].startswith("| floor (precomputed PNGs) |"), browser
    else:
        assert f"Skipped: {missing}" in browser and not _browser_rows(browser), browser
        assert f"[benchmarks] browser: skipped: {missing}" in stdout
    assert "## Errors" not in markdown


def _section(markdown: str, name: str) -> str:
    """One section of the report, from its title to the next ``## `` heading."""
    return markdown.split(SECTION_TITLES[name], 1)[1].split("\n## ", 1)[0]


def _browser_rows(browser: str) -> list[str]:
    """The measured rows (widget / control) of the browser section's table."""
    return [
        line
        for line in browser.splitlines()
        if line.startswith("| ") and " / " in line and not line.startswith("| Widget |")
    ]


@pytest.mark.parametrize("required", [False, True], ids=["skips", "required-fails"])
@pytest.mark.slow
def test_browser_section_without_chromium(tmp_path: Path, required: bool) -> None:
    """No Chromium (the variable names a file that does not exist): skipped and said why,
    exit 0; with ``MINIMIND_LAB_REQUIRE_BROWSER=1`` the same run is an error, exit 1."""
    missing_chromium = tmp_path / "no-such-chromium"
    env = {**os.environ, CHROMIUM_ENV: str(missing_chromium)}
    env.pop(REQUIRE_ENV, None)
    if required:
        env[REQUIRE_ENV] = "1"
    out = tmp_path / "RESULTS.md"
    proc = subprocess.run(
        [sys.executable, "-m", "benchmarks", "--quick", "--only", "browser", "--out", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    markdown = out.read_text(encoding="utf-8")
    browser = _section(markdown, "browser")
    reason = f"no Chromium found: {CHROMIUM_ENV}={missing_chromium} is not a file"
    assert reason in browser and HOW_TO_INSTALL in browser, browser
    assert not _browser_rows(browser)
    if required:
        assert proc.returncode == 1, proc.stdout[-3000:] + proc.stderr[-3000:]
        errors = markdown.split("## Errors", 1)[1]
        assert reason in errors and REQUIRED_NOTE in errors, markdown
        assert "1 error(s); exit status 1" in proc.stderr
    else:
        assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
        assert f"Skipped: {reason}: {HOW_TO_INSTALL}." in browser
        assert f"[benchmarks] browser: skipped: {reason}" in proc.stdout
        assert "## Errors" not in markdown and REQUIRED_NOTE not in markdown


@pytest.mark.slow
def test_quick_mode_leaves_results_md_alone(quick_run: tuple[str, str]) -> None:
    stdout, _ = quick_run
    assert "benchmarks/RESULTS.md" not in stdout.splitlines()[-1]


@pytest.mark.parametrize(
    ("control", "expected_values"),
    [
        (widgets.IntSlider(value=1, min=1, max=100), None),
        (widgets.FloatSlider(value=0.5, min=0.0, max=2.0, step=0.1), None),
        (widgets.IntSlider(value=2, min=1, max=4), {1, 2, 3, 4}),
        (widgets.Dropdown(options=["relu", "gelu", "silu"], value="gelu"), {0, 1, 2}),
        (widgets.Checkbox(value=False), {False, True}),
        (widgets.FloatLogSlider(value=1.0, base=10, min=-2, max=2), None),
    ],
)
def test_value_plan_covers_the_range_and_always_changes(control, expected_values) -> None:
    attribute, plan, first_touch = value_plan(control, sets=20)
    assert len(plan) >= 20
    current = getattr(control, attribute)
    assert all(a != b for a, b in zip([current, *plan[:-1]], plan, strict=True)), "no change"
    assert current not in plan[:first_touch]
    if expected_values is not None:
        assert set(plan) == expected_values
        assert first_touch == len(expected_values) - 1
    if attribute == "value" and not isinstance(control, widgets.Checkbox):
        lo = control.base**control.min if hasattr(control, "base") else control.min
        hi = control.base**control.max if hasattr(control, "base") else control.max
        assert min(plan) == pytest.approx(lo) and max(plan) == pytest.approx(hi)


def test_value_plan_skips_controls_it_cannot_drive() -> None:
    assert value_plan(widgets.Text(value="x"), sets=20) is None
    assert value_plan(widgets.Dropdown(options=["only"]), sets=20) is None


def test_summary_statistics() -> None:
    values = [5.0, 1.0, 4.0, 2.0, 3.0]
    assert percentile(values, 50) == 3.0 and percentile(values, 25) == 2.0
    assert percentile(values, 95) == pytest.approx(4.8)
    s = summarize(values)
    assert (s.median, s.iqr, s.minimum, s.maximum, s.n) == (3.0, 2.0, 1.0, 5.0, 5)
    with pytest.raises(ValueError, match="zero measurements"):
        summarize([])


@pytest.mark.slow
def test_notebook_profiler_names_the_slow_function(tmp_path: Path) -> None:
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell("%matplotlib inline\nimport time"),
        nbformat.v4.new_code_cell("def slow_step():\n    time.sleep(0.05)\nslow_step()"),
    ]
    path = tmp_path / "tiny.ipynb"
    nbformat.write(nb, path)
    proc = subprocess.run(
        [sys.executable, "-m", "benchmarks._worker", "profile-notebook", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    result = proc.stdout.strip().splitlines()[-1]
    assert result.startswith(RESULT_MARKER)
    assert "time.sleep" in result and "cells failed" not in result
