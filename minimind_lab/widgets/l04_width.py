"""Lesson 04's central widget: a width slider and an activation dropdown that show the fits.

It reads ``l04.SETUP`` and the same cached runs as the notebook and the ``width_sweep`` figure.
"""

from __future__ import annotations

import ipywidgets as widgets

from ..activations import activation_label
from ..lessons.l04_width import (
    SETUP,
    WidthRuns,
    fit_width,
    hidden_activations,
    hidden_sparsity,
    make_width_task,
    width_sweep,
)
from ..plots.l04_width import plot_width_dashboard, ratio_label
from ..plots.style import fixed_layout
from ..sizing import ffn_parameter_count
from .base import DrawResult, InteractivePlot, register_widget, require_choice

__all__ = [
    "draw_width",
    "width_explorer",
]


def _runs(act: str, ratio: float) -> WidthRuns:
    s = SETUP
    return fit_width(
        act,
        ratio,
        s.hidden_size,
        seeds=s.seeds,
        steps=s.steps,
        lr=s.lr,
        n_tokens=s.n_tokens,
        task_seed=s.task_seed,
    )


def draw_width(ratio: float, act: str) -> DrawResult:
    """Draw the first seed's fit and loss curve of ``PlainFFN(h, ratio·h, act)`` on the width
    task; the summary gives the median and range of the final MSE over all seeds."""
    require_choice("activation", act, SETUP.activations)
    require_choice("width ratio m/h", ratio, SETUP.ratios)
    s = SETUP
    task = make_width_task(s.hidden_size, s.n_tokens, s.task_seed)
    runs = _runs(act, ratio)
    fit = runs.fits[0]
    reference = _runs(act, s.ratios[0]).fits[0] if ratio != s.ratios[0] else None
    h = task.hidden_size
    formula = ffn_parameter_count(h, fit.intermediate_size, gated=False)
    if formula != fit.parameters:  # the module and the formula must agree
        raise RuntimeError(f"module has {fit.parameters} parameters, formula says {formula}")
    fig = fixed_layout(plot_width_dashboard(fit, task, reference=reference), top=0.82, gap=0.1)
    sparsity = hidden_sparsity(hidden_activations(fit.model, task.inputs))
    low, high = runs.loss_range
    seeds = ", ".join(str(seed) for seed in runs.seeds)
    html = (
        f"<b>{activation_label(act)}</b>, h = {h}, m = {fit.intermediate_size} "
        f"(m/h = {ratio_label(ratio)}): parameters 2·h·m = {fit.parameters:,}; "
        f"final MSE after {len(fit.losses)} steps: median {runs.median_loss:.4f} over seeds "
        f"{seeds} (range {low:.4f}–{high:.4f}); shown: seed {fit.seed}, "
        f"{sparsity.exact_zero:.0%} of its hidden entries exactly 0, "
        f"{sparsity.dead_units} dead units, "
        f"a token uses {sparsity.units_used:.1f} of {fit.intermediate_size} units on average"
    )
    return fig, html


@register_widget("ffn_width", lesson="04")
def width_explorer() -> InteractivePlot:
    """Width slider (m/h ½..8) and activation dropdown; every fit is trained once, up front.

    Building the widget trains the whole sweep (5 batched trainings of 5 activations × 3 seeds,
    a few seconds the first time; instant after the lesson's own sweep), so moving a control
    only redraws.
    """
    s = SETUP
    # warm the cache: every control position is then a redraw, not a re-fit
    width_sweep(
        s.activations,
        s.ratios,
        s.hidden_size,
        seeds=s.seeds,
        steps=s.steps,
        lr=s.lr,
        n_tokens=s.n_tokens,
        task_seed=s.task_seed,
    )
    controls = {
        "ratio": widgets.SelectionSlider(
            options=[(ratio_label(r), r) for r in s.ratios],
            value=4.0,
            description="m/h",
            continuous_update=False,
        ),
        "act": widgets.Dropdown(
            options=[(activation_label(a), a) for a in s.activations],
            value="relu",
            description="activation",
        ),
    }
    return InteractivePlot(controls, draw_width, title="How wide should the FFN be?")
