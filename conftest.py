"""Runs before any test module: ``minimind_lab.runtime.REPRODUCIBLE_CPU_ENV``.

``python3 run.py test`` sets these already; this covers a direct ``pytest`` call. Notebook kernels
started by nbval inherit them. They must be in place before torch computes anything.

With ``MINIMIND_LAB_ARITHMETIC=native`` (what ``tests/test_other_arithmetic.py`` sets for its
second run of the lessons) nothing is set: torch's own kernels, MKL's own dispatch and the thread
count given, as in JupyterLab on a learner's machine.
"""

import os

import pytest

from minimind_lab.lessons.registry import LESSONS
from minimind_lab.runtime import ARITHMETIC_FLAG, REPRODUCIBLE_CPU_ENV, reproducible_cpu

#: The notebooks (either edition) of lessons that train models: the longest notebook runs.
_TRAINING_NOTEBOOKS = {entry.notebook for entry in LESSONS if entry.trains}

if os.environ.get(ARITHMETIC_FLAG) != "native":
    for _name, _value in REPRODUCIBLE_CPU_ENV.items():
        os.environ.setdefault(_name, _value)
    if all(os.environ[name] == value for name, value in REPRODUCIBLE_CPU_ENV.items()):
        reproducible_cpu()


def _start_rank(item: pytest.Item) -> int:
    """How early ``item``'s file should start: 0 for the runs of whole lessons (the browser
    suite, the lessons under the lab's arithmetic), 1 for the other slow tests and the notebooks
    of lessons that train models, 2 for the rest."""
    if item.get_closest_marker("browser") or item.get_closest_marker("arithmetic"):
        return 0
    if item.get_closest_marker("slow") or item.path.name in _TRAINING_NOTEBOOKS:
        return 1
    return 2


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Longest files first. pytest-xdist (``--dist loadfile``) hands each worker whole files in
    collection order; a minutes-long file collected last (the lessons under the lab's
    arithmetic, alphabetically near the end) ran alone on one worker while the other sat idle.
    Started first, the long files run side by side and the short ones fill in around them. The
    order within a file, and of files of one rank, is kept (a stable sort on a per-file key)."""
    rank: dict[object, int] = {}
    for item in items:
        rank[item.path] = min(rank.get(item.path, 2), _start_rank(item))
    items.sort(key=lambda item: rank[item.path])
