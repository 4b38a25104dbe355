"""Lesson 04's pictures: the width task's fits, loss curves, the width sweep and sparsity.

Each function draws results computed in ``width.py``; none of them trains anything.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import NullLocator

from ..activations import activation_label
from ..lessons.l04_width import SparsityStats, WidthFit, WidthTask
from .style import MLP_COLOR, PALETTE, axes_or_new, finish, new_figure, series_style

__all__ = [
    "plot_hidden_sparsity",
    "plot_width_dashboard",
    "plot_width_fit",
    "plot_width_fits",
    "plot_width_loss_curves",
    "plot_width_sweep",
    "ratio_label",
]


def ratio_label(ratio: float) -> str:
    """``0.5`` → ``"½"``, ``4.0`` → ``"4"``: how the lessons write a width ratio m/h."""
    return "½" if ratio == 0.5 else f"{ratio:g}"


def plot_width_fit(
    fit: WidthFit,
    task: WidthTask,
    coords: Sequence[int] | None = None,
    ax: Axes | None = None,
    title: str | None = None,
    legend: bool = True,
) -> Figure:
    """Target waves (thick, pale) and the FFN's outputs (thin, same colour) against token t.

    ``coords`` picks output coordinates to show (default: the slowest, a middle and the fastest).
    ``legend=False`` leaves the legend (and the headroom made for it) out.
    """
    fig, ax = axes_or_new(ax, (6.0, 4.0))
    h = task.hidden_size
    for i, k in enumerate(coords if coords is not None else (0, h // 2, h - 1)):
        if not 0 <= k < h:
            raise ValueError(f"coordinate {k} is outside 0..{h - 1}")
        t = task.t.cpu()
        ax.plot(
            t,
            task.targets[:, k].cpu(),
            color=PALETTE[i],
            linewidth=4.0,
            alpha=0.3,
            label="targets (thick, pale)" if i == 0 else None,
        )
        ax.plot(
            t,
            fit.prediction[:, k].cpu(),
            color=PALETTE[i],
            linewidth=1.5,
            label=f"output {k} (ω = {float(task.freqs[k]):.2g})",
        )
    title = title or (
        f"{activation_label(fit.act)}, m/h = {ratio_label(fit.ratio)} "
        f"(m = {fit.intermediate_size}): MSE {fit.final_loss:.4f}"
    )
    finish(ax, title=title, xlabel="token coordinate t", ylabel="output value")
    if legend:
        low, high = ax.get_ylim()
        ax.set_ylim(low, high + 0.5 * (high - low))  # headroom so the legend covers no curve
        ax.legend(fontsize=7, frameon=False, loc="upper center", ncol=2)
    return fig


def plot_width_fits(fits: Sequence[WidthFit], task: WidthTask) -> Figure:
    """``plot_width_fit`` for several fits side by side (one panel each, same y range)."""
    if not fits:
        raise ValueError("plot_width_fits needs at least one fit")
    fig, axes = new_figure(1, len(fits), panel_size=(4.6, 3.6))
    for f, ax in zip(fits, axes, strict=True):
        plot_width_fit(f, task, ax=ax)
    low = min(ax.get_ylim()[0] for ax in axes)
    high = max(ax.get_ylim()[1] for ax in axes)
    for ax in axes:
        ax.set_ylim(low, high)
    return fig


def plot_width_loss_curves(
    fits: Sequence[WidthFit],
    ax: Axes | None = None,
    title: str = "Wider FFNs reach a lower loss in the same number of steps",
) -> Figure:
    """Training MSE against step for each fit (log scale), labelled by activation and m/h."""
    if not fits:
        raise ValueError("plot_width_loss_curves needs at least one fit")
    fig, ax = axes_or_new(ax, (6.0, 4.0))
    same_act = len({f.act for f in fits}) == 1
    for i, f in enumerate(fits):
        color = PALETTE[i % 7] if same_act else series_style(f.act)["color"]
        label = (
            f"m/h = {ratio_label(f.ratio)}"
            if same_act
            else f"{activation_label(f.act)}, m/h = {ratio_label(f.ratio)}"
        )
        ax.semilogy(range(1, len(f.losses) + 1), f.losses, color=color, linewidth=1.5, label=label)
    finish(
        ax,
        title=title,
        xlabel="training step (full-batch Adam)",
        ylabel="MSE (log scale)",
        legend=True,
    )
    return fig


def plot_width_sweep(
    sweep: Mapping[str, Sequence[WidthFit]],
    ax: Axes | None = None,
    title: str = "Fit quality against width: every activation gains from going wide",
) -> Figure:
    """Final MSE against width ratio m/h (both log-scaled), one line per activation."""
    fig, ax = axes_or_new(ax, (6.0, 4.0))
    for act, fits in sweep.items():
        style = series_style(act)
        ax.loglog(
            [f.ratio for f in fits],
            [f.final_loss for f in fits],
            color=style["color"],
            linestyle=style["linestyle"],
            marker=style["marker"],
            linewidth=1.6,
            markersize=5,
            label=activation_label(act),
        )
    ratios = sorted({f.ratio for fits in sweep.values() for f in fits})
    ax.set_xticks(ratios, [ratio_label(r) for r in ratios])
    ax.minorticks_off()
    finish(
        ax,
        title=title,
        xlabel="width ratio m/h (intermediate_size / hidden_size)",
        ylabel="final MSE (log scale)",
        legend=True,
    )
    return fig


def plot_hidden_sparsity(
    stats: Mapping[str, SparsityStats],
    axes: Sequence[Axes] = (),
    title: str = "ReLU zeroes over half the entries; GELU, SiLU mostly leave small values",
) -> Figure:
    """Left: fraction of hidden entries exactly 0 and near 0 per activation. Right: histograms."""
    if not stats:
        raise ValueError("plot_hidden_sparsity needs at least one activation's stats")
    if axes:
        left, right = axes
        fig = left.figure
    else:
        fig, (left, right) = new_figure(1, 2, panel_size=(5.0, 3.6))
    names = list(stats)
    xs = range(len(names))
    tol = next(iter(stats.values())).tol
    left.bar(
        [x - 0.2 for x in xs],
        [stats[n].exact_zero for n in names],
        width=0.4,
        color=MLP_COLOR,
        label="exactly 0",
    )
    left.bar(
        [x + 0.2 for x in xs],
        [stats[n].near_zero for n in names],
        width=0.4,
        color=PALETTE[0],
        label=f"|a| < {tol:g}·rms",
    )
    left.set_xticks(list(xs), [activation_label(n) for n in names])
    left.set_ylim(0, 1)
    finish(left, title=title, xlabel="activation", ylabel="fraction of hidden entries", legend=True)
    for name in names:
        values = stats[name].values
        rms = float(values.pow(2).mean().sqrt())
        style = series_style(name)
        right.hist(
            (values / rms).numpy(),
            bins=121,
            range=(-3, 3),  # tails beyond ±3 dropped
            histtype="step",
            color=style["color"],
            linestyle=style["linestyle"],
            linewidth=1.4,
            label=activation_label(name),
        )
    right.set_yscale("log")
    finish(
        right,
        title="Hidden values in units of each layer's rms (±3 shown)",
        xlabel="hidden activation a / rms(a)",
        ylabel="count (log scale)",
        legend=True,
    )
    return fig


def plot_width_dashboard(
    fit: WidthFit,
    task: WidthTask,
    reference: WidthFit | None = None,
) -> Figure:
    """The lesson-04 widget's picture: the fit and the loss curve, the parameter count on top.

    ``reference`` (another fit, e.g. the narrowest) is drawn faintly in the loss panel. Kept to
    two panels and few tick labels: text layout is most of a redraw's cost.
    """
    fig, (ax_fit, ax_loss) = new_figure(1, 2, panel_size=(4.4, 3.3))
    h = task.hidden_size
    coords = (0, h // 2, h - 1)
    omegas = ", ".join(f"{float(task.freqs[k]):.2g}" for k in coords)
    # No legend here: it is a fifth of the render time, and the title carries what it said.
    plot_width_fit(
        fit,
        task,
        coords=coords,
        ax=ax_fit,
        legend=False,
        title=f"fit: outputs (thin) vs targets (pale), ω = {omegas}",
    )
    if reference is not None:
        ax_loss.semilogy(
            range(1, len(reference.losses) + 1),
            reference.losses,
            color="0.7",
            linewidth=1.2,
            label=f"m/h = {ratio_label(reference.ratio)}",
        )
    ax_loss.semilogy(
        range(1, len(fit.losses) + 1),
        fit.losses,
        color=series_style(fit.act)["color"],
        linewidth=1.6,
        label=f"m/h = {ratio_label(fit.ratio)}",
    )
    # A fixed range (unless a loss falls outside it) keeps the axis still as the slider moves.
    losses = [*fit.losses, *(reference.losses if reference is not None else ())]
    ax_loss.set_ylim(min(3e-4, min(losses) / 2), max(1.0, max(losses) * 2))
    ax_loss.yaxis.set_minor_locator(NullLocator())
    finish(
        ax_loss,
        title=f"loss: final MSE {fit.final_loss:.4f}",
        xlabel="training step",
        ylabel="MSE (log scale)",
    )
    ax_loss.legend(fontsize=8, frameon=False, loc="upper right")
    fig.suptitle(
        f"{activation_label(fit.act)}, m/h = {ratio_label(fit.ratio)}: "
        f"m = {fit.intermediate_size} hidden units, "
        f"2·h·m = {fit.parameters:,} parameters",
        fontsize=11,
    )
    return fig
