"""Where a Transformer block's parameters live: attention, MLP, or the two RMSNorms.

Counted from a real ``Block`` built from the config (not from a formula), so grouped key/value
heads (GQA), the 8/3 width rule and the norms all count exactly as MiniMind builds them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .attention import Block
from .minimind import MiniMindConfig
from .sizing import count_parameters


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
