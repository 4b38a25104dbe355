"""Shared fixtures: a seeded generator and the dtypes every module must follow."""

from __future__ import annotations

import pytest
import torch

import minimind_lab as ml

# Every module runs in these dtypes on the CPU; tolerances per dtype for comparisons.
DTYPES = [torch.float32, torch.float64, torch.bfloat16]
TOLERANCE = {
    torch.float32: {"atol": 1e-5, "rtol": 1e-4},
    torch.float64: {"atol": 1e-10, "rtol": 1e-10},
    torch.bfloat16: {"atol": 3e-2, "rtol": 3e-2},
}


@pytest.fixture
def generator() -> torch.Generator:
    """A freshly seeded CPU generator, so each test draws the same data alone or in a run."""
    return ml.seed_everything(0)
