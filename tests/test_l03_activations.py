"""Lesson 03: derivative checks, extrema, gradients vs depth, Swish_β, plots, widgets."""

from __future__ import annotations

import math

import pytest
import torch
from matplotlib.figure import Figure

import minimind_lab as ml
from minimind_lab.lessons import l03
from minimind_lab.widgets import WIDGET_REGISTRY


def _labeled(fig: Figure) -> None:
    assert isinstance(fig, Figure)
    for ax in fig.axes:
        assert ax.get_xlabel() and ax.get_ylabel() and ax.get_title()


@pytest.mark.parametrize("name", ml.ACTIVATION_NAMES)
def test_autograd_matches_every_analytic_derivative(name: str) -> None:
    grid = l03.activation_grid(-8, 8, 4001)
    assert l03.derivative_max_error(name, grid) < 1e-12


def test_derivative_check_can_fail() -> None:
    # Comparing one activation's autograd slope with another's formula must show a gap.
    grid = l03.activation_grid(-3, 3, 601)
    gap = (l03.autograd_derivative("silu", grid) - ml.activation_derivative("gelu", grid)).abs()
    assert float(gap.max()) > 0.05


def test_autograd_derivative_keeps_shape_dtype_and_leaves_input_alone() -> None:
    x = torch.randn(3, 4, dtype=torch.float32)
    grad = l03.autograd_derivative("gelu", x)
    assert grad.shape == x.shape and grad.dtype == x.dtype and not x.requires_grad
    relu = l03.autograd_derivative("relu", torch.tensor([-1.0, 0.0, 2.0]))
    assert relu.tolist() == [0.0, 0.0, 1.0]


def test_the_quoted_minima() -> None:
    silu, gelu = l03.activation_minimum("silu"), l03.activation_minimum("gelu")
    assert silu.x == pytest.approx(-1.27846, abs=1e-5)
    assert silu.value == pytest.approx(-0.27846, abs=1e-5)
    assert silu.value == pytest.approx(silu.x + 1, abs=1e-12)  # closed form at SiLU's minimum
    assert gelu.x == pytest.approx(-0.75179, abs=1e-5)
    assert gelu.value == pytest.approx(-0.16997, abs=1e-5)


def test_derivative_maxima() -> None:
    sig = l03.derivative_maximum("sigmoid", -10, 10)
    assert sig.value == pytest.approx(0.25, abs=1e-12) and abs(sig.x) < 1e-6
    assert l03.derivative_maximum("gelu", 0, 6).x == pytest.approx(math.sqrt(2), abs=1e-6)
    assert l03.derivative_maximum("silu", 0, 6).value == pytest.approx(1.0998, abs=1e-4)


def test_gelu_forms_differ_by_less_than_5e_4_but_not_zero() -> None:
    gap = l03.max_abs_difference("gelu", "gelu_pytorch_tanh", l03.activation_grid(-10, 10, 20001))
    assert 1e-4 < gap.value < 5e-4
    assert abs(gap.x) == pytest.approx(2.70, abs=0.02)


def test_grid_and_names_are_validated() -> None:
    with pytest.raises(ValueError, match="lo < hi"):
        l03.activation_grid(1.0, -1.0)
    with pytest.raises(ValueError, match="points"):
        l03.activation_grid(-1.0, 1.0, 0)
    with pytest.raises(ValueError, match="unknown activation"):
        l03.activation_minimum("mish")
    with pytest.raises(ValueError, match="1-D"):
        l03.activation_curves(["relu"], torch.zeros(2, 2))
    with pytest.raises(ValueError, match="at least one"):
        l03.activation_curves([])


def test_activation_curves_hold_values_and_slopes() -> None:
    x = l03.activation_grid(-2, 2, 401)
    curves = l03.activation_curves(["relu", "tanh"], x)
    assert curves.names == ("relu", "tanh")
    torch.testing.assert_close(curves.values["tanh"], torch.tanh(x))
    torch.testing.assert_close(curves.derivatives["tanh"], 1 - torch.tanh(x) ** 2)


def test_swish_beta_limits() -> None:
    x = l03.activation_grid(-6, 6, 120001)
    torch.testing.assert_close(l03.swish_beta(x, 1.0), torch.nn.functional.silu(x))
    assert float((l03.swish_beta(x, 1e-4) - x / 2).abs().max()) < 1e-3
    for beta in (10.0, 1000.0):
        gap = float((l03.swish_beta(x, beta) - x.clamp_min(0)).abs().max())
        assert beta * gap == pytest.approx(0.2785, abs=1e-3)
    with pytest.raises(ValueError, match="beta must be positive"):
        l03.swish_beta(x, 0.0)
    family = l03.swish_family([0.5, 2])
    assert list(family.values) == [0.5, 2.0] and family.values[2.0].shape == family.x.shape


def test_gradient_vanishes_with_sigmoid_and_survives_with_relu() -> None:
    sweep = l03.gradient_norm_vs_depth(["relu", "sigmoid"], depths=(1, 4, 16), seeds=2)
    assert sweep.depths == (1, 4, 16) and set(sweep.norms) == {"relu", "sigmoid"}
    assert sweep.decay_per_layer("sigmoid") <= math.sqrt(2) * 0.25
    assert 0.85 < sweep.decay_per_layer("relu") < 1.15
    assert sweep.norms["sigmoid"][-1] < 1e-6 * sweep.norms["relu"][-1]


def test_depth_sweep_validation_and_underflow() -> None:
    with pytest.raises(ValueError, match="increasing"):
        l03.gradient_norm_vs_depth(["relu"], depths=(4, 2))
    with pytest.raises(ValueError, match="positive integers"):
        l03.gradient_norm_vs_depth(["relu"], depths=(0, 2))
    sweep = l03.DepthSweep((1, 2), {"a": (1.0, 0.0), "b": (1.0, 0.5)}, width=4, gain=1.0)
    assert sweep.decay_per_layer("a") == 0.0 and sweep.decay_per_layer("b") == 0.5
    with pytest.raises(ValueError, match="two different depths"):
        l03.DepthSweep((3,), {"a": (1.0,)}, width=4, gain=1.0).decay_per_layer("a")


def test_plots_return_labeled_figures() -> None:
    curves = l03.activation_curves(x=l03.activation_grid(-3, 3, 301))
    extrema = {"silu": l03.activation_minimum("silu")}
    fig = l03.plot_activation_curves(curves, extrema=extrema)
    _labeled(fig)
    legend = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert legend == ["ReLU", "GELU", "SiLU / Swish", "sigmoid", "tanh"]
    _labeled(l03.plot_activation_derivatives(curves, names=["relu", "sigmoid"]))
    _labeled(l03.plot_activation_pair(curves, "gelu", context=curves.names))
    _labeled(l03.plot_swish_beta(l03.swish_family([0.5, 5])))
    sweep = l03.gradient_norm_vs_depth(["relu", "tanh"], depths=(1, 3), seeds=1)
    fig = l03.plot_gradient_vs_depth(sweep)
    _labeled(fig)
    assert fig.axes[0].get_yscale() == "log"
    with pytest.raises(ValueError, match="not in the curves"):
        l03.plot_activation_pair(curves, "identity")


def test_activation_explorer_redraws_on_change() -> None:
    assert WIDGET_REGISTRY["activation_explorer"][0] == "03"
    widget = l03.activation_explorer()
    before_image, count = widget.image.value, widget.redraw_count
    assert "SiLU" in widget.text.value and "-0.278" in widget.text.value
    widget.controls["name"].value = "relu"
    assert widget.redraw_count == count + 1 and widget.image.value != before_image
    assert "ReLU" in widget.text.value and "50% of the range has zero slope" in widget.text.value
    widget.controls["x_range"].value = (0.5, 6.0)
    assert "; 0% of the range has zero slope" in widget.text.value
    _labeled(widget.last_figure)
    with pytest.raises(ValueError, match="lo < hi"):
        l03.draw_activation("relu", (1.0, 1.0))


def test_swish_widget_reports_the_gaps() -> None:
    assert WIDGET_REGISTRY["swish_beta"][0] == "03"
    widget = l03.swish_beta_explorer()
    before = widget.image.value
    widget.controls["beta"].value = 100.0
    assert widget.image.value != before
    assert "max |Swish_β − ReLU| = 0.0028" in widget.text.value
    widget.controls["beta"].value = 0.01
    assert "max |Swish_β − x/2| = 0.0400" in widget.text.value


def test_explorer_range_at_equal_ends_shows_a_message_not_a_stale_figure() -> None:
    plot = WIDGET_REGISTRY["activation_explorer"][1]()
    good_image = plot.image.value
    plot.controls["x_range"].value = (2.0, 2.0)
    assert plot.last_error == "the x range needs two different ends (lo < hi), got 2 … 2"
    assert plot.image.value != good_image
    assert "Cannot draw this setting" in plot.text.value and "2 … 2" in plot.text.value
    plot.controls["x_range"].value = (-3.0, 3.0)
    assert plot.last_error is None and "on [-3, 3]" in plot.text.value
