"""Lesson 05's pictures: gate value distributions, the equal-budget race, one gated unit in 1-D."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import torch
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from torch import Tensor

from ..gating import BudgetResult, GatedCurve
from .style import PALETTE, finish, new_figure, series_style


def _figure_and_axes(ax: Axes | None) -> tuple[Figure, Axes]:
    if ax is None:
        fig, (ax,) = new_figure()
        return fig, ax
    return ax.figure, ax


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
    fig, ax = _figure_and_axes(ax)
    flats = {label: values.detach().reshape(-1).double().cpu() for label, values in samples.items()}
    low = min(v.min().item() for v in flats.values())
    high = max(v.max().item() for v in flats.values())
    edges = torch.linspace(min(low, -closed_below), max(high, closed_below), bins + 1)
    ax.axvspan(-closed_below, closed_below, color=PALETTE[7], alpha=0.35, lw=0,
               label=f"closed: |gate| < {closed_below:g}")
    for index, (label, values) in enumerate(flats.items()):
        style = series_style(index)
        ax.hist(values.numpy(), bins=edges.numpy(), density=True, histtype="step", linewidth=1.6,
                color=style["color"], linestyle=style["linestyle"], label=label)
    ax.set_yscale("log")
    finish(ax, title=title or "Where the gate values fall (shaded: closed)",
           xlabel="gate value act(gate_proj(x))", ylabel="density (log scale)", legend=True)
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
        curves.plot(range(1, result.steps + 1), mean_curve.numpy(), color=style["color"],
                    linestyle="-" if gated else "--", linewidth=1.5, label=name)
        finals = [max(v, floor) for v in result.final_loss[name]]
        seeds_ax.scatter([index] * len(finals), finals, edgecolors=style["color"], s=28, zorder=3,
                         marker=style["marker"], facecolors=style["color"] if gated else "none")
        seeds_ax.plot([index - 0.3, index + 0.3], [max(result.mean(name), floor)] * 2,
                      color=style["color"], linewidth=2)
    for ax in (curves, seeds_ax):
        ax.set_yscale("log")
    seeds_ax.set_xticks(range(len(result.names)), result.names, rotation=35, ha="right",
                        fontsize=8)
    params = result.parameters[result.names[0]]
    finish(curves, title=title or f"Same budget, {params} weights each: training loss",
           xlabel="training step", ylabel="training MSE (mean over seeds)", legend=True)
    finish(seeds_ax, title=f"Final loss, {len(result.seeds)} seeds each (bar = mean)",
           ylabel="final training MSE")
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
    fig, ax = _figure_and_axes(ax)
    t = curve.t.numpy()
    for other in others:
        ax.plot(t, other.product.numpy(), color="0.75", linewidth=1.0)
    style = series_style(curve.act)
    ax.plot(t, curve.gate.numpy(), color=style["color"], linestyle="--", linewidth=1.4,
            label=f"gate: {curve.act}({curve.gate_scale:g}·t)")
    ax.plot(t, curve.up.numpy(), color="0.35", linestyle=":", linewidth=1.4, label="content: t")
    ax.plot(t, curve.product.numpy(), color=style["color"], linewidth=2.2,
            label="output: gate · content")
    shown = torch.cat([curve.product, curve.gate, curve.up])
    low, high = min(float(shown.min()), -1.0), max(float(shown.max()), 1.0)
    pad = 0.08 * (high - low)
    ax.set_ylim(low - pad, high + pad)
    ax.axhline(0, color="0.5", linewidth=0.6)
    finish(ax, title=_gated_title(curve.act),
           xlabel="t (both projections of one input)", ylabel="value", legend=True)
    return fig
