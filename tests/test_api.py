"""The public API: every exported name is documented, and the code base stays ruff-clean."""

from __future__ import annotations

import inspect
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import torch

import minimind_lab as ml

ROOT = Path(__file__).resolve().parents[1]
PUBLIC = sorted(
    name for name, obj in vars(ml).items()
    if not name.startswith("_") and (inspect.isfunction(obj) or inspect.isclass(obj))
)


def test_the_api_the_issue_names_is_exported() -> None:
    required = {
        "get_activation", "ACTIVATION_NAMES", "PlainFFN", "GatedFFN", "collapse_linear",
        "MiniMindConfig", "FeedForward", "intermediate_size", "count_parameters",
        "ffn_parameter_count", "load_minimind_mlp", "RMSNorm", "CausalSelfAttention", "Block",
        "MoEFeedForward", "device", "seed_everything",
    }
    assert required <= set(dir(ml))


@pytest.mark.parametrize("name", PUBLIC)
def test_public_names_have_docstrings(name: str) -> None:
    obj = getattr(ml, name)
    assert inspect.getdoc(obj), f"minimind_lab.{name} has no docstring"
    if inspect.isclass(obj) and issubclass(obj, torch.nn.Module):
        assert inspect.getdoc(obj.forward), f"minimind_lab.{name}.forward has no docstring"


def test_ruff_is_clean() -> None:
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    if ruff is None:
        pytest.skip("ruff is not installed (pip install ruff)")
    result = subprocess.run([ruff, "check", "."], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
