"""Lesson 05's widget: pick a gate activation, see one gated unit ``act(a·t) · t`` on a line."""

from __future__ import annotations

import math
from functools import lru_cache

import ipywidgets as widgets

from ..ffn import GLU_VARIANTS
from ..i18n import tr
from ..lessons.l05_gating import SETUP, GatedCurve, gated_product_curve
from ..plots.l05_gating import (
    GatedProductPanel,
    lay_out_gated_product_once,
    new_gated_product_panel,
    update_gated_product_panel,
)
from ..plots.style import new_figure
from .base import (
    WIDGET_DPI,
    Blitter,
    DrawResult,
    InteractivePlot,
    canvas_to_png,
    register_widget,
    require_choice,
)

__all__ = [
    "GatedProductView",
    "draw_gated_product",
    "gated_product_widget",
]


@lru_cache(maxsize=512)
def _curve(variant: str, gate_scale: float) -> GatedCurve:
    """``gated_product_curve(variant, gate_scale)``, computed once per value (read-only use)."""
    return gated_product_curve(variant, gate_scale)


def _slider_scales() -> list[float]:
    """Every gate scale the widget's slider offers."""
    low, high, step = SETUP.gate_scale_range
    return [low + i * step for i in range(round((high - low) / step) + 1)]


def _curves(variant: str, gate_scale: float) -> tuple[GatedCurve, list[GatedCurve]]:
    """Validate the control values; the unit's curve and the other variants' (grey) ones."""
    require_choice("variant", variant, list(GLU_VARIANTS))
    low, high, _step = SETUP.gate_scale_range
    finite = isinstance(gate_scale, (int, float)) and not isinstance(gate_scale, bool)
    if not (finite and math.isfinite(gate_scale) and low <= gate_scale <= high):
        raise ValueError(
            f"gate_scale must be a number from {low:g} to {high:g}, got {gate_scale!r}"
        )
    others = [_curve(name, gate_scale) for name in GLU_VARIANTS if name != variant]
    return _curve(variant, gate_scale), others


def _summary(curve: GatedCurve) -> str:
    """The widget's text for ``curve``: the formula, two sample points and the lowest output."""
    t, out = curve.t, curve.product
    at = {value: float(out[(t - value).abs().argmin()]) + 0.0 for value in (-2.0, 2.0)}  # no -0.0
    lowest = int(out.argmin())
    return tr(
        "<b>{variant}</b>: output = {act}({scale:g}·t) · t. "
        "At t = −2: {minus:.3f}; at t = +2: {plus:.3f}; "
        "lowest {lowest:.3f} at t = {where:.2f}. "
        "Grey: the other GLU variants.",
        variant=curve.variant,
        act=curve.act,
        scale=curve.gate_scale,
        minus=at[-2.0],
        plus=at[2.0],
        lowest=float(out[lowest]) + 0.0,
        where=float(t[lowest]),
    )


def _new_panel() -> GatedProductPanel:
    """The widget's figure, showing the starting values, laid out once for every slider value."""
    _fig, (ax,) = new_figure(dpi=WIDGET_DPI)  # laid out at the dpi it is shown at
    panel = new_gated_product_panel(*_curves("SwiGLU", 1.0), ax=ax)
    every = [_curve(name, scale) for name in GLU_VARIANTS for scale in _slider_scales()]
    lay_out_gated_product_once(panel, every)
    return panel


def draw_gated_product(variant: str, gate_scale: float) -> DrawResult:
    """The figure and summary for GLU variant ``variant`` with gate ``act(gate_scale·t)``.

    ``variant``: a name in ``GLU_VARIANTS``; ``gate_scale``: a number in ``SETUP``'s
    ``gate_scale_range``. Anything else raises ``ValueError`` naming the value. Returns a new
    figure; the widget draws the same picture into one figure it keeps (``GatedProductView``).
    """
    curve, others = _curves(variant, gate_scale)
    panel = _new_panel()
    update_gated_product_panel(panel, curve, others)
    return panel.figure, _summary(curve)


class GatedProductView:
    """``draw_gated_product`` for the widget: one figure for its life, only what changes redrawn.

    Call it with the control values; it returns the frame as PNG bytes and the summary.
    ``figure`` is the figure it keeps: its frame, x axis and y label are rendered once, and on
    them one background per variant with that variant's title; a frame draws the curves, the
    y axis and the legend over the variant's background. The figure is drawn for the view
    only: its y label is hidden from the y axis drawn each frame.
    """

    def __init__(self) -> None:
        self.panel = _new_panel()
        self.figure = self.panel.figure
        self.blitter = Blitter(self.figure, self.panel.dynamic)
        title, label = self.panel.ax.title, self.panel.ax.yaxis.label
        self._over_title = [artist for artist in self.panel.dynamic if artist is not title]
        # The y label belongs to the y axis, drawn every frame; pinned by the layout, it never
        # changes, so it is drawn once into the backgrounds and hidden from the axis.
        canvas = self.blitter.canvas
        self.figure.draw_artist(label)
        label.set_visible(False)
        base = canvas.copy_from_bbox(self.figure.bbox)
        # Canvas regions (matplotlib's BufferRegion) with each variant's title drawn in.
        self._titled_backgrounds: dict[str, object] = {}
        for name in GLU_VARIANTS:
            update_gated_product_panel(self.panel, *_curves(name, 1.0))
            canvas.restore_region(base)
            self.figure.draw_artist(title)
            self._titled_backgrounds[name] = canvas.copy_from_bbox(self.figure.bbox)

    def __call__(self, variant: str, gate_scale: float) -> tuple[bytes, str]:
        """The frame for these control values: ``(png, html)``."""
        curve, others = _curves(variant, gate_scale)
        update_gated_product_panel(self.panel, curve, others)
        self.blitter.canvas.restore_region(self._titled_backgrounds[variant])
        for artist in self._over_title:
            self.figure.draw_artist(artist)
        return canvas_to_png(self.blitter.canvas), _summary(curve)


@register_widget("gated_product", lesson="05")
def gated_product_widget() -> InteractivePlot:
    """Dropdown of GLU variants and a gate-scale slider; redraws ``act(a·t)``, ``t`` and product."""
    low, high, step = SETUP.gate_scale_range
    controls = {
        "variant": widgets.Dropdown(
            options=list(GLU_VARIANTS), value="SwiGLU", description=tr("gate")
        ),
        "gate_scale": widgets.FloatSlider(
            value=1.0, min=low, max=high, step=step, description=tr("gate scale a")
        ),
    }
    return InteractivePlot(
        controls, GatedProductView(), title=tr("One gated unit: act(a·t) · t for each GLU variant")
    )
