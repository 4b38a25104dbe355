"""Pictures of one ``FeedForward`` pass (lesson 07): tensor widths and the gate·up product."""

from __future__ import annotations

from collections.abc import Sequence

from matplotlib.axes import Axes
from matplotlib.figure import Figure
from torch import Tensor

from ..lessons.l07_feedforward import Intermediate
from .style import DIVERGING_CMAP, MLP_COLOR, PALETTE, axes_or_new, finish, new_figure

__all__ = [
    "HIDDEN_COLOR",
    "plot_gate_up_product",
    "plot_intermediate_widths",
]


HIDDEN_COLOR = PALETTE[0]


def plot_intermediate_widths(
    intermediates: Sequence[Intermediate], ax: Axes | None = None
) -> Figure:
    """One bar per captured tensor (from ``capture_intermediates``), its length the last dimension.

    Tensors as wide as the input are drawn in one colour, the wider (升维) ones in the MLP colour,
    so the h → m → h shape of the pass is visible at a glance. Each bar is labeled with its shape.
    """
    if not intermediates:
        raise ValueError("intermediates is empty; expected the list capture_intermediates returns")
    fig, ax = axes_or_new(ax, (6.4, 0.42 * len(intermediates) + 1.2))
    hidden = intermediates[0].shape[-1]
    names = [item.name for item in intermediates]
    widths = [item.shape[-1] for item in intermediates]
    colors = [MLP_COLOR if w > hidden else HIDDEN_COLOR for w in widths]
    positions = range(len(names))
    ax.barh(positions, widths, color=colors, height=0.6)
    for y, item in zip(positions, intermediates, strict=True):
        ax.text(item.shape[-1], y, f"  {item.shape}", va="center", fontsize=8)
    ax.set_yticks(list(positions), names, fontsize=8)
    ax.invert_yaxis()  # call order reads top to bottom
    ax.set_xlim(0, max(widths) * 1.45)
    finish(
        ax,
        title=f"One pass widens {hidden} → {max(widths)} on two branches, then narrows back",
        xlabel="last dimension (features per token)",
    )
    ax.grid(False, axis="y")
    return fig


def _heatmap(ax: Axes, values: Tensor, title: str, fig: Figure, colorbar: bool) -> None:
    limit = float(values.abs().max()) or 1.0
    image = ax.imshow(
        values.float().cpu().numpy(),
        cmap=DIVERGING_CMAP,
        vmin=-limit,
        vmax=limit,
        aspect="auto",
        interpolation="nearest",
    )
    if colorbar:
        fig.colorbar(image, ax=ax, shrink=0.85)
    finish(ax, title=title, xlabel="feature (of m)", grid=False)


def plot_gate_up_product(
    act_gate: Tensor,
    up: Tensor,
    product: Tensor,
    max_tokens: int = 16,
    max_features: int = 48,
    colorbar: bool = True,
    panel_size: Sequence[float] = (3.6, 3.2),
    show_up: bool = True,
) -> Figure:
    """Three heatmaps, tokens × features: ``act(gate)``, ``up`` and their product (逐元素相乘).

    Each input is ``(*, m)`` (flattened to tokens); the first ``max_tokens`` tokens and
    ``max_features`` features are shown. Where ``act(gate)`` is near zero the product is near zero
    too, whatever ``up`` holds: the gate (门控) decides what passes. Each panel has its own
    symmetric colour scale (white is 0); ``colorbar=False`` leaves the scales out and
    ``show_up=False`` the middle panel (both make the figure cheaper to draw, for widgets).
    """
    if not (act_gate.shape == up.shape == product.shape):
        raise ValueError(
            f"act_gate, up and product must share one shape, got {tuple(act_gate.shape)}, "
            f"{tuple(up.shape)}, {tuple(product.shape)}"
        )
    if max_tokens < 1 or max_features < 1:
        raise ValueError(
            f"max_tokens and max_features must be ≥ 1, got {max_tokens}, {max_features}"
        )
    m = act_gate.shape[-1]
    panels = [("act(gate_proj(x))", act_gate), ("up_proj(x)", up), ("act(gate) · up", product)]
    if not show_up:
        del panels[1]
    fig, axes = new_figure(1, len(panels), panel_size=panel_size)
    for ax, (title, values) in zip(axes, panels, strict=True):
        _heatmap(
            ax, values.detach().reshape(-1, m)[:max_tokens, :max_features], title, fig, colorbar
        )
    axes[0].set_ylabel("token")
    fig.suptitle("Where act(gate) ≈ 0 the product is ≈ 0, whatever up holds", fontsize=10)
    return fig
