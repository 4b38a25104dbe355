"""Lesson 03's widgets: explore one activation's curve and slope; turn Swish's β.

Both read ``l03.SETUP`` (grid sizes, ranges) so they draw what the notebook and figures draw.
"""

from __future__ import annotations

import math
from functools import lru_cache

import ipywidgets as widgets
from matplotlib.ticker import MaxNLocator
from torch import Tensor

from ..activations import activation_formula, activation_label
from ..i18n import tr
from ..lessons.l03_activations import (
    LESSON03_ACTIVATIONS,
    SETUP,
    ActivationCurves,
    SwishFamily,
    activation_curves,
    activation_grid,
    swish_beta,
    swish_family,
)
from ..plots.l03_activations import (
    ActivationPairPanels,
    new_activation_pair_panels,
    new_swish_beta_panel,
    update_activation_pair_panels,
    update_swish_beta_panel,
)
from ..plots.style import fixed_layout
from .base import Blitter, DrawResult, InteractivePlot, register_widget, require_choice

__all__ = [
    "BETA_RANGE",
    "EXPLORER_ACTIVATIONS",
    "ActivationView",
    "SwishView",
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


def _explorer_frame(name: str, x_range: tuple[float, float]) -> tuple[ActivationCurves, str]:
    """Validate the control values; the curves on that range and the summary HTML."""
    require_choice("activation", name, EXPLORER_ACTIVATIONS)
    lo, hi = float(x_range[0]), float(x_range[1])
    if not hi > lo:
        raise ValueError(f"the x range needs two different ends (lo < hi), got {lo:g} … {hi:g}")
    curves = _curves(lo, hi)
    values, slopes = curves.values[name], curves.derivatives[name]
    i = int(values.argmin())
    flat = float((slopes.abs() < 1e-6).double().mean())
    html = tr(
        "<b>{name}</b>: f(x) = {formula}<br>"
        "on [{lo:g}, {hi:g}]: lowest f = {lowest:.3f} at x = {at:.3f}; "
        "f' ranges {slope_min:.3f} … {slope_max:.3f}; "
        "{flat:.0%} of the range has zero slope (no gradient flows there)",
        name=activation_label(name),
        formula=activation_formula(name),
        lo=lo,
        hi=hi,
        lowest=float(values[i]),
        at=float(curves.x[i]),
        slope_min=float(slopes.min()),
        slope_max=float(slopes.max()),
        flat=flat,
    )
    return curves, html


def _explorer_panels() -> ActivationPairPanels:
    """The explorer's empty figure: both panels, every offered activation as grey context.

    Margins are fixed rather than laid out: the x range changes the tick labels, and a layout
    engine would measure them all again at every such change. At most five ticks per axis: the
    panels are small, and every tick label is laid out again at each new x range.
    """
    panels = new_activation_pair_panels(EXPLORER_ACTIVATIONS)
    fixed_layout(panels.figure)
    for ax in panels.axes:
        ax.xaxis.set_major_locator(MaxNLocator(nbins=4))
        ax.yaxis.set_major_locator(MaxNLocator(nbins=4))
    return panels


def draw_activation(name: str, x_range: tuple[float, float]) -> DrawResult:
    """Curve and derivative of ``name`` on ``x_range`` (others faint) and a summary of numbers.

    Returns a new figure; the widget draws the same picture into one figure it keeps
    (``ActivationView``).
    """
    curves, html = _explorer_frame(name, x_range)
    panels = _explorer_panels()
    update_activation_pair_panels(panels, curves, name)
    return panels.figure, html


class ActivationView:
    """``draw_activation`` for the widget: one figure for its life, only what changes redrawn.

    Call it with the control values; it returns the frame as PNG bytes and the summary.
    ``figure`` is the figure it keeps. A new activation redraws the curves and titles over the
    stored axes; a new x range also renders the axes again (their limits and ticks change).
    """

    def __init__(self) -> None:
        self.panels = _explorer_panels()
        self.figure = self.panels.figure
        self._range = SETUP.explorer_range
        update_activation_pair_panels(self.panels, _curves(*self._range), "silu")
        # The zero lines reach the left and bottom spines, which a full drawing puts over them.
        spines = [ax.spines[side] for ax in self.panels.axes for side in ("left", "bottom")]
        self.blitter = Blitter(self.figure, [*self.panels.changing_artists(), *spines])

    def __call__(self, name: str, x_range: tuple[float, float]) -> tuple[bytes, str]:
        """The frame for these control values: ``(png, html)``."""
        curves, html = _explorer_frame(name, x_range)
        new_range = tuple(map(float, x_range)) != self._range
        update_activation_pair_panels(self.panels, curves, name, rescale=new_range)
        if new_range:
            self.blitter.refresh_background()
            self._range = tuple(map(float, x_range))
        return self.blitter.png(), html


@register_widget("activation_explorer", lesson="03")
def activation_explorer() -> InteractivePlot:
    """Pick an activation and an x-range; see its curve, its autograd derivative and numbers."""
    controls = {
        "name": widgets.Dropdown(
            options=[(activation_label(n), n) for n in EXPLORER_ACTIVATIONS],
            value="silu",
            description=tr("activation"),
        ),
        "x_range": widgets.FloatRangeSlider(
            value=SETUP.explorer_range,
            min=-10.0,
            max=10.0,
            step=0.5,
            description=tr("x range"),
        ),
    }
    return InteractivePlot(controls, ActivationView(), title=tr("Activation curve and derivative"))


def _swish_frame(beta: float) -> tuple[SwishFamily, str, str]:
    """Validate β; Swish_β on the drawn grid, the title and the summary HTML (its gaps to x/2
    and to ReLU measured on a grid ten times finer than the one drawn)."""
    lo_beta, hi_beta = BETA_RANGE
    ok = isinstance(beta, (int, float)) and not isinstance(beta, bool) and math.isfinite(beta)
    if not ok or not lo_beta <= beta <= hi_beta:
        raise ValueError(f"β must be a number from {lo_beta:g} to {hi_beta:g}, got {beta!r}")
    lo, hi = SETUP.swish_range
    family = swish_family([beta], _swish_grid())
    x = activation_grid(lo, hi, 10 * (SETUP.swish_points - 1) + 1)
    y = swish_beta(x, beta)
    gap_half = float((y - x / 2).abs().max())
    gap_relu = float((y - x.clamp_min(0)).abs().max())
    html = tr(
        "β = {beta:.3g}: max |Swish_β − x/2| = {gap_half:.4f}, "
        "max |Swish_β − ReLU| = {gap_relu:.4f} on [{lo:g}, {hi:g}]; "
        "lowest value {lowest:.4f} (SiLU's −0.278, divided by β)",
        beta=beta,
        gap_half=gap_half,
        gap_relu=gap_relu,
        lo=lo,
        hi=hi,
        lowest=float(y.min()),
    )
    return family, tr("x·σ(βx) at β = {beta:.3g}", beta=beta), html


def _swish_grid() -> Tensor:
    return activation_grid(*SETUP.swish_range, SETUP.swish_points)


def draw_swish(beta: float) -> DrawResult:
    """Swish_β on ``SETUP.swish_range`` with its two limits; the summary gives the gaps to x/2
    and to ReLU, measured on a grid ten times finer than the one drawn.

    Returns a new figure; the widget draws the same picture into one figure it keeps
    (``SwishView``).
    """
    family, title, html = _swish_frame(beta)
    panel = new_swish_beta_panel(family.x)
    update_swish_beta_panel(panel, family, title)
    return panel.figure, html


class SwishView:
    """``draw_swish`` for the widget: one figure for its life; a new β redraws the curve, the
    limits over it, the legend and the title over the stored axes (the range never changes).

    Call it with β; it returns the frame as PNG bytes and the summary. ``figure`` is the figure
    it keeps.
    """

    def __init__(self) -> None:
        self.panel = new_swish_beta_panel(_swish_grid())
        self.figure = self.panel.figure
        # Laid out once, when the blitter first draws it: with a real title, whose height (the
        # parentheses reach below the baseline) sets the space above the axes.
        family, title, _ = _swish_frame(1.0)
        update_swish_beta_panel(self.panel, family, title)
        spine = self.panel.ax.spines["left"]  # drawn over the zero line, which reaches it
        self.blitter = Blitter(self.figure, [*self.panel.changing_artists(), spine])

    def __call__(self, beta: float) -> tuple[bytes, str]:
        """The frame for this β: ``(png, html)``."""
        family, title, html = _swish_frame(beta)
        update_swish_beta_panel(self.panel, family, title)
        return self.blitter.png(), html


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
    return InteractivePlot(controls, SwishView(), title="Swish_β(x) = x·σ(βx)")
