"""Lesson 01's widget: nudge one input position and watch which output positions move."""

from __future__ import annotations

import ipywidgets as widgets
import torch

from ..attention import Block
from ..jacobian import sublayer_branches, token_perturbation_response
from ..minimind import MiniMindConfig
from ..plots.attention import plot_perturbation_response
from .base import InteractivePlot, register_widget

SEQ_LEN = 8
HIDDEN_SIZE = 32


def _tiny_block_and_sequence(seed: int = 0) -> tuple[Block, torch.Tensor]:
    """A seeded tiny block and one ``(SEQ_LEN, HIDDEN_SIZE)`` sequence, without touching the
    global random state the notebook relies on."""
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        config = MiniMindConfig(hidden_size=HIDDEN_SIZE, num_attention_heads=4,
                                num_key_value_heads=4)
        block = Block(config).eval()
        x = torch.randn(SEQ_LEN, HIDDEN_SIZE)
    return block, x


@register_widget("perturb_one_position", lesson="01")
def perturb_one_position_widget() -> InteractivePlot:
    """Slider for the perturbed position ``j``; bars of ``‖Δy_i‖`` for attention and the MLP."""
    block, x = _tiny_block_and_sequence()
    branches = sublayer_branches(block)
    responses = {  # every position's response, computed once: a redraw only draws
        j: {name: token_perturbation_response(branch, x, j, scale=1.0)
            for name, branch in branches.items()}
        for j in range(SEQ_LEN)
    }

    def draw(position: int):
        attention, mlp = responses[position]["attention"], responses[position]["mlp"]
        fig = plot_perturbation_response(attention, mlp, position)
        moved = [i for i in range(SEQ_LEN) if attention[i] > 0]
        mlp_moved = [i for i in range(SEQ_LEN) if mlp[i] > 0]
        html = (
            f"Nudging input position <b>{position}</b>: attention changes outputs at positions "
            f"{moved[0]}–{moved[-1]} ({len(moved)} of {SEQ_LEN}, largest "
            f"{attention.max().item():.3f}); the MLP changes position(s) {mlp_moved} only "
            f"({mlp.max().item():.3f}). Earlier positions never move: the mask is causal."
        )
        return fig, html

    slider = widgets.IntSlider(value=2, min=0, max=SEQ_LEN - 1, description="perturb j")
    return InteractivePlot({"position": slider}, draw,
                           title="Which outputs move when one token changes?")
