"""PlainFFN and GatedFFN: arithmetic, parameter counts, shapes and bad input."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
import torch
import torch.nn.functional as F

import minimind_lab as ml


def test_plain_ffn_is_down_act_up(generator) -> None:
    ffn = ml.PlainFFN(16, 64, act="gelu", bias=True).double()
    x = torch.randn(3, 5, 16, generator=generator, dtype=torch.float64)
    expected = F.linear(
        F.gelu(F.linear(x, ffn.up_proj.weight, ffn.up_proj.bias)),
        ffn.down_proj.weight,
        ffn.down_proj.bias,
    )
    torch.testing.assert_close(ffn(x), expected)


@pytest.mark.parametrize(("variant", "act"), sorted(ml.GLU_VARIANTS.items()))
def test_gated_ffn_puts_the_activation_on_the_gate_only(variant, act, generator) -> None:
    ffn = ml.GatedFFN(8, 24, act=act).double()
    x = torch.randn(4, 8, generator=generator, dtype=torch.float64)
    gate = ml.get_activation(act)(x @ ffn.gate_proj.weight.T)
    expected = (gate * (x @ ffn.up_proj.weight.T)) @ ffn.down_proj.weight.T
    torch.testing.assert_close(ffn(x), expected)


def test_glu_family_names_their_gate_activation() -> None:
    assert ml.GLU_VARIANTS == {
        "GLU": "sigmoid",
        "ReGLU": "relu",
        "GEGLU": "gelu",
        "SwiGLU": "silu",
        "Bilinear": "identity",
    }


@pytest.mark.parametrize("h", [8, 64, 512])
def test_parameter_counts_equal_the_formulas(h: int) -> None:
    plain = ml.PlainFFN(h, 4 * h)
    assert ml.count_parameters(plain) == ml.ffn_parameter_count(h, 4 * h, gated=False)
    assert ml.count_parameters(plain) == 8 * h * h
    m = ml.intermediate_size(h)
    gated = ml.GatedFFN(h, m)
    assert ml.count_parameters(gated) == ml.ffn_parameter_count(h, m, gated=True) == 3 * h * m


@pytest.mark.parametrize("gated", [False, True])
def test_parameter_formula_with_bias_matches_module(gated: bool) -> None:
    cls = ml.GatedFFN if gated else ml.PlainFFN
    module = cls(12, 40, bias=True)
    assert ml.count_parameters(module) == ml.ffn_parameter_count(12, 40, gated=gated, bias=True)


@pytest.mark.parametrize("cls", [ml.PlainFFN, ml.GatedFFN])
def test_wrong_last_dimension_names_shape_and_hidden_size(cls) -> None:
    ffn = cls(16, 32)
    with pytest.raises(ValueError, match=r"\(2, 3, 15\).*hidden_size=16"):
        ffn(torch.zeros(2, 3, 15))


@pytest.mark.parametrize("cls", [ml.PlainFFN, ml.GatedFFN])
@pytest.mark.parametrize(
    ("h", "m", "field"),
    [(0, 8, "hidden_size"), (8, -1, "intermediate_size"), (8.0, 8, "hidden_size")],
)
def test_non_positive_sizes_are_refused(cls, h, m, field) -> None:
    with pytest.raises(ValueError, match=f"{field} must be a positive integer"):
        cls(h, m)


@pytest.mark.parametrize("cls", [ml.PlainFFN, ml.GatedFFN])
def test_unknown_activation_and_bad_dropout(cls) -> None:
    with pytest.raises(ValueError, match="unknown activation 'swiglu'"):
        cls(8, 16, act="swiglu")
    with pytest.raises(ValueError, match=r"dropout must be a number in \[0, 1\)"):
        cls(8, 16, dropout=1.5)


#: One of each FFN the package has, at hidden size 8 (float32).
EVERY_FFN = [
    lambda: ml.PlainFFN(8, 16),
    lambda: ml.GatedFFN(8, 16),
    lambda: ml.FeedForward(ml.MiniMindConfig(hidden_size=8, num_attention_heads=2)),
    lambda: ml.MoEFeedForward(ml.MiniMindConfig(hidden_size=8, num_attention_heads=2), 2, 1),
]


@pytest.mark.parametrize("build", EVERY_FFN)
def test_integer_input_is_refused_with_a_message_about_the_input(build) -> None:
    """Old behaviour: a RuntimeError from deep inside a matrix product about m1 and m2's dtypes."""
    with pytest.raises(ValueError, match="input has dtype torch.int64; expected floating-point"):
        build()(torch.ones(2, 8, dtype=torch.long))


# --- issue 19: one set of argument checks ------------------------------------------------


@pytest.mark.parametrize("cls", [ml.PlainFFN, ml.GatedFFN])
@pytest.mark.parametrize("bias", ["False", 0, None])
def test_a_bias_flag_that_is_not_a_bool_is_refused(cls, bias: object) -> None:
    """Old behaviour: ``bias='False'`` is truthy, so biases were silently created."""
    with pytest.raises(ValueError, match=f"bias must be True or False, got {bias!r}"):
        cls(8, 16, bias=bias)


@pytest.mark.parametrize("cls", [ml.PlainFFN, ml.GatedFFN])
@pytest.mark.parametrize(
    ("dropout", "shown"),
    [("0.1", r"'0.1' \(type str, expected int or float\)"), (None, "None"), (True, "True")],
)
def test_a_dropout_that_is_not_a_number_is_refused(cls, dropout: object, shown: str) -> None:
    """Old behaviour: a TypeError comparing a str or None with a float."""
    with pytest.raises(ValueError, match=rf"dropout must be a number in \[0, 1\), got {shown}"):
        cls(8, 16, dropout=dropout)


@pytest.mark.parametrize("cls", [ml.PlainFFN, ml.GatedFFN])
def test_numpy_integer_sizes_are_accepted_and_fractions_named(cls) -> None:
    """Old behaviour: "must be a positive integer, got np.int64(8)", false as written."""
    ffn = cls(np.int64(8), np.int32(16))
    assert (ffn.hidden_size, ffn.intermediate_size) == (8, 16)
    assert type(ffn.hidden_size) is int and ffn.up_proj.weight.shape == (16, 8)
    with pytest.raises(
        ValueError,
        match=r"intermediate_size must be a positive integer, got Fraction\(8, 3\) "
        r"\(type Fraction, expected int\)",
    ):
        cls(8, Fraction(8, 3))


@pytest.mark.parametrize("cls", [ml.PlainFFN, ml.GatedFFN])
@pytest.mark.parametrize(
    ("dtype", "fix"),
    [(torch.float64, r"x\.float\(\) or the module with module\.double\(\)"),
     (torch.float16, r"x\.float\(\) or the module with module\.half\(\)")],
)  # fmt: skip
def test_an_input_of_another_dtype_names_both_dtypes_and_the_fix(cls, dtype, fix) -> None:
    """Old behaviour: torch's "expected m1 and m2 to have the same dtype" (a RuntimeError)."""
    ffn = cls(8, 16)
    with pytest.raises(
        ValueError, match=rf"input has dtype {dtype} but {cls.__name__}'s weights are "
        rf"torch.float32; convert the input with {fix}",
    ):  # fmt: skip
        ffn(torch.from_numpy(np.ones((2, 8))).to(dtype))
    assert ffn.to(dtype)(torch.ones(2, 8, dtype=dtype)).dtype == dtype  # the fix works


@pytest.mark.parametrize("build", EVERY_FFN)
@pytest.mark.parametrize("shape", [(0, 8), (2, 0, 8)])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_an_empty_batch_or_sequence_gives_an_empty_output(build, shape, dtype) -> None:
    """As PyTorch's own modules do, so code that routes no tokens to a module keeps working.

    Old behaviour: a ValueError about an empty batch."""
    ffn = build().to(dtype)
    x = torch.zeros(shape, dtype=dtype, requires_grad=True)
    y = ffn(x)
    assert y.shape == shape and y.dtype == dtype
    y.sum().backward()  # the backward pass takes it too
    assert x.grad is not None and x.grad.shape == shape
