"""Lesson 05's widget: pick a gate activation, see one gated unit ``act(a·t) · t`` on a line."""

from __future__ import annotations

import math

import ipywidgets as widgets
from matplotlib.figure import Figure

from ..ffn import GLU_VARIANTS
from ..lessons.l05_gating import SETUP, gated_product_curve
from ..plots.l05_gating import plot_gated_product
from ..plots.style import PANEL_SIZE
from .base import DrawResult, InteractivePlot, register_widget, require_choice

__all__ = [
    "draw_gated_product",
    "gated_product_widget",
]


def draw_gated_product(variant: str, gate_scale: float) -> DrawResult:
    """The figure and summary for GLU variant ``variant`` with gate ``act(gate_scale·t)``.

    ``variant``: a name in ``GLU_VARIANTS``; ``gate_scale``: a number in ``SETUP``'s
    ``gate_scale_range``. Anything else raises ``ValueError`` naming the value.
    """
    require_choice("variant", variant, list(GLU_VARIANTS))
    low, high, _step = SETUP.gate_scale_range
    finite = isinstance(gate_scale, (int, float)) and not isinstance(gate_scale, bool)
    if not (finite and math.isfinite(gate_scale) and low <= gate_scale <= high):
        raise ValueError(
            f"gate_scale must be a number from {low:g} to {high:g}, got {gate_scale!r}"
        )
    curve = gated_product_curve(variant, gate_scale)
    others = [gated_product_curve(name, gate_scale) for name in GLU_VARIANTS if name != variant]
    # fixed margins instead of the house constrained layout: a faster redraw
    fig = Figure(figsize=PANEL_SIZE)
    fig.subplots_adjust(left=0.15, right=0.97, bottom=0.15, top=0.9)
    plot_gated_product(curve, others, ax=fig.subplots())
    t, out = curve.t, curve.product
    at = {value: float(out[(t - value).abs().argmin()]) + 0.0 for value in (-2.0, 2.0)}  # no -0.0
    lowest = int(out.argmin())
    html = (
        f"<b>{variant}</b>: output = {curve.act}({gate_scale:g}·t) · t. "
        f"At t = −2: {at[-2.0]:.3f}; at t = +2: {at[2.0]:.3f}; "
        f"lowest {float(out[lowest]) + 0.0:.3f} at t = {float(t[lowest]):.2f}. "
        "Grey: the other GLU variants."
    )
    return fig, html


@register_widget("gated_product", lesson="05")
def gated_product_widget() -> InteractivePlot:
    """Dropdown of GLU variants and a gate-scale slider; redraws ``act(a·t)``, ``t`` and product."""
    low, high, step = SETUP.gate_scale_range
    controls = {
        "variant": widgets.Dropdown(options=list(GLU_VARIANTS), value="SwiGLU", description="gate"),
        "gate_scale": widgets.FloatSlider(
            value=1.0, min=low, max=high, step=step, description="gate scale a"
        ),
    }
    return InteractivePlot(
        controls, draw_gated_product, title="One gated unit: act(a·t) · t for each GLU variant"
    )
