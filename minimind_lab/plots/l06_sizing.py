"""Lesson 06's pictures: the 8/3 parity of plain and gated FFNs, and what rounding costs."""

from __future__ import annotations

from collections.abc import Sequence

from matplotlib.axes import Axes
from matplotlib.figure import Figure

from ..lessons.l06_sizing import ParameterParity, WidthBudget
from .style import MLP_COLOR, PALETTE, axes_or_new, finish, new_figure

__all__ = [
    "plot_model_budgets",
    "plot_parameter_parity",
    "plot_width_budget",
]


_FAMILY_MARKERS = ("o", "s", "^", "D", "v", "P")


def _family(name: str) -> str:
    """ "MiniMind2-Small" → "MiniMind2", "LLaMA-1 7B" → "LLaMA-1", "Llama 3 70B" → "Llama 3"."""
    if name.startswith("MiniMind"):
        return name.split("-")[0]
    head, _, tail = name.rpartition(" ")
    return head if head and tail.endswith("B") else name


def plot_parameter_parity(parity: ParameterParity, ax: Axes | None = None) -> Figure:
    """Counted parameters per ``h²`` against ``m/h``: the plain and the gated line, and where the
    gated one reaches the plain FFN's budget at ``m = 4h`` (``parity.crossing``).

    Real models (``parity.models``) sit on the gated line at their published ``m/h``, one marker
    per family.
    """
    fig, ax = axes_or_new(ax, (6.0, 4.0))
    ax.plot(
        parity.ratios,
        parity.plain,
        color=PALETTE[0],
        linestyle="--",
        linewidth=1.6,
        label="PlainFFN, counted: 2 matrices",
    )
    ax.plot(
        parity.ratios,
        parity.gated,
        color=MLP_COLOR,
        linewidth=2.0,
        label="GatedFFN, counted: 3 matrices",
    )
    budget = parity.plain_at_4h
    ax.axhline(
        budget,
        color="0.4",
        linestyle=":",
        linewidth=1.2,
        label=f"budget of the plain FFN at m = 4h: {budget:g}h²",
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
        f"parity: m/h = {parity.crossing:.3f}",
        (parity.crossing, budget),
        xytext=(parity.crossing + 0.3, budget - 5.5),
        arrowprops={"arrowstyle": "->", "color": "0.3"},
        fontsize=9,
    )
    ax.annotate(
        "plain at m = 4h",
        (4.0, budget),
        xytext=(4.5, budget - 3.0),
        arrowprops={"arrowstyle": "->", "color": "0.3"},
        fontsize=9,
    )
    families: dict[str, list[tuple[float, float]]] = {}
    for name, ratio, to_plain in parity.models:
        families.setdefault(_family(name), []).append((ratio, 8.0 * to_plain))
    for index, (family, points) in enumerate(families.items()):
        xs, ys = zip(*points, strict=True)
        ax.scatter(
            xs,
            ys,
            marker=_FAMILY_MARKERS[index % len(_FAMILY_MARKERS)],
            s=40,
            color=PALETTE[(index + 2) % 7],
            edgecolors="black",
            linewidths=0.5,
            zorder=5,
            label=f"{family} (published widths)",
        )
    ax.set_xlim(0, max(parity.ratios))
    ax.set_ylim(0, max(parity.gated[-1], parity.plain_at_4h) * 1.05)
    finish(
        ax,
        title=f"Counted at h = {parity.hidden_size}: 3 matrices at m = {parity.crossing:.3f}h "
        "weigh\nwhat 2 matrices at m = 4h do",
        xlabel="width ratio m / h",
        ylabel="FFN parameters / h²",
        legend=True,
    )
    return fig


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
        title="Rounding costs a few percent at most; ×1.3 and π are choices",
        xlabel="gated FFN parameters above 8h² (%)",
    )
    return fig


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
    if len(hidden_sizes) != len(overheads):
        raise ValueError(
            f"hidden_sizes has {len(hidden_sizes)} entries but overheads has {len(overheads)}; "
            "expected one overhead per hidden size"
        )
    if axes is None:
        fig, axes = new_figure(1, 2)
    else:
        fig = axes[0].figure
    bars, curve = axes[0], axes[1]
    h = budget.hidden_size
    labels = ["plain\nm = 4h", "gated\nunrounded", "gated\nrounded"]
    values = [
        budget.plain_parameters / h**2,
        3 * budget.unrounded_width / h,
        budget.gated_parameters / h**2,
    ]
    colors = [PALETTE[0], PALETTE[7], MLP_COLOR]
    bars.bar(range(3), values, color=colors, edgecolor="black", linewidth=0.5)
    for x, value in enumerate(values):
        bars.annotate(
            f"{value:.3f}",
            (x, value),
            xytext=(0, 2),
            textcoords="offset points",
            ha="center",
            fontsize=8,
        )
    bars.set_xticks(range(3), labels, fontsize=8)
    bars.set_ylim(0, max(values) * 1.18)
    finish(
        bars,
        title=f"h = {h}: m = {budget.width}, {budget.gated_to_plain:.3f}× the plain FFN",
        ylabel="parameters / h²",
    )
    curve.plot(list(hidden_sizes), [100.0 * v for v in overheads], color=MLP_COLOR, linewidth=1.2)
    curve.plot([h], [100.0 * budget.rounding_overhead], marker="o", color="black", markersize=7)
    overhead = 100 * budget.rounding_overhead
    title = f"Rounding up to a multiple of {budget.rule.multiple_of} costs {overhead:.2f}% here"
    finish(curve, title=title, xlabel="hidden size h", ylabel="extra gated parameters (%)")
    return fig
