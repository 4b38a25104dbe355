"""Lesson 06: the 8/3 parity, rounding overhead, published widths, their plots and widget."""

from __future__ import annotations

import math

import pytest
import sympy as sp
import torch
from matplotlib.figure import Figure

import minimind_lab as ml
from minimind_lab.lessons import l06
from minimind_lab.widgets import WIDGET_REGISTRY

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


def test_counted_crossing_is_the_symbolic_solution() -> None:
    h, m = sp.symbols("h m", positive=True)
    (solution,) = sp.solve(sp.Eq(3 * h * m, 2 * h * 4 * h), m)
    for hidden in (96, 48):
        parity = l06.parameter_parity(hidden_size=hidden)
        assert parity.crossing == pytest.approx(float(solution / h))
        assert parity.plain_at_4h == pytest.approx(8.0)


def test_counted_parameters_come_from_the_modules() -> None:
    for hidden, width in ((96, 256), (7, 13)):
        assert l06.counted_parameters(hidden, width, gated=True) == ml.count_parameters(
            ml.GatedFFN(hidden, width)
        )
        assert l06.counted_parameters(hidden, width, gated=False) == 2 * hidden * width
    with pytest.raises(ValueError, match="gated"):
        l06.counted_parameters(4, 4, gated="yes")
    with pytest.raises(ValueError, match="width"):
        l06.counted_parameters(4, 0, gated=True)


def test_published_table_matches_the_sources_and_the_rule() -> None:
    table = {row.name: (row.hidden, row.published_width) for row in l06.PUBLISHED_WIDTHS}
    assert table == PUBLISHED
    for row in l06.PUBLISHED_WIDTHS:
        assert l06.recomputed_width(row) == row.published_width, row.name
        assert row.source and row.rule.multiple_of in (64, 256, 1024, 4096)
    assert l06.published_width("LLaMA-1 7B").rule is ml.LLAMA1_RULE
    llama3 = l06.published_width("Llama 3 70B")
    assert (llama3.rule.ffn_dim_multiplier, llama3.rule.multiple_of) == (1.3, 4096)
    # one source of MiniMind2's sizes: the table reads its hidden sizes from MINIMIND2_MODELS
    for name, (hidden, _layers) in ml.MINIMIND2_MODELS.items():
        assert l06.published_width(name).hidden == hidden
    with pytest.raises(ValueError, match="unknown model"):
        l06.published_width("GPT-2")


def test_minimind3_rule_written_as_in_minimind() -> None:
    for hidden in (41, 512, 640, 768, 1024):
        expected = math.ceil(hidden * math.pi / 64) * 64
        assert ml.intermediate_size(hidden, ml.MINIMIND3_RULE) == expected


def test_width_budget_for_minimind2_small() -> None:
    budget = l06.width_budget(512)
    assert (budget.unrounded_width, budget.width, budget.plain_width) == (1365, 1408, 2048)
    assert budget.plain_parameters == 8 * 512**2
    assert budget.gated_parameters == 3 * 512 * 1408
    assert budget.rounding_extra == 3 * 512 * 43 == 66_048
    assert budget.rounding_overhead == pytest.approx(43 / 1365)
    assert budget.gated_to_plain == pytest.approx(1.03125)
    assert l06.width_budget(768).rounding_extra == 0
    llama3 = l06.width_budget(4096, ml.LLAMA3_8B_RULE)
    assert llama3.width == 14336 and llama3.gated_to_plain == 1.3125
    with pytest.raises(ValueError, match="hidden_size"):
        l06.width_budget(0)


def test_rounding_overhead_is_bounded_by_one_multiple() -> None:
    sizes = list(range(64, 4097, 64))
    for size, overhead in zip(sizes, l06.rounding_overheads(sizes, ml.MINIMIND2_RULE), strict=True):
        assert 0 <= overhead < 64 / int(8 * size / 3)
    assert l06.rounding_overheads([192, 384]) == [0.0, 0.0]


def test_parameter_parity_lines_and_models() -> None:
    parity = l06.parameter_parity(l06.PUBLISHED_WIDTHS, hidden_size=96, max_ratio=6, width_step=8)
    assert parity.widths == tuple(range(8, 577, 8))
    assert len(parity.ratios) == len(parity.plain) == len(parity.gated) == 72
    assert parity.ratios[-1] == pytest.approx(6.0)
    index = parity.widths.index(384)  # m = 4h
    assert parity.plain[index] == pytest.approx(8.0) == parity.plain_at_4h
    assert parity.gated[parity.widths.index(256)] == pytest.approx(8.0)
    assert parity.crossing == pytest.approx(8 / 3)
    # a crossing between two counted widths is interpolated on the (straight) gated line
    assert l06.parameter_parity(hidden_size=96, width_step=12).crossing == pytest.approx(8 / 3)
    models = {name: (ratio, to_plain) for name, ratio, to_plain in parity.models}
    assert models["MiniMind2"] == (pytest.approx(8 / 3), pytest.approx(1.0))
    assert models["Llama 3 8B"][1] == pytest.approx(1.3125)
    with pytest.raises(ValueError, match="max_ratio"):
        l06.parameter_parity(max_ratio=0)
    with pytest.raises(ValueError, match="not a counted width"):
        l06.parameter_parity(hidden_size=96, width_step=7)
    with pytest.raises(ValueError, match="not a counted width"):
        l06.parameter_parity(hidden_size=96, max_ratio=3)


def test_linear_layer_times() -> None:
    state = torch.random.get_rng_state()
    times = l06.linear_layer_times(hidden_size=16, widths=(24, 32, 24), tokens=8, repeats=3)
    assert torch.equal(torch.random.get_rng_state(), state)
    assert set(times.seconds) == {24, 32} and times.device == "cpu" and times.repeats == 3
    assert all(t > 0 for t in times.seconds.values())
    assert times.per_unit[32] == pytest.approx(times.seconds[32] / 32)
    with pytest.raises(ValueError, match="widths is empty"):
        l06.linear_layer_times(widths=())
    with pytest.raises(ValueError, match="repeats"):
        l06.linear_layer_times(repeats=0)
    with pytest.raises(ValueError, match="width"):
        l06.linear_layer_times(widths=(0,))


def test_sizing_plots() -> None:
    parity = l06.parameter_parity(l06.PUBLISHED_WIDTHS)
    fig = l06.plot_parameter_parity(parity)
    assert isinstance(fig, Figure)
    labels = fig.axes[0].get_legend_handles_labels()[1]
    assert any("MiniMind2" in label for label in labels)
    assert any("Llama 3" in label for label in labels)
    fig = l06.plot_model_budgets(parity)
    assert [t.get_text() for t in fig.axes[0].get_yticklabels()][0] == "MiniMind2-Small"
    with pytest.raises(ValueError, match="empty"):
        l06.plot_model_budgets(l06.parameter_parity())
    budget = l06.width_budget(512)
    fig = l06.plot_width_budget(budget, [256, 512], l06.rounding_overheads([256, 512]))
    assert len(fig.axes) == 2 and "1408" in fig.axes[0].get_title()
    with pytest.raises(ValueError, match="one overhead per hidden size"):
        l06.plot_width_budget(budget, [256, 512], [0.1])


def test_width_budget_widget_redraws_on_change() -> None:
    assert WIDGET_REGISTRY["ffn_width_budget"][0] == "06"
    widget = WIDGET_REGISTRY["ffn_width_budget"][1]()
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
    slider = widget.controls["hidden_size"]
    assert (slider.min, slider.max, slider.step) == l06.SETUP.hidden_range
    with pytest.raises(ValueError, match="hidden_size"):
        l06.draw_width_budget(8193, 64, 1.0)
    with pytest.raises(ValueError, match="multiplier"):
        l06.draw_width_budget(512, 64, 2.5)
    with pytest.raises(ValueError, match="multiple_of"):
        l06.draw_width_budget(512, 48, 1.0)
