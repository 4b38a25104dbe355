"""A whole MiniMind causal language model, small enough to train on a CPU in seconds.

Token embedding → ``num_hidden_layers`` pre-norm ``Block``s (RMSNorm → grouped-query attention
with RoPE → residual, RMSNorm → ``FeedForward`` → residual) → final RMSNorm → an LM head tied
to the embedding. The arithmetic and the state-dict keys are MiniMind's (``model.embed_tokens``,
``model.layers.{i}.self_attn.q_proj``, ..., ``lm_head``), for MiniMind2 and minimind-3 alike
(``MiniMindConfig.version``), so a checkpoint of either loads (``load_minimind_model``).

Dropout: MiniMind2 also applies ``config.dropout`` after the embedding and inside attention;
here only the FFN's dropout exists (all of them are identity in ``eval()``, so logits agree).
"""

from __future__ import annotations

import torch
from torch import Tensor, nn

from .attention import Block, RMSNorm, rope_tables
from .minimind import MiniMindConfig, check_config


def check_token_ids(input_ids: Tensor, vocab_size: int, max_positions: int) -> None:
    """Raise ``ValueError`` unless ``input_ids`` is a ``(B, T)`` integer tensor of valid ids.

    Valid: dtype ``torch.long`` or ``torch.int``, ``B ≥ 1``, ``1 ≤ T ≤ max_positions``, every id
    in ``[0, vocab_size)`` (not checked on the meta device, which holds no values). An empty
    batch or sequence is refused, as every module refuses an empty input.
    """
    if not isinstance(input_ids, Tensor):
        raise ValueError(f"input_ids must be a tensor of token ids, got {type(input_ids).__name__}")
    if input_ids.dtype not in (torch.long, torch.int):
        raise ValueError(
            f"input_ids must hold integer token ids (torch.long or torch.int), "
            f"got {input_ids.dtype}"
        )
    if input_ids.dim() != 2 or input_ids.shape[0] == 0 or input_ids.shape[1] == 0:
        raise ValueError(
            f"input_ids must have shape (batch, seq) with batch ≥ 1 and seq ≥ 1, got "
            f"{tuple(input_ids.shape)}"
        )
    if input_ids.shape[1] > max_positions:
        raise ValueError(
            f"sequence length {input_ids.shape[1]} exceeds max_position_embeddings={max_positions}"
        )
    if input_ids.device.type != "meta" and input_ids.numel():
        low, high = int(input_ids.min()), int(input_ids.max())
        if low < 0 or high >= vocab_size:
            raise ValueError(
                f"token ids must be in [0, {vocab_size}) (vocab_size), got ids from {low} to {high}"
            )


class MiniMindModel(nn.Module):
    """The decoder stack without the LM head: ids ``(B, T)`` → hidden states ``(B, T, h)``.

    RoPE's tables ``freqs_cos``/``freqs_sin`` (``(max_position_embeddings, head_dim)``, float32)
    are non-persistent buffers, as in MiniMind: not in the state dict, recomputed by
    ``init_rope()`` (call it after ``to_empty``, which leaves buffers uninitialised).
    """

    def __init__(self, config: MiniMindConfig) -> None:
        super().__init__()
        self.config = check_config(config, "MiniMindModel")
        self.max_positions = config.max_position_embeddings
        self.embed_tokens = nn.Embedding(config.vocab_size, config.hidden_size)
        self.layers = nn.ModuleList(Block(config) for _ in range(config.num_hidden_layers))
        eps, scale32 = config.norm_eps(), config.spec.norm_scale_in_float32
        self.norm = RMSNorm(config.hidden_size, eps, scale_in_float32=scale32)
        self.register_buffer("freqs_cos", torch.empty(0), persistent=False)
        self.register_buffer("freqs_sin", torch.empty(0), persistent=False)
        self.init_rope()

    def init_rope(self) -> None:
        """Recompute the RoPE tables (float32, on the embedding's device; empty if no attention)."""
        cfg = self.config
        with torch.device(self.embed_tokens.weight.device):
            if not cfg.use_attention:
                self.freqs_cos, self.freqs_sin = torch.empty(0), torch.empty(0)
                return
            head_dim, positions = cfg.attention_head_dim(), cfg.max_position_embeddings
            self.freqs_cos, self.freqs_sin = rope_tables(head_dim, positions, cfg.rope_theta)

    def forward(self, input_ids: Tensor) -> Tensor:
        """``input_ids``: ``(B, T)`` integer ids → hidden states ``(B, T, hidden_size)``."""
        check_token_ids(input_ids, self.embed_tokens.num_embeddings, self.max_positions)
        t = input_ids.shape[1]
        rope = (self.freqs_cos[:t], self.freqs_sin[:t])  # each (T, head_dim)
        h = self.embed_tokens(input_ids)  # (B, T, hidden_size)
        for layer in self.layers:
            h = layer(h, rope)  # (B, T, hidden_size)
        return self.norm(h)


class MiniMindForCausalLM(nn.Module):
    """MiniMind as a causal language model: ids ``(B, T)`` → next-token logits ``(B, T, vocab)``.

    ``model`` is the ``MiniMindModel``; ``lm_head`` and ``model.embed_tokens`` share one weight
    (both keys in the state dict, as in MiniMind). Logits
    have the weights' dtype and device. To zero or replace one layer's MLP output, register a
    forward hook on ``model.layers[i].mlp`` that returns the new output.
    """

    def __init__(self, config: MiniMindConfig) -> None:
        super().__init__()
        self.config = check_config(config, "MiniMindForCausalLM")
        self.model = MiniMindModel(config)
        self.lm_head = nn.Linear(config.hidden_size, config.vocab_size, bias=False)
        self.tie_weights()

    def tie_weights(self) -> None:
        """Make the embedding use ``lm_head``'s weight (again, e.g. after ``to_empty``).

        This direction is MiniMind2's: the shared tensor starts with ``nn.Linear``'s
        initialisation (uniform in ``±1/√hidden_size``), not the embedding's ``N(0, 1)``.
        """
        self.model.embed_tokens.weight = self.lm_head.weight

    def forward(self, input_ids: Tensor) -> Tensor:
        """``input_ids``: ``(B, T)`` integer ids → logits ``(B, T, vocab_size)``."""
        return self.lm_head(self.model(input_ids))  # (B, T, vocab_size)
