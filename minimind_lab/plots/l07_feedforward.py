"""Pictures of one ``FeedForward`` pass (lesson 07): tensor widths and the gate·up product."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.image import AxesImage
from torch import Tensor

from ..i18n import tr
from ..lessons.l07_feedforward import Intermediate
from .style import DIVERGING_CMAP, MLP_COLOR, PALETTE, axes_or_new, finish, new_figure

__all__ = [
    "HIDDEN_COLOR",
    "GateUpPanels",
    "new_gate_up_panels",
    "plot_gate_up_product",
    "plot_intermediate_widths",
    "update_gate_up_panels",
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
        title=tr(
            "One pass widens {hidden} → {widest} on two branches, then narrows back",
            hidden=hidden,
            widest=max(widths),
        ),
        xlabel=tr("last dimension (features per token)"),
    )
    ax.grid(False, axis="y")
    return fig


@dataclass(frozen=True)
class GateUpPanels:
    """The heatmaps of ``new_gate_up_panels``: the figure and one image per panel, in order.

    ``update_gate_up_panels`` puts new values into the same images, so a widget draws one
    figure for its whole life.
    """

    figure: Figure
    images: tuple[AxesImage, ...]


#: Titles of the three panels of ``plot_gate_up_product``, left to right.
_GATE_UP_TITLES = ("act(gate_proj(x))", "up_proj(x)", "act(gate) · up")


def new_gate_up_panels(
    n_tokens: int,
    n_features: int,
    colorbar: bool = True,
    panel_size: Sequence[float] = (3.6, 3.2),
    show_up: bool = True,
) -> GateUpPanels:
    """Empty heatmaps for ``plot_gate_up_product``: ``n_tokens × n_features`` cells each.

    Titles, labels and the suptitle are final; ``update_gate_up_panels`` fills in the values and
    each panel's symmetric colour scale.
    """
    if n_tokens < 1 or n_features < 1:
        raise ValueError(f"n_tokens and n_features must be ≥ 1, got {n_tokens}, {n_features}")
    titles = [title for i, title in enumerate(_GATE_UP_TITLES) if show_up or i != 1]
    fig, axes = new_figure(1, len(titles), panel_size=panel_size)
    images = []
    for ax, title in zip(axes, titles, strict=True):
        image = ax.imshow(
            np.zeros((n_tokens, n_features)),
            cmap=DIVERGING_CMAP,
            vmin=-1.0,
            vmax=1.0,
            aspect="auto",
            interpolation="nearest",
        )
        if colorbar:
            fig.colorbar(image, ax=ax, shrink=0.85)
        finish(ax, title=title, xlabel=tr("feature (of m)"), grid=False)
        images.append(image)
    axes[0].set_ylabel(tr("token"))
    fig.suptitle(tr("Where act(gate) ≈ 0 the product is much smaller than up"), fontsize=10)
    return GateUpPanels(fig, tuple(images))


def update_gate_up_panels(
    panels: GateUpPanels, act_gate: Tensor, up: Tensor, product: Tensor
) -> None:
    """Show these tensors (each ``(*, m)``, flattened to tokens) in ``panels``.

    Each panel shows the first tokens and features that fit its cells, on its own symmetric
    colour scale (white is 0). The middle panel (``up``) is skipped when the panels have none.
    """
    if not (act_gate.shape == up.shape == product.shape):
        raise ValueError(
            f"act_gate, up and product must share one shape, got {tuple(act_gate.shape)}, "
            f"{tuple(up.shape)}, {tuple(product.shape)}"
        )
    m = act_gate.shape[-1]
    tensors = (act_gate, up, product) if len(panels.images) == 3 else (act_gate, product)
    for image, values in zip(panels.images, tensors, strict=True):
        n_tokens, n_features = image.get_array().shape
        shown = values.detach().reshape(-1, m)[:n_tokens, :n_features].float().cpu().numpy()
        if shown.shape != (n_tokens, n_features):
            raise ValueError(
                f"the panels show {n_tokens} tokens × {n_features} features; got only "
                f"{shown.shape[0]} × {shown.shape[1]}"
            )
        limit = float(np.abs(shown).max()) or 1.0
        image.set_data(shown)
        image.set_clim(-limit, limit)


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
    ``max_features`` features are shown. Where ``act(gate)`` is near zero the product is ``up``
    scaled by that small number, much smaller than ``up``: the gate (门控) decides what passes.
    Each panel has its own symmetric colour scale (white is 0); ``colorbar=False`` leaves the
    scales out and ``show_up=False`` the middle panel.
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
    n_tokens = min(max_tokens, act_gate.reshape(-1, m).shape[0])
    panels = new_gate_up_panels(
        n_tokens, min(max_features, m), colorbar=colorbar, panel_size=panel_size, show_up=show_up
    )
    update_gate_up_panels(panels, act_gate, up, product)
    return panels.figure
