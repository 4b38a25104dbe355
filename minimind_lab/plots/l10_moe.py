"""Pictures for lesson 10: kind overlap with its control, MoE routing and parameter counts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from dataclasses import field as dataclass_field

import numpy as np
from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.collections import QuadMesh
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle
from matplotlib.text import Text
from matplotlib.ticker import EngFormatter
from matplotlib.transforms import Transform

from ..i18n import tr, tr_noop
from ..lessons.l10_moe import SeedResult
from ..moe import Routing
from .style import (
    MARKERS,
    MLP_COLOR,
    PALETTE,
    SEQUENTIAL_CMAP,
    axes_or_new,
    finish,
    new_figure,
)

__all__ = [
    "MoEPanels",
    "new_moe_panels",
    "plot_kind_overlap",
    "plot_moe_parameter_counts",
    "plot_moe_routing",
    "update_moe_panels",
]

#: Colours of the two kinds of token pair, wherever same-kind and different-kind pairs are drawn.
SAME_KIND_COLOR = PALETTE[2]
DIFFERENT_KIND_COLOR = PALETTE[3]


def plot_kind_overlap(
    results: Sequence[SeedResult],
    chance: Sequence[float] | None = None,
    ax: Axes | None = None,
    panel_size: Sequence[float] = (5.2, 3.4),
) -> Figure:
    """Top-feature overlap of token pairs, raw inputs (control) beside the MLP's hidden layer.

    ``results`` come from ``kind_experiment``: one bar per representation and pair type (same
    kind, different kinds) at the mean over seeds, one dot per seed on top. ``chance``: the
    overlap of random sets (``chance_overlap``) for the raw inputs and for the hidden layer,
    drawn as a dashed line over each group.
    """
    if not results:
        raise ValueError("results is empty; expected the list kind_experiment returns")
    if chance is not None and len(chance) != 2:
        raise ValueError(f"chance must hold two values (raw, hidden), got {chance!r}")
    fig, ax = axes_or_new(ax, panel_size)
    groups = ((tr("raw inputs\n(control)"), "raw"),
              (tr("MLP hidden layer\nact(gate)·up"), "hidden"))  # fmt: skip
    pairs = ((tr("same kind"), "same", SAME_KIND_COLOR), (tr("different kinds"), "different",
                                                          DIFFERENT_KIND_COLOR))  # fmt: skip
    width = 0.36
    for g, (_, field) in enumerate(groups):
        for p, (label, side, color) in enumerate(pairs):
            values = [getattr(getattr(r, field), side) for r in results]
            x = g + (p - 0.5) * width
            ax.bar(x, sum(values) / len(values), width * 0.92, color=color, alpha=0.75,
                   label=label if g == 0 else None)  # fmt: skip
            ax.plot([x] * len(values), values, MARKERS[0], color="black", markersize=3,
                    linestyle="none", label=tr("one seed (of {n})", n=len(results)) if g == p == 0
                    else None)  # fmt: skip
        if chance is not None:
            ax.hlines(chance[g], g - width, g + width, colors="0.3", linestyles="--", linewidth=1,
                      label=tr("random sets (chance)") if g == 0 else None)  # fmt: skip
    ax.set_xticks(range(len(groups)), [name for name, _ in groups], fontsize=8)
    ax.set_ylim(0, 1)
    finish(
        ax,
        title=tr("Overlap of top features by kind: inputs vs the MLP's hidden layer"),
        ylabel=tr("Jaccard overlap of top-feature sets"),
        legend=True,
    )
    ax.grid(False, axis="x")
    return fig


def plot_moe_routing(
    routing: Routing,
    token_labels: Sequence[str] | None = None,
    ax: Axes | None = None,
    colorbar: bool = True,
) -> Figure:
    """Which expert each token went to: an experts × tokens map of the mixing weights.

    ``routing`` is a ``Routing`` (``MoEFeedForward.last_routing`` or ``.route(x)``); its tensors
    are flattened to ``N`` tokens. A cell is coloured by the weight the token gives that expert and
    left blank when the expert was not chosen; each row label counts the expert's tokens (its load).
    ``token_labels`` (``N`` strings) name the columns; ``colorbar=False`` omits the weight scale.
    """
    grid, load, sums_to_one = _routing_grid(routing)
    num_experts, n_tokens = grid.shape
    top_k = routing.experts.shape[-1]
    if token_labels is not None and len(token_labels) != n_tokens:
        raise ValueError(
            f"token_labels has {len(token_labels)} entries; expected one per token ({n_tokens})"
        )
    fig, ax = axes_or_new(ax, (max(4.6, 0.26 * n_tokens + 2.2), 0.45 * num_experts + 1.6))
    ax.set_facecolor("white")
    # One mesh with cell edges (rather than an image plus minor-tick grid lines): cheaper to draw.
    image = ax.pcolormesh(
        np.ma.masked_invalid(grid),
        cmap=SEQUENTIAL_CMAP,
        vmin=0.0,
        vmax=1.0,
        edgecolors="0.85",
        linewidth=0.5,
    )
    ax.set_xlim(0, n_tokens)
    ax.set_ylim(num_experts, 0)  # expert 0 on top
    if colorbar:
        fig.colorbar(image, ax=ax, label=tr("mixing weight"), shrink=0.9)
    ax.set_yticks(
        np.arange(num_experts) + 0.5, [_expert_label(e, n) for e, n in enumerate(load)], fontsize=8
    )
    if token_labels is not None:
        ax.set_xticks(np.arange(n_tokens) + 0.5, list(token_labels), fontsize=7, rotation=90)
    ax.tick_params(length=0)
    finish(
        ax,
        title=_routing_title(top_k, num_experts, sums_to_one),
        xlabel=tr("token"),
        ylabel=tr("expert (tokens routed to it)"),
        grid=False,
    )
    return fig


def _routing_grid(routing: Routing) -> tuple[np.ndarray, np.ndarray, bool]:
    """The map ``plot_moe_routing`` draws, and what its labels say.

    Returns ``grid`` ``(num_experts, N)``: the weight each of the ``N`` tokens gives each expert,
    NaN where the expert was not chosen; ``load`` ``(num_experts,)``: tokens per expert; and
    whether every token's weights sum to one.
    """
    num_experts = routing.scores.shape[-1]
    top_k = routing.experts.shape[-1]
    experts = routing.experts.reshape(-1, top_k).detach().cpu()  # (N, k)
    weights = routing.weights.reshape(-1, top_k).detach().float().cpu()  # (N, k)
    n_tokens = experts.shape[0]
    grid = np.full((num_experts, n_tokens), np.nan)
    for slot in range(top_k):
        grid[experts[:, slot].numpy(), np.arange(n_tokens)] = weights[:, slot].numpy()
    load = np.isfinite(grid).sum(axis=1)
    sums_to_one = bool(np.allclose(weights.sum(dim=-1).numpy(), 1.0, atol=1e-5))
    return grid, load, sums_to_one


def _routing_title(top_k: int, num_experts: int, sums_to_one: bool) -> str:
    if sums_to_one:
        return tr(
            "Each token goes to {top_k} of {num_experts} experts; weights sum to 1",
            top_k=top_k,
            num_experts=num_experts,
        )
    return tr(
        "Each token goes to {top_k} of {num_experts} experts; weights are raw router scores",
        top_k=top_k,
        num_experts=num_experts,
    )


def _expert_label(expert: int, load: int) -> str:
    return tr("expert {expert} ({load})", expert=expert, load=load)


def _count_text(value: int) -> str:
    return f"{value / 1e6:.2f}M" if value >= 1e6 else f"{value / 1e3:.1f}k"


#: Colours of the three bars of a parameter count: dense FFN, MoE stored, MoE used per token.
_COUNT_COLORS = (MLP_COLOR, PALETTE[3], PALETTE[4])


#: The count panel's title when the caller gives none: what the bars are, nothing more.
_COUNTS_TITLE = tr_noop("Parameters: dense FFN, MoE stored, MoE used per token")
#: The widget's count panel: its sliders move E, k and S, so the title can say what each drives.
_WIDGET_COUNTS_TITLE = tr_noop("Stored grows with E and S, used per token with k and S")


def plot_moe_parameter_counts(
    counts: Mapping[str, int],
    ax: Axes | None = None,
    panel_size: Sequence[float] | None = None,
    title: str = _COUNTS_TITLE,
) -> Figure:
    """Bars of parameter counts, in triples: dense FFN, MoE total (stored), MoE active per token.

    ``counts`` maps bar labels to counts, three per layer compared (one triple for one layer, two
    for MiniMind2 beside minimind-3); each triple's bars take the same three colours, with a gap
    between triples. Each bar is annotated with its count in thousands or millions. ``title``
    should say what the bars compare (the default names the three bars only).
    """
    if not isinstance(title, str) or not title:
        raise ValueError(f"title must be a non-empty string, got {title!r}")
    if not counts:
        raise ValueError("counts is empty; expected a mapping of labels to parameter counts")
    if len(counts) % 3:
        raise ValueError(
            f"counts has {len(counts)} bars; expected triples (dense FFN, MoE total, MoE active)"
        )
    triples = len(counts) // 3
    width = 1.4 + 0.95 * (len(counts) + 0.6 * (triples - 1))
    fig, ax = axes_or_new(ax, panel_size or (width, 3.4))
    labels = list(counts)
    values = [int(counts[label]) for label in labels]
    positions = [i + 0.6 * (i // 3) for i in range(len(labels))]
    colors = [_COUNT_COLORS[i % 3] for i in range(len(labels))]
    ax.bar(positions, values, color=colors, width=0.7)
    for x, value in zip(positions, values, strict=True):
        ax.text(x, value, _count_text(value), ha="center", va="bottom", fontsize=8)
    ax.set_xticks(positions, labels, fontsize=8)
    ax.set_ylim(0, max(values) * 1.15)
    ax.yaxis.set_major_formatter(EngFormatter(sep=""))  # 10M, 20k: no offset text over the title
    finish(ax, title=tr(title) if title == _COUNTS_TITLE else title, ylabel=tr("parameters"))
    ax.grid(False, axis="x")
    return fig


#: The routing map's cells: outlined, coloured by weight on a fixed 0–1 scale.
_MESH_STYLE = {
    "cmap": SEQUENTIAL_CMAP,
    "vmin": 0.0,
    "vmax": 1.0,
    "edgecolors": "0.85",
    "linewidth": 0.5,
}


@dataclass
class MoEPanels:
    """Lesson 10's widget picture, built once: the routing map beside the parameter counts.

    ``update_moe_panels`` changes only the artists listed in ``dynamic`` (the routing title, the
    map, its row labels, the bars and their texts); axes, ticks and the other labels stay as
    built. The map's rows span the axes' height whatever the number of experts, so its limits
    never change; the count axis is fixed from ``0`` to ``1.15 × max_count``.
    """

    figure: Figure
    routing_ax: Axes
    counts_ax: Axes
    n_tokens: int
    bars: tuple[Rectangle, ...]
    bar_values: tuple[Text, ...]
    bar_labels: tuple[Text, ...]
    #: Where row labels go: x in axes coordinates, y in data, shifted left as tick labels are.
    row_label_transform: Transform
    #: The most experts whose row labels the axis leaves room for.
    max_experts: int
    #: One map per number of experts drawn so far (only the current one is visible).
    meshes: dict[int, QuadMesh] = dataclass_field(default_factory=dict)
    #: Row labels, ``expert e (load)``, as many as the most experts drawn so far.
    expert_labels: list[Text] = dataclass_field(default_factory=list)

    @property
    def routing_artists(self) -> list[Artist]:
        """What the routing alone decides (title, map, row labels), in drawing order, then the
        map's spines (the map reaches the axes' edges; the full picture draws spines on top)."""
        ax = self.routing_ax
        return [ax.title, *self.meshes.values(), *self.expert_labels, *ax.spines.values()]

    @property
    def count_artists(self) -> list[Artist]:
        """What the counts decide (bars, their values and labels), then the count axes' spines."""
        spines = self.counts_ax.spines.values()
        return [*self.bars, *self.bar_values, *self.bar_labels, *spines]

    @property
    def dynamic(self) -> list[Artist]:
        """Every artist an update may change, in drawing order (the two panels do not overlap)."""
        return [*self.routing_artists, *self.count_artists]


def _tick_label_pad(ax: Axes, axis: str) -> float:
    """Points between an axis and its tick labels (the tick's pad plus its outward length)."""
    tick = (ax.xaxis if axis == "x" else ax.yaxis).get_major_ticks()[0]
    return tick.get_pad() + tick.get_tick_padding()


def _make_room_for_row_labels(ax: Axes, num_experts: int, n_tokens: int) -> None:
    """Row labels are texts an update rewrites; one invisible tick label as wide as the widest
    of them keeps the axis label and the layout clear of them."""
    ax.set_yticks([0.5], [_expert_label(num_experts - 1, n_tokens)], fontsize=8)


def new_moe_panels(
    token_labels: Sequence[str],
    max_experts: int,
    max_count: int,
    panel_size: Sequence[float] = (5.2, 3.4),
) -> MoEPanels:
    """The two panels of the MoE widget, in the look of ``plot_moe_routing`` (no colour bar)
    and ``plot_moe_parameter_counts`` (one triple), with nothing routed or counted yet.

    ``token_labels`` name the map's columns (``N`` tokens); room is left for the row labels of
    up to ``max_experts`` experts; the count axis runs to ``1.15 × max_count``.
    """
    if not token_labels:
        raise ValueError("token_labels is empty; expected one label per routed token")
    if max_experts < 1 or max_count < 1:
        raise ValueError(f"max_experts and max_count must be ≥ 1, got {max_experts}, {max_count}")
    n_tokens = len(token_labels)
    fig, (ax_route, ax_counts) = new_figure(1, 2, panel_size=panel_size)

    ax_route.set_facecolor("white")
    ax_route.set_xlim(0, n_tokens)
    ax_route.set_ylim(1, 0)  # rows from the top, each 1/E of the height
    ax_route.set_xticks(np.arange(n_tokens) + 0.5, list(token_labels), fontsize=7, rotation=90)
    ax_route.tick_params(length=0)
    ax_route.tick_params(axis="y", labelcolor="none")
    _make_room_for_row_labels(ax_route, max_experts, n_tokens)
    row_transform, _, _ = ax_route.get_yaxis_text1_transform(_tick_label_pad(ax_route, "y"))
    finish(
        ax_route,
        title=_routing_title(1, max_experts, True),
        xlabel=tr("token"),
        ylabel=tr("expert (tokens routed to it)"),
        grid=False,
    )

    positions = [0, 1, 2]
    bars = ax_counts.bar(positions, [0, 0, 0], color=list(_COUNT_COLORS), width=0.7)
    values = tuple(
        ax_counts.text(x, 0, "", ha="center", va="bottom", fontsize=8) for x in positions
    )
    ax_counts.set_xticks(positions, ["", "", ""])
    label_transform, _, _ = ax_counts.get_xaxis_text1_transform(_tick_label_pad(ax_counts, "x"))
    labels = tuple(
        ax_counts.text(x, 0, "", transform=label_transform, ha="center", va="top", fontsize=8)
        for x in positions
    )
    ax_counts.set_ylim(0, max_count * 1.15)
    ax_counts.yaxis.set_major_formatter(EngFormatter(sep=""))
    finish(ax_counts, title=tr(_WIDGET_COUNTS_TITLE), ylabel=tr("parameters"))
    ax_counts.grid(False, axis="x")
    ax_counts.set_axisbelow(True)  # grid lines under the bars, which an update draws on top
    return MoEPanels(
        fig, ax_route, ax_counts, n_tokens, tuple(bars), values, labels, row_transform, max_experts
    )


def update_moe_panels(panels: MoEPanels, routing: Routing, counts: Mapping[str, int]) -> bool:
    """Show ``routing`` (over the panels' ``N`` tokens) and one triple of ``counts`` (dense
    FFN, MoE total, MoE active; label → count, as for ``plot_moe_parameter_counts``).

    Returns ``True`` when the static part changed too (more experts than ``max_experts``, or a
    count above the axis), so a widget that keeps a rendered background must render it again.
    """
    grid, load, sums_to_one = _routing_grid(routing)
    num_experts, n_tokens = grid.shape
    if n_tokens != panels.n_tokens:
        raise ValueError(f"routing has {n_tokens} tokens; the panels show {panels.n_tokens}")
    if len(counts) != 3:
        raise ValueError(
            f"counts has {len(counts)} bars; expected one triple (dense FFN, MoE total, MoE active)"
        )
    ax = panels.routing_ax
    static_changed = num_experts > panels.max_experts
    if static_changed:  # more rows than the axis has room for: wider labels
        panels.max_experts = num_experts
        _make_room_for_row_labels(ax, num_experts, n_tokens)
    ax.title.set_text(_routing_title(routing.experts.shape[-1], num_experts, sums_to_one))
    if num_experts not in panels.meshes:
        rows = np.linspace(0.0, 1.0, num_experts + 1)
        panels.meshes[num_experts] = ax.pcolormesh(
            np.arange(n_tokens + 1), rows, np.ma.masked_invalid(grid), **_MESH_STYLE
        )
    for e, mesh in panels.meshes.items():
        mesh.set_visible(e == num_experts)
    panels.meshes[num_experts].set_array(np.ma.masked_invalid(grid))
    while len(panels.expert_labels) < num_experts:
        panels.expert_labels.append(
            ax.text(
                0,
                0,
                "",
                transform=panels.row_label_transform,
                ha="right",
                va="center_baseline",
                fontsize=8,
            )
        )
    for e, label in enumerate(panels.expert_labels):
        label.set_visible(e < num_experts)
        if e < num_experts:
            label.set_text(_expert_label(e, int(load[e])))
            label.set_y((e + 0.5) / num_experts)

    values = [int(v) for v in counts.values()]
    for bar, text, label, name, value in zip(
        panels.bars, panels.bar_values, panels.bar_labels, counts, values, strict=True
    ):
        bar.set_height(value)
        text.set_y(value)
        text.set_text(_count_text(value))
        label.set_text(name)
    if max(values) * 1.15 > panels.counts_ax.get_ylim()[1]:
        panels.counts_ax.set_ylim(0, max(values) * 1.15)
        static_changed = True
    return static_changed
