"""Pictures for lesson 09: kind overlap with its control, MoE routing and parameter counts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import EngFormatter

from ..lessons.l09_moe import SeedResult
from ..moe import Routing
from .style import MARKERS, MLP_COLOR, PALETTE, SEQUENTIAL_CMAP, axes_or_new, finish

__all__ = [
    "plot_kind_overlap",
    "plot_moe_parameter_counts",
    "plot_moe_routing",
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
    groups = (("raw inputs\n(control)", "raw"), ("MLP hidden layer\nact(gate)·up", "hidden"))
    pairs = (("same kind", "same", SAME_KIND_COLOR), ("different kinds", "different",
                                                      DIFFERENT_KIND_COLOR))  # fmt: skip
    width = 0.36
    for g, (_, field) in enumerate(groups):
        for p, (label, side, color) in enumerate(pairs):
            values = [getattr(getattr(r, field), side) for r in results]
            x = g + (p - 0.5) * width
            ax.bar(x, sum(values) / len(values), width * 0.92, color=color, alpha=0.75,
                   label=label if g == 0 else None)  # fmt: skip
            ax.plot([x] * len(values), values, MARKERS[0], color="black", markersize=3,
                    linestyle="none", label=f"one seed (of {len(results)})" if g == p == 0
                    else None)  # fmt: skip
        if chance is not None:
            ax.hlines(chance[g], g - width, g + width, colors="0.3", linestyles="--",
                      linewidth=1, label="random sets (chance)" if g == 0 else None)  # fmt: skip
    ax.set_xticks(range(len(groups)), [name for name, _ in groups], fontsize=8)
    ax.set_ylim(0, 1)
    finish(
        ax,
        title="Overlap of top features by kind: inputs vs the MLP's hidden layer",
        ylabel="Jaccard overlap of top-feature sets",
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
    num_experts = routing.scores.shape[-1]
    top_k = routing.experts.shape[-1]
    experts = routing.experts.reshape(-1, top_k).detach().cpu()  # (N, k)
    weights = routing.weights.reshape(-1, top_k).detach().float().cpu()  # (N, k)
    n_tokens = experts.shape[0]
    if token_labels is not None and len(token_labels) != n_tokens:
        raise ValueError(
            f"token_labels has {len(token_labels)} entries; expected one per token ({n_tokens})"
        )
    grid = np.full((num_experts, n_tokens), np.nan)
    for slot in range(top_k):
        grid[experts[:, slot].numpy(), np.arange(n_tokens)] = weights[:, slot].numpy()
    load = np.isfinite(grid).sum(axis=1)
    sums_to_one = bool(np.allclose(weights.sum(dim=-1).numpy(), 1.0, atol=1e-5))
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
        fig.colorbar(image, ax=ax, label="mixing weight", shrink=0.9)
    ax.set_yticks(
        np.arange(num_experts) + 0.5, [f"expert {e} ({n})" for e, n in enumerate(load)], fontsize=8
    )
    if token_labels is not None:
        ax.set_xticks(np.arange(n_tokens) + 0.5, list(token_labels), fontsize=7, rotation=90)
    ax.tick_params(length=0)
    finish(
        ax,
        title=f"Each token goes to {top_k} of {num_experts} experts; "
        + ("weights sum to 1" if sums_to_one else "weights are raw router scores"),
        xlabel="token",
        ylabel="expert (tokens routed to it)",
        grid=False,
    )
    return fig


#: Colours of the three bars of a parameter count: dense FFN, MoE stored, MoE used per token.
_COUNT_COLORS = (MLP_COLOR, PALETTE[3], PALETTE[4])


def plot_moe_parameter_counts(
    counts: Mapping[str, int],
    ax: Axes | None = None,
    panel_size: Sequence[float] | None = None,
) -> Figure:
    """Bars of parameter counts, in triples: dense FFN, MoE total (stored), MoE active per token.

    ``counts`` maps bar labels to counts, three per layer compared (one triple for one layer, two
    for MiniMind2 beside minimind-3); each triple's bars take the same three colours, with a gap
    between triples. Each bar is annotated with its count in thousands or millions.
    """
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
        text = f"{value / 1e6:.2f}M" if value >= 1e6 else f"{value / 1e3:.1f}k"
        ax.text(x, value, text, ha="center", va="bottom", fontsize=8)
    ax.set_xticks(positions, labels, fontsize=8)
    ax.set_ylim(0, max(values) * 1.15)
    ax.yaxis.set_major_formatter(EngFormatter(sep=""))  # 10M, 20k: no offset text over the title
    finish(ax, title="Stored parameters grow with E, used ones with k", ylabel="parameters")
    ax.grid(False, axis="x")
    return fig
