"""Lesson 05's pictures: gate value distributions, the equal-budget race, one gated unit in 1-D."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import torch
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import Circle, FancyBboxPatch
from torch import Tensor

from ..ffn import GLU_VARIANTS
from ..lessons.l05_gating import BudgetResult, GatedCurve
from .style import PALETTE, axes_or_new, finish, new_figure, series_style

__all__ = [
    "plot_equal_budget",
    "plot_ffn_structure",
    "plot_gate_distribution",
    "plot_gated_product",
]


def plot_gate_distribution(
    samples: Mapping[str, Tensor],
    closed_below: float = 0.1,
    bins: int = 60,
    ax: Axes | None = None,
    title: str | None = None,
) -> Figure:
    """Histograms of gate values ``act(gate_proj(x))``, one per entry of ``samples``.

    ``samples``: label → gate values of any shape (e.g. ``(N, m)`` from ``gate_activations``).
    The band ``|a| < closed_below`` (closed gates) is shaded; densities share one x-axis.
    """
    if not samples:
        raise ValueError("samples is empty; expected at least one label → gate values")
    fig, ax = axes_or_new(ax)
    flats = {label: values.detach().reshape(-1).double().cpu() for label, values in samples.items()}
    low = min(v.min().item() for v in flats.values())
    high = max(v.max().item() for v in flats.values())
    edges = torch.linspace(min(low, -closed_below), max(high, closed_below), bins + 1)
    ax.axvspan(
        -closed_below,
        closed_below,
        color=PALETTE[7],
        alpha=0.35,
        lw=0,
        label=f"closed: |gate| < {closed_below:g}",
    )
    for index, (label, values) in enumerate(flats.items()):
        style = series_style(index)
        ax.hist(
            values.numpy(),
            bins=edges.numpy(),
            density=True,
            histtype="step",
            linewidth=1.6,
            color=style["color"],
            linestyle=style["linestyle"],
            label=label,
        )
    ax.set_yscale("log")
    finish(
        ax,
        title=title or "Where the gate values fall (shaded: closed)",
        xlabel="gate value act(gate_proj(x))",
        ylabel="density (log scale)",
        legend=True,
    )
    return fig


def plot_equal_budget(
    result: BudgetResult, axes: Sequence[Axes] | None = None, title: str | None = None
) -> Figure:
    """Left: mean training loss per step for each contender; right: final loss of every seed.

    Plain FFNs are drawn dashed with hollow markers, gated ones solid and filled; the colour is the
    activation's (the same as in every lesson). Both loss axes are logarithmic. ``title`` (for the
    left panel) should state what the numbers showed.
    """
    if axes is None:
        fig, axes = new_figure(1, 2)
    else:
        fig = axes[0].figure
    curves, seeds_ax = axes[0], axes[1]
    floor = 1e-12  # the bilinear FFN fits this task exactly; keep it on a log axis
    for index, name in enumerate(result.names):
        model = result.models[name][0]
        style = series_style(model.act_name)
        gated = result.kind(name) == "gated"
        histories = torch.tensor(result.histories[name], dtype=torch.float64)
        mean_curve = histories.mean(dim=0).clamp_min(floor)
        curves.plot(
            range(1, result.steps + 1),
            mean_curve.numpy(),
            color=style["color"],
            linestyle="-" if gated else "--",
            linewidth=1.5,
            label=name,
        )
        finals = [max(v, floor) for v in result.final_loss[name]]
        seeds_ax.scatter(
            [index] * len(finals),
            finals,
            edgecolors=style["color"],
            s=28,
            zorder=3,
            marker=style["marker"],
            facecolors=style["color"] if gated else "none",
        )
        seeds_ax.plot(
            [index - 0.3, index + 0.3],
            [max(result.mean(name), floor)] * 2,
            color=style["color"],
            linewidth=2,
        )
    for ax in (curves, seeds_ax):
        ax.set_yscale("log")
    seeds_ax.set_xticks(range(len(result.names)), result.names, rotation=35, ha="right", fontsize=8)
    params = result.parameters[result.names[0]]
    finish(
        curves,
        title=title or f"Same budget, {params} weights each: training loss",
        xlabel="training step",
        ylabel="training MSE (mean over seeds)",
        legend=True,
    )
    finish(
        seeds_ax,
        title=f"Final loss, {len(result.seeds)} seeds each (bar = mean)",
        ylabel="final training MSE",
    )
    return fig


def _gated_title(act: str) -> str:
    if act == "sigmoid":
        return "Sigmoid gate: output ≈ t where open, ≈ 0 where shut"
    if act == "identity":
        return "No activation: output = a·t², a pure product"
    return f"{act} gate: output ≈ a·t² where open, ≈ 0 where shut"


def plot_gated_product(
    curve: GatedCurve, others: Sequence[GatedCurve] = (), ax: Axes | None = None
) -> Figure:
    """One gated unit on a line: ``act(a·t)`` (gate), ``t`` (content) and their product.

    ``others``: products of other gate activations, drawn thin and grey for comparison.
    """
    fig, ax = axes_or_new(ax)
    t = curve.t.numpy()
    for other in others:
        ax.plot(t, other.product.numpy(), color="0.75", linewidth=1.0)
    style = series_style(curve.act)
    ax.plot(
        t,
        curve.gate.numpy(),
        color=style["color"],
        linestyle="--",
        linewidth=1.4,
        label=f"gate: {curve.act}({curve.gate_scale:g}·t)",
    )
    ax.plot(t, curve.up.numpy(), color="0.35", linestyle=":", linewidth=1.4, label="content: t")
    ax.plot(
        t,
        curve.product.numpy(),
        color=style["color"],
        linewidth=2.2,
        label="output: gate · content",
    )
    shown = torch.cat([curve.product, curve.gate, curve.up])
    low, high = min(float(shown.min()), -1.0), max(float(shown.max()), 1.0)
    pad = 0.08 * (high - low)
    ax.set_ylim(low - pad, high + pad)
    ax.axhline(0, color="0.5", linewidth=0.6)
    finish(
        ax,
        title=_gated_title(curve.act),
        xlabel="t (both projections of one input)",
        ylabel="value",
        legend=True,
    )
    return fig


# ------------------------------------------------ the FFN structure diagram

# Light fills keyed by a layer's role; the text in each box names the role too, so the diagram
# reads the same in greyscale.
_FILL = {"tensor": "#FFFFFF", "linear": "#CFE3F2", "act": "#F7E1B5", "mul": "#BFE6DA"}
_EDGE = {"tensor": PALETTE[6], "linear": PALETTE[0], "act": PALETTE[1], "mul": PALETTE[2]}
#: The GLU family's names by gate activation (Shazeer, 2020).
_GLU_NAMES = {act: variant for variant, act in GLU_VARIANTS.items()} | {"swish": "SwiGLU"}
_BOX_W, _BOX_H = 3.3, 1.05
# Rows, top to bottom: input, projections, activation, product, down projection, output.
_ROW = {"x": 11.0, "proj": 8.9, "act": 6.9, "mul": 5.1, "down": 3.3, "y": 1.2}


def _box(ax: Axes, x: float, y: float, text: str, role: str, width: float = _BOX_W) -> None:
    ax.add_patch(
        FancyBboxPatch(
            (x - width / 2, y - _BOX_H / 2),
            width,
            _BOX_H,
            boxstyle="round,pad=0.02,rounding_size=0.18",
            facecolor=_FILL[role],
            edgecolor=_EDGE[role],
            linewidth=1.3,
            linestyle="--" if role == "act" else "-",
        )
    )
    ax.text(x, y, text, ha="center", va="center", fontsize=8.5, linespacing=1.25)


def _product(ax: Axes, x: float, y: float) -> None:
    ax.add_patch(Circle((x, y), 0.42, facecolor=_FILL["mul"], edgecolor=_EDGE["mul"], lw=1.3))
    ax.text(x, y, "⊙", ha="center", va="center", fontsize=15)


def _arrow(
    ax: Axes,
    start: tuple[float, float],
    end: tuple[float, float],
    label: str,
    side: str = "right",
) -> None:
    ax.annotate(
        "",
        xy=end,
        xytext=start,
        arrowprops={
            "arrowstyle": "-|>",
            "color": "#333333",
            "lw": 1.1,
            "shrinkA": 0,
            "shrinkB": 0,
            "mutation_scale": 11,
        },
    )
    mid_x, mid_y = (start[0] + end[0]) / 2, (start[1] + end[1]) / 2
    offset = 0.15 if side == "right" else -0.15
    ax.text(
        mid_x + offset,
        mid_y,
        label,
        ha="left" if side == "right" else "right",
        va="center",
        fontsize=7.5,
        color="#333333",
        family="monospace",
    )


def _size(symbol: str, value: int | None) -> str:
    return symbol if value is None else str(value)


def plot_ffn_structure(
    hidden_size: int | None = None,
    plain_size: int | None = None,
    gated_size: int | None = None,
    plain_act: str = "GELU",
    gate_act: str = "SiLU",
    axes: Sequence[Axes] | None = None,
) -> Figure:
    """The plain FFN beside the SwiGLU FFN as box-and-arrow diagrams with shapes on the arrows.

    With no sizes the arrows carry symbols (``h``, ``4h``, ``m``); pass ``hidden_size``,
    ``plain_size`` and ``gated_size`` to print numbers instead (e.g. 512, 2048, 1408 for
    MiniMind2-Small). Shapes read ``(B, T, ·)``: batch, sequence, features. ``axes``: two axes to
    draw on; otherwise a new two-panel figure. Returns the figure.
    """
    for name, value in (
        ("hidden_size", hidden_size),
        ("plain_size", plain_size),
        ("gated_size", gated_size),
    ):
        if value is not None and (not isinstance(value, int) or value <= 0):
            raise ValueError(f"{name} must be a positive int or None, got {value!r}")
    if axes is None:
        fig, axes = new_figure(1, 2, panel_size=(4.2, 5.4))
    elif len(axes) != 2:
        raise ValueError(f"axes must hold 2 axes (plain, gated), got {len(axes)}")
    fig = axes[0].get_figure()
    h = _size("h", hidden_size)
    wide = _size("4h", plain_size)
    m = _size("m", gated_size)
    shape = "(B, T, {})".format
    plain_ax, gated_ax = axes

    # Plain FFN: one path, x → up (升维) → act → down (降维) → y.
    c = 5.0
    _box(plain_ax, c, _ROW["x"], "x  (hidden_states)", "tensor")
    _box(plain_ax, c, _ROW["proj"], f"up_proj\nLinear {h} → {wide}", "linear")
    _box(plain_ax, c, _ROW["act"], f"activation\n{plain_act}", "act")
    _box(plain_ax, c, _ROW["down"], f"down_proj\nLinear {wide} → {h}", "linear")
    _box(plain_ax, c, _ROW["y"], "y", "tensor", width=1.6)
    half = _BOX_H / 2
    _arrow(plain_ax, (c, _ROW["x"] - half), (c, _ROW["proj"] + half), shape(h))
    _arrow(plain_ax, (c, _ROW["proj"] - half), (c, _ROW["act"] + half), shape(wide))
    _arrow(plain_ax, (c, _ROW["act"] - half), (c, _ROW["down"] + half), shape(wide))
    _arrow(plain_ax, (c, _ROW["down"] - half), (c, _ROW["y"] + half), shape(h))

    # SwiGLU: x feeds two projections; the activation sits on the gate branch only.
    left, right = 2.7, 7.3
    _box(gated_ax, c, _ROW["x"], "x  (hidden_states)", "tensor")
    _box(gated_ax, left, _ROW["proj"], f"gate_proj\nLinear {h} → {m}", "linear", width=3.0)
    _box(gated_ax, right, _ROW["proj"], f"up_proj\nLinear {h} → {m}", "linear", width=3.0)
    _box(gated_ax, left, _ROW["act"], f"activation\n{gate_act}", "act", width=3.0)
    _product(gated_ax, c, _ROW["mul"])
    _box(gated_ax, c, _ROW["down"], f"down_proj\nLinear {m} → {h}", "linear")
    _box(gated_ax, c, _ROW["y"], "y", "tensor", width=1.6)
    _arrow(
        gated_ax, (c - 0.6, _ROW["x"] - half), (left, _ROW["proj"] + half), shape(h), side="left"
    )
    _arrow(gated_ax, (c + 0.6, _ROW["x"] - half), (right, _ROW["proj"] + half), shape(h))
    _arrow(gated_ax, (left, _ROW["proj"] - half), (left, _ROW["act"] + half), shape(m))
    _arrow(
        gated_ax, (left, _ROW["act"] - half), (c - 0.36, _ROW["mul"] + 0.22), shape(m), side="left"
    )
    _arrow(gated_ax, (right, _ROW["proj"] - half), (c + 0.36, _ROW["mul"] + 0.22), shape(m))
    _arrow(gated_ax, (c, _ROW["mul"] - 0.42), (c, _ROW["down"] + half), shape(m))
    _arrow(gated_ax, (c, _ROW["down"] - half), (c, _ROW["y"] + half), shape(h))
    gated_ax.text(
        c + 0.7,
        _ROW["mul"],
        "element-wise\nproduct",
        fontsize=7.5,
        ha="left",
        va="center",
        color="#333333",
    )

    if hidden_size and plain_size:
        plain_count = f"2·{h}·{wide} = {2 * hidden_size * plain_size:,} weights"
    else:
        plain_count = f"2·h·{wide} = 8h² weights" if plain_size is None else f"2·h·{wide} weights"
    if hidden_size and gated_size:
        gated_count = f"3·{h}·{m} = {3 * hidden_size * gated_size:,} weights"
    else:
        gated_count = f"3·h·{m} weights (= 8h² at m = 8h/3)"
    variant = _GLU_NAMES.get(gate_act.lower(), "Gated")
    for ax, title in (
        (plain_ax, f"Plain FFN: 2 matrices\n{plain_count}"),
        (gated_ax, f"{variant} FFN: 3 matrices\n{gated_count}"),
    ):
        ax.set_xlim(0, 10)
        ax.set_ylim(0.3, 11.9)
        ax.set_aspect("equal")
        ax.set_axis_off()
        ax.set_title(title, fontsize=10)
    return fig
