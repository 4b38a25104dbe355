"""Lesson 08's widget: read one MLP unit as key and value, and knock out a layer's MLP.

Building it trains (or, after the lesson, fetches from ``train_model``'s cache) the full model of
the first seed and reads both layers once; a redraw only looks results up and draws.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import ipywidgets as widgets

from ..i18n import tr, tr_noop
from ..lessons.l08_memory import (
    SETUP,
    KeyValueReading,
    Setup,
    UnitSummary,
    fact_task,
    key_value_reading,
    knockout_accuracies,
    listing,
    make_corpus,
    train_model,
    unit_summary,
)
from ..plots.l08_memory import (
    kind_label,
    knockout_label,
    new_memory_panels,
    plot_knockout,
    plot_unit,
    update_memory_panels,
)
from ..plots.style import fixed_layout, new_figure
from .base import (
    Blitter,
    DrawResult,
    InteractivePlot,
    register_widget,
    require_choice,
    require_int_in,
)

__all__ = [
    "KNOCKOUTS",
    "MemoryView",
    "draw_memory",
    "memory_explorer",
]

#: The widget's knockout choices: label → the MLPs zeroed. The labels are the menu's values
#: (English); the menu shows them translated (``knockout_label``).
KNOCKOUTS: dict[str, list[tuple[str, int]]] = {
    tr_noop("none"): [],
    tr_noop("MLP 0"): [("mlp", 0)],
    tr_noop("MLP 1"): [("mlp", 1)],
    tr_noop("MLP 0 and 1"): [("mlp", 0), ("mlp", 1)],
}


@dataclass(frozen=True)
class _State:
    readings: tuple[KeyValueReading, ...]
    accuracy: dict[str, dict[str, float]]
    names: list[str]
    seed: int


@lru_cache(maxsize=2)
def _state(setup: Setup = SETUP) -> _State:
    """The full model of ``setup.seeds[0]`` (``train_model``'s cache), read once."""
    s = setup
    seed = s.seeds[0]
    run = train_model("full", seed, setup=s)
    task = fact_task(s)
    held_out = make_corpus(task, s.eval_size, s.eval_seed)
    layers = range(len(run.model.model.layers))
    readings = tuple(key_value_reading(run.model, task, held_out, i, s.top_k) for i in layers)
    accuracy = knockout_accuracies(run.model, held_out, KNOCKOUTS)
    return _State(readings, accuracy, task.token_names(), seed)


#: Promoted tokens shown per unit.
_SHOWN_TOKENS = 6


def _frame_data(
    layer: int, unit: int, knockout: str, setup: Setup = SETUP
) -> tuple[UnitSummary, str]:
    """Validate the control values; the unit's summary and the widget's HTML text."""
    state = _state(setup)
    require_int_in("layer", layer, 0, len(state.readings) - 1)
    reading = state.readings[layer]
    require_int_in("unit", unit, 0, reading.coefficients.shape[1] - 1)
    require_choice("knockout", knockout, list(KNOCKOUTS))
    summary = unit_summary(reading, unit, state.names, n_contexts=6, n_tokens=_SHOWN_TOKENS)
    contexts = "; ".join(f"{p} {t} → {a} ({v:+.1f})" for p, t, a, v in summary.contexts)
    favourite = state.names[int(reading.favourite[0 if summary.sign > 0 else 1, unit])]
    accuracy = listing(f"{kind_label(k)} {v:.3f}" for k, v in state.accuracy[knockout].items())
    html = tr(
        "Full model, seed {seed}. <b>Layer {layer}, unit {unit}</b> fires hardest at "
        "(previous token, token → answer (a)): {contexts}. "
        "{hit_rate:.0%} of its top {k} contexts have the attribute its value "
        "promotes most ({favourite}) as their answer.<br>"
        "Knockout <b>{knockout}</b>: {accuracy}",
        seed=state.seed,
        layer=layer,
        unit=unit,
        contexts=contexts,
        hit_rate=summary.hit_rate,
        k=reading.k,
        favourite=favourite,
        knockout=knockout_label(knockout),
        accuracy=accuracy,
    )
    return summary, html


def draw_memory(layer: int, unit: int, knockout: str, setup: Setup = SETUP) -> DrawResult:
    """Unit ``unit`` of layer ``layer``: its promoted tokens; accuracy with ``knockout`` applied.

    Returns a new figure drawn with the lesson's plot functions; the widget draws the same
    content into one figure it keeps (``MemoryView``). ``setup``: the lesson's ``SETUP``, or a
    smaller one (tests).
    """
    summary, html = _frame_data(layer, unit, knockout, setup)
    state = _state(setup)
    fig, (left, right) = new_figure(1, 2, panel_size=(3.9, 3.0))
    title = tr("layer {layer}, unit {unit}: value promotes", layer=layer, unit=unit)
    plot_unit(summary, ax=left, title=title)
    shown = {"intact": state.accuracy["none"]}  # English keys: plot_knockout translates them
    if knockout != "none":
        shown[f"{knockout} zeroed"] = state.accuracy[knockout]
    table = {label: {k: [v] for k, v in acc.items()} for label, acc in shown.items()}
    plot_knockout(table, ax=right, title=tr("held-out accuracy per kind"))
    fixed_layout(fig, left=0.1, right=0.98, bottom=0.17, top=0.88, gap=0.12)
    return fig, html


class MemoryView:
    """``draw_memory`` for the widget: one figure, its axes rendered once, only bars and labels
    redrawn. Call it with the control values; it returns ``(png bytes, html)``."""

    def __init__(self, setup: Setup = SETUP) -> None:
        self.setup = setup
        state = _state(setup)
        largest = max(float(r.logits.abs().max()) for r in state.readings)
        self.panels = new_memory_panels(_SHOWN_TOKENS, list(state.accuracy["none"]), largest)
        self.figure = self.panels.figure
        self.blitter = Blitter(self.figure, self.panels.dynamic)

    def __call__(self, layer: int, unit: int, knockout: str) -> tuple[bytes, str]:
        """The frame for these control values: ``(png, html)``."""
        summary, html = _frame_data(layer, unit, knockout, self.setup)
        state = _state(self.setup)
        knocked = state.accuracy[knockout] if knockout != "none" else None
        update_memory_panels(self.panels, summary, state.accuracy["none"], knocked, knockout)
        return self.blitter.png(), html


@register_widget("mlp_memory", lesson="08")
def memory_explorer(setup: Setup = SETUP) -> InteractivePlot:
    """Layer and unit → the unit's top contexts and promoted tokens; a knockout → accuracy.

    ``setup``: the lesson's ``SETUP`` (a smaller one trains faster, for tests).
    """
    state = _state(setup)
    last = state.readings[-1]
    best = int(last.hit_rate.argmax())  # the clearest key-value unit of the last layer
    controls = {
        "layer": widgets.Dropdown(
            options=list(range(len(state.readings))), value=last.layer, description=tr("layer")
        ),
        "unit": widgets.IntSlider(
            value=best,
            min=0,
            max=last.coefficients.shape[1] - 1,
            description=tr("unit"),
            continuous_update=False,
        ),
        "knockout": widgets.Dropdown(
            options=[(knockout_label(label), label) for label in KNOCKOUTS],
            value="none",
            description=tr("zero"),
        ),
    }
    title = tr("One MLP unit as key and value")
    return InteractivePlot(controls, MemoryView(setup), title=title)
