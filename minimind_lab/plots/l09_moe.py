"""Pictures of a mixture of experts (专家 expert, lesson 08): routing and parameter counts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import EngFormatter

from ..moe import Routing
from .style import MLP_COLOR, PALETTE, SEQUENTIAL_CMAP, axes_or_new, finish

__all__ = [
    "plot_moe_parameter_counts",
    "plot_moe_routing",
]


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
        title=f"Each token goes to {top_k} of {num_experts} experts; weights sum to 1",
        xlabel="token",
        ylabel="expert (tokens routed to it)",
        grid=False,
    )
    return fig


def plot_moe_parameter_counts(counts: Mapping[str, int], ax: Axes | None = None) -> Figure:
    """Bars of parameter counts by label, e.g. dense FFN vs MoE total vs MoE active per token.

    Each bar is annotated with its count in thousands or millions.
    """
    if not counts:
        raise ValueError("counts is empty; expected a mapping of labels to parameter counts")
    fig, ax = axes_or_new(ax)
    labels = list(counts)
    values = [int(counts[label]) for label in labels]
    colors = [PALETTE[(i + 2) % 7] if i else MLP_COLOR for i in range(len(labels))]
    ax.bar(range(len(labels)), values, color=colors, width=0.6)
    for x, value in enumerate(values):
        text = f"{value / 1e6:.2f}M" if value >= 1e6 else f"{value / 1e3:.1f}k"
        ax.text(x, value, text, ha="center", va="bottom", fontsize=8)
    ax.set_xticks(range(len(labels)), labels, fontsize=8)
    ax.set_ylim(0, max(values) * 1.15)
    ax.yaxis.set_major_formatter(EngFormatter(sep=""))  # 10M, 20k: no offset text over the title
    finish(ax, title="Stored parameters grow with E; used per token, with k", ylabel="parameters")
    ax.grid(False, axis="x")
    return fig
