"""The width rules against published widths, minimind-3's formula, and their errors."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from torch import nn

import minimind_lab as ml


@pytest.mark.parametrize(
    ("hidden", "rule", "published"),
    [
        (512, ml.MINIMIND2_RULE, 1408),  # MiniMind2-Small
        (640, ml.MINIMIND2_RULE, 1728),  # MiniMind2-MoE
        (768, ml.MINIMIND2_RULE, 2048),  # MiniMind2
        (768, ml.MINIMIND3_RULE, 2432),  # minimind-3
        (4096, ml.LLAMA1_RULE, 11008),  # LLaMA-1 7B
        (5120, ml.LLAMA1_RULE, 13824),  # LLaMA-1 13B
        (6656, ml.LLAMA1_RULE, 17920),  # LLaMA-1 33B
        (8192, ml.LLAMA1_RULE, 22016),  # LLaMA-1 65B
        (4096, ml.LLAMA3_8B_RULE, 14336),  # Llama 3 8B
        (8192, ml.LLAMA3_70B_RULE, 28672),  # Llama 3 70B
    ],
)
def test_published_widths(hidden: int, rule: ml.WidthRule, published: int) -> None:
    assert ml.intermediate_size(hidden, rule) == published


def test_default_rule_is_minimind2_and_rules_have_names() -> None:
    assert ml.intermediate_size(512) == ml.intermediate_size(512, "minimind2") == 1408
    assert ml.width_rule("minimind3") is ml.MINIMIND3_RULE
    with pytest.raises(ValueError, match="unknown width rule 'llama4'; expected one of"):
        ml.intermediate_size(512, "llama4")


def test_pi_rule_is_minimind3s_formula_for_every_hidden_size() -> None:
    """minimind-3 writes ``math.ceil(hidden_size * math.pi / 64) * 64``; the old rule
    (``int(π·h)`` first) differed for 128 sizes up to 8192, the first at h = 41."""
    differ = [
        h
        for h in range(1, 8193)
        if ml.intermediate_size(h, ml.MINIMIND3_RULE) != math.ceil(h * math.pi / 64) * 64
    ]
    assert differ == []
    assert ml.intermediate_size(41, ml.MINIMIND3_RULE) == 192  # int(π·41) = 128 would give 128


def test_gated_width_keeps_parameters_near_the_plain_4h_ffn() -> None:
    h = 768
    plain = ml.ffn_parameter_count(h, 4 * h, gated=False)
    gated = ml.ffn_parameter_count(h, ml.intermediate_size(h), gated=True)
    assert gated == plain  # 768·8/3 = 2048 exactly, a multiple of 64


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"multiple_of": -8}, "multiple_of must be a positive integer, got -8"),
        ({"multiple_of": 2.5}, "multiple_of must be a positive integer, got 2.5"),
        ({"ratio": 0}, "ratio must be a positive finite number, got 0"),
        ({"ratio": math.inf}, "ratio must be a positive finite number, got inf"),
        ({"ratio": math.nan}, "ratio must be a positive finite number, got nan"),
        ({"ratio": True}, "ratio must be a positive finite number, got True"),
        ({"ffn_dim_multiplier": -1.0}, "ffn_dim_multiplier must be a positive finite number"),
        ({"ffn_dim_multiplier": math.inf}, "ffn_dim_multiplier must be a positive finite number"),
        ({"truncate_first": "yes"}, "truncate_first must be True or False, got .yes. \\(type str"),
    ],
)
def test_bad_rules_raise_with_the_value(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ml.WidthRule(**kwargs)


@pytest.mark.parametrize(
    ("hidden", "message"),
    [
        (0, "hidden_size must be a positive integer, got 0"),
        (-4, "hidden_size must be a positive integer, got -4"),
        (64.0, "hidden_size must be a positive integer, got 64.0"),
        (True, "hidden_size must be a positive integer, got True"),
    ],
)
def test_bad_hidden_sizes_raise_with_the_value(hidden: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ml.intermediate_size(hidden)


def test_a_rule_that_gives_no_unit_raises_instead_of_returning_zero() -> None:
    """Old behaviour: ``intermediate_size(1, ratio=0.25)`` returned 0."""
    with pytest.raises(ValueError, match="gives 0 units for hidden_size=1"):
        ml.intermediate_size(1, ml.WidthRule(ratio=0.25))
    assert ml.intermediate_size(4, ml.WidthRule(ratio=0.25)) == 64  # one unit, rounded up


def test_count_parameters_counts_shared_tensors_once() -> None:
    layer = nn.Linear(4, 4, bias=False)
    tied = nn.Sequential(layer, layer)
    assert ml.count_parameters(tied) == 16
    layer.weight.requires_grad_(False)
    assert ml.count_parameters(tied, trainable_only=True) == 0
    with pytest.raises(ValueError, match="expected an nn.Module, got Parameter"):
        ml.count_parameters(layer.weight)


def test_parameter_formula_refuses_bad_sizes_and_flags() -> None:
    with pytest.raises(ValueError, match="intermediate_size must be a positive integer"):
        ml.ffn_parameter_count(8, 0, gated=True)
    # Old behaviour: gated="no" was truthy and counted three matrices.
    with pytest.raises(ValueError, match="gated must be True or False, got 'no'"):
        ml.ffn_parameter_count(8, 16, gated="no")
    with pytest.raises(ValueError, match="bias must be True or False, got 1"):
        ml.ffn_parameter_count(8, 16, gated=False, bias=1)
    assert ml.ffn_parameter_count(8, 16, gated=False, bias=True) == 2 * 8 * 16 + 16 + 8


def test_numpy_scalars_and_fractions_are_taken_as_the_numbers_they_are() -> None:
    """Old behaviour: "hidden_size must be a positive integer, got np.int64(512)", false as
    written; a Fraction ratio was refused as not a number."""
    assert ml.intermediate_size(np.int64(512)) == 1408
    rule = ml.WidthRule(ratio=Fraction(8, 3), multiple_of=np.int64(64))
    assert rule == ml.MINIMIND2_RULE and type(rule.multiple_of) is int
    assert ml.intermediate_size(768, rule) == ml.intermediate_size(768)
    assert ml.ffn_parameter_count(np.int64(8), np.int32(16), gated=True) == 3 * 8 * 16
    with pytest.raises(
        ValueError,
        match=r"hidden_size must be a positive integer, got Fraction\(512, 1\) "
        r"\(type Fraction, expected int\)",
    ):
        ml.intermediate_size(Fraction(512, 1))


def test_count_parameters_refuses_a_trainable_only_that_is_not_a_bool() -> None:
    """Old behaviour: 'no' is truthy, so only trainable parameters were counted."""
    with pytest.raises(ValueError, match="trainable_only must be True or False, got 'no'"):
        ml.count_parameters(nn.Linear(2, 2), trainable_only="no")  # type: ignore[arg-type]
