"""Where tensors run and how runs repeat: one device choice and one seed."""

from __future__ import annotations

import os
import random

import torch


def device() -> torch.device:
    """The best device here: CUDA, then Apple's MPS, then the CPU."""
    if torch.cuda.is_available():
        return torch.device("cuda")
    mps = getattr(torch.backends, "mps", None)
    if mps is not None and mps.is_available():
        return torch.device("mps")
    return torch.device("cpu")


def seed_everything(seed: int) -> torch.Generator:
    """Seed Python, NumPy (if installed) and torch on every device; return a CPU generator.

    The returned ``torch.Generator`` lets an experiment draw its own data without depending on
    what ran before it in the notebook.
    """
    random.seed(seed)
    os.environ["PYTHONHASHSEED"] = str(seed)
    try:
        import numpy as np

        np.random.seed(seed)
    except ImportError:  # numpy is optional for the package
        pass
    torch.manual_seed(seed)  # also seeds CUDA and MPS
    return torch.Generator().manual_seed(seed)
