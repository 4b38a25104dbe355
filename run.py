#!/usr/bin/env python3
"""The project's two commands, for a fresh machine with only Python 3.10+.

    python3 run.py lab     open the lessons in JupyterLab (localhost, token auth), on a start
                           page linking both editions (English, 中文)
    python3 run.py test    run every test: package, types, notebooks (strict nbval, under
                           two arithmetics), browser, figures, benchmarks' quick mode
    python3 run.py test --quick
                           the contributor's tier: package tests and the type check, no
                           notebooks, browser, figure renders or benchmarks (under a minute)

For contributors: ``python3 run.py refresh [NOTEBOOK ...]`` re-runs lessons in place (default:
all, both editions) so their stored outputs match what the tests will compute.

Each creates or reuses ``.venv`` beside this file and installs ``requirements.txt`` under
``constraints.txt`` (the versions CI tested) plus this package in editable mode. The install is
skipped when nothing it depends on changed, so a second run starts at once. Extra arguments after
``test`` go to pytest (``python3 run.py test -k moe``); after ``lab``, to ``jupyter lab``.
Standard library only: this file runs before anything is installed.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
INSTALL_INPUTS = ("requirements.txt", "constraints.txt", "pyproject.toml")
STAMP = VENV / ".minimind-lab-installed"


def venv_python() -> Path:
    """The virtual environment's interpreter (POSIX or Windows layout)."""
    scripts = "Scripts" if os.name == "nt" else "bin"
    return VENV / scripts / ("python.exe" if os.name == "nt" else "python")


def _install_fingerprint() -> str:
    digest = hashlib.sha256(sys.version.encode())
    for name in INSTALL_INPUTS:
        digest.update((ROOT / name).read_bytes())
    return digest.hexdigest()


def ensure_environment() -> Path:
    """Create ``.venv`` if missing and install what it needs unless already done; return python."""
    python = venv_python()
    if not python.exists():
        print(f"[run.py] creating {VENV.relative_to(ROOT)} with {sys.executable}", flush=True)
        venv.EnvBuilder(with_pip=True, clear=True).create(VENV)
    fingerprint = _install_fingerprint()
    if STAMP.exists() and STAMP.read_text() == fingerprint:
        write_lab_settings()
        return python
    print("[run.py] installing requirements (first run, or they changed)", flush=True)
    pip = [str(python), "-m", "pip", "install", "--disable-pip-version-check"]
    subprocess.run([*pip, "--quiet", "--upgrade", "pip"], check=True)
    subprocess.run(
        [*pip, "-r", str(ROOT / "requirements.txt"), "-c", str(ROOT / "constraints.txt")],
        check=True,
    )
    subprocess.run(
        [*pip, "--no-deps", "--no-build-isolation", "-e", str(ROOT), "--quiet"], check=True
    )
    STAMP.write_text(fingerprint)
    write_lab_settings()
    return python


#: The start page ``run.py lab`` opens: it links both editions and the glossary.
START_PAGE = "START.md"
#: JupyterLab settings for this environment only (``.venv/share/jupyter/lab/settings``): Markdown
#: opens rendered (the start page, the glossary), not in the text editor.
LAB_SETTINGS = {
    "@jupyterlab/docmanager-extension:plugin": {"defaultViewers": {"markdown": "Markdown Preview"}}
}


def write_lab_settings() -> Path:
    """Write ``LAB_SETTINGS`` as the environment's JupyterLab ``overrides.json``; return its path.

    Only this ``.venv``'s JupyterLab reads it; a learner's own settings elsewhere stay as they are.
    """
    path = VENV / "share" / "jupyter" / "lab" / "settings" / "overrides.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(LAB_SETTINGS, indent=2) + "\n"
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")
    return path


def lab_arguments(port: int | None = None, root_dir: Path | None = None) -> list[str]:
    """``python -m jupyterlab`` arguments shared by the lab command and the browser tests.

    Loopback only, token auth left on (Jupyter makes a token unless one is given), the lessons
    folder (or ``root_dir``) as the root, kernel websockets without Nagle's delay. Jupyter
    refuses to run as root unless told; containers often run as root, so that one switch is
    added there, and auth stays on either way.
    """
    args = [
        "-m",
        "jupyterlab",
        "--ServerApp.ip=127.0.0.1",
        f"--ServerApp.root_dir={root_dir or ROOT / 'notebooks'}",
    ]
    if port is not None:
        args.append(f"--ServerApp.port={port}")
    if root_dir is None:  # the lessons: open on the page that links both editions
        args.append(f"--LabApp.default_url=/lab/tree/{START_PAGE}")
    # Widget frames without Nagle's ~40 ms stalls (minimind_lab_server.py says why).
    args.append(
        "--ServerApp.kernel_websocket_connection_class=minimind_lab_server.NoDelayKernelConnection"
    )
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        args.append("--allow-root")
    return args


def reproducible_environment(python: Path) -> dict[str, str]:
    """``os.environ`` with ``minimind_lab.runtime.REPRODUCIBLE_CPU_ENV`` on top.

    Tests and ``refresh`` run under it (``tests/test_other_arithmetic.py`` then checks the
    lessons under the lab's arithmetic too).
    """
    code = (
        "import json; from minimind_lab.runtime import REPRODUCIBLE_CPU_ENV as e; "
        "print(json.dumps(e))"
    )
    settings = subprocess.run(
        [str(python), "-c", code], check=True, capture_output=True, text=True
    ).stdout
    return {**os.environ, **json.loads(settings)}


def refresh_arguments(notebooks: list[str]) -> list[str]:
    """``jupyter nbconvert`` arguments that re-run ``notebooks`` in place, without timestamps
    (default: every lesson of both editions, ``notebooks/`` and ``notebooks/zh/``)."""
    paths = notebooks or [
        str(p)
        for folder in (ROOT / "notebooks", ROOT / "notebooks" / "zh")
        for p in sorted(folder.glob("*.ipynb"))
    ]
    return [
        "-m",
        "jupyter",
        "nbconvert",
        "--to",
        "notebook",
        "--execute",
        "--inplace",
        "--ExecutePreprocessor.record_timing=False",
        "--ExecutePreprocessor.timeout=600",
        *paths,
    ]


def strip_execution_times(notebook: Path) -> None:
    """Drop the per-cell execution timestamps an earlier run stored: they only make diffs noisy."""
    data = json.loads(notebook.read_text(encoding="utf-8"))
    for cell in data.get("cells", []):
        cell.get("metadata", {}).pop("execution", None)
    text = json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False)
    notebook.write_text(text + "\n", encoding="utf-8")


def main(argv: list[str]) -> int:
    """Dispatch ``lab``, ``test`` or ``refresh``; return the process exit status."""
    if not argv or argv[0] not in {"lab", "test", "refresh"}:
        if argv and argv[0] not in {"-h", "--help", "help"}:
            print(f"run.py: unknown command {argv[0]!r}; expected lab, test or refresh", flush=True)
        print(__doc__)
        return 0 if argv and argv[0] in {"-h", "--help", "help"} else 2
    python = ensure_environment()
    command, extra = argv[0], argv[1:]
    if command == "lab":
        return subprocess.call([str(python), *lab_arguments(), *extra], cwd=ROOT)
    env = reproducible_environment(python)
    if command == "refresh":
        arguments = refresh_arguments(extra)
        status = subprocess.call([str(python), *arguments], cwd=ROOT, env=env)
        for path in arguments[arguments.index("--ExecutePreprocessor.timeout=600") + 1 :]:
            strip_execution_times(ROOT / path)
        return status
    # One private folder per test run: lesson 08's trained models, computed by the first process
    # that needs them (a notebook kernel, the figure builders, the browser's kernel), are read back
    # by the others (minimind_lab/lessons/_run_cache.py). Removed when the run ends.
    arguments = pytest_arguments(extra)
    tier = "quick" if "--quick" in extra else "full"
    print(plan_line(tier, arguments, last_duration(tier)), flush=True)
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="minimind-lab-run-") as cache:
        env[RUN_CACHE_ENV] = cache
        env.update(test_scheduling(env))
        status = subprocess.call([str(python), "-m", "pytest", *arguments], cwd=ROOT, env=env)
    if status == 0 and extra in ([], ["--quick"]):  # a whole tier, passed: worth remembering
        remember_duration(tier, time.monotonic() - start)
    return status


#: What each tier runs, for the line ``test`` prints at its start.
TIER_CONTENTS = {
    "full": "package tests, the type check, every notebook of both editions (strict nbval; "
    "then the English again under the lab's arithmetic, the Chinese in the browser suite), the "
    "figures and the benchmarks' quick mode",
    "quick": "package tests and the type check",
}
#: The full tier's time on a 2-core machine (benchmarks/RESULTS.md, "The test command").
FULL_TIER_MINUTES_ON_2_CORES = 8
DURATIONS = VENV / ".minimind-lab-test-seconds.json"


def last_duration(tier: str) -> float | None:
    """Seconds the last passing run of ``tier`` took on this machine, if one is on record."""
    try:
        value = json.loads(DURATIONS.read_text(encoding="utf-8")).get(tier)
    except (OSError, ValueError, AttributeError):
        return None
    return float(value) if isinstance(value, (int, float)) and value > 0 else None


def remember_duration(tier: str, seconds: float) -> None:
    """Keep ``seconds`` as ``tier``'s time on this machine (a failed write is only skipped)."""
    try:
        data = json.loads(DURATIONS.read_text(encoding="utf-8")) if DURATIONS.is_file() else {}
        data = data if isinstance(data, dict) else {}
        data[tier] = round(seconds)
        DURATIONS.write_text(json.dumps(data) + "\n", encoding="utf-8")
    except (OSError, ValueError):
        pass


def plan_line(tier: str, arguments: list[str], seconds: float | None) -> str:
    """The line ``test`` starts with: what it runs, on how many workers, and about how long."""
    selected = [
        a
        for a in arguments
        if not a.startswith("-") and a != "tests" and ("::" in a or (ROOT / a).exists())
    ]
    what = TIER_CONTENTS[tier] if not selected else "the tests you named"
    workers = arguments[arguments.index("-n") + 1] if "-n" in arguments else "1"
    if seconds is not None:
        took = f"the last full run of this tier here took {seconds / 60:.0f} min"
        if seconds < 90:
            took = f"the last full run of this tier here took {seconds:.0f} s"
    elif tier == "full":
        took = f"about {FULL_TIER_MINUTES_ON_2_CORES} min on a 2-core machine"
    else:
        took = "about a minute"
    if selected:
        return f"run.py test: {what}, on {workers} worker process(es)"
    return f"run.py test: {what}, on {workers} worker process(es); {took}"


def test_scheduling(environ: dict[str, str]) -> dict[str, str]:
    """OpenMP's waiting policy for the test run: ``OMP_WAIT_POLICY=PASSIVE`` unless set already.

    The run keeps more threads busy than there are cores (two workers, a browser, kernels that
    train on two threads), and OpenMP's default is to spin on a core while waiting for the next
    parallel region. Two lesson-08 trainings at once took 19-25 s each here that way, 8-9 s each
    with passive waiting (alone, 5 s against 9). How threads wait changes no result: the work is
    split the same way (the trained weights came out bit-identical).
    """
    return {} if "OMP_WAIT_POLICY" in environ else {"OMP_WAIT_POLICY": "PASSIVE"}


#: Names the test run's shared cache folder (``minimind_lab.lessons._run_cache.RUN_CACHE_ENV``).
RUN_CACHE_ENV = "MINIMIND_LAB_RUN_CACHE"

#: What the quick tier leaves out: markers registered in pyproject.toml.
QUICK_DESELECT = "not slow and not browser and not arithmetic"


def pytest_arguments(extra: list[str]) -> list[str]:
    """pytest's arguments for ``test`` (every tier) or ``test --quick`` (package tests only).

    The full tier adds ``--nbval`` (strict: every stored output compared) so the notebooks in
    ``testpaths`` are collected; the quick tier runs ``tests/`` without the slow markers. Both
    run on one worker per core (``parallel_arguments``).
    """
    if "--quick" in extra:
        rest = [arg for arg in extra if arg != "--quick"]
        return ["tests", "-m", QUICK_DESELECT, *parallel_arguments(rest), *rest]
    return ["--nbval", "--nbval-current-env", *parallel_arguments(extra), *extra]


def parallel_arguments(extra: list[str], cores: int | None = None) -> list[str]:
    """pytest-xdist's arguments: one worker process per core (at most 4), each test file (a
    notebook's cells, a module's tests) kept whole on one worker. Each worker computes with one
    thread under the reproducible settings, so the numbers are those of a serial run. Nothing
    when ``extra`` chooses its own (``-n``, ``-p no:xdist``) or debugs (``--pdb``), or on one core.
    """
    own = ("-n", "--numprocesses", "-p", "--pdb", "--trace")
    if any(arg == flag or arg.startswith(f"{flag}=") for arg in extra for flag in own):
        return []
    if any(arg.startswith("-n") and arg[2:].isalnum() for arg in extra):  # -n2, -nauto
        return []
    workers = min(cores if cores is not None else (os.cpu_count() or 1), 4)
    return ["-n", str(workers), "--dist", "loadfile"] if workers > 1 else []


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
