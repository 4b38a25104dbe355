"""Lesson 02: data sets, grid warping, linear vs nonlinear stacks, plots and the widget."""

from __future__ import annotations

import io
import unicodedata

import numpy as np
import pytest
import torch
from matplotlib.figure import Figure
from PIL import Image
from torch import nn

import minimind_lab as ml
from minimind_lab.i18n import set_language
from minimind_lab.lessons import l02
from minimind_lab.plots.style import new_figure
from minimind_lab.widgets import WIDGET_REGISTRY
from minimind_lab.widgets.base import figure_to_png


@pytest.mark.parametrize("name", l02.DATASET_NAMES)
def test_datasets_are_seeded_balanced_and_bounded(name: str) -> None:
    data = l02.make_dataset(name, n=200, seed=3)
    again = l02.make_dataset(name, n=200, seed=3)
    other = l02.make_dataset(name, n=200, seed=4)
    assert data.x.shape == (200, 2) and data.y.shape == (200,)
    assert data.x.dtype == torch.float32 and data.y.dtype == torch.int64
    assert data.y.bincount().tolist() == [100, 100]
    assert torch.equal(data.x, again.x) and not torch.equal(data.x, other.x)
    assert data.x.abs().max() < 3.0


def test_dataset_rejects_bad_input() -> None:
    with pytest.raises(ValueError, match="circles"):
        l02.make_dataset("circles")
    with pytest.raises(ValueError, match="noise"):
        l02.make_dataset("xor", noise=-1.0)


def test_grid_lines_shape_and_extent() -> None:
    lines = l02.grid_lines(extent=1.5, n_lines=5, n_points=7)
    assert lines.shape == (10, 7, 2)
    assert lines[:5, :, 1].std(dim=1).max() == 0  # first half: constant y
    assert lines[5:, :, 0].std(dim=1).max() == 0  # second half: constant x
    assert lines.abs().max() == 1.5


def test_linear_warp_keeps_lines_straight_activations_bend_them() -> None:
    lines = l02.grid_lines()
    bend = {
        act: l02.line_bend(l02.warp_grid(lines, l02.warp_network(act)))
        for act in l02.STACK_ACTIVATIONS
    }
    assert bend["none"].max() < 1e-4
    for act in ("relu", "gelu", "silu"):
        assert (bend[act] > 0.01).sum() >= 5, act
    # The "none" network is one linear map: collapse_linear reproduces it.
    net = l02.warp_network("none")
    assert torch.allclose(ml.collapse_linear(net)(lines), net(lines), atol=1e-5)


def test_line_bend_of_known_shapes() -> None:
    t = torch.linspace(-1, 1, 50)
    straight = torch.stack([t, 2 * t + 1], dim=-1)
    parabola = torch.stack([t, t * t], dim=-1)
    point = torch.zeros(50, 2)
    bend = l02.line_bend(torch.stack([straight, parabola, point]))
    assert bend[0] < 1e-5 and bend[1] > 0.1 and bend[2] == 0


def test_make_stack_structure() -> None:
    linear = l02.make_stack("none", depth=3, width=8)
    assert all(isinstance(m, nn.Linear) for m in linear) and len(linear) == 4
    relu = l02.make_stack("relu", depth=3, width=8)
    assert len(relu) == 7 and isinstance(relu[1], nn.ReLU)
    with pytest.raises(ValueError, match="unknown activation"):
        l02.make_stack("softsign")


def test_linear_stack_stalls_nonlinear_stacks_fit_spirals() -> None:
    linear = l02.train_stack("spirals", depth=0)
    results = {act: l02.train_stack("spirals", act) for act in l02.STACK_ACTIVATIONS}
    assert linear.accuracy < 0.75
    assert abs(results["none"].accuracy - linear.accuracy) <= 0.02
    for act in ("relu", "gelu", "silu"):
        assert results[act].accuracy >= 0.95, act
        assert results[act].losses[-1] < 0.1 * results["none"].losses[-1]
    # The trained linear stack is one linear classifier in disguise.
    data = l02.make_dataset("spirals")
    merged = ml.collapse_linear(results["none"].model)
    with torch.no_grad():
        assert torch.allclose(merged(data.x), results["none"].model(data.x), atol=1e-4)
    # Cached, but every caller gets its own model: editing one leaves the next untouched.
    again = l02.train_stack("spirals", "relu")
    assert again.model is not results["relu"].model and again.accuracy == results["relu"].accuracy
    with torch.no_grad():
        for parameter in results["relu"].model.parameters():
            parameter.zero_()
    fresh = l02.train_stack("spirals", "relu")
    assert all(p.abs().sum() > 0 for p in fresh.model.parameters())
    assert torch.equal(fresh.model(data.x), again.model(data.x))


def test_cached_training_leaves_the_callers_random_state_alone() -> None:
    l02.train_stack("xor", "relu", depth=2, width=8, steps=5, seed=3)  # fill the cache
    for _ in range(2):  # once computing (new seed), once from the cache
        torch.manual_seed(123)
        expected = torch.rand(3)
        torch.manual_seed(123)
        l02.train_stack("xor", "gelu", depth=2, width=8, steps=5, seed=4)
        assert torch.equal(torch.rand(3), expected)


def test_decision_regions_shape_and_range() -> None:
    model = l02.train_stack("spirals", "relu").model
    regions = l02.decision_regions(model, extent=2.0, resolution=30)
    assert regions.xs.shape == regions.ys.shape == (30,)
    assert regions.prob.shape == (30, 30)
    assert 0 <= regions.prob.min() and regions.prob.max() <= 1
    # Pixel (r, c) is the model at (xs[c], ys[r]).
    with torch.no_grad():
        p = model(torch.tensor([[regions.xs[4], regions.ys[20]]])).softmax(-1)[0, 1]
    assert torch.allclose(regions.prob[20, 4], p, atol=1e-6)


def _assert_labeled(fig: Figure, panels: int) -> None:
    assert isinstance(fig, Figure)
    assert len(fig.axes) == panels
    for ax in fig.axes:
        assert ax.get_xlabel() and ax.get_ylabel() and ax.get_title()


def test_plots_return_labeled_figures() -> None:
    lines = l02.grid_lines(n_lines=5, n_points=11)
    grids = {"input grid": lines, "relu": l02.warp_grid(lines, l02.warp_network("relu"))}
    _assert_labeled(l02.plot_warped_grids(grids), 2)
    data = l02.make_dataset("spirals")
    result = l02.train_stack("spirals", "relu")
    regions = {"relu": l02.decision_regions(result.model, resolution=20)}
    fig = l02.plot_decision_regions(regions, data, {"relu": result.accuracy})
    _assert_labeled(fig, 1)
    assert f"{result.accuracy:.1%} correct" in fig.axes[0].get_title()
    _assert_labeled(l02.plot_loss_curves({"relu": result.losses}), 1)
    _assert_labeled(l02.plot_rank_vs_width([1, 2, 4], [1, 2, 2], hidden_size=2), 1)
    with pytest.raises(ValueError, match="empty"):
        l02.plot_warped_grids({})


def test_collapse_widget_switches_activation_without_training() -> None:
    lesson, builder = WIDGET_REGISTRY["activation_warps_the_plane"]
    assert lesson == "02"
    plot = builder()
    assert [value for _, value in plot.controls["activation"].options] == list(
        l02.STACK_ACTIVATIONS
    )
    image, text = plot.image.value, plot.text.value
    assert "<b>relu</b>: the grid is folded over at 0% of its points and flattened at 67%" in text
    relu = l02.train_stacks()["relu", l02.SETUP.seed]  # the lesson's batch, seed 0
    assert f"training accuracy {relu.accuracy:.3f}" in text and relu.accuracy >= 0.95

    fits_before = ml.fit_call_count()
    plot.controls["activation"].value = "none"
    assert ml.fit_call_count() == fits_before, "the widget trained during a redraw"
    assert plot.redraw_count == 2 and plot.image.value != image
    linear = l02.train_stacks(activations=("none",), depth=0)["none", l02.SETUP.seed].accuracy
    assert "<b>no activation</b>: the grid is folded over at 0%" in plot.text.value
    assert f"training accuracy {linear:.3f}" in plot.text.value
    assert f"linear classifier reaches training accuracy {linear:.3f}" in plot.text.value
    plot.controls["activation"].value = "gelu"
    assert "folded over at 38% of its points and flattened at 0%" in plot.text.value
    assert ml.fit_call_count() == fits_before


def _pixels(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png))).astype(int)


def test_collapse_widget_draws_every_frame_into_one_figure_as_the_lesson_draws_it() -> None:
    plot = WIDGET_REGISTRY["activation_warps_the_plane"][1]()
    view = plot.draw
    figure, lines = view.figure, view.panels.lines
    assert set(view.frames) == set(l02.STACK_ACTIVATIONS)  # drawn when the widget was built
    images = {}
    for activation in ("none", "gelu", "silu", "relu"):
        plot.controls["activation"].value = activation
        images[activation] = bytes(plot.image.value)
        assert images[activation] == view.frames[activation][0]  # a change shows its frame
    assert len(set(images.values())) == len(images)  # four different pictures ...
    assert view.figure is figure and view.panels.lines is lines  # ... from one figure
    assert len(figure.axes) == 2
    # Each frame shows what the lesson's own drawing functions show on axes at the same place:
    # the grid's limits follow each warp, GELU's folded points are marked, nothing is stale.
    for activation in ("none", "gelu"):
        warped, scale, regions, _ = view.precomputed[activation]
        assert view.draw_frame(activation)[0] == images[activation]  # drawn again, the same
        fig, (left, right) = new_figure(1, 2, panel_size=(3.4, 3.4))
        fig.set_layout_engine("none")
        for ax, widget_ax in ((left, view.panels.grid_ax), (right, view.panels.regions_ax)):
            ax.set_position(widget_ax.get_position(original=True))
        grid_title, regions_title = (ax.get_title() for ax in figure.axes)
        l02.draw_warped_grid(left, warped, title=grid_title, area_scale=scale)
        l02.draw_decision_regions(right, regions, view.data, title=regions_title)
        reference = _pixels(figure_to_png(fig))
        assert np.abs(_pixels(images[activation]) - reference).mean() < 0.05, activation
    assert view.panels.folded.get_visible() and len(view.panels.folded.get_offsets()) > 0
    with pytest.raises(ValueError, match="activation must be one of"):
        view.draw_frame("tanh")


def test_area_scale_of_known_maps() -> None:
    lines = l02.grid_lines(n_lines=5, n_points=21)
    linear = l02.warp_network("none")
    expected = torch.linalg.det(ml.collapse_linear(linear).weight.detach())
    scale = l02.area_scale(linear, lines)
    assert scale.shape == (10, 21)
    assert torch.allclose(scale, expected.expand_as(scale), atol=1e-5)
    # A mirror turns every square over; a projection flattens every square.
    mirror, flatten = nn.Linear(2, 2), nn.Linear(2, 2)
    with torch.no_grad():
        mirror.weight.copy_(torch.tensor([[1.0, 0.0], [0.0, -1.0]]))
        flatten.weight.copy_(torch.tensor([[1.0, 0.0], [0.0, 0.0]]))
    assert torch.allclose(l02.area_scale(mirror, lines), torch.full((10, 21), -1.0))
    assert l02.area_scale(flatten, lines).abs().max() <= l02.FLAT_TOLERANCE


def test_relu_flattens_gelu_and_silu_fold() -> None:
    lines = l02.grid_lines()
    tol = l02.FLAT_TOLERANCE
    relu = l02.area_scale(l02.warp_network("relu"), lines)
    assert (relu < -tol).sum() == 0 and (relu.abs() <= tol).float().mean() > 0.5
    for act in ("gelu", "silu"):
        scale = l02.area_scale(l02.warp_network(act), lines)
        assert (scale < -tol).float().mean() > 0.2, act
        assert (scale.abs() <= tol).float().mean() < 0.01, act


def test_area_scale_is_det_w2w1_times_the_two_slopes_so_a_fold_is_against_its_sign() -> None:
    """Chain rule: det(W2 · diag(f'(h)) · W1) = det(W2 W1) f'(h1) f'(h2). Mirror the second
    layer and every area scale changes sign: the folded points are then the positive ones."""
    lines = l02.grid_lines(n_lines=7, n_points=31)
    for act in ("relu", "gelu", "silu"):
        net = l02.warp_network(act)
        det = torch.linalg.det(net[-1].weight @ net[0].weight).detach()
        with torch.no_grad():
            slope = ml.activation_derivative(act, net[0](lines))  # (14, 31, 2)
        scale = l02.area_scale(net, lines)
        assert det > 0
        assert torch.allclose(scale, det * slope[..., 0] * slope[..., 1], atol=1e-5), act
        with torch.no_grad():
            net[-1].weight[1].neg_()  # a mirror after the second layer: det(W2 W1) < 0
        mirrored = l02.area_scale(net, lines)
        assert torch.linalg.det(net[-1].weight @ net[0].weight) < 0
        assert torch.allclose(mirrored, -scale, atol=1e-6), act


def _display_width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_tables_print_every_row_and_line_up_in_both_languages(lang: str) -> None:
    set_language(lang)
    try:
        lines = l02.grid_lines(n_lines=3, n_points=11)
        nets = {act: l02.warp_network(act) for act in l02.STACK_ACTIVATIONS}
        scales = {act: l02.area_scale(net, lines) for act, net in nets.items()}
        bends = {act: l02.line_bend(l02.warp_grid(lines, net)) for act, net in nets.items()}
        shares = dict.fromkeys(nets, 0.25)
        warp = l02.warp_table(bends, scales, shares, shares).splitlines()
        assert len(warp) == 1 + len(nets) and len({_display_width(line) for line in warp}) == 1
        assert warp[1].startswith("none" if lang == "en" else "无")  # "none" is translated
        assert "/ 6" in warp[1] and "25%" in warp[1]
        assert ("largest bend" in warp[0]) == (lang == "en") and ("到" in warp[1]) == (lang == "zh")

        runs = {
            (name, seed): l02.StackResult("none", nn.Linear(2, 2), [0.7, 0.61234], 0.6425)
            for name in ("single layer", "relu")
            for seed in (0, 1)
        }
        runs["relu", 1] = l02.StackResult("relu", nn.Linear(2, 2), [0.7, 0.0004], 1.0)
        table = l02.results_table(
            runs, ["single layer", "relu"], (0, 1), {0: 0.685, 1: 0.7}, {0: 0.6, 1: 0.5}
        ).splitlines()
        assert len(table) == 2 + 2 + 2
        assert len({_display_width(line) for line in table[1:4]}) == 1  # header and model rows
        assert "0.612" in table[2] and "<0.001" in table[3] and "100.0%" in table[3]
        assert "68.5%" in table[4] and table[5].rstrip().endswith("0.500")
        assert ("single layer" in table[2]) == (lang == "en") and ("单层" in table[2]) == (
            lang == "zh"
        )
    finally:
        set_language("en")


def test_area_scale_rejects_bad_shapes() -> None:
    with pytest.raises(ValueError, match=r"\(\.\.\., 2\)"):
        l02.area_scale(l02.warp_network("relu"), torch.zeros(4, 3))
    with pytest.raises(ValueError, match="network must map"):
        l02.area_scale(nn.Linear(2, 3), torch.zeros(4, 2))


def test_best_line_finds_the_best_threshold_and_direction() -> None:
    # Separable by a vertical line: the best line gets every point.
    x = torch.tensor([[-1.0, 0.3], [-2.0, -1.0], [1.0, 2.0], [0.5, -0.4]])
    separable = l02.Dataset2D("separable", x, torch.tensor([0, 0, 1, 1]))
    line = l02.best_line(separable)
    assert line.accuracy == 1.0
    predicted = (separable.x @ line.normal > line.offset).long()
    assert torch.equal(predicted, separable.y)
    # XOR: one blob cut off from the other three, about three quarters.
    xor = l02.make_dataset("xor", seed=0)
    line = l02.best_line(xor)
    assert 0.74 < line.accuracy < 0.82
    predicted = (xor.x @ line.normal > line.offset).long()
    assert (predicted == xor.y).float().mean().item() == pytest.approx(line.accuracy)
    # A trained linear classifier never beats it (up to the angle grid).
    trained = l02.train_stack("xor", depth=0)
    assert trained.accuracy <= line.accuracy + 0.01
    with pytest.raises(ValueError, match="Dataset2D"):
        l02.best_line(xor.x)
    with pytest.raises(ValueError, match="n_angles"):
        l02.best_line(xor, n_angles=0)


def test_single_layer_runs_share_one_cache_entry() -> None:
    a = l02.train_stack("spirals", "none", depth=0)
    b = l02.train_stack("spirals", "relu", depth=0)
    assert a.activation == b.activation == "none" and a.losses == b.losses
    with pytest.raises(ValueError, match="unknown activation"):
        l02.train_stack("spirals", "softsign", depth=0)


def test_train_stack_is_the_lessons_training_cell_as_a_function() -> None:
    # The notebook builds a stack under ml.seeded, trains it with ml.fit and then calls
    # train_stack with the same arguments: both must be the very same run.
    data = l02.make_dataset("xor", seed=5)
    with ml.seeded(5):
        model = l02.make_stack("gelu", depth=2, width=8)
    with l02.one_thread():
        losses = ml.fit(model, data.x, data.y, loss="cross_entropy", steps=20, lr=0.01)
    cached = l02.train_stack("xor", "gelu", depth=2, width=8, steps=20, lr=0.01, seed=5)
    assert cached.losses == losses
    assert cached.accuracy == l02.accuracy(model, data)
    with torch.no_grad():
        assert torch.equal(cached.model(data.x), model(data.x))


def test_lowest_linear_loss_is_the_floor_under_every_linear_classifier() -> None:
    import math

    spirals = l02.make_dataset("spirals", seed=0)
    floor = l02.lowest_linear_loss(spirals)
    assert 0.5 < floor < math.log(2)
    for depth in (0, 4):  # one linear layer, five linear layers: neither gets below the floor
        trained = l02.train_stack("spirals", "none", depth=depth)
        assert trained.losses[-1] > floor - 1e-5, depth
    # XOR's blobs sit symmetrically: no linear classifier does much better than the 50/50 guess.
    assert abs(l02.lowest_linear_loss(l02.make_dataset("xor", seed=0)) - math.log(2)) < 0.005
    # A separable set has no floor above 0: the loss keeps falling.
    x = torch.tensor([[-1.0, 0.3], [-2.0, -1.0], [1.0, 2.0], [0.5, -0.4]])
    separable = l02.Dataset2D("separable", x, torch.tensor([0, 0, 1, 1]))
    assert l02.lowest_linear_loss(separable) < 0.01
    # Deterministic and leaves the caller's random state alone (it draws nothing).
    torch.manual_seed(7)
    expected = torch.rand(2)
    torch.manual_seed(7)
    assert l02.lowest_linear_loss(spirals) == floor
    assert torch.equal(torch.rand(2), expected)
    with pytest.raises(ValueError, match="Dataset2D"):
        l02.lowest_linear_loss(spirals.x)
    with pytest.raises(ValueError, match="max_iter"):
        l02.lowest_linear_loss(spirals, max_iter=0)


def test_stack_batch_copies_start_as_train_stack_does_and_stay_apart() -> None:
    batch = l02.StackBatch(("none", "gelu"), (3, 5), depth=2, width=8)
    assert batch.copies == (("none", 3), ("none", 5), ("gelu", 3), ("gelu", 5))
    assert [tuple(w.shape) for w in batch.weights] == [(4, 8, 2), (4, 8, 8), (4, 2, 8)]
    assert [tuple(b.shape) for b in batch.biases] == [(4, 1, 8), (4, 1, 8), (4, 1, 2)]
    for k, (act, seed) in enumerate(batch.copies):
        with ml.seeded(seed):
            alone = l02.make_stack(act, depth=2, width=8)
        member = batch.member(k)
        for a, b in zip(member.parameters(), alone.parameters(), strict=True):
            assert torch.equal(a, b), (act, seed)
    # Copy k's logits are its own model's on its own rows; another copy's rows do not reach it.
    x = torch.randn(4 * 6, 2)
    with torch.no_grad():
        out = batch(x)
        for k in range(4):
            rows = slice(6 * k, 6 * (k + 1))
            assert torch.allclose(out[rows], batch.member(k)(x[rows]), atol=1e-6)
    x2 = x.clone()
    x2[:6] += 1.0  # change copy 0's points only
    with torch.no_grad():
        assert torch.equal(batch(x2)[6:], out[6:])
    # Each copy gets exactly its own gradient, not 1/C of it (fit's loss is a mean over copies).
    y = torch.randint(0, 2, (24,))
    torch.nn.functional.cross_entropy(batch(x), y).backward()
    member = batch.member(2)
    torch.nn.functional.cross_entropy(member(x[12:18]), y[12:18]).backward()
    assert torch.allclose(batch.weights[0].grad[2], member[0].weight.grad, atol=1e-6)
    with pytest.raises(ValueError, match=r"\(C·N, 2\)"):
        batch(torch.zeros(5, 2))
    with pytest.raises(ValueError, match="member index"):
        batch.member(4)


def test_train_stacks_repeats_train_stack_up_to_rounding() -> None:
    # The batch's copies follow the runs train_stack makes one by one: same start, same data,
    # same gradients; only the order in which a batched product adds differs.
    batched = l02.train_stacks("xor", ("none", "relu"), (0, 1), depth=2, width=8, steps=30)
    assert set(batched) == {("none", 0), ("none", 1), ("relu", 0), ("relu", 1)}
    for (act, seed), run in batched.items():
        alone = l02.train_stack("xor", act, depth=2, width=8, steps=30, seed=seed)
        assert run.activation == act and len(run.losses) == 30
        assert max(abs(a - b) for a, b in zip(run.losses, alone.losses, strict=True)) < 1e-4
        assert abs(run.accuracy - alone.accuracy) <= 0.01
        data = l02.make_dataset("xor", seed=seed)
        assert run.accuracy == l02.accuracy(run.model, data)
    single = l02.train_stacks("xor", ("none",), (0,), depth=0, steps=30)["none", 0]
    assert isinstance(single.model, nn.Linear)
    alone = l02.train_stack("xor", depth=0, steps=30)
    assert max(abs(a - b) for a, b in zip(single.losses, alone.losses, strict=True)) < 1e-5


def test_train_stacks_caches_copies_and_leaves_the_rng_alone() -> None:
    args = ("xor", ("relu",), (2,), 2, 8, 5)
    first = l02.train_stacks(*args)["relu", 2]
    torch.manual_seed(11)
    expected = torch.rand(3)
    torch.manual_seed(11)
    fits_before = ml.fit_call_count()
    again = l02.train_stacks(*args)["relu", 2]
    assert ml.fit_call_count() == fits_before  # from the cache
    assert torch.equal(torch.rand(3), expected)
    assert again.model is not first.model and again.losses == first.losses
    with torch.no_grad():
        for parameter in first.model.parameters():
            parameter.zero_()
    third = l02.train_stacks(*args)["relu", 2]
    assert all(p.abs().sum() > 0 for p in third.model.parameters())


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"activations": ()}, "activations must be distinct"),
        ({"activations": ("relu", "relu")}, "activations must be distinct"),
        ({"activations": "relu"}, "sequence of names"),
        ({"activations": ("softsign",)}, "unknown activation"),
        ({"activations": ("relu",), "depth": 0}, "depth=0"),
        ({"seeds": ()}, "seeds must be distinct"),
        ({"seeds": (1, 1)}, "seeds must be distinct"),
        ({"seeds": (-1,)}, "seed must be a non-negative integer"),
        ({"depth": -1}, "depth must be a non-negative integer"),
        ({"steps": 0}, "steps must be a positive integer"),
        ({"dataset": "circles"}, "unknown data set"),
    ],
)
def test_train_stacks_rejects_bad_input(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        l02.train_stacks(**kwargs)
