"""Lesson 08: The three models (MiniMind2 layout) and their parameter counts."""

from __future__ import annotations

from torch import nn

from ...minimind import MiniMindConfig
from ...model import MiniMindForCausalLM
from ...runtime import seeded
from ...sizing import count_parameters
from .task import SETUP, FactTask, Setup

__all__ = ["MODEL_NAMES", "build_model", "model_config", "parameter_counts"]


#: The three models the lesson compares.
MODEL_NAMES: tuple[str, ...] = ("full", "attention-only", "MLP-only")


def model_config(name: str, task: FactTask, setup: Setup = SETUP) -> MiniMindConfig:
    """The MiniMind2 config of model ``name`` (one of ``MODEL_NAMES``) for ``task``.

    ``"full"``: attention and MLP in every block. ``"attention-only"``: no MLPs, width
    ``setup.attention_only_hidden_size`` (2h buys back the MLPs' parameters when m = 3h).
    ``"MLP-only"``: no attention, MLP width ``setup.mlp_only_intermediate_size``.
    """
    if name not in MODEL_NAMES:
        raise ValueError(f"unknown model {name!r}; expected one of: {', '.join(MODEL_NAMES)}")
    common = {
        "num_hidden_layers": setup.num_hidden_layers,
        "num_attention_heads": setup.num_attention_heads,
        "num_key_value_heads": setup.num_key_value_heads,
        "vocab_size": task.vocab_size,
        "max_position_embeddings": task.seq_len,
        "version": "minimind2",
    }
    if name == "full":
        return MiniMindConfig(
            hidden_size=setup.hidden_size, intermediate_size=setup.intermediate_size, **common
        )
    if name == "attention-only":
        return MiniMindConfig(hidden_size=setup.attention_only_hidden_size, use_mlp=False, **common)
    return MiniMindConfig(
        hidden_size=setup.hidden_size,
        intermediate_size=setup.mlp_only_intermediate_size,
        use_attention=False,
        **common,
    )


def build_model(name: str, seed: int, task: FactTask, setup: Setup = SETUP) -> MiniMindForCausalLM:
    """Model ``name``, initialised under ``seeded(seed)`` (the caller's RNG is left alone)."""
    config = model_config(name, task, setup)
    with seeded(seed):
        return MiniMindForCausalLM(config)


def parameter_counts(model: nn.Module) -> tuple[int, int]:
    """``(all parameters, parameters outside the token embedding)``, counted from the module.

    The LM head shares the embedding's tensor, so it is counted once (as MiniMind does).
    """
    embed = model.model.embed_tokens.weight if hasattr(model, "model") else None
    if embed is None:
        raise ValueError("expected a MiniMindForCausalLM (with .model.embed_tokens)")
    total = count_parameters(model)
    return total, total - embed.numel()
