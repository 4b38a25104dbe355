"""``run.py``'s test tiers: the full tier compares notebooks, the quick one runs package tests."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from lab_browser.server import load_run_module  # run.py is a script, not a package module

ROOT = Path(__file__).resolve().parents[1]


def test_full_tier_compares_notebooks_and_passes_extra_arguments_on() -> None:
    run = load_run_module()
    args = run.pytest_arguments(["-k", "moe"])
    assert args == ["--nbval", "--nbval-current-env", *run.parallel_arguments([]), "-k", "moe"]


def test_tests_run_on_one_worker_per_core_with_each_file_kept_whole() -> None:
    run = load_run_module()
    assert run.parallel_arguments([], cores=2) == ["-n", "2", "--dist", "loadfile"]
    assert run.parallel_arguments([], cores=64)[:2] == ["-n", "4"]  # at most four
    assert run.parallel_arguments([], cores=1) == []
    for own in (["-n", "3"], ["-n3"], ["-nauto"], ["-p", "no:xdist"], ["--pdb"]):
        assert run.parallel_arguments(own, cores=2) == [], own


def test_the_start_line_says_what_runs_on_how_many_workers_and_how_long() -> None:
    run = load_run_module()
    line = run.plan_line("full", run.pytest_arguments([]), None)
    assert "every notebook of both editions" in line and "min on a 2-core machine" in line
    assert "took 9 min" in run.plan_line("full", ["-n", "2"], 540.0)
    named = run.plan_line("full", ["--nbval", "tests/test_ffn.py"], None)
    assert "the tests you named" in named


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


def test_the_lab_opens_on_a_start_page_that_links_both_editions_and_the_glossary() -> None:
    from minimind_lab.i18n import language, tr
    from minimind_lab.lessons.registry import LESSONS

    run = load_run_module()
    args = run.lab_arguments()
    assert f"--LabApp.default_url=/lab/tree/{run.START_PAGE}" in args
    assert "--ServerApp.ip=127.0.0.1" in args  # still loopback, token auth untouched
    assert not any("token=" in a.lower() or "password" in a.lower() for a in args)
    # A test server on copies of the lessons opens what it is told, not the start page.
    assert not any("default_url" in a for a in run.lab_arguments(root_dir=ROOT))
    page = (ROOT / "notebooks" / run.START_PAGE).read_text(encoding="utf-8")
    with language("zh"):
        for entry in LESSONS:
            assert f"[{entry.title}]({entry.notebook})" in page, entry.notebook
            assert f"[{tr(entry.title)}](zh/{entry.notebook})" in page, entry.notebook
    assert "](GLOSSARY.md)" in page and (ROOT / "notebooks" / "GLOSSARY.md").is_file()


def test_the_lab_settings_open_markdown_rendered_in_this_environment_only(
    tmp_path: Path, monkeypatch
) -> None:
    run = load_run_module()
    monkeypatch.setattr(run, "VENV", tmp_path / "venv")
    path = run.write_lab_settings()
    assert path == tmp_path / "venv/share/jupyter/lab/settings/overrides.json"
    settings = json.loads(path.read_text(encoding="utf-8"))
    viewers = settings["@jupyterlab/docmanager-extension:plugin"]["defaultViewers"]
    assert viewers == {"markdown": "Markdown Preview"}
    stamp = path.stat().st_mtime_ns
    assert run.write_lab_settings() == path and path.stat().st_mtime_ns == stamp  # unchanged


def test_the_test_run_waits_passively_unless_told_otherwise() -> None:
    run = load_run_module()
    assert run.test_scheduling({}) == {"OMP_WAIT_POLICY": "PASSIVE"}
    assert run.test_scheduling({"OMP_WAIT_POLICY": "ACTIVE"}) == {}  # a caller's own choice stays


TRAIN_ON_TWO_THREADS = """
import torch
torch.set_num_threads(2)
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(64, 256), torch.nn.SiLU(), torch.nn.Linear(256, 64))
opt = torch.optim.AdamW(model.parameters(), lr=1e-2)
x = torch.randn(512, 64)
for _ in range(20):
    loss = (model(x) - x.roll(1, 1)).pow(2).mean()
    opt.zero_grad(); loss.backward(); opt.step()
print(float(loss).hex(), float(sum(p.double().sum() for p in model.parameters())).hex())
"""


@pytest.mark.slow
def test_passive_waiting_changes_no_result() -> None:
    """How OpenMP's threads wait between parallel regions changes no bit of a two-thread
    training (the test run sets ``OMP_WAIT_POLICY=PASSIVE``; learners' kernels do not)."""
    env = {k: v for k, v in os.environ.items() if k != "OMP_WAIT_POLICY"}
    results = [
        subprocess.run(
            [sys.executable, "-c", TRAIN_ON_TWO_THREADS],
            env={**env, **policy},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for policy in ({}, {"OMP_WAIT_POLICY": "PASSIVE"})
    ]
    assert results[0] and results[0] == results[1], results


def test_the_test_command_runs_pytest_with_passive_waiting(monkeypatch) -> None:
    """``main(["test", ...])`` hands pytest an environment with the scheduling applied (nothing
    installed or run: the environment setup and the pytest call are stood in for)."""
    run = load_run_module()
    seen: list[dict[str, str]] = []
    monkeypatch.delenv("OMP_WAIT_POLICY", raising=False)
    monkeypatch.setattr(run, "ensure_environment", lambda: Path(sys.executable))
    monkeypatch.setattr(run, "reproducible_environment", lambda python: dict(os.environ))
    monkeypatch.setattr(run, "remember_duration", lambda tier, seconds: None)
    monkeypatch.setattr(run.subprocess, "call", lambda args, cwd, env: seen.append(env) or 0)
    assert run.main(["test", "tests/test_ffn.py"]) == 0
    assert seen and seen[0]["OMP_WAIT_POLICY"] == "PASSIVE"
    assert seen[0][run.RUN_CACHE_ENV]  # and the run's own cache folder
