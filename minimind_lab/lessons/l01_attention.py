"""Probes for lesson 01: who reads which position, measured by derivatives and perturbations.

A sublayer maps a sequence ``x`` of ``T`` token vectors (表示 hidden_states) to ``y``. Its Jacobian
splits into ``T × T`` blocks ``∂y_i/∂x_j``, each ``hidden × hidden``; the norm of block ``(i, j)``
says how strongly output position ``i`` depends on input position ``j``. Attention fills the lower
triangle (causal mixing between positions); the MLP fills only the diagonal (work within one
position).

``parameter_split_table`` prints the parameter split as a table; ``text_table`` (the course's one
table helper, ``minimind_lab.i18n.table``) lays out the lesson's other small tables, padded by
display width so the columns line up in Chinese too.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

import torch
from torch import Tensor, nn

from ..attention import Block, RopeTables, rope_tables
from ..i18n import tr
from ..i18n.table import text_table
from ..minimind import MiniMindConfig
from ..runtime import seeded
from ..sizing import count_parameters

__all__ = [
    "AttentionBranch",
    "BlockParameterSplit",
    "SETUP",
    "Setup",
    "block_parameter_split",
    "block_rope_tables",
    "finite_difference_blocks",
    "jacobian_blocks",
    "parameter_split_table",
    "per_position_outputs",
    "sublayer_branches",
    "text_table",
    "tiny_block_and_sequence",
    "token_perturbation_response",
]


SequenceMap = Callable[[Tensor], Tensor]


@dataclass(frozen=True)
class Setup:
    """Lesson 01's tiny block and sequence, read by the notebook, the widget and the figure."""

    hidden_size: int = 32
    num_attention_heads: int = 4
    num_key_value_heads: int = 4
    seq_len: int = 8
    seed: int = 0

    def config(self) -> MiniMindConfig:
        """The ``MiniMindConfig`` of the lesson's block (MiniMind2 FFN width rule)."""
        return MiniMindConfig(
            hidden_size=self.hidden_size,
            num_attention_heads=self.num_attention_heads,
            num_key_value_heads=self.num_key_value_heads,
        )


SETUP = Setup()


def tiny_block_and_sequence(setup: Setup = SETUP) -> tuple[Block, Tensor]:
    """A seeded ``Block`` in eval mode and one sequence ``(seq_len, hidden_size)``.

    Built under ``seeded(setup.seed)``: the same weights and input every time, and the caller's
    random state is left as it was.
    """
    with seeded(setup.seed):
        block = Block(setup.config()).eval()
        x = torch.randn(setup.seq_len, setup.hidden_size)  # (T, h)
    return block, x


def _as_sequence(x: Tensor) -> Tensor:
    """``(T, H)`` or ``(1, T, H)`` → ``(1, T, H)``; anything else raises ``ValueError``."""
    if x.dim() == 2:
        return x.unsqueeze(0)
    if x.dim() == 3 and x.shape[0] == 1:
        return x
    raise ValueError(
        f"expected one sequence of shape (T, hidden) or (1, T, hidden), got {tuple(x.shape)}"
    )


class AttentionBranch(nn.Module):
    """A pre-norm block's attention branch: ``self_attn(input_layernorm(x), rope)``.

    Shares its weights with the block it came from. ``rope=None`` is lesson 01's block without
    positions (the causal mask alone tells positions apart); ``rope=(cos, sin)``, each
    ``(T, head_dim)``, rotates queries and keys as MiniMind's decoder layers do.
    ``(B, T, H)`` → ``(B, T, H)``.
    """

    def __init__(self, block: Block, rope: RopeTables | None = None) -> None:
        super().__init__()
        self.input_layernorm = block.input_layernorm
        self.self_attn = block.self_attn
        self.rope = rope

    def forward(self, x: Tensor) -> Tensor:
        """``x``: ``(B, T, H)`` → ``(B, T, H)``."""
        return self.self_attn(self.input_layernorm(x), self.rope)


def sublayer_branches(block: Block, rope: RopeTables | None = None) -> dict[str, nn.Module]:
    """The two residual branches of a pre-norm ``Block``, each with the RMSNorm in front of it.

    ``{"attention": norm → self_attn, "mlp": norm → mlp}``; each maps ``(B, T, H)`` →
    ``(B, T, H)`` and shares its weights with ``block`` (nothing is copied). ``rope``: RoPE's
    ``(cos, sin)`` for the attention branch (``block_rope_tables``), or ``None`` for none.
    """
    if not isinstance(block, Block):
        raise ValueError(f"expected a minimind_lab Block, got {type(block).__name__}")
    if block.self_attn is None or block.mlp is None:
        raise ValueError("expected a Block with both attention and an MLP")
    if rope is not None:
        head_dim = block.self_attn.head_dim
        if (
            not isinstance(rope, tuple)
            or len(rope) != 2
            or any(not isinstance(t, Tensor) or t.dim() != 2 for t in rope)
            or rope[0].shape != rope[1].shape
            or rope[0].shape[-1] != head_dim
        ):
            raise ValueError(
                f"rope must be a (cos, sin) pair of (T, {head_dim}) tensors, e.g. from "
                "block_rope_tables(block, T)"
            )
    return {
        "attention": AttentionBranch(block, rope),
        "mlp": nn.Sequential(block.post_attention_layernorm, block.mlp),
    }


def block_rope_tables(block: Block, seq_len: int, theta: float = 1e6) -> RopeTables:
    """RoPE's ``(cos, sin)`` for ``block``'s attention heads, each ``(seq_len, head_dim)``.

    The tables MiniMind's decoder layers get (``rope_theta = 1e6`` in both versions), on the
    block's device; pass them to ``sublayer_branches(block, rope=...)`` or ``block(x, rope)``.
    """
    if not isinstance(block, Block) or block.self_attn is None:
        raise ValueError(f"expected a minimind_lab Block with attention, got {block!r}")
    cos, sin = rope_tables(block.self_attn.head_dim, seq_len, theta)
    weight = block.self_attn.q_proj.weight
    return cos.to(weight.device), sin.to(weight.device)


def jacobian_blocks(module: SequenceMap, x: Tensor) -> Tensor:
    """The ``(T, T)`` matrix of block norms ``‖∂y_i/∂x_j‖_F`` of ``y = module(x)``.

    ``x``: one sequence, ``(T, H)`` or ``(1, T, H)``; ``module`` maps ``(1, T, H)`` →
    ``(1, T, H_out)``. Row ``i`` is an output position, column ``j`` an input position.
    Autograd's derivatives, right to float rounding; a block with no path from ``x_j`` to ``y_i``
    (or only paths through a weight of exactly 0) is exactly zero.
    """
    seq = _as_sequence(x).detach()
    t = seq.shape[1]
    jac = torch.autograd.functional.jacobian(module, seq, vectorize=True)  # (1,T,Ho,1,T,H)
    jac = jac.reshape(t, -1, t, seq.shape[-1])  # (T, Ho, T, H)
    return jac.pow(2).sum(dim=(1, 3)).sqrt()  # (T, T)


def token_perturbation_response(
    module: SequenceMap,
    x: Tensor,
    position: int,
    scale: float = 0.1,
    seed: int = 0,
) -> Tensor:
    """How far each output position moves when only input position ``position`` is nudged.

    Adds a random direction of norm ``scale`` (drawn from ``seed``) to ``x[position]`` and returns
    ``‖module(x')_i − module(x)_i‖`` for every output position ``i``: shape ``(T,)``. ``x``: one
    sequence, ``(T, H)`` or ``(1, T, H)``.
    """
    seq = _as_sequence(x).detach()
    t, h = seq.shape[1], seq.shape[2]
    if isinstance(position, bool) or not isinstance(position, int) or not 0 <= position < t:
        raise ValueError(f"position must be an integer in [0, {t - 1}], got {position!r}")
    if not scale > 0:
        raise ValueError(f"scale must be positive, got {scale!r}")
    generator = torch.Generator().manual_seed(seed)
    direction = torch.randn(h, generator=generator).to(dtype=seq.dtype, device=seq.device)
    nudged = seq.clone()
    nudged[0, position] += scale * direction / direction.norm()
    with torch.no_grad():
        moved = module(nudged) - module(seq)  # (1, T, H_out)
    return moved[0].norm(dim=-1)  # (T,)


def finite_difference_blocks(module: SequenceMap, x: Tensor, eps: float) -> Tensor:
    """Block norms of ``module``'s Jacobian estimated by nudges of size ``eps``: ``(T, T)``.

    Nudges each of the ``T · H`` input coordinates by ``eps`` in turn (one batch of ``T · H``
    sequences), and returns ``sqrt(Σ_k ‖module(x + eps·e_jk)_i − module(x)_i‖²) / eps`` for every
    output position ``i`` and input position ``j``. As ``eps → 0`` this tends to
    ``jacobian_blocks(module, x)``: the Jacobian is the limit of a small nudge. ``x``: one
    sequence, ``(T, H)`` or ``(1, T, H)``; ``module`` maps ``(B, T, H)`` → ``(B, T, H_out)``.
    """
    seq = _as_sequence(x).detach()
    ok = isinstance(eps, (int, float)) and not isinstance(eps, bool) and math.isfinite(eps)
    if not ok or not eps > 0:
        raise ValueError(f"eps must be a finite positive number, got {eps!r}")
    t, h = seq.shape[1], seq.shape[2]
    nudges = torch.eye(t * h, dtype=seq.dtype, device=seq.device).reshape(t * h, t, h)
    nudges = torch.cat([torch.zeros_like(nudges[:1]), nudges])  # row 0: the un-nudged input
    with torch.no_grad():
        out = module(seq + eps * nudges)  # (1 + T·H, T, Ho), one call: the same kernels
    moved = (out[1:] - out[:1]).reshape(t, h, t, -1)  # (j, k, i, Ho)
    return moved.pow(2).sum(dim=(1, 3)).sqrt().T / eps  # (T, T): row i, column j


def per_position_outputs(module: SequenceMap, x: Tensor) -> Tensor:
    """Apply ``module`` to each position on its own and stack: ``(B, T, H)`` → ``(B, T, H_out)``.

    For a position-wise module (the MLP) this equals ``module(x)``; for attention it does not,
    because a lone token has no context to attend to.
    """
    if x.dim() != 3:
        raise ValueError(f"expected (batch, seq, hidden), got shape {tuple(x.shape)}")
    with torch.no_grad():
        return torch.cat([module(x[:, i : i + 1]) for i in range(x.shape[1])], dim=1)


# ------------------------------------------------ where a block's parameters live


@dataclass(frozen=True)
class BlockParameterSplit:
    """Parameter counts of one block by part, and the MLP's share of the block."""

    hidden_size: int
    intermediate_size: int
    num_attention_heads: int
    num_key_value_heads: int
    attention: int
    mlp: int
    norms: int

    @property
    def total(self) -> int:
        """All parameters of the block."""
        return self.attention + self.mlp + self.norms

    @property
    def mlp_share(self) -> float:
        """The MLP's fraction of the block's parameters, in ``[0, 1]``."""
        return self.mlp / self.total

    @property
    def attention_share(self) -> float:
        """Attention's fraction of the block's parameters, in ``[0, 1]``."""
        return self.attention / self.total


def block_parameter_split(
    config: MiniMindConfig, full_multi_head: bool = False
) -> BlockParameterSplit:
    """Build one ``Block`` from ``config`` and count attention, MLP and norm parameters.

    ``full_multi_head=True`` gives every query head its own key/value head
    (``num_key_value_heads = num_attention_heads``), the original Transformer's attention, for
    comparison with MiniMind's grouped-query attention. ``config`` is not modified.
    """
    if not isinstance(config, MiniMindConfig):
        raise ValueError(f"expected a MiniMindConfig, got {type(config).__name__}")
    cfg = replace(config)
    if full_multi_head:
        cfg = replace(cfg, num_key_value_heads=cfg.num_attention_heads)
    block = Block(cfg)
    norms = count_parameters(block.input_layernorm) + count_parameters(
        block.post_attention_layernorm
    )
    return BlockParameterSplit(
        hidden_size=cfg.hidden_size,
        intermediate_size=block.mlp.intermediate_size,
        num_attention_heads=cfg.num_attention_heads,
        num_key_value_heads=cfg.num_key_value_heads,
        attention=count_parameters(block.self_attn),
        mlp=count_parameters(block.mlp),
        norms=norms,
    )


def parameter_split_table(splits: Mapping[tuple[str, str, str], BlockParameterSplit]) -> str:
    """A monospace table of parameter splits, one line per block, headed in the current language.

    ``splits``: ``(model, version, attention kind) → BlockParameterSplit``, e.g.
    ``("MiniMind2", "MiniMind2", "GQA 8q/2kv")``. Columns: model, version, attention kind, hidden
    size ``h``, MLP width ``m``, attention and MLP parameters, the MLP's share of the block; padded
    by display width (``text_table``), so Chinese labels line up too.
    """
    header = [tr("model"), tr("version"), tr("attention"), "h", "m"]
    header += [tr("attn params"), tr("MLP params"), tr("MLP share")]
    rows = []
    for (model, version, kind), s in splits.items():
        counts = (f"{s.attention:,}", f"{s.mlp:,}", f"{s.mlp_share:.3f}")
        rows.append((model, version, kind, s.hidden_size, s.intermediate_size, *counts))
    return text_table(header, rows, align="<<<>>>>>")
