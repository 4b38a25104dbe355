"""Loading one layer's MLP out of a MiniMind checkpoint, so learners can inspect their own model."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping

import torch
from torch import Tensor

from .minimind import FeedForward, MiniMindConfig

# Role → key suffixes under a layer, for MiniMind2 (HF names) and MiniMind's first release.
_LAYOUTS: tuple[tuple[str, dict[str, str]], ...] = (
    ("mlp", {"gate_proj": "gate_proj.weight", "up_proj": "up_proj.weight",
             "down_proj": "down_proj.weight"}),
    ("feed_forward", {"gate_proj": "w1.weight", "up_proj": "w3.weight",
                      "down_proj": "w2.weight"}),
)
_PREFIXES = ("model.layers", "layers")


def _as_state_dict(checkpoint: str | os.PathLike | Mapping[str, Tensor]) -> Mapping[str, Tensor]:
    if isinstance(checkpoint, (str, os.PathLike)):
        checkpoint = torch.load(checkpoint, map_location="cpu", weights_only=True)
    if not isinstance(checkpoint, Mapping):
        raise ValueError(f"expected a state dict (a mapping of names to tensors), got "
                         f"{type(checkpoint).__name__}")
    # Some training scripts wrap the weights: {"model": state_dict, "optimizer": ...}.
    for wrapper in ("model", "state_dict"):
        inner = checkpoint.get(wrapper)
        if isinstance(inner, Mapping):
            return inner
    return checkpoint


def _layers_found(keys: list[str]) -> list[int]:
    found = {int(m.group(1)) for k in keys if (m := re.search(r"layers\.(\d+)\.", k))}
    return sorted(found)


def load_minimind_mlp(
    checkpoint: str | os.PathLike | Mapping[str, Tensor],
    layer: int = 0,
    hidden_act: str = "silu",
) -> FeedForward:
    """The ``FeedForward`` of layer ``layer`` in a MiniMind checkpoint, weights loaded.

    ``checkpoint`` is a ``.pth`` path (read with ``weights_only=True``) or a state dict. Accepted
    keys: ``model.layers.{i}.mlp.{gate,up,down}_proj.weight`` (with or without ``model.``), and the
    first release's ``layers.{i}.feed_forward.w1/w3/w2.weight`` (gate, up, down). Sizes come from
    the tensors: ``gate_proj.weight`` is ``(intermediate_size, hidden_size)``. The module keeps the
    checkpoint's dtype and sits on the CPU. A missing layer or key raises ``KeyError`` naming the
    keys it looked for and some that it found.
    """
    state = _as_state_dict(checkpoint)
    keys = list(state.keys())
    tried: list[str] = []
    for prefix in _PREFIXES:
        for block, suffixes in _LAYOUTS:
            names = {role: f"{prefix}.{layer}.{block}.{s}" for role, s in suffixes.items()}
            tried.append(names["gate_proj"])
            if all(n in state for n in names.values()):
                return _build(state, names, hidden_act, layer)
    sample = ", ".join(keys[:6]) + (f" (and {len(keys) - 6} more)" if len(keys) > 6 else "")
    layers = _layers_found(keys)
    hint = f" Layers present: {layers}." if layers else ""
    if any(".mlp.experts." in k for k in keys):
        hint += " This checkpoint holds an MoE (mlp.experts.*), not one dense MLP per layer."
    raise KeyError(
        f"no MLP weights for layer {layer}: looked for {' or '.join(tried)} "
        f"(and the matching up/down keys); found keys such as: {sample or 'none'}.{hint}"
    )


def _build(
    state: Mapping[str, Tensor], names: dict[str, str], hidden_act: str, layer: int
) -> FeedForward:
    gate, up, down = (state[names[r]] for r in ("gate_proj", "up_proj", "down_proj"))
    m, h = gate.shape if gate.dim() == 2 else (-1, -1)  # not a matrix: reported below
    if m < 0 or up.shape != (m, h) or down.shape != (h, m):
        raise ValueError(
            f"layer {layer}: inconsistent MLP shapes gate {tuple(gate.shape)}, up "
            f"{tuple(up.shape)}, down {tuple(down.shape)}; expected (m, h), (m, h), (h, m)"
        )
    config = MiniMindConfig(hidden_size=h, intermediate_size=m, hidden_act=hidden_act)
    with torch.device("meta"):
        mlp = FeedForward(config)
    mlp.load_state_dict(
        {"gate_proj.weight": gate, "up_proj.weight": up, "down_proj.weight": down}, assign=True
    )
    return mlp
