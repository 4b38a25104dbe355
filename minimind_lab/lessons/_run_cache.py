"""A result computed once per test run and shared by every process of that run.

Lesson 08's models are trained by the notebook's kernel (strict nbval), by the browser suite's
kernel and by the figure builders, in other processes each. ``python3 run.py test`` names one
fresh private folder in ``MINIMIND_LAB_RUN_CACHE``; ``shared_result`` then computes a result the
first time and every later process of the run reads it back. Without that variable (JupyterLab,
a bare pytest) it simply computes: a learner never reads a stale result.

The key holds everything the numbers depend on besides the arguments: torch's version, the
kernels ATen dispatches to, MKL's path and the thread count (docs/CONVENTIONS.md, "Where the
numbers repeat"), so the run under the lab's arithmetic (``tests/test_other_arithmetic.py``)
computes its own results and never reads the reproducible run's.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

import torch

__all__ = [
    "RUN_CACHE_ENV",
    "arithmetic_fingerprint",
    "compute_if_free",
    "is_being_computed",
    "shared_result",
]

#: The environment variable naming the run's cache folder (set by ``run.py test``).
RUN_CACHE_ENV = "MINIMIND_LAB_RUN_CACHE"

T = TypeVar("T")


def arithmetic_fingerprint() -> str:
    """What decides a computation's last bits here: torch, ATen's kernels, MKL's path, threads."""
    parts = (
        torch.__version__,
        torch.backends.cpu.get_cpu_capability(),
        os.environ.get("ATEN_CPU_CAPABILITY", ""),
        os.environ.get("MKL_CBWR", ""),
        str(torch.get_num_threads()),
    )
    return "|".join(parts)


def shared_result(namespace: str, key: object, compute: Callable[[], T]) -> T:
    """``compute()``, or the value an earlier process of this test run stored under ``key``.

    ``namespace``: a short name for the kind of result ("l08-training"); ``key``: its arguments,
    with a ``repr`` that says all of them (dataclasses and tuples do). Outside a test run
    (``MINIMIND_LAB_RUN_CACHE`` unset) this is ``compute()``. The value is stored with
    ``torch.save`` through a temporary file and an atomic rename, so a reader never sees half a
    file; a file that cannot be read is computed again. Only a folder this run made is read
    (``torch.load`` unpickles), never one a learner points at.
    """
    path = _result_path(namespace, key)
    if path is None:
        return compute()
    # Processes that run at once (pytest-xdist's workers) wait for the one computing a result
    # instead of computing it too. One lock per result: a process that needs another result
    # (a test's tiny model while a kernel trains the lesson's) does not wait for this one.
    with _locked(_lock_path(path)):
        if path.is_file():
            try:
                return torch.load(path, weights_only=False)
            except Exception:  # noqa: BLE001 - a damaged file is recomputed and replaced
                pass
        value = compute()
        _store(value, path, namespace)
    return value


def is_being_computed(namespace: str, key: object) -> bool:
    """Whether ``key``'s lock is held elsewhere and nothing is stored yet: another process of
    this test run is computing it, or is at that moment checking it as this call does (the
    check takes the lock for an instant). Never waits; ``False`` outside a test run."""
    path = _result_path(namespace, key)
    if path is None or path.is_file():
        return False
    with _locked(_lock_path(path), wait=False) as acquired:
        return not acquired


def compute_if_free(namespace: str, key: object, compute: Callable[[], object]) -> bool:
    """Compute and store ``key``'s result for later ``shared_result`` calls, unless it is stored
    already or its lock is held elsewhere (another process computing or checking it); never
    waits. Returns whether this call computed it (``False`` outside a test run, where nothing
    is stored).

    A process that would otherwise wait for another's result can do useful work meanwhile.
    """
    path = _result_path(namespace, key)
    if path is None:
        return False
    with _locked(_lock_path(path), wait=False) as acquired:
        if not acquired or path.is_file():
            return False
        _store(compute(), path, namespace)
        return True


def _result_path(namespace: str, key: object) -> Path | None:
    """Where this run stores ``key``'s result under this arithmetic (``None``: not a test run)."""
    folder = os.environ.get(RUN_CACHE_ENV)
    if not folder:
        return None
    if not namespace.replace("-", "").isalnum():
        raise ValueError(f"namespace must be letters, digits and '-', got {namespace!r}")
    digest = hashlib.sha256(repr((key, arithmetic_fingerprint())).encode()).hexdigest()[:24]
    Path(folder).mkdir(parents=True, exist_ok=True)
    return Path(folder) / f"{namespace}-{digest}.pt"


def _lock_path(result: Path) -> Path:
    return result.parent / ".locks" / result.stem


@contextmanager
def _locked(lock: Path, wait: bool = True) -> Iterator[bool]:
    """An exclusive lock between processes on the file ``lock`` (``fcntl.flock``; made if
    missing, in the run's own folder, and left there: removing a lock file another process may
    be waiting on would let a third take a second lock; without ``fcntl``, on Windows, two
    processes may both compute). Yields whether the lock was taken: always, when ``wait``;
    without waiting, ``False`` when another open handle holds it."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not on the machines the tests run on
        yield True
        return
    lock.parent.mkdir(parents=True, exist_ok=True)
    handle = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX if wait else fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:  # only without waiting: another process holds it
            yield False
            return
        yield True
    finally:
        os.close(handle)  # closing releases the lock


def _store(value: object, path: Path, namespace: str) -> None:
    """``torch.save`` through a temporary file and an atomic rename."""
    folder = path.parent
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=f".{namespace}-", suffix=".tmp")
    os.close(handle)
    try:
        torch.save(value, temporary)
        os.replace(temporary, path)
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)
