"""One look for every picture: palette, line styles, sizes and the finishing touches.

The palette is Okabe–Ito (readable for colour-blind readers); every series also gets its own line
style or marker so a greyscale print stays readable. Plot functions draw on a ``matplotlib``
``Figure`` made by ``new_figure`` (no pyplot state), so notebooks, widgets and ``figures`` share
them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.textpath import TextToPath

#: Okabe–Ito colours, in an order that keeps neighbours distinct in greyscale too.
PALETTE: tuple[str, ...] = (
    "#0072B2",  # blue
    "#E69F00",  # orange
    "#009E73",  # green
    "#CC79A7",  # reddish purple
    "#D55E00",  # vermillion
    "#56B4E9",  # sky blue
    "#000000",  # black
    "#F0E442",  # yellow (fills only: too light for lines)
)
LINESTYLES: tuple[str, ...] = ("-", "--", "-.", ":", (0, (5, 1, 1, 1)), (0, (1, 1)), "-")
MARKERS: tuple[str, ...] = ("o", "s", "^", "D", "v", "P", "X")

#: Fixed colour, line style and marker per activation (registry names), the same in every lesson.
_ACTIVATION_ORDER = ("relu", "gelu", "silu", "sigmoid", "tanh", "gelu_pytorch_tanh", "identity")
_SERIES_ALIASES = {"swish": "silu", "none": "identity"}
#: The GLU variants (``ffn.GLU_VARIANTS``) get colours of their own, outside the activations'
#: Okabe–Ito set (Paul Tol's muted scheme), and solid lines with filled markers, so a gated
#: curve never shares a colour with a plain one drawn beside it.
GLU_COLORS: dict[str, str] = {
    "GLU": "#882255",  # wine
    "ReGLU": "#999933",  # olive
    "GEGLU": "#332288",  # indigo
    "SwiGLU": "#AA4499",  # purple
    "Bilinear": "#117733",  # dark green
}

#: Colours for the two sublayers, used wherever attention and the MLP appear side by side.
ATTENTION_COLOR = PALETTE[0]
MLP_COLOR = PALETTE[1]
#: Colormap for heatmaps: perceptually uniform and greyscale-monotone.
SEQUENTIAL_CMAP = "viridis"
DIVERGING_CMAP = "PuOr"

#: Width × height in inches for one panel; DPI for PNG files of figures/.
PANEL_SIZE = (4.6, 3.4)
FIGURE_DPI = 150


def series_style(key: str | int) -> dict[str, object]:
    """``color``/``linestyle``/``marker`` keyword arguments for a series.

    ``key`` is an activation name (``"silu"``, ``"none"``), a GLU variant (``"SwiGLU"``) or an
    index into the palette. Activations and GLU variants each keep one style in every lesson;
    an unknown name raises ``ValueError`` rather than borrowing someone else's colour.
    """
    if isinstance(key, bool) or not isinstance(key, (str, int)):
        raise ValueError(f"series key must be a name or an index, got {key!r}")
    if isinstance(key, str):
        if key in GLU_COLORS:
            index = list(GLU_COLORS).index(key)
            return {"color": GLU_COLORS[key], "linestyle": "-", "marker": MARKERS[index]}
        name = _SERIES_ALIASES.get(key, key)
        if name not in _ACTIVATION_ORDER:
            known = ", ".join((*_ACTIVATION_ORDER, *_SERIES_ALIASES, *GLU_COLORS))
            raise ValueError(f"no series style for {key!r}; expected one of: {known}")
        index = _ACTIVATION_ORDER.index(name)
    else:
        index = key
    return {
        "color": PALETTE[index % 7],
        "linestyle": LINESTYLES[index % len(LINESTYLES)],
        "marker": MARKERS[index % len(MARKERS)],
    }


def new_figure(
    nrows: int = 1, ncols: int = 1, panel_size: Sequence[float] = PANEL_SIZE, **kwargs: object
) -> tuple[Figure, list[Axes]]:
    """A ``Figure`` with ``nrows × ncols`` panels in the house style; axes as a flat list."""
    fig = Figure(
        figsize=(panel_size[0] * ncols, panel_size[1] * nrows), layout="constrained", **kwargs
    )
    axes = fig.subplots(nrows, ncols, squeeze=False).ravel().tolist()
    return fig, axes


def axes_or_new(ax: Axes | None, panel_size: Sequence[float] = PANEL_SIZE) -> tuple[Figure, Axes]:
    """``(ax.figure, ax)`` when the caller gave an axes, else a new one-panel figure and its axes.

    Every plot function that takes an optional ``ax`` starts with this.
    """
    if ax is None:
        fig, (ax,) = new_figure(panel_size=panel_size)
        return fig, ax
    return ax.figure, ax


def finish(
    ax: Axes,
    title: str | None = None,
    xlabel: str | None = None,
    ylabel: str | None = None,
    legend: bool = False,
    grid: bool = True,
) -> Axes:
    """Label an axes the house way: title stating the finding, labeled axes, light grid."""
    if title:
        ax.set_title(title, fontsize=10)
    if xlabel:
        ax.set_xlabel(xlabel)
    if ylabel:
        ax.set_ylabel(ylabel)
    if grid:
        ax.grid(True, alpha=0.3, linewidth=0.6)
    if legend:
        ax.legend(fontsize=8, frameon=False)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    return ax


def fixed_layout(
    fig: Figure,
    left: float = 0.08,
    right: float = 0.98,
    bottom: float = 0.15,
    top: float = 0.88,
    gap: float = 0.09,
) -> Figure:
    """Swap a one-row figure's constrained layout for fixed margins (fractions of the figure).

    Constrained layout measures every tick label on each render; a widget that re-renders on
    every slider step saves about a third of its time with margins fixed once. ``gap`` is the
    space between panels. Returns ``fig``.
    """
    axes = fig.axes
    if not axes:
        raise ValueError("fixed_layout needs a figure with at least one axes")
    fig.set_layout_engine("none")
    width = (right - left - gap * (len(axes) - 1)) / len(axes)
    for i, ax in enumerate(axes):
        ax.set_position([left + i * (width + gap), bottom, width, top - bottom])
    return fig


def lay_out_once(fig: Figure, rooms: Mapping[Axes, Iterable[tuple[float, float]]]) -> None:
    """Lay ``fig`` out once, with room for the tick labels to come, and keep that layout.

    ``rooms`` maps each axes whose y limits will change to the y limits it will show. The layout
    engine runs once with room, on each of those axes, for the widest y tick label (its own
    locator and formatter) at any of those limits; then the engine is switched off and each y
    label pinned where it was placed. For a figure whose updates are drawn over one rendered
    background (a widget): as the y limits and tick labels change, the axes and their y labels
    stay where they are. Each axes' locator, formatter, limits and autoscaling are kept.
    """
    saved = {}
    for ax, limits in rooms.items():
        saved[ax] = (
            ax.yaxis.get_major_locator(),
            ax.yaxis.get_major_formatter(),
            ax.get_ylim(),
            ax.get_autoscaley_on(),
        )
        widest = _widest_y_tick_label(ax, limits)
        ax.set_yticks([sum(ax.get_ylim()) / 2], [widest])
    fig.draw_without_rendering()
    fig.set_layout_engine("none")
    for ax, (locator, formatter, limits, autoscale) in saved.items():
        label_x = ax.transAxes.inverted().transform(ax.yaxis.label.get_position())[0]
        ax.yaxis.set_label_coords(label_x, 0.5)
        ax.yaxis.set_major_locator(locator)
        ax.yaxis.set_major_formatter(formatter)
        ax.set_ylim(limits)
        ax.set_autoscaley_on(autoscale)


def _widest_y_tick_label(ax: Axes, limits: Iterable[tuple[float, float]]) -> str:
    """The widest label ``ax``'s y axis (its own locator and formatter) shows at any of
    ``limits``; ``ax``'s limits and autoscaling are left as they were."""
    saved, autoscale = ax.get_ylim(), ax.get_autoscaley_on()
    labels = set()
    for low, high in limits:
        ax.set_ylim(low, high)
        locs = [loc for loc in ax.yaxis.get_majorticklocs() if low <= loc <= high]
        labels.update(ax.yaxis.get_major_formatter().format_ticks(locs))
    ax.set_ylim(saved)
    ax.set_autoscaley_on(autoscale)
    font = ax.yaxis.get_major_ticks()[0].label1.get_fontproperties()
    measure = TextToPath()
    return max(labels, key=lambda s: measure.get_text_width_height_descent(s, font, False)[0])
