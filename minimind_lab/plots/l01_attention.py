"""Lesson 01's pictures: who reads which position (Jacobian blocks, perturbations), and where a
block's parameters live. Each function takes computed results and returns a ``Figure``."""

from __future__ import annotations

from collections.abc import Mapping

from matplotlib import colormaps
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import Patch
from torch import Tensor

from ..lessons.l01_attention import BlockParameterSplit
from .style import ATTENTION_COLOR, MLP_COLOR, SEQUENTIAL_CMAP, axes_or_new, finish, new_figure

__all__ = [
    "plot_jacobian_blocks",
    "plot_parameter_split",
    "plot_perturbation_response",
]


_ANNOTATE_UP_TO = 12  # write each block's value in its cell when T is at most this


def _check_square(name: str, blocks: Tensor) -> None:
    if blocks.dim() != 2 or blocks.shape[0] != blocks.shape[1]:
        raise ValueError(f"{name} must be a square (T, T) matrix, got shape {tuple(blocks.shape)}")


def plot_jacobian_blocks(
    attention: Tensor,
    mlp: Tensor,
    title: str | None = "Attention mixes earlier positions; the MLP stays on the diagonal",
) -> Figure:
    """Two heatmaps side by side of the ``(T, T)`` block norms ``‖∂y_i/∂x_j‖``.

    ``attention`` and ``mlp`` come from ``jacobian_blocks``; rows are output positions ``i``,
    columns input positions ``j``. Both panels share one colour scale, and exact zeros are left
    white, so "no dependence at all" reads differently from "weak dependence".
    """
    _check_square("attention", attention)
    _check_square("mlp", mlp)
    fig, axes = new_figure(1, 2, panel_size=(4.6, 4.4))
    fig.set_layout_engine("compressed")  # square heatmaps: keeps labels inside the figure
    vmax = float(max(attention.max(), mlp.max()))
    cmap = colormaps[SEQUENTIAL_CMAP]
    image = None
    for ax, name, blocks, color in (
        (axes[0], "attention", attention, ATTENTION_COLOR),
        (axes[1], "MLP", mlp, MLP_COLOR),
    ):
        values = blocks.detach().cpu().float()
        masked = values.masked_fill(values == 0, float("nan")).numpy()  # NaN → white
        image = ax.imshow(masked, cmap=cmap, vmin=0.0, vmax=vmax)
        t = values.shape[0]
        if t <= _ANNOTATE_UP_TO:
            for i in range(t):
                for j in range(t):
                    v = values[i, j].item()
                    if v == 0:
                        continue  # white cell: exactly zero, said once in the colour bar label
                    r, g, b, _ = cmap(v / vmax if vmax > 0 else 0.0)
                    shade = "black" if 0.299 * r + 0.587 * g + 0.114 * b > 0.5 else "white"
                    ax.text(j, i, f"{v:.2f}", ha="center", va="center", fontsize=8, color=shade)
        nonzero = int((values != 0).sum())
        finish(
            ax,
            title=f"{name}: {nonzero} of {t * t} blocks non-zero",
            xlabel="input position j (nudged)",
            ylabel="output position i (moves)",
            grid=False,
        )
        ax.title.set_color(color)
        ax.set_xticks(range(t))
        ax.set_yticks(range(t))
    fig.colorbar(
        image,
        ax=axes,
        shrink=0.8,
        label=r"$\|\partial y_i / \partial x_j\|_F$  (white: exactly 0)",
    )
    if title:
        fig.suptitle(title, fontsize=11)
    return fig


def plot_perturbation_response(
    attention: Tensor, mlp: Tensor, position: int, ax: Axes | None = None
) -> Figure:
    """Grouped bars: how far each output position moves when input ``position`` is nudged.

    ``attention`` and ``mlp`` are ``(T,)`` from ``token_perturbation_response``.
    """
    if attention.shape != mlp.shape or attention.dim() != 1:
        raise ValueError(
            f"attention and mlp must both be (T,), got {tuple(attention.shape)} and "
            f"{tuple(mlp.shape)}"
        )
    fig, ax = axes_or_new(ax, (6.0, 3.2))
    t = attention.shape[0]
    positions = list(range(t))
    width = 0.4
    ax.bar(
        [p - width / 2 for p in positions],
        attention.tolist(),
        width,
        color=ATTENTION_COLOR,
        label="attention",
    )
    ax.bar(
        [p + width / 2 for p in positions],
        mlp.tolist(),
        width,
        color=MLP_COLOR,
        hatch="//",
        edgecolor="white",
        label="MLP",
    )
    ax.axvline(position, color="0.4", linewidth=0.8, linestyle=":")
    ax.set_xticks(positions)
    moved, mlp_moved = int((attention > 0).sum()), int((mlp > 0).sum())
    finish(
        ax,
        title=f"Nudge position {position}: attention moves {moved} positions, "
        f"the MLP moves {mlp_moved}",
        xlabel="output position i",
        ylabel="‖Δy_i‖ (output change)",
        legend=True,
    )
    return fig


def plot_parameter_split(
    splits: Mapping[str, BlockParameterSplit], ax: Axes | None = None
) -> Figure:
    """Horizontal stacked bars, one per labelled split: attention | MLP | norms, in millions.

    ``splits`` maps a row label (e.g. "MiniMind2 (GQA 8q/2kv)") to ``block_parameter_split``'s
    result; each bar is annotated with the MLP's share.
    """
    if not splits:
        raise ValueError("splits is empty; expected at least one labelled BlockParameterSplit")
    fig, ax = axes_or_new(ax, (7.0, 0.55 * len(splits) + 1.4))
    labels = list(splits)
    for row, label in enumerate(labels):
        split = splits[label]
        attn, mlp, norms = (v / 1e6 for v in (split.attention, split.mlp, split.norms))
        ax.barh(row, attn, color=ATTENTION_COLOR)
        ax.barh(row, mlp, left=attn, color=MLP_COLOR, hatch="//", edgecolor="white")
        ax.barh(row, norms, left=attn + mlp, color="0.5")
        ax.text(attn + mlp + norms, row, f"  MLP {split.mlp_share:.0%}", va="center", fontsize=8)
    ax.set_yticks(range(len(labels)), labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlim(0, 1.2 * max(s.total for s in splits.values()) / 1e6)
    ax.legend(
        handles=[
            Patch(color=ATTENTION_COLOR, label="attention"),
            Patch(facecolor=MLP_COLOR, hatch="//", edgecolor="white", label="MLP"),
            Patch(color="0.5", label="RMSNorms"),
        ],
        fontsize=8,
        frameon=False,
        loc="upper right",
    )
    finish(
        ax,
        title="The MLP holds most of every block's parameters",
        xlabel="parameters per block (millions)",
    )
    return fig
