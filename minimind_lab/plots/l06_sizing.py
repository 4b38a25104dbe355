"""Lesson 06's pictures: the 8/3 parity of plain and gated FFNs, and what rounding costs."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Rectangle
from matplotlib.text import Annotation
from matplotlib.ticker import MaxNLocator

from ..i18n import tr, tr_noop
from ..lessons.l06_sizing import ParameterParity, WidthBudget
from .style import MLP_COLOR, PALETTE, axes_or_new, finish, lay_out_once, new_figure

__all__ = [
    "WidthBudgetPanels",
    "lay_out_width_budget_once",
    "new_width_budget_panels",
    "plot_model_budgets",
    "plot_parameter_parity",
    "plot_width_budget",
    "update_width_budget_panels",
]


_FAMILY_MARKERS = ("o", "s", "^", "D", "v", "P")


def _family(name: str) -> str:
    """ "MiniMind2-Small" → "MiniMind2", "LLaMA-1 7B" → "LLaMA-1", "Llama 3 70B" → "Llama 3"."""
    if name.startswith("MiniMind"):
        return name.split("-")[0]
    head, _, tail = name.rpartition(" ")
    return head if head and tail.endswith("B") else name


def _draw_families(ax: Axes, families: dict[str, list[tuple[float, float]]], scale: float) -> None:
    """One marker style per family, the first family's markers larger and drawn under the others,
    so that models at the same point (MiniMind2-MoE and LLaMA-1 13B, both at m/h = 2.7) stay
    visible: a small marker inside a larger one."""
    for index, (family, points) in enumerate(families.items()):
        if not points:  # a family outside this view keeps its style index
            continue
        xs, ys = zip(*points, strict=True)
        ax.scatter(
            xs,
            ys,
            marker=_FAMILY_MARKERS[index % len(_FAMILY_MARKERS)],
            s=scale * (2.2 if index == 0 else 1.0),
            color=PALETTE[(index + 2) % 7],
            edgecolors="black",
            linewidths=0.5,
            zorder=5 if index == 0 else 6,
            label=tr("{family} (published widths)", family=family),
        )


def plot_parameter_parity(parity: ParameterParity, ax: Axes | None = None) -> Figure:
    """Counted parameters per ``h²`` against ``m/h``: the plain and the gated line, and where the
    gated one reaches the plain FFN's budget at ``m = 4h`` (``parity.crossing``).

    Real models (``parity.models``) sit on the gated line at their published ``m/h``, one marker
    per family. When two or more of them lie within 0.15 of the crossing, an inset (lower right)
    zooms in on them, so that markers the crossing's ring would cover stay readable.
    """
    fig, ax = axes_or_new(ax, (6.0, 4.0))
    ax.plot(
        parity.ratios,
        parity.plain,
        color=PALETTE[0],
        linestyle="--",
        linewidth=1.6,
        label=tr("PlainFFN, counted: 2 matrices"),
    )
    ax.plot(
        parity.ratios,
        parity.gated,
        color=MLP_COLOR,
        linewidth=2.0,
        label=tr("GatedFFN, counted: 3 matrices"),
    )
    budget = parity.plain_at_4h
    ax.axhline(
        budget,
        color="0.4",
        linestyle=":",
        linewidth=1.2,
        label=tr("budget of the plain FFN at m = 4h: {budget:g}h²", budget=budget),
    )
    ax.plot([4.0], [budget], marker="o", color=PALETTE[0], markersize=7)
    ax.plot(
        [parity.crossing],
        [budget],
        marker="o",
        color="black",
        markersize=16,
        fillstyle="none",
        markeredgewidth=1.2,
        zorder=4,
    )
    ax.annotate(
        tr("parity: m/h = {crossing:.3f}", crossing=parity.crossing),
        (parity.crossing, budget),
        xytext=(parity.crossing - 1.9, budget + 1.2),
        arrowprops={"arrowstyle": "->", "color": "0.3", "shrinkB": 9},
        fontsize=9,
    )
    ax.annotate(
        tr("plain at m = 4h"),
        (4.0, budget),
        xytext=(4.5, budget + 3.2),
        arrowprops={"arrowstyle": "->", "color": "0.3"},
        fontsize=9,
    )
    families: dict[str, list[tuple[float, float]]] = {}
    for name, ratio, to_plain in parity.models:
        families.setdefault(_family(name), []).append((ratio, 8.0 * to_plain))
    _draw_families(ax, families, scale=30)
    ax.set_xlim(0, max(parity.ratios))
    ax.set_ylim(0, max(parity.gated[-1], parity.plain_at_4h) * 1.05)
    finish(
        ax,
        title=tr(
            "Counted at h = {hidden}: 3 matrices at m = {crossing:.3f}h weigh\n"
            "what 2 matrices at m = 4h do",
            hidden=parity.hidden_size,
            crossing=parity.crossing,
        ),
        xlabel=tr("width ratio m / h"),
        ylabel=tr("FFN parameters / h²"),
        legend=True,
    )
    near = [ratio for _, ratio, _ in parity.models if abs(ratio - parity.crossing) < 0.15]
    if len(near) >= 2:
        _zoom_on_parity(ax, parity, families, near)
    return fig


def _zoom_on_parity(
    ax: Axes,
    parity: ParameterParity,
    families: dict[str, list[tuple[float, float]]],
    near: Sequence[float],
) -> None:
    """An inset in ``ax``'s lower right: the gated line, the budget and the models at ``near``."""
    inset = ax.inset_axes([0.67, 0.1, 0.32, 0.26])
    low = min(min(near), parity.crossing) - 0.02
    high = max(max(near), parity.crossing) + 0.02
    inset.plot([low, high], [3 * low, 3 * high], color=MLP_COLOR, linewidth=1.6)
    inset.axhline(parity.plain_at_4h, color="0.4", linestyle=":", linewidth=1.0)
    inset.axvline(parity.crossing, color="black", linewidth=0.8, alpha=0.6)
    zoomed = {
        family: [(x, y) for x, y in points if low <= x <= high]
        for family, points in families.items()
    }
    _draw_families(inset, zoomed, scale=30)
    inset.set_xlim(low, high)
    inset.set_ylim(3 * low, 3 * high)
    inset.xaxis.set_major_locator(MaxNLocator(3))
    inset.yaxis.set_major_locator(MaxNLocator(3))
    inset.tick_params(labelsize=7)
    inset.set_title(tr("zoom on the ring"), fontsize=8)
    inset.grid(True, alpha=0.3, linewidth=0.6)


def plot_model_budgets(parity: ParameterParity, ax: Axes | None = None) -> Figure:
    """Each real model's gated FFN against the plain 8h² budget, as a percentage over it."""
    if not parity.models:
        raise ValueError("parity.models is empty; pass published rows to parameter_parity")
    fig, ax = axes_or_new(ax, (6.0, 3.6))
    names = [name for name, _, _ in parity.models]
    excess = [100.0 * (to_plain - 1.0) for _, _, to_plain in parity.models]
    families = list(dict.fromkeys(_family(name) for name in names))
    colors = [PALETTE[(families.index(_family(name)) + 2) % 7] for name in names]
    positions = range(len(names))
    ax.barh(positions, excess, color=colors, edgecolor="black", linewidth=0.5)
    for y, value in zip(positions, excess, strict=True):
        ax.annotate(
            f"{value:+.1f}%",
            (value, y),
            xytext=(3, 0),
            textcoords="offset points",
            va="center",
            fontsize=8,
        )
    ax.set_yticks(list(positions), names, fontsize=8)
    ax.invert_yaxis()
    ax.axvline(0, color="0.3", linewidth=0.8)
    ax.set_xlim(min(0.0, min(excess)) - 1, max(excess) * 1.2 + 1)
    finish(
        ax,
        title=tr("Rounding costs these models a few percent at most; ×1.3 and π are choices"),
        xlabel=tr("gated FFN parameters above 8h² (%)"),
    )
    return fig


#: Categories of the left panel of ``plot_width_budget``, left to right (drawn with ``tr``).
_BUDGET_LABELS = (
    tr_noop("plain\nm = 4h"),
    tr_noop("gated\nunrounded"),
    tr_noop("gated\nrounded"),
)


def _budget_values(budget: WidthBudget) -> list[float]:
    """The three bars, in ``h²``: plain FFN at ``4h``, gated before and after rounding."""
    h = budget.hidden_size
    return [
        budget.plain_parameters / h**2,
        3 * budget.unrounded_width / h,
        budget.gated_parameters / h**2,
    ]


def _bars_title(budget: WidthBudget) -> str:
    h = budget.hidden_size
    return tr(
        "h = {h}: m = {width}, {ratio:.3f}× the plain FFN",
        h=h,
        width=budget.width,
        ratio=budget.gated_to_plain,
    )


def _overhead_title(budget: WidthBudget) -> str:
    overhead = 100 * budget.rounding_overhead
    return tr(
        "Rounding up to a multiple of {multiple_of} costs {overhead:.2f}% here",
        multiple_of=budget.rule.multiple_of,
        overhead=overhead,
    )


def _check_overheads(hidden_sizes: Sequence[int], overheads: Sequence[float]) -> None:
    if len(hidden_sizes) != len(overheads):
        raise ValueError(
            f"hidden_sizes has {len(hidden_sizes)} entries but overheads has {len(overheads)}; "
            "expected one overhead per hidden size"
        )


@dataclass(frozen=True)
class WidthBudgetPanels:
    """The artists of ``plot_width_budget``, kept so that ``update_width_budget_panels`` can
    show another budget on the same figure.

    ``bars``/``values``: the three bars and the numbers above them; ``curve``: the overhead
    against hidden size; ``marker``: the budget's own size on it.
    """

    figure: Figure
    bars_ax: Axes
    curve_ax: Axes
    bars: tuple[Rectangle, ...]
    values: tuple[Annotation, ...]
    curve: Line2D
    marker: Line2D

    @property
    def bar_gridlines(self) -> list[Line2D]:
        """The bar panel's vertical grid lines (part of its x axis), which a full draw paints
        over the bars."""
        return [tick.gridline for tick in self.bars_ax.xaxis.get_major_ticks()[: len(self.bars)]]

    @property
    def dynamic(self) -> list[Artist]:
        """Every artist an update may change, in the order a full draw paints them: per panel
        what lies under the y axis, the y axis (limits, ticks, grid), what lies over it, the
        spines, the texts. The x axes and their labels never change; the bar panel's vertical
        grid lines lie over the bars, so they are listed after them."""
        left, right = self.bars_ax, self.curve_ax
        return [
            *self.bars,
            *self.bar_gridlines,
            left.yaxis,
            *left.spines.values(),
            *self.values,
            left.title,
            right.yaxis,
            self.curve,
            self.marker,
            *right.spines.values(),
            right.title,
        ]


def new_width_budget_panels(
    budget: WidthBudget,
    hidden_sizes: Sequence[int],
    overheads: Sequence[float],
    axes: Sequence[Axes] | None = None,
) -> WidthBudgetPanels:
    """Draw ``plot_width_budget``'s picture and return its artists (see ``WidthBudgetPanels``)."""
    _check_overheads(hidden_sizes, overheads)
    if axes is None:
        fig, axes = new_figure(1, 2)
    else:
        fig = axes[0].figure
    bars_ax, curve_ax = axes[0], axes[1]
    values = _budget_values(budget)
    colors = [PALETTE[0], PALETTE[7], MLP_COLOR]
    bars = bars_ax.bar(range(3), values, color=colors, edgecolor="black", linewidth=0.5)
    texts = tuple(
        bars_ax.annotate(
            f"{value:.3f}",
            (x, value),
            xytext=(0, 2),
            textcoords="offset points",
            ha="center",
            fontsize=8,
        )
        for x, value in enumerate(values)
    )
    bars_ax.set_xticks(range(3), [tr(label) for label in _BUDGET_LABELS], fontsize=8)
    bars_ax.set_ylim(0, max(values) * 1.18)
    finish(bars_ax, title=_bars_title(budget), ylabel=tr("parameters / h²"))
    h = budget.hidden_size
    (curve,) = curve_ax.plot(
        list(hidden_sizes), [100.0 * v for v in overheads], color=MLP_COLOR, linewidth=1.2
    )
    (marker,) = curve_ax.plot(
        [h], [100.0 * budget.rounding_overhead], marker="o", color="black", markersize=7
    )
    finish(
        curve_ax,
        title=_overhead_title(budget),
        xlabel=tr("hidden size h"),
        ylabel=tr("extra gated parameters (%)"),
    )
    return WidthBudgetPanels(fig, bars_ax, curve_ax, tuple(bars), texts, curve, marker)


def update_width_budget_panels(
    panels: WidthBudgetPanels,
    budget: WidthBudget,
    hidden_sizes: Sequence[int],
    overheads: Sequence[float],
) -> None:
    """Show ``budget`` and its rule's ``overheads`` in ``panels`` as ``plot_width_budget`` would
    draw them (the bar axis from 0 to 1.18 × the tallest bar, the curve's axis autoscaled)."""
    _check_overheads(hidden_sizes, overheads)
    values = _budget_values(budget)
    for x, (bar, text, value) in enumerate(zip(panels.bars, panels.values, values, strict=True)):
        bar.set_height(value)
        text.xy = (x, value)
        text.set_text(f"{value:.3f}")
    panels.bars_ax.set_ylim(0, max(values) * 1.18)
    panels.bars_ax.set_title(_bars_title(budget), fontsize=10)
    panels.curve.set_data(list(hidden_sizes), [100.0 * v for v in overheads])
    panels.marker.set_data([budget.hidden_size], [100.0 * budget.rounding_overhead])
    panels.curve_ax.relim()
    panels.curve_ax.autoscale_view()
    panels.curve_ax.set_title(_overhead_title(budget), fontsize=10)


def lay_out_width_budget_once(
    panels: WidthBudgetPanels,
    budgets: Iterable[WidthBudget],
    overhead_curves: Iterable[Sequence[float]],
) -> None:
    """Lay ``panels``' figure out once for a range of budgets and overhead curves, and keep it.

    The layout engine runs once with room, on each panel, for the widest y tick label it shows:
    the bar panel for any tallest bar from the lowest to the highest of ``budgets`` (so pass the
    extremes; heights between are sampled), the curve panel for each curve in
    ``overhead_curves`` (one overhead per hidden size the panels show). Then the engine is
    switched off and the y labels are pinned where they were placed. For a figure whose updates
    are drawn over one rendered background (a widget): the panels and their y labels stay put
    while the y limits and tick labels change.
    """
    tops = [max(_budget_values(budget)) * 1.18 for budget in budgets]
    bar_limits = [(0.0, float(top)) for top in np.geomspace(min(tops), max(tops), 100)]
    curve_ax, line, marker = panels.curve_ax, panels.curve, panels.marker
    shown, marked = line.get_data(), marker.get_data()
    curve_limits = []
    for overheads in overhead_curves:
        percent = [100.0 * v for v in overheads]
        line.set_ydata(percent)
        marker.set_data(shown[0][:1], percent[:1])  # the marker always sits on the curve
        curve_ax.relim()
        curve_ax.autoscale_view()
        curve_limits.append(curve_ax.get_ylim())
    line.set_data(*shown)
    marker.set_data(*marked)
    curve_ax.relim()
    curve_ax.autoscale_view()
    lay_out_once(panels.figure, {panels.bars_ax: bar_limits, curve_ax: curve_limits})


def plot_width_budget(
    budget: WidthBudget,
    hidden_sizes: Sequence[int],
    overheads: Sequence[float],
    axes: Sequence[Axes] | None = None,
) -> Figure:
    """Left: parameters of the plain 4h FFN and the gated FFN before/after rounding, in h² units.

    Right: rounding overhead (%) against hidden size for the same rule, ``budget``'s size marked.
    ``overheads[i]`` belongs to ``hidden_sizes[i]`` (see ``rounding_overheads``).
    """
    return new_width_budget_panels(budget, hidden_sizes, overheads, axes).figure
