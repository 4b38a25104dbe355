"""Lesson 07's widget: hidden size, activation and MiniMind version → the module, one pass."""

from __future__ import annotations

from functools import lru_cache

import ipywidgets as widgets
import torch
from matplotlib.figure import Figure

from ..activations import ACTIVATION_NAMES, activation_formula
from ..lessons.l07_feedforward import SETUP, capture_intermediates, intermediates_by_name
from ..minimind import VERSIONS, FeedForward, MiniMindConfig
from ..plots.l07_feedforward import plot_gate_up_product
from ..runtime import seeded
from ..sizing import count_parameters
from .base import InteractivePlot, register_widget, require_choice, require_int_in

__all__ = [
    "draw_feedforward",
    "feedforward_widget",
]


#: How each version derives the width, as the summary states it.
_WIDTH_RULE_TEXT = {
    "minimind2": "MiniMind2: int(8h/3) rounded up to a multiple of 64",
    "minimind3": "minimind-3: ceil(h·π/64)·64",
}


@lru_cache(maxsize=64)
def _module_and_input(hidden_size: int, act: str, version: str) -> tuple[FeedForward, torch.Tensor]:
    """A seeded ``FeedForward`` for these values and a fixed ``(n_tokens, hidden_size)`` input."""
    config = MiniMindConfig(hidden_size=hidden_size, hidden_act=act, version=version)
    with seeded(SETUP.weight_seed):
        module = FeedForward(config).eval()
    generator = torch.Generator().manual_seed(SETUP.input_seed)
    x = torch.randn(SETUP.n_tokens, hidden_size, generator=generator)
    return module, x


def draw_feedforward(hidden_size: int, act: str, version: str = "minimind2") -> tuple[Figure, str]:
    """Build ``FeedForward`` for these values, run one pass, draw act(gate) and act(gate)·up.

    ``version`` picks the width rule and whether a dropout follows ``down_proj`` (MiniMind2).
    """
    require_int_in("hidden_size", hidden_size, 1, 4096)
    require_choice("activation", act, ACTIVATION_NAMES)
    require_choice("version", version, list(VERSIONS))
    module, x = _module_and_input(hidden_size, act, version)
    parts = intermediates_by_name(capture_intermediates(module, x))
    act_gate, up, product = parts["act_fn"], parts["up_proj"], parts["down_proj:in"]
    out = parts["dropout"] if "dropout" in parts else parts["down_proj"]
    h, m = module.hidden_size, module.intermediate_size
    params = count_parameters(module)
    closed = float((act_gate.abs() < SETUP.closed_below).float().mean())
    fig = plot_gate_up_product(
        act_gate,
        up,
        product,
        max_tokens=SETUP.n_tokens,
        max_features=32,
        colorbar=False,
        panel_size=(3.2, 2.6),
        show_up=False,
    )
    html = (
        f"<b>FeedForward</b>(hidden_size={h}, hidden_act='{act}', version='{version}'): "
        f"act(x) = {activation_formula(act)}<br>"
        f"intermediate_size m = {m} ({_WIDTH_RULE_TEXT[version]}); "
        f"parameters = {params:,} = 3·{h}·{m}; "
        f"after down_proj: {type(module.dropout).__name__}<br>"
        f"one pass on {SETUP.n_tokens} tokens: output mean {float(out.mean()):.3f}, "
        f"std {float(out.std()):.3f}; closed gates (|act(gate)| &lt; {SETUP.closed_below}): "
        f"{closed:.1%}"
    )
    return fig, html


@register_widget("feedforward_forward", lesson="07")
def feedforward_widget() -> InteractivePlot:
    """Hidden size, activation and version → the ``FeedForward``, its parameters and one pass."""
    controls = {
        "hidden_size": widgets.IntSlider(
            value=SETUP.hidden_size,
            min=64,
            max=768,
            step=64,
            description="hidden size",
            continuous_update=False,
        ),
        "act": widgets.Dropdown(
            options=list(ACTIVATION_NAMES), value="silu", description="activation"
        ),
        "version": widgets.Dropdown(
            options=list(VERSIONS), value="minimind2", description="version"
        ),
    }
    return InteractivePlot(
        controls, draw_feedforward, title="MiniMind's FeedForward: width, parameters and one pass"
    )
