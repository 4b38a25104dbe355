"""Lesson 03's pictures: activation curves, their derivatives, Swish's β, gradients vs depth.

Each function draws results computed in ``gradients.py``; none of them computes an experiment.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from matplotlib.axes import Axes
from matplotlib.figure import Figure
from torch import Tensor

from ..activations import activation_label
from ..lessons.l03_activations import ActivationCurves, DepthSweep, Extremum, SwishFamily
from .style import axes_or_new, finish, new_figure, series_style

__all__ = [
    "plot_activation_curves",
    "plot_activation_derivatives",
    "plot_activation_pair",
    "plot_gradient_vs_depth",
    "plot_swish_beta",
]


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

    ``extrema`` (name → ``Extremum``) marks and labels points such as SiLU's minimum.
    """
    fig, ax = axes_or_new(ax, (6.4, 4.2))
    for name in names or curves.names:
        _line(ax, curves.x, curves.values[name], name)
    for i, (name, point) in enumerate((extrema or {}).items()):
        color = series_style(name)["color"]
        ax.plot([point.x], [point.value], marker="o", color=color, markersize=6, zorder=5)
        # Alternate the labels below-left and below-right so neighbouring minima stay readable.
        offset = (-95, -30) if i % 2 == 0 else (25, -34)
        ax.annotate(
            f"{activation_label(name)} min\n({point.x:.3f}, {point.value:.3f})",
            (point.x, point.value),
            textcoords="offset points",
            xytext=offset,
            fontsize=7,
            color=color,
            arrowprops={"arrowstyle": "-", "color": color},
        )
    ax.axhline(0.0, color="0.5", linewidth=0.6)
    ax.axvline(0.0, color="0.5", linewidth=0.6)
    finish(ax, title=title, xlabel="input x (pre-activation)", ylabel="output f(x)", legend=True)
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
    """Draw Swish_β for every β in ``family``, with the two limits x/2 and ReLU as references."""
    fig, ax = axes_or_new(ax, (6.4, 4.2))
    x = family.x.cpu()
    ax.plot(x, x / 2, color="0.55", linewidth=1.2, linestyle="--", label="x/2 (β → 0)")
    ax.plot(x, x.clamp_min(0), color="0.2", linewidth=1.2, linestyle=":", label="ReLU (β → ∞)")
    for i, (beta, values) in enumerate(family.values.items()):
        style = series_style(i)  # colour and dash per β, so greyscale prints stay readable
        ax.plot(
            x,
            values.cpu(),
            color=style["color"],
            linestyle=style["linestyle"],
            linewidth=1.8,
            label=f"β = {beta:g}",
        )
    ax.axhline(0.0, color="0.5", linewidth=0.6)
    finish(ax, title=title, xlabel="input x", ylabel="x·σ(βx)", legend=True)
    return fig


def plot_gradient_vs_depth(
    sweep: DepthSweep,
    ax: Axes | None = None,
    title: str = "Gradient reaching layer 1: sigmoid's vanishes, ReLU's survives",
) -> Figure:
    """Draw ‖∂L/∂W₁‖ against stack depth, one line per activation, log-scaled."""
    fig, ax = axes_or_new(ax, (6.4, 4.2))
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
            label=f"{activation_label(name)} (×{sweep.decay_per_layer(name):.2f}/layer)",
        )
    finish(
        ax,
        title=title,
        xlabel="depth (Linear → activation layers)",
        ylabel="‖∂L/∂W₁‖ (log scale)",
        legend=True,
    )
    return fig
