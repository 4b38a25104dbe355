"""Lesson 06: the 8/3 parity, rounding overhead, published widths, their plots and widget."""

from __future__ import annotations

import io
import math
import re
from pathlib import Path

import nbformat
import numpy as np
import pytest
import sympy as sp
import torch
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from PIL import Image

import minimind_lab as ml
from minimind_lab.i18n import language
from minimind_lab.i18n.table import display_width
from minimind_lab.lessons import l06
from minimind_lab.widgets import WIDGET_REGISTRY
from minimind_lab.widgets.base import figure_to_png

NOTEBOOK = Path(__file__).resolve().parent.parent / "notebooks" / "06_eight_thirds.ipynb"

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


def test_notebook_table_matches_the_package_data() -> None:
    # The lesson shows the published widths as a markdown table with their sources; the package
    # holds them as data for the plots. The two copies must agree, row for row.
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    rows = {}
    for cell in notebook.cells:
        if cell.cell_type == "markdown" and "| published FFN width |" in cell.source:
            for line in cell.source.splitlines():
                fields = [f.strip() for f in line.strip().strip("|").split("|")]
                if len(fields) == 5 and fields[1].isdigit():
                    rows[fields[0]] = (int(fields[1]), int(fields[3]))
    assert rows == {row.name: (row.hidden, row.published_width) for row in l06.PUBLISHED_WIDTHS}


def test_block_weights_count_attention_and_ffn_on_modules() -> None:
    h = 4096
    mha, gqa = l06.block_weights(h, 32, 32, 10922), l06.block_weights(h, 32, 8, 10922)
    assert mha.attention == 4 * h * h  # W_q, W_k, W_v, W_o all h × h
    assert gqa.attention == 2 * h * h + 2 * h * (8 * h // 32)  # W_k, W_v shrink with 8 kv heads
    assert gqa.ffn == mha.ffn == 3 * h * 10922 and gqa.total == gqa.attention + gqa.ffn
    # lesson 01's split: MiniMind2's 8 query heads share 2 key/value heads, attention 2.5h²
    assert l06.block_weights(512, 8, 2, 1408).attention == 2.5 * 512**2
    with pytest.raises(ValueError, match="num_kv_heads"):
        l06.block_weights(64, 8, 3, 128)
    with pytest.raises(ValueError, match="ffn_width"):
        l06.block_weights(64, 8, 2, 0)


def test_tables_line_up_in_both_languages() -> None:
    rounding = l06.rounding_table((512, 768)).splitlines()
    header = ["h", "exact", "unrounded", "rounded", "+units", "+weights", "overhead"]
    assert rounding[0].split() == header
    assert rounding[1].split() == ["512", "1365.33", "1365", "1408", "43", "66,048", "3.15%"]
    published = l06.published_table().splitlines()
    assert len(published) == 1 + len(l06.PUBLISHED_WIDTHS)
    llama3_70b = ["8192", "4096", "1.3", "8/3", "28672", "28672", "3.500", "1.3125"]
    assert published[-1].split()[3:] == llama3_70b
    comparison = l06.comparison_table(ml.version_comparison(768))
    assert "only if k > 1" in comparison and "if_top_k_gt_1" not in comparison
    assert "dropout after down_proj" in comparison and " True " in comparison
    blocks = {"GQA": l06.block_weights(4096, 32, 8, 14336)}
    row = ["GQA", "8/32", "14336", "2.50", "10.50", "13.00"]
    assert l06.block_weights_table(blocks).splitlines()[1].split() == row
    tables = [rounding, published, comparison.splitlines()]
    with language("zh"):
        zh = l06.rounding_table((512,)).splitlines()
        assert zh[0].split()[1:3] == ["精确值", "取整前"]
        zh_comparison = l06.comparison_table(ml.version_comparison(768))
        assert "True" not in zh_comparison and "False" not in zh_comparison  # 是/否
        assert [l06.truth(True), l06.truth(False)] == ["是", "否"]
        tables += [zh, zh_comparison.splitlines()]
    for table in tables:  # right-aligned last column: every line ends in the same display column
        assert len({display_width(line) for line in table}) == 1, table


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


def _timed(seconds: dict[int, float]) -> l06.LayerTimes:
    return l06.LayerTimes(hidden_size=8, tokens=4, repeats=1, device="cpu", seconds=seconds)


def test_timing_verdict_names_an_effect_only_when_every_run_shows_it() -> None:
    same = _timed({1365: 1365e-6, 1408: 1408e-6})  # equal time per unit
    faster = _timed({1365: 1365e-6, 1408: 1408e-6 * 0.8})
    slower = _timed({1365: 1365e-6, 1408: 1408e-6 * 1.3})
    assert "pays here" in l06.timing_verdict([faster, faster], 1408, 1365)
    assert "does not pay here" in l06.timing_verdict([slower, slower], 1408, 1365)
    for runs in ([same, same], [faster, same], [faster, slower]):
        assert "no measurable effect" in l06.timing_verdict(runs, 1408, 1365)
    verdict = l06.timing_verdict([faster, same], 1408, 1365, tolerance=0.1)
    assert verdict.startswith("on CPU, 2 runs: ") and "10%" in verdict
    assert re.findall(r"\d+", verdict) == ["2", "10", "1408", "1365"]  # no timing in it
    with pytest.raises(ValueError, match="runs is empty"):
        l06.timing_verdict([], 1408, 1365)
    with pytest.raises(ValueError, match="tolerance"):
        l06.timing_verdict([same], 1408, 1365, tolerance=1.5)
    with pytest.raises(ValueError, match="did not time"):
        l06.timing_verdict([same], 1536, 1365)


def test_sizing_plots() -> None:
    parity = l06.parameter_parity(l06.PUBLISHED_WIDTHS)
    fig = l06.plot_parameter_parity(parity)
    assert isinstance(fig, Figure)
    labels = fig.axes[0].get_legend_handles_labels()[1]
    assert any("MiniMind2" in label for label in labels)
    assert any("Llama 3" in label for label in labels)
    # the models the parity ring covers are shown again, zoomed in, in an inset
    (inset,) = fig.axes[0].child_axes
    zoomed = {c.get_label() for c in inset.collections}
    assert zoomed == {"MiniMind2 (published widths)", "LLaMA-1 (published widths)"}
    low, high = inset.get_xlim()
    assert low < 8 / 3 and high > 2.75  # from the crossing to MiniMind2-Small
    assert not l06.plot_parameter_parity(l06.parameter_parity()).axes[0].child_axes  # no models
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


def _pixels(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png))).astype(int)


def _y_label_clear(ax: Axes, left_of: float) -> bool:
    """After a draw: the y label lies right of ``left_of`` (pixels) and left of every y tick
    label."""
    renderer = ax.figure.canvas.get_renderer()
    label = ax.yaxis.label.get_window_extent(renderer)
    low, high = ax.get_ylim()
    shown = [t for t in ax.get_yticklabels() if t.get_text() and low <= t.get_position()[1] <= high]
    ticks = [t.get_window_extent(renderer) for t in shown]
    return bool(ticks) and label.x0 >= left_of and all(label.x1 <= tick.x0 for tick in ticks)


def test_width_budget_widget_redraws_its_one_figure_like_a_fresh_drawing() -> None:
    widget = WIDGET_REGISTRY["ffn_width_budget"][1]()
    view = widget.draw
    figure, bars = view.figure, view.panels.bars
    image = widget.image.value
    for name, value in (("hidden_size", 64), ("multiple_of", 4096), ("multiplier", 0.5)):
        widget.controls[name].value = value
        assert widget.image.value != image  # a new picture ...
        image = widget.image.value
        assert view.figure is figure and view.panels.bars == bars  # ... on the same figure
        assert len(figure.axes) == 2 and len(figure.axes[0].patches) == 3
    widget.controls["hidden_size"].value = 1024  # a rule's curve drawn before, a new size
    # The frame drawn by updating shows what a figure drawn from scratch shows.
    fresh, html = l06.draw_width_budget(1024, 4096, 0.5)
    assert html == widget.text.value
    assert np.abs(_pixels(widget.image.value) - _pixels(figure_to_png(fresh))).mean() < 0.05


@pytest.mark.parametrize(
    ("hidden_size", "multiple_of", "multiplier"),
    [(64, 64, 2.0), (64, 4096, 0.5), (768, 1, 1.0)],  # labels 17.5, 4000, −0.04
)
def test_width_budget_widget_layout_has_room_for_every_tick_label(
    hidden_size: int, multiple_of: int, multiplier: float
) -> None:
    # The widget lays its figure out once; each y label stays clear of the widest tick labels
    # (and the right panel's of the left panel).
    fig, _ = l06.draw_width_budget(hidden_size, multiple_of, multiplier)
    figure_to_png(fig)
    bars, curve = fig.axes
    right_edge_of_bars = bars.get_window_extent().x1
    assert _y_label_clear(bars, 0.0) and _y_label_clear(curve, right_edge_of_bars)
