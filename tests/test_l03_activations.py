"""Lesson 03: derivative checks, extrema, gradients vs depth, Swish_β, plots, widgets."""

from __future__ import annotations

import io
import math

import numpy as np
import pytest
import torch
from matplotlib.figure import Figure
from PIL import Image

import minimind_lab as ml
from minimind_lab.i18n import language
from minimind_lab.i18n.table import display_width
from minimind_lab.lessons import l03
from minimind_lab.widgets import WIDGET_REGISTRY
from minimind_lab.widgets.base import figure_to_png


def _labeled(fig: Figure) -> None:
    assert isinstance(fig, Figure)
    for ax in fig.axes:
        assert ax.get_xlabel() and ax.get_ylabel() and ax.get_title()


def _pixels(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png))).astype(int)


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


def test_grid_holds_zero_exactly_and_is_antisymmetric() -> None:
    # torch.linspace(-8, 8, 16001) puts -1.7e-16 in the middle, so ReLU's kink was never on it.
    grid = l03.activation_grid(*l03.SETUP.check_range, l03.SETUP.check_points)
    assert grid[8000].item() == 0.0 and int((grid == 0).sum()) == 1
    assert int((grid < 0).sum()) == int((grid > 0).sum()) == 8000
    assert torch.equal(grid, -grid.flip(0))
    assert grid[0].item() == -8.0 and grid[-1].item() == 8.0
    assert l03.activation_grid(-1.0, 3.0, 5).tolist() == [-1.0, 0.0, 1.0, 2.0, 3.0]
    assert l03.activation_grid(2.0, 3.0, 1).tolist() == [2.0]


def test_zero_slope_points_are_the_minima_of_gelu_and_silu() -> None:
    grid = l03.activation_grid(-8, 8, 16001)
    negative = grid[grid < 0]
    (gelu,) = l03.zero_slope_points("gelu", negative)
    (silu,) = l03.zero_slope_points("silu", negative)
    assert gelu == pytest.approx(-0.751791524693564, abs=1e-12)
    assert silu == pytest.approx(-1.278464542761074, abs=1e-12)
    assert gelu == pytest.approx(l03.activation_minimum("gelu").x, abs=1e-9)
    # A flat stretch (ReLU) or a monotone function has no sign change, so no point.
    assert l03.zero_slope_points("relu", negative) == ()
    assert l03.zero_slope_points("tanh", grid) == ()
    # On the whole grid SiLU's slope still crosses 0 only once, at the minimum.
    assert len(l03.zero_slope_points("silu", grid)) == 1
    with pytest.raises(ValueError, match="1-D grid"):
        l03.zero_slope_points("silu", torch.zeros(1))


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
    # The geometric mean over seeds is what norms holds.
    seeds = sweep.per_seed["sigmoid"]
    assert len(seeds) == 2
    assert sweep.norms["sigmoid"][1] == pytest.approx(math.sqrt(seeds[0][1] * seeds[1][1]))


def test_factor_and_rule_of_thumb_seed_by_seed() -> None:
    sweep = l03.gradient_norm_vs_depth(["sigmoid", "gelu"], depths=(1, 4, 8), seeds=2)
    assert sweep.seeds == (0, 1)
    for seed in sweep.seeds:
        runs = sweep.per_seed["gelu"][seed]
        expected = (runs[-1] / runs[0]) ** (1 / 7)
        assert sweep.decay_per_layer("gelu", seed) == pytest.approx(expected, rel=1e-12)
        # The rule for one seed reads that seed's slopes, not the mean over seeds.
        slopes = sweep.slope_sq_per_seed["gelu"][seed][1:8]
        rule = sweep.gain * math.exp(sum(0.5 * math.log(v) for v in slopes) / len(slopes))
        assert sweep.rule_of_thumb("gelu", seed) == pytest.approx(rule, rel=1e-12)
    # The seeds differ (GELU's spread is what lesson 03 shows), and the mean lies between them.
    per_seed = [sweep.decay_per_layer("gelu", s) for s in sweep.seeds]
    assert per_seed[0] != per_seed[1]
    assert min(per_seed) <= sweep.decay_per_layer("gelu") <= max(per_seed)
    for bad in (2, -1, True, 0.5):
        with pytest.raises(ValueError, match="seed must be an int in 0..1"):
            sweep.decay_per_layer("gelu", bad)
        with pytest.raises(ValueError, match="seed must be an int in 0..1"):
            sweep.rule_of_thumb("gelu", bad)


def test_first_layer_gradient_is_what_the_sweep_measures() -> None:
    sweep = l03.gradient_norm_vs_depth(["silu"], depths=(1, 3, 5), seeds=2)
    for seed in (0, 1):
        for k, depth in enumerate(sweep.depths):
            grad = l03.first_layer_gradient("silu", depth, seed=seed)
            assert grad.shape == (64, 64) and grad.dtype == torch.float32
            expected = sweep.per_seed["silu"][seed][k]
            assert float(grad.double().norm()) == pytest.approx(expected, rel=1e-6)
    # A shallower stack is a prefix of a deeper one: the same first weights, other gradients.
    assert not torch.equal(l03.first_layer_gradient("silu", 2), l03.first_layer_gradient("silu", 3))


def test_sigmoid_with_default_init_shrinks_0_14_per_layer_and_the_rule_predicts_it() -> None:
    # The old lesson reported "0 (underflowed)" here: the gradient itself never underflowed.
    gain = 1 / math.sqrt(3)
    sweep = l03.gradient_norm_vs_depth(["sigmoid", "relu"], gain=gain)
    factor = sweep.decay_per_layer("sigmoid")
    assert 0.13 < factor < 0.15
    assert factor == pytest.approx(sweep.rule_of_thumb("sigmoid"), rel=0.02)
    assert sweep.decay_per_layer("relu") == pytest.approx(1 / math.sqrt(6), abs=0.02)
    grad = l03.first_layer_gradient("sigmoid", 32, gain=gain)
    assert bool((grad != 0).all())  # every entry is a non-zero float32 ...
    assert float(grad.abs().max()) < 1e-26  # ... far below 1e-19, so float32 squares underflow
    assert float((grad**2).sum()) == 0.0 and float(grad.double().norm()) > 0


def test_residual_and_prenorm_stacks_carry_the_gradient() -> None:
    plain = l03.gradient_norm_vs_depth(["sigmoid", "relu"], depths=(1, 8, 16), seeds=1)
    residual = l03.gradient_norm_vs_depth(
        ["sigmoid", "relu"], depths=(1, 8, 16), seeds=1, block="residual"
    )
    prenorm = l03.gradient_norm_vs_depth(
        ["sigmoid", "relu"], depths=(1, 8, 16), seeds=1, block="prenorm"
    )
    assert plain.decay_per_layer("sigmoid") < 0.4
    assert 0.95 < residual.decay_per_layer("sigmoid") < 1.1
    assert residual.decay_per_layer("relu") > 1.3  # no norm: the ReLU stream's gradient grows
    for name in ("sigmoid", "relu"):
        assert 0.95 < prenorm.decay_per_layer(name) < 1.1
    with pytest.raises(ValueError, match="plain stacks"):
        prenorm.rule_of_thumb("relu")


def test_depth_sweep_validation_and_underflow() -> None:
    with pytest.raises(ValueError, match="increasing"):
        l03.gradient_norm_vs_depth(["relu"], depths=(4, 2))
    with pytest.raises(ValueError, match="increasing"):
        l03.gradient_norm_vs_depth(["relu"], depths=(2, 2))
    with pytest.raises(ValueError, match="positive integers"):
        l03.gradient_norm_vs_depth(["relu"], depths=(0, 2))
    with pytest.raises(ValueError, match="block must be"):
        l03.gradient_norm_vs_depth(["relu"], block="highway")
    with pytest.raises(ValueError, match="dtype"):
        l03.gradient_norm_vs_depth(["relu"], dtype=torch.float16)
    with pytest.raises(ValueError, match="gain"):
        l03.first_layer_gradient("relu", 2, gain=0.0)
    with pytest.raises(ValueError, match="at least one"):
        l03.gradient_norm_vs_depth([])
    # A zero norm used to become a 0.0 "factor"; now no sweep can hold one.
    with pytest.raises(ValueError, match="depth 2 is 0.0"):
        l03.DepthSweep((1, 2), {"a": (1.0, 0.0)}, width=4, gain=1.0)
    sweep = l03.DepthSweep((1, 2), {"b": (1.0, 0.5)}, width=4, gain=1.0)
    assert sweep.decay_per_layer("b") == 0.5
    with pytest.raises(ValueError, match="no activation 'a'"):
        sweep.decay_per_layer("a")
    with pytest.raises(ValueError, match="two different depths"):
        l03.DepthSweep((3,), {"a": (1.0,)}, width=4, gain=1.0).decay_per_layer("a")
    # Where float32 really underflows (64 sigmoid layers at gain 0.1), the sweep refuses ...
    with pytest.raises(ValueError, match="underflowed"):
        l03.gradient_norm_vs_depth(["sigmoid"], depths=(1, 64), gain=0.1, seeds=1)
    # ... and float64 measures it: about 0.025 per layer.
    deep = l03.gradient_norm_vs_depth(
        ["sigmoid"], depths=(1, 64), gain=0.1, seeds=1, dtype=torch.float64
    )
    assert 0.02 < deep.decay_per_layer("sigmoid") < 0.03


def test_weighted_slope_is_the_slope_the_backward_signal_meets() -> None:
    # Rebuild seed 0's depth-3 GELU stack by hand and take the backward signal layer by layer.
    sweep = l03.gradient_norm_vs_depth(["gelu"], depths=(1, 3), seeds=1)
    width, batch, gain = 64, 128, math.sqrt(2)
    gen = torch.Generator().manual_seed(0)
    h = torch.randn(batch, width, generator=gen).double()
    cotangent = torch.randn(batch, width, generator=gen).double()
    weights = [torch.randn(width, width, generator=gen).double() * gain / 8 for _ in range(3)]
    zs = []
    for w in weights:
        zs.append(h @ w.T)
        h = torch.nn.functional.gelu(zs[-1])
    g, weighted, plain = cotangent / batch, [], []
    for z, w in zip(reversed(zs), reversed(weights), strict=True):
        slope = ml.activation_derivative("gelu", z)
        weighted.append(float((g**2 * slope**2).sum() / (g**2).sum()))
        plain.append(float((slope**2).mean()))
        g = (g * slope) @ w  # the signal at the layer below's output
    assert sweep.weighted_slope_sq_per_seed["gelu"][0] == pytest.approx(weighted[::-1], rel=1e-4)
    assert sweep.slope_sq_per_seed["gelu"][0] == pytest.approx(plain[::-1], rel=1e-4)
    assert weighted != pytest.approx(plain, rel=1e-3)  # the weighting changes the mean
    # The rule reads the geometric mean over layers 2..3, plain or weighted.
    for values, flag in ((plain, False), (weighted, True)):
        mean = math.sqrt(values[0] * values[1])  # layers 3 and 2
        assert sweep.mean_slope_sq("gelu", 0, weighted=flag) == pytest.approx(mean, rel=1e-4)
        rule = sweep.rule_of_thumb("gelu", 0, weighted=flag)
        assert rule == pytest.approx(gain * math.sqrt(mean), rel=1e-4)


def test_the_weighted_rule_gives_the_factor_where_the_plain_one_errs() -> None:
    # Lesson 03's finding at its own sizes: GELU's plain rule errs low by more than 10 % in one
    # seed; weighting each slope by the gradient that meets it brings every seed within 5 %.
    sweep = l03.gradient_norm_vs_depth(["gelu", "relu"])
    for seed in sweep.seeds:
        for name in ("gelu", "relu"):
            weighted = sweep.rule_of_thumb(name, seed, weighted=True)
            assert sweep.decay_per_layer(name, seed) == pytest.approx(weighted, rel=0.05)
    plain = [sweep.decay_per_layer("gelu", s) / sweep.rule_of_thumb("gelu", s) for s in (0, 1, 2)]
    assert max(plain) > 1.1


def test_mean_slope_is_refused_where_the_rule_does_not_apply() -> None:
    prenorm = l03.gradient_norm_vs_depth(["relu"], depths=(1, 3), seeds=1, block="prenorm")
    with pytest.raises(ValueError, match="plain stacks"):
        prenorm.mean_slope_sq("relu", weighted=True)
    # A signal that underflowed to 0 leaves no weighted mean: refused, not turned into a number.
    sweep = l03.DepthSweep(
        (1, 2),
        {"a": (1.0, 0.5)},
        width=4,
        gain=1.0,
        slope_sq={"a": (0.5, 0.5)},
        weighted_slope_sq={"a": (0.5, math.nan)},
    )
    assert sweep.rule_of_thumb("a") == pytest.approx(math.sqrt(0.5))
    with pytest.raises(ValueError, match="not positive and finite"):
        sweep.rule_of_thumb("a", weighted=True)


def test_tables_show_the_sweep_and_line_up_in_both_languages() -> None:
    assert l03.seed_range([1.234, 0.5, 0.98]) == "0.50–1.23"
    assert l03.seed_range([3e-16, 2.6e-16], ".0e") == "3e-16–3e-16"
    with pytest.raises(ValueError, match="at least one"):
        l03.seed_range([])
    plain = l03.gradient_norm_vs_depth(["relu", "sigmoid"], depths=(1, 4), seeds=2)
    prenorm = l03.gradient_norm_vs_depth(
        ["relu", "sigmoid"], depths=(1, 4), seeds=2, block="prenorm"
    )
    factor = plain.decay_per_layer("sigmoid", 0), plain.decay_per_layer("sigmoid", 1)
    for lang, head in (("en", "per layer"), ("zh", "每层")):
        with language(lang):
            tables = [
                l03.depth_table(plain),
                l03.rule_table(plain),
                l03.slope_by_layer_table(plain, ["relu"], layers=(1, 4)),
                l03.block_table({"plain": plain, "prenorm": prenorm}),
            ]
        assert head in tables[0] and head in tables[3]
        for table in tables:
            assert len({display_width(line) for line in table.splitlines()}) == 1, table
    depth = tables[0].splitlines()
    assert len(depth) == 3 and depth[2].startswith("sigmoid")
    assert "×" + l03.seed_range(factor) in depth[2]
    assert len(tables[2].splitlines()) == 3  # the layers, then plain and weighted for ReLU
    with pytest.raises(ValueError, match="layers must be in 1..4"):
        l03.slope_by_layer_table(plain, ["relu"], layers=(5,))
    with pytest.raises(ValueError, match="at least one sweep"):
        l03.block_table({})


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
    assert "plain" in fig.axes[0].get_title()
    sweeps = {
        b: l03.gradient_norm_vs_depth(["relu"], depths=(1, 3), seeds=1, block=b)
        for b in l03.STACK_BLOCKS
    }
    fig = l03.plot_gradient_by_block(sweeps)
    _labeled(fig)
    assert len({ax.get_ylim() for ax in fig.axes}) == 1  # one shared scale
    # The minima sit in an inset (an extra axes) and the β curves never borrow an
    # activation's colour.
    fig = l03.plot_activation_curves(curves, extrema=extrema)
    (inset,) = fig.axes[0].child_axes
    assert "dips" in inset.get_title() and inset.get_ylim()[0] < -0.278 < inset.get_ylim()[1]
    fig = l03.plot_swish_beta(l03.swish_family([0.5, 1.0, 10.0]))
    from minimind_lab.plots.style import PALETTE

    colors = {line.get_color() for line in fig.axes[0].get_lines()[:3]}
    assert not colors & set(PALETTE)
    labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert "β = 1 (SiLU)" in labels and "ReLU (β → ∞)" in labels
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
    _labeled(widget.draw.figure)
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
    for bad in (0.0, -1.0, float("nan"), 1000.0, True):
        with pytest.raises(ValueError, match="β must be a number"):
            l03.draw_swish(bad)


def test_explorer_range_at_equal_ends_shows_a_message_not_a_stale_figure() -> None:
    plot = WIDGET_REGISTRY["activation_explorer"][1]()
    good_image = plot.image.value
    plot.controls["x_range"].value = (2.0, 2.0)
    assert plot.last_error == "the x range needs two different ends (lo < hi), got 2 … 2"
    assert plot.image.value != good_image
    assert "Cannot draw this setting" in plot.text.value and "2 … 2" in plot.text.value
    plot.controls["x_range"].value = (-3.0, 3.0)
    assert plot.last_error is None and "on [-3, 3]" in plot.text.value


def test_explorer_redraws_its_one_figure_and_matches_a_fresh_drawing() -> None:
    widget = WIDGET_REGISTRY["activation_explorer"][1]()
    view = widget.draw
    figure, axes = view.figure, view.figure.axes
    limits = axes[1].get_ylim()
    image = widget.image.value
    for name, value in (("name", "gelu"), ("x_range", (0.5, 6.0)), ("name", "sigmoid")):
        widget.controls[name].value = value
        assert widget.image.value != image  # a new picture ...
        image = widget.image.value
        assert view.figure is figure and figure.axes == axes  # ... on the same figure
    assert axes[1].get_ylim() != limits  # a new range rescales the axes
    # The picked activation's grey twin is hidden, the others show.
    assert [line.get_visible() for line in view.panels.faint["sigmoid"]] == [False, False]
    assert all(line.get_visible() for line in view.panels.faint["gelu"])
    # Drawn by updating, the frame is what a figure drawn from scratch shows.
    fresh, html = l03.draw_activation("sigmoid", (0.5, 6.0))
    assert html == widget.text.value
    assert np.abs(_pixels(widget.image.value) - _pixels(figure_to_png(fresh))).mean() < 0.05
    # So is a later frame at the default range, after a rejected one.
    widget.controls["x_range"].value = (3.0, 3.0)
    assert widget.last_error is not None
    widget.controls["x_range"].value = l03.SETUP.explorer_range
    fresh, _ = l03.draw_activation("sigmoid", l03.SETUP.explorer_range)
    assert np.abs(_pixels(widget.image.value) - _pixels(figure_to_png(fresh))).mean() < 0.05


def test_swish_widget_redraws_its_one_figure_and_shows_what_plot_swish_beta_draws() -> None:
    widget = WIDGET_REGISTRY["swish_beta"][1]()
    view = widget.draw
    figure, limits = view.figure, view.panel.ax.get_ylim()
    legend = [t.get_text() for t in view.panel.legend.get_texts()]
    assert legend == ["β = 1 (SiLU)", "x/2 (β → 0)", "ReLU (β → ∞)"]
    image = widget.image.value
    for beta in (0.01, 100.0, 0.1):
        widget.controls["beta"].value = beta
        assert widget.image.value != image  # a new picture ...
        image = widget.image.value
        assert view.figure is figure and view.panel.ax.get_ylim() == limits  # ... same axes
    assert view.panel.legend.get_texts()[0].get_text() == "β = 0.1"
    fresh = l03.plot_swish_beta(l03.swish_family([0.1]), title="x·σ(βx) at β = 0.1")
    assert np.abs(_pixels(widget.image.value) - _pixels(figure_to_png(fresh))).mean() < 0.05
    with pytest.raises(ValueError, match="one β"):
        l03.update_swish_beta_panel(view.panel, l03.swish_family([0.5, 2.0]), "two")
