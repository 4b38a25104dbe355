"""Lesson 06: the 8/3 parity, rounding overhead, published widths, their plots and widget."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
import sympy as sp
from matplotlib.figure import Figure

import minimind_lab as ml

# Typed in from the sources (model cards, params.json/config.json), independently of the package.
PUBLISHED = {
    "MiniMind2-Small": (512, 1408),
    "MiniMind2-MoE": (640, 1728),
    "MiniMind2": (768, 2048),
    "minimind-3": (768, 2432),
    "LLaMA-1 7B": (4096, 11008),
    "LLaMA-1 13B": (5120, 13824),
    "LLaMA-1 33B": (6656, 17920),
    "LLaMA-1 65B": (8192, 22016),
    "Llama 3 8B": (4096, 14336),
    "Llama 3 70B": (8192, 28672),
}


def test_parity_ratio_solves_three_hm_equals_eight_h_squared() -> None:
    h, m = sp.symbols("h m", positive=True)
    (solution,) = sp.solve(sp.Eq(3 * h * m, 2 * h * 4 * h), m)
    assert sp.Rational(ml.PARITY_RATIO.numerator, ml.PARITY_RATIO.denominator) * h == solution
    assert ml.PARITY_RATIO == Fraction(8, 3)


def test_published_table_matches_the_sources_and_the_rule() -> None:
    table = {row.name: (row.hidden, row.published_width) for row in ml.PUBLISHED_WIDTHS}
    assert table == PUBLISHED
    for row in ml.PUBLISHED_WIDTHS:
        assert ml.recomputed_width(row) == row.published_width, row.name
        assert row.source and row.multiple_of in (64, 256, 1024, 4096)
    assert ml.published_width("LLaMA-1 7B").multiple_of == 256
    llama3 = ml.published_width("Llama 3 70B")
    assert (llama3.multiplier, llama3.multiple_of) == (1.3, 4096)
    with pytest.raises(ValueError, match="unknown model"):
        ml.published_width("GPT-2")


def test_minimind3_rule_written_as_in_minimind() -> None:
    for hidden in (512, 640, 768, 1024):
        assert math.ceil(hidden * math.pi / 64) * 64 == ml.intermediate_size(hidden, ratio=math.pi)
    # the edge case: int(π·h) already a multiple of 64
    assert ml.intermediate_size(41, ratio=math.pi) == 128 != math.ceil(41 * math.pi / 64) * 64


def test_width_budget_for_minimind2_small() -> None:
    budget = ml.width_budget(512)
    assert (budget.unrounded_width, budget.width, budget.plain_width) == (1365, 1408, 2048)
    assert budget.plain_parameters == 8 * 512**2
    assert budget.gated_parameters == 3 * 512 * 1408
    assert budget.rounding_extra == 3 * 512 * 43 == 66_048
    assert budget.rounding_overhead == pytest.approx(43 / 1365)
    assert budget.gated_to_plain == pytest.approx(1.03125)
    assert ml.width_budget(768).rounding_extra == 0
    llama3 = ml.width_budget(4096, 1024, ffn_dim_multiplier=1.3)
    assert llama3.width == 14336 and llama3.gated_to_plain == 1.3125
    with pytest.raises(ValueError, match="hidden_size"):
        ml.width_budget(0)


def test_rounding_overhead_is_bounded_by_one_multiple() -> None:
    sizes = list(range(64, 4097, 64))
    for size, overhead in zip(sizes, ml.rounding_overheads(sizes, 64), strict=True):
        assert 0 <= overhead < 64 / int(8 * size / 3)
    assert ml.rounding_overheads([192, 384], 64) == [0.0, 0.0]


def test_parameter_parity_lines_and_models() -> None:
    parity = ml.parameter_parity(ml.PUBLISHED_WIDTHS, max_ratio=6.0, points=61)
    assert len(parity.ratios) == len(parity.plain) == len(parity.gated) == 61
    assert parity.ratios[-1] == pytest.approx(6.0)
    assert parity.plain[40] == pytest.approx(8.0) and parity.ratios[40] == pytest.approx(4.0)
    assert parity.crossing == pytest.approx(8 / 3) and 3 * parity.crossing == pytest.approx(8.0)
    models = {name: (ratio, to_plain) for name, ratio, to_plain in parity.models}
    assert models["MiniMind2"] == (pytest.approx(8 / 3), pytest.approx(1.0))
    assert models["Llama 3 8B"][1] == pytest.approx(1.3125)
    with pytest.raises(ValueError, match="max_ratio"):
        ml.parameter_parity(max_ratio=0)


def test_sizing_plots() -> None:
    parity = ml.parameter_parity(ml.PUBLISHED_WIDTHS)
    fig = ml.plot_parameter_parity(parity)
    assert isinstance(fig, Figure)
    labels = fig.axes[0].get_legend_handles_labels()[1]
    assert any("MiniMind2" in label for label in labels)
    assert any("Llama 3" in label for label in labels)
    fig = ml.plot_model_budgets(parity)
    assert [t.get_text() for t in fig.axes[0].get_yticklabels()][0] == "MiniMind2-Small"
    with pytest.raises(ValueError, match="empty"):
        ml.plot_model_budgets(ml.parameter_parity())
    budget = ml.width_budget(512)
    fig = ml.plot_width_budget(budget, [256, 512], ml.rounding_overheads([256, 512]))
    assert len(fig.axes) == 2 and "1408" in fig.axes[0].get_title()
    with pytest.raises(ValueError, match="one overhead per hidden size"):
        ml.plot_width_budget(budget, [256, 512], [0.1])


def test_width_budget_widget_redraws_on_change() -> None:
    assert ml.WIDGET_REGISTRY["ffn_width_budget"][0] == "06"
    widget = ml.WIDGET_REGISTRY["ffn_width_budget"][1]()
    assert "<b>1408</b>" in widget.text.value and "3.15%" in widget.text.value
    image = widget.image.value
    widget.controls["hidden_size"].value = 4096
    widget.controls["multiple_of"].value = 1024
    widget.controls["multiplier"].value = 1.3
    assert widget.redraw_count == 4
    assert widget.image.value != image
    assert "<b>14336</b>" in widget.text.value and "1.312×" in widget.text.value
    widget.controls["multiplier"].value = 1.0
    widget.controls["hidden_size"].value = 768
    widget.controls["multiple_of"].value = 64
    assert "<b>2048</b>" in widget.text.value and "adds 0 parameters" in widget.text.value
