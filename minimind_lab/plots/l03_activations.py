"""Lesson 03's pictures: activation curves, their derivatives, Swish's β, gradients vs depth.

Each function draws results computed in ``lessons/l03_activations.py``; none of them computes an
experiment. Every activation keeps its ``series_style`` colour here as in every lesson.
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
from torch import Tensor

from ..activations import activation_label
from ..i18n import tr, tr_noop
from ..lessons.l03_activations import ActivationCurves, DepthSweep, Extremum, SwishFamily
from .style import SEQUENTIAL_CMAP, axes_or_new, finish, new_figure, series_style

__all__ = [
    "ActivationPairPanels",
    "SwishBetaPanel",
    "new_activation_pair_panels",
    "new_swish_beta_panel",
    "plot_activation_curves",
    "plot_activation_derivatives",
    "plot_activation_pair",
    "plot_gradient_by_block",
    "plot_gradient_vs_depth",
    "plot_swish_beta",
    "update_activation_pair_panels",
    "update_swish_beta_panel",
]

#: How each stack of the depth experiment is named in titles (English; drawn with ``tr``).
BLOCK_TITLES = {
    "plain": tr_noop("plain: h ← f(Wh)"),
    "residual": tr_noop("residual: h ← h + f(Wh)"),
    "prenorm": tr_noop("pre-norm residual: h ← h + f(W·RMSNorm(h))"),
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
    title: str | None = None,
) -> Figure:
    """Draw f(x) for each activation in ``curves`` (or just ``names``), one colour per name.

    ``title`` defaults to the finding (ReLU cuts negatives to 0, GELU and SiLU dip below 0),
    in the current language.

    ``extrema`` (name → ``Extremum``) are marked in an inset that zooms on the negative dips,
    which are a few tenths deep and hard to read at the main scale.
    """
    fig, ax = axes_or_new(ax, (6.4, 4.2))
    shown = list(names or curves.names)
    for name in shown:
        _line(ax, curves.x, curves.values[name], name)
    ax.axhline(0.0, color="0.5", linewidth=0.6)
    ax.axvline(0.0, color="0.5", linewidth=0.6)
    if title is None:
        title = tr("ReLU cuts negatives to 0; GELU and SiLU dip below 0 and come back")
    finish(ax, title=title, xlabel=tr("input x (pre-activation)"), ylabel=tr("output f(x)"))
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
                tr(
                    "{name} min\n({x:.3f}, {value:.3f})",
                    name=activation_label(name).split(" /")[0],
                    x=point.x,
                    value=point.value,
                ),
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
        inset.set_title(tr("zoom on the dips"), fontsize=7)
        ax.indicate_inset_zoom(inset, edgecolor="0.4")
    return fig


def plot_activation_derivatives(
    curves: ActivationCurves,
    names: Sequence[str] | None = None,
    ax: Axes | None = None,
    title: str | None = None,
) -> Figure:
    """Draw the autograd derivative f'(x) for each activation in ``curves`` (or just ``names``).

    ``title`` defaults to the finding (ReLU's slope is 0 or 1, sigmoid's never passes 0.25), in
    the current language.
    """
    if title is None:
        title = tr("Derivatives: ReLU is 0 or 1; sigmoid never passes 0.25")
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
        ax,
        title=title,
        xlabel=tr("input x (pre-activation)"),
        ylabel=tr("derivative f'(x)"),
        legend=True,
    )
    return fig


@dataclass(frozen=True)
class ActivationPairPanels:
    """The artists of ``plot_activation_pair``'s two panels, so new data can be drawn into them.

    ``faint[name]``: a context activation's (curve, derivative) lines, grey; ``chosen``: the
    picked activation's (curve, derivative); ``zero_lines``: the axes through 0, drawn over the
    curves; ``titles``: the panels' titles (they name the picked activation).
    """

    figure: Figure
    axes: tuple[Axes, Axes]
    faint: dict[str, tuple[Line2D, Line2D]]
    chosen: tuple[Line2D, Line2D]
    zero_lines: tuple[Line2D, ...]
    titles: tuple[Text, Text]

    def changing_artists(self) -> list[Artist]:
        """Everything a new activation changes, in drawing order (the rest stays as drawn)."""
        faint = [line for pair in self.faint.values() for line in pair]
        return [*faint, *self.chosen, *self.zero_lines, *self.titles]


def new_activation_pair_panels(
    context: Sequence[str] = (), axes: Sequence[Axes] = ()
) -> ActivationPairPanels:
    """Empty panels for ``update_activation_pair_panels``: f(x) left, f'(x) right, one grey line
    per ``context`` name (the picked one is hidden at each update). ``axes``: two axes to draw
    into, else a new figure."""
    if axes:
        left, right = axes
        fig = left.figure
    else:
        fig, (left, right) = new_figure(1, 2)
    faint = {
        other: tuple(ax.plot([], [], color="0.75", linewidth=1.0)[0] for ax in (left, right))
        for other in dict.fromkeys(context)
    }
    chosen = tuple(ax.plot([], [], linewidth=1.8)[0] for ax in (left, right))
    zero_lines = []
    for ax in (left, right):
        zero_lines += [
            ax.axhline(0.0, color="0.5", linewidth=0.6),
            ax.axvline(0.0, color="0.5", linewidth=0.6),
        ]
    finish(left, xlabel=tr("input x"), ylabel=tr("output f(x)"))
    finish(right, xlabel=tr("input x"), ylabel=tr("derivative f'(x)"))
    # y = 1 given, not searched for: no axis sits above these panels, and matplotlib's search
    # measures every tick label again at each draw.
    titles = tuple(ax.set_title("", fontsize=10, y=1.0) for ax in (left, right))
    return ActivationPairPanels(fig, (left, right), faint, chosen, tuple(zero_lines), titles)


def update_activation_pair_panels(
    panels: ActivationPairPanels, curves: ActivationCurves, name: str, rescale: bool = True
) -> None:
    """Draw ``name``'s curve and derivative from ``curves`` into ``panels`` (context names grey).

    ``rescale=False`` keeps the axes' limits (when ``curves.x`` is the grid drawn before).
    """
    if name not in curves.values:
        raise ValueError(f"{name!r} is not in the curves; expected one of {curves.names}")
    x = curves.x.cpu().numpy()
    series = (curves.values, curves.derivatives)
    for other, lines in panels.faint.items():
        for line, values in zip(lines, series, strict=True):
            line.set_data(x, values[other].cpu().numpy())
            line.set_visible(other != name)
    style = series_style(name)
    label = activation_label(name)
    for line, values in zip(panels.chosen, series, strict=True):
        line.set_data(x, values[name].cpu().numpy())
        line.set(color=style["color"], linestyle=style["linestyle"], label=label)
    left, right = panels.titles
    left.set_text(tr("{name}: f(x)", name=label))
    right.set_text(tr("{name}: f'(x) (autograd)", name=label))
    if rescale:
        for ax in panels.axes:
            ax.relim()
            ax.autoscale_view()


def plot_activation_pair(
    curves: ActivationCurves, name: str, context: Sequence[str] = (), axes: Sequence[Axes] = ()
) -> Figure:
    """One activation's curve and derivative side by side; ``context`` names drawn faintly."""
    if name not in curves.values:
        raise ValueError(f"{name!r} is not in the curves; expected one of {curves.names}")
    panels = new_activation_pair_panels(context, axes)
    update_activation_pair_panels(panels, curves, name)
    return panels.figure


def _swish_label(beta: float) -> str:
    return f"β = {beta:g}" + (" (SiLU)" if beta == 1 else "")


def _swish_limits(ax: Axes, x: Tensor) -> tuple[Line2D, Line2D]:
    """The two limits of Swish_β on ``ax``: x/2 (β → 0) and ReLU (β → ∞), with the axis at 0."""
    (half,) = ax.plot(
        x, x / 2, color="0.45", linewidth=1.1, linestyle="--", label="x/2 (β → 0)", zorder=4
    )
    (relu,) = ax.plot(
        x,
        x.clamp_min(0),
        color="black",
        linewidth=1.1,
        linestyle=":",
        label="ReLU (β → ∞)",
        zorder=4,
    )
    return half, relu


def plot_swish_beta(
    family: SwishFamily,
    ax: Axes | None = None,
    title: str | None = None,
) -> Figure:
    """Draw Swish_β for every β in ``family``, with the two limits x/2 and ReLU as references.

    ``title`` defaults to the two limits (β → 0 flattens to x/2, β → ∞ sharpens to ReLU), in the
    current language.

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
            label=_swish_label(beta),
        )
    _swish_limits(ax, x)
    ax.axhline(0.0, color="0.5", linewidth=0.6)
    if title is None:
        title = tr("x·σ(βx): β → 0 flattens to x/2, β → ∞ sharpens to ReLU")
    finish(ax, title=title, xlabel=tr("input x"), ylabel="x·σ(βx)")
    ax.legend(fontsize=8, frameon=False, loc="upper left")
    return fig


@dataclass(frozen=True)
class SwishBetaPanel:
    """The artists of a one-β ``plot_swish_beta`` picture, so another β can be drawn into it.

    ``curve``: Swish_β; ``zero_line``: the axis at 0; ``limits``: x/2 and ReLU, drawn over the
    curve; ``legend`` and ``title`` name the β.
    """

    figure: Figure
    ax: Axes
    curve: Line2D
    zero_line: Line2D
    limits: tuple[Line2D, Line2D]
    legend: Legend
    title: Text

    def changing_artists(self) -> list[Artist]:
        """Everything a new β changes, in drawing order (axes, ticks and labels stay as drawn)."""
        return [self.curve, self.zero_line, *self.limits, self.legend, self.title]


def new_swish_beta_panel(x: Tensor, ax: Axes | None = None) -> SwishBetaPanel:
    """``plot_swish_beta``'s picture for one β on the grid ``x`` ``(n,)``, with no curve yet:
    ``update_swish_beta_panel`` draws one. The limits x/2 and ReLU fix the axes' range (every
    Swish_β lies between them), so it is the same for every β."""
    fig, ax = axes_or_new(ax, (6.4, 4.2))
    x = x.cpu()
    shade = colormaps[SEQUENTIAL_CMAP](0.1)  # plot_swish_beta's shade for a family of one
    (curve,) = ax.plot([], [], color=shade, linewidth=2.6, alpha=0.9, label=" ")
    limits = _swish_limits(ax, x)
    zero_line = ax.axhline(0.0, color="0.5", linewidth=0.6)
    finish(ax, xlabel=tr("input x"), ylabel="x·σ(βx)")
    # y = 1 given, not searched for: no axis sits above, and the search measures every tick label.
    title = ax.set_title(" ", fontsize=10, y=1.0)
    legend = ax.legend(fontsize=8, frameon=False, loc="upper left")
    return SwishBetaPanel(fig, ax, curve, zero_line, limits, legend, title)


def update_swish_beta_panel(panel: SwishBetaPanel, family: SwishFamily, title: str) -> None:
    """Draw the one β of ``family`` (on the panel's grid) into ``panel``, titled ``title``."""
    if len(family.values) != 1:
        raise ValueError(f"a Swish_β panel shows one β, got {len(family.values)}")
    ((beta, values),) = family.values.items()
    label = _swish_label(beta)
    panel.curve.set_data(family.x.cpu().numpy(), values.cpu().numpy())
    panel.curve.set_label(label)
    panel.legend.get_texts()[0].set_text(label)
    panel.title.set_text(title)


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
            label=tr(
                "{name} (×{factor:.2f}/layer)", name=activation_label(name), factor=factors[name]
            ),
        )
    if title is None:
        low = min(factors, key=factors.get)
        high = max(factors, key=factors.get)
        title = tr(
            "{block}\nper layer: {low} ×{low_factor:.2f} … {high} ×{high_factor:.2f}",
            block=tr(BLOCK_TITLES[sweep.block]),
            low=activation_label(low),
            low_factor=factors[low],
            high=activation_label(high),
            high_factor=factors[high],
        )
    finish(
        ax,
        title=title,
        xlabel=tr("depth (blocks)"),
        ylabel=tr("‖∂L/∂W₁‖ (log scale)"),
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
