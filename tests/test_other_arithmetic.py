"""Every lesson once more, under other arithmetic than the one its stored outputs were made with.

The stored outputs come from ``python3 run.py refresh`` under ``REPRODUCIBLE_CPU_ENV`` (portable
kernels, MKL's compatible path, one thread). A learner's JupyterLab computes otherwise: the CPU's
best vector kernels, MKL's own dispatch, every core. Training turns those last-bit differences
into visibly different losses, so a lesson is portable only if every assert holds and every
compared output matches under that arithmetic too. This test runs strict nbval over all lessons
in a subprocess with ``native_cpu_env`` (two threads) and fails with the cells that broke.

The English edition only: each Chinese twin runs the same code and prints with the same format
specs (``tests/test_editions.py``), so its numbers under this arithmetic are the English ones, and
a cell that breaks here breaks in English first. Running both would add minutes for no new check.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from minimind_lab.lessons.registry import LESSONS
from minimind_lab.runtime import native_cpu_env

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = [ROOT / "notebooks" / entry.notebook for entry in LESSONS]
PROBE = (
    "import torch; print(torch.backends.cpu.get_cpu_capability(), torch.get_num_threads(), "
    "float(torch.randn(64, generator=torch.Generator().manual_seed(0)).sum()).hex())"
)


def _probe(env: dict[str, str]) -> list[str]:
    """``[ATen capability, threads, hex sum of 64 normal draws]`` in a fresh process."""
    out = subprocess.run(
        [sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, check=True
    )
    return out.stdout.split()


def test_native_env_drops_the_reproducible_settings() -> None:
    env = native_cpu_env({"ATEN_CPU_CAPABILITY": "default", "MKL_CBWR": "COMPATIBLE", "A": "1"})
    assert env == {
        "A": "1",
        "OMP_NUM_THREADS": "2",
        "MKL_NUM_THREADS": "2",
        "MINIMIND_LAB_ARITHMETIC": "native",
    }
    for bad in (0, -1, 1.5, True, "2"):
        with pytest.raises(ValueError, match="threads must be a positive integer"):
            native_cpu_env({}, threads=bad)  # type: ignore[arg-type]


@pytest.mark.slow
def test_the_other_arithmetic_really_differs() -> None:
    """The check below is only worth its time if the second run computes differently."""
    from minimind_lab.runtime import REPRODUCIBLE_CPU_ENV

    reproducible = _probe({**os.environ, **REPRODUCIBLE_CPU_ENV})
    native = _probe(native_cpu_env(os.environ))
    assert reproducible[:2] == ["DEFAULT", "1"] and native[1] == "2"
    # On x86 the AVX2 and AVX-512 kernels draw normals with a vectorised Box–Muller, whose last
    # bits differ from the portable one (docs/CONVENTIONS.md); other CPUs are not claimed here.
    if native[0] in ("AVX2", "AVX512"):
        assert native[2] != reproducible[2], (native, reproducible)


@pytest.mark.arithmetic
def test_every_lesson_holds_under_other_arithmetic() -> None:
    env = native_cpu_env(os.environ)
    capability, threads, _ = _probe(env)
    command = [
        sys.executable,
        "-m",
        "pytest",
        "-p",
        "no:cacheprovider",
        "-q",
        "-o",
        "addopts=",
        "--nbval",
        "--nbval-current-env",
        *(str(p.relative_to(ROOT)) for p in NOTEBOOKS),
    ]
    result = subprocess.run(
        command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=1800, check=False
    )
    summary = result.stdout.strip().splitlines()[-1:] or ["(no output)"]
    print(f"lessons under ATen {capability}, MKL's own dispatch, {threads} threads: {summary[0]}")
    if result.returncode != 0:
        failed = [line for line in result.stdout.splitlines() if line.startswith("FAILED")]
        pytest.fail(
            f"under ATen {capability} kernels, MKL's own dispatch and {threads} threads, these "
            "lesson cells fail (an assert, or a compared output that moved: print it through a "
            "rounding or a verdict, or see docs/CONVENTIONS.md 'Where the numbers repeat'):\n"
            + "\n".join(failed)
            + "\n\n"
            + result.stdout[-6000:],
            pytrace=False,
        )
