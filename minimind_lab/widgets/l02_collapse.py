"""Lesson 02's widget: pick an activation (or none) and see the warped grid and the classifier."""

from __future__ import annotations

import ipywidgets as widgets
from torch import nn

from ..lessons.l02_collapse import (
    FLAT_TOLERANCE,
    SETUP,
    STACK_ACTIVATIONS,
    area_scale,
    decision_regions,
    grid_lines,
    make_dataset,
    train_stack,
    warp_grid,
    warp_network,
)
from ..plots.l02_collapse import draw_decision_regions, draw_warped_grid
from ..plots.style import new_figure
from .base import InteractivePlot, register_widget, require_choice

__all__ = [
    "activation_warps_the_plane_widget",
]


@register_widget("activation_warps_the_plane", lesson="02")
def activation_warps_the_plane_widget() -> InteractivePlot:
    """Dropdown of activations ("none" included) → warped grid and decision regions.

    Every model is trained when the widget is built (``train_stack`` caches, so a notebook that
    already trained them pays nothing), and a redraw only draws.
    """
    s = SETUP
    data = make_dataset(s.dataset, n=s.n_points, seed=s.seed)
    lines = grid_lines(extent=s.grid_extent, n_lines=s.grid_lines)

    def trained(activation: str, depth: int = s.depth):
        return train_stack(
            s.dataset, activation, depth=depth, width=s.width, steps=s.steps, lr=s.lr, seed=s.seed
        )

    linear_classifier = trained("none", depth=0).accuracy
    n_linear = sum(isinstance(m, nn.Linear) for m in trained("none").model)
    precomputed = {}
    for name in STACK_ACTIVATIONS:
        result = trained(name)
        network = warp_network(name)
        precomputed[name] = (
            warp_grid(lines, network),
            area_scale(network, lines),  # (2L, P)
            decision_regions(result.model),
            result,
        )

    def draw(activation: str):
        require_choice("activation", activation, STACK_ACTIVATIONS)
        warped, scale, regions, result = precomputed[activation]
        fig, (left, right) = new_figure(1, 2, panel_size=(3.4, 3.4))
        fig.set_layout_engine("none")  # fixed margins: a layout engine would double the redraw
        left.set_position((0.08, 0.15, 0.40, 0.75))
        right.set_position((0.58, 0.15, 0.40, 0.75))
        label = "no activation" if activation == "none" else activation
        draw_warped_grid(
            left, warped, title=f"Grid through Linear → {label} → Linear", area_scale=scale
        )
        title = f"{n_linear}-layer stack, {label}: {result.accuracy:.1%} correct"
        draw_decision_regions(right, regions, data, title=title)
        folded = (scale < -FLAT_TOLERANCE).float().mean().item()
        flat = (scale.abs() <= FLAT_TOLERANCE).float().mean().item()
        html = (
            f"<b>{label}</b>: the grid is folded over at {folded:.0%} of its points and "
            f"flattened at {flat:.0%}. Stack: training accuracy {result.accuracy:.3f}, final "
            f"loss {result.losses[-1]:.3f}. A single linear classifier reaches "
            f"{linear_classifier:.3f} on the same points."
        )
        return fig, html

    dropdown = widgets.Dropdown(
        options=list(STACK_ACTIVATIONS), value="relu", description="activation"
    )
    return InteractivePlot(
        {"activation": dropdown}, draw, title="What the activation adds to a stack of linear layers"
    )
