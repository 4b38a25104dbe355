"""Lesson 05: gate statistics, 1-D gated curves, the equal-budget race, its plots and widget."""

from __future__ import annotations

import pytest
import torch
from matplotlib.figure import Figure

import minimind_lab as ml
from minimind_lab.lessons import l05
from minimind_lab.widgets import WIDGET_REGISTRY


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
    assert glu.act == "sigmoid" and t.shape == (401,)
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
        assert race.final_loss[name][0] < race.target_variance  # everyone learned something
        assert race.spread(name) >= 0
    with pytest.raises(ValueError, match="unknown contender"):
        race.mean("Plain Tanh")
    with pytest.raises(ValueError, match="which"):
        race.mean("SwiGLU", which="val")


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


def test_plots_draw_results(race: l05.BudgetResult) -> None:
    fig = l05.plot_equal_budget(race, title="a finding")
    assert isinstance(fig, Figure) and len(fig.axes) == 2
    assert fig.axes[0].get_title() == "a finding"
    assert len(fig.axes[0].get_lines()) == len(race.names)
    gates = {"SwiGLU": l05.gate_activations(race.models["SwiGLU"][0], race.test_inputs)}
    fig = l05.plot_gate_distribution(gates, closed_below=0.1)
    assert isinstance(fig, Figure) and fig.axes[0].get_yscale() == "log"
    with pytest.raises(ValueError, match="samples is empty"):
        l05.plot_gate_distribution({})
    curve = l05.gated_product_curve("SwiGLU")
    fig = l05.plot_gated_product(curve, [l05.gated_product_curve("GLU")])
    assert len(fig.axes[0].get_lines()) == 5  # other, gate, content, product, zero line


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
    with pytest.raises(ValueError, match="unknown GLU variant"):
        l05.draw_gated_product("TanhGLU", 1.0)
