"""Lesson 07's machinery: forward-hook capture, the FeedForward plots and the widget."""

from __future__ import annotations

import io
import re

import ipywidgets
import numpy as np
import pytest
import torch
import torch.nn.functional as F
from matplotlib.figure import Figure
from PIL import Image
from torch import nn

import minimind_lab as ml
from minimind_lab.i18n import language, table
from minimind_lab.lessons import l06, l07
from minimind_lab.widgets import WIDGET_REGISTRY, InteractivePlot
from minimind_lab.widgets.base import figure_to_png

H = 32


def _ff(**kwargs: object) -> ml.FeedForward:
    torch.manual_seed(0)
    return ml.FeedForward(ml.MiniMindConfig(hidden_size=H, **kwargs)).eval()


def test_capture_lists_every_tensor_of_a_pass_in_order(generator: torch.Generator) -> None:
    ff = _ff()
    m = ff.intermediate_size
    x = torch.randn(2, 5, H, generator=generator)
    captured = l07.capture_intermediates(ff, x)
    assert [(c.name, c.shape) for c in captured] == [
        ("input", (2, 5, H)),
        ("gate_proj", (2, 5, m)),
        ("act_fn", (2, 5, m)),
        ("up_proj", (2, 5, m)),
        ("down_proj:in", (2, 5, m)),
        ("down_proj", (2, 5, H)),
        ("dropout", (2, 5, H)),
    ]
    parts = l07.intermediates_by_name(captured)
    wg, wu = ff.gate_proj.weight, ff.up_proj.weight
    torch.testing.assert_close(parts["act_fn"], F.silu(x @ wg.T))
    torch.testing.assert_close(parts["up_proj"], x @ wu.T)
    torch.testing.assert_close(parts["down_proj:in"], parts["act_fn"] * parts["up_proj"])
    torch.testing.assert_close(parts["dropout"], ff(x))
    assert all(not c.tensor.requires_grad for c in captured)


def test_hooks_are_removed_afterwards_even_on_error() -> None:
    ff = _ff()
    l07.capture_intermediates(ff, torch.randn(3, H))
    assert all(not sub._forward_hooks for sub in ff.modules())
    with pytest.raises(ValueError, match="last dimension must equal hidden_size"):
        l07.capture_intermediates(ff, torch.randn(3, H + 1))
    assert all(not sub._forward_hooks for sub in ff.modules())


class _Boom(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.first = nn.Linear(4, 4)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        self.first(x)
        raise RuntimeError("boom")


def test_hooks_are_removed_when_the_forward_raises_midway() -> None:
    module = _Boom()
    with pytest.raises(RuntimeError, match="boom"):
        l07.capture_intermediates(module, torch.randn(2, 4))
    assert not module.first._forward_hooks


def test_capture_handles_repeated_calls_moe_output_and_leaf_modules() -> None:
    shared = nn.Linear(3, 3)
    twice = nn.Sequential(shared, nn.ReLU(), shared)
    names = [c.name for c in l07.capture_intermediates(twice, torch.randn(2, 3))]
    assert names == ["input", "0", "1", "0#2"]  # one Linear registered under its first name
    torch.manual_seed(0)
    moe = ml.MoEFeedForward(ml.MiniMindConfig(hidden_size=H), num_experts=2, top_k=1)
    captured = l07.capture_intermediates(moe, torch.randn(6, H))
    assert captured[1].name == "gate" and captured[1].shape == (6, 2)
    assert captured[-1].name == "output" and captured[-1].shape == (6, H)
    leaf = l07.capture_intermediates(nn.Linear(3, 5), torch.randn(2, 3))
    assert [(c.name, c.shape) for c in leaf] == [("input", (2, 3)), ("Linear", (2, 5))]


def test_capture_rejects_bad_arguments() -> None:
    with pytest.raises(ValueError, match="module must be a torch.nn.Module"):
        l07.capture_intermediates(lambda x: x, torch.zeros(1))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="x must be a torch.Tensor"):
        l07.capture_intermediates(_ff(), [0.0] * H)  # type: ignore[arg-type]


def test_plots_return_figures_and_reject_bad_input(generator: torch.Generator) -> None:
    captured = l07.capture_intermediates(_ff(), torch.randn(4, H, generator=generator))
    fig = l07.plot_intermediate_widths(captured)
    assert isinstance(fig, Figure)
    assert [t.get_text() for t in fig.axes[0].get_yticklabels()][:2] == ["input", "gate_proj"]
    parts = l07.intermediates_by_name(captured)
    fig = l07.plot_gate_up_product(parts["act_fn"], parts["up_proj"], parts["down_proj:in"])
    assert isinstance(fig, Figure) and len(fig.axes) == 6  # three heatmaps + colorbars
    fig = l07.plot_gate_up_product(
        parts["act_fn"], parts["up_proj"], parts["down_proj:in"], colorbar=False, max_features=8
    )
    assert len(fig.axes) == 3 and fig.axes[0].images[0].get_array().shape == (4, 8)
    fig = l07.plot_gate_up_product(
        parts["act_fn"], parts["up_proj"], parts["down_proj:in"], colorbar=False, show_up=False
    )
    assert [ax.get_title() for ax in fig.axes] == ["act(gate_proj(x))", "act(gate) · up"]
    with pytest.raises(ValueError, match="must share one shape"):
        l07.plot_gate_up_product(parts["act_fn"], parts["up_proj"], parts["input"])
    with pytest.raises(ValueError, match="intermediates is empty"):
        l07.plot_intermediate_widths([])


def test_widget_is_registered_and_redraws_with_the_right_numbers() -> None:
    assert WIDGET_REGISTRY["feedforward_forward"][0] == "07"
    widget = WIDGET_REGISTRY["feedforward_forward"][1]()
    assert "m = 1408" in widget.text.value and "2,162,688 = 3·512·1408" in widget.text.value
    image, count = widget.image.value, widget.redraw_count
    widget.controls["hidden_size"].value = 768
    assert widget.redraw_count == count + 1 and widget.image.value != image
    assert "m = 2048" in widget.text.value and f"{3 * 768 * 2048:,}" in widget.text.value
    widget.controls["act"].value = "relu"
    assert "hidden_act='relu'" in widget.text.value and "max(0, x)" in widget.text.value


def test_relu_gates_close_about_half_the_features() -> None:
    _, html = l07.draw_feedforward(256, "relu")
    closed = float(html.split(f"&lt; {l07.SETUP.closed_below}): ")[1].rstrip("%")) / 100
    assert 0.45 < closed < 0.65  # ReLU zeroes every negative pre-activation
    _, html = l07.draw_feedforward(256, "sigmoid")
    assert html.endswith("0.0%")  # σ stays far from 0 for these small pre-activations


def test_widget_refuses_a_non_integer_hidden_size_with_a_message() -> None:
    with pytest.raises(ValueError, match="hidden_size must be an integer from 1 to 4096, got 64.5"):
        l07.draw_feedforward(64.5, "silu")
    # The same draw behind a control that can hold 64.5: the widget shows the message.
    controls = {
        "hidden_size": ipywidgets.FloatSlider(value=64.0, min=32.0, max=128.0, step=0.5),
        "act": ipywidgets.Dropdown(options=["silu"], value="silu"),
    }
    plot = InteractivePlot(controls, l07.draw_feedforward)
    assert plot.last_error == "hidden_size must be an integer from 1 to 4096, got 64.0"
    plot.controls["hidden_size"].value = 64.5
    assert plot.last_error.endswith("got 64.5") and "Cannot draw this setting" in plot.text.value


def test_widget_version_switches_the_width_rule_and_the_dropout() -> None:
    widget = WIDGET_REGISTRY["feedforward_forward"][1]()
    assert widget.controls["hidden_size"].value == l07.SETUP.hidden_size
    assert "int(8h/3) rounded up to a multiple of 64" in widget.text.value
    assert "after down_proj: Dropout" in widget.text.value
    widget.controls["hidden_size"].value = 768
    widget.controls["version"].value = "minimind3"
    assert "m = 2432 (minimind-3: ceil(h·π/64)·64)" in widget.text.value
    assert f"{3 * 768 * 2432:,} = 3·768·2432" in widget.text.value
    assert "after down_proj: Identity" in widget.text.value
    with pytest.raises(ValueError, match="version must be one of"):
        l07.draw_feedforward(512, "silu", "minimind4")


def _pixels(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png))).astype(int)


def test_widget_redraws_its_one_figure_and_matches_a_fresh_drawing() -> None:
    widget = WIDGET_REGISTRY["feedforward_forward"][1]()
    view = widget.draw
    figure, images = view.figure, view.panels.images
    image = widget.image.value
    for name, value in (("hidden_size", 192), ("act", "relu"), ("version", "minimind3")):
        widget.controls[name].value = value
        assert widget.image.value != image  # a new picture ...
        image = widget.image.value
        assert view.figure is figure and view.panels.images == images  # ... on the same figure
        assert len(figure.axes) == 2 and all(len(ax.images) == 1 for ax in figure.axes)
    # The frame drawn by updating shows what a figure drawn from scratch shows.
    fresh, html = l07.draw_feedforward(192, "relu", "minimind3")
    assert html == widget.text.value
    reference = _pixels(figure_to_png(fresh))
    assert np.abs(_pixels(widget.image.value) - reference).mean() < 0.05


def test_widget_module_is_the_seeded_module_for_every_activation() -> None:
    # The widget makes one set of weights per size and version and reuses it for every
    # activation: that is the module seeded construction builds with that activation.
    s = l07.SETUP
    for act in ("relu", "gelu"):
        config = ml.MiniMindConfig(hidden_size=128, hidden_act=act)
        with ml.seeded(s.weight_seed):
            module = ml.FeedForward(config).eval()
        x = torch.randn(s.n_tokens, 128, generator=torch.Generator().manual_seed(s.input_seed))
        out = module(x).detach()
        _, html = l07.draw_feedforward(128, act)
        assert f"output mean {float(out.mean()):.3f}, std {float(out.std()):.3f}" in html


def test_the_lesson_prints_its_tables_with_the_courses_one_table_helper() -> None:
    assert l07.text_table is table.text_table  # padded by display width, in either language


def test_dense_comparison_rows_are_the_dense_aspects_in_the_readers_language() -> None:
    comparison = ml.version_comparison(768)
    rows = l07.dense_comparison_rows(comparison)
    assert [row[0] for row in rows] == list(l07.DENSE_ASPECTS)
    assert not any(row[0].startswith("MoE") for row in rows)  # lesson 10's rows left out
    assert rows[0] == ["FFN width m", "2048", "2432"]
    assert rows[2] == ["FFN dropout after down_proj", "True", "False"]
    with language("zh"):
        chinese = l07.dense_comparison_rows(comparison)
        yes_no = {"True": l06.truth(True), "False": l06.truth(False)}
    assert yes_no == {"True": "是", "False": "否"}
    # The same rows with the same values: numbers unchanged, each yes/no fact translated.
    assert len(chinese) == len(rows)
    assert [row[1:] for row in chinese] == [[yes_no.get(v, v) for v in row[1:]] for row in rows]
    assert chinese[2][1:] == ["是", "否"] and chinese[3][1:] == ["否", "是"]
    assert not any(v in ("True", "False") for row in chinese for v in row)
    assert all(re.search(r"[\u4e00-\u9fff]", row[0]) for row in chinese)  # every label Chinese


@pytest.mark.parametrize("bad", [{"FFN width m": (2048, 2432)}, [("FFN width m", (1, 2))], None])
def test_dense_comparison_rows_refuse_what_is_not_a_version_comparison(bad: object) -> None:
    with pytest.raises(ValueError, match="ml.version_comparison"):
        l07.dense_comparison_rows(bad)  # type: ignore[arg-type]
