"""Lesson 02's widget: pick an activation (or none) and see the warped grid and the classifier."""

from __future__ import annotations

import ipywidgets as widgets
from torch import nn

from ..i18n import tr
from ..lessons.l02_collapse import (
    FLAT_TOLERANCE,
    SETUP,
    STACK_ACTIVATIONS,
    area_scale,
    decision_regions,
    grid_lines,
    make_dataset,
    train_stacks,
    warp_grid,
    warp_network,
)
from ..plots.l02_collapse import new_collapse_panels, update_collapse_panels
from .base import Blitter, InteractivePlot, register_widget, require_choice

__all__ = [
    "CollapseView",
    "activation_warps_the_plane_widget",
]


class CollapseView:
    """The widget's ``draw``: one two-panel figure for its life, each activation's frame drawn
    into it once, when the view is built.

    Every model is trained then (``train_stacks`` caches, so a notebook that already trained
    them pays nothing), and every warped grid, area scale and decision region is computed. A frame
    updates the panels in place and redraws only what changes (``draw_frame``), but the grid's
    axes follow the warp, so its ticks and labels are drawn again each time (~40 ms, ~0.1 s on a
    busy machine). With four activations, drawing all four up front keeps every change of the
    dropdown instant: a call returns the stored frame (PNG bytes) and summary. ``figure`` is the
    figure it keeps.
    """

    def __init__(self) -> None:
        s = SETUP
        self.data = make_dataset(s.dataset, n=s.n_points, seed=s.seed)
        lines = grid_lines(extent=s.grid_extent, n_lines=s.grid_lines)  # (2L, P, 2)

        # The lesson's batches (the same arguments as the notebook's: a cache hit there); the
        # widget shows seed SETUP.seed.
        stacks = train_stacks(
            s.dataset, STACK_ACTIVATIONS, s.seeds, s.depth, s.width, s.steps, s.lr
        )
        single = train_stacks(s.dataset, ("none",), s.seeds, 0, s.width, s.steps, s.lr)
        self.linear_classifier = single["none", s.seed].accuracy
        self.n_linear = sum(isinstance(m, nn.Linear) for m in stacks["none", s.seed].model)
        self.precomputed = {}
        for name in STACK_ACTIVATIONS:
            result = stacks[name, s.seed]
            network = warp_network(name)
            self.precomputed[name] = (
                warp_grid(lines, network),
                area_scale(network, lines),  # (2L, P)
                decision_regions(result.model),
                result,
            )
        regions = self.precomputed["none"][2]  # every activation's regions share this grid
        extent = (
            float(regions.xs[0]),
            float(regions.xs[-1]),
            float(regions.ys[0]),
            float(regions.ys[-1]),
        )
        self.panels = new_collapse_panels(self.data, len(lines), extent)
        self.figure = self.panels.figure
        # The layout is made once, with the background: lay it out for the widest labels and
        # titles (no activation: the grid spans ±4, and the longest titles).
        self._update("none")
        self.blitter = Blitter(self.figure, self.panels.changing_artists())
        self.frames = {name: self.draw_frame(name) for name in STACK_ACTIVATIONS}

    def _update(self, activation: str) -> str:
        warped, scale, regions, result = self.precomputed[activation]
        label = tr("no activation") if activation == "none" else activation
        update_collapse_panels(
            self.panels,
            warped,
            scale,
            regions,
            grid_title=tr("Grid through Linear → {label} → Linear", label=label),
            regions_title=tr(
                "{n}-layer stack, {label}: {accuracy:.1%} correct",
                n=self.n_linear,
                label=label,
                accuracy=result.accuracy,
            ),
        )
        folded = (scale < -FLAT_TOLERANCE).float().mean().item()
        flat = (scale.abs() <= FLAT_TOLERANCE).float().mean().item()
        return tr(
            "<b>{label}</b>: the grid is folded over at {folded:.0%} of its points and "
            "flattened at {flat:.0%}. Stack: training accuracy {accuracy:.3f}, final "
            "loss {loss:.3f}. A single linear classifier reaches training accuracy "
            "{linear:.3f} on the same points.",
            label=label,
            folded=folded,
            flat=flat,
            accuracy=result.accuracy,
            loss=result.losses[-1],
            linear=self.linear_classifier,
        )

    def draw_frame(self, activation: str) -> tuple[bytes, str]:
        """Draw ``activation``'s frame into the figure: ``(png, html)``."""
        require_choice("activation", activation, STACK_ACTIVATIONS)
        html = self._update(activation)
        return self.blitter.png(), html

    def __call__(self, activation: str) -> tuple[bytes, str]:
        """The frame for ``activation`` (one of ``STACK_ACTIVATIONS``): ``(png, html)``."""
        require_choice("activation", activation, STACK_ACTIVATIONS)
        return self.frames[activation]


@register_widget("activation_warps_the_plane", lesson="02")
def activation_warps_the_plane_widget() -> InteractivePlot:
    """Dropdown of activations ("none" included) → warped grid and decision regions.

    Every model is trained when the widget is built, and a redraw only draws.
    """
    dropdown = widgets.Dropdown(
        options=[(tr("none") if a == "none" else a, a) for a in STACK_ACTIVATIONS],
        value="relu",
        description=tr("activation"),
    )
    return InteractivePlot(
        {"activation": dropdown},
        CollapseView(),
        title=tr("What the activation adds to a stack of linear layers"),
    )
