"""Lesson 06's widget: hidden size, multiple-of and multiplier → FFN width and its cost."""

from __future__ import annotations

import math
from functools import lru_cache

import ipywidgets as widgets
from matplotlib.figure import Figure

from ..lessons.l06_sizing import SETUP, rounding_overheads, width_budget
from ..plots.l06_sizing import plot_width_budget
from ..plots.style import PANEL_SIZE
from ..sizing import WidthRule
from .base import (
    DrawResult,
    InteractivePlot,
    register_widget,
    require_choice,
    require_int_in,
)

__all__ = [
    "draw_width_budget",
    "width_budget_widget",
]


@lru_cache(maxsize=64)
def _overhead_curve(rule: WidthRule) -> tuple[float, ...]:
    return tuple(rounding_overheads(SETUP.curve_sizes, rule))


def draw_width_budget(hidden_size: int, multiple_of: int, multiplier: float) -> DrawResult:
    """The figure and summary for one hidden size under one rounding rule.

    ``multiplier`` is Llama 3's ``ffn_dim_multiplier``; ``1.0`` means none. Values outside
    ``SETUP``'s ranges raise ``ValueError`` naming the value.
    """
    low, high, _step = SETUP.hidden_range
    require_int_in("hidden_size", hidden_size, low, high)
    require_choice("multiple_of", multiple_of, SETUP.multiple_of_choices)
    lowest, highest, _ = SETUP.multiplier_range
    number = isinstance(multiplier, (int, float)) and not isinstance(multiplier, bool)
    if not (number and math.isfinite(multiplier) and lowest <= multiplier <= highest):
        raise ValueError(
            f"multiplier must be a number from {lowest:g} to {highest:g}, got {multiplier!r}"
        )
    factor = None if multiplier == 1.0 else multiplier
    rule = WidthRule(multiple_of=multiple_of, ffn_dim_multiplier=factor)
    budget = width_budget(hidden_size, rule)
    # fixed margins instead of the house constrained layout: a third less redraw time
    fig = Figure(figsize=(2 * PANEL_SIZE[0], PANEL_SIZE[1]))
    fig.subplots_adjust(left=0.07, right=0.985, bottom=0.19, top=0.9, wspace=0.28)
    plot_width_budget(budget, SETUP.curve_sizes, _overhead_curve(rule), axes=fig.subplots(1, 2))
    html = (
        f"h = {hidden_size}, multiple_of = {multiple_of}, multiplier = {multiplier:g}: "
        f"intermediate_size <b>{budget.width}</b> (unrounded {budget.unrounded_width}). "
        f"Plain FFN at 4h: {budget.plain_parameters:,} parameters; "
        f"gated FFN: {budget.gated_parameters:,} ({budget.gated_to_plain:.3f}×). "
        f"Rounding adds {budget.rounding_extra:,} parameters "
        f"({100 * budget.rounding_overhead:.2f}%)."
    )
    return fig, html


@register_widget("ffn_width_budget", lesson="06")
def width_budget_widget() -> InteractivePlot:
    """Sliders for hidden size and multiplier, a dropdown for multiple-of; redraws the budget."""
    low, high, step = SETUP.hidden_range
    lowest, highest, multiplier_step = SETUP.multiplier_range
    controls = {
        "hidden_size": widgets.IntSlider(
            value=512, min=low, max=high, step=step, description="hidden h"
        ),
        "multiple_of": widgets.Dropdown(
            options=list(SETUP.multiple_of_choices), value=64, description="multiple of"
        ),
        "multiplier": widgets.FloatSlider(
            value=1.0, min=lowest, max=highest, step=multiplier_step, description="multiplier"
        ),
    }
    return InteractivePlot(
        controls,
        draw_width_budget,
        title="FFN width from hidden size: the 8/3 rule (MiniMind2, LLaMA) and its rounding",
    )
