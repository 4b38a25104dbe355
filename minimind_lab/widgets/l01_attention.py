"""Lesson 01's widget: nudge one input position and watch which output positions move."""

from __future__ import annotations

import ipywidgets as widgets

from ..i18n import tr
from ..lessons.l01_attention import (
    SETUP,
    sublayer_branches,
    tiny_block_and_sequence,
    token_perturbation_response,
)
from ..plots.l01_attention import new_perturbation_panel, update_perturbation_panel
from .base import Blitter, InteractivePlot, register_widget, require_int_in

__all__ = [
    "PerturbationView",
    "perturb_one_position_widget",
]


class PerturbationView:
    """The widget's ``draw``: one bar chart for its life, only the bars and title redrawn.

    Every position's response is computed when it is built; a call with a position updates the
    bars in place and returns the frame as PNG bytes and the summary. ``figure`` is the figure
    it keeps. The y range is the same for every position (the largest response of all, plus a
    margin), so its ticks are drawn once and the views compare at a glance; the legend sits in
    the upper right corner, above every bar.
    """

    def __init__(self) -> None:
        block, x = tiny_block_and_sequence(SETUP)
        self.seq_len = SETUP.seq_len
        branches = sublayer_branches(block)
        self.responses = {  # (T,) per sublayer for every position: a redraw only draws
            j: {
                name: token_perturbation_response(branch, x, j, scale=1.0)
                for name, branch in branches.items()
            }
            for j in range(self.seq_len)
        }
        largest = max(r.max().item() for per_j in self.responses.values() for r in per_j.values())
        self.panel = new_perturbation_panel(
            self.seq_len, ymax=1.05 * largest, legend_loc="upper right"
        )
        self.figure = self.panel.figure
        # A first update before the background is drawn, so the layout leaves room for a title.
        responses = self.responses[0]
        update_perturbation_panel(self.panel, responses["attention"], responses["mlp"], 0)
        self.blitter = Blitter(self.figure, self.panel.changing_artists())

    def __call__(self, position: int) -> tuple[bytes, str]:
        """The frame for a nudge at ``position``: ``(png, html)``."""
        require_int_in("position", position, 0, self.seq_len - 1)
        attention, mlp = self.responses[position]["attention"], self.responses[position]["mlp"]
        update_perturbation_panel(self.panel, attention, mlp, position)
        seq_len = self.seq_len
        moved = [i for i in range(seq_len) if attention[i] > 0]
        mlp_moved = [i for i in range(seq_len) if mlp[i] > 0]
        html = tr(
            "Nudging input position <b>{position}</b>: attention changes outputs at positions "
            "{first}–{last} ({count} of {seq_len}, largest {largest:.3f}); the MLP changes "
            "position(s) {mlp_moved} only ({mlp_largest:.3f}). Earlier positions never move: "
            "the mask is causal.",
            position=position,
            first=moved[0],
            last=moved[-1],
            count=len(moved),
            seq_len=seq_len,
            largest=attention.max().item(),
            mlp_moved=mlp_moved,
            mlp_largest=mlp.max().item(),
        )
        return self.blitter.png(), html


@register_widget("perturb_one_position", lesson="01")
def perturb_one_position_widget() -> InteractivePlot:
    """Slider for the perturbed position ``j``; bars of ``‖Δy_i‖`` for attention and the MLP."""
    view = PerturbationView()
    slider = widgets.IntSlider(value=2, min=0, max=view.seq_len - 1, description=tr("nudge j"))
    return InteractivePlot(
        {"position": slider}, view, title=tr("Which outputs move when one token changes?")
    )
