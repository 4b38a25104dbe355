"""Lesson 03's widgets: explore one activation's curve and slope; turn Swish's β.

Both read ``l03.SETUP`` (grid sizes, ranges) so they draw what the notebook and figures draw.
"""

from __future__ import annotations

import math
from functools import lru_cache

import ipywidgets as widgets

from ..activations import activation_formula, activation_label
from ..lessons.l03_activations import (
    LESSON03_ACTIVATIONS,
    SETUP,
    ActivationCurves,
    activation_curves,
    activation_grid,
    swish_beta,
    swish_family,
)
from ..plots.l03_activations import (
    plot_activation_pair,
    plot_swish_beta,
)
from ..plots.style import fixed_layout
from .base import DrawResult, InteractivePlot, register_widget, require_choice

__all__ = [
    "BETA_RANGE",
    "EXPLORER_ACTIVATIONS",
    "activation_explorer",
    "draw_activation",
    "draw_swish",
    "swish_beta_explorer",
]


#: The activations the explorer offers: lesson 03's five plus GELU's tanh form.
EXPLORER_ACTIVATIONS: tuple[str, ...] = (*LESSON03_ACTIVATIONS, "gelu_pytorch_tanh")


#: The β slider's range (log scale): from almost x/2 to almost ReLU.
BETA_RANGE: tuple[float, float] = (0.01, 100.0)


@lru_cache(maxsize=64)
def _curves(lo: float, hi: float) -> ActivationCurves:
    return activation_curves(EXPLORER_ACTIVATIONS, activation_grid(lo, hi, SETUP.explorer_points))


def draw_activation(name: str, x_range: tuple[float, float]) -> DrawResult:
    """Curve and derivative of ``name`` on ``x_range`` (others faint) and a summary of numbers."""
    require_choice("activation", name, EXPLORER_ACTIVATIONS)
    lo, hi = float(x_range[0]), float(x_range[1])
    if not hi > lo:
        raise ValueError(f"the x range needs two different ends (lo < hi), got {lo:g} … {hi:g}")
    curves = _curves(lo, hi)
    fig = fixed_layout(plot_activation_pair(curves, name, context=EXPLORER_ACTIVATIONS))
    values, slopes = curves.values[name], curves.derivatives[name]
    i = int(values.argmin())
    flat = float((slopes.abs() < 1e-6).double().mean())
    html = (
        f"<b>{activation_label(name)}</b>: f(x) = {activation_formula(name)}<br>"
        f"on [{lo:g}, {hi:g}]: lowest f = {float(values[i]):.3f} at x = {float(curves.x[i]):.3f}; "
        f"f' ranges {float(slopes.min()):.3f} … {float(slopes.max()):.3f}; "
        f"{flat:.0%} of the range has zero slope (no gradient flows there)"
    )
    return fig, html


@register_widget("activation_explorer", lesson="03")
def activation_explorer() -> InteractivePlot:
    """Pick an activation and an x-range; see its curve, its autograd derivative and numbers."""
    controls = {
        "name": widgets.Dropdown(
            options=[(activation_label(n), n) for n in EXPLORER_ACTIVATIONS],
            value="silu",
            description="activation",
        ),
        "x_range": widgets.FloatRangeSlider(
            value=SETUP.explorer_range,
            min=-10.0,
            max=10.0,
            step=0.5,
            description="x range",
        ),
    }
    return InteractivePlot(controls, draw_activation, title="Activation curve and derivative")


def draw_swish(beta: float) -> DrawResult:
    """Swish_β on ``SETUP.swish_range`` with its two limits; the summary gives the gaps to x/2
    and to ReLU, measured on a grid ten times finer than the one drawn."""
    lo_beta, hi_beta = BETA_RANGE
    ok = isinstance(beta, (int, float)) and not isinstance(beta, bool) and math.isfinite(beta)
    if not ok or not lo_beta <= beta <= hi_beta:
        raise ValueError(f"β must be a number from {lo_beta:g} to {hi_beta:g}, got {beta!r}")
    lo, hi = SETUP.swish_range
    family = swish_family([beta], activation_grid(lo, hi, SETUP.swish_points))
    fig = fixed_layout(
        plot_swish_beta(family, title=f"x·σ(βx) at β = {beta:.3g}"), left=0.1, bottom=0.12, top=0.92
    )
    x = activation_grid(lo, hi, 10 * (SETUP.swish_points - 1) + 1)
    y = swish_beta(x, beta)
    gap_half = float((y - x / 2).abs().max())
    gap_relu = float((y - x.clamp_min(0)).abs().max())
    html = (
        f"β = {beta:.3g}: max |Swish_β − x/2| = {gap_half:.4f}, "
        f"max |Swish_β − ReLU| = {gap_relu:.4f} on [{lo:g}, {hi:g}]; "
        f"lowest value {float(y.min()):.4f} (SiLU's −0.278, divided by β)"
    )
    return fig, html


@register_widget("swish_beta", lesson="03")
def swish_beta_explorer() -> InteractivePlot:
    """A log-scaled β slider for x·σ(βx): from almost x/2 (β = 0.01) to almost ReLU (β = 100)."""
    controls = {
        "beta": widgets.FloatLogSlider(
            value=1.0,
            base=10,
            min=math.log10(BETA_RANGE[0]),
            max=math.log10(BETA_RANGE[1]),
            step=0.1,
            description="β",
            readout_format=".3g",
        )
    }
    return InteractivePlot(controls, draw_swish, title="Swish_β(x) = x·σ(βx)")
