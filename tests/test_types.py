"""The core's type hints are checked, not only written: mypy over ``minimind_lab/*.py`` (and the
language switch, ``minimind_lab/i18n``, which every layer calls).

The files and settings live in ``pyproject.toml`` (``[tool.mypy]``), so a contributor runs the
same check with ``.venv/bin/python -m mypy``. The first run takes some 15 s of CPU; later runs
read ``.mypy_cache`` and take about one.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_core_type_checks_with_no_errors() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    report = result.stdout + result.stderr
    assert result.returncode == 0, f"mypy found errors in the core:\n{report}"
    assert "Success: no issues found" in report, report
