"""The sizing rule against published widths, and its errors."""

from __future__ import annotations

import math

import pytest

import minimind_lab as ml


@pytest.mark.parametrize(
    ("hidden", "kwargs", "published"),
    [
        (512, {}, 1408),  # MiniMind2-Small
        (640, {}, 1728),  # MiniMind2-MoE
        (768, {}, 2048),  # MiniMind2
        (4096, {"multiple_of": 256}, 11008),  # LLaMA-1 7B
        (5120, {"multiple_of": 256}, 13824),  # LLaMA-1 13B
        (6656, {"multiple_of": 256}, 17920),  # LLaMA-1 33B
        (8192, {"multiple_of": 256}, 22016),  # LLaMA-1 65B
        (4096, {"multiple_of": 1024, "ffn_dim_multiplier": 1.3}, 14336),  # Llama 3 8B
        (8192, {"multiple_of": 4096, "ffn_dim_multiplier": 1.3}, 28672),  # Llama 3 70B
    ],
)
def test_published_widths(hidden: int, kwargs: dict, published: int) -> None:
    assert ml.intermediate_size(hidden, **kwargs) == published


@pytest.mark.parametrize("hidden", [512, 640, 768, 1024])
def test_pi_rule_matches_minimind3_formula(hidden: int) -> None:
    assert ml.intermediate_size(hidden, ratio=math.pi) == math.ceil(hidden * math.pi / 64) * 64


def test_gated_width_keeps_parameters_near_the_plain_4h_ffn() -> None:
    h = 768
    plain = ml.ffn_parameter_count(h, 4 * h, gated=False)
    gated = ml.ffn_parameter_count(h, ml.intermediate_size(h), gated=True)
    assert gated == plain  # 768·8/3 = 2048 exactly, a multiple of 64


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"hidden_size": 0}, "hidden_size must be a positive integer, got 0"),
        ({"hidden_size": 64, "multiple_of": -8}, "multiple_of must be a positive integer"),
        ({"hidden_size": 64, "ratio": 0}, "ratio must be positive"),
        ({"hidden_size": 64, "ffn_dim_multiplier": -1.0}, "ffn_dim_multiplier must be positive"),
    ],
)
def test_bad_sizes_raise_with_the_value(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ml.intermediate_size(**kwargs)


def test_count_parameters_counts_shared_tensors_once() -> None:
    from torch import nn

    layer = nn.Linear(4, 4, bias=False)
    tied = nn.Sequential(layer, layer)
    assert ml.count_parameters(tied) == 16
    layer.weight.requires_grad_(False)
    assert ml.count_parameters(tied, trainable_only=True) == 0


def test_parameter_formula_refuses_bad_sizes() -> None:
    with pytest.raises(ValueError, match="intermediate_size must be a positive integer"):
        ml.ffn_parameter_count(8, 0, gated=True)
