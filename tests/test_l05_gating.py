"""Lesson 05: gate statistics, 1-D gated curves, the equal-budget race, its plots and widget."""

from __future__ import annotations

import dataclasses
import io
import math

import numpy as np
import pytest
import torch
from matplotlib.axes import Axes
from matplotlib.colors import to_hex
from PIL import Image

import minimind_lab as ml
from minimind_lab.i18n import language
from minimind_lab.lessons import l05
from minimind_lab.plots.style import GLU_COLORS, series_style
from minimind_lab.widgets import WIDGET_REGISTRY
from minimind_lab.widgets.base import figure_to_png


def test_scaling_ratio_reads_the_degree() -> None:
    with ml.seeded(0):
        x = torch.randn(64, 4)
        relu = ml.PlainFFN(4, 16, act="relu")
        bilinear = ml.GatedFFN(4, 16, act="identity")
        reglu = ml.GatedFFN(4, 16, act="relu")
        swiglu = ml.GatedFFN(4, 16, act="silu")
    assert l05.scaling_ratio(relu, x) == pytest.approx(2.0)
    assert l05.scaling_ratio(bilinear, x) == pytest.approx(4.0)
    assert l05.scaling_ratio(bilinear, x, factor=-3.0) == pytest.approx(9.0)
    assert l05.scaling_ratio(reglu, x) == pytest.approx(4.0)
    assert abs(l05.scaling_ratio(swiglu, x) - 4.0) > 0.1  # neither degree 1 nor 2
    for bad in (0, 0.0, float("nan"), True, "2"):
        with pytest.raises(ValueError, match="factor"):
            l05.scaling_ratio(relu, x, factor=bad)
    with torch.no_grad():
        relu.down_proj.weight.zero_()
    with pytest.raises(ValueError, match="undefined"):
        l05.scaling_ratio(relu, x)


def test_mirror_gap_is_zero_for_a_quadratic_form_only() -> None:
    with ml.seeded(0):
        x = torch.randn(64, 4)
        bilinear = ml.GatedFFN(4, 16, act="identity")
        with_linear_part = ml.GatedFFN(4, 16, act="identity", bias=True)
        reglu = ml.GatedFFN(4, 16, act="relu")
        relu = ml.PlainFFN(4, 16, act="relu")
    assert l05.mirror_gap(bilinear, x) < 1e-6  # a quadratic form: f(−x) = f(x)
    assert l05.mirror_gap(with_linear_part, x) > 0.1  # quadratic, but not a form
    assert l05.mirror_gap(reglu, x) > 0.5
    with torch.no_grad():
        by_hand = ((relu(-x) - relu(x)).norm() / relu(x).norm()).item()
    assert l05.mirror_gap(relu, x) == pytest.approx(by_hand, rel=1e-5)
    with torch.no_grad():
        relu.down_proj.weight.zero_()
    with pytest.raises(ValueError, match="undefined"):
        l05.mirror_gap(relu, x)


def test_race_zero_loss_is_the_loss_of_predicting_zero() -> None:
    race = l05.equal_budget_experiment(
        seeds=(0,), steps=1, n_train=16, n_test=8, contenders=SMALL_RACE, target=lambda x: x + 3
    )
    x_train, _ = l05.race_inputs(n_train=16, n_test=8)
    y = x_train + 3  # mean 3: far from its variance
    zero = torch.nn.functional.mse_loss(torch.zeros_like(y), y).item()
    assert race.zero_loss == pytest.approx(zero)
    assert race.zero_loss > 2 * y.var().item()


def test_table_lines_up_by_display_width() -> None:
    text = l05.table(("name", "a", "b"), {"x": ["1", "22"], "门控": ["333", "4"]})
    lines = text.splitlines()
    assert lines == ["name    a   b", "x       1  22", "门控  333   4"]
    widths = {sum(2 if "\u4e00" <= c <= "\u9fff" else 1 for c in line) for line in lines}
    assert widths == {13}
    assert l05.table(("k", "v"), {"a": ["xyz"]}, align="<<") == "k  v\na  xyz"
    with pytest.raises(ValueError, match="cells"):
        l05.table(("name", "a"), {"x": ["1", "2"]})
    with pytest.raises(ValueError, match="align"):
        l05.table(("name", "a"), {"x": ["1"]}, align="<^")


def test_contender_labels_follow_the_notebook_language() -> None:
    """A plain contender's name is a label, translated as the plots translate it, and so is the
    bilinear variant's; the other GLU variants' names (acronyms) are the same in every language;
    an unknown name comes back as it is."""
    names = ("Plain SiLU", "SwiGLU", "Bilinear")
    assert [l05.contender_label(n) for n in names] == list(names)
    with language("zh"):
        labels = [l05.contender_label(n) for n in l05.BUDGET_CONTENDERS]
        assert labels[:3] == ["朴素 ReLU", "朴素 GELU", "朴素 SiLU"]
        variants = [n if n != "Bilinear" else "双线性" for n in ml.GLU_VARIANTS]
        assert labels[3:] == variants
        assert l05.contender_label("my own FFN") == "my own FFN"


def test_loss_and_percentage_point_texts() -> None:
    assert l05.loss_text(0.0123) == "0.012"
    assert l05.loss_text(1e-7) == "< 1e-6"
    assert l05.loss_text(1e-6) == "1e-06"
    assert l05.percentage_points([0.12, 0.1, -0.034]) == "+12, +10, -3"
    assert l05.listing(["a: 1", "b: 2", "c: 3"]) == "a: 1, b: 2, c: 3"
    with language("zh"):
        assert l05.listing(["甲", "乙", "丙"]) == "甲；乙；丙"
        assert l05.listing(["甲"]) == "甲"


def test_gate_activations_are_act_of_gate_proj() -> None:
    torch.manual_seed(0)
    ffn = ml.GatedFFN(6, 16, act="silu")
    x = torch.randn(3, 5, 6)
    gates = l05.gate_activations(ffn, x)
    assert gates.shape == (3, 5, 16)
    assert not gates.requires_grad
    assert torch.allclose(gates, torch.nn.functional.silu(ffn.gate_proj(x)))
    assert l05.gate_activations(
        ml.FeedForward(ml.MiniMindConfig(hidden_size=64)), torch.randn(2, 64)
    ).shape == (2, 192)


def test_gate_activations_rejects_a_plain_ffn() -> None:
    with pytest.raises(ValueError, match="no gate branch"):
        l05.gate_activations(ml.PlainFFN(4, 8), torch.randn(2, 4))


def test_gate_statistics_counts_by_hand() -> None:
    values = torch.tensor([[0.0, 0.05, -0.5, 2.0], [0.5, 0.0, -0.05, 1.5]])
    stats = l05.gate_statistics(values, closed_below=0.1)
    assert stats.count == 8 and stats.units == 4
    assert stats.closed == pytest.approx(4 / 8) and stats.passing == pytest.approx(4 / 8)
    assert stats.negative == pytest.approx(1 / 8)
    assert stats.amplifying == pytest.approx(2 / 8)
    assert stats.always_closed_units == 1  # the second column is closed for both rows
    assert stats.minimum == pytest.approx(-0.5) and stats.maximum == pytest.approx(2.0)
    assert stats.mean == pytest.approx(values.mean().item())


@pytest.mark.parametrize("bad", [0.0, -1.0])
def test_gate_statistics_rejects_bad_threshold(bad: float) -> None:
    with pytest.raises(ValueError, match="closed_below"):
        l05.gate_statistics(torch.ones(3), closed_below=bad)
    with pytest.raises(ValueError, match="empty"):
        l05.gate_statistics(torch.ones(0, 3))


def test_gated_product_curves_match_their_closed_forms() -> None:
    glu = l05.gated_product_curve("GLU")
    t = glu.t
    assert glu.act == "sigmoid" and glu.variant == "GLU" and t.shape == (401,)
    assert l05.gated_product_curve("relu").variant is None
    assert torch.allclose(glu.product, torch.nn.functional.silu(t))  # σ(t)·t is SiLU
    assert torch.allclose(l05.gated_product_curve("Bilinear").product, t * t)
    assert torch.allclose(l05.gated_product_curve("ReGLU").product, torch.relu(t) * t)
    mirrored = l05.gated_product_curve("relu", gate_scale=-1.0)
    assert torch.allclose(mirrored.product, torch.relu(-t) * t)
    with pytest.raises(ValueError, match="x_range"):
        l05.gated_product_curve("SwiGLU", x_range=(1.0, -1.0))
    with pytest.raises(ValueError, match="unknown activation"):
        l05.gated_product_curve("nope")


def test_equal_budget_width() -> None:
    assert l05.equal_budget_width(24) == 16
    assert l05.equal_budget_width(25) == 17
    for plain in range(2, 60):
        gap = 3 * l05.equal_budget_width(plain) - 2 * plain
        assert abs(gap) <= 3 / 2  # within half a gated unit per unit of h
    with pytest.raises(ValueError, match="plain_width"):
        l05.equal_budget_width(0)
    with pytest.raises(ValueError, match="at least 2"):
        l05.equal_budget_width(1)


SMALL_RACE = {name: l05.BUDGET_CONTENDERS[name] for name in ("Plain SiLU", "SwiGLU", "Bilinear")}


@pytest.fixture(scope="module")
def race() -> l05.BudgetResult:
    return l05.equal_budget_experiment(seeds=(0, 1), steps=150, contenders=SMALL_RACE)


def test_race_contenders_share_one_budget(race: l05.BudgetResult) -> None:
    assert race.names == tuple(SMALL_RACE)
    assert set(race.parameters.values()) == {288}
    assert race.widths == {"Plain SiLU": 24, "SwiGLU": 16, "Bilinear": 16}
    assert race.kind("Plain SiLU") == "plain" and race.kind("SwiGLU") == "gated"
    for name in race.names:
        assert len(race.final_loss[name]) == len(race.test_loss[name]) == 2
        assert len(race.histories[name][0]) == 150
        assert race.histories[name][0][-1] == race.final_loss[name][0]


def test_race_results_on_the_product_task(race: l05.BudgetResult) -> None:
    # the bilinear FFN spans the target exactly; gating beats the plain FFN at equal weights
    assert race.mean("Bilinear") < 1e-4
    assert race.median("SwiGLU") < race.median("Plain SiLU")
    for name in race.names:
        assert race.final_loss[name][0] < race.zero_loss  # everyone learned something
        assert race.spread(name) >= 0
    with pytest.raises(ValueError, match="unknown contender"):
        race.mean("Plain Tanh")
    with pytest.raises(ValueError, match="which"):
        race.mean("SwiGLU", which="val")


def test_race_inputs_are_the_race_data_and_leave_the_rng_alone() -> None:
    state = torch.random.get_rng_state()
    x_train, x_test = l05.race_inputs(6, 10, 20, data_seed=7)
    assert torch.equal(torch.random.get_rng_state(), state)
    assert x_train.shape == (10, 6) and x_test.shape == (20, 6)
    again_train, _ = l05.race_inputs(6, 10, 20, data_seed=7)
    assert torch.equal(x_train, again_train)
    race = l05.equal_budget_experiment(
        seeds=(0,), steps=1, n_train=10, n_test=20, data_seed=7, contenders=SMALL_RACE
    )
    assert torch.equal(race.test_inputs, x_test)
    with pytest.raises(ValueError, match="n_train"):
        l05.race_inputs(6, 0, 20)


def test_initial_contender_is_where_the_race_starts(race: l05.BudgetResult) -> None:
    model = l05.initial_contender("SwiGLU", 1, contenders=SMALL_RACE)
    assert isinstance(model, ml.GatedFFN) and model.intermediate_size == 16
    x_train, _ = l05.race_inputs()
    history = ml.fit(model, x_train, l05.product_target(x_train), steps=race.steps, lr=1e-2)
    assert history == pytest.approx(race.histories["SwiGLU"][1], rel=1e-5)
    state = torch.random.get_rng_state()
    l05.initial_contender("Plain SiLU", 0)
    assert torch.equal(torch.random.get_rng_state(), state)
    with pytest.raises(ValueError, match="unknown contender"):
        l05.initial_contender("Plain Tanh", 0)


def test_ffn_batch_copies_start_as_the_race_contenders_and_stay_apart() -> None:
    names = ("GLU", "SwiGLU")
    batch = l05.FFNBatch(names, (0, 3))
    assert batch.kind == "gated" and batch.copies == (
        ("GLU", 0),
        ("GLU", 3),
        ("SwiGLU", 0),
        ("SwiGLU", 3),
    )
    assert batch.gate_proj.shape == batch.up_proj.shape == (4, 16, 6)
    assert batch.down_proj.shape == (4, 6, 16)
    x, _ = l05.race_inputs(n_train=32)
    outputs = batch(x.expand(4, -1, -1))
    for k, (name, seed) in enumerate(batch.copies):
        start = l05.initial_contender(name, seed)
        member = batch.member(k)
        assert isinstance(member, ml.GatedFFN) and member.act_name == start.act_name
        for proj in ("gate_proj", "up_proj", "down_proj"):
            assert torch.equal(getattr(member, proj).weight, getattr(start, proj).weight)
        with torch.no_grad():
            assert torch.allclose(outputs[k], start(x), atol=1e-6)  # its own weights and act
    plain = l05.FFNBatch(("Plain ReLU",), (1,))
    assert plain.kind == "plain" and not hasattr(plain, "gate_proj")
    assert isinstance(plain.member(0), ml.PlainFFN)


def test_ffn_batch_gives_each_copy_its_own_gradient() -> None:
    # fit's MSE is a mean over all copies; each copy still gets the gradient it gets alone.
    batch = l05.FFNBatch(("Plain SiLU", "Plain GELU"), (0, 1, 2))
    x, _ = l05.race_inputs(n_train=64)
    y = l05.product_target(x)
    loss = torch.nn.functional.mse_loss(batch(x.expand(6, -1, -1)), y.expand(6, -1, -1))
    loss.backward()
    for k, (name, seed) in enumerate(batch.copies):
        alone = l05.initial_contender(name, seed)
        torch.nn.functional.mse_loss(alone(x), y).backward()
        for proj in ("up_proj", "down_proj"):
            own = getattr(alone, proj).weight.grad
            assert torch.allclose(getattr(batch, proj).grad[k], own, rtol=1e-5, atol=1e-8)


def test_ffn_batch_rejects_bad_input() -> None:
    with pytest.raises(ValueError, match="all plain or all gated"):
        l05.FFNBatch(("Plain SiLU", "SwiGLU"), (0,))
    with pytest.raises(ValueError, match="unknown contender"):
        l05.FFNBatch(("Plain Tanh",), (0,))
    with pytest.raises(ValueError, match="names must be distinct"):
        l05.FFNBatch(("SwiGLU", "SwiGLU"), (0,))
    with pytest.raises(ValueError, match="seeds must be distinct"):
        l05.FFNBatch(("SwiGLU",), ())
    batch = l05.FFNBatch(("SwiGLU",), (0, 1))
    with pytest.raises(ValueError, match="expected \\(C=2, N, 6\\)"):
        batch(torch.zeros(3, 5, 6))
    for bad in (2, -1, True):
        with pytest.raises(ValueError, match="member index"):
            batch.member(bad)


def test_race_trains_one_batch_per_kind(race: l05.BudgetResult) -> None:
    calls = ml.fit_call_count()
    l05.equal_budget_experiment(seeds=(0, 1), steps=2, contenders=SMALL_RACE)
    assert ml.fit_call_count() == calls + 2  # plain SiLU's seeds in one fit, the gated in another
    assert [type(m) for m in race.models["Plain SiLU"]] == [ml.PlainFFN] * 2


def test_gate_census_before_and_after(race: l05.BudgetResult) -> None:
    census = l05.gate_census(race)
    assert set(census) == {"SwiGLU", "Bilinear"}  # the gated contenders only
    swiglu = census["SwiGLU"]
    assert swiglu.seeds == race.seeds and len(swiglu.before) == len(swiglu.after) == 2
    untrained = l05.initial_contender("SwiGLU", race.seeds[0], contenders=SMALL_RACE)
    expected = l05.gate_statistics(l05.gate_activations(untrained, race.test_inputs))
    assert swiglu.before[0] == expected
    trained = l05.gate_activations(race.models["SwiGLU"][0], race.test_inputs)
    assert swiglu.after[0] == l05.gate_statistics(trained)
    with torch.no_grad():
        pre = untrained.gate_proj(race.test_inputs)
    assert swiglu.pre_rms_before[0] == pytest.approx(pre.pow(2).mean().sqrt().item(), rel=1e-6)
    assert len(swiglu.pre_rms_after) == 2 and swiglu.pre_rms_after != swiglu.pre_rms_before
    closed = swiglu.values("closed", "after")
    assert swiglu.mean("closed", "after") == pytest.approx(sum(closed) / 2)
    assert swiglu.changes("closed") == pytest.approx(
        [a - b for a, b in zip(closed, swiglu.values("closed", "before"), strict=True)]
    )
    with pytest.raises(ValueError, match="when"):
        swiglu.values("closed", "during")
    with pytest.raises(ValueError, match="unknown statistic"):
        swiglu.values("openness", "after")
    with pytest.raises(ValueError, match="plain FFN"):
        l05.gate_census(race, ["Plain SiLU"])


def test_race_repeats_exactly_and_restores_threads() -> None:
    threads = torch.get_num_threads()
    contenders = {"SwiGLU": l05.BUDGET_CONTENDERS["SwiGLU"]}
    first = l05.equal_budget_experiment(seeds=(3,), steps=20, contenders=contenders)
    second = l05.equal_budget_experiment(seeds=(3,), steps=20, contenders=contenders)
    assert first.histories == second.histories
    assert torch.get_num_threads() == threads


def test_race_rejects_bad_input() -> None:
    with pytest.raises(ValueError, match="seeds"):
        l05.equal_budget_experiment(seeds=())
    with pytest.raises(ValueError, match="target must map"):
        l05.equal_budget_experiment(seeds=(0,), steps=1, target=lambda x: x[:, :1])
    with pytest.raises(ValueError, match="kind"):
        l05.equal_budget_experiment(seeds=(0,), steps=1, contenders={"odd": ("wide", "relu")})


def test_equal_budget_plot_panels_and_colours(race: l05.BudgetResult) -> None:
    fig = l05.plot_equal_budget(race, seeds_title="a finding")
    curves, seeds_ax, alone = fig.axes
    assert seeds_ax.get_title() == "a finding"
    assert [line.get_label() for line in curves.get_lines()] == ["Plain SiLU", "SwiGLU"]
    colours = {line.get_label(): to_hex(line.get_color()) for line in curves.get_lines()}
    assert colours["SwiGLU"] == GLU_COLORS["SwiGLU"].lower()
    assert colours["Plain SiLU"] == to_hex(series_style("silu")["color"])
    assert colours["SwiGLU"] != colours["Plain SiLU"]  # plain and gated never share a colour
    assert len(alone.get_lines()) == len(race.seeds)  # every bilinear seed on its own panel
    assert "below 1e-" in alone.get_title()
    # A loss at the rounding floor depends on the platform: the title claims no bound below 1e-6.
    floored = dataclasses.replace(
        race, final_loss={**race.final_loss, "Bilinear": [1e-13] * len(race.seeds)}
    )
    assert "every seed ends below 1e-6" in l05.plot_equal_budget(floored).axes[2].get_title()
    assert len(l05.plot_equal_budget(race, alone=()).axes) == 2
    with pytest.raises(ValueError, match="alone"):
        l05.plot_equal_budget(race, alone=("GEGLU",))


def test_gate_distribution_plot(race: l05.BudgetResult) -> None:
    x = race.test_inputs
    trained = {
        name: l05.gate_activations(race.models[name][0], x) for name in ("SwiGLU", "Bilinear")
    }
    untrained = {"SwiGLU": l05.gate_activations(l05.initial_contender("SwiGLU", 0), x)}
    fig = l05.plot_gate_distribution(trained, untrained, titles={"SwiGLU": "a title"})
    assert len(fig.axes) == 2 and fig.axes[0].get_yscale() == "log"
    assert fig.axes[0].get_title() == "a title" and fig.axes[1].get_title() == "Bilinear"
    labels = fig.axes[0].get_legend_handles_labels()[1]
    assert "untrained" in labels and "trained" in labels
    with pytest.raises(ValueError, match="trained is empty"):
        l05.plot_gate_distribution({})
    with pytest.raises(ValueError, match="untrained has variants"):
        l05.plot_gate_distribution({"SwiGLU": trained["SwiGLU"]}, {"GLU": trained["SwiGLU"]})


def test_gated_product_plot_uses_the_variant_colour() -> None:
    curve = l05.gated_product_curve("SwiGLU")
    fig = l05.plot_gated_product(curve, [l05.gated_product_curve("GLU")])
    lines = fig.axes[0].get_lines()
    assert len(lines) == 5  # other, gate, content, product, zero line
    assert to_hex(lines[3].get_color()) == GLU_COLORS["SwiGLU"].lower()
    # the grey curves have a legend entry, after the unit's own three
    labels = [text.get_text() for text in fig.axes[0].get_legend().get_texts()]
    assert labels == ["gate: silu(1·t)", "content: t", "output: gate · content"] + [
        "outputs of the other variants"
    ]
    assert len(l05.plot_gated_product(curve).axes[0].get_legend().get_texts()) == 3
    assert fig.axes[0].get_title().startswith("SwiGLU")


def test_gated_product_widget_redraws_on_change() -> None:
    assert WIDGET_REGISTRY["gated_product"][0] == "05"
    widget = WIDGET_REGISTRY["gated_product"][1]()
    assert widget.redraw_count == 1 and "SwiGLU" in widget.text.value
    image, text = widget.image.value, widget.text.value
    widget.controls["variant"].value = "ReGLU"
    assert widget.redraw_count == 2
    assert widget.image.value != image and widget.text.value != text
    assert "At t = −2: 0.000; at t = +2: 4.000" in widget.text.value  # relu(2)·2
    widget.controls["gate_scale"].value = -1.0
    assert "At t = −2: -4.000; at t = +2: 0.000" in widget.text.value  # relu(2)·(−2)
    with pytest.raises(ValueError, match="variant must be one of"):
        l05.draw_gated_product("TanhGLU", 1.0)
    for bad in (3.5, math.nan, "1"):
        with pytest.raises(ValueError, match="gate_scale"):
            l05.draw_gated_product("SwiGLU", bad)
    slider = widget.controls["gate_scale"]
    assert (slider.min, slider.max, slider.step) == l05.SETUP.gate_scale_range


def _pixels(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png))).astype(int)


def _y_label_clear_of_tick_labels(ax: Axes) -> bool:
    """After a draw: the y label lies inside the figure and left of every y tick label."""
    renderer = ax.figure.canvas.get_renderer()
    label = ax.yaxis.label.get_window_extent(renderer)
    low, high = ax.get_ylim()
    shown = [t for t in ax.get_yticklabels() if t.get_text() and low <= t.get_position()[1] <= high]
    ticks = [t.get_window_extent(renderer) for t in shown]
    return bool(ticks) and label.x0 >= 0 and all(label.x1 <= tick.x0 for tick in ticks)


def test_gated_product_widget_redraws_its_one_figure_like_a_fresh_drawing() -> None:
    widget = WIDGET_REGISTRY["gated_product"][1]()
    view = widget.draw
    figure, lines = view.figure, view.figure.axes[0].get_lines()
    image = widget.image.value
    for name, value in (("variant", "Bilinear"), ("gate_scale", -3.0), ("variant", "GLU")):
        widget.controls[name].value = value
        assert widget.image.value != image  # a new picture ...
        image = widget.image.value
        assert view.figure is figure and figure.axes[0].get_lines() == lines  # ... same figure
        assert len(figure.axes) == 1
    widget.controls["gate_scale"].value = 0.25
    # The frame drawn by updating shows what a figure drawn from scratch shows.
    fresh, html = l05.draw_gated_product("GLU", 0.25)
    assert html == widget.text.value
    assert np.abs(_pixels(widget.image.value) - _pixels(figure_to_png(fresh))).mean() < 0.05


@pytest.mark.parametrize(("variant", "gate_scale"), [("Bilinear", -3.0), ("GLU", 0.25)])
def test_gated_product_widget_layout_has_room_for_every_tick_label(
    variant: str, gate_scale: float
) -> None:
    # The widget lays its figure out once; the y label stays clear of the widest tick labels.
    fig, _ = l05.draw_gated_product(variant, gate_scale)
    figure_to_png(fig)
    assert _y_label_clear_of_tick_labels(fig.axes[0])
