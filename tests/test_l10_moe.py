"""Lesson 10's machinery: clustered tokens, the kind experiment, its plots and the widget."""

from __future__ import annotations

import io
import math

import numpy as np
import pytest
import torch
from matplotlib.figure import Figure
from PIL import Image

import minimind_lab as ml
from minimind_lab.lessons import l10
from minimind_lab.widgets import WIDGET_REGISTRY
from minimind_lab.widgets.base import figure_to_png


def _routing(num_experts: int = 4, top_k: int = 2) -> tuple[ml.Routing, list[str]]:
    torch.manual_seed(0)
    moe = ml.MoEFeedForward(ml.MiniMindConfig(hidden_size=32), num_experts, top_k)
    x, labels = l10.clustered_tokens()
    moe(x)
    assert moe.last_routing is not None
    return moe.last_routing, labels


def test_clustered_tokens_shapes_labels_and_errors() -> None:
    x, labels = l10.clustered_tokens(hidden_size=8, tokens_per_kind=3, kinds="AB")
    assert x.shape == (6, 8) and labels == ["A0", "A1", "A2", "B0", "B1", "B2"]
    again, _ = l10.clustered_tokens(hidden_size=8, tokens_per_kind=3, kinds="AB")
    assert torch.equal(x, again)
    within = (x[:3] - x[:3].mean(0)).norm(dim=-1).mean()
    between = (x[:3].mean(0) - x[3:].mean(0)).norm()
    assert between > 2 * within  # kinds are separate clusters
    with pytest.raises(ValueError, match="kinds must name at least one kind"):
        l10.clustered_tokens(kinds="")
    with pytest.raises(ValueError, match="tokens_per_kind must be a positive integer"):
        l10.clustered_tokens(tokens_per_kind=0)


def test_routing_plot_shows_each_chosen_weight_once() -> None:
    routing, labels = _routing()
    fig = l10.plot_moe_routing(routing, token_labels=labels)
    assert isinstance(fig, Figure)
    grid = fig.axes[0].collections[0].get_array()
    assert grid.shape == (4, 24)
    assert (grid.count(axis=0) == 2).all()  # k unmasked cells per token
    torch.testing.assert_close(
        torch.tensor(grid.sum(axis=0).filled(0)).float(), torch.ones(24), atol=1e-6, rtol=0
    )
    rows = [t.get_text() for t in fig.axes[0].get_yticklabels()]
    load = torch.bincount(routing.experts.reshape(-1), minlength=4).tolist()
    assert rows == [f"expert {e} ({n})" for e, n in enumerate(load)]
    with pytest.raises(ValueError, match="token_labels has 3 entries"):
        l10.plot_moe_routing(routing, token_labels=["a", "b", "c"])


def test_routing_plot_accepts_batched_routing_and_an_axes() -> None:
    torch.manual_seed(0)
    moe = ml.MoEFeedForward(ml.MiniMindConfig(hidden_size=16), num_experts=3, top_k=1)
    moe(torch.randn(2, 5, 16))
    fig = Figure()
    ax = fig.subplots()
    assert l10.plot_moe_routing(moe.last_routing, ax=ax, colorbar=False) is fig
    assert ax.collections[0].get_array().shape == (3, 10)


def test_parameter_plot_labels_its_bars() -> None:
    counts = {"dense": 12_288, "total": 2_000_000, "active": 24_704}
    fig = l10.plot_moe_parameter_counts(counts)
    texts = [t.get_text() for t in fig.axes[0].texts]
    assert texts == ["12.3k", "2.00M", "24.7k"]
    two = l10.plot_moe_parameter_counts({**counts, "d2": 1, "t2": 2, "a2": 3})
    bars = two.axes[0].patches
    assert [b.get_facecolor() for b in bars[:3]] == [b.get_facecolor() for b in bars[3:]]
    assert bars[3].get_x() - bars[2].get_x() > bars[2].get_x() - bars[1].get_x()  # a gap
    with pytest.raises(ValueError, match="counts is empty"):
        l10.plot_moe_parameter_counts({})
    with pytest.raises(ValueError, match="expected triples"):
        l10.plot_moe_parameter_counts({"dense": 1, "total": 2})
    # The default title names the bars only; a caller says what they compare.
    assert fig.axes[0].get_title() == "Parameters: dense FFN, MoE stored, MoE used per token"
    titled = l10.plot_moe_parameter_counts(counts, title="E = 4, k = 1")
    assert titled.axes[0].get_title() == "E = 4, k = 1"
    with pytest.raises(ValueError, match="title must be a non-empty string"):
        l10.plot_moe_parameter_counts(counts, title="")


def test_widget_redraws_with_the_parameter_formulas() -> None:
    assert WIDGET_REGISTRY["moe_routing"][0] == "10"
    widget = WIDGET_REGISTRY["moe_routing"][1]()
    h, m = 32, ml.intermediate_size(32)
    expert = 3 * h * m
    assert f"(E + S)·3hm = {4 * h:,} + 5·{expert:,} = {4 * h + 5 * expert:,}" in widget.text.value
    image = widget.image.value
    widget.controls["num_experts"].value = 8
    assert widget.image.value != image
    assert f"= {8 * h + 9 * expert:,}" in widget.text.value
    assert f"active per token = router + (k + S)·3hm = {8 * h:,} + 3·" in widget.text.value
    widget.controls["top_k"].value = 1
    load = widget.text.value.split("tokens per routed expert: ")[1]
    assert sum(int(n) for n in load.strip("[]").split(",")) == 24  # one expert per token


def test_widget_clamps_top_k_to_the_number_of_experts() -> None:
    _, html = l10.draw_moe(num_experts=2, top_k=4)
    assert "top_k = 2 (top_k 4 clamped to 2)" in html


def test_token_kinds_and_top_features() -> None:
    assert l10.token_kinds(["A0", "A11", "BC3"]) == ["A", "A", "BC"]
    with pytest.raises(ValueError, match="every label must start with its kind"):
        l10.token_kinds(["A0", "7"])
    features = torch.tensor([[0.1, -5.0, 2.0, 0.0], [3.0, 0.0, 0.0, -4.0]])
    assert l10.top_features(features, 0.5) == [frozenset({1, 2}), frozenset({3, 0})]
    assert l10.top_features(features, 0.1) == [frozenset({1}), frozenset({3})]  # ceil: one
    with pytest.raises(ValueError, match=r"fraction must be in \(0, 1\], got 0"):
        l10.top_features(features, 0)
    with pytest.raises(ValueError, match="features must be a \\(tokens, features\\) tensor"):
        l10.top_features(features[0], 0.5)


def test_kind_overlap_and_routing_agreement_by_hand() -> None:
    # Rows 0 and 1 (kind A) share top sets {0, 1}; row 2 (kind B) has {2, 3}; row 3 (B) {1, 3}.
    features = torch.tensor(
        [[5.0, 4.0, 0, 0], [4.0, 5.0, 0, 0], [0, 0, 5.0, 4.0], [0, 5.0, 0, 4.0]]
    )
    split = l10.kind_overlap(features, ["A", "A", "B", "B"], 0.5)
    # same kind: (0,1) → 1, (2,3) → |{3}|/|{1,2,3}| = 1/3; different: (0,2) 0, (0,3) 1/3,
    # (1,2) 0, (1,3) 1/3.
    assert split.same == pytest.approx((1 + 1 / 3) / 2)
    assert split.different == pytest.approx((2 / 3) / 4)
    agree = l10.routing_agreement(torch.tensor([2, 2, 0, 2]), ["A", "A", "B", "B"])
    assert agree.same == pytest.approx(0.5) and agree.different == pytest.approx(0.5)
    with pytest.raises(ValueError, match="kinds has 3 entries"):
        l10.kind_overlap(features, ["A", "A", "B"], 0.5)
    with pytest.raises(ValueError, match="need at least two tokens of one kind and two kinds"):
        l10.kind_overlap(features, ["A", "B", "C", "D"], 0.5)
    with pytest.raises(ValueError, match="features must be a \\(tokens, features\\) tensor"):
        l10.kind_overlap([[1.0, 2.0]], ["A"], 0.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="first_choice must be a 1-D tensor"):
        l10.routing_agreement(torch.zeros(4, 2), ["A", "A", "B", "B"])


def test_top_share_and_top_only_change_by_hand() -> None:
    features = torch.tensor([[3.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0]])
    share = l10.top_share(features, 0.25)  # the top one of four
    torch.testing.assert_close(share, torch.tensor([9 / 12, 1 / 4]))
    with pytest.raises(ValueError, match=r"fraction must be in \(0, 1\], got 0"):
        l10.top_share(features, 0)
    with ml.seeded(0):
        ffn = ml.FeedForward(ml.MiniMindConfig(hidden_size=8)).eval()
    x = torch.randn(5, 8, generator=torch.Generator().manual_seed(0))
    assert torch.allclose(l10.top_only_change(ffn, x, 1.0), torch.zeros(5), atol=1e-6)  # all kept
    hidden = l10.gated_features(ffn, x)
    count = math.ceil(0.125 * hidden.shape[1])
    kept = torch.zeros_like(hidden)
    for row in range(5):  # the top units of each token, one at a time
        top = hidden[row].abs().topk(count).indices
        kept[row, top] = hidden[row, top]
    with torch.no_grad():
        full, part = ffn.down_proj(hidden), ffn.down_proj(kept)
    expected = (part - full).norm(dim=-1) / full.norm(dim=-1)
    torch.testing.assert_close(l10.top_only_change(ffn, x, 0.125), expected)
    spread = l10.Spread.of(torch.tensor([0.5, 0.25, 1.0]))
    assert (spread.low, spread.mean, spread.high) == (0.25, pytest.approx(7 / 12), 1.0)


def test_aux_loss_coefficients_are_minimind_s() -> None:
    assert l10.AUX_LOSS_COEF == {"minimind2": 0.01, "minimind3": 5e-4}


def test_chance_overlap_is_the_mean_over_every_pair_of_sets() -> None:
    from itertools import combinations

    sets = [frozenset(c) for c in combinations(range(6), 2)]  # every 2-subset of 6 features
    mean = sum(len(a & b) / len(a | b) for a in sets for b in sets) / len(sets) ** 2
    assert l10.chance_overlap(6, 2 / 6) == pytest.approx(mean)
    assert l10.chance_overlap(2, 0.5) == pytest.approx(0.5)  # one of two: same set half the time
    with pytest.raises(ValueError, match="n_features must be a positive integer"):
        l10.chance_overlap(0, 0.5)


def test_kind_experiment_seed_matches_a_computation_by_hand() -> None:
    setup = l10.Setup(seeds=(3,))
    (result,) = l10.kind_experiment(setup)
    x, labels = l10.clustered_tokens(32, 8, "ABC", seed=3)
    kinds = l10.token_kinds(labels)
    with ml.seeded(3):
        ffn = ml.FeedForward(ml.MiniMindConfig(hidden_size=32)).eval()
    with ml.seeded(3):
        moe = ml.MoEFeedForward(ml.MiniMindConfig(hidden_size=32), 4, 2).eval()
    hidden = ffn.act_fn(ffn.gate_proj(x)) * ffn.up_proj(x)
    assert result.seed == 3
    assert result.raw == l10.kind_overlap(x, kinds, 0.125)
    assert result.hidden == l10.kind_overlap(hidden.detach(), kinds, 0.125)
    assert result.routing == l10.routing_agreement(moe.route(x).experts[:, 0], kinds)
    assert result.hidden_share == l10.Spread.of(l10.top_share(hidden.detach(), 0.125))
    assert result.raw_share == l10.Spread.of(l10.top_share(x, 0.125))
    assert result.top_only == l10.Spread.of(l10.top_only_change(ffn, x, 0.125))
    with pytest.raises(ValueError, match="setup.seeds is empty"):
        l10.kind_experiment(l10.Setup(seeds=()))
    with pytest.raises(ValueError, match="ffn must be a FeedForward"):
        l10.gated_features(torch.nn.Linear(2, 2), x)  # type: ignore[arg-type]


def test_kind_overlap_plot_draws_means_dots_and_chance() -> None:
    results = l10.kind_experiment(l10.Setup(seeds=(0, 1)))
    fig = l10.plot_kind_overlap(results, chance=(0.07, 0.06))
    ax = fig.axes[0]
    heights = [round(p.get_height(), 6) for p in ax.patches]
    expected = [
        (getattr(results[0], f).__dict__[s] + getattr(results[1], f).__dict__[s]) / 2
        for f in ("raw", "hidden")
        for s in ("same", "different")
    ]
    assert heights == [round(v, 6) for v in expected]
    assert len(ax.collections) == 2  # one dashed chance line per group
    with pytest.raises(ValueError, match="chance must hold two values"):
        l10.plot_kind_overlap(results, chance=(0.1,))
    with pytest.raises(ValueError, match="results is empty"):
        l10.plot_kind_overlap([])


def test_routing_plot_title_says_when_weights_are_raw_scores() -> None:
    torch.manual_seed(0)
    moe = ml.MoEFeedForward(ml.MiniMindConfig(hidden_size=16), 4, 1, renormalize="never")
    moe(torch.randn(6, 16))
    fig = l10.plot_moe_routing(moe.last_routing, colorbar=False)
    assert fig.axes[0].get_title().endswith("weights are raw router scores")


def test_widget_counts_shared_experts_like_the_module() -> None:
    widget = WIDGET_REGISTRY["moe_routing"][1]()
    assert widget.controls["num_shared"].value == l10.SETUP.num_shared_experts == 1
    config = ml.MiniMindConfig(hidden_size=32)
    with torch.device("meta"):
        moe = ml.MoEFeedForward(config, 4, 2, num_shared_experts=1)
    assert f"= {ml.count_parameters(moe):,}<br>" in widget.text.value
    widget.controls["num_shared"].value = 0
    with torch.device("meta"):
        moe = ml.MoEFeedForward(ml.MiniMindConfig(hidden_size=32), 4, 2)
    assert f"= {ml.count_parameters(moe):,}<br>" in widget.text.value
    with pytest.raises(ValueError, match="num_shared must be an integer from 0 to 8"):
        l10.draw_moe(4, 2, num_shared=-1)


def _pixels(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png))).astype(int)


def test_widget_redraws_its_one_figure_and_matches_a_fresh_drawing() -> None:
    widget = WIDGET_REGISTRY["moe_routing"][1]()
    view = widget.draw
    figure, (route_ax, counts_ax) = view.figure, view.figure.axes
    counts_limits = counts_ax.get_ylim()
    image = widget.image.value
    for name, value in (("num_experts", 7), ("top_k", 3), ("num_shared", 2), ("num_experts", 2)):
        widget.controls[name].value = value
        assert widget.image.value != image  # a new picture ...
        image = widget.image.value
        assert view.figure is figure and figure.axes == [route_ax, counts_ax]  # ... same figure
        assert counts_ax.get_ylim() == counts_limits  # one scale for every setting
    # Updated in place (E = 2 clamps k = 3 to 2), it shows what a figure drawn from scratch shows;
    # so it does with a routing panel kept from before (E = 7, k = 3) under new counts (S = 0).
    fresh, html = l10.draw_moe(2, 3, 2)
    assert html == widget.text.value and "top_k 3 clamped to 2" in html
    assert np.abs(_pixels(widget.image.value) - _pixels(figure_to_png(fresh))).mean() < 0.05
    widget.controls["num_shared"].value = 0
    widget.controls["num_experts"].value = 7
    fresh, html = l10.draw_moe(7, 3, 0)
    assert html == widget.text.value
    assert np.abs(_pixels(widget.image.value) - _pixels(figure_to_png(fresh))).mean() < 0.05
    visible = [t.get_text() for t in view.panels.expert_labels if t.get_visible()]
    load = html.split("tokens per routed expert: ")[1].strip("[]").split(", ")
    assert visible == [f"expert {e} ({n})" for e, n in enumerate(load)]


def test_widget_view_makes_room_for_settings_beyond_the_sliders() -> None:
    view = WIDGET_REGISTRY["moe_routing"][1]().draw
    top = view.panels.counts_ax.get_ylim()[1]
    png, html = view(12, 2, 4)  # more experts than the slider offers: a direct call
    total = int(html.split("<br>")[1].rsplit("= ", 1)[1].replace(",", ""))
    assert total > top and view.panels.counts_ax.get_ylim()[1] == pytest.approx(total * 1.15)
    room = view.panels.routing_ax.get_yticklabels()[0].get_text()  # as wide as the widest label
    assert (
        room == "expert 11 (24)" and sum(t.get_visible() for t in view.panels.expert_labels) == 12
    )
    fresh, _ = l10.draw_moe(12, 2, 4)
    assert np.abs(_pixels(png) - _pixels(figure_to_png(fresh))).mean() < 0.05
    with pytest.raises(ValueError, match="routing has 6 tokens; the panels show 24"):
        l10.update_moe_panels(view.panels, _routing_of(6), {"a": 1, "b": 2, "c": 3})


def _routing_of(n_tokens: int) -> ml.Routing:
    torch.manual_seed(0)
    moe = ml.MoEFeedForward(ml.MiniMindConfig(hidden_size=16), 4, 2)
    moe(torch.randn(n_tokens, 16))
    return moe.last_routing


def test_moe_comparison_table_prints_the_moe_rows_in_the_reader_s_language() -> None:
    from minimind_lab.i18n import language
    from minimind_lab.i18n.table import display_width

    comparison = ml.version_comparison(640)
    english = l10.moe_comparison_table(comparison, 640).splitlines()
    assert len(english) == 1 + len(l10.MOE_ASPECTS)
    assert english[0].startswith("h = 640") and english[0].endswith("minimind-3")
    assert "only if k > 1" in english[5] and english[5].endswith("always")
    with language("zh"):
        chinese = l10.moe_comparison_table(comparison, 640).splitlines()
    assert "仅当 k > 1" in chinese[5] and chinese[5].endswith("总是")
    assert len({display_width(line) for line in chinese}) == 1  # right-aligned: same width
    with pytest.raises(ValueError, match="lacks"):
        l10.moe_comparison_table({"FFN width m": (1, 2)}, 640)


def test_parameter_count_and_truth_texts_follow_the_language() -> None:
    from minimind_lab.i18n import language

    assert l10.parameter_count_text(9_953_280) == "9.95 M"
    assert l10.truth(True) == "True"
    with language("zh"):
        assert l10.parameter_count_text(9_953_280) == "约 995 万"
        assert l10.parameter_count_text(16_591_360) == "约 1,659 万"
        assert [l10.truth(True), l10.truth(False)] == ["是", "否"]
