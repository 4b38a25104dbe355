"""``run.py``'s test tiers: the full tier compares notebooks, the quick one runs package tests."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from lab_browser.server import load_run_module  # run.py is a script, not a package module

ROOT = Path(__file__).resolve().parents[1]


def test_full_tier_compares_notebooks_and_passes_extra_arguments_on() -> None:
    args = load_run_module().pytest_arguments(["-k", "moe"])
    assert args == ["--nbval", "--nbval-current-env", "-k", "moe"]


def test_quick_tier_runs_only_tests_without_the_slow_markers() -> None:
    run = load_run_module()
    args = run.pytest_arguments(["--quick", "-x"])
    assert args[0] == "tests" and "--nbval" not in args and "-x" in args
    assert args[args.index("-m") + 1] == run.QUICK_DESELECT
    pyproject = (ROOT / "pyproject.toml").read_text()  # tomllib would need Python 3.11
    for marker in ("slow", "browser", "arithmetic"):
        assert f"not {marker}" in run.QUICK_DESELECT and f'"{marker}: ' in pyproject


def test_quick_tier_collects_no_notebook_and_no_slow_test() -> None:
    """What the quick tier would run, listed (not run): no .ipynb, nothing marked slow."""
    run = load_run_module()
    listed = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "--collect-only",
            "-q",
            *run.pytest_arguments(["--quick"]),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    ).stdout
    ids = [line for line in listed.splitlines() if "::" in line]
    assert len(ids) > 500, listed[-2000:]
    assert not [i for i in ids if i.split("::")[0].endswith(".ipynb")]
    assert not [i for i in ids if "test_each_figure_is_drawn" in i or "quick_mode_writes" in i]


def test_the_run_cache_variable_is_the_one_the_lessons_read() -> None:
    from minimind_lab.lessons._run_cache import RUN_CACHE_ENV

    assert load_run_module().RUN_CACHE_ENV == RUN_CACHE_ENV
