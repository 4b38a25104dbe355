"""The tiny block of lesson 01: RMSNorm, causal attention, the pre-norm block."""

from __future__ import annotations

import pytest
import torch

import minimind_lab as ml


def small_config() -> ml.MiniMindConfig:
    return ml.MiniMindConfig(hidden_size=32, num_attention_heads=4, num_key_value_heads=2)


def test_rmsnorm_gives_unit_rms(generator) -> None:
    norm = ml.RMSNorm(16, eps=0.0).double()
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
