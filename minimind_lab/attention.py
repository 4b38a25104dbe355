"""RMSNorm, rotary position embedding, causal self-attention and the pre-norm block.

Attention moves information between positions; the MLP (``FeedForward``) works within one
position. Residual connections (残差) wrap both, each after an RMSNorm, as in MiniMind. The same
``Block`` is lesson 01's tiny block (called without positions) and each decoder layer of
``MiniMindForCausalLM`` (called with RoPE's ``(cos, sin)``).

Non-finite input: NaN and inf propagate (nothing is clamped or masked out). RMSNorm and the MLP
keep them within their position, but one NaN or inf anywhere in attention's input makes every
output position NaN, earlier ones included: a masked weight is 0, and 0·NaN is NaN in the
product with the values. The causal claim (position ``i`` depends only on positions ``≤ i``)
holds for finite inputs.
"""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from ._checks import check_bool, check_features, check_positive_int, check_real
from .minimind import FeedForward, MiniMindConfig, check_config

#: RoPE's ``(cos, sin)`` tables for the positions in use, each ``(T, head_dim)``.
RopeTables = tuple[Tensor, Tensor]


class RMSNorm(nn.Module):
    """Root-mean-square normalisation with a learned gain: ``x / rms(x) · weight``.

    Normalised in float32 (float64 input stays float64) for stability, as MiniMind and LLaMA do.
    MiniMind2 casts back to the
    input's dtype and then multiplies by ``weight``; minimind-3 multiplies in float32 and then
    casts (``scale_in_float32=True``); in float32 the two agree exactly. The output has the
    input's dtype whatever the weight's (MiniMind's own norm would promote float16 input to a
    float32 weight's dtype). Integer input is refused (a norm of token ids is a bug, and casting
    back would truncate). ``eps`` must be > 0 (with 0, a row of zeros becomes NaN).
    ``(*, hidden_size)`` → ``(*, hidden_size)``.
    """

    def __init__(self, hidden_size: int, eps: float = 1e-5, scale_in_float32: bool = False):
        super().__init__()
        self.hidden_size = check_positive_int("hidden_size", hidden_size)
        self.eps = check_real("eps", eps, low=0, high=1, low_open=True, high_open=True)
        self.scale_in_float32 = check_bool("scale_in_float32", scale_in_float32)
        self.weight = nn.Parameter(torch.ones(self.hidden_size))

    def forward(self, x: Tensor) -> Tensor:
        """``x``: ``(*, hidden_size)``, floating point → ``(*, hidden_size)``, same dtype."""
        if isinstance(x, Tensor) and not x.is_floating_point():
            raise ValueError(f"RMSNorm needs floating-point input, got dtype {x.dtype}")
        check_features(x, self.hidden_size)
        wide = x.to(torch.promote_types(x.dtype, torch.float32))  # float32, or float64 if given
        # A finite row so large that its squares overflow (|x| ≳ 1e18 in float32) is scaled by
        # its largest entry first; every other row (a row holding inf or NaN too) is divided by
        # exactly 1, so its bits do not move.
        largest = wide.detach().abs().amax(dim=-1, keepdim=True)
        safe = math.sqrt(torch.finfo(wide.dtype).max / self.hidden_size) / 2
        finite_and_large = (largest > safe) & torch.isfinite(largest)  # inf or NaN: as before
        scale = torch.where(finite_and_large, largest, torch.ones_like(largest))
        wide = wide / scale
        mean_square = wide.pow(2).mean(dim=-1, keepdim=True)
        normed = wide * torch.rsqrt(mean_square + self.eps / scale.pow(2))
        if self.scale_in_float32:
            return (self.weight * normed).to(x.dtype)
        return (self.weight * normed.to(x.dtype)).to(x.dtype)  # a no-op when weight matches


def rope_tables(head_dim: int, num_positions: int, theta: float = 1e6) -> RopeTables:
    """RoPE's ``(cos, sin)`` for ``T = num_positions`` positions, each ``(T, head_dim)``.

    Frequencies ``θ^(-2i/head_dim)`` for ``i < head_dim/2``, each used twice (the rotate-half
    layout of MiniMind and HF LLaMA, not the interleaved complex form). Float32, on the default
    device (build under ``torch.device(...)`` to place them).
    """
    check_positive_int("head_dim", head_dim)
    check_positive_int("num_positions", num_positions)
    if head_dim % 2:
        raise ValueError(f"RoPE rotates pairs of dimensions: head_dim must be even, got {head_dim}")
    freqs = 1.0 / (theta ** (torch.arange(0, head_dim, 2).float() / head_dim))  # (D/2,)
    angles = torch.outer(torch.arange(num_positions).float(), freqs)  # (T, D/2)
    angles = torch.cat([angles, angles], dim=-1)  # (T, D)
    return angles.cos(), angles.sin()


def apply_rope(x: Tensor, cos: Tensor, sin: Tensor) -> Tensor:
    """Rotate ``x`` of shape ``(B, H, T, D)`` by position: ``x·cos + rotate_half(x)·sin``.

    ``rotate_half`` maps ``[x1, x2]`` (the two halves of ``D``) to ``[-x2, x1]``. ``cos`` and
    ``sin``: ``(T, D)``, for exactly the ``T`` positions of ``x`` (tables for another length
    raise ``ValueError``). The result has ``x``'s dtype.
    """
    _check_rope_tables(cos, sin, x.shape[-2], x.shape[-1])
    x1, x2 = x.chunk(2, dim=-1)
    rotated = torch.cat([-x2, x1], dim=-1)  # (B, H, T, D)
    return (x * cos + rotated * sin).to(x.dtype)


def _check_rope_tables(cos: object, sin: object, t: int, head_dim: int) -> None:
    """Raise ``ValueError`` unless ``cos`` and ``sin`` are tensors of shape ``(t, head_dim)``."""
    if not (isinstance(cos, Tensor) and isinstance(sin, Tensor)):
        raise ValueError(
            f"rope must be a (cos, sin) pair of tensors, got ({type(cos).__name__}, "
            f"{type(sin).__name__})"
        )
    if cos.shape != (t, head_dim) or sin.shape != (t, head_dim):
        raise ValueError(
            f"RoPE tables have shapes cos {tuple(cos.shape)} and sin {tuple(sin.shape)}; expected "
            f"(seq, head_dim) = ({t}, {head_dim}) for this sequence: use rope_tables(head_dim, "
            f"{t}), or cos[:{t}], sin[:{t}] of longer tables"
        )


class CausalSelfAttention(nn.Module):
    """Multi-head causal self-attention with grouped key/value heads (GQA), as in MiniMind.

    ``forward(x)`` uses no positional information: the causal mask alone decides who may look
    at whom, which is all lesson 01 needs. ``forward(x, rope=(cos, sin))`` rotates queries and
    keys first (MiniMind's RoPE). ``qk_norm=True`` adds minimind-3's per-head RMSNorms
    ``q_norm``/``k_norm`` (over ``head_dim``, before RoPE). ``(B, T, hidden_size)`` →
    ``(B, T, hidden_size)``; position ``i`` sees positions ``≤ i`` only.
    """

    def __init__(
        self,
        hidden_size: int,
        num_heads: int = 8,
        num_kv_heads: int | None = None,
        *,
        head_dim: int | None = None,
        qk_norm: bool = False,
        eps: float = 1e-6,
    ) -> None:
        super().__init__()
        hidden_size = check_positive_int("hidden_size", hidden_size)
        num_heads = check_positive_int("num_heads", num_heads)
        num_kv_heads = num_heads if num_kv_heads is None else num_kv_heads
        num_kv_heads = check_positive_int("num_kv_heads", num_kv_heads)
        if head_dim is not None:
            head_dim = check_positive_int("head_dim", head_dim)
        qk_norm = check_bool("qk_norm", qk_norm)
        if head_dim is None and hidden_size % num_heads or num_heads % num_kv_heads:
            raise ValueError(
                f"hidden_size={hidden_size} must divide by num_heads={num_heads}, and num_heads "
                f"by num_kv_heads={num_kv_heads}"
            )
        self.hidden_size = hidden_size
        self.num_heads = num_heads
        self.num_kv_heads = num_kv_heads
        self.head_dim = hidden_size // num_heads if head_dim is None else head_dim
        check_positive_int("head_dim", self.head_dim)
        q_size, kv_size = num_heads * self.head_dim, num_kv_heads * self.head_dim
        self.q_proj = nn.Linear(hidden_size, q_size, bias=False)
        self.k_proj = nn.Linear(hidden_size, kv_size, bias=False)
        self.v_proj = nn.Linear(hidden_size, kv_size, bias=False)
        self.o_proj = nn.Linear(q_size, hidden_size, bias=False)
        if qk_norm:  # minimind-3; registered only then, so MiniMind2 keys stay as they are
            self.q_norm = RMSNorm(self.head_dim, eps, scale_in_float32=True)
            self.k_norm = RMSNorm(self.head_dim, eps, scale_in_float32=True)
        self.qk_norm = qk_norm

    @classmethod
    def from_config(cls, config: MiniMindConfig) -> CausalSelfAttention:
        """The attention of one MiniMind layer described by ``config`` (validated first)."""
        config = check_config(config, "CausalSelfAttention.from_config")
        return cls(
            config.hidden_size,
            config.num_attention_heads,
            config.key_value_heads(),
            head_dim=config.attention_head_dim(),
            qk_norm=config.spec.qk_norm,
            eps=config.norm_eps(),
        )

    def forward(self, x: Tensor, rope: RopeTables | None = None) -> Tensor:
        """``x``: ``(B, T, hidden_size)``; ``rope``: ``(cos, sin)``, each ``(T, head_dim)``."""
        check_features(x, self.hidden_size, weight=self.q_proj.weight, module="attention")
        if x.dim() != 3:
            raise ValueError(f"attention expects (batch, seq, hidden), got shape {tuple(x.shape)}")
        b, t, _ = x.shape
        q = self.q_proj(x).view(b, t, self.num_heads, self.head_dim)  # (B, T, H, D)
        k = self.k_proj(x).view(b, t, self.num_kv_heads, self.head_dim)  # (B, T, KV, D)
        v = self.v_proj(x).view(b, t, self.num_kv_heads, self.head_dim)
        if self.qk_norm:
            q, k = self.q_norm(q), self.k_norm(k)
        q, k, v = q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2)  # (B, heads, T, D)
        if rope is not None:
            if not isinstance(rope, (tuple, list)) or len(rope) != 2:
                got = (
                    f"{len(rope)} items" if isinstance(rope, (tuple, list)) else type(rope).__name__
                )
                raise ValueError(
                    f"rope must be a (cos, sin) pair of tensors, each (T, head_dim) "
                    f"({t}, {self.head_dim}), got {got}; rope_tables(head_dim, T) makes one"
                )
            cos, sin = rope
            q, k = apply_rope(q, cos, sin), apply_rope(k, cos, sin)
        repeat = self.num_heads // self.num_kv_heads  # each kv head serves this many q heads
        k = k.repeat_interleave(repeat, dim=1)  # (B, H, T, D)
        v = v.repeat_interleave(repeat, dim=1)
        mixed = F.scaled_dot_product_attention(q, k, v, is_causal=True)  # (B, H, T, D)
        heads = mixed.transpose(1, 2).reshape(b, t, self.num_heads * self.head_dim)  # (B, T, H·D)
        return self.o_proj(heads)  # (B, T, hidden_size)


class Block(nn.Module):
    """One pre-norm Transformer block: ``x + attn(norm(x))``, then ``+ mlp(norm(·))``.

    ``(B, T, hidden_size)`` → ``(B, T, hidden_size)``. The sublayers are ``self_attn`` and ``mlp``
    (a MiniMind ``FeedForward``), so each can be probed or hooked alone. With
    ``config.use_attention=False`` the block has no ``self_attn``/``input_layernorm``; with
    ``config.use_mlp=False`` no ``mlp``/``post_attention_layernorm``.
    """

    def __init__(self, config: MiniMindConfig) -> None:
        super().__init__()
        config = check_config(config, "Block")
        eps, scale32 = config.norm_eps(), config.spec.norm_scale_in_float32
        self.self_attn: CausalSelfAttention | None = None
        self.mlp: FeedForward | None = None
        if config.use_attention:
            self.input_layernorm = RMSNorm(config.hidden_size, eps, scale_in_float32=scale32)
            self.self_attn = CausalSelfAttention.from_config(config)
        if config.use_mlp:
            self.post_attention_layernorm = RMSNorm(
                config.hidden_size, eps, scale_in_float32=scale32
            )
            self.mlp = FeedForward(config)

    def forward(self, x: Tensor, rope: RopeTables | None = None) -> Tensor:
        """``x``: ``(B, T, hidden_size)``; ``rope``: ``None`` or ``(cos, sin)``, each ``(T, D)``."""
        if self.self_attn is not None:
            x = x + self.self_attn(self.input_layernorm(x), rope)  # between positions
        if self.mlp is not None:
            x = x + self.mlp(self.post_attention_layernorm(x))  # within each position
        return x
