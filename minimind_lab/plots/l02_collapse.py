"""Lesson 02's pictures: a grid warped by a network, decision regions, loss curves, rank.

Each function takes computed results (from ``minimind_lab.collapse``) and returns a ``Figure``;
the multi-panel ones accept ``axes`` to draw into an existing figure (the widget does).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import contourpy
import numpy as np
from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.collections import Collection, PathCollection
from matplotlib.figure import Figure
from matplotlib.image import AxesImage
from matplotlib.lines import Line2D
from matplotlib.path import Path
from torch import Tensor

from ..i18n import tr, tr_noop
from ..lessons.l02_collapse import FLAT_TOLERANCE, Dataset2D, DecisionRegions
from .style import DIVERGING_CMAP, PALETTE, axes_or_new, finish, new_figure, series_style

__all__ = [
    "CollapsePanels",
    "draw_decision_regions",
    "draw_warped_grid",
    "new_collapse_panels",
    "plot_decision_regions",
    "plot_loss_curves",
    "plot_rank_vs_width",
    "plot_warped_grids",
    "update_collapse_panels",
]


_LINE_COLORS = (PALETTE[0], PALETTE[4])  # lines along x, lines along y
_CLASS_COLORS = (PALETTE[1], PALETTE[3])  # class 0, class 1 (match the PuOr ends)
_CLASS_MARKERS = ("o", "^")
#: How the class-1 probability is shown behind the points.
_REGION_IMAGE = {
    "origin": "lower",
    "cmap": DIVERGING_CMAP,
    "vmin": 0,
    "vmax": 1,
    "alpha": 0.35,
    "interpolation": "bilinear",
    "aspect": "auto",
}
#: Panel names other than activation names that the lesson and its figure pass; drawn translated.
_PANEL_LABELS = (tr_noop("input grid"),)
#: The default titles of ``plot_warped_grids`` and ``plot_decision_regions``, drawn translated.
WARPED_GRIDS_TITLE = tr_noop(
    "A linear map keeps lines straight; every activation bends them, ReLU "
    "flattens regions, GELU and SiLU fold the plane over (black)"
)
DECISION_REGIONS_TITLE = tr_noop(
    "Without an activation the boundary is one straight line; with one it winds between the arms"
)


def _axes_for(count: int, axes: Sequence[Axes] | None, panel: tuple[float, float]):
    if axes is None:
        fig, axes = new_figure(1, count, panel_size=panel)
        fig.set_layout_engine("compressed")  # square panels: keeps titles inside the figure
        return fig, axes
    axes = list(axes)
    if len(axes) != count:
        raise ValueError(f"need {count} axes, one per panel, got {len(axes)}")
    return axes[0].figure, axes


def _display_name(name: str) -> str:
    if name == "none":
        return tr("no activation (linear)")
    return tr(name) if name in _PANEL_LABELS else name  # activation names stay as written


def _suptitle(fig: Figure, title: str | None, default: str) -> None:
    """``title`` above all panels; the default one in the current language, a caller's own as
    given."""
    if title:
        fig.suptitle(tr(title) if title == default else title, fontsize=11)


def draw_warped_grid(
    ax: Axes, lines: Tensor, title: str | None = None, area_scale: Tensor | None = None
) -> Axes:
    """Draw ``lines`` (``(2L, P, 2)``, from ``grid_lines``/``warp_grid``) on ``ax``.

    The first half (lines that ran along x) is blue, the second half (along y) vermillion, so a
    fold or a cut shows as lines of one colour crossing or piling up. ``area_scale``: ``(2L, P)``
    from ``area_scale`` at the same points, optional; points where it is below
    ``-FLAT_TOLERANCE`` (the map turned the plane over: a fold) are marked with black dots.
    """
    if lines.dim() != 3 or lines.shape[-1] != 2:
        raise ValueError(f"lines must have shape (lines, points, 2), got {tuple(lines.shape)}")
    if area_scale is not None and area_scale.shape != lines.shape[:-1]:
        raise ValueError(
            f"area_scale must have shape {tuple(lines.shape[:-1])} (one value per point), got "
            f"{tuple(area_scale.shape)}"
        )
    half = lines.shape[0] // 2
    data = lines.detach().cpu().float()
    for k, line in enumerate(data):
        ax.plot(line[:, 0], line[:, 1], color=_LINE_COLORS[k >= half], linewidth=0.9, alpha=0.85)
    if area_scale is not None:
        points = _folded_points(data, area_scale)
        if len(points):
            _folded_scatter(ax, points)
            _folded_legend(ax)
    ax.set_aspect("equal", adjustable="datalim")
    finish(ax, title=title, xlabel=tr("first coordinate"), ylabel=tr("second coordinate"))
    return ax


def _folded_points(lines: Tensor, area_scale: Tensor) -> Tensor:
    """The points of ``lines`` (``(2L, P, 2)``) where ``area_scale`` (``(2L, P)``) says the map
    turned the plane over: ``(F, 2)``."""
    folded = (area_scale.detach().cpu() < -FLAT_TOLERANCE).reshape(-1)
    return lines.reshape(-1, 2)[folded]


def _folded_scatter(ax: Axes, points: Tensor) -> PathCollection:
    return ax.scatter(
        points[:, 0], points[:, 1], s=1, color="black", alpha=0.6, zorder=3, label=tr("folded")
    )


def _folded_legend(ax: Axes) -> None:
    ax.legend(fontsize=8, frameon=False, loc="upper right", markerscale=3)


def plot_warped_grids(
    grids: Mapping[str, Tensor],
    axes: Sequence[Axes] | None = None,
    title: str | None = WARPED_GRIDS_TITLE,
    area_scales: Mapping[str, Tensor] | None = None,
) -> Figure:
    """One panel per entry of ``grids`` (name → warped lines ``(2L, P, 2)``), left to right.

    Names are activation names ("none" reads as "no activation (linear)") or any label, e.g.
    "input grid" for the lines before the map. ``area_scales`` (name → ``(2L, P)`` signed area
    scale at the input points, from ``area_scale``), optional: a panel with one marks its folded
    points and says in its title what share of the points are folded and flattened
    (``|scale| ≤ FLAT_TOLERANCE``). ``title`` goes above all panels.
    """
    if not grids:
        raise ValueError("grids is empty; expected at least one name → lines entry")
    fig, axes = _axes_for(len(grids), axes, (3.2, 3.2))
    for ax, (name, lines) in zip(axes, grids.items(), strict=True):
        scale = None if area_scales is None else area_scales.get(name)
        panel_title = _display_name(name)
        if scale is not None:
            folded = (scale < -FLAT_TOLERANCE).float().mean().item()
            flat = (scale.abs() <= FLAT_TOLERANCE).float().mean().item()
            panel_title = tr(
                "{name}\nfolded {folded:.0%}, flattened {flat:.0%}",
                name=panel_title,
                folded=folded,
                flat=flat,
            )
        draw_warped_grid(ax, lines, title=panel_title, area_scale=scale)
    _suptitle(fig, title, WARPED_GRIDS_TITLE)
    return fig


def draw_decision_regions(
    ax: Axes,
    regions: DecisionRegions,
    data: Dataset2D,
    title: str | None = None,
) -> Axes:
    """Class-1 probability as a background image, the 0.5 boundary, and the data points."""
    prob = regions.prob.detach().cpu().float().numpy()
    xs, ys = regions.xs.cpu(), regions.ys.cpu()
    extent = _extent(regions)
    ax.imshow(prob, extent=extent, **_REGION_IMAGE)
    if prob.min() < 0.5 < prob.max():
        ax.contour(xs.numpy(), ys.numpy(), prob, levels=[0.5], colors="black", linewidths=1.0)
    _class_scatters(ax, data)
    _finish_regions(ax, extent, title)
    return ax


def _extent(regions: DecisionRegions) -> tuple[float, float, float, float]:
    xs, ys = regions.xs.cpu(), regions.ys.cpu()
    return (float(xs[0]), float(xs[-1]), float(ys[0]), float(ys[-1]))


def _class_scatters(ax: Axes, data: Dataset2D) -> tuple[PathCollection, PathCollection]:
    points = data.x.cpu()
    scatters = []
    for label in (0, 1):
        mask = data.y.cpu() == label
        scatters.append(
            ax.scatter(
                points[mask, 0],
                points[mask, 1],
                s=9,
                color=_CLASS_COLORS[label],
                marker=_CLASS_MARKERS[label],
                edgecolors="black",
                linewidths=0.3,
                label=tr("class {label}", label=label),
            )
        )
    return scatters[0], scatters[1]


def _finish_regions(ax: Axes, extent: tuple[float, float, float, float], title: str | None) -> None:
    ax.set_xlim(extent[0], extent[1])
    ax.set_ylim(extent[2], extent[3])
    ax.set_aspect("equal")
    finish(ax, title=title, xlabel="x₁", ylabel="x₂", grid=False)


def plot_decision_regions(
    regions: Mapping[str, DecisionRegions],
    data: Dataset2D,
    accuracies: Mapping[str, float] | None = None,
    axes: Sequence[Axes] | None = None,
    title: str | None = DECISION_REGIONS_TITLE,
) -> Figure:
    """One panel per trained model (name → ``decision_regions`` result), over the same ``data``.

    ``accuracies`` (name → fraction) goes into each panel's title when given; ``title`` above all
    panels.
    """
    if not regions:
        raise ValueError("regions is empty; expected at least one name → DecisionRegions entry")
    fig, axes = _axes_for(len(regions), axes, (3.2, 3.2))
    for ax, (name, region) in zip(axes, regions.items(), strict=True):
        panel_title = _display_name(name)
        if accuracies is not None and name in accuracies:
            panel_title = tr(
                "{name}: {accuracy:.1%} correct", name=panel_title, accuracy=accuracies[name]
            )
        draw_decision_regions(ax, region, data, title=panel_title)
    _suptitle(fig, title, DECISION_REGIONS_TITLE)
    return fig


@dataclass(frozen=True)
class CollapsePanels:
    """The widget's two panels, built once (``new_collapse_panels``) and updated in place
    (``update_collapse_panels``): the warped grid (left) and the decision regions (right).

    They look like ``draw_warped_grid`` and ``draw_decision_regions`` drawn side by side.
    """

    figure: Figure
    grid_ax: Axes
    regions_ax: Axes
    lines: tuple[Line2D, ...]  # one per grid line, (2L,)
    folded: PathCollection  # the folded points, black
    image: AxesImage  # class-1 probability
    boundary: Collection  # the 0.5 contour
    points: tuple[PathCollection, PathCollection]  # the data, class 0 and class 1

    def changing_artists(self) -> list[Artist]:
        """What an update changes, in drawing order. Left: the grid's limits follow the warped
        lines, so its ticks and labels change too. Right: the limits stay; the image, the
        points and boundary on it, and the spines along its edges."""
        left, right = self.grid_ax, self.regions_ax
        return [
            left.xaxis,
            left.yaxis,
            *self.lines,
            *left.spines.values(),
            self.folded,
            left.get_legend(),
            left.title,
            self.image,
            *self.points,
            self.boundary,
            *right.spines.values(),
            right.title,
        ]


def new_collapse_panels(
    data: Dataset2D,
    line_count: int,
    extent: tuple[float, float, float, float],
    panel_size: tuple[float, float] = (3.4, 3.4),
) -> CollapsePanels:
    """Empty panels: ``line_count`` grid lines (``2L``, as many as ``grid_lines`` returns) on
    the left, decision regions over ``extent`` (``(x0, x1, y0, y1)``) with the points of
    ``data`` on the right."""
    fig, (left, right) = new_figure(1, 2, panel_size=panel_size)
    # The layout leaves titles' widths out, and the right title is wider than its square panel:
    # keep a margin on the right so that it is not cut off.
    fig.get_layout_engine().set(rect=(0, 0, 0.98, 1))
    half = line_count // 2
    lines = tuple(
        left.plot([], [], color=_LINE_COLORS[k >= half], linewidth=0.9, alpha=0.85)[0]
        for k in range(line_count)
    )
    folded = _folded_scatter(left, np.empty((0, 2)))
    _folded_legend(left)
    left.set_aspect("equal", adjustable="datalim")
    finish(left, xlabel=tr("first coordinate"), ylabel=tr("second coordinate"))
    image = right.imshow(np.full((2, 2), 0.5), extent=extent, **_REGION_IMAGE)
    # Drawn like ``Axes.contour``'s lines (a collection of paths); its paths change per update.
    boundary = Collection(facecolors="none", edgecolors="black", linewidths=1.0, zorder=2)
    right.add_collection(boundary, autolim=False)
    points = _class_scatters(right, data)
    _finish_regions(right, extent, None)
    return CollapsePanels(fig, left, right, lines, folded, image, boundary, points)


def _boundary_paths(regions: DecisionRegions) -> list[Path]:
    """The ``prob = 0.5`` contour of ``regions`` as paths, as ``Axes.contour`` traces it."""
    generator = contourpy.contour_generator(
        regions.xs.cpu().numpy(),
        regions.ys.cpu().numpy(),
        regions.prob.detach().cpu().float().numpy(),
        name="mpl2014",
        line_type=contourpy.LineType.SeparateCode,
    )
    vertices, codes = generator.create_contour(0.5)
    if not vertices:
        return []
    return [Path(np.concatenate(vertices), np.concatenate(codes))]


def update_collapse_panels(
    panels: CollapsePanels,
    warped: Tensor,
    area_scale: Tensor,
    regions: DecisionRegions,
    grid_title: str,
    regions_title: str,
) -> None:
    """Show ``warped`` lines (``(2L, P, 2)``) with their folded points (``area_scale``:
    ``(2L, P)``) on the left and ``regions`` (its grid must span the panels' extent) on the
    right, under the two titles."""
    if warped.dim() != 3 or warped.shape[0] != len(panels.lines) or warped.shape[-1] != 2:
        raise ValueError(
            f"warped must have shape ({len(panels.lines)}, points, 2), got {tuple(warped.shape)}"
        )
    if area_scale.shape != warped.shape[:-1]:
        raise ValueError(
            f"area_scale must have shape {tuple(warped.shape[:-1])}, got {tuple(area_scale.shape)}"
        )
    data = warped.detach().cpu().float()
    for line, points in zip(panels.lines, data.numpy(), strict=True):
        line.set_data(points[:, 0], points[:, 1])
    folded = _folded_points(data, area_scale)
    panels.folded.set_offsets(folded.numpy())
    panels.folded.set_visible(len(folded) > 0)
    panels.grid_ax.get_legend().set_visible(len(folded) > 0)
    left = panels.grid_ax
    left.relim()  # limits as a fresh axes would take them: data, margins, then equal aspect
    left.autoscale_view()
    left.apply_aspect()
    left.set_title(grid_title, fontsize=10)
    prob = regions.prob.detach().cpu().float().numpy()
    panels.image.set_data(prob)
    panels.boundary.set_paths(_boundary_paths(regions))
    panels.boundary.set_visible(bool(prob.min() < 0.5 < prob.max()))
    panels.regions_ax.set_title(regions_title, fontsize=10)


def plot_loss_curves(losses: Mapping[str, Sequence[float]], ax: Axes | None = None) -> Figure:
    """Training loss per step, one line per name (activation), on a log scale."""
    if not losses:
        raise ValueError("losses is empty; expected at least one name → loss history entry")
    fig, ax = axes_or_new(ax, (5.5, 3.4))
    for name, history in losses.items():
        style = series_style(name)
        ax.plot(
            range(1, len(history) + 1),
            list(history),
            color=style["color"],
            linestyle=style["linestyle"],
            label=_display_name(name),
        )
    ax.set_yscale("log")
    finish(
        ax,
        title=tr("Without an activation the loss stalls; with one it falls far below"),
        xlabel=tr("training step"),
        ylabel=tr("cross-entropy loss"),
        legend=True,
    )
    return fig


def plot_rank_vs_width(
    widths: Sequence[int], ranks: Sequence[int], hidden_size: int, ax: Axes | None = None
) -> Figure:
    """Rank of the collapsed ``hidden → width → hidden`` map against ``width``, with min(h, m)."""
    if len(widths) != len(ranks) or not widths:
        raise ValueError(
            f"widths and ranks must be non-empty and equally long, got "
            f"{len(widths)} and {len(ranks)}"
        )
    fig, ax = axes_or_new(ax, (5.0, 3.4))
    ax.plot(
        widths,
        [min(hidden_size, w) for w in widths],
        color="0.5",
        linestyle="--",
        label=f"min(h, m), h = {hidden_size}",
    )
    style = series_style(0)
    ax.plot(
        widths,
        list(ranks),
        color=style["color"],
        marker=style["marker"],
        linestyle="none",
        label=tr("measured rank"),
    )
    ax.set_xscale("log", base=2)
    ax.set_xticks(list(widths), [str(w) for w in widths])
    ax.minorticks_off()
    finish(
        ax,
        title=tr("Wider than h = {h} adds no rank", h=hidden_size),
        xlabel=tr("width m (log scale)"),
        ylabel=tr("rank of W₂·W₁"),
        legend=True,
    )
    return fig
