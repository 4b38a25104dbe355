"""Lesson 05's pictures: gate value distributions, the equal-budget race, one gated unit in 1-D."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import torch
from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.legend import Legend
from matplotlib.lines import Line2D
from matplotlib.patches import Circle, FancyBboxPatch
from torch import Tensor

from ..ffn import GLU_VARIANTS
from ..i18n import tr
from ..lessons.l05_gating import BudgetResult, GatedCurve, contender_label
from .style import PALETTE, axes_or_new, finish, lay_out_once, new_figure, series_style

__all__ = [
    "GatedProductPanel",
    "lay_out_gated_product_once",
    "new_gated_product_panel",
    "plot_equal_budget",
    "plot_ffn_structure",
    "plot_gate_distribution",
    "plot_gated_product",
    "update_gated_product_panel",
]


def _variant_style(name: str) -> dict[str, object]:
    """The GLU variant's own style for a gated series; ``name`` is a variant or its activation."""
    return series_style(name if name in GLU_VARIANTS else _GLU_NAMES.get(name, name))


def _contender_style(result: BudgetResult, name: str) -> dict[str, object]:
    """Plain contenders take their activation's style, gated ones their GLU variant's."""
    kind, act = result.contenders[name]
    if kind == "gated":
        return _variant_style(name if name in GLU_VARIANTS else act)
    return series_style(act)


def plot_gate_distribution(
    trained: Mapping[str, Tensor],
    untrained: Mapping[str, Tensor] | None = None,
    closed_below: float = 0.1,
    bins: int = 60,
    axes: Sequence[Axes] | None = None,
    titles: Mapping[str, str] | None = None,
) -> Figure:
    """One panel per GLU variant: histogram of its gate values ``act(gate_proj(x))``.

    ``trained``: variant name → gate values of any shape (e.g. ``(N, m)`` from
    ``gate_activations``), drawn solid in the variant's colour. ``untrained``: the same variants
    before training (same initial weights), drawn dashed grey as the baseline. The band
    ``|a| < closed_below`` (closed gates) is shaded. ``titles``: variant → panel title (default:
    the variant's name). ``axes``: one axes per variant; otherwise a new one-row figure.
    """
    if not trained:
        raise ValueError("trained is empty; expected at least one variant → gate values")
    untrained = {} if untrained is None else untrained
    unknown = set(untrained) - set(trained)
    if unknown:
        raise ValueError(f"untrained has variants {sorted(unknown)} that trained does not have")
    if axes is None:
        fig, axes = new_figure(1, len(trained), panel_size=(3.3, 3.0))
    elif len(axes) != len(trained):
        raise ValueError(f"axes must hold {len(trained)} axes (one per variant), got {len(axes)}")
    fig = axes[0].figure
    for ax, (name, values) in zip(axes, trained.items(), strict=True):
        series = {"trained": values.detach().reshape(-1).double().cpu()}
        if name in untrained:
            series["untrained"] = untrained[name].detach().reshape(-1).double().cpu()
        low = min(min(v.min().item() for v in series.values()), -closed_below)
        high = max(max(v.max().item() for v in series.values()), closed_below)
        edges = torch.linspace(low, high, bins + 1).numpy()
        ax.axvspan(-closed_below, closed_below, color=PALETTE[7], alpha=0.35, lw=0)
        if "untrained" in series:
            ax.hist(
                series["untrained"].numpy(),
                bins=edges,
                density=True,
                histtype="step",
                linewidth=1.3,
                color="0.45",
                linestyle="--",
                label=tr("untrained"),
            )
        ax.hist(
            series["trained"].numpy(),
            bins=edges,
            density=True,
            histtype="step",
            linewidth=1.7,
            color=_variant_style(name)["color"],
            label=tr("trained"),
        )
        ax.set_yscale("log")
        ax.minorticks_off()  # log axes draw dozens of unlabelled minor ticks; slow and not needed
        finish(
            ax,
            title=(titles or {}).get(name, contender_label(name)),
            xlabel=tr("gate value"),
            ylabel=tr("density (log)") if ax is axes[0] else None,
            legend=ax is axes[0],
        )
    return fig


def plot_equal_budget(
    result: BudgetResult,
    alone: Sequence[str] = ("Bilinear",),
    seeds_title: str | None = None,
    axes: Sequence[Axes] | None = None,
) -> Figure:
    """The equal-budget race in three panels (two when ``alone`` is empty).

    Left: every contender not in ``alone``, training loss per step, mean over seeds (line) and
    the lowest-to-highest seed (band). Middle: the final loss of every seed, one column per
    contender (bar = mean); ``seeds_title`` should state what those points show. Right: the
    contenders in ``alone`` (by default the bilinear FFN, whose loss falls many orders of magnitude
    below the rest), every seed's curve. Plain FFNs are dashed with hollow markers in their
    activation's colour; gated ones solid and filled in their GLU variant's colour. Loss axes are
    logarithmic.
    """
    unknown = [name for name in alone if name not in result.names]
    if unknown:
        raise ValueError(f"alone names {unknown}; expected contenders of the race: {result.names}")
    together = [name for name in result.names if name not in alone]
    panels = 3 if alone else 2
    if axes is None:
        fig, axes = new_figure(1, panels, panel_size=(4.3, 3.6))
    elif len(axes) != panels:
        raise ValueError(f"axes must hold {panels} axes, got {len(axes)}")
    fig = axes[0].figure
    curves, seeds_ax = axes[0], axes[1]
    steps = range(1, result.steps + 1)
    floor = 1e-16  # keep exact zeros on a log axis
    for name in together:
        style = _contender_style(result, name)
        gated = result.kind(name) == "gated"
        histories = torch.tensor(result.histories[name], dtype=torch.float64).clamp_min(floor)
        curves.fill_between(
            steps,
            histories.min(dim=0).values.numpy(),
            histories.max(dim=0).values.numpy(),
            color=style["color"],
            alpha=0.15,
            lw=0,
        )
        curves.plot(
            steps,
            histories.mean(dim=0).numpy(),
            color=style["color"],
            linestyle="-" if gated else "--",
            linewidth=1.5,
            label=contender_label(name),
        )
    for index, name in enumerate(together):
        style = _contender_style(result, name)
        gated = result.kind(name) == "gated"
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
        ax.minorticks_off()
    labels = [contender_label(name) for name in together]
    seeds_ax.set_xticks(range(len(together)), labels, rotation=35, ha="right", fontsize=8)
    params = result.parameters[result.names[0]]
    finish(
        curves,
        title=tr(
            "{params} weights each: training loss\n(line: mean of {seeds} seeds, "
            "band: lowest–highest)",
            params=params,
            seeds=len(result.seeds),
        ),
        xlabel=tr("training step"),
        ylabel=tr("training MSE"),
        legend=True,
    )
    finish(
        seeds_ax,
        title=seeds_title
        or tr("Final loss of each of {seeds} seeds (bar: mean)", seeds=len(result.seeds)),
        ylabel=tr("final training MSE"),
    )
    if alone:
        alone_ax = axes[2]
        for name in alone:
            style = _contender_style(result, name)
            for seed_index, history in enumerate(result.histories[name]):
                alone_ax.plot(
                    steps,
                    [max(v, floor) for v in history],
                    color=style["color"],
                    linewidth=1.0,
                    alpha=0.8,
                    label=contender_label(name) if seed_index == 0 else None,
                )
        alone_ax.set_yscale("log")
        alone_ax.minorticks_off()
        worst = max(max(result.final_loss[name]) for name in alone)
        # A loss near the rounding floor (1e-13 here) depends on the platform: the title claims
        # no bound below 1e-6.
        exponent = max(math.floor(math.log10(worst)) + 1, -6) if worst > 0 else None
        names = ", ".join(contender_label(name) for name in alone)
        if exponent is not None:
            title = tr(
                "{names} on its own:\nevery seed ends below 1e{exponent}",
                names=names,
                exponent=exponent,
            )
        else:
            title = tr("{names} on its own:\nevery seed ends at 0", names=names)
        finish(
            alone_ax,
            title=title,
            xlabel=tr("training step"),
            ylabel=tr("training MSE"),
            legend=True,
        )
    return fig


def _gated_title(curve: GatedCurve) -> str:
    name = curve.variant or tr("{act} gate", act=curve.act)
    if curve.act == "sigmoid":
        return tr("{name}: output ≈ t where open, ≈ 0 where shut", name=name)
    if curve.act == "identity":
        return tr("{name}: output = a·t², a pure product", name=name)
    return tr("{name}: output ≈ a·t² where open, ≈ 0 where shut", name=name)


def _gated_style(curve: GatedCurve) -> dict[str, object]:
    return _variant_style(curve.variant) if curve.variant else series_style(curve.act)


def _gate_label(curve: GatedCurve) -> str:
    return tr("gate: {act}({scale:g}·t)", act=curve.act, scale=curve.gate_scale)


def _gated_limits(curve: GatedCurve) -> tuple[float, float]:
    """The y range of ``plot_gated_product``: gate, content and product of ``curve`` (not the grey
    others), at least −1 to 1, padded by 8 %."""
    shown = torch.cat([curve.product, curve.gate, curve.up])
    low, high = min(float(shown.min()), -1.0), max(float(shown.max()), 1.0)
    pad = 0.08 * (high - low)
    return low - pad, high + pad


@dataclass(frozen=True)
class GatedProductPanel:
    """The artists of ``plot_gated_product``, kept so that ``update_gated_product_panel`` can
    show another curve on the same figure.

    ``others``: the grey products, one line each; ``gate``, ``content``, ``product``: the unit's
    three curves; ``zero``: the line at 0; ``legend``: the legend of the three curves and, when
    there are others, one entry for all the grey ones.
    """

    figure: Figure
    ax: Axes
    others: tuple[Line2D, ...]
    gate: Line2D
    content: Line2D
    product: Line2D
    zero: Line2D
    legend: Legend

    @property
    def dynamic(self) -> list[Artist]:
        """Every artist an update may change, in the order a full draw paints them: the y axis
        (limits, ticks, grid), the curves, the spines over them, the title and the legend. The x
        axis, its label and grid never change."""
        ax = self.ax
        curves = [*self.others, self.gate, self.content, self.product, self.zero]
        return [ax.yaxis, *curves, *ax.spines.values(), ax.title, self.legend]


def new_gated_product_panel(
    curve: GatedCurve, others: Sequence[GatedCurve] = (), ax: Axes | None = None
) -> GatedProductPanel:
    """Draw ``plot_gated_product``'s picture and return its artists (see ``GatedProductPanel``)."""
    fig, ax = axes_or_new(ax)
    t = curve.t.numpy()
    other_lines = tuple(
        ax.plot(
            t,
            other.product.numpy(),
            color="0.75",
            linewidth=1.0,
            label=tr("outputs of the other variants") if index == 0 else None,
        )[0]
        for index, other in enumerate(others)
    )
    style = _gated_style(curve)
    (gate,) = ax.plot(
        t,
        curve.gate.numpy(),
        color=style["color"],
        linestyle="--",
        linewidth=1.4,
        label=_gate_label(curve),
    )
    (content,) = ax.plot(
        t, curve.up.numpy(), color="0.35", linestyle=":", linewidth=1.4, label=tr("content: t")
    )
    (product,) = ax.plot(
        t,
        curve.product.numpy(),
        color=style["color"],
        linewidth=2.2,
        label=tr("output: gate · content"),
    )
    ax.set_ylim(*_gated_limits(curve))
    zero = ax.axhline(0, color="0.5", linewidth=0.6)
    finish(
        ax,
        title=_gated_title(curve),
        xlabel=tr("t (both projections of one input)"),
        ylabel=tr("value"),
    )
    # The unit's three curves first, then one grey entry for all the other variants.
    legend = ax.legend(
        handles=[gate, content, product, *other_lines[:1]], fontsize=8, frameon=False
    )
    return GatedProductPanel(fig, ax, other_lines, gate, content, product, zero, legend)


def update_gated_product_panel(
    panel: GatedProductPanel, curve: GatedCurve, others: Sequence[GatedCurve] = ()
) -> None:
    """Show ``curve`` and ``others`` in ``panel`` as ``plot_gated_product`` would draw them.

    ``others`` must hold as many curves as the panel has grey lines; every curve is drawn on its
    own ``t`` grid.
    """
    if len(others) != len(panel.others):
        raise ValueError(f"the panel has {len(panel.others)} grey curves; got {len(others)} others")
    for line, other in zip(panel.others, others, strict=True):
        line.set_data(other.t.numpy(), other.product.numpy())
    t = curve.t.numpy()
    color = _gated_style(curve)["color"]
    panel.gate.set_data(t, curve.gate.numpy())
    panel.content.set_data(t, curve.up.numpy())
    panel.product.set_data(t, curve.product.numpy())
    for line in (panel.gate, panel.product):
        line.set_color(color)
    panel.gate.set_label(_gate_label(curve))
    # The legend keeps its own copies of the three lines: its first text and the handles of the
    # gate and the product follow the unit. Its place ("best") is found anew at every draw.
    gate_handle, _content_handle, product_handle, *_grey = panel.legend.legend_handles
    panel.legend.get_texts()[0].set_text(_gate_label(curve))
    for handle in (gate_handle, product_handle):
        handle.set_color(color)
    panel.ax.set_ylim(*_gated_limits(curve))
    panel.ax.set_title(_gated_title(curve), fontsize=10)


def lay_out_gated_product_once(panel: GatedProductPanel, curves: Iterable[GatedCurve]) -> None:
    """Lay ``panel``'s figure out once for every curve in ``curves``, and keep that layout.

    The layout engine runs once with room for the widest y tick label any of ``curves`` shows;
    then it is switched off and the y label pinned where it was placed. For a figure whose
    updates are drawn over one rendered background (a widget): as the curve, and with it the y
    limits and tick labels, changes, the axes and the y label stay where they are.
    """
    lay_out_once(panel.figure, {panel.ax: [_gated_limits(curve) for curve in curves]})


def plot_gated_product(
    curve: GatedCurve, others: Sequence[GatedCurve] = (), ax: Axes | None = None
) -> Figure:
    """One gated unit on a line: ``act(a·t)`` (gate), ``t`` (content) and their product.

    The unit is drawn in its GLU variant's colour (its activation's when ``curve.variant`` is
    ``None``); ``others``: products of other gate activations, drawn thin and grey, with one legend
    entry for all of them.
    """
    return new_gated_product_panel(curve, others, ax).figure


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
    _box(plain_ax, c, _ROW["act"], tr("activation\n{act}", act=plain_act), "act")
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
    _box(gated_ax, left, _ROW["act"], tr("activation\n{act}", act=gate_act), "act", width=3.0)
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
        tr("element-wise\nproduct"),
        fontsize=7.5,
        ha="left",
        va="center",
        color="#333333",
    )

    if hidden_size and plain_size:
        plain_count = tr(
            "2·{h}·{wide} = {n:,} weights", h=h, wide=wide, n=2 * hidden_size * plain_size
        )
    elif plain_size is None:
        plain_count = tr("2·h·{wide} = 8h² weights", wide=wide)
    else:
        plain_count = tr("2·h·{wide} weights", wide=wide)
    if hidden_size and gated_size:
        gated_count = tr("3·{h}·{m} = {n:,} weights", h=h, m=m, n=3 * hidden_size * gated_size)
    else:
        gated_count = tr("3·h·{m} weights (= 8h² at m = 8h/3)", m=m)
    variant = _GLU_NAMES.get(gate_act.lower(), tr("Gated"))
    for ax, title in (
        (plain_ax, tr("Plain FFN: 2 matrices\n{count}", count=plain_count)),
        (gated_ax, tr("{variant} FFN: 3 matrices\n{count}", variant=variant, count=gated_count)),
    ):
        ax.set_xlim(0, 10)
        ax.set_ylim(0.3, 11.9)
        ax.set_aspect("equal")
        ax.set_axis_off()
        ax.set_title(title, fontsize=10)
    return fig
