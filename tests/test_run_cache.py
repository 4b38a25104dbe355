"""``shared_result``: computed once per test run, read back by later processes, never stale."""

from __future__ import annotations

import subprocess
import sys
from contextlib import ExitStack
from dataclasses import replace

import pytest
import torch

from minimind_lab.lessons import _run_cache
from minimind_lab.lessons._run_cache import (
    RUN_CACHE_ENV,
    compute_if_free,
    is_being_computed,
    shared_result,
)


class Counter:
    def __init__(self) -> None:
        self.calls = 0

    def __call__(self) -> dict[str, torch.Tensor]:
        self.calls += 1
        return {"weights": torch.arange(4.0) * self.calls}


def test_without_a_run_folder_it_always_computes(monkeypatch) -> None:
    monkeypatch.delenv(RUN_CACHE_ENV, raising=False)
    compute = Counter()
    shared_result("l99-test", ("a", 1), compute)
    shared_result("l99-test", ("a", 1), compute)
    assert compute.calls == 2


def test_in_a_run_the_second_call_reads_what_the_first_stored(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv(RUN_CACHE_ENV, str(tmp_path))
    compute = Counter()
    first = shared_result("l99-test", ("a", 1), compute)
    second = shared_result("l99-test", ("a", 1), compute)
    assert compute.calls == 1 and torch.equal(first["weights"], second["weights"])
    assert second["weights"] is not first["weights"]  # a copy, not the caller's tensor
    shared_result("l99-test", ("a", 2), compute)  # other arguments: computed
    assert compute.calls == 2
    assert not list(tmp_path.glob(".*.tmp")), "no temporary file is left behind"


def test_other_arithmetic_never_reads_the_reproducible_runs_results(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv(RUN_CACHE_ENV, str(tmp_path))
    monkeypatch.setenv("MKL_CBWR", "COMPATIBLE")
    compute = Counter()
    shared_result("l99-test", "key", compute)
    monkeypatch.setenv("MKL_CBWR", "AUTO")
    shared_result("l99-test", "key", compute)
    assert compute.calls == 2


def test_a_damaged_file_is_computed_again(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv(RUN_CACHE_ENV, str(tmp_path))
    compute = Counter()
    shared_result("l99-test", "key", compute)
    (stored,) = tmp_path.glob("l99-test-*.pt")
    stored.write_bytes(b"not a torch file")
    value = shared_result("l99-test", "key", compute)
    assert compute.calls == 2 and torch.equal(value["weights"], torch.arange(4.0) * 2)


def test_a_failed_write_leaves_no_file(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv(RUN_CACHE_ENV, str(tmp_path))

    def failing_save(*_args, **_kwargs) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(torch, "save", failing_save)
    with pytest.raises(OSError, match="disk full"):
        shared_result("l99-test", "key", Counter())
    # Nothing but the result's lock (in .locks/): no result file, no temporary file.
    assert [p.name for p in tmp_path.iterdir()] == [".locks"]
    assert [p.suffix for p in (tmp_path / ".locks").iterdir()] == [""]


def test_a_namespace_that_is_not_a_file_name_part_is_refused(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv(RUN_CACHE_ENV, str(tmp_path))
    with pytest.raises(ValueError, match="namespace must be letters"):
        shared_result("../escape", "key", Counter())


def test_another_process_of_the_run_reads_the_stored_result(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv(RUN_CACHE_ENV, str(tmp_path))
    code = (
        "import torch; from minimind_lab.lessons._run_cache import shared_result; "
        "print(shared_result('l99-test', 'key', lambda: torch.tensor([7.0])).item())"
    )
    outputs = [
        subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
        for _ in range(2)
    ]
    assert [o.stdout.strip() for o in outputs] == ["7.0", "7.0"]
    assert len(list(tmp_path.glob("l99-test-*.pt"))) == 1
    assert shared_result("l99-test", "key", lambda: torch.tensor([0.0])).item() == 7.0


def test_a_second_process_waits_for_the_first_instead_of_computing(tmp_path) -> None:
    """Two processes of one run ask for the same result at the same moment (both released by
    one file): one computes, the other waits and reads it."""
    import os
    import subprocess
    import sys
    import time

    cache, sync = tmp_path / "cache", tmp_path / "sync"
    cache.mkdir()
    sync.mkdir()
    script = (
        "import os, sys, time\n"
        "from pathlib import Path\n"
        "from minimind_lab.lessons._run_cache import shared_result\n"
        f"sync = Path({str(sync)!r})\n"
        "(sync / f'ready-{os.getpid()}').touch()\n"
        "while not (sync / 'go').exists(): time.sleep(0.01)\n"
        "def compute():\n"
        "    print('computed', flush=True); time.sleep(2.0); return 42\n"
        "assert shared_result('l99-test', 'key', compute) == 42\n"
    )
    env = {**os.environ, RUN_CACHE_ENV: str(cache)}
    runs = [
        subprocess.Popen([sys.executable, "-c", script], env=env, stdout=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    deadline = time.monotonic() + 120
    while len(list(sync.glob("ready-*"))) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    (sync / "go").touch()
    outputs = [run.communicate(timeout=120)[0] for run in runs]
    assert all(run.returncode == 0 for run in runs)
    assert sum(out.count("computed") for out in outputs) == 1


def test_a_process_needing_another_result_does_not_wait(tmp_path) -> None:
    """While one process computes a result (held until released), another process of the run
    computes a different result and finishes: the lock is the result's, not the folder's."""
    import os
    import subprocess
    import sys
    import time

    cache, sync = tmp_path / "cache", tmp_path / "sync"
    cache.mkdir()
    sync.mkdir()
    holder = (
        "import time\n"
        "from pathlib import Path\n"
        "from minimind_lab.lessons._run_cache import shared_result\n"
        f"sync = Path({str(sync)!r})\n"
        "def compute():\n"
        "    (sync / 'computing').touch()\n"
        "    deadline = time.monotonic() + 120\n"
        "    while not (sync / 'release').exists() and time.monotonic() < deadline:\n"
        "        time.sleep(0.01)\n"
        "    return 1\n"
        "assert shared_result('l99-test', 'slow', compute) == 1\n"
    )
    other = (
        "from minimind_lab.lessons._run_cache import shared_result\n"
        "print(shared_result('l99-test', 'other', lambda: 2))\n"
    )
    env = {**os.environ, RUN_CACHE_ENV: str(cache)}
    first = subprocess.Popen([sys.executable, "-c", holder], env=env)
    try:
        deadline = time.monotonic() + 120
        while not (sync / "computing").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert (sync / "computing").exists()
        second = subprocess.run(
            [sys.executable, "-c", other], env=env, capture_output=True, text=True, timeout=60
        )
        assert second.returncode == 0 and second.stdout.strip() == "2", second.stderr
        assert first.poll() is None  # the first still holds its own result's lock
    finally:
        (sync / "release").touch()
        assert first.wait(timeout=120) == 0


def _hold_lock(namespace: str, key: object):
    """The lock of ``key``'s result, taken through a handle of its own (as another process would
    hold it: ``flock`` locks belong to open handles, so this process's calls see it as taken)."""
    return _run_cache._locked(_run_cache._lock_path(_run_cache._result_path(namespace, key)))


def test_a_result_another_process_computes_is_busy_and_not_computed_twice(
    monkeypatch, tmp_path
) -> None:
    monkeypatch.setenv(RUN_CACHE_ENV, str(tmp_path))
    compute = Counter()
    assert not is_being_computed("l99-test", "held")  # nobody holds it
    with _hold_lock("l99-test", "held"):
        assert is_being_computed("l99-test", "held")
        assert not compute_if_free("l99-test", "held", compute)  # taken: not computed here
        assert compute_if_free("l99-test", "free", compute)  # free: computed and stored
        assert not compute_if_free("l99-test", "free", compute)  # stored: not again
    assert compute.calls == 1 and not is_being_computed("l99-test", "held")
    assert torch.equal(shared_result("l99-test", "free", compute)["weights"], torch.arange(4.0))
    assert compute.calls == 1  # read back, not computed
    monkeypatch.delenv(RUN_CACHE_ENV)
    assert not compute_if_free("l99-test", "x", compute) and not is_being_computed("l99-test", "x")
    assert compute.calls == 1  # outside a test run nothing is stored, so nothing is precomputed


def test_a_kernel_waiting_for_a_lesson_08_model_trains_the_free_ones(monkeypatch, tmp_path) -> None:
    """While another process trains the model asked for, the lesson's other models nobody has
    started are trained here (each once), and nothing else; then the wait begins."""
    from minimind_lab.lessons.l08_memory import training

    monkeypatch.setenv(RUN_CACHE_ENV, str(tmp_path))
    setup = training.SETUP
    trained: list[tuple[str, int]] = []
    monkeypatch.setattr(
        training, "train_and_evaluate", lambda name, seed, steps, s: trained.append((name, seed))
    )
    asked = ("full", 1, setup.steps, setup)
    started = ("full", 2, setup.steps, setup)
    with _hold_lock("l08-training", asked), _hold_lock("l08-training", started):
        training._train_others_while_busy(asked)
    lesson = [(n, s) for n in training.MODEL_NAMES for s in setup.seeds]
    assert sorted(trained) == sorted(set(lesson) - {("full", 1), ("full", 2)})
    trained.clear()
    training._train_others_while_busy(asked)  # nobody trains it now: nothing to do meanwhile
    training._train_others_while_busy(("full", 0, 7, setup))  # not one of the lesson's models
    tiny = replace(setup, steps=5)
    with _hold_lock("l08-training", ("full", 0, 5, tiny)):  # a test's setup: it only waits
        training._train_others_while_busy(("full", 0, 5, tiny))
    assert trained == []


def test_a_kernel_stops_training_others_once_its_model_is_stored(monkeypatch, tmp_path) -> None:
    from minimind_lab.lessons.l08_memory import training

    monkeypatch.setenv(RUN_CACHE_ENV, str(tmp_path))
    setup = training.SETUP
    asked = ("attention-only", 0, setup.steps, setup)
    trained: list[tuple[str, int]] = []
    with ExitStack() as other_process:
        other_process.enter_context(_hold_lock("l08-training", asked))

        def train(name: str, seed: int, steps: int, s: object) -> None:
            trained.append((name, seed))
            other_process.close()  # meanwhile the other process finished the asked model

        monkeypatch.setattr(training, "train_and_evaluate", train)
        training._train_others_while_busy(asked)
    assert trained == [("full", 0)]  # one model trained meanwhile, then the asked one was free


def test_a_failed_training_for_another_process_names_both_models(monkeypatch, tmp_path) -> None:
    from minimind_lab.lessons.l08_memory import training

    monkeypatch.setenv(RUN_CACHE_ENV, str(tmp_path))
    setup = training.SETUP

    def fail(name: str, seed: int, steps: int, s: object) -> None:
        raise ValueError("boom")

    monkeypatch.setattr(training, "train_and_evaluate", fail)
    asked = ("full", 1, setup.steps, setup)
    with _hold_lock("l08-training", asked), pytest.raises(RuntimeError) as caught:
        training._train_others_while_busy(asked)
    assert "'full' seed 0 while waiting for 'full' seed 1" in str(caught.value)
    assert isinstance(caught.value.__cause__, ValueError)
    assert not list(tmp_path.glob("l08-training-*.pt"))  # nothing stored for the failed one
