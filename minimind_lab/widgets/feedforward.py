"""Lesson 07's widget: pick a hidden size and an activation, see the module and one pass."""

from __future__ import annotations

from functools import lru_cache

import ipywidgets as widgets
import torch
from matplotlib.figure import Figure

from ..activations import ACTIVATION_NAMES, activation_formula
from ..hooks import capture_intermediates, intermediates_by_name
from ..minimind import FeedForward, MiniMindConfig
from ..plots.feedforward import plot_gate_up_product
from ..sizing import count_parameters
from .base import InteractivePlot, register_widget

N_TOKENS = 16
#: |act(gate)| below this counts as a closed gate in the summary.
CLOSED_BELOW = 0.05


@lru_cache(maxsize=64)
def _module_and_input(hidden_size: int, act: str) -> tuple[FeedForward, torch.Tensor]:
    """A seeded ``FeedForward`` for these values and a fixed ``(N_TOKENS, hidden_size)`` input."""
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(0)
        module = FeedForward(MiniMindConfig(hidden_size=hidden_size, hidden_act=act)).eval()
    x = torch.randn(N_TOKENS, hidden_size, generator=torch.Generator().manual_seed(1))
    return module, x


def draw_feedforward(hidden_size: int, act: str) -> tuple[Figure, str]:
    """Build ``FeedForward(hidden_size, act)``, run one pass, draw act(gate), up and the product."""
    module, x = _module_and_input(int(hidden_size), act)
    parts = intermediates_by_name(capture_intermediates(module, x))
    act_gate, up, product = parts["act_fn"], parts["up_proj"], parts["down_proj:in"]
    out = parts["dropout"]
    h, m = module.hidden_size, module.intermediate_size
    params = count_parameters(module)
    closed = float((act_gate.abs() < CLOSED_BELOW).float().mean())
    fig = plot_gate_up_product(act_gate, up, product, max_tokens=N_TOKENS, max_features=32,
                               colorbar=False, panel_size=(3.2, 2.6), show_up=False)
    html = (
        f"<b>FeedForward</b>(hidden_size={h}, hidden_act='{act}'): "
        f"act(x) = {activation_formula(act)}<br>"
        f"intermediate_size m = {m} (8/3·{h} rounded up to 64); "
        f"parameters = {params:,} = 3·{h}·{m}<br>"
        f"one pass on {N_TOKENS} tokens: output mean {float(out.mean()):.3f}, "
        f"std {float(out.std()):.3f}; closed gates (|act(gate)| &lt; {CLOSED_BELOW}): "
        f"{closed:.1%}"
    )
    return fig, html


@register_widget("feedforward_forward", lesson="07")
def feedforward_widget() -> InteractivePlot:
    """Hidden size and activation → the ``FeedForward``, its parameter count and one pass."""
    controls = {
        "hidden_size": widgets.IntSlider(value=512, min=64, max=768, step=64,
                                         description="hidden size", continuous_update=False),
        "act": widgets.Dropdown(options=list(ACTIVATION_NAMES), value="silu",
                                description="activation"),
    }
    return InteractivePlot(controls, draw_feedforward,
                           title="MiniMind's FeedForward: width, parameters and one pass")
