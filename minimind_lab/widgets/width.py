"""Lesson 04's central widget: a width slider and an activation dropdown that re-fit the task."""

from __future__ import annotations

import ipywidgets as widgets

from ..plots.activations import activation_label
from ..plots.style import fixed_layout
from ..plots.width import plot_width_dashboard, ratio_label
from ..sizing import ffn_parameter_count
from ..width import (
    WIDTH_ACTIVATIONS,
    WIDTH_RATIOS,
    fit_width,
    hidden_activations,
    hidden_sparsity,
    make_width_task,
    width_sweep,
)
from .base import DrawResult, InteractivePlot, register_widget


def draw_width(ratio: float, act: str) -> DrawResult:
    """Fit (or fetch) ``PlainFFN(h, ratio·h, act)`` on the width task and draw the dashboard."""
    task = make_width_task()
    fit = fit_width(act, ratio)
    reference = fit_width(act, WIDTH_RATIOS[0]) if ratio != WIDTH_RATIOS[0] else None
    h = task.hidden_size
    formula = ffn_parameter_count(h, fit.intermediate_size, gated=False)
    if formula != fit.parameters:  # the module and the formula must agree
        raise RuntimeError(f"module has {fit.parameters} parameters, formula says {formula}")
    fig = fixed_layout(plot_width_dashboard(fit, task, reference=reference), top=0.82, gap=0.1)
    sparsity = hidden_sparsity(hidden_activations(fit.model, task.inputs))
    html = (
        f"<b>{activation_label(act)}</b>, h = {h}, m = {fit.intermediate_size} "
        f"(m/h = {ratio_label(ratio)}): parameters 2·h·m = {fit.parameters:,}; "
        f"final MSE {fit.final_loss:.4f} after {len(fit.losses)} steps; "
        f"{sparsity.exact_zero:.0%} of hidden entries exactly 0, "
        f"a token uses {sparsity.units_used:.1f} of {fit.intermediate_size} units on average"
    )
    return fig, html


@register_widget("ffn_width", lesson="04")
def width_explorer() -> InteractivePlot:
    """Width slider (m/h ½..8) and activation dropdown; every fit is trained once, up front.

    Building the widget trains the whole sweep (25 tiny fits, a few seconds the first time;
    instant after the lesson's own sweep), so moving a control only redraws.
    """
    width_sweep()  # warm the cache: every control position is then a redraw, not a re-fit
    controls = {
        "ratio": widgets.SelectionSlider(
            options=[(ratio_label(r), r) for r in WIDTH_RATIOS], value=4.0,
            description="m/h", continuous_update=False,
        ),
        "act": widgets.Dropdown(
            options=[(activation_label(a), a) for a in WIDTH_ACTIVATIONS], value="relu",
            description="activation",
        ),
    }
    return InteractivePlot(controls, draw_width, title="How wide should the FFN be?")
