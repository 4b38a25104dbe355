"""Lesson 08: The three models (MiniMind2 layout) and their parameter counts."""

from __future__ import annotations

from torch import nn

from ...ffn import PlainFFN
from ...i18n import tr_noop
from ...minimind import MiniMindConfig
from ...model import MiniMindForCausalLM
from ...runtime import seeded
from ...sizing import count_parameters
from .task import SETUP, FactTask, Setup

__all__ = [
    "ALL_MODEL_NAMES",
    "CONTROL_MODEL_NAMES",
    "MODEL_NAMES",
    "build_model",
    "model_config",
    "parameter_counts",
]


#: The three models the lesson compares. The names are data (``build_model``'s argument, dict
#: keys); a plot translates them where it draws them.
MODEL_NAMES: tuple[str, ...] = (tr_noop("full"), tr_noop("attention-only"), tr_noop("MLP-only"))
#: The controls: three at the full model's non-embedding parameters (attention-only at the full
#: model's width with more layers, a plain non-gated MLP, the full model with its MLPs frozen at
#: random), and the full model with its MLPs removed (2 layers, 64 wide: the frozen-MLP model's
#: trainable parameters, less its 2 post-attention norms).
CONTROL_MODEL_NAMES: tuple[str, ...] = (
    tr_noop("narrow attention-only"),
    tr_noop("plain MLP"),
    tr_noop("frozen MLP"),
    tr_noop("MLPs removed"),
)
#: Every model ``build_model`` knows.
ALL_MODEL_NAMES: tuple[str, ...] = MODEL_NAMES + CONTROL_MODEL_NAMES


def model_config(name: str, task: FactTask, setup: Setup = SETUP) -> MiniMindConfig:
    """The MiniMind2 config of model ``name`` (one of ``ALL_MODEL_NAMES``) for ``task``.

    ``"full"``: attention and MLP in every block. ``"attention-only"``: no MLPs, width
    ``setup.attention_only_hidden_size`` (2h buys back the MLPs' parameters when m = 3h).
    ``"MLP-only"``: no attention, MLP width ``setup.mlp_only_intermediate_size``.
    ``"narrow attention-only"``: no MLPs, width ``setup.hidden_size``, with
    ``setup.narrow_attention_layers`` layers (3h² per layer, so 4× the layers of the full model
    buys back its MLPs). ``"plain MLP"`` and ``"frozen MLP"`` have the full model's config
    (``build_model`` swaps or freezes the MLPs). ``"MLPs removed"``: the full model's config
    without MLPs (``setup.hidden_size`` wide, ``setup.num_hidden_layers`` layers).
    """
    if name not in ALL_MODEL_NAMES:
        raise ValueError(f"unknown model {name!r}; expected one of: {', '.join(ALL_MODEL_NAMES)}")
    common = {
        "num_hidden_layers": setup.num_hidden_layers,
        "num_attention_heads": setup.num_attention_heads,
        "num_key_value_heads": setup.num_key_value_heads,
        "vocab_size": task.vocab_size,
        "max_position_embeddings": task.seq_len,
        "version": "minimind2",
    }
    if name == "narrow attention-only":
        common["num_hidden_layers"] = setup.narrow_attention_layers
        return MiniMindConfig(hidden_size=setup.hidden_size, use_mlp=False, **common)
    if name == "MLPs removed":
        return MiniMindConfig(hidden_size=setup.hidden_size, use_mlp=False, **common)
    if name in ("full", "plain MLP", "frozen MLP"):
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
    """Model ``name``, initialised under ``seeded(seed)`` (the caller's RNG is left alone).

    ``"plain MLP"``: every block's MLP replaced by a plain SiLU MLP ``down(silu(up(x)))`` of width
    ``setup.plain_intermediate_size`` (``ml.PlainFFN``, no bias). ``"frozen MLP"``: the full
    model with every MLP weight set to ``requires_grad=False`` (training leaves them random).
    """
    config = model_config(name, task, setup)
    with seeded(seed):
        model = MiniMindForCausalLM(config)
        if name == "plain MLP":
            for block in model.model.layers:
                block.mlp = PlainFFN(config.hidden_size, setup.plain_intermediate_size, "silu")
    if name == "frozen MLP":
        for block in model.model.layers:
            block.mlp.requires_grad_(False)
    return model


def parameter_counts(model: nn.Module) -> tuple[int, int]:
    """``(all parameters, parameters outside the token embedding)``, counted from the module.

    The LM head shares the embedding's tensor, so it is counted once (as MiniMind does).
    """
    embed = model.model.embed_tokens.weight if hasattr(model, "model") else None
    if embed is None:
        raise ValueError("expected a MiniMindForCausalLM (with .model.embed_tokens)")
    total = count_parameters(model)
    return total, total - embed.numel()
