"""Every module builds and runs in float32, float64 and bfloat16, on meta, and on CUDA if present.

No module may create a tensor on a fixed device or in a fixed dtype: the output follows the input.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
import torch
from torch import nn

import minimind_lab as ml

from .conftest import DTYPES

H = 32


def _config() -> ml.MiniMindConfig:
    return ml.MiniMindConfig(hidden_size=H, num_attention_heads=4, num_key_value_heads=2)


MODULES: dict[str, Callable[[], nn.Module]] = {
    "PlainFFN": lambda: ml.PlainFFN(H, 4 * H),
    "GatedFFN": lambda: ml.GatedFFN(H, 3 * H),
    "FeedForward": lambda: ml.FeedForward(_config()),
    "RMSNorm": lambda: ml.RMSNorm(H),
    "CausalSelfAttention": lambda: ml.CausalSelfAttention(H, 4, 2),
    "Block": lambda: ml.Block(_config()),
    "MoEFeedForward": lambda: ml.MoEFeedForward(_config(), num_experts=4, top_k=2),
}


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("name", MODULES)
def test_output_follows_input_dtype_on_cpu(name: str, dtype: torch.dtype) -> None:
    torch.manual_seed(0)
    module = MODULES[name]().to(dtype)
    x = torch.randn(2, 5, H, dtype=dtype)
    y = module(x)
    assert y.shape == x.shape and y.dtype == dtype and y.device == x.device
    assert torch.isfinite(y.float()).all()


@pytest.mark.parametrize("name", MODULES)
def test_builds_and_runs_on_meta(name: str) -> None:
    with torch.device("meta"):
        module = MODULES[name]()
    y = module(torch.empty(2, 5, H, device="meta"))
    assert y.device.type == "meta" and y.shape == (2, 5, H)


@pytest.mark.cuda
@pytest.mark.skipif(not torch.cuda.is_available(), reason="CUDA is not available on this machine")
@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16], ids=str)
@pytest.mark.parametrize("name", MODULES)
def test_runs_on_cuda_and_matches_cpu(name: str, dtype: torch.dtype) -> None:
    torch.manual_seed(0)
    module = MODULES[name]().to(dtype)
    x = torch.randn(2, 5, H, dtype=dtype)
    expected = module(x)
    y = module.to("cuda")(x.to("cuda"))
    assert y.device.type == "cuda" and y.dtype == dtype
    tol = 3e-2 if dtype == torch.bfloat16 else 1e-4
    torch.testing.assert_close(y.cpu(), expected, atol=tol, rtol=tol)


def test_device_choice_is_a_torch_device() -> None:
    chosen = ml.device()
    assert isinstance(chosen, torch.device)
    if torch.cuda.is_available():
        assert chosen.type == "cuda"
    assert chosen.type in {"cuda", "mps", "cpu"}


def test_seed_everything_repeats_draws() -> None:
    first = ml.seed_everything(7)
    a, a_global = torch.randn(3, generator=first), torch.randn(3)
    second = ml.seed_everything(7)
    b, b_global = torch.randn(3, generator=second), torch.randn(3)
    assert torch.equal(a, b) and torch.equal(a_global, b_global)


@pytest.mark.parametrize(
    ("call", "largest"),
    [(ml.seed_everything, 2**32 - 1), (lambda s: ml.seeded(s).__enter__(), 2**64 - 1)],
)
def test_a_seed_beyond_the_generators_range_is_refused_naming_the_limit(call, largest) -> None:
    """Old behaviour: torch's 'Overflow when unpacking long long' (NumPy's own message before)."""
    with pytest.raises(ValueError, match=f"seed must be at most {largest} .* got {largest + 1}"):
        call(largest + 1)
    with ml.seeded(2**64 - 1):  # the largest seed works
        torch.rand(1)
