"""Where tensors run and how runs repeat: one device choice and one seed."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator, Mapping
from contextlib import contextmanager

import torch

from ._checks import check_nonnegative_int

#: Settings that take the CPU's vector units and core count out of the arithmetic: one thread,
#: MKL's compatible code path, ATen's portable (non-vectorised) kernels. Without them the same
#: seed trains to visibly different losses with other kernels or thread counts (training
#: amplifies the last bit of a float). They are not enough for whole training runs to repeat bit
#: for bit on every x86 CPU (an AMD EPYC and an Intel Xeon differed), so lessons never rely on
#: that (docs/CONVENTIONS.md, "Where the numbers repeat"). Tests, stored notebook outputs and
#: ``figures/`` use them.
REPRODUCIBLE_CPU_ENV: dict[str, str] = {
    "ATEN_CPU_CAPABILITY": "default",
    "MKL_CBWR": "COMPATIBLE",
    "OMP_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
}


#: Set to ``native`` in a process's environment, it tells the test configuration (conftest.py)
#: not to impose ``REPRODUCIBLE_CPU_ENV``: that run computes as JupyterLab does on a learner's
#: machine. ``tests/test_other_arithmetic.py`` runs every lesson that way.
ARITHMETIC_FLAG = "MINIMIND_LAB_ARITHMETIC"


def native_cpu_env(environ: Mapping[str, str], threads: int = 2) -> dict[str, str]:
    """``environ`` without ``REPRODUCIBLE_CPU_ENV``: other arithmetic, to check the lessons by.

    torch's best vector kernels for this CPU, MKL's own dispatch instead of its compatible path,
    and ``threads`` threads (a count other than the reproducible one splits sums otherwise).
    These are the settings of ``python3 run.py lab``, where learners run the lessons; on one
    machine they move the last bits of matrix products, reductions, random draws and several
    activations (docs/CONVENTIONS.md, "Where the numbers repeat").
    """
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise ValueError(f"threads must be a positive integer, got {threads!r}")
    env = {k: v for k, v in environ.items() if k not in REPRODUCIBLE_CPU_ENV}
    env["OMP_NUM_THREADS"] = env["MKL_NUM_THREADS"] = str(threads)
    env[ARITHMETIC_FLAG] = "native"
    return env


def reproducible_cpu() -> None:
    """Switch this process to ``REPRODUCIBLE_CPU_ENV`` (slower; see there for what it fixes).

    Must run before torch computes anything on the CPU: the kernel choice is fixed at the first
    operation. Raises ``RuntimeError`` if it came too late.
    """
    os.environ.update(REPRODUCIBLE_CPU_ENV)
    torch.set_num_threads(1)
    capability = torch.backends.cpu.get_cpu_capability()
    if capability != "DEFAULT":
        raise RuntimeError(
            f"torch already chose its {capability} kernels; call reproducible_cpu() before any "
            "CPU computation (or start Python with these variables set)"
        )


def device() -> torch.device:
    """The best device here: CUDA, then Apple's MPS, then the CPU."""
    if torch.cuda.is_available():
        return torch.device("cuda")
    mps = getattr(torch.backends, "mps", None)
    if mps is not None and mps.is_available():
        return torch.device("mps")
    return torch.device("cpu")


#: The largest seed each generator takes: torch's is 64 bits, NumPy's legacy ``seed`` 32.
_TORCH_LARGEST_SEED = 2**64 - 1
_NUMPY_LARGEST_SEED = 2**32 - 1


def _check_seed(seed: object, largest: int, whose: str) -> None:
    """Raise ``ValueError`` unless ``seed`` is an integer from 0 to ``largest``."""
    check_nonnegative_int("seed", seed)
    if int(seed) > largest:  # type: ignore[call-overload]
        raise ValueError(f"seed must be at most {largest} ({whose} limit), got {seed}")


def seed_everything(seed: int) -> torch.Generator:
    """Seed Python, NumPy (if installed) and torch on every device; return a CPU generator.

    The returned ``torch.Generator`` lets an experiment draw its own data without depending on
    what ran before it in the notebook.
    """
    _check_seed(seed, _NUMPY_LARGEST_SEED, "NumPy's")
    random.seed(seed)
    os.environ["PYTHONHASHSEED"] = str(seed)
    try:
        import numpy as np

        np.random.seed(seed)
    except ImportError:  # numpy is optional for the package
        pass
    torch.manual_seed(seed)  # also seeds CUDA and MPS
    return torch.Generator().manual_seed(seed)


@contextmanager
def seeded(seed: int) -> Iterator[None]:
    """Within the block torch's global RNG starts from ``seed``; afterwards the caller's RNG
    state is back exactly as it was (CPU and every CUDA device).

    Experiments build their models inside ``with seeded(seed):`` so a result depends on its own
    seed only, and running it never changes what the notebook draws next.
    """
    _check_seed(seed, _TORCH_LARGEST_SEED, "torch's")
    with torch.random.fork_rng(devices=range(torch.cuda.device_count())):
        torch.manual_seed(seed)
        yield
