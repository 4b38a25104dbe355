"""The tiny block of lesson 01: RMSNorm, causal attention, the pre-norm block."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch
from torch import Tensor

import minimind_lab as ml


def small_config() -> ml.MiniMindConfig:
    return ml.MiniMindConfig(hidden_size=32, num_attention_heads=4, num_key_value_heads=2)


def test_rmsnorm_gives_unit_rms(generator) -> None:
    norm = ml.RMSNorm(16, eps=1e-300).double()  # eps=0 is refused: a zero row would be NaN
    x = 5 * torch.randn(3, 16, generator=generator, dtype=torch.float64)
    rms = norm(x).pow(2).mean(-1).sqrt()
    torch.testing.assert_close(rms, torch.ones(3, dtype=torch.float64))


def test_attention_is_causal(generator) -> None:
    attn = ml.CausalSelfAttention(32, num_heads=4, num_kv_heads=2).double()
    x = torch.randn(1, 6, 32, generator=generator, dtype=torch.float64)
    changed = x.clone()
    changed[0, 4] += 1.0  # perturb position 4: positions 0..3 must not move
    before, after = attn(x), attn(changed)
    torch.testing.assert_close(before[0, :4], after[0, :4])
    assert not torch.allclose(before[0, 4:], after[0, 4:])


def test_grouped_kv_heads_shrink_only_k_and_v() -> None:
    attn = ml.CausalSelfAttention(64, num_heads=8, num_kv_heads=2)
    assert attn.k_proj.weight.shape == attn.v_proj.weight.shape == (16, 64)
    assert attn.q_proj.weight.shape == attn.o_proj.weight.shape == (64, 64)


def test_block_is_pre_norm_with_residuals(generator) -> None:
    block = ml.Block(small_config()).double()
    x = torch.randn(2, 5, 32, generator=generator, dtype=torch.float64)
    h = x + block.self_attn(block.input_layernorm(x))
    expected = h + block.mlp(block.post_attention_layernorm(h))
    torch.testing.assert_close(block(x), expected)
    assert isinstance(block.mlp, ml.FeedForward)


def test_attention_errors() -> None:
    with pytest.raises(ValueError, match="must divide"):
        ml.CausalSelfAttention(30, num_heads=4)
    with pytest.raises(ValueError, match="num_kv_heads must be a positive integer"):
        ml.CausalSelfAttention(32, num_heads=4, num_kv_heads=0)
    attn = ml.CausalSelfAttention(32, num_heads=4)
    with pytest.raises(ValueError, match="hidden_size=32"):
        attn(torch.zeros(1, 3, 31))
    with pytest.raises(ValueError, match=r"\(batch, seq, hidden\)"):
        attn(torch.zeros(3, 32))
    with pytest.raises(ValueError, match="hidden_size=16"):
        ml.RMSNorm(16)(torch.zeros(2, 8))


# --- RMSNorm -------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", [torch.int64, torch.int32, torch.bool])
def test_rmsnorm_refuses_integer_input_instead_of_truncating(dtype: torch.dtype) -> None:
    # Before: the float result was cast back to int64, so 3 / rms([3, 4]) ≈ 0.85 came out as 0.
    with pytest.raises(ValueError, match=f"RMSNorm needs floating-point input, got dtype {dtype}"):
        ml.RMSNorm(2)(torch.tensor([[3, 4]], dtype=dtype))


def test_block_refuses_integer_input_too() -> None:
    with pytest.raises(ValueError, match="floating-point input"):
        ml.Block(small_config())(torch.ones(1, 3, 32, dtype=torch.long))


@pytest.mark.parametrize("eps", [-1e-5, float("nan"), 1.0, True, "1e-5", 0, 0.0])
def test_rmsnorm_refuses_a_bad_eps(eps: object) -> None:
    """Old behaviour for eps=0: accepted, and a row of zeros came out NaN."""
    with pytest.raises(ValueError, match=r"eps must be a number in \(0, 1\)"):
        ml.RMSNorm(4, eps=eps)  # type: ignore[arg-type]


def test_both_weight_orders_agree_in_float32_and_follow_minimind_in_half(generator) -> None:
    x = torch.randn(4, 16, generator=generator)
    late, early = ml.RMSNorm(16), ml.RMSNorm(16, scale_in_float32=True)
    gain = 1 + torch.randn(16, generator=generator)
    with torch.no_grad():
        for norm in (late, early):
            norm.weight.copy_(gain)
    torch.testing.assert_close(late(x), early(x), atol=0, rtol=0)
    x16, late16, early16 = x.half(), late.half(), early.half()
    normed = x16.float() * torch.rsqrt(x16.float().pow(2).mean(-1, keepdim=True) + 1e-5)
    assert torch.equal(late16(x16), late16.weight * normed.half())  # MiniMind2
    assert torch.equal(early16(x16), (early16.weight * normed).half())  # minimind-3


# --- RoPE ----------------------------------------------------------------------------------


def test_rope_tables_follow_the_rotate_half_layout() -> None:
    cos, sin = ml.attention.rope_tables(head_dim=8, num_positions=5, theta=1e6)
    assert cos.shape == sin.shape == (5, 8) and cos.dtype == torch.float32
    freqs = 1e6 ** (-torch.arange(0, 8, 2).float() / 8)  # (4,)
    angles = torch.arange(5).float()[:, None] * freqs  # (5, 4)
    torch.testing.assert_close(cos, torch.cat([angles.cos(), angles.cos()], -1))
    torch.testing.assert_close(sin, torch.cat([angles.sin(), angles.sin()], -1))
    with pytest.raises(ValueError, match="head_dim must be even, got 7"):
        ml.attention.rope_tables(7, 5)


def test_rope_rotates_pairs_i_and_i_plus_half(generator) -> None:
    cos, sin = ml.attention.rope_tables(head_dim=4, num_positions=3, theta=100.0)
    x = torch.randn(1, 1, 3, 4, generator=generator, dtype=torch.float64)
    y = ml.attention.apply_rope(x, cos.double(), sin.double())
    for pos in range(3):
        for i in range(2):  # the pair (i, i + 2) turns by angle pos · 100^(-2i/4)
            a = pos * 100.0 ** (-2 * i / 4)
            x1, x2 = x[0, 0, pos, i], x[0, 0, pos, i + 2]
            torch.testing.assert_close(y[0, 0, pos, i], x1 * math.cos(a) - x2 * math.sin(a))
            torch.testing.assert_close(y[0, 0, pos, i + 2], x2 * math.cos(a) + x1 * math.sin(a))


def test_rope_scores_depend_only_on_the_offset(generator) -> None:
    cos, sin = ml.attention.rope_tables(head_dim=8, num_positions=12)
    q, k = torch.randn(2, 8, generator=generator), torch.randn(2, 8, generator=generator)

    def score(i: int, j: int) -> Tensor:
        qi = ml.attention.apply_rope(q[0].expand(1, 1, 12, 8), cos, sin)[0, 0, i]
        kj = ml.attention.apply_rope(k[0].expand(1, 1, 12, 8), cos, sin)[0, 0, j]
        return qi @ kj

    torch.testing.assert_close(score(5, 2), score(9, 6), atol=1e-5, rtol=1e-5)
    torch.testing.assert_close(score(3, 3), score(11, 11), atol=1e-5, rtol=1e-5)


def test_rope_keeps_the_input_dtype() -> None:
    cos, sin = ml.attention.rope_tables(8, 4)  # float32 tables
    x = torch.randn(1, 2, 4, 8, dtype=torch.bfloat16)
    assert ml.attention.apply_rope(x, cos, sin).dtype == torch.bfloat16


def test_attention_with_rope_sees_order_without_it_does_not(generator) -> None:
    attn = ml.CausalSelfAttention(32, num_heads=4, num_kv_heads=2).double()
    cos, sin = ml.attention.rope_tables(8, 6)
    rope = (cos.double(), sin.double())
    x = torch.randn(1, 6, 32, generator=generator, dtype=torch.float64)
    swapped = x[:, [1, 0, 2, 3, 4, 5]]  # swap two earlier tokens; the last one is unchanged
    torch.testing.assert_close(attn(x)[0, -1], attn(swapped)[0, -1])  # a bag of tokens
    assert not torch.allclose(attn(x, rope)[0, -1], attn(swapped, rope)[0, -1])


# --- q/k norm, switches and the block as a decoder layer ------------------------------------


def test_minimind3_attention_norms_each_head_before_rope(generator) -> None:
    config = ml.MiniMindConfig(hidden_size=48, num_attention_heads=4, num_key_value_heads=2,
                               head_dim=16, version="minimind3")  # fmt: skip
    attn = ml.CausalSelfAttention.from_config(config).double()
    assert [k for k in attn.state_dict() if "norm" in k] == ["q_norm.weight", "k_norm.weight"]
    assert attn.q_proj.weight.shape == (64, 48) and attn.o_proj.weight.shape == (48, 64)
    assert attn.q_norm.eps == 1e-6 and attn.q_norm.weight.shape == (16,)
    with torch.no_grad():
        attn.q_norm.weight.mul_(3.0)
    x = torch.randn(1, 5, 48, generator=generator, dtype=torch.float64)
    q = attn.q_proj(x).view(1, 5, 4, 16)
    normed = attn.q_norm(q)
    rms = normed.pow(2).mean(-1).sqrt()  # (1, 5, 4): one per position and head
    torch.testing.assert_close(rms, torch.full_like(rms, 3.0), atol=1e-4, rtol=0)
    plain = ml.CausalSelfAttention(48, 4, 2, head_dim=16)
    assert not hasattr(plain, "q_norm") and len(plain.state_dict()) == 4


def test_lesson01_block_keeps_its_modules_and_keys() -> None:
    block = ml.Block(
        ml.MiniMindConfig(hidden_size=32, num_attention_heads=4, num_key_value_heads=4)
    )
    assert [name for name, _ in block.named_children()] == [
        "input_layernorm", "self_attn", "post_attention_layernorm", "mlp",
    ]  # fmt: skip
    assert len(block.state_dict()) == 2 + 4 + 3


@pytest.mark.parametrize(
    ("use_attention", "use_mlp"), [(False, True), (True, False), (False, False)]
)
def test_block_switches_drop_a_sublayer_and_its_norm(use_attention: bool, use_mlp: bool,
                                                      generator) -> None:  # fmt: skip
    config = ml.MiniMindConfig(hidden_size=32, num_attention_heads=4, use_attention=use_attention,
                               use_mlp=use_mlp)  # fmt: skip
    block = ml.Block(config).double()
    keys = set(block.state_dict())
    assert any(k.startswith("self_attn.") for k in keys) == use_attention
    assert ("input_layernorm.weight" in keys) == use_attention
    assert any(k.startswith("mlp.") for k in keys) == use_mlp
    assert ("post_attention_layernorm.weight" in keys) == use_mlp
    x = torch.randn(2, 4, 32, generator=generator, dtype=torch.float64)
    expected = x
    if use_attention:
        expected = expected + block.self_attn(block.input_layernorm(expected))
    if use_mlp:
        expected = expected + block.mlp(block.post_attention_layernorm(expected))
    torch.testing.assert_close(block(x), expected)


def test_a_forward_hook_can_zero_one_blocks_mlp(generator) -> None:
    block = ml.Block(small_config()).double()
    x = torch.randn(1, 4, 32, generator=generator, dtype=torch.float64)
    handle = block.mlp.register_forward_hook(lambda module, args, out: torch.zeros_like(out))
    torch.testing.assert_close(block(x), x + block.self_attn(block.input_layernorm(x)))
    handle.remove()
    assert not torch.allclose(block(x), x + block.self_attn(block.input_layernorm(x)))


# --- non-finite input ----------------------------------------------------------------------


@pytest.mark.parametrize("bad", [float("nan"), float("inf")])
def test_one_non_finite_value_reaches_every_position_as_documented(bad: float, generator) -> None:
    attn = ml.CausalSelfAttention(32, num_heads=4, num_kv_heads=2)
    x = torch.randn(1, 6, 32, generator=generator)
    x[0, 4, 0] = bad  # position 4 only
    y = attn(x)
    assert torch.isnan(y).any(-1).all()  # positions 0..3 too: causality is for finite input
    norm_out = ml.RMSNorm(32)(x)
    assert torch.isfinite(norm_out[0, [0, 1, 2, 3, 5]]).all()  # the norm stays per position


# --- issue 19: dtypes, configs, empty input and RoPE tables ------------------------------


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
@pytest.mark.parametrize("scale_in_float32", [False, True])
def test_rmsnorm_returns_the_input_dtype_whatever_its_weight(
    dtype, scale_in_float32, generator
) -> None:
    """Old behaviour: float16 input and a float32 weight gave float32 (MiniMind2's order)."""
    norm = ml.RMSNorm(8, scale_in_float32=scale_in_float32)  # float32 weight
    x = torch.randn(3, 8, generator=generator).to(dtype)
    out = norm(x)
    assert out.dtype == dtype
    wide = x.float()
    normed = wide * torch.rsqrt(wide.pow(2).mean(-1, keepdim=True) + norm.eps)
    expected = norm.weight * normed if scale_in_float32 else norm.weight * normed.to(dtype)
    assert torch.equal(out, expected.to(dtype))


@pytest.mark.parametrize(
    ("x", "kind"), [([[1.0, 2.0]], "list"), (np.ones((1, 2)), "ndarray")]
)  # fmt: skip
def test_rmsnorm_given_a_list_or_an_array_says_what_to_do(x: object, kind: str) -> None:
    """Old behaviour: AttributeError: 'list' object has no attribute 'is_floating_point'."""
    with pytest.raises(
        ValueError, match=rf"torch.Tensor of shape \(\*, hidden_size=2\), got {kind}; convert"
    ):
        ml.RMSNorm(2)(x)


def test_flags_that_are_not_bools_are_refused() -> None:
    """Old behaviour: 'no' is truthy, so q/k norms (or float32 scaling) were switched on."""
    with pytest.raises(ValueError, match="qk_norm must be True or False, got 'no'"):
        ml.CausalSelfAttention(32, num_heads=4, qk_norm="no")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="scale_in_float32 must be True or False, got 1"):
        ml.RMSNorm(4, scale_in_float32=1)  # type: ignore[arg-type]


def test_numpy_integer_sizes_build_attention() -> None:
    attn = ml.CausalSelfAttention(np.int64(32), num_heads=np.int64(4), num_kv_heads=np.int32(2))
    assert (attn.hidden_size, attn.num_heads, attn.num_kv_heads, attn.head_dim) == (32, 4, 2, 8)
    assert type(attn.num_heads) is int


@pytest.mark.parametrize(
    ("build", "owner"),
    [
        (lambda c: ml.Block(c), "Block"),
        (lambda c: ml.CausalSelfAttention.from_config(c), "CausalSelfAttention.from_config"),
    ],
)
@pytest.mark.parametrize("config", [None, 64, {"hidden_size": 64}])
def test_something_else_than_a_config_is_named(build, owner: str, config: object) -> None:
    """Old behaviour: AttributeError: 'int' object has no attribute 'validate'."""
    with pytest.raises(ValueError, match=rf"{owner} expects a MiniMindConfig, got"):
        build(config)
    if config == 64:
        with pytest.raises(ValueError, match=r"write .*\(MiniMindConfig\(hidden_size=64\)\)"):
            build(config)


@pytest.mark.parametrize(
    "call",
    [
        lambda x: ml.CausalSelfAttention(32, num_heads=4)(x),
        lambda x: ml.Block(small_config())(x),
        lambda x: ml.RMSNorm(32)(x),
    ],
)
@pytest.mark.parametrize("shape", [(0, 3, 32), (2, 0, 32)])
def test_an_empty_batch_or_sequence_gives_an_empty_output_as_the_ffns_do(call, shape) -> None:
    """Old behaviour: a ValueError about an empty batch (and before it, attention failed inside
    a reshape, "-1 can be any value")."""
    assert call(torch.zeros(shape)).shape == shape


def test_rope_tables_that_do_not_match_the_sequence_are_refused(generator) -> None:
    """Old behaviour: a broadcasting RuntimeError about sizes of tensors a and b."""
    block, tables = ml.Block(small_config()), ml.attention.rope_tables  # head_dim 8
    x = torch.randn(1, 5, 32, generator=generator)
    with pytest.raises(
        ValueError, match=r"cos \(7, 8\) and sin \(7, 8\); expected \(seq, head_dim\) = \(5, 8\)"
    ):
        block(x, tables(8, 7))
    with pytest.raises(ValueError, match=r"cos \(5, 4\) .* = \(5, 8\)"):
        block(x, tables(4, 5))
    with pytest.raises(ValueError, match=r"a \(cos, sin\) pair of tensors, got \(list, list\)"):
        block(x, ([0.0], [1.0]))  # type: ignore[arg-type]
    cos, sin = tables(8, 7)
    torch.testing.assert_close(block(x, (cos[:5], sin[:5])), block(x, tables(8, 5)))


@pytest.mark.parametrize("dtype", [torch.float64, torch.float16])
def test_attention_and_the_block_name_both_dtypes(dtype: torch.dtype) -> None:
    """Old behaviour: torch's "expected m1 and m2 to have the same dtype" (a RuntimeError)."""
    x = torch.from_numpy(np.ones((1, 3, 32))).to(dtype)
    message = rf"input has dtype {dtype} but attention's weights are torch.float32; convert"
    with pytest.raises(ValueError, match=message):
        ml.CausalSelfAttention(32, num_heads=4)(x)
    with pytest.raises(ValueError, match=message):
        ml.Block(small_config())(x)  # RMSNorm keeps the dtype; attention names it


@pytest.mark.parametrize(
    ("rope", "got"), [("one table", "got 1 items"), ("a tensor", "got Tensor")]
)
def test_rope_that_is_not_a_pair_is_refused_naming_the_shape(rope: str, got: str) -> None:
    """Old behaviour: 'not enough values to unpack (expected 2, got 1)'."""
    block = ml.Block(small_config())
    x = torch.zeros(1, 3, 32)
    cos, _ = ml.attention.rope_tables(8, 3)
    value = (cos,) if rope == "one table" else cos
    with pytest.raises(ValueError, match=rf"rope must be a \(cos, sin\) pair .*\(3, 8\), {got}"):
        block(x, rope=value)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.bfloat16])
def test_rmsnorm_of_a_row_whose_squares_overflow_is_still_unit_rms(dtype) -> None:
    """Old behaviour: a float32 row of ±1e30 came out as 0 (its squares overflowed to inf)."""
    big = torch.finfo(dtype).max / 4
    x = torch.tensor([[big, -big, big, -big], [1.0, 2.0, 3.0, 4.0]], dtype=dtype)
    y = ml.RMSNorm(4)(x).float()
    assert torch.allclose(y[0], torch.tensor([1.0, -1.0, 1.0, -1.0]), atol=1e-2)
    small = torch.tensor([1.0, 2.0, 3.0, 4.0])
    assert torch.allclose(y[1], small / small.pow(2).mean().add(1e-5).sqrt(), atol=1e-2)


def test_rmsnorm_leaves_ordinary_rows_bit_for_bit_as_the_plain_formula(generator) -> None:
    """The overflow guard divides ordinary rows by exactly 1."""
    x = torch.randn(8, 5, 16, generator=generator) * 1e3
    plain = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-5)
    assert torch.equal(ml.RMSNorm(16)(x).detach(), plain)


def test_rmsnorm_of_a_row_holding_inf_is_the_plain_formulas() -> None:
    """The overflow guard leaves non-finite rows alone: inf · 0 = NaN where the inf is, 0 else."""
    x = torch.tensor([[float("inf"), 1.0, 2.0, 3.0]])
    y = ml.RMSNorm(4)(x).detach()
    assert torch.isnan(y[0, 0]) and torch.equal(y[0, 1:], torch.zeros(3))
