"""Lesson 08's machinery: clustered tokens, the routing and parameter plots, and the widget."""

from __future__ import annotations

import pytest
import torch
from matplotlib.figure import Figure

import minimind_lab as ml
from minimind_lab.lessons import l09
from minimind_lab.widgets import WIDGET_REGISTRY


def _routing(num_experts: int = 4, top_k: int = 2) -> tuple[ml.Routing, list[str]]:
    torch.manual_seed(0)
    moe = ml.MoEFeedForward(ml.MiniMindConfig(hidden_size=32), num_experts, top_k)
    x, labels = l09.clustered_tokens()
    moe(x)
    assert moe.last_routing is not None
    return moe.last_routing, labels


def test_clustered_tokens_shapes_labels_and_errors() -> None:
    x, labels = l09.clustered_tokens(hidden_size=8, tokens_per_kind=3, kinds="AB")
    assert x.shape == (6, 8) and labels == ["A0", "A1", "A2", "B0", "B1", "B2"]
    again, _ = l09.clustered_tokens(hidden_size=8, tokens_per_kind=3, kinds="AB")
    assert torch.equal(x, again)
    within = (x[:3] - x[:3].mean(0)).norm(dim=-1).mean()
    between = (x[:3].mean(0) - x[3:].mean(0)).norm()
    assert between > 2 * within  # kinds are separate clusters
    with pytest.raises(ValueError, match="kinds must name at least one kind"):
        l09.clustered_tokens(kinds="")
    with pytest.raises(ValueError, match="tokens_per_kind must be a positive integer"):
        l09.clustered_tokens(tokens_per_kind=0)


def test_routing_plot_shows_each_chosen_weight_once() -> None:
    routing, labels = _routing()
    fig = l09.plot_moe_routing(routing, token_labels=labels)
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
        l09.plot_moe_routing(routing, token_labels=["a", "b", "c"])


def test_routing_plot_accepts_batched_routing_and_an_axes() -> None:
    torch.manual_seed(0)
    moe = ml.MoEFeedForward(ml.MiniMindConfig(hidden_size=16), num_experts=3, top_k=1)
    moe(torch.randn(2, 5, 16))
    fig = Figure()
    ax = fig.subplots()
    assert l09.plot_moe_routing(moe.last_routing, ax=ax, colorbar=False) is fig
    assert ax.collections[0].get_array().shape == (3, 10)


def test_parameter_plot_labels_its_bars() -> None:
    fig = l09.plot_moe_parameter_counts({"dense": 12_288, "total": 2_000_000})
    texts = [t.get_text() for t in fig.axes[0].texts]
    assert texts == ["12.3k", "2.00M"]
    with pytest.raises(ValueError, match="counts is empty"):
        l09.plot_moe_parameter_counts({})


def test_widget_redraws_with_the_parameter_formulas() -> None:
    assert WIDGET_REGISTRY["moe_routing"][0] == "09"
    widget = WIDGET_REGISTRY["moe_routing"][1]()
    h, m = 32, ml.intermediate_size(32)
    assert f"total = router h·E + E·3hm = {4 * h:,} + 4·{3 * h * m:,}" in widget.text.value
    image = widget.image.value
    widget.controls["num_experts"].value = 8
    assert widget.image.value != image
    assert f"= {8 * h + 8 * 3 * h * m:,}" in widget.text.value
    assert f"active per token = router + k·3hm = {8 * h:,} + 2·" in widget.text.value
    widget.controls["top_k"].value = 1
    load = widget.text.value.split("tokens per expert: ")[1]
    assert sum(int(n) for n in load.strip("[]").split(",")) == 24  # one expert per token


def test_widget_clamps_top_k_to_the_number_of_experts() -> None:
    _, html = l09.draw_moe(num_experts=2, top_k=4)
    assert "top_k = 2 (top_k 4 clamped to 2)" in html
