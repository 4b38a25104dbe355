"""Lesson 01's widget: nudge one input position and watch which output positions move."""

from __future__ import annotations

import ipywidgets as widgets

from ..lessons.l01_attention import (
    SETUP,
    sublayer_branches,
    tiny_block_and_sequence,
    token_perturbation_response,
)
from ..plots.l01_attention import plot_perturbation_response
from .base import DrawResult, InteractivePlot, register_widget, require_int_in

__all__ = [
    "perturb_one_position_widget",
]


@register_widget("perturb_one_position", lesson="01")
def perturb_one_position_widget() -> InteractivePlot:
    """Slider for the perturbed position ``j``; bars of ``‖Δy_i‖`` for attention and the MLP."""
    block, x = tiny_block_and_sequence(SETUP)
    seq_len = SETUP.seq_len
    branches = sublayer_branches(block)
    responses = {  # every position's response, computed once: a redraw only draws
        j: {
            name: token_perturbation_response(branch, x, j, scale=1.0)
            for name, branch in branches.items()
        }
        for j in range(seq_len)
    }

    def draw(position: int) -> DrawResult:
        require_int_in("position", position, 0, seq_len - 1)
        attention, mlp = responses[position]["attention"], responses[position]["mlp"]
        fig = plot_perturbation_response(attention, mlp, position)
        moved = [i for i in range(seq_len) if attention[i] > 0]
        mlp_moved = [i for i in range(seq_len) if mlp[i] > 0]
        html = (
            f"Nudging input position <b>{position}</b>: attention changes outputs at positions "
            f"{moved[0]}–{moved[-1]} ({len(moved)} of {seq_len}, largest "
            f"{attention.max().item():.3f}); the MLP changes position(s) {mlp_moved} only "
            f"({mlp.max().item():.3f}). Earlier positions never move: the mask is causal."
        )
        return fig, html

    slider = widgets.IntSlider(value=2, min=0, max=seq_len - 1, description="nudge j")
    return InteractivePlot(
        {"position": slider}, draw, title="Which outputs move when one token changes?"
    )
