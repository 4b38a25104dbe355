"""Lesson 08: the attention patterns of the copy task's two-layer induction mechanism."""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import Tensor, nn

from ..._threads import one_thread
from ...attention import apply_rope
from .grid import position_roles
from .task import Corpus, FactTask

__all__ = ["CopyAttention", "attention_weights", "copy_attention"]


def attention_weights(model: nn.Module, ids: Tensor, layer: int) -> Tensor:
    """The softmax attention weights of layer ``layer`` on ``ids`` ``(B, T)``: ``(B, H, T, T)``,
    row ``i`` the weights position ``i`` gives positions ``0..i`` (0 beyond: the causal mask).

    Recomputes ``softmax(QKᵀ/√d + mask)`` from the layer's own input (captured by a forward
    pre-hook) with its ``q_proj``, ``k_proj`` and RoPE, as ``CausalSelfAttention.forward`` does.
    """
    blocks = model.model.layers
    if not 0 <= layer < len(blocks) or blocks[layer].self_attn is None:
        raise ValueError(f"layer must name one of the {len(blocks)} layers with attention")
    attn = blocks[layer].self_attn
    seen = {}
    handle = attn.register_forward_pre_hook(lambda _m, args: seen.update(x=args[0], rope=args[1]))
    try:
        with torch.no_grad(), one_thread():
            model(ids)
    finally:
        handle.remove()
    x, (cos, sin) = seen["x"], seen["rope"]
    b, t, _ = x.shape
    q = attn.q_proj(x).view(b, t, attn.num_heads, attn.head_dim)
    k = attn.k_proj(x).view(b, t, attn.num_kv_heads, attn.head_dim)
    if attn.qk_norm:
        q, k = attn.q_norm(q), attn.k_norm(k)
    q, k = apply_rope(q.transpose(1, 2), cos, sin), apply_rope(k.transpose(1, 2), cos, sin)
    k = k.repeat_interleave(attn.num_heads // attn.num_kv_heads, dim=1)  # (B, H, T, D)
    scores = q @ k.transpose(-1, -2) / attn.head_dim**0.5  # (B, H, T, T)
    mask = torch.ones(t, t, dtype=torch.bool).triu(1)
    return scores.masked_fill(mask, float("-inf")).softmax(-1).detach()


@dataclass(frozen=True)
class CopyAttention:
    """How the copy chunks ``M₁ x₁ … M₂`` are attended, per head (``(H,)`` each, means over rows).

    ``previous``: layer 0's weight from ``x₁`` to the position before it (``M₁``);
    ``induction``: layer 1's weight from ``M₂`` to ``x₁`` (the token after the earlier ``M``);
    ``previous_chance``/``induction_chance``: the same positions under uniform attention over
    the visible prefix (``1/(i+1)`` at position ``i``), averaged over the rows.
    """

    previous: Tensor
    induction: Tensor
    previous_chance: float
    induction_chance: float


def copy_attention(model: nn.Module, task: FactTask, corpus: Corpus) -> CopyAttention:
    """``CopyAttention`` of a two-layer ``model`` on ``corpus`` (its rows' copy chunks)."""
    if len(model.model.layers) != 2:
        raise ValueError("copy_attention reads a model with exactly 2 layers")
    ids = corpus.ids[:, :-1]
    roles = position_roles(task, corpus)
    rows = torch.arange(len(ids))
    x1, m2 = roles["x₁"].float().argmax(1), roles["M₂"].float().argmax(1)  # (N,) each
    first, second = attention_weights(model, ids, 0), attention_weights(model, ids, 1)
    previous = first[rows, :, x1, x1 - 1].mean(0)  # (H,)
    induction = second[rows, :, m2, x1].mean(0)
    return CopyAttention(
        previous,
        induction,
        (1 / (x1 + 1).float()).mean().item(),
        (1 / (m2 + 1).float()).mean().item(),
    )
