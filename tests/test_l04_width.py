"""Lesson 04's machinery: the width task, batched seeded fits, the sweep, the equal-parameter
control, sparsity, plots and the widget."""

from __future__ import annotations

import io

import numpy as np
import pytest
import torch
from matplotlib.figure import Figure
from PIL import Image

import minimind_lab as ml
from minimind_lab.i18n import language, table
from minimind_lab.lessons import l04
from minimind_lab.plots.style import PALETTE, series_style
from minimind_lab.widgets import WIDGET_REGISTRY
from minimind_lab.widgets.base import figure_to_png

#: A cheap setting for tests: few steps, the lesson's task.
QUICK = {"steps": 30}


def _labeled(fig: Figure) -> None:
    assert isinstance(fig, Figure)
    for ax in fig.axes:
        assert ax.get_xlabel() and ax.get_ylabel() and ax.get_title()


def _pixels(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png))).astype(int)


@pytest.mark.parametrize(("h", "m"), [(8, 32), (64, 256), (512, 2048)])
def test_plain_ffn_parameters_are_2hm(h: int, m: int) -> None:
    counted = ml.count_parameters(ml.PlainFFN(h, m))
    assert counted == ml.ffn_parameter_count(h, m, gated=False) == 2 * h * m
    if m == 4 * h:
        assert counted == 8 * h * h


def test_width_task_shapes_and_determinism() -> None:
    task = l04.make_width_task()
    assert task.hidden_size == l04.SETUP.hidden_size == 8
    n = l04.SETUP.n_tokens
    assert task.t.shape == (n,) and task.inputs.shape == task.targets.shape == (n, 8)
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
    for bad in (0.0, -1.0, float("nan"), True):
        with pytest.raises(ValueError, match="positive number"):
            l04.ratio_to_width(8, bad)


def test_loss_label_keeps_two_significant_digits() -> None:
    assert l04.loss_label(0.22821) == "0.23" and l04.loss_label(0.002641) == "0.0026"
    assert l04.loss_label(0.2971) == "0.30" and l04.loss_label(1) == "1.0"  # trailing zeros kept
    for bad in (-0.1, float("nan"), True, "0.1"):
        with pytest.raises(ValueError, match="non-negative number"):
            l04.loss_label(bad)


def test_mlp_stack_shapes_and_parameters() -> None:
    plain = l04.mlp_stack((8, 32, 8), "relu")
    assert isinstance(plain, ml.PlainFFN) and plain.intermediate_size == 32
    deep = l04.mlp_stack((8, 16, 16, 16, 16, 8), "gelu")
    assert isinstance(deep, torch.nn.Sequential)
    assert ml.count_parameters(deep) == ml.count_parameters(l04.mlp_stack((8, 64, 8), "gelu"))
    assert deep(torch.randn(5, 8)).shape == (5, 8)
    for bad in ((8, 8), (8, 0, 8), (8, 2.5, 8)):
        with pytest.raises(ValueError, match="at least three positive integers"):
            l04.mlp_stack(bad, "relu")


def test_mlp_batch_copies_start_as_the_seeded_modules_and_never_interact() -> None:
    batch = l04.MLPBatch((8, 6, 8), ("relu", "tanh"), seeds=(0, 3))
    assert batch.copies == (("relu", 0), ("relu", 3), ("tanh", 0), ("tanh", 3))
    x = torch.randn(4, 10, 8)
    out = batch(x)
    for k, (act, seed) in enumerate(batch.copies):
        with ml.seeded(seed):
            alone = ml.PlainFFN(8, 6, act)
        member = batch.member(k)
        assert torch.equal(member.up_proj.weight, alone.up_proj.weight)
        assert torch.equal(member.down_proj.weight, alone.down_proj.weight)
        torch.testing.assert_close(out[k], alone(x[k]), rtol=1e-5, atol=1e-6)
    # Changing one copy's input changes no other copy's output.
    x2 = x.clone()
    x2[1] += 1.0
    out2 = batch(x2)
    assert not torch.equal(out2[1], out[1])
    for k in (0, 2, 3):
        assert torch.equal(out2[k], out[k])
    # Each copy gets exactly its own gradient, not 1/C of it (fit's loss is a mean over copies).
    y = torch.randn(4, 10, 8)
    torch.nn.functional.mse_loss(batch(x), y).backward()
    member = batch.member(2)
    torch.nn.functional.mse_loss(member(x[2]), y[2]).backward()
    torch.testing.assert_close(batch.weights[0].grad[2], member.up_proj.weight.grad)
    with pytest.raises(ValueError, match="expected"):
        batch(torch.randn(3, 10, 8))
    with pytest.raises(ValueError, match="distinct"):
        l04.MLPBatch((8, 6, 8), ("relu",), seeds=(1, 1))
    with pytest.raises(ValueError, match="member index"):
        batch.member(4)


def test_fit_group_records_each_copys_own_loss_and_is_cached_and_seeded() -> None:
    torch.manual_seed(123)
    expected = torch.rand(3)
    torch.manual_seed(123)
    calls = ml.fit_call_count()
    runs = l04.fit_group(("relu", "gelu"), (8, 8, 8), seeds=(0, 1), **QUICK)
    assert ml.fit_call_count() == calls + 1  # one training for all four copies
    assert torch.equal(torch.rand(3), expected)  # the caller's RNG was not consumed
    relu = runs["relu"]
    assert relu.seeds == (0, 1) and len(relu.fits[0].losses) == 30
    task = l04.make_width_task()
    for f in (*relu.fits, *runs["gelu"].fits):
        # The recorded last loss is the MSE of the model before its last step; the stored
        # prediction is after it, so it is at least as good here (loss still falling).
        with torch.no_grad():
            final = float((f.model(task.inputs) - task.targets).pow(2).mean())
        assert final <= f.final_loss * 1.01
        torch.testing.assert_close(f.prediction, f.model(task.inputs).detach())
        assert f.losses[-1] < f.losses[0] and f.parameters == 2 * 8 * 8
    again = l04.fit_group(("relu", "gelu"), (8, 8, 8), seeds=(0, 1), **QUICK)
    assert ml.fit_call_count() == calls + 1  # from the cache
    assert again["relu"].final_losses == relu.final_losses
    assert again["relu"].fits[0].model is not relu.fits[0].model
    relu.fits[0].prediction.zero_()  # mutating one caller's result leaves the cache intact
    third = l04.fit_group(("relu", "gelu"), (8, 8, 8), seeds=(0, 1), **QUICK)
    assert torch.equal(third["relu"].fits[0].prediction, again["relu"].fits[0].prediction)
    # Different seeds are different runs.
    assert relu.fits[0].losses != relu.fits[1].losses


def test_a_batched_copy_follows_the_single_fit_it_stands_for() -> None:
    # The notebook's claim: copy (relu, seed 0) trains like PlainFFN + ml.fit alone.
    task = l04.make_width_task()
    with ml.seeded(0):
        alone = ml.PlainFFN(8, 32, "relu")
    losses = ml.fit(alone, task.inputs, task.targets, steps=50, lr=l04.SETUP.lr)
    copy = l04.fit_width("relu", 4.0, steps=50).fits[0]
    for a, b in zip(losses, copy.losses, strict=True):
        assert abs(a - b) <= 1e-4 * a


def test_copy_adam_moves_each_copy_as_ml_adam_at_its_own_rate() -> None:
    gen = torch.Generator().manual_seed(0)
    start = torch.randn(3, 4, 5, generator=gen)
    grads = [torch.randn(3, 4, 5, generator=gen) for _ in range(20)]
    lrs = (0.01, 0.03, 0.1)
    stacked = torch.nn.Parameter(start.clone())
    copy_adam = l04.CopyAdam([stacked], lrs)
    alone = [torch.nn.Parameter(start[k].clone()) for k in range(3)]
    adams = [ml.Adam([w], lr=lr) for w, lr in zip(alone, lrs, strict=True)]
    for grad in grads:
        stacked.grad = grad.clone()
        copy_adam.step()
        for k, (w, adam) in enumerate(zip(alone, adams, strict=True)):
            w.grad = grad[k].clone()
            adam.step()
    for k in range(3):  # the same operations in the same order: equal bit for bit
        assert torch.equal(stacked.detach()[k], alone[k].detach())
    with pytest.raises(ValueError, match="one slice per copy"):
        l04.CopyAdam([torch.nn.Parameter(torch.zeros(2, 4))], lrs)
    with pytest.raises(ValueError, match="positive finite"):
        l04.CopyAdam([stacked], (0.01, 0.0, 0.1))


def test_fit_rates_gives_each_rate_the_runs_of_its_own_batch() -> None:
    # The rate scan's claim: training the rates together changes no run. Each rate's runs are
    # the ones fit_group trains at that rate alone, bit for bit (the same operations in the
    # same order), for a plain FFN and the deeper control alike.
    for widths in ((8, 8, 8), (8, 16, 16, 16, 16, 8)):
        together = l04.fit_rates(("relu", "silu"), widths, (0.01, 0.1), seeds=(0, 1), **QUICK)
        assert list(together) == [0.01, 0.1]
        for lr, runs in together.items():
            alone = l04.fit_group(("relu", "silu"), widths, seeds=(0, 1), lr=lr, **QUICK)
            for act in ("relu", "silu"):
                assert runs[act].lr == lr and runs[act].seeds == (0, 1)
                for mine, theirs in zip(runs[act].fits, alone[act].fits, strict=True):
                    assert mine.losses == theirs.losses
                    assert torch.equal(mine.prediction, theirs.prediction)
    first = l04.fit_rates(("relu", "silu"), (8, 8, 8), (0.01, 0.1), seeds=(0, 1), **QUICK)
    again = l04.fit_rates(("relu", "silu"), (8, 8, 8), (0.01, 0.1), seeds=(0, 1), **QUICK)
    assert again[0.1]["relu"].final_losses == first[0.1]["relu"].final_losses  # cached ...
    assert again[0.1]["relu"].fits[0].model is not first[0.1]["relu"].fits[0].model  # ... copies
    with pytest.raises(ValueError, match="distinct"):
        l04.fit_rates(("relu",), (8, 8, 8), (0.1, 0.1))
    with pytest.raises(ValueError, match="start and end alike"):
        l04.fit_rates(("relu",), (8, 8, 4), (0.1,))


def test_a_copy_at_a_higher_rate_follows_the_single_fit_it_stands_for() -> None:
    task = l04.make_width_task()
    with ml.seeded(0):
        alone = ml.PlainFFN(8, 32, "relu")
    losses = ml.fit(alone, task.inputs, task.targets, steps=50, lr=0.1)
    copy = l04.fit_rates(("relu", "tanh"), (8, 32, 8), (0.03, 0.1), steps=50)[0.1]["relu"]
    for a, b in zip(losses, copy.fits[0].losses, strict=True):
        assert abs(a - b) <= 1e-4 * a


def test_fit_validation() -> None:
    with pytest.raises(ValueError, match="steps"):
        l04.fit_width("relu", 1.0, steps=0)
    with pytest.raises(ValueError, match="unknown activation"):
        l04.fit_width("mish", 1.0, steps=5)
    with pytest.raises(ValueError, match="not in its group"):
        l04.fit_mlp("relu", (8, 8, 8), group=("gelu",))
    with pytest.raises(ValueError, match="start and end alike"):
        l04.fit_group(("relu",), (8, 8, 4))
    with pytest.raises(ValueError, match="lr"):
        l04.fit_group(("relu",), (8, 8, 8), lr=0.0)
    with pytest.raises(ValueError, match="distinct"):
        l04.fit_group(("relu", "relu"), (8, 8, 8))
    with pytest.raises(ValueError, match="at least one"):
        l04.width_sweep([], [1.0])


def test_runs_statistics_and_steps_to() -> None:
    fit = l04.fit_width("relu", 1.0, **QUICK).fits[0]
    fits = tuple(
        l04.WidthFit("relu", (8, 8, 8), s, 128, losses, fit.prediction, fit.model)
        for s, losses in ((0, (1.0, 0.5, 0.2)), (1, (1.0, 0.9, 0.8)), (2, (1.0, 0.4, 0.1)))
    )
    runs = l04.WidthRuns(fits)
    assert runs.final_losses == (0.2, 0.8, 0.1) and runs.median_loss == 0.2
    assert runs.loss_range == (0.1, 0.8)
    assert runs.steps_to(0.45) == (3, None, 2) and runs.median_steps_to(0.45) == 3
    assert runs.median_steps_to(0.15) is None  # only one seed gets below 0.15
    with pytest.raises(ValueError, match="share"):
        l04.WidthRuns(
            (fits[0], l04.WidthFit("gelu", (8, 8, 8), 0, 128, (1.0,), fit.prediction, fit.model))
        )


def test_wide_beats_narrow_for_every_seed() -> None:
    sweep = l04.width_sweep(["relu", "sigmoid"], [0.5, 8.0])
    for act in ("relu", "sigmoid"):
        narrow, wide = sweep[act]
        assert narrow.intermediate_size == 4 and wide.intermediate_size == 64
        assert min(narrow.final_losses) > 0.1
        assert max(wide.final_losses) < min(narrow.final_losses) / 4


def test_equal_parameter_control_holds_equal_weights() -> None:
    control = l04.equal_parameter_control(["relu"], **QUICK)
    assert control.parameters == 1024
    for runs in (control.wide["relu"], control.deep["relu"], control.linear):
        assert {f.parameters for f in runs.fits} == {1024}
        assert {ml.count_parameters(f.model) for f in runs.fits} == {1024}
    assert control.deep["relu"].widths == (8, 16, 16, 16, 16, 8)
    assert control.linear.act == "identity"
    with pytest.raises(ValueError, match="equal parameters"):
        l04.equal_parameter_control(["relu"], deep_width=12, **QUICK)


def _runs(act: str, finals: tuple[float, ...], lr: float = 0.01) -> l04.WidthRuns:
    """Synthetic runs: one seed per final loss, each with a one-step loss curve."""
    fit = l04.fit_width("relu", 1.0, **QUICK).fits[0]
    return l04.WidthRuns(
        tuple(
            l04.WidthFit(act, (8, 8, 8), s, 128, (v,), fit.prediction, fit.model, lr)
            for s, v in enumerate(finals)
        )
    )


def test_runs_know_their_learning_rate_and_best_rate_picks_the_lowest_median() -> None:
    assert l04.fit_width("relu", 1.0, lr=0.03, **QUICK).lr == 0.03
    slow, fast = _runs("relu", (0.3, 0.2, 0.4)), _runs("relu", (0.1, 0.5, 0.05), 0.03)
    wild = _runs("relu", (0.01, 0.9, 0.8), 0.1)  # the lowest single seed, not the lowest median
    assert l04.best_rate([slow, fast, wild]) is fast and fast.lr == 0.03
    with pytest.raises(ValueError, match="one setting"):
        l04.best_rate([slow, _runs("gelu", (0.1, 0.1, 0.1))])
    with pytest.raises(ValueError, match="at least one"):
        l04.best_rate([])
    with pytest.raises(ValueError, match="share"):  # one WidthRuns, one learning rate
        l04.WidthRuns((slow.fits[0], fast.fits[1]))


def test_rate_scan_reads_each_activation_at_its_own_best_rate() -> None:
    calls = ml.fit_call_count()
    scan = l04.rate_scan((0.01, 0.1), ["relu", "sigmoid"], [0.5, 2.0], **QUICK)
    assert scan.lrs == (0.01, 0.1) and ml.fit_call_count() <= calls + 4  # one fit per width, rate
    best = scan.at_best()
    for act in ("relu", "sigmoid"):
        for i, runs in enumerate(best[act]):
            candidates = [scan.sweeps[lr][act][i] for lr in scan.lrs]
            assert runs.median_loss == min(r.median_loss for r in candidates)
            assert runs.lr in scan.lrs and runs.widths == candidates[0].widths
    # 30 steps at 0.01 barely move a sigmoid FFN: its best rate is the higher one.
    assert {runs.lr for runs in best["sigmoid"]} == {0.1}
    with pytest.raises(ValueError, match="distinct"):
        l04.rate_scan((0.01, 0.01))
    with pytest.raises(ValueError, match="lr must be"):
        l04.rate_scan((0.01, -1.0))
    with pytest.raises(ValueError, match="as lrs"):
        l04.rate_scan(lr=0.01)


def test_best_rate_control_keeps_equal_weights_at_each_shapes_best_rate() -> None:
    control = l04.best_rate_control((0.01, 0.1), activations=["relu", "tanh"], **QUICK)
    assert control.parameters == 1024 and set(control.wide) == set(control.deep) == {"relu", "tanh"}
    at = {lr: l04.equal_parameter_control(["relu", "tanh"], lr=lr, **QUICK) for lr in (0.01, 0.1)}
    for act in ("relu", "tanh"):
        deep = [c.deep[act] for c in at.values()]
        assert control.deep[act].median_loss == min(r.median_loss for r in deep)
        assert {ml.count_parameters(f.model) for f in control.deep[act].fits} == {1024}
    assert control.linear.median_loss == min(c.linear.median_loss for c in at.values())
    with pytest.raises(ValueError, match="as lrs"):
        l04.best_rate_control(lr=0.01)


def test_ranking_orders_activations_by_median_at_each_width() -> None:
    sweep = {
        "relu": [_runs("relu", (0.3, 0.2, 0.4)), _runs("relu", (0.01,) * 3)],
        "tanh": [_runs("tanh", (0.1,) * 3), _runs("tanh", (0.02,) * 3)],
    }
    order = l04.ranking(sweep)
    assert [[act for act, _ in per] for per in order] == [["tanh", "relu"], ["relu", "tanh"]]
    assert order[0][0][1] == pytest.approx(0.1) and order[0][1][1] == pytest.approx(0.3)
    with pytest.raises(ValueError, match="same widths"):
        l04.ranking({"relu": sweep["relu"], "tanh": sweep["tanh"][:1]})


def test_the_printed_tables_hold_the_numbers_and_line_up_in_chinese() -> None:
    sweep = l04.width_sweep(["relu", "sigmoid"], [0.5, 8.0], **QUICK)
    text = l04.sweep_table(sweep, show_rates=True)
    lines = text.splitlines()
    assert lines[0].split() == ["median", "MSE", "m/h", "=", "½", "m/h", "=", "8", "½", "→", "8"]
    relu = sweep["relu"]
    fall = relu[0].median_loss / relu[-1].median_loss
    assert lines[1].split() == [
        "ReLU",
        l04.loss_label(relu[0].median_loss),
        l04.loss_label(relu[-1].median_loss),
        f"÷{float(f'{fall:.2g}'):g}",
    ]
    assert lines[2].split() == ["at", "lr", "0.01", "0.01"] and lines[-2].startswith("lowest")
    assert "never" in l04.steps_table(sweep, 1e-9)
    table = l04.runs_table({"ReLU, m/h = 8": relu[-1]}, 1e-9, title="3 seeds")
    assert table.splitlines()[1].split()[-1] == "never" and "–" in table
    control = l04.equal_parameter_control(["relu"], **QUICK)
    assert l04.control_table(control).splitlines()[0].split()[-3:] == ["deep", "/", "wide"]
    assert "linear (none)" in l04.control_table(control, show_rates=True)
    task = l04.make_width_task()
    stats = {
        act: [
            l04.hidden_sparsity(l04.hidden_activations(f.model, task.inputs)) for f in runs[0].fits
        ]
        for act, runs in sweep.items()
    }
    assert l04.sparsity_table(stats).splitlines()[0].startswith("3 seeds")
    with pytest.raises(ValueError, match="at least one"):
        l04.sparsity_table({})
    with language("zh"):
        assert l04.sweep_table(sweep).splitlines()[0].startswith("MSE 中位数")


def test_the_tables_are_padded_by_the_courses_one_helper() -> None:
    assert l04.text_table is table.text_table  # no display-width code of the lesson's own
    sweep = l04.width_sweep(["relu", "sigmoid"], [0.5, 8.0], **QUICK)
    with language("zh"):
        lines = l04.sweep_table(sweep, show_rates=True).splitlines()
    # Rows: header, ReLU, its rates, sigmoid, its rates, lowest, best two apart. Columns end at
    # one display column, CJK labels (two columns a character) included: the rows with a last
    # entry end together, and the others end together at the column before it.
    assert lines[0].startswith("MSE 中位数") and len(lines) == 7
    assert len({table.display_width(lines[i]) for i in (0, 1, 3)}) == 1
    assert len({table.display_width(lines[i]) for i in (2, 4, 5, 6)}) == 1


def test_printed_lines_say_yes_no_and_list_values_in_the_readers_language() -> None:
    assert [l04.truth(True), l04.truth(False), l04.truth(0)] == ["True", "False", "False"]
    assert l04.listing([0.5, 0.86, 3.0]) == "0.5, 0.86, 3.0"
    assert l04.listing(v for v in ["0.024"]) == "0.024" and l04.listing([]) == ""
    with language("zh"):
        assert [l04.truth(True), l04.truth(False)] == ["是", "否"]
        assert l04.listing(["77.5%", "54.2%", "66.5%"]) == "77.5%、54.2%、66.5%"
        assert l04.listing(["{a}", "b"]) == "{a}、b"  # a value's braces are printed as they are


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
    # Unit 0 is zero for both tokens: dead. Of the 3 live units token 0 has 1 zero, token 1 none.
    assert stats.dead_units == 1
    assert stats.live_zero == pytest.approx((1 / 3 + 0) / 2)
    assert stats.live_zero_range == pytest.approx((0.0, 1 / 3))
    with pytest.raises(ValueError, match=r"\(N, m\)"):
        l04.hidden_sparsity(torch.zeros(5))
    with pytest.raises(ValueError, match="PlainFFN"):
        l04.hidden_activations(torch.nn.Linear(4, 4), x)


def test_relu_is_exactly_sparse_silu_is_not() -> None:
    ffn_relu = ml.PlainFFN(32, 128, act="relu")
    ffn_silu = ml.PlainFFN(32, 128, act="silu")
    ffn_silu.load_state_dict(ffn_relu.state_dict())
    x = torch.randn(512, 32, generator=torch.Generator().manual_seed(0))
    relu = l04.hidden_sparsity(l04.hidden_activations(ffn_relu, x))
    silu = l04.hidden_sparsity(l04.hidden_activations(ffn_silu, x))
    assert 0.45 < relu.exact_zero < 0.55 and silu.exact_zero == 0.0
    assert relu.units_used < silu.units_used and silu.dead_units == 0


def test_width_plots_return_labeled_figures() -> None:
    task = l04.make_width_task()
    narrow = l04.fit_width("relu", 0.5, **QUICK)
    wide = l04.fit_width("relu", 2.0, **QUICK)
    _labeled(l04.plot_width_fit(narrow.fits[0], task))
    fig = l04.plot_width_fits([narrow.fits[0], wide.fits[0]], task)
    _labeled(fig)
    wave_colors = {line.get_color() for line in fig.axes[0].get_lines()}
    assert not wave_colors & set(PALETTE)  # waves never borrow an activation's colour
    fig = l04.plot_width_loss_curves([narrow, wide], threshold=0.05)
    _labeled(fig)
    assert fig.axes[0].get_yscale() == "log"
    labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert labels == ["m/h = ½", "m/h = 2", "MSE 0.05"]
    assert "3 per width" in fig.axes[0].get_title()
    fig = l04.plot_width_sweep({"relu": [narrow, wide]})
    _labeled(fig)
    assert "median of 3 seeds" in fig.axes[0].get_title()
    control = l04.equal_parameter_control(["relu", "gelu"], **QUICK)
    fig = l04.plot_parameter_control(control)
    _labeled(fig)
    assert "1,024 weights" in fig.axes[0].get_title()
    stats = {
        a: l04.hidden_sparsity(l04.hidden_activations(f.model, task.inputs))
        for a, f in (("relu", narrow.fits[0]), ("gelu", control.wide["gelu"].fits[0]))
    }
    fig = l04.plot_hidden_sparsity(stats)
    _labeled(fig)
    assert "exactly 0 and below 0.05·rms" in fig.axes[0].get_title()
    fig = l04.plot_width_dashboard(wide.fits[0], task, reference=narrow.fits[0])
    _labeled(fig)
    assert "2·h·m = 256 parameters" in fig.get_suptitle() and "seed 0" in fig.get_suptitle()
    with pytest.raises(ValueError, match="outside"):
        l04.plot_width_fit(narrow.fits[0], task, coords=[8])
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
    calls = ml.fit_call_count()
    ratio.value = 8.0
    assert ml.fit_call_count() == calls  # a redraw never trains
    assert widget.redraw_count == count + 1 and widget.image.value != before
    assert "m = 64" in widget.text.value and "2·h·m = 1,024" in widget.text.value
    runs = l04.fit_width("relu", 8.0)
    low, high = runs.loss_range
    # Losses are printed to two significant digits (a third would be rounding noise).
    assert f"median {runs.median_loss:#.2g} over seeds 0, 1, 2" in widget.text.value
    assert f"(range {low:#.2g}–{high:#.2g})" in widget.text.value
    act.value = "silu"
    assert "SiLU" in widget.text.value
    assert "0% of its hidden entries exactly 0, 0 dead units" in widget.text.value
    ratio.value = 0.5
    assert "m = 4 " in widget.text.value and "2·h·m = 64" in widget.text.value
    narrow = l04.fit_width("silu", 0.5).median_loss  # about 0.2: four decimals would show noise
    assert f"median {narrow:#.2g} " in widget.text.value
    assert f"{narrow:.4f}" not in widget.text.value
    _labeled(widget.draw.figure)
    with pytest.raises(ValueError, match="width ratio m/h must be one of"):
        l04.draw_width(3.0, "relu")


def test_width_widget_redraws_its_one_figure_on_one_scale_and_matches_a_fresh_drawing() -> None:
    widget = l04.width_explorer()
    view = widget.draw
    board = view.dashboard
    figure, limits = view.figure, (board.fit_ax.get_ylim(), board.loss_ax.get_ylim())
    image = widget.image.value
    for name, value in (("act", "tanh"), ("ratio", 0.5), ("act", "sigmoid"), ("ratio", 2.0)):
        widget.controls[name].value = value
        assert widget.image.value != image  # a new picture ...
        image = widget.image.value
        assert view.figure is figure  # ... on the same figure, with the same axes
        assert (board.fit_ax.get_ylim(), board.loss_ax.get_ylim()) == limits
        with_reference, alone = board.legends  # no reference at the narrowest width
        narrowest = widget.controls["ratio"].value == 0.5
        assert alone.get_visible() is narrowest is not with_reference.get_visible()
    labels = [t.get_text() for t in board.legends[0].get_texts()]
    assert labels == ["m/h = ½", "m/h = 2"]
    assert board.legends[0].legend_handles[1].get_color() == series_style("sigmoid")["color"]
    # Every fit the widget can show lies inside the shared ranges.
    (fit_low, fit_high), (loss_low, loss_high) = limits
    for ratio in l04.SETUP.ratios:
        for act in l04.SETUP.activations:
            fit = l04.fit_width(act, ratio).fits[0]
            shown = fit.prediction[:, list(board.coords)]  # the output coordinates drawn
            assert fit_low < float(shown.min()) and float(shown.max()) < fit_high
            assert loss_low < min(fit.losses) and max(fit.losses) < loss_high
    # Drawn by updating, the frame is what a figure drawn from scratch shows.
    fresh, html = l04.draw_width(2.0, "sigmoid")
    assert html == widget.text.value
    assert np.abs(_pixels(widget.image.value) - _pixels(figure_to_png(fresh))).mean() < 0.05
    widget.controls["ratio"].value = 0.5
    fresh, html = l04.draw_width(0.5, "sigmoid")
    assert html == widget.text.value and "m/h = ½" in fresh.get_suptitle()
    assert np.abs(_pixels(widget.image.value) - _pixels(figure_to_png(fresh))).mean() < 0.05
