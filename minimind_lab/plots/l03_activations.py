"""Lesson 03's pictures: activation curves, their derivatives, Swish's β, gradients vs depth.

Each function draws results computed in ``lessons/l03_activations.py``; none of them computes an
experiment. Every activation keeps its ``series_style`` colour here as in every lesson.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from matplotlib import colormaps
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from torch import Tensor

from ..activations import activation_label
from ..lessons.l03_activations import ActivationCurves, DepthSweep, Extremum, SwishFamily
from .style import SEQUENTIAL_CMAP, axes_or_new, finish, new_figure, series_style

__all__ = [
    "plot_activation_curves",
    "plot_activation_derivatives",
    "plot_activation_pair",
    "plot_gradient_by_block",
    "plot_gradient_vs_depth",
    "plot_swish_beta",
]

#: How each stack of the depth experiment is named in titles.
BLOCK_TITLES = {
    "plain": "plain: h ← f(Wh)",
    "residual": "residual: h ← h + f(Wh)",
    "prenorm": "pre-norm residual: h ← h + f(W·RMSNorm(h))",
}


def _line(ax: Axes, x: Tensor, y: Tensor, name: str, **extra: object) -> None:
    style = series_style(name)
    ax.plot(
        x.cpu(),
        y.cpu(),
        color=style["color"],
        linestyle=style["linestyle"],
        linewidth=1.8,
        label=activation_label(name),
        **extra,
    )


def plot_activation_curves(
    curves: ActivationCurves,
    names: Sequence[str] | None = None,
    extrema: Mapping[str, Extremum] | None = None,
    ax: Axes | None = None,
    title: str = "ReLU cuts negatives to 0; GELU and SiLU dip below 0 and come back",
) -> Figure:
    """Draw f(x) for each activation in ``curves`` (or just ``names``), one colour per name.

    ``extrema`` (name → ``Extremum``) are marked in an inset that zooms on the negative dips,
    which are a few tenths deep and hard to read at the main scale.
    """
    fig, ax = axes_or_new(ax, (6.4, 4.2))
    shown = list(names or curves.names)
    for name in shown:
        _line(ax, curves.x, curves.values[name], name)
    ax.axhline(0.0, color="0.5", linewidth=0.6)
    ax.axvline(0.0, color="0.5", linewidth=0.6)
    finish(ax, title=title, xlabel="input x (pre-activation)", ylabel="output f(x)")
    ax.legend(fontsize=8, frameon=False, loc="lower right")
    if extrema:
        inset = ax.inset_axes([0.06, 0.5, 0.42, 0.42])
        xs = [p.x for p in extrema.values()]
        ys = [p.value for p in extrema.values()]
        lo, hi = min(xs) - 1.0, max(0.4, max(xs) + 0.8)
        # Only the curves with a marked minimum, and ReLU's flat zero for reference: the steep
        # tanh line would cross the labels.
        for name in [n for n in shown if n in extrema or n == "relu"]:
            style = series_style(name)
            inset.plot(
                curves.x.cpu(),
                curves.values[name].cpu(),
                color=style["color"],
                linestyle=style["linestyle"],
                linewidth=1.4,
            )
        deepest = min(extrema, key=lambda n: extrema[n].value)
        for name, point in extrema.items():
            color = series_style(name)["color"]
            inset.plot([point.x], [point.value], marker="o", color=color, markersize=4, zorder=5)
            # The deepest minimum is labelled below its point, the others further to the lower
            # right, below the deepest curve, so no label sits on a curve.
            below = name == deepest
            inset.annotate(
                f"{activation_label(name).split(' /')[0]} min\n({point.x:.3f}, {point.value:.3f})",
                (point.x, point.value),
                textcoords="offset points",
                xytext=(0, -10) if below else (12, -26),
                ha="center" if below else "left",
                va="top",
                fontsize=6.5,
                color=color,
            )
        inset.set_xlim(lo, hi)
        inset.set_ylim(min(ys) * 1.9, 0.12)
        inset.axhline(0.0, color="0.5", linewidth=0.5)
        inset.axvline(0.0, color="0.5", linewidth=0.5)
        inset.tick_params(labelsize=6.5)
        inset.set_title("zoom on the dips", fontsize=7)
        ax.indicate_inset_zoom(inset, edgecolor="0.4")
    return fig


def plot_activation_derivatives(
    curves: ActivationCurves,
    names: Sequence[str] | None = None,
    ax: Axes | None = None,
    title: str = "Derivatives: ReLU is 0 or 1; sigmoid never passes 0.25",
) -> Figure:
    """Draw the autograd derivative f'(x) for each activation in ``curves`` (or just ``names``)."""
    fig, ax = axes_or_new(ax, (6.4, 4.2))
    for name in names or curves.names:
        _line(ax, curves.x, curves.derivatives[name], name)
    ax.axhline(0.25, color=series_style("sigmoid")["color"], linewidth=0.8, linestyle=":")
    ax.annotate(
        "0.25",
        (float(curves.x[0]), 0.25),
        textcoords="offset points",
        xytext=(2, 3),
        fontsize=7,
        color=series_style("sigmoid")["color"],
    )
    ax.axhline(0.0, color="0.5", linewidth=0.6)
    ax.axvline(0.0, color="0.5", linewidth=0.6)
    finish(
        ax, title=title, xlabel="input x (pre-activation)", ylabel="derivative f'(x)", legend=True
    )
    return fig


def plot_activation_pair(
    curves: ActivationCurves, name: str, context: Sequence[str] = (), axes: Sequence[Axes] = ()
) -> Figure:
    """One activation's curve and derivative side by side; ``context`` names drawn faintly."""
    if name not in curves.values:
        raise ValueError(f"{name!r} is not in the curves; expected one of {curves.names}")
    if axes:
        left, right = axes
        fig = left.figure
    else:
        fig, (left, right) = new_figure(1, 2)
    for other in context:
        if other != name:
            for ax, series in ((left, curves.values), (right, curves.derivatives)):
                ax.plot(curves.x.cpu(), series[other].cpu(), color="0.75", linewidth=1.0)
    _line(left, curves.x, curves.values[name], name)
    _line(right, curves.x, curves.derivatives[name], name)
    for ax in (left, right):
        ax.axhline(0.0, color="0.5", linewidth=0.6)
        ax.axvline(0.0, color="0.5", linewidth=0.6)
    label = activation_label(name)
    finish(left, title=f"{label}: f(x)", xlabel="input x", ylabel="output f(x)")
    finish(right, title=f"{label}: f'(x) (autograd)", xlabel="input x", ylabel="derivative f'(x)")
    return fig


def plot_swish_beta(
    family: SwishFamily,
    ax: Axes | None = None,
    title: str = "x·σ(βx): β → 0 flattens to x/2, β → ∞ sharpens to ReLU",
) -> Figure:
    """Draw Swish_β for every β in ``family``, with the two limits x/2 and ReLU as references.

    β is an ordered knob, so the curves take shades of one sequential colormap (dark: small β)
    that no activation uses; β = 1 is labelled SiLU. The two limits are drawn on top, thin and
    black/grey, so a curve close to them (β = 10 against ReLU) never hides them.
    """
    fig, ax = axes_or_new(ax, (6.4, 4.2))
    x = family.x.cpu()
    betas = list(family.values)
    cmap = colormaps[SEQUENTIAL_CMAP]
    for i, beta in enumerate(betas):
        shade = cmap(0.1 + 0.75 * i / max(1, len(betas) - 1))
        ax.plot(
            x,
            family.values[beta].cpu(),
            color=shade,
            linewidth=2.6,
            alpha=0.9,
            label=f"β = {beta:g}" + (" (SiLU)" if beta == 1 else ""),
        )
    ax.plot(x, x / 2, color="0.45", linewidth=1.1, linestyle="--", label="x/2 (β → 0)", zorder=4)
    ax.plot(
        x,
        x.clamp_min(0),
        color="black",
        linewidth=1.1,
        linestyle=":",
        label="ReLU (β → ∞)",
        zorder=4,
    )
    ax.axhline(0.0, color="0.5", linewidth=0.6)
    finish(ax, title=title, xlabel="input x", ylabel="x·σ(βx)")
    ax.legend(fontsize=8, frameon=False, loc="upper left")
    return fig


def plot_gradient_vs_depth(
    sweep: DepthSweep,
    ax: Axes | None = None,
    title: str | None = None,
    legend: bool = True,
) -> Figure:
    """Draw ‖∂L/∂W₁‖ against stack depth, one line per activation, log-scaled.

    The legend gives each activation's measured factor per layer. The default title names the
    stack (``sweep.block``) and the slowest and fastest factor.
    """
    fig, ax = axes_or_new(ax, (6.4, 4.2))
    factors = {name: sweep.decay_per_layer(name) for name in sweep.norms}
    for name, norms in sweep.norms.items():
        style = series_style(name)
        ax.semilogy(
            sweep.depths,
            norms,
            color=style["color"],
            linestyle=style["linestyle"],
            marker=style["marker"],
            markersize=4,
            linewidth=1.6,
            label=f"{activation_label(name)} (×{factors[name]:.2f}/layer)",
        )
    if title is None:
        low = min(factors, key=factors.get)
        high = max(factors, key=factors.get)
        title = (
            f"{BLOCK_TITLES[sweep.block]}\nper layer: {activation_label(low)} ×{factors[low]:.2f} "
            f"… {activation_label(high)} ×{factors[high]:.2f}"
        )
    finish(
        ax,
        title=title,
        xlabel="depth (blocks)",
        ylabel="‖∂L/∂W₁‖ (log scale)",
        legend=legend,
    )
    return fig


def plot_gradient_by_block(sweeps: Mapping[str, DepthSweep]) -> Figure:
    """One ``plot_gradient_vs_depth`` panel per stack (plain, residual, pre-norm), same y-axis."""
    if not sweeps:
        raise ValueError("plot_gradient_by_block needs at least one sweep")
    fig, axes = new_figure(1, len(sweeps), panel_size=(4.4, 3.8))
    for ax, sweep in zip(axes, sweeps.values(), strict=True):
        plot_gradient_vs_depth(sweep, ax=ax)
        ax.legend(fontsize=6.5, frameon=False)
        ax.title.set_fontsize(8.5)
    low = min(ax.get_ylim()[0] for ax in axes)
    high = max(ax.get_ylim()[1] for ax in axes)
    for ax in axes:
        ax.set_ylim(low, high)  # one scale, so the panels compare at a glance
    return fig
