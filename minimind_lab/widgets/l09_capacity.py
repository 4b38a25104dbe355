"""Lesson 09's widget over the stored sweep: architecture and exposures → the capacity line and
the accuracy curves."""

from __future__ import annotations

from functools import lru_cache

import ipywidgets as widgets

from ..i18n import tr
from ..lessons.l09_capacity import ARCHITECTURE_LABELS, ARCHITECTURES, Point, load_sweep
from ..lessons.l09_capacity import sweep_points as _sweep_points
from ..plots.l09_capacity import CapacityPanels, new_capacity_panels, update_capacity_panels
from .base import WIDGET_DPI, Blitter, DrawResult, InteractivePlot, register_widget, require_choice

__all__ = ["CapacityView", "capacity_summary", "capacity_widget", "stored_points"]


@lru_cache(maxsize=1)
def _stored() -> tuple[tuple[Point, ...], float]:
    record = load_sweep()
    return tuple(_sweep_points(record["rows"])), float(record["table_bits"])


def stored_points() -> tuple[list[Point], float]:
    """The stored sweep's points (a new list each call) and the table's bits."""
    points, table_bits = _stored()
    return list(points), table_bits


def capacity_summary(points: list[Point], architecture: str, exposures: int) -> str:
    """One line per hidden size: parameters, bits held (seed range), bits per parameter."""
    require_choice("architecture", architecture, ARCHITECTURES)
    require_choice("exposures", exposures, sorted({p.exposures for p in points}))
    at = sorted(
        (p for p in points if p.architecture == architecture and p.exposures == exposures),
        key=lambda p: p.hidden_size,
    )
    parts = []
    for p in at:
        low, high = min(p.bits), max(p.bits)
        per = sum(p.bits_per_param()) / len(p.bits)
        parts.append(
            tr(
                "h = {h}: {params:,} parameters ({rest:,} outside the embedding), "
                "{low:,.0f}–{high:,.0f} bits, <b>{per:.2f} bits/parameter</b>",
                h=p.hidden_size,
                params=p.params,
                rest=p.non_embedding_params,
                low=low,
                high=high,
                per=per,
            )
        )
    head = tr(
        "{label}, {exposures} exposures: ",
        label=ARCHITECTURE_LABELS[architecture],
        exposures=exposures,
    )
    return head + tr("; ").join(parts)


class CapacityView:
    """One figure for the widget's life; a redraw sets the chosen architecture's data and
    renders only those artists (``Blitter``). Call it with the control values."""

    def __init__(self) -> None:
        self.points, self.table_bits = stored_points()
        self.panels: CapacityPanels = new_capacity_panels(
            self.points, self.table_bits, dpi=WIDGET_DPI
        )
        self.figure = self.panels.figure
        self.blitter = Blitter(self.figure, self.panels.dynamic)

    def __call__(self, architecture: str, exposures: int) -> DrawResult:
        """``(PNG bytes, summary html)``; a value outside the stored sweep raises ``ValueError``."""
        html = capacity_summary(self.points, architecture, exposures)
        update_capacity_panels(self.panels, self.points, architecture, exposures)
        return self.blitter.png(), html


@register_widget("capacity_sweep", lesson="09")
def capacity_widget() -> InteractivePlot:
    """Architecture and exposures per fact → bits held against parameters, and accuracy."""
    view = CapacityView()
    levels = sorted({p.exposures for p in view.points})
    controls = {
        "architecture": widgets.Dropdown(
            options=[(ARCHITECTURE_LABELS[a], a) for a in ARCHITECTURES],
            value="full",
            description=tr("model"),
        ),
        "exposures": widgets.Dropdown(
            options=levels,
            value=1000 if 1000 in levels else levels[-1],
            description=tr("exposures"),
        ),
    }
    return InteractivePlot(controls, view, title=tr("Lesson 09: how much each architecture holds"))
