"""Pictures for lesson 09: bits held against parameters (the capacity line), accuracy per fact
against exposures, per architecture."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from ..i18n import tr
from ..lessons.l09_capacity import ARCHITECTURE_LABELS, ARCHITECTURES, Point
from .style import PALETTE, axes_or_new, finish, new_figure, series_style

__all__ = [
    "CapacityPanels",
    "PAPER_BITS_PER_PARAM",
    "architecture_style",
    "new_capacity_panels",
    "plot_accuracy_vs_exposures",
    "plot_capacity",
    "plot_capacity_panels",
    "update_capacity_panels",
]

#: Allen-Zhu & Li (2024): about 2 bits per parameter at about 1000 exposures per fact.
PAPER_BITS_PER_PARAM = 2.0
_STYLE_INDEX = {
    "full": 1,
    "no_mlp": 0,
    "no_mlp_equal": 5,
    "plain_equal": 2,
    "full_x2": 3,
    "no_mlp_x2": 4,
}


def architecture_style(architecture: str) -> dict[str, object]:
    """Colour, line style and marker of one architecture, the same in every panel."""
    if architecture not in _STYLE_INDEX:
        raise ValueError(f"unknown architecture {architecture!r}; expected one of {ARCHITECTURES}")
    return series_style(_STYLE_INDEX[architecture])


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values)


def _check_points(points: Sequence[Point]) -> None:
    if not points:
        raise ValueError("points must hold at least one sweep point, got none")


def _capacity_references(ax: Axes, most: float, table_bits: float) -> None:
    """The capacity panel's frame: the paper's 2 bits/parameter line, the table's bits, and
    fixed limits (parameters up to 1.1 × ``most``, bits up to 1.08 × the table)."""
    ax.plot(
        [0, most * 1.1],
        [0, PAPER_BITS_PER_PARAM * most * 1.1],
        color=PALETTE[6],
        linestyle=":",
        linewidth=1,
        label=tr("2 bits/parameter (paper)"),
    )
    ax.axhline(table_bits, color="0.6", linewidth=1, label=tr("the whole table"))
    ax.set_xlim(0, most * 1.1)
    ax.set_ylim(0, table_bits * 1.08)


def plot_capacity(
    points: Sequence[Point],
    exposures: int,
    table_bits: float,
    architectures: Sequence[str] = ARCHITECTURES,
    ax: Axes | None = None,
    legend: str | None = "lower right",
) -> Figure:
    """Bits held against all parameters at ``exposures``: one line per architecture (mean over
    seeds, each seed a dot), the paper's 2 bits/parameter and the table's bits for reference.
    ``legend``: where to put the legend (a matplotlib ``loc``), ``None`` for none."""
    _check_points(points)
    chosen = [p for p in points if p.exposures == exposures]
    if not chosen:
        known = sorted({p.exposures for p in points})
        raise ValueError(f"no sweep points at {exposures} exposures; stored: {known}")
    fig, ax = axes_or_new(ax)
    most = max(p.params for p in chosen)
    _capacity_references(ax, most, table_bits)
    for arch in architectures:
        mine = sorted((p for p in chosen if p.architecture == arch), key=lambda p: p.params)
        if not mine:
            continue
        style = architecture_style(arch)
        x = [p.params for p in mine]
        ax.plot(x, [_mean(p.bits) for p in mine], label=ARCHITECTURE_LABELS[arch], **style)
        for p in mine:
            ax.scatter([p.params] * len(p.bits), p.bits, s=10, color=style["color"], alpha=0.5)
    if legend is not None:
        ax.legend(fontsize=6.5, loc=legend)
    full = [p for p in chosen if p.architecture == "full"]
    best = max(_mean(p.bits) / p.params for p in full) if full else None
    finish(
        ax,
        title=tr("{exposures} exposures per fact", exposures=exposures)
        + (
            tr(": full block up to {best:.1f} bits/parameter", best=best)
            if best is not None
            else ""
        ),
        xlabel=tr("parameters (embedding included)"),
        ylabel=tr("bits held"),
    )
    return fig


def plot_capacity_panels(
    points: Sequence[Point], table_bits: float, exposure_levels: Sequence[int] = (100, 1000)
) -> Figure:
    """``plot_capacity`` side by side for each exposure level, on one y scale."""
    fig, axes = new_figure(1, len(exposure_levels))
    for i, (ax, e) in enumerate(zip(axes, exposure_levels, strict=True)):
        # one legend, where the first panel has room: above its lines, left of the paper's
        plot_capacity(points, e, table_bits, ax=ax, legend="upper left" if i == 0 else None)
    return fig


def plot_accuracy_vs_exposures(
    points: Sequence[Point],
    hidden_size: int,
    architectures: Sequence[str] = ARCHITECTURES,
    ax: Axes | None = None,
    title: str | None = None,
) -> Figure:
    """Share of facts answered right (top-1) against exposures per fact, at one hidden size:
    one line per architecture (mean over seeds), the seeds' range shaded."""
    _check_points(points)
    chosen = [p for p in points if p.hidden_size == hidden_size]
    if not chosen:
        known = sorted({p.hidden_size for p in points})
        raise ValueError(f"no sweep points at hidden size {hidden_size}; stored: {known}")
    fig, ax = axes_or_new(ax)
    for arch in architectures:
        mine = sorted((p for p in chosen if p.architecture == arch), key=lambda p: p.exposures)
        if not mine:
            continue
        style = architecture_style(arch)
        x = [p.exposures for p in mine]
        ax.plot(x, [_mean(p.accuracy) for p in mine], label=ARCHITECTURE_LABELS[arch], **style)
        low, high = [min(p.accuracy) for p in mine], [max(p.accuracy) for p in mine]
        ax.fill_between(x, low, high, color=style["color"], alpha=0.15, linewidth=0)
    ax.set_xscale("log")
    ax.set_ylim(0, 1)
    ax.legend(fontsize=7, loc="upper left")
    finish(
        ax,
        title=title or tr("h = {hidden_size}: accuracy per fact", hidden_size=hidden_size),
        xlabel=tr("exposures per fact"),
        ylabel=tr("facts answered right"),
    )
    return fig


@dataclass
class CapacityPanels:
    """The widget's figure: capacity line (left), accuracy against exposures (right).

    ``dynamic``: the artists a redraw changes (the chosen architecture's lines and dots, both
    titles); everything else is drawn once.
    """

    figure: Figure
    capacity_ax: Axes
    accuracy_ax: Axes
    capacity_line: Line2D
    capacity_dots: Line2D
    accuracy_lines: list[Line2D]
    dynamic: list[Artist]


def new_capacity_panels(
    points: Sequence[Point], table_bits: float, dpi: float | None = None
) -> CapacityPanels:
    """Both panels with fixed limits for every architecture and exposure level of ``points``;
    the other architectures drawn faint for comparison, the chosen one set by
    ``update_capacity_panels``."""
    _check_points(points)
    kwargs = {} if dpi is None else {"dpi": dpi}
    fig, (left, right) = new_figure(1, 2, **kwargs)
    most = max(p.params for p in points)
    _capacity_references(left, most, table_bits)
    (line,) = left.plot([], [], linewidth=2, label=tr("chosen"))
    (dots,) = left.plot([], [], linestyle="none", marker="o", markersize=3, alpha=0.6)
    left.legend(fontsize=6.5, loc="lower right")
    finish(left, title=" ", xlabel=tr("parameters (embedding included)"), ylabel=tr("bits held"))
    sizes = sorted({p.hidden_size for p in points})
    exposures = sorted({p.exposures for p in points})
    lines = []
    for i, h in enumerate(sizes):
        (acc,) = right.plot(
            [], [], color=PALETTE[i % 7], marker="o", markersize=3, label=f"h = {h}"
        )
        lines.append(acc)
    right.set_xscale("log")
    right.set_xlim(min(exposures) * 0.8, max(exposures) * 1.25)
    right.set_ylim(0, 1)
    right.legend(fontsize=7, loc="upper left")
    finish(right, title=" ", xlabel=tr("exposures per fact"), ylabel=tr("facts answered right"))
    dynamic: list[Artist] = [line, dots, *lines, left.title, right.title]
    return CapacityPanels(fig, left, right, line, dots, lines, dynamic)


def update_capacity_panels(
    panels: CapacityPanels, points: Sequence[Point], architecture: str, exposures: int
) -> None:
    """Show ``architecture``: its capacity line at ``exposures`` and its accuracy curves."""
    style = architecture_style(architecture)
    at = sorted(
        (p for p in points if p.architecture == architecture and p.exposures == exposures),
        key=lambda p: p.params,
    )
    if not at:
        raise ValueError(f"no sweep points for {architecture!r} at {exposures} exposures")
    panels.capacity_line.set_data([p.params for p in at], [_mean(p.bits) for p in at])
    panels.capacity_line.set_color(style["color"])
    panels.capacity_line.set_marker(style["marker"])
    xs = [p.params for p in at for _ in p.bits]
    panels.capacity_dots.set_data(xs, [b for p in at for b in p.bits])
    panels.capacity_dots.set_color(style["color"])
    best = max(_mean(p.bits) / p.params for p in at)
    panels.capacity_ax.set_title(
        tr("{exposures} exposures: up to {best:.2f} bits/parameter", exposures=exposures, best=best)
    )
    sizes = sorted({p.hidden_size for p in points})
    for line, h in zip(panels.accuracy_lines, sizes, strict=True):
        mine = sorted(
            (p for p in points if p.architecture == architecture and p.hidden_size == h),
            key=lambda p: p.exposures,
        )
        line.set_data([p.exposures for p in mine], [_mean(p.accuracy) for p in mine])
    panels.accuracy_ax.set_title(ARCHITECTURE_LABELS[architecture], fontsize=9)
