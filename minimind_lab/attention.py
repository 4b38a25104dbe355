"""The tiny pre-norm Transformer block of lesson 01: RMSNorm, causal self-attention, MLP.

Attention moves information between positions; the MLP (``FeedForward``) works within one
position. Residual connections (残差) wrap both, each after an RMSNorm, as in MiniMind.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from ._checks import check_last_dim, check_positive_int
from .minimind import FeedForward, MiniMindConfig


class RMSNorm(nn.Module):
    """Root-mean-square normalisation with a learned gain: ``x / rms(x) · weight``.

    Computed in float32 for stability and cast back, as MiniMind and LLaMA do.
    ``(*, hidden_size)`` → ``(*, hidden_size)``.
    """

    def __init__(self, hidden_size: int, eps: float = 1e-5) -> None:
        super().__init__()
        self.hidden_size = check_positive_int("hidden_size", hidden_size)
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(hidden_size))

    def forward(self, x: Tensor) -> Tensor:
        """``x``: ``(*, hidden_size)`` → ``(*, hidden_size)``."""
        check_last_dim(x, self.hidden_size)
        x32 = x.float()
        normed = x32 * torch.rsqrt(x32.pow(2).mean(dim=-1, keepdim=True) + self.eps)
        return self.weight * normed.to(x.dtype)


class CausalSelfAttention(nn.Module):
    """Multi-head causal self-attention with grouped key/value heads (GQA), as in MiniMind.

    No positional encoding: the causal mask alone decides who may look at whom, which is all
    lesson 01 needs. ``(B, T, hidden_size)`` → ``(B, T, hidden_size)``; position ``i`` sees
    positions ``≤ i`` only.
    """

    def __init__(self, hidden_size: int, num_heads: int = 8, num_kv_heads: int | None = None):
        super().__init__()
        check_positive_int("hidden_size", hidden_size)
        check_positive_int("num_heads", num_heads)
        num_kv_heads = num_heads if num_kv_heads is None else num_kv_heads
        check_positive_int("num_kv_heads", num_kv_heads)
        if hidden_size % num_heads or num_heads % num_kv_heads:
            raise ValueError(
                f"hidden_size={hidden_size} must divide by num_heads={num_heads}, and num_heads "
                f"by num_kv_heads={num_kv_heads}"
            )
        self.hidden_size = hidden_size
        self.num_heads = num_heads
        self.num_kv_heads = num_kv_heads
        self.head_dim = hidden_size // num_heads
        kv_size = num_kv_heads * self.head_dim
        self.q_proj = nn.Linear(hidden_size, hidden_size, bias=False)
        self.k_proj = nn.Linear(hidden_size, kv_size, bias=False)
        self.v_proj = nn.Linear(hidden_size, kv_size, bias=False)
        self.o_proj = nn.Linear(hidden_size, hidden_size, bias=False)

    def forward(self, x: Tensor) -> Tensor:
        """``x``: ``(B, T, hidden_size)`` → ``(B, T, hidden_size)``."""
        check_last_dim(x, self.hidden_size)
        if x.dim() != 3:
            raise ValueError(f"attention expects (batch, seq, hidden), got shape {tuple(x.shape)}")
        b, t, _ = x.shape
        q = self.q_proj(x).view(b, t, self.num_heads, self.head_dim).transpose(1, 2)  # (B,H,T,D)
        k = self.k_proj(x).view(b, t, self.num_kv_heads, self.head_dim).transpose(1, 2)
        v = self.v_proj(x).view(b, t, self.num_kv_heads, self.head_dim).transpose(1, 2)
        repeat = self.num_heads // self.num_kv_heads  # each kv head serves this many q heads
        k = k.repeat_interleave(repeat, dim=1)  # (B, H, T, D)
        v = v.repeat_interleave(repeat, dim=1)
        mixed = F.scaled_dot_product_attention(q, k, v, is_causal=True)  # (B, H, T, D)
        return self.o_proj(mixed.transpose(1, 2).reshape(b, t, self.hidden_size))


class Block(nn.Module):
    """One pre-norm Transformer block: ``x + attn(norm(x))``, then ``+ mlp(norm(·))``.

    ``(B, T, hidden_size)`` → ``(B, T, hidden_size)``. The sublayers are ``self_attn`` and ``mlp``
    (a MiniMind ``FeedForward``), so each can be probed alone.
    """

    def __init__(self, config: MiniMindConfig) -> None:
        super().__init__()
        self.input_layernorm = RMSNorm(config.hidden_size, config.rms_norm_eps)
        self.self_attn = CausalSelfAttention(
            config.hidden_size, config.num_attention_heads, config.num_key_value_heads
        )
        self.post_attention_layernorm = RMSNorm(config.hidden_size, config.rms_norm_eps)
        self.mlp = FeedForward(config)

    def forward(self, x: Tensor) -> Tensor:
        """``x``: ``(B, T, hidden_size)`` → ``(B, T, hidden_size)``."""
        x = x + self.self_attn(self.input_layernorm(x))  # between positions
        return x + self.mlp(self.post_attention_layernorm(x))  # within each position
