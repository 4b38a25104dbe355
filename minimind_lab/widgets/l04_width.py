"""Lesson 04's central widget: a width slider and an activation dropdown that show the fits.

It reads ``l04.SETUP`` and the same cached runs as the notebook and the ``width_sweep`` figure.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import ipywidgets as widgets
import torch

from .._threads import one_thread
from ..activations import activation_label
from ..i18n import get_language, tr
from ..lessons.l04_width import (
    SETUP,
    WidthFit,
    WidthRuns,
    WidthTask,
    hidden_activations,
    hidden_sparsity,
    listing,
    make_width_task,
    width_sweep,
)
from ..plots.l04_width import (
    WidthDashboard,
    loss_label,
    loss_limits,
    new_width_dashboard,
    ratio_label,
    shown_coords,
    update_width_dashboard,
)
from ..sizing import ffn_parameter_count
from .base import Blitter, DrawResult, InteractivePlot, register_widget, require_choice

__all__ = [
    "WidthView",
    "draw_width",
    "width_explorer",
]


@dataclass(frozen=True)
class _Shown:
    """What the widget shows for one (ratio, activation): the first seed's fit, the narrowest
    width's first-seed fit of the same activation as a reference (None at the narrowest), and
    the summary HTML."""

    fit: WidthFit
    reference: WidthFit | None
    html: str


@dataclass(frozen=True)
class _Frames:
    """Everything the widget can show, computed once from the cached sweep: ``shown[(ratio,
    act)]``, the task, and y ranges that hold every fit (so every picture has the same axes)."""

    shown: dict[tuple[float, str], _Shown]
    task: WidthTask
    fit_ylim: tuple[float, float]
    loss_ylim: tuple[float, float]


def _summary(runs: WidthRuns, task: WidthTask) -> str:
    fit = runs.fits[0]
    h = task.hidden_size
    formula = ffn_parameter_count(h, fit.intermediate_size, gated=False)
    if formula != fit.parameters:  # the module and the formula must agree
        raise RuntimeError(f"module has {fit.parameters} parameters, formula says {formula}")
    with one_thread():  # a tiny forward pass: a second thread only adds waiting
        sparsity = hidden_sparsity(hidden_activations(fit.model, task.inputs))
    low, high = runs.loss_range
    seeds = listing(runs.seeds)
    return tr(
        "<b>{act}</b>, h = {h}, m = {m} (m/h = {ratio}): parameters 2·h·m = {parameters:,}; "
        "final MSE after {steps} steps: median {median} over seeds {seeds} (range {low}–{high}); "
        "shown: seed {seed}, {exact_zero:.0%} of its hidden entries exactly 0, "
        "{dead} dead units, a token uses {used:.1f} of {m} units on average",
        act=activation_label(fit.act),
        h=h,
        m=fit.intermediate_size,
        ratio=ratio_label(fit.ratio),
        parameters=fit.parameters,
        steps=len(fit.losses),
        median=loss_label(runs.median_loss),
        seeds=seeds,
        low=loss_label(low),
        high=loss_label(high),
        seed=fit.seed,
        exact_zero=sparsity.exact_zero,
        dead=sparsity.dead_units,
        used=sparsity.units_used,
    )


def _frames() -> _Frames:
    """The widget's frames from ``width_sweep`` (trained once and cached; instant after the
    lesson's own sweep): every fit, its reference and its summary, and the shared y ranges.
    The summaries are in the current language (kept per language)."""
    return _frames_in(get_language())


@lru_cache(maxsize=2)
def _frames_in(lang: str) -> _Frames:
    """``_frames`` for language ``lang`` (the summaries' language; the rest is the same)."""
    s = SETUP
    sweep = width_sweep(
        s.activations,
        s.ratios,
        s.hidden_size,
        seeds=s.seeds,
        steps=s.steps,
        lr=s.lr,
        n_tokens=s.n_tokens,
        task_seed=s.task_seed,
    )
    task = make_width_task(s.hidden_size, s.n_tokens, s.task_seed)
    shown = {}
    for act, by_ratio in sweep.items():
        narrowest = by_ratio[0].fits[0]
        for ratio, runs in zip(s.ratios, by_ratio, strict=True):
            reference = narrowest if ratio != s.ratios[0] else None
            shown[ratio, act] = _Shown(runs.fits[0], reference, _summary(runs, task))
    # The fit panel's range: what autoscaling (5 % margins) gives for all fits and targets.
    coords = list(shown_coords(s.hidden_size))
    curves = torch.cat(
        [task.targets[:, coords], *(v.fit.prediction[:, coords] for v in shown.values())]
    )
    low, high = float(curves.min()), float(curves.max())
    margin = 0.05 * (high - low)
    losses = [loss for v in shown.values() for loss in v.fit.losses]
    return _Frames(shown, task, (low - margin, high + margin), loss_limits(losses))


def _shown(ratio: float, act: str) -> _Shown:
    require_choice("activation", act, SETUP.activations)
    require_choice("width ratio m/h", ratio, SETUP.ratios)
    return _frames().shown[ratio, act]


def _new_dashboard(shown: _Shown) -> WidthDashboard:
    frames = _frames()
    return new_width_dashboard(
        shown.fit,
        frames.task,
        shown.reference,
        fit_ylim=frames.fit_ylim,
        loss_ylim=frames.loss_ylim,
    )


def draw_width(ratio: float, act: str) -> DrawResult:
    """Draw the first seed's fit and loss curve of ``PlainFFN(h, ratio·h, act)`` on the width
    task; the summary gives the median and range of the final MSE over all seeds.

    Both panels keep one y range for every width and activation, so pictures compare at a
    glance. Returns a new figure; the widget draws the same picture into one figure it keeps
    (``WidthView``).
    """
    shown = _shown(ratio, act)
    return _new_dashboard(shown).figure, shown.html


class WidthView:
    """``draw_width`` for the widget: one figure for its life; another width or activation
    redraws the curves, the loss panel's legend and the titles over the stored axes.

    Call it with the control values; it returns the frame as PNG bytes and the summary.
    ``figure`` is the figure it keeps. Building it trains the sweep if the lesson has not.
    """

    def __init__(self, ratio: float = 4.0, act: str = "relu") -> None:
        self.dashboard = _new_dashboard(_shown(ratio, act))
        self.figure = self.dashboard.figure
        self.blitter = Blitter(self.figure, self.dashboard.changing_artists())

    def __call__(self, ratio: float, act: str) -> tuple[bytes, str]:
        """The frame for these control values: ``(png, html)``."""
        shown = _shown(ratio, act)
        update_width_dashboard(self.dashboard, shown.fit, shown.reference)
        return self.blitter.png(), shown.html


@register_widget("ffn_width", lesson="04")
def width_explorer() -> InteractivePlot:
    """Width slider (m/h ½..8) and activation dropdown; every fit is trained once, up front.

    Building the widget trains the whole sweep (5 batched trainings of 5 activations × 3 seeds,
    a few seconds the first time; instant after the lesson's own sweep), so moving a control
    only redraws.
    """
    s = SETUP
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
            description=tr("activation"),
        ),
    }
    view = WidthView(controls["ratio"].value, controls["act"].value)
    return InteractivePlot(controls, view, title=tr("How wide should the FFN be?"))
