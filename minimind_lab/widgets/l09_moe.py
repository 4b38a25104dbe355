"""Lesson 09's widget: experts, top-k and shared experts → routing map and parameter counts."""

from __future__ import annotations

from functools import lru_cache

import ipywidgets as widgets
import torch
from matplotlib.figure import Figure

from ..lessons.l09_moe import SETUP, clustered_tokens
from ..minimind import MiniMindConfig
from ..moe import MoEFeedForward, Routing
from ..plots.l09_moe import plot_moe_parameter_counts, plot_moe_routing
from ..plots.style import fixed_layout, new_figure
from ..runtime import seeded
from .base import InteractivePlot, register_widget, require_int_in

__all__ = [
    "draw_moe",
    "moe_widget",
]


@lru_cache(maxsize=64)
def _routed(num_experts: int, top_k: int) -> tuple[MoEFeedForward, Routing, list[str]]:
    s = SETUP
    with seeded(s.seed):
        moe = MoEFeedForward(MiniMindConfig(hidden_size=s.hidden_size), num_experts, top_k)
    x, labels = clustered_tokens(s.hidden_size, s.tokens_per_kind, s.kinds, seed=s.seed)
    with torch.no_grad():
        moe(x)
    return moe, moe.last_routing, labels


def draw_moe(num_experts: int, top_k: int, num_shared: int = 0) -> tuple[Figure, str]:
    """Route the clustered tokens through ``num_experts`` experts, ``top_k`` each; draw both plots.

    ``top_k`` above ``num_experts`` is clamped to ``num_experts`` (and the summary says so).
    ``num_shared`` shared experts (MiniMind2 has one) take every token at weight one: they add to
    both counts and do not change the routing map.
    """
    require_int_in("num_experts", num_experts, 1, 64)
    require_int_in("top_k", top_k, 1, 64)
    require_int_in("num_shared", num_shared, 0, 8)
    k = min(top_k, num_experts)
    moe, routing, labels = _routed(num_experts, k)
    h, m = moe.hidden_size, moe.experts[0].intermediate_size
    router, expert = h * moe.num_experts, 3 * h * m
    total = router + (moe.num_experts + num_shared) * expert
    active = router + (k + num_shared) * expert
    shared = f"+{num_shared}" if num_shared else ""
    counts = {
        "dense FFN": expert,
        f"MoE total\n(E={moe.num_experts}{shared})": total,
        f"MoE active\n(k={k}{shared})": active,
    }
    fig, (ax_route, ax_params) = new_figure(1, 2, panel_size=(5.2, 3.4))
    plot_moe_routing(routing, token_labels=labels, ax=ax_route, colorbar=False)
    plot_moe_parameter_counts(counts, ax=ax_params)
    # Fixed margins: a layout engine re-measures every tick label on each redraw (~a third).
    fixed_layout(fig, left=0.13, right=0.98, bottom=0.3, top=0.88, gap=0.1)
    load = torch.bincount(routing.experts.reshape(-1), minlength=moe.num_experts).tolist()
    clamped = f" (top_k {top_k} clamped to {k})" if k != top_k else ""
    html = (
        f"{moe.num_experts} routed experts, top_k = {k}{clamped}, {num_shared} shared; "
        f"h = {h}, m = {m}<br>"
        f"total = router h·E + (E + S)·3hm = {router:,} + {moe.num_experts + num_shared}·"
        f"{expert:,} = {total:,}<br>"
        f"active per token = router + (k + S)·3hm = {router:,} + {k + num_shared}·{expert:,} = "
        f"{active:,}<br>"
        f"tokens per routed expert: {load}"
    )
    return fig, html


@register_widget("moe_routing", lesson="09")
def moe_widget() -> InteractivePlot:
    """Experts, top-k and shared experts → where each token goes, total vs active parameters.

    Starts at MiniMind2's MoE defaults (``SETUP``: 4 routed experts, 2 per token, 1 shared);
    minimind-3's are 4, 1 and 0.
    """
    controls = {
        "num_experts": widgets.IntSlider(
            value=SETUP.num_experts, min=2, max=8, description="experts E"
        ),
        "top_k": widgets.IntSlider(value=SETUP.top_k, min=1, max=4, description="top-k"),
        "num_shared": widgets.IntSlider(
            value=SETUP.num_shared_experts, min=0, max=2, description="shared S"
        ),
    }
    return InteractivePlot(
        controls, draw_moe, title="A small mixture of experts: routing and parameters"
    )
