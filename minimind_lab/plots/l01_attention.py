"""Lesson 01's pictures: who reads which position (Jacobian blocks, perturbations), and where a
block's parameters live. Each function takes computed results and returns a ``Figure``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from matplotlib import colormaps
from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.container import BarContainer
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from torch import Tensor

from ..i18n import tr, tr_noop
from ..lessons.l01_attention import BlockParameterSplit
from .style import ATTENTION_COLOR, MLP_COLOR, SEQUENTIAL_CMAP, axes_or_new, finish, new_figure

__all__ = [
    "PerturbationPanel",
    "new_perturbation_panel",
    "plot_jacobian_blocks",
    "plot_parameter_split",
    "plot_perturbation_response",
    "update_perturbation_panel",
]


_ANNOTATE_UP_TO = 12  # write each block's value in its cell when T is at most this
#: ``plot_jacobian_blocks``'s default title, drawn in the current language.
JACOBIAN_TITLE = tr_noop("Attention mixes earlier positions; the MLP stays on the diagonal")


def _check_square(name: str, blocks: Tensor) -> None:
    if blocks.dim() != 2 or blocks.shape[0] != blocks.shape[1]:
        raise ValueError(f"{name} must be a square (T, T) matrix, got shape {tuple(blocks.shape)}")


def plot_jacobian_blocks(
    attention: Tensor,
    mlp: Tensor,
    title: str | None = JACOBIAN_TITLE,
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
        (axes[0], tr_noop("attention"), attention, ATTENTION_COLOR),
        (axes[1], tr_noop("MLP"), mlp, MLP_COLOR),
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
            title=tr(
                "{name}: {nonzero} of {total} blocks non-zero",
                name=tr(name),
                nonzero=nonzero,
                total=t * t,
            ),
            xlabel=tr("input position j (nudged)"),
            ylabel=tr("output position i (moves)"),
            grid=False,
        )
        ax.title.set_color(color)
        ax.set_xticks(range(t))
        ax.set_yticks(range(t))
    fig.colorbar(
        image,
        ax=axes,
        shrink=0.8,
        label=tr(r"$\|\partial y_i / \partial x_j\|_F$  (white: exactly 0)"),
    )
    if title:  # the default title is translated; a caller's own is drawn as given
        fig.suptitle(tr(title) if title == JACOBIAN_TITLE else title, fontsize=11)
    return fig


@dataclass(frozen=True)
class PerturbationPanel:
    """The perturbation bar chart, built once (``new_perturbation_panel``) and updated in place
    (``update_perturbation_panel``): its figure, axes and the artists an update changes."""

    figure: Figure
    ax: Axes
    attention: BarContainer  # one bar per output position
    mlp: BarContainer
    marker: Line2D  # dotted vertical line at the nudged position

    def changing_artists(self) -> list[Artist]:
        """What an update changes, in drawing order: the bars, the marker, the spines that lie
        on the bars' feet, and the title. Grid, ticks, labels and legend stay as they are."""
        return [*self.attention, *self.mlp, self.marker, *self.ax.spines.values(), self.ax.title]


def _check_responses(attention: Tensor, mlp: Tensor) -> None:
    if attention.shape != mlp.shape or attention.dim() != 1:
        raise ValueError(
            f"attention and mlp must both be (T,), got {tuple(attention.shape)} and "
            f"{tuple(mlp.shape)}"
        )


def new_perturbation_panel(
    seq_len: int,
    ymax: float | None = None,
    legend_loc: str = "best",
    ax: Axes | None = None,
) -> PerturbationPanel:
    """An empty perturbation chart for ``seq_len`` positions (no bars shown yet).

    ``ymax`` fixes the y range to ``[0, ymax]`` for every later update (a widget's views stay
    comparable and its ticks never change); ``None`` leaves it to autoscaling. ``legend_loc``
    is matplotlib's ``loc``; a fixed corner keeps the legend where it was drawn first.
    """
    fig, ax = axes_or_new(ax, (6.0, 3.2))
    positions = list(range(seq_len))
    width = 0.4
    zeros = [0.0] * seq_len
    attention = ax.bar(
        [p - width / 2 for p in positions],
        zeros,
        width,
        color=ATTENTION_COLOR,
        label=tr("attention"),
    )
    mlp = ax.bar(
        [p + width / 2 for p in positions],
        zeros,
        width,
        color=MLP_COLOR,
        hatch="//",
        edgecolor="white",
        label=tr("MLP"),
    )
    marker = ax.axvline(0, color="0.4", linewidth=0.8, linestyle=":")
    ax.set_xticks(positions)
    if ymax is not None:
        ax.set_ylim(0, ymax)
    ax.set_axisbelow(True)  # the grid behind the bars
    finish(ax, xlabel=tr("output position i"), ylabel=tr(r"$\|\Delta y_i\|$ (output change)"))
    ax.legend(fontsize=8, frameon=False, loc=legend_loc)
    return PerturbationPanel(fig, ax, attention, mlp, marker)


def update_perturbation_panel(
    panel: PerturbationPanel, attention: Tensor, mlp: Tensor, position: int
) -> None:
    """Show the responses ``attention`` and ``mlp`` (``(T,)`` each) to a nudge at ``position``."""
    _check_responses(attention, mlp)
    if attention.shape[0] != len(panel.attention):
        raise ValueError(
            f"the panel has {len(panel.attention)} positions, the responses {attention.shape[0]}"
        )
    for bars, values in ((panel.attention, attention), (panel.mlp, mlp)):
        for bar, value in zip(bars, values.tolist(), strict=True):
            bar.set_height(value)
            bar.set_visible(value != 0)  # an unmoved position shows no bar, not a sliver
    panel.marker.set_xdata([position, position])
    moved, mlp_moved = int((attention > 0).sum()), int((mlp > 0).sum())
    panel.ax.set_title(
        tr(
            "Nudge position {position}: attention moves {moved} positions, the MLP moves "
            "{mlp_moved}",
            position=position,
            moved=moved,
            mlp_moved=mlp_moved,
        ),
        fontsize=10,
    )


def plot_perturbation_response(
    attention: Tensor, mlp: Tensor, position: int, ax: Axes | None = None
) -> Figure:
    """Grouped bars: how far each output position moves when input ``position`` is nudged.

    ``attention`` and ``mlp`` are ``(T,)`` from ``token_perturbation_response``.
    """
    _check_responses(attention, mlp)
    panel = new_perturbation_panel(attention.shape[0], ax=ax)
    update_perturbation_panel(panel, attention, mlp, position)
    panel.ax.relim()  # the bars were made at zero height
    panel.ax.autoscale_view()
    return panel.figure


def plot_parameter_split(
    splits: Mapping[str, BlockParameterSplit], ax: Axes | None = None
) -> Figure:
    """Horizontal stacked bars, one per labelled split: attention | MLP | norms, in millions.

    ``splits`` maps a row label (e.g. "MiniMind2 (GQA 8q/2kv)") to ``block_parameter_split``'s
    result; each bar is annotated with the MLP's share. The norms' sliver is too thin to see at
    real sizes, so the legend states their largest share instead.
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
        share = tr("  MLP {share:.0%}", share=split.mlp_share)
        ax.text(attn + mlp + norms, row, share, va="center", fontsize=8)
    ax.set_yticks(range(len(labels)), labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlim(0, 1.2 * max(s.total for s in splits.values()) / 1e6)
    norm_share = max(s.norms / s.total for s in splits.values())
    norm_label = tr("RMSNorms")
    if norm_share < 0.005:  # 2h numbers next to millions: a bar thinner than a pixel
        norm_label = tr(
            "RMSNorms: at most {share:.2%}\nof a block, too thin to see", share=norm_share
        )
    ax.legend(
        handles=[
            Patch(color=ATTENTION_COLOR, label=tr("attention")),
            Patch(facecolor=MLP_COLOR, hatch="//", edgecolor="white", label=tr("MLP")),
            Patch(color="0.5", label=norm_label),
        ],
        fontsize=8,
        frameon=False,
        loc="upper right",
    )
    finish(
        ax,
        title=tr("The MLP holds most of every block's parameters"),
        xlabel=tr("parameters per block (millions)"),
    )
    return fig
