"""Lesson 08's pictures: models per kind, learning rates, curves, knockouts, patching, units.

Each function draws results computed in ``lessons/l08_memory/``; none of them trains anything.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle
from matplotlib.text import Text
from matplotlib.transforms import blended_transform_factory

from ..i18n import tr
from ..lessons.l08_memory import (
    ALL_MODEL_NAMES,
    KINDS,
    NEXT_TOKEN,
    KeyValueReading,
    PatchingGrid,
    PatchingResult,
    SweepRecord,
    UnitSummary,
)
from .style import (
    ATTENTION_COLOR,
    MLP_COLOR,
    PALETTE,
    axes_or_new,
    finish,
    fixed_layout,
    new_figure,
)

__all__ = [
    "MemoryPanels",
    "kind_label",
    "knockout_label",
    "model_color",
    "model_label",
    "new_memory_panels",
    "plot_hit_rates",
    "plot_knockout",
    "plot_learning_curve_panels",
    "plot_learning_curves",
    "plot_model_comparison",
    "plot_lr_sweep",
    "plot_patching",
    "plot_patching_grid",
    "plot_patching_panels",
    "plot_unit",
    "update_memory_panels",
]

_GREY_MODEL = "#4D4D4D"
#: One colour per model, the same in every picture of the lesson: attention-only and MLP-only
#: take the colours the course gives attention and the MLP; the full model has both, in green.
_MODEL_COLORS = {
    "full": PALETTE[2],
    "attention-only": ATTENTION_COLOR,
    "MLP-only": MLP_COLOR,
    "narrow attention-only": PALETTE[5],
    "plain MLP": PALETTE[3],
    "frozen MLP": "#8C510A",
    "MLPs removed": _GREY_MODEL,
}
_GREY = "#7F7F7F"
#: Knockout bars: each MLP knockout its own colour of the MLP's warm family (and its own hatch,
#: for greyscale), attention knockouts in blues, the intact model in grey.
_KNOCKOUT_SHADES = {
    "MLP": (MLP_COLOR, PALETTE[4], "#8C510A"),  # orange, vermillion, brown
    "attention": (ATTENTION_COLOR, PALETTE[5]),
    "": (_GREY,),
}


def model_color(label: str) -> str:
    """The colour of the model a label starts with (``"attention-only, 400 steps"`` → blue)."""
    for name in sorted(ALL_MODEL_NAMES, key=len, reverse=True):
        if label.startswith(name):
            return _MODEL_COLORS[name]
    raise ValueError(f"label {label!r} names none of the models: {', '.join(ALL_MODEL_NAMES)}")


def kind_label(kind: str) -> str:
    """A kind of question (``"recall"``, ``"copy"``, ``"fetch"``, or a probe's ``"next token"``)
    as a plot, table or printed line shows it, in the current language; another name is shown as
    it is."""
    return tr(kind) if kind in (*KINDS, *NEXT_TOKEN) else kind


def model_label(label: str) -> str:
    """A label that starts with a model's name (``"full"``, ``"attention-only, 400 steps"``) in
    the current language; a label naming no model is shown as it is."""
    for name in sorted(ALL_MODEL_NAMES, key=len, reverse=True):
        if label.startswith(name):
            rest = label[len(name) :]
            steps = re.fullmatch(r", (\d+) steps", rest)
            if steps:
                return tr("{model}, {steps} steps", model=tr(name), steps=int(steps[1]))
            return tr(name) + rest
    return label


def knockout_label(label: str) -> str:
    """A knockout or sublayer label (``"none"``, ``"attention 0"``, ``"MLP 1"``, ``"MLP 0 and
    1"``, ``"intact"``, ``"MLP 1 zeroed"``) in the current language; any other label is shown as
    it is. The labels stay English as data (dict keys, ``PatchingGrid.sites``)."""
    zeroed = re.fullmatch(r"(.+) zeroed", label)
    if zeroed:
        return tr("{knockout} zeroed", knockout=knockout_label(zeroed[1]))
    if label == "none":
        return tr("none")
    if label == "intact":
        return tr("intact")
    both = re.fullmatch(r"MLP (\d+) and (\d+)", label)
    if both:
        return tr("MLP {first} and {second}", first=int(both[1]), second=int(both[2]))
    one = re.fullmatch(r"(attention|MLP) (\d+)", label)
    if one and one[1] == "attention":
        return tr("attention {layer}", layer=int(one[2]))
    if one:
        return tr("MLP {layer}", layer=int(one[2]))
    return label


def _check_table(table: Mapping[str, Mapping[str, Sequence[float]]], what: str) -> list[str]:
    if not table:
        raise ValueError(f"{what} is empty")
    kinds = list(next(iter(table.values())))
    for name, per_kind in table.items():
        if list(per_kind) != kinds or any(len(v) == 0 for v in per_kind.values()):
            raise ValueError(f"{what}[{name!r}] must give values for the kinds {kinds}")
    return kinds


def _grouped(
    ax: Axes,
    table: Mapping[str, Mapping[str, Sequence[float]]],
    kinds: list[str],
    styles: Mapping[str, Mapping[str, object]],
    legend_label: Callable[[str], str],
) -> None:
    """Bars (mean) with one dot per seed, grouped by kind; one bar per entry of ``table``,
    named in the legend by ``legend_label(label)``."""
    n = len(table)
    width = 0.8 / n
    for i, (label, per_kind) in enumerate(table.items()):
        style = styles[label]
        for k, kind in enumerate(kinds):
            values = list(per_kind[kind])
            x = k - 0.4 + width * (i + 0.5)
            mean = sum(values) / len(values)
            ax.bar(
                x,
                mean,
                width * 0.9,
                color=style["color"],
                alpha=0.35,
                hatch=style.get("hatch"),
                edgecolor=style["color"],
                label=legend_label(label) if k == 0 else None,
            )
            offsets = [(j - (len(values) - 1) / 2) * width * 0.18 for j in range(len(values))]
            ax.scatter([x + o for o in offsets], values, s=14, color=style["color"], zorder=3)
    ax.set_xticks(range(len(kinds)), [kind_label(kind) for kind in kinds])
    ax.set_ylim(0, 1.32)
    ax.set_yticks([0, 0.2, 0.4, 0.6, 0.8, 1.0])


def plot_model_comparison(
    table: Mapping[str, Mapping[str, Sequence[float]]],
    floors: Mapping[str, float] | None = None,
    ax: Axes | None = None,
    title: str | None = None,
) -> Figure:
    """Held-out accuracy per kind for each model: a bar at the mean, a dot per seed.

    ``table``: ``{model: {kind: [accuracy per seed]}}`` (``l08.accuracy_table``); ``floors``:
    ``{kind: accuracy}`` drawn as a dashed grey line (the best guess without the context).
    """
    fig, ax = axes_or_new(ax, (6.4, 3.6))
    kinds = _check_table(table, "table")
    styles = {name: {"color": model_color(name)} for name in table}
    _grouped(ax, table, kinds, styles, model_label)
    for k, kind in enumerate(kinds):
        if floors and kind in floors:
            ax.hlines(
                floors[kind],
                k - 0.45,
                k + 0.45,
                colors=_GREY,
                linestyles="--",
                label=tr("floor without context") if k == 0 else None,
            )
    seeds = len(next(iter(next(iter(table.values())).values())))
    if not title:
        title = (
            tr("Held-out accuracy per kind ({seeds} seeds)", seeds=seeds)
            if seeds > 1
            else tr("Held-out accuracy per kind (1 seed)")
        )
    finish(ax, title=title, ylabel=tr("accuracy"))
    ax.legend(fontsize=8, frameon=False, ncol=4, loc="upper center")
    return fig


def plot_learning_curves(
    curves: Mapping[str, Sequence[tuple[Sequence[int], Sequence[float]]]],
    kind: str,
    ax: Axes | None = None,
    title: str | None = None,
) -> Figure:
    """Accuracy on each new training batch against the step, one line per run.

    ``curves``: ``{label: [(steps, accuracy) per seed]}`` (``l08.learning_curve``); a label
    starts with the model's name, which picks the colour; every label after a model's first
    is dashed (e.g. ``"attention-only, 400 steps"``).
    """
    fig, ax = axes_or_new(ax, (6.0, 3.6))
    if not curves:
        raise ValueError("curves is empty")
    seen: set[str] = set()
    for label, runs in curves.items():
        color = model_color(label)
        dashed = color in seen
        seen.add(color)
        for i, (steps, values) in enumerate(runs):
            ax.plot(
                steps,
                values,
                color=color,
                linestyle="--" if dashed else "-",
                linewidth=1.4,
                alpha=0.85,
                label=model_label(label) if i == 0 else None,
            )
    finish(
        ax,
        title=title
        or tr("{kind}: accuracy on each new batch while training", kind=kind_label(kind)),
        xlabel=tr("training step"),
        ylabel=tr("{kind} accuracy", kind=kind_label(kind)),
    )
    ax.set_ylim(0, 1.05)
    ax.legend(fontsize=8, frameon=False, loc="lower right")
    return fig


def plot_learning_curve_panels(
    per_seed: Mapping[int, Mapping[str, tuple[Sequence[int], Sequence[float]]]],
    kind: str,
    title: str | None = None,
) -> Figure:
    """``plot_learning_curves`` once per seed, side by side, so each run is compared with the
    other runs of its own seed: ``{seed: {label: (steps, accuracy)}}``. ``title`` (optional)
    goes above the panels; the legend is drawn once, in the first panel."""
    if not per_seed:
        raise ValueError("per_seed is empty")
    fig, axes = new_figure(1, len(per_seed), panel_size=(3.4, 3.2))
    for i, (ax, (seed, curves)) in enumerate(zip(axes, per_seed.items(), strict=True)):
        plot_learning_curves(
            {k: [v] for k, v in curves.items()}, kind, ax=ax, title=tr("seed {seed}", seed=seed)
        )
        if i:
            ax.get_legend().remove()
            ax.set_ylabel("")
    if title:
        fig.suptitle(title, fontsize=10)
    return fig


def plot_knockout(
    table: Mapping[str, Mapping[str, Sequence[float]]],
    ax: Axes | None = None,
    title: str | None = None,
) -> Figure:
    """Accuracy per kind with sublayers knocked out (消融): a bar at the mean, a dot per seed.

    ``table``: ``{knockout label: {kind: [accuracy per seed]}}``; labels starting with
    ``"MLP"`` are drawn in the MLP's colour, ``"attention"`` in attention's, others in grey.
    """
    fig, ax = axes_or_new(ax, (6.8, 3.6))
    kinds = _check_table(table, "table")
    hatches = ["", "//", "xx", ".."]
    styles, used = {}, {"MLP": 0, "attention": 0, "": 0}
    for label in table:
        family = next((f for f in ("MLP", "attention") if label.startswith(f)), "")
        shades = _KNOCKOUT_SHADES[family]
        color = shades[used[family] % len(shades)]
        styles[label] = {"color": color, "hatch": hatches[used[family] % len(hatches)]}
        used[family] += 1
    _grouped(ax, table, kinds, styles, knockout_label)
    finish(ax, title=title or tr("Accuracy with one sublayer zeroed"), ylabel=tr("accuracy"))
    ax.legend(fontsize=7, frameon=False, ncol=3, loc="upper center")
    return fig


def plot_patching(
    results: Sequence[PatchingResult], ax: Axes | None = None, title: str | None = None
) -> Figure:
    """Share of p(answer) restored by each patch, at the subject and at the last position.

    ``results``: one ``PatchingResult`` per seed, all of one kind. Bars: mean over seeds; dots:
    each seed. Groups: each layer's MLP alone, every layer's at the last position, then the
    whole residual stream into each inner layer at the subject ("whole stream into layer ℓ").
    """
    fig, ax = axes_or_new(ax, (5.2, 3.6))
    if not results or len({r.kind for r in results}) != 1:
        raise ValueError("results must hold at least one PatchingResult, all of one kind")
    layers = sorted({k for k, _ in results[0].patched if k != "all"})
    groups = [(tr("layer {layer}\nMLP", layer=i), i, "mlp") for i in layers]
    groups += [(tr("all\nMLPs"), "all", "mlp")]
    inner = sorted(k for k, w in results[0].hidden if w == "subject" and 0 < k <= layers[-1])
    groups += [(tr("whole stream\ninto layer {layer}", layer=i), i, "hidden") for i in inner]
    for g, (_, layer, site) in enumerate(groups):
        table = results[0].patched if site == "mlp" else results[0].hidden
        for w, (where, style) in enumerate(
            (("subject", {"color": _GREY, "hatch": "//"}), ("last", {"color": MLP_COLOR}))
        ):
            if (layer, where) not in table:
                continue
            values = [r.restored(layer, where, site) for r in results]
            x = g - 0.2 + 0.4 * w
            label = (
                tr("at the subject")
                if where == "subject"
                else tr("at the last (relation) position")
            )
            ax.bar(
                x,
                sum(values) / len(values),
                0.36,
                alpha=0.35,
                edgecolor=style["color"],
                label=label if g == 0 else None,
                **style,
            )
            offsets = [(j - (len(values) - 1) / 2) * 0.06 for j in range(len(values))]
            ax.scatter([x + o for o in offsets], values, s=14, color=style["color"], zorder=3)
    ax.axhline(0, color="black", linewidth=0.6)
    ax.set_xticks(range(len(groups)), [name for name, _, _ in groups], fontsize=8)
    ax.set_xlim(-0.6, len(groups) - 0.4)
    ax.set_ylim(min(-0.05, ax.get_ylim()[0]), 1.25)
    kind = results[0].kind
    finish(
        ax,
        title=title
        or tr("{kind}: share of the answer's probability restored", kind=kind_label(kind)),
        ylabel="(p − p_corrupt) / (p_clean − p_corrupt)",
    )
    ax.legend(fontsize=8, frameon=False, loc="upper left")
    return fig


def plot_patching_panels(
    results: Mapping[str, Sequence[PatchingResult]], title: str | None = None
) -> Figure:
    """``plot_patching`` side by side, one panel per kind: ``{kind: [PatchingResult per seed]}``.

    ``title`` (optional) goes above both panels.
    """
    if not results:
        raise ValueError("results is empty")
    fig, axes = new_figure(1, len(results), panel_size=(5.0, 3.6))
    for ax, (kind, per_seed) in zip(axes, results.items(), strict=True):
        if any(r.kind != kind for r in per_seed):
            raise ValueError(f"results[{kind!r}] holds results of another kind")
        heading = tr("{kind}: share of p(answer) restored", kind=kind_label(kind))
        plot_patching(per_seed, ax=ax, title=heading)
    if title:
        fig.suptitle(title, fontsize=10)
    return fig


def plot_unit(summary: UnitSummary, ax: Axes | None = None, title: str | None = None) -> Figure:
    """The tokens one unit's value vector promotes most, as horizontal bars (largest on top)."""
    fig, ax = axes_or_new(ax, (4.2, 3.4))
    if not summary.promoted:
        raise ValueError("the summary lists no promoted tokens")
    names = [name for name, _ in summary.promoted][::-1]
    values = [value for _, value in summary.promoted][::-1]
    ax.barh(range(len(values)), values, color=MLP_COLOR, alpha=0.8)
    ax.set_yticks(range(len(values)), names)
    sign = "+" if summary.sign > 0 else "−"
    finish(
        ax,
        title=title
        or tr(
            "layer {layer}, unit {unit}: what its value promotes",
            layer=summary.layer,
            unit=summary.unit,
        ),
        xlabel=tr("logit change per unit of |a| (a {sign})", sign=sign),
    )
    return fig


def plot_hit_rates(
    readings: Sequence[KeyValueReading], ax: Axes | None = None, title: str | None = None
) -> Figure:
    """Per layer, how many units' top contexts have the answer the unit's value promotes.

    Step histograms of ``hit_rate`` (solid) and of ``control_hit_rate`` (dashed: the same
    contexts scored against another unit's value), one colour per layer.
    """
    fig, ax = axes_or_new(ax, (5.6, 3.6))
    if not readings:
        raise ValueError("readings is empty")
    bins = [i / 20 for i in range(21)]
    for i, reading in enumerate(readings):
        color = (MLP_COLOR, PALETTE[3], PALETTE[6])[i % 3]  # one per layer, apart in grey too
        ax.hist(
            reading.hit_rate.tolist(),
            bins=bins,
            histtype="step",
            color=color,
            linewidth=1.6,
            label=tr("layer {layer}: own value", layer=reading.layer),
        )
        ax.hist(
            reading.control_hit_rate.tolist(),
            bins=bins,
            histtype="step",
            color=color,
            linestyle="--",
            linewidth=1.2,
            label=tr("layer {layer}: another unit's", layer=reading.layer),
        )
    k = readings[0].k
    finish(
        ax,
        title=title or tr("Units whose top {k} contexts answer what they promote", k=k),
        xlabel=tr("share of the unit's top {k} contexts whose answer its value promotes most", k=k),
        ylabel=tr("units"),
    )
    ax.legend(fontsize=8, frameon=False)
    return fig


@dataclass(frozen=True)
class MemoryPanels:
    """The widget's figure, drawn once: a unit's promoted tokens beside accuracy per kind.

    ``update_memory_panels`` changes only the artists listed in ``dynamic`` (bar sizes, token
    labels, titles), so a widget can blit them onto a background rendered once.
    """

    figure: Figure
    token_bars: tuple[Rectangle, ...]
    token_labels: tuple[Text, ...]
    unit_title: Text
    intact_bars: tuple[Rectangle, ...]
    knocked_bars: tuple[Rectangle, ...]
    knocked_title: Text

    @property
    def dynamic(self) -> list[Artist]:
        """Every artist ``update_memory_panels`` changes."""
        return [
            *self.token_bars, *self.token_labels, self.unit_title, *self.intact_bars,
            *self.knocked_bars, self.knocked_title,
        ]  # fmt: skip


def new_memory_panels(
    n_tokens: int, kinds: Sequence[str], max_logit: float, panel_size: Sequence[float] = (3.9, 3.0)
) -> MemoryPanels:
    """Empty panels: ``n_tokens`` promoted-token bars (x from 0 to ``max_logit``) and, per kind,
    an intact and a knocked-out accuracy bar. Axes, limits and labels are final."""
    if n_tokens < 1 or not kinds or not max_logit > 0:
        raise ValueError(
            f"need n_tokens ≥ 1, some kinds and max_logit > 0; got {n_tokens}, {kinds}, {max_logit}"
        )
    fig, (left, right) = new_figure(1, 2, panel_size=panel_size)
    token_bars = left.barh(range(n_tokens), [0.0] * n_tokens, color=MLP_COLOR, alpha=0.8)
    left.set_yticks([])
    left.set_ylim(n_tokens - 0.5, -0.5)  # the strongest token on top
    left.set_xlim(0, max_logit * 1.05)
    by_axes_x = blended_transform_factory(left.transAxes, left.transData)
    labels = [
        left.text(-0.02, i, "", transform=by_axes_x, ha="right", va="center", fontsize=9)
        for i in range(n_tokens)
    ]
    finish(left, xlabel=tr("logit change per unit of |a|"))
    unit_title = left.set_title(" ", fontsize=10)
    x = range(len(kinds))
    intact = right.bar([i - 0.2 for i in x], [0.0] * len(kinds), 0.38, color=_GREY, alpha=0.5,
                       label=tr("intact"))  # fmt: skip
    knocked = right.bar([i + 0.2 for i in x], [0.0] * len(kinds), 0.38, color=MLP_COLOR,
                        alpha=0.6, label=tr("MLP(s) zeroed"))  # fmt: skip
    right.set_xticks(list(x), [kind_label(kind) for kind in kinds])
    right.set_ylim(0, 1.25)
    right.set_yticks([0, 0.2, 0.4, 0.6, 0.8, 1.0])
    finish(right, ylabel=tr("held-out accuracy"))
    right.legend(fontsize=8, frameon=False, ncol=2, loc="upper center")
    knocked_title = right.set_title(" ", fontsize=10)
    fixed_layout(fig, left=0.1, right=0.98, bottom=0.17, top=0.88, gap=0.12)
    return MemoryPanels(
        fig, tuple(token_bars), tuple(labels), unit_title, tuple(intact), tuple(knocked),
        knocked_title,
    )  # fmt: skip


def update_memory_panels(
    panels: MemoryPanels,
    summary: UnitSummary,
    intact: Mapping[str, float],
    knocked: Mapping[str, float] | None,
    knockout: str,
) -> None:
    """Show ``summary``'s promoted tokens and the accuracies (``knocked=None``: none zeroed)."""
    if len(summary.promoted) < len(panels.token_bars):
        raise ValueError(
            f"the summary lists {len(summary.promoted)} promoted tokens; the panels show "
            f"{len(panels.token_bars)}"
        )
    for bar, label, (name, value) in zip(
        panels.token_bars, panels.token_labels, summary.promoted, strict=False
    ):
        bar.set_width(max(value, 0.0))
        label.set_text(name)
    panels.unit_title.set_text(
        tr("layer {layer}, unit {unit}: value promotes", layer=summary.layer, unit=summary.unit)
    )
    for bar, value in zip(panels.intact_bars, intact.values(), strict=True):
        bar.set_height(value)
    for bar, kind in zip(panels.knocked_bars, intact, strict=True):
        bar.set_height(knocked[kind] if knocked is not None else 0.0)
        bar.set_visible(knocked is not None)
    if knocked is not None:
        title = tr("accuracy per kind, {knockout} zeroed", knockout=knockout_label(knockout))
    else:
        title = tr("accuracy per kind, nothing zeroed")
    panels.knocked_title.set_text(title)


def plot_patching_grid(
    grids: Mapping[str, PatchingGrid], metric: str = "logit", title: str | None = None
) -> Figure:
    """The standard patching picture, one panel per kind: rows are the sublayers (attention and
    MLP of each layer), columns the roles of the positions, colour the share of the clean–corrupt
    ``metric`` (``"logit"``: logit difference; ``"probability"``) restored by putting that one
    output back. ``grids``: ``{kind: PatchingGrid}`` (``l08.patching_grid``)."""
    if not grids:
        raise ValueError("grids is empty")
    if metric not in ("logit", "probability"):
        raise ValueError(f"metric must be 'logit' or 'probability', got {metric!r}")
    fig, axes = new_figure(1, len(grids), panel_size=(5.2, 2.6))
    image = None
    for ax, (kind, grid) in zip(axes, grids.items(), strict=True):
        table = grid.logit_share if metric == "logit" else grid.probability_share
        image = ax.imshow(table.numpy(), cmap="RdBu", vmin=-1, vmax=1, aspect="auto")
        for i in range(table.shape[0]):
            for j in range(table.shape[1]):
                value = float(table[i, j])
                if abs(value) >= 0.02:
                    color = "white" if abs(value) > 0.6 else "black"
                    ax.text(j, i, f"{value:.2f}", ha="center", va="center", fontsize=7, color=color)
        roles = [tr("noise") if role == "noise" else role for role in grid.roles]
        ax.set_xticks(range(len(grid.roles)), roles, fontsize=8)
        ax.set_yticks(range(len(grid.sites)), [knockout_label(s) for s in grid.sites], fontsize=8)
        where = "r" if kind == "recall" else "r'"
        heading = tr("{kind}: the answer is read at {where}", kind=kind_label(kind), where=where)
        ax.set_title(heading, fontsize=9)
        ax.set_xlabel(tr("position (its role in the sequence)"), fontsize=8)
        ax.set_ylabel(tr("output restored"), fontsize=8)
    label = (
        tr("share of logit difference restored") if metric == "logit" else tr("share of p restored")
    )
    fig.colorbar(image, ax=axes, shrink=0.9, label=label)
    if title:
        fig.suptitle(title, fontsize=10)
    return fig


def plot_lr_sweep(
    record: SweepRecord,
    models: Sequence[str] | None = None,
    ax: Axes | None = None,
    title: str | None = None,
) -> Figure:
    """Facts answered (mean of recall and fetch, held out) against the learning rate, after the
    record's ``lr_steps`` steps: a line through the seed means per model, a dot per seed, a ring
    at each model's best learning rate. ``record``: ``l08.load_sweep()``."""
    fig, ax = axes_or_new(ax, (6.4, 3.6))
    models = list(models or record.settings.lr_models)
    lrs = list(record.settings.lrs)
    steps = record.settings.lr_steps
    for name in models:
        color = model_color(name)
        per_lr = [record.facts(name, lr, steps) for lr in lrs]
        means = [sum(v) / len(v) for v in per_lr]
        ax.plot(lrs, means, color=color, marker="o", markersize=3, label=model_label(name))
        for lr, values in zip(lrs, per_lr, strict=True):
            ax.scatter([lr] * len(values), values, s=8, color=color, alpha=0.5)
        best = record.best_lr(name)
        ax.scatter([best], [means[lrs.index(best)]], s=80, facecolors="none", edgecolors=color)
    ax.set_xscale("log")
    ax.set_xticks(lrs, [f"{lr:g}" for lr in lrs])
    ax.minorticks_off()
    ax.set_ylim(0, 1.05)
    finish(
        ax,
        title=title or tr("Facts answered after {steps} steps, per learning rate", steps=steps),
        xlabel=tr("peak learning rate (cosine decay to 0)"),
        ylabel=tr("recall and fetch accuracy"),
    )
    ax.legend(fontsize=7, frameon=False, loc="lower right")
    return fig
