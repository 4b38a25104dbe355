"""Lesson 04's pictures: the width task's fits, loss curves, the width sweep, the equal-parameter
control and sparsity.

Each function draws results computed in ``lessons/l04_width.py``; none of them trains anything.
Activations keep their ``series_style`` colour; ordered things that are not activations (the
waves, the widths) take shades of the sequential colormap, so they never borrow an activation's
colour.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from matplotlib import colormaps
from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.legend import Legend
from matplotlib.lines import Line2D
from matplotlib.text import Text
from matplotlib.ticker import NullLocator
from torch import Tensor

from ..activations import activation_label
from ..i18n import tr
from ..lessons.l04_width import ParameterControl, SparsityStats, WidthFit, WidthRuns, WidthTask
from .style import SEQUENTIAL_CMAP, axes_or_new, finish, new_figure, series_style

__all__ = [
    "WidthDashboard",
    "loss_label",
    "loss_limits",
    "new_width_dashboard",
    "plot_hidden_sparsity",
    "plot_parameter_control",
    "plot_width_dashboard",
    "plot_width_fit",
    "plot_width_fits",
    "plot_width_loss_curves",
    "plot_width_sweep",
    "ratio_label",
    "shown_coords",
    "update_width_dashboard",
]


def _shade(i: int, n: int) -> tuple[float, float, float, float]:
    """The i-th of n shades of the sequential colormap, dark to light (the lightest is skipped:
    too pale for a line)."""
    return colormaps[SEQUENTIAL_CMAP](0.05 + 0.75 * i / max(1, n - 1))


def shown_coords(hidden_size: int) -> tuple[int, int, int]:
    """The output coordinates a fit picture shows by default: the slowest wave, a middle one and
    the fastest."""
    return 0, hidden_size // 2, hidden_size - 1


def ratio_label(ratio: float) -> str:
    """``0.5`` → ``"½"``, ``4.0`` → ``"4"``: how the lessons write a width ratio m/h."""
    return "½" if ratio == 0.5 else f"{ratio:g}"


def loss_label(loss: float) -> str:
    """A loss to two significant digits: ``0.2971`` → ``"0.30"``, ``0.00264`` → ``"0.0026"``.

    The same run alone and inside a batch parts by 1 % within a few hundred steps from float
    rounding alone (lesson 04), so a third digit would be noise; a figure, a table and the
    widget all print losses this way.
    """
    if isinstance(loss, bool) or not isinstance(loss, (int, float)) or not loss >= 0:
        raise ValueError(f"a loss must be a non-negative number, got {loss!r}")
    return f"{loss:#.2g}"


def _fit_lines(
    ax: Axes, task: WidthTask, prediction: Tensor, coords: Sequence[int]
) -> list[tuple[Line2D, Line2D]]:
    """Per output coordinate in ``coords``: the target wave (thick, pale) and the FFN's output
    ``prediction[:, k]`` (thin, same colour), drawn in that order. Returns the (target, output)
    line pairs."""
    h = task.hidden_size
    t = task.t.cpu()
    pairs = []
    for i, k in enumerate(coords):
        if not 0 <= k < h:
            raise ValueError(f"coordinate {k} is outside 0..{h - 1}")
        (target,) = ax.plot(
            t,
            task.targets[:, k].cpu(),
            color=_shade(i, len(coords)),
            linewidth=4.0,
            alpha=0.3,
            label=tr("targets (thick, pale)") if i == 0 else None,
        )
        (output,) = ax.plot(
            t,
            prediction[:, k].cpu(),
            color=_shade(i, len(coords)),
            linewidth=1.5,
            label=tr("output {k} (ω = {omega:.2g})", k=k, omega=float(task.freqs[k])),
        )
        pairs.append((target, output))
    return pairs


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
    coords = tuple(coords if coords is not None else shown_coords(task.hidden_size))
    _fit_lines(ax, task, fit.prediction, coords)
    title = title or tr(
        "{act}, m/h = {ratio} (m = {m}), seed {seed}: MSE {mse}",
        act=activation_label(fit.act),
        ratio=ratio_label(fit.ratio),
        m=fit.intermediate_size,
        seed=fit.seed,
        mse=loss_label(fit.final_loss),
    )
    finish(ax, title=title, xlabel=tr("token coordinate t"), ylabel=tr("output value"))
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
    runs: Sequence[WidthRuns],
    threshold: float | None = None,
    ax: Axes | None = None,
    title: str | None = None,
) -> Figure:
    """Training MSE against step (log scale): one colour per width, one thin line per seed.

    ``threshold`` draws a dashed horizontal line (the MSE the lesson asks "when does it get
    there?" about). The default title names the activation(s) and the number of seeds.
    """
    if not runs:
        raise ValueError("plot_width_loss_curves needs at least one set of runs")
    fig, ax = axes_or_new(ax, (6.0, 4.0))
    acts = list(dict.fromkeys(r.act for r in runs))
    for i, r in enumerate(runs):
        color = _shade(i, len(runs))
        name = f"m/h = {ratio_label(r.ratio)}"
        if len(acts) > 1:
            name = f"{activation_label(r.act)}, {name}"
        for j, f in enumerate(r.fits):
            ax.semilogy(
                range(1, len(f.losses) + 1),
                f.losses,
                color=color,
                linewidth=1.2,
                alpha=0.85,
                label=name if j == 0 else None,
            )
    if threshold is not None:
        ax.axhline(
            threshold, color="0.3", linewidth=1.0, linestyle="--", label=f"MSE {threshold:g}"
        )
    if title is None:
        seeds = len(runs[0].fits)
        who = ", ".join(activation_label(a) for a in acts)
        title = tr(
            "{who}: training MSE, one line per seed ({seeds} per width)", who=who, seeds=seeds
        )
    finish(
        ax,
        title=title,
        xlabel=tr("training step (full-batch Adam)"),
        ylabel=tr("MSE (log scale)"),
        legend=True,
    )
    return fig


def plot_width_sweep(
    sweep: Mapping[str, Sequence[WidthRuns]],
    ax: Axes | None = None,
    title: str | None = None,
) -> Figure:
    """Final MSE against width ratio m/h (both log-scaled), one line per activation: the median
    over seeds, with bars from the lowest to the highest seed.

    Lines are nudged sideways a little so the bars of neighbouring activations do not overlap;
    the x labels give m/h and the weight count 2·h·m.
    """
    if not sweep:
        raise ValueError("plot_width_sweep needs at least one activation's runs")
    fig, ax = axes_or_new(ax, (6.4, 4.2))
    n = len(sweep)
    for i, (act, runs) in enumerate(sweep.items()):
        style = series_style(act)
        nudge = 1.045 ** (i - (n - 1) / 2)
        xs = [r.ratio * nudge for r in runs]
        medians = [r.median_loss for r in runs]
        lows = [r.median_loss - r.loss_range[0] for r in runs]
        highs = [r.loss_range[1] - r.median_loss for r in runs]
        ax.errorbar(
            xs,
            medians,
            yerr=[lows, highs],
            color=style["color"],
            linestyle=style["linestyle"],
            marker=style["marker"],
            linewidth=1.5,
            markersize=5,
            capsize=2,
            elinewidth=1.0,
            label=activation_label(act),
        )
    ax.set_xscale("log")
    ax.set_yscale("log")
    # Fixed decades (widened only if the data need it): a trained loss moves in its last digits
    # from CPU to CPU, and the axis, its ticks and gridlines should not move with it.
    lowest = min(r.loss_range[0] for runs in sweep.values() for r in runs)
    highest = max(r.loss_range[1] for runs in sweep.values() for r in runs)
    ax.set_ylim(min(5e-4, lowest / 2), max(1.0, highest * 2))
    first = next(iter(sweep.values()))
    ax.set_xticks(
        [r.ratio for r in first],
        [f"{ratio_label(r.ratio)}\n({r.parameters:,})" for r in first],
    )
    ax.minorticks_off()
    if title is None:
        seeds = len(first[0].fits)
        steps = len(first[0].fits[0].losses)
        title = tr(
            "Final MSE after {steps} steps: median of {seeds} seeds, bars min–max",
            steps=steps,
            seeds=seeds,
        )
    finish(
        ax,
        title=title,
        xlabel=tr("width ratio m/h (weights 2·h·m)"),
        ylabel=tr("final MSE (log scale)"),
        legend=True,
    )
    return fig


def plot_parameter_control(
    control: ParameterControl,
    ax: Axes | None = None,
    title: str | None = None,
) -> Figure:
    """Final MSE per seed at equal weights: one wide hidden layer (○) against several narrow ones
    (■) per activation, medians as bars, and the wide shape without an activation as a line."""
    fig, ax = axes_or_new(ax, (6.4, 4.2))
    acts = list(control.wide)
    wide_shape = control.wide[acts[0]].widths
    deep_shape = control.deep[acts[0]].widths
    for i, act in enumerate(acts):
        color = series_style(act)["color"]
        for offset, runs, filled in (
            (-0.17, control.wide[act], False),
            (0.17, control.deep[act], True),
        ):
            x = i + offset
            ax.scatter(
                [x] * len(runs.fits),
                runs.final_losses,
                s=26,
                marker="s" if filled else "o",
                facecolors=color if filled else "none",
                edgecolors=color,
                linewidths=1.2,
                zorder=3,
            )
            ax.plot([x - 0.12, x + 0.12], [runs.median_loss] * 2, color=color, linewidth=2.0)
    ax.axhline(control.linear.median_loss, color="0.4", linestyle="--", linewidth=1.0)
    ax.set_yscale("log")
    ax.set_xticks(range(len(acts)), [activation_label(a) for a in acts])
    ax.set_xlim(-0.6, len(acts) - 0.4)
    handles = [
        Line2D([], [], marker="o", color="0.2", markerfacecolor="none", linestyle="none"),
        Line2D([], [], marker="s", color="0.2", linestyle="none"),
        Line2D([], [], color="0.4", linestyle="--"),
    ]
    labels = [
        tr("one hidden layer of {m} units", m=wide_shape[1]),
        tr("{layers} hidden layers of {m} units", layers=len(deep_shape) - 2, m=deep_shape[1]),
        tr("one layer of {m}, no activation (linear)", m=wide_shape[1]),
    ]
    if title is None:
        title = tr(
            "{parameters:,} weights each: dots are seeds, bars are medians",
            parameters=control.parameters,
        )
    finish(ax, title=title, xlabel=tr("activation"), ylabel=tr("final MSE (log scale)"))
    low, high = ax.get_ylim()
    ax.set_ylim(low, high * 3)  # room above the linear line
    ax.legend(
        handles, labels, fontsize=7.5, frameon=False, loc="upper left", bbox_to_anchor=(0, 0.86)
    )
    return fig


def plot_hidden_sparsity(
    stats: Mapping[str, SparsityStats],
    axes: Sequence[Axes] = (),
    title: str | None = None,
) -> Figure:
    """Left: per activation, the share of hidden entries exactly 0 (solid) and below tol·rms
    (hatched), in the activation's colour. Right: histograms of the hidden values."""
    if not stats:
        raise ValueError("plot_hidden_sparsity needs at least one activation's stats")
    if axes:
        left, right = axes
        fig = left.figure
    else:
        fig, (left, right) = new_figure(1, 2, panel_size=(5.0, 3.6))
    names = list(stats)
    tol = next(iter(stats.values())).tol
    for x, name in enumerate(names):
        color = series_style(name)["color"]
        left.bar(x - 0.2, stats[name].exact_zero, width=0.38, color=color)
        left.bar(
            x + 0.2,
            stats[name].near_zero,
            width=0.38,
            facecolor="white",
            edgecolor=color,
            hatch="///",
            linewidth=1.0,
        )
    left.set_xticks(list(range(len(names))), [activation_label(n) for n in names])
    left.set_ylim(0, 1)
    left.legend(
        handles=[
            Line2D([], [], color="0.3", linewidth=6),
            Line2D([], [], color="0.3", linewidth=0, marker="s", markerfacecolor="white"),
        ],
        labels=[tr("exactly 0 (solid)"), tr("|a| < {tol:g}·rms (hatched)", tol=tol)],
        fontsize=8,
        frameon=False,
    )
    finish(
        left,
        title=title
        or tr("Hidden entries exactly 0 and below {tol:g}·rms, per activation", tol=tol),
        xlabel=tr("activation"),
        ylabel=tr("fraction of hidden entries"),
    )
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
        title=tr("Hidden values in units of each layer's rms (±3 shown)"),
        xlabel=tr("hidden activation a / rms(a)"),
        ylabel=tr("count (log scale)"),
        legend=True,
    )
    return fig


def loss_limits(losses: Sequence[float]) -> tuple[float, float]:
    """The loss panel's y range (log scale) for these MSE values: 3e-4 to 1, or down to half the
    lowest value and up to twice the highest where those lie beyond."""
    return min(3e-4, min(losses) / 2), max(1.0, max(losses) * 2)


@dataclass(frozen=True)
class WidthDashboard:
    """The artists of ``plot_width_dashboard``'s figure, so another fit can be drawn into it.

    ``fit_lines``: (target, output) per coordinate shown; ``loss``: the fit's loss curve;
    ``reference``: the faint reference loss curve (hidden when there is none); ``legends``: the
    loss panel's legend with the reference and without it (one is visible); ``loss_title`` and
    ``suptitle`` name the fit. Axes limits are fixed when it is built.
    """

    figure: Figure
    fit_ax: Axes
    loss_ax: Axes
    fit_lines: tuple[tuple[Line2D, Line2D], ...]
    coords: tuple[int, ...]
    loss: Line2D
    reference: Line2D
    legends: tuple[Legend, Legend]
    loss_title: Text
    suptitle: Text

    def changing_artists(self) -> list[Artist]:
        """Everything another fit changes, in drawing order (the rest stays as drawn)."""
        lines = [line for pair in self.fit_lines for line in pair]
        return [*lines, self.reference, self.loss, *self.legends, self.loss_title, self.suptitle]


def new_width_dashboard(
    fit: WidthFit,
    task: WidthTask,
    reference: WidthFit | None = None,
    fit_ylim: tuple[float, float] | None = None,
    loss_ylim: tuple[float, float] | None = None,
) -> WidthDashboard:
    """``plot_width_dashboard``'s picture of ``fit``, with handles to draw other fits into it.

    ``fit_ylim`` and ``loss_ylim`` fix the panels' y ranges (default: this fit's own, as
    ``plot_width_dashboard`` draws it); ``update_width_dashboard`` keeps them, so give ranges
    that hold every fit to be shown.
    """
    fig, (ax_fit, ax_loss) = new_figure(1, 2, panel_size=(4.4, 3.3))
    coords = shown_coords(task.hidden_size)
    omegas = ", ".join(f"{float(task.freqs[k]):.2g}" for k in coords)
    # No legend here: the title carries what it would say.
    fit_lines = _fit_lines(ax_fit, task, fit.prediction, coords)
    finish(
        ax_fit,
        title=tr("fit: outputs (thin) vs targets (pale), ω = {omegas}", omegas=omegas),
        xlabel=tr("token coordinate t"),
        ylabel=tr("output value"),
    )
    if fit_ylim is not None:
        ax_fit.set_ylim(fit_ylim)
    steps = range(1, len(fit.losses) + 1)
    (reference_line,) = ax_loss.semilogy(steps, fit.losses, color="0.7", linewidth=1.2)
    (loss_line,) = ax_loss.semilogy(steps, fit.losses, linewidth=1.6)
    losses = [*fit.losses, *(reference.losses if reference is not None else ())]
    ax_loss.set_ylim(loss_ylim if loss_ylim is not None else loss_limits(losses))
    ax_loss.yaxis.set_minor_locator(NullLocator())
    finish(ax_loss, xlabel=tr("training step"), ylabel=tr("MSE (log scale)"))
    # Both legends are made now, the one for the current fit shown; the first stays an artist
    # of the axes when the second is made.
    with_reference = ax_loss.legend(
        [reference_line, loss_line], [" ", " "], fontsize=8, frameon=False, loc="upper right"
    )
    ax_loss.add_artist(with_reference)
    alone = ax_loss.legend([loss_line], [" "], fontsize=8, frameon=False, loc="upper right")
    # y = 1 given, not searched for: no axis sits above, and the search measures every tick label.
    loss_title = ax_loss.set_title(" ", fontsize=10, y=1.0)
    ax_fit.set_title(ax_fit.get_title(), fontsize=10, y=1.0)
    suptitle = fig.suptitle(" ", fontsize=11)
    dashboard = WidthDashboard(
        fig,
        ax_fit,
        ax_loss,
        tuple(fit_lines),
        coords,
        loss_line,
        reference_line,
        (with_reference, alone),
        loss_title,
        suptitle,
    )
    update_width_dashboard(dashboard, fit, reference)
    return dashboard


def update_width_dashboard(
    dashboard: WidthDashboard, fit: WidthFit, reference: WidthFit | None = None
) -> None:
    """Draw ``fit`` (and the faint ``reference`` loss curve, if any) into ``dashboard``; its axes
    limits stay as they are."""
    t = dashboard.fit_lines[0][0].get_xdata()
    for (_, output), k in zip(dashboard.fit_lines, dashboard.coords, strict=True):
        output.set_data(t, fit.prediction[:, k].cpu().numpy())
    color = series_style(fit.act)["color"]
    label = f"m/h = {ratio_label(fit.ratio)}"
    dashboard.loss.set_data(range(1, len(fit.losses) + 1), fit.losses)
    dashboard.loss.set(color=color, label=label)
    with_reference, alone = dashboard.legends
    with_reference.set_visible(reference is not None)
    alone.set_visible(reference is None)
    shown = with_reference if reference is not None else alone
    shown.get_texts()[-1].set_text(label)
    shown.legend_handles[-1].set_color(color)
    dashboard.reference.set_visible(reference is not None)
    if reference is not None:
        reference_label = f"m/h = {ratio_label(reference.ratio)}"
        dashboard.reference.set_data(range(1, len(reference.losses) + 1), reference.losses)
        dashboard.reference.set_label(reference_label)
        with_reference.get_texts()[0].set_text(reference_label)
    dashboard.loss_title.set_text(tr("loss: final MSE {mse}", mse=loss_label(fit.final_loss)))
    dashboard.suptitle.set_text(
        tr(
            "{act}, m/h = {ratio}, seed {seed}: m = {m} hidden units, "
            "2·h·m = {parameters:,} parameters",
            act=activation_label(fit.act),
            ratio=ratio_label(fit.ratio),
            seed=fit.seed,
            m=fit.intermediate_size,
            parameters=fit.parameters,
        )
    )


def plot_width_dashboard(
    fit: WidthFit,
    task: WidthTask,
    reference: WidthFit | None = None,
) -> Figure:
    """The lesson-04 widget's picture: the fit and the loss curve, the parameter count on top.

    ``reference`` (another fit, e.g. the narrowest) is drawn faintly in the loss panel, whose
    y range is 3e-4 to 1 unless a loss falls outside it (``loss_limits``). Kept to two panels
    and few tick labels.
    """
    return new_width_dashboard(fit, task, reference).figure
