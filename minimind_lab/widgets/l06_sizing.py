"""Lesson 06's widget: hidden size, multiple-of and multiplier → FFN width and its cost."""

from __future__ import annotations

import math
from collections import OrderedDict
from functools import lru_cache

import ipywidgets as widgets
from matplotlib.ticker import MaxNLocator

from ..i18n import tr
from ..lessons.l06_sizing import SETUP, WidthBudget, rounding_overheads, width_budget
from ..plots.l06_sizing import (
    WidthBudgetPanels,
    lay_out_width_budget_once,
    new_width_budget_panels,
    update_width_budget_panels,
)
from ..plots.style import new_figure
from ..sizing import WidthRule
from .base import (
    WIDGET_DPI,
    Blitter,
    DrawResult,
    InteractivePlot,
    canvas_to_png,
    register_widget,
    require_choice,
    require_int_in,
)

__all__ = [
    "WidthBudgetView",
    "draw_width_budget",
    "width_budget_widget",
]

#: Backgrounds with a rule's overhead curve drawn in that ``WidthBudgetView`` keeps.
_RULE_BACKGROUNDS = 16


@lru_cache(maxsize=64)
def _overhead_curve(rule: WidthRule) -> tuple[float, ...]:
    return tuple(rounding_overheads(SETUP.curve_sizes, rule))


def _rule(multiple_of: int, multiplier: float) -> WidthRule:
    """The rounding rule of the controls: ``multiplier`` 1.0 means no ``ffn_dim_multiplier``."""
    factor = None if multiplier == 1.0 else multiplier
    return WidthRule(multiple_of=multiple_of, ffn_dim_multiplier=factor)


def _budget(hidden_size: int, multiple_of: int, multiplier: float) -> tuple[WidthBudget, str]:
    """Validate the control values; the budget they give and the widget's summary of it."""
    low, high, _step = SETUP.hidden_range
    require_int_in("hidden_size", hidden_size, low, high)
    require_choice("multiple_of", multiple_of, SETUP.multiple_of_choices)
    lowest, highest, _ = SETUP.multiplier_range
    number = isinstance(multiplier, (int, float)) and not isinstance(multiplier, bool)
    if not (number and math.isfinite(multiplier) and lowest <= multiplier <= highest):
        raise ValueError(
            f"multiplier must be a number from {lowest:g} to {highest:g}, got {multiplier!r}"
        )
    budget = width_budget(hidden_size, _rule(multiple_of, multiplier))
    html = tr(
        "h = {hidden_size}, multiple_of = {multiple_of}, multiplier = {multiplier:g}: "
        "intermediate_size <b>{width}</b> (unrounded {unrounded}). "
        "Plain FFN at 4h: {plain:,} parameters; "
        "gated FFN: {gated:,} ({ratio:.3f}×). "
        "Rounding adds {extra:,} parameters "
        "({overhead:.2f}%).",
        hidden_size=hidden_size,
        multiple_of=multiple_of,
        multiplier=multiplier,
        width=budget.width,
        unrounded=budget.unrounded_width,
        plain=budget.plain_parameters,
        gated=budget.gated_parameters,
        ratio=budget.gated_to_plain,
        extra=budget.rounding_extra,
        overhead=100 * budget.rounding_overhead,
    )
    return budget, html


def _new_panels() -> WidthBudgetPanels:
    """The widget's figure, showing the starting values (h = 512, multiple of 64, no
    multiplier), laid out once for the whole range of the controls: the lowest and highest
    hidden size and every rounding rule at the lowest, no and the highest multiplier."""
    start = width_budget(512, _rule(64, 1.0))
    _fig, axes = new_figure(1, 2, dpi=WIDGET_DPI)  # laid out at the dpi it is shown at
    panels = new_width_budget_panels(
        start, SETUP.curve_sizes, _overhead_curve(start.rule), axes=axes
    )
    # Laid out for every tick label, the curve panel is a little wider than a figure laid out
    # for one setting, wide enough for matplotlib to label every 1000th size, crowded at this
    # dpi; every 2000th, as before, reads better.
    panels.curve_ax.xaxis.set_major_locator(MaxNLocator(nbins=5))
    low, high, _step = SETUP.hidden_range
    lowest, highest, _ = SETUP.multiplier_range
    rules = [
        _rule(multiple_of, multiplier)
        for multiple_of in SETUP.multiple_of_choices
        for multiplier in (lowest, 1.0, highest)
    ]
    budgets = [width_budget(hidden_size, rule) for rule in rules for hidden_size in (low, high)]
    lay_out_width_budget_once(panels, budgets, [_overhead_curve(rule) for rule in rules])
    return panels


def draw_width_budget(hidden_size: int, multiple_of: int, multiplier: float) -> DrawResult:
    """The figure and summary for one hidden size under one rounding rule.

    ``multiplier`` is Llama 3's ``ffn_dim_multiplier``; ``1.0`` means none. Values outside
    ``SETUP``'s ranges raise ``ValueError`` naming the value. Returns a new figure; the widget
    draws the same picture into one figure it keeps (``WidthBudgetView``).
    """
    budget, html = _budget(hidden_size, multiple_of, multiplier)
    panels = _new_panels()
    update_width_budget_panels(panels, budget, SETUP.curve_sizes, _overhead_curve(budget.rule))
    return panels.figure, html


class WidthBudgetView:
    """``draw_width_budget`` for the widget: one figure for its life, only what changes redrawn.

    Call it with the control values; it returns the frame as PNG bytes and the summary.
    ``figure`` is the figure it keeps: its frame, x axes and y labels are rendered once (the
    base background). The overhead curve and its y axis depend on the rounding rule only, so
    the view keeps, once drawn, a background of its own per rule with them; moving the hidden
    size then draws the bars, their y axis, the marker and the titles on top. The figure is
    drawn for the view only: its y labels are hidden from the y axes drawn each frame.
    """

    def __init__(self) -> None:
        self.panels = _new_panels()
        self.figure = self.panels.figure
        # The bars' grid lines belong to the x axis, which the background holds; left out of it
        # (hidden while it is rendered), they are painted once per frame, over the bars.
        gridlines = self.panels.bar_gridlines
        for line in gridlines:
            line.set_visible(False)
        self.blitter = Blitter(self.figure, self.panels.dynamic)
        for line in gridlines:
            line.set_visible(True)
        # The y labels belong to the y axes, drawn every frame; pinned by the layout, they never
        # change, so they are drawn once into the base background and hidden from the axes.
        canvas = self.blitter.canvas
        for axes in (self.panels.bars_ax, self.panels.curve_ax):
            self.figure.draw_artist(axes.yaxis.label)
            axes.yaxis.label.set_visible(False)
        self._base = canvas.copy_from_bbox(self.figure.bbox)
        self._rule_artists = [self.panels.curve_ax.yaxis, self.panels.curve]
        self._over_rule = [a for a in self.panels.dynamic if a not in self._rule_artists]
        # Canvas regions (matplotlib's BufferRegion), by rule, least recently used first.
        self._rule_backgrounds: OrderedDict[WidthRule, object] = OrderedDict()

    def _rule_background(self, rule: WidthRule) -> object:
        """The base background with ``rule``'s curve and y axis drawn on it (made on first
        use; the panels must show ``rule`` already)."""
        if rule in self._rule_backgrounds:
            self._rule_backgrounds.move_to_end(rule)
        else:
            canvas = self.blitter.canvas
            canvas.restore_region(self._base)
            for artist in self._rule_artists:
                self.figure.draw_artist(artist)
            if len(self._rule_backgrounds) >= _RULE_BACKGROUNDS:
                self._rule_backgrounds.popitem(last=False)
            self._rule_backgrounds[rule] = canvas.copy_from_bbox(self.figure.bbox)
        return self._rule_backgrounds[rule]

    def __call__(self, hidden_size: int, multiple_of: int, multiplier: float) -> tuple[bytes, str]:
        """The frame for these control values: ``(png, html)``."""
        budget, html = _budget(hidden_size, multiple_of, multiplier)
        overheads = _overhead_curve(budget.rule)
        update_width_budget_panels(self.panels, budget, SETUP.curve_sizes, overheads)
        self.blitter.canvas.restore_region(self._rule_background(budget.rule))
        for artist in self._over_rule:
            self.figure.draw_artist(artist)
        return canvas_to_png(self.blitter.canvas), html


@register_widget("ffn_width_budget", lesson="06")
def width_budget_widget() -> InteractivePlot:
    """Sliders for hidden size and multiplier, a dropdown for multiple-of; redraws the budget."""
    low, high, step = SETUP.hidden_range
    lowest, highest, multiplier_step = SETUP.multiplier_range
    controls = {
        "hidden_size": widgets.IntSlider(
            value=512, min=low, max=high, step=step, description=tr("hidden h")
        ),
        "multiple_of": widgets.Dropdown(
            options=list(SETUP.multiple_of_choices), value=64, description=tr("multiple of")
        ),
        "multiplier": widgets.FloatSlider(
            value=1.0, min=lowest, max=highest, step=multiplier_step, description=tr("multiplier")
        ),
    }
    return InteractivePlot(
        controls,
        WidthBudgetView(),
        title=tr("FFN width from hidden size: the 8/3 rule (MiniMind2, LLaMA) and its rounding"),
    )
