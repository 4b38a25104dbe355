"""Lesson 04's machinery: the width task, cached fits, the sweep, sparsity, plots and the widget."""

from __future__ import annotations

import pytest
import torch
from matplotlib.figure import Figure

import minimind_lab as ml
from minimind_lab.lessons import l04
from minimind_lab.widgets import WIDGET_REGISTRY


def _labeled(fig: Figure) -> None:
    assert isinstance(fig, Figure)
    for ax in fig.axes:
        assert ax.get_xlabel() and ax.get_ylabel() and ax.get_title()


@pytest.mark.parametrize(("h", "m"), [(8, 32), (64, 256), (512, 2048)])
def test_plain_ffn_parameters_are_2hm(h: int, m: int) -> None:
    counted = ml.count_parameters(ml.PlainFFN(h, m))
    assert counted == ml.ffn_parameter_count(h, m, gated=False) == 2 * h * m
    if m == 4 * h:
        assert counted == 8 * h * h


def test_width_task_shapes_and_determinism() -> None:
    task = l04.make_width_task()
    assert task.hidden_size == 8
    assert task.t.shape == (256,) and task.inputs.shape == task.targets.shape == (256, 8)
    torch.testing.assert_close(task.targets, torch.sin(task.freqs * task.t[:, None] + task.phases))
    # x = t·u + v with u ⟂ v unit vectors: |x|² = t² + 1.
    torch.testing.assert_close(task.inputs.pow(2).sum(1), task.t**2 + 1, atol=1e-5, rtol=1e-5)
    other = l04.make_width_task(hidden_size=4, n_tokens=16, seed=1)
    assert other.inputs.shape == (16, 4)
    with pytest.raises(ValueError, match="at least 2"):
        l04.make_width_task(hidden_size=1)
    with pytest.raises(ValueError, match="n_tokens"):
        l04.make_width_task(n_tokens=0)


def test_ratio_to_width() -> None:
    assert [l04.ratio_to_width(8, r) for r in l04.WIDTH_RATIOS] == [4, 8, 16, 32, 64]
    assert l04.ratio_to_width(3, 0.1) == 1
    with pytest.raises(ValueError, match="positive"):
        l04.ratio_to_width(8, 0.0)


def test_fit_width_is_cached_seeded_and_leaves_the_global_rng_alone() -> None:
    torch.manual_seed(123)
    expected = torch.rand(3)
    torch.manual_seed(123)
    fit = l04.fit_width("relu", 1.0, steps=30)
    assert torch.equal(torch.rand(3), expected)  # the fit did not consume the caller's RNG
    again = l04.fit_width("relu", 1.0, steps=30)  # from the cache, as the caller's own copy
    assert again.losses == fit.losses and again.model is not fit.model
    assert torch.equal(again.prediction, fit.prediction)
    fit.prediction.zero_()  # mutating one caller's result leaves the cache intact
    with torch.no_grad():
        next(fit.model.parameters()).zero_()
    third = l04.fit_width("relu", 1.0, steps=30)
    assert torch.equal(third.prediction, again.prediction)
    assert torch.equal(next(third.model.parameters()), next(again.model.parameters()))
    assert len(fit.losses) == 30 and fit.final_loss == fit.losses[-1]
    assert fit.intermediate_size == 8 and fit.parameters == 2 * 8 * 8
    assert fit.prediction.shape == (256, 8)
    assert fit.losses[-1] < fit.losses[0]
    reseeded = l04.fit_width("relu", 1.0, steps=30, seed=1)
    assert reseeded.losses != fit.losses
    with pytest.raises(ValueError, match="steps"):
        l04.fit_width("relu", 1.0, steps=0)
    with pytest.raises(ValueError, match="unknown activation"):
        l04.fit_width("mish", 1.0, steps=5)


def test_wide_beats_narrow() -> None:
    sweep = l04.width_sweep(["relu"], [0.5, 8.0])
    narrow, wide = sweep["relu"]
    assert narrow.final_loss > 0.1
    assert wide.final_loss < narrow.final_loss / 20
    with pytest.raises(ValueError, match="at least one"):
        l04.width_sweep([], [1.0])


def test_hidden_activations_and_sparsity() -> None:
    ffn = ml.PlainFFN(4, 6, act="relu")
    x = torch.randn(10, 4)
    hidden = l04.hidden_activations(ffn, x)
    torch.testing.assert_close(hidden, torch.relu(x @ ffn.up_proj.weight.T))
    a = torch.tensor([[0.0, 0.0, 1.0, -1.0], [0.0, 0.001, 2.0, 1.0]])
    stats = l04.hidden_sparsity(a, tol=0.05)
    assert stats.exact_zero == pytest.approx(3 / 8)
    assert stats.near_zero == pytest.approx(4 / 8)  # rms ≈ 0.935, so 0.001 counts as near zero
    assert stats.units_used == pytest.approx(2.0) and stats.intermediate_size == 4
    assert stats.values.shape == (8,)
    with pytest.raises(ValueError, match=r"\(N, m\)"):
        l04.hidden_sparsity(torch.zeros(5))


def test_relu_is_exactly_sparse_silu_is_not() -> None:
    ffn_relu = ml.PlainFFN(32, 128, act="relu")
    ffn_silu = ml.PlainFFN(32, 128, act="silu")
    ffn_silu.load_state_dict(ffn_relu.state_dict())
    x = torch.randn(512, 32, generator=torch.Generator().manual_seed(0))
    relu = l04.hidden_sparsity(l04.hidden_activations(ffn_relu, x))
    silu = l04.hidden_sparsity(l04.hidden_activations(ffn_silu, x))
    assert 0.45 < relu.exact_zero < 0.55 and silu.exact_zero == 0.0
    assert relu.units_used < silu.units_used


def test_width_plots_return_labeled_figures() -> None:
    task = l04.make_width_task()
    fits = [l04.fit_width("relu", 0.5, steps=20), l04.fit_width("gelu", 1.0, steps=20)]
    _labeled(l04.plot_width_fit(fits[0], task))
    _labeled(l04.plot_width_fits(fits, task))
    fig = l04.plot_width_loss_curves(fits)
    _labeled(fig)
    assert fig.axes[0].get_yscale() == "log"
    labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert labels == ["ReLU, m/h = ½", "GELU, m/h = 1"]
    _labeled(l04.plot_width_sweep({"relu": [fits[0]], "gelu": [fits[1]]}))
    stats = {
        a: l04.hidden_sparsity(l04.hidden_activations(f.model, task.inputs))
        for a, f in zip(("relu", "gelu"), fits, strict=True)
    }
    _labeled(l04.plot_hidden_sparsity(stats))
    fig = l04.plot_width_dashboard(fits[1], task, reference=fits[0])
    _labeled(fig)
    assert "2·h·m = 128 parameters" in fig.get_suptitle()
    with pytest.raises(ValueError, match="outside"):
        l04.plot_width_fit(fits[0], task, coords=[8])
    with pytest.raises(ValueError, match="at least one"):
        l04.plot_width_loss_curves([])


def test_width_widget_redraws_with_the_right_numbers() -> None:
    lesson, builder = WIDGET_REGISTRY["ffn_width"]
    assert lesson == "04" and builder is l04.width_explorer
    widget = l04.width_explorer()
    ratio, act = widget.controls["ratio"], widget.controls["act"]
    assert ratio.continuous_update is False
    assert "m = 32" in widget.text.value and "2·h·m = 512" in widget.text.value
    before, count = widget.image.value, widget.redraw_count
    ratio.value = 8.0
    assert widget.redraw_count == count + 1 and widget.image.value != before
    assert "m = 64" in widget.text.value and "2·h·m = 1,024" in widget.text.value
    final = l04.fit_width("relu", 8.0).final_loss
    assert f"final MSE {final:.4f}" in widget.text.value
    act.value = "silu"
    assert "SiLU" in widget.text.value
    assert "steps; 0% of hidden entries exactly 0" in widget.text.value
    ratio.value = 0.5
    assert "m = 4 " in widget.text.value and "2·h·m = 64" in widget.text.value
    _labeled(widget.last_figure)
