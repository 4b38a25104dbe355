"""Lesson 01: Jacobian-block and perturbation probes, the parameter split, plots and widget."""

from __future__ import annotations

import io

import numpy as np
import pytest
import torch
from matplotlib.figure import Figure
from PIL import Image

import minimind_lab as ml
from minimind_lab.i18n import language
from minimind_lab.i18n.table import display_width
from minimind_lab.lessons import l01
from minimind_lab.widgets import WIDGET_REGISTRY
from minimind_lab.widgets.base import figure_to_png

T, HIDDEN = 6, 16


@pytest.fixture
def block_and_x(generator: torch.Generator) -> tuple[ml.Block, torch.Tensor]:
    config = ml.MiniMindConfig(hidden_size=HIDDEN, num_attention_heads=4, num_key_value_heads=2)
    block = ml.Block(config).eval()
    return block, torch.randn(1, T, HIDDEN, generator=generator)


def test_jacobian_blocks_matches_a_known_linear_map(generator: torch.Generator) -> None:
    # y_i = A x_i + B x_{i-1}: block norms are ‖A‖ on the diagonal, ‖B‖ just below it.
    a = torch.randn(3, 3, generator=generator)
    b = torch.randn(3, 3, generator=generator)

    def shift_mix(x: torch.Tensor) -> torch.Tensor:
        previous = torch.cat([torch.zeros_like(x[:, :1]), x[:, :-1]], dim=1)
        return x @ a.T + previous @ b.T

    blocks = l01.jacobian_blocks(shift_mix, torch.randn(4, 3, generator=generator))
    expected = torch.diag(torch.full((4,), a.norm().item()))
    expected += torch.diag(torch.full((3,), b.norm().item()), diagonal=-1)
    assert blocks.shape == (4, 4)
    assert torch.allclose(blocks, expected, atol=1e-5)


def test_attention_is_causal_and_dense_mlp_is_diagonal(block_and_x) -> None:
    block, x = block_and_x
    branches = l01.sublayer_branches(block)
    attn = l01.jacobian_blocks(branches["attention"], x)
    mlp = l01.jacobian_blocks(branches["mlp"], x)
    lower = torch.tril(torch.ones(T, T, dtype=torch.bool))
    eye = torch.eye(T, dtype=torch.bool)
    assert (attn[~lower] == 0).all() and (attn[lower] > 1e-3).all()
    assert (mlp[~eye] == 0).all() and (mlp[eye] > 1e-3).all()


def test_sublayer_branches_rebuild_the_block(block_and_x) -> None:
    block, x = block_and_x
    branches = l01.sublayer_branches(block)
    with torch.no_grad():
        h = x + branches["attention"](x)
        assert torch.allclose(block(x), h + branches["mlp"](h), atol=1e-6)
    with pytest.raises(ValueError, match="Block"):
        l01.sublayer_branches(torch.nn.Linear(2, 2))


def test_perturbation_response_moves_only_allowed_positions(block_and_x) -> None:
    block, x = block_and_x
    branches = l01.sublayer_branches(block)
    for j in range(T):
        attn = l01.token_perturbation_response(branches["attention"], x, j)
        mlp = l01.token_perturbation_response(branches["mlp"], x, j)
        assert attn.shape == mlp.shape == (T,)
        assert (attn[:j] == 0).all() and (attn[j:] > 0).all()
        assert mlp.nonzero().flatten().tolist() == [j]
    with pytest.raises(ValueError, match="position"):
        l01.token_perturbation_response(branches["mlp"], x, T)
    with pytest.raises(ValueError, match="scale"):
        l01.token_perturbation_response(branches["mlp"], x, 0, scale=0.0)


def test_per_position_outputs_equal_whole_sequence_for_mlp_only(block_and_x) -> None:
    block, x = block_and_x
    branches = l01.sublayer_branches(block)
    with torch.no_grad():
        mlp_gap = (l01.per_position_outputs(branches["mlp"], x) - branches["mlp"](x)).abs()
        attn_gap = (
            l01.per_position_outputs(branches["attention"], x) - branches["attention"](x)
        ).abs()
    assert mlp_gap.max() < 1e-6
    assert attn_gap[0, 0].max() < 1e-6 and attn_gap[0, 1:].max() > 1e-2


def test_probes_reject_batches() -> None:
    with pytest.raises(ValueError, match="one sequence"):
        l01.jacobian_blocks(torch.nn.Identity(), torch.zeros(2, 3, 4))


@pytest.mark.parametrize("name", list(ml.MINIMIND2_MODELS))
def test_parameter_split_of_minimind2(name: str) -> None:
    config = ml.minimind2_config(name)
    gqa = l01.block_parameter_split(config)
    mha = l01.block_parameter_split(config, full_multi_head=True)
    h, m = gqa.hidden_size, gqa.intermediate_size
    assert config.num_key_value_heads == 2  # the config itself is left untouched
    assert gqa.attention == 2 * h * h + 2 * h * (h // 4)  # 8 query heads, 2 kv heads
    assert mha.attention == 4 * h * h
    assert gqa.mlp == mha.mlp == 3 * h * m and gqa.norms == 2 * h
    assert abs(mha.mlp_share - 2 / 3) < 0.01
    assert 0.75 < gqa.mlp_share < 0.78
    assert gqa.total == gqa.attention + gqa.mlp + gqa.norms
    assert abs(gqa.mlp_share + gqa.attention_share + gqa.norms / gqa.total - 1) < 1e-12


def test_parameter_split_matches_the_built_block() -> None:
    config = ml.MiniMindConfig(hidden_size=64, num_attention_heads=4, num_key_value_heads=1)
    split = l01.block_parameter_split(config)
    assert split.total == ml.count_parameters(ml.Block(config))
    with pytest.raises(ValueError, match="MiniMindConfig"):
        l01.block_parameter_split({"hidden_size": 64})


def test_parameter_split_table_lines_up_in_both_languages() -> None:
    split = l01.block_parameter_split(ml.minimind2_config("MiniMind2"))
    mha = l01.block_parameter_split(ml.minimind2_config("MiniMind2"), full_multi_head=True)
    splits = {
        ("MiniMind2", "MiniMind2", "GQA 8q/2kv"): split,
        ("h = 768", "minimind-3", "完整 MHA"): mha,
    }
    english = l01.parameter_split_table(splits).splitlines()
    header = "model version attention h m attn params MLP params MLP share"
    row = f"MiniMind2 MiniMind2 GQA 8q/2kv 768 2048 1,474,560 4,718,592 {split.mlp_share:.3f}"
    assert english[0].split() == header.split() and english[1].split() == row.split()
    with language("zh"):
        chinese = l01.parameter_split_table(splits).splitlines()
    assert chinese[0].split()[:3] == ["模型", "版本", "注意力"]
    assert chinese[1].split() == english[1].split()
    for lines in (english, chinese):  # padded by display width: a CJK character is two columns
        widths = {display_width(line) for line in lines}
        assert len(widths) == 1, lines  # the last column is right-aligned: every line ends there
        # after a CJK label the next columns still start at one display column
        starts = {display_width(line[: line.index("2048")]) for line in lines[1:]}
        assert len(starts) == 1, lines


def _assert_labeled(fig: Figure) -> None:
    assert isinstance(fig, Figure)
    for ax in fig.axes:
        if ax.get_label() == "<colorbar>":
            continue
        assert ax.get_xlabel() and ax.get_title()


def test_plots_return_labeled_figures(block_and_x) -> None:
    block, x = block_and_x
    branches = l01.sublayer_branches(block)
    attn = l01.jacobian_blocks(branches["attention"], x)
    mlp = l01.jacobian_blocks(branches["mlp"], x)
    fig = l01.plot_jacobian_blocks(attn, mlp)
    _assert_labeled(fig)
    assert len([ax for ax in fig.axes if ax.get_label() != "<colorbar>"]) == 2
    assert all(ax.get_ylabel() for ax in fig.axes[:2])
    _assert_labeled(l01.plot_perturbation_response(attn[:, 0], mlp[:, 0], position=0))
    split = l01.block_parameter_split(ml.minimind2_config("MiniMind2-Small"))
    fig = l01.plot_parameter_split({"small": split})
    _assert_labeled(fig)
    # The norms' bar is far below a pixel at real sizes: the legend says so, with their share.
    legend = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert (
        legend[2]
        == f"RMSNorms: at most {split.norms / split.total:.2%}\nof a block, too thin to see"
    )
    # A split whose norms are a visible share (here 10 %) gets the plain label.
    visible = l01.BlockParameterSplit(4, 16, 1, 1, attention=64, mlp=192, norms=8 + 16 + 4)
    fig = l01.plot_parameter_split({"visible": visible})
    assert fig.axes[0].get_legend().get_texts()[2].get_text() == "RMSNorms"
    with pytest.raises(ValueError, match="square"):
        l01.plot_jacobian_blocks(attn[:2], mlp)


def test_perturb_widget_redraws_on_position_change() -> None:
    lesson, builder = WIDGET_REGISTRY["perturb_one_position"]
    assert lesson == "01"
    plot = builder()
    image, text = plot.image.value, plot.text.value
    assert "position <b>2</b>" in text and "position(s) [2] only" in text
    plot.controls["position"].value = 5
    assert plot.redraw_count == 2
    assert plot.image.value != image and plot.text.value != text
    assert "position <b>5</b>" in plot.text.value and "positions 5–7 (3 of 8" in plot.text.value
    assert "position(s) [5] only" in plot.text.value


def _pixels(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png))).astype(int)


def test_perturb_widget_redraws_its_one_figure_like_a_fresh_drawing() -> None:
    plot = WIDGET_REGISTRY["perturb_one_position"][1]()
    view = plot.draw
    figure, bars, ylim = view.figure, view.panel.attention, view.panel.ax.get_ylim()
    # The same chart drawn from scratch, with the widget's fixed y range and legend corner.
    fresh = l01.new_perturbation_panel(l01.SETUP.seq_len, ymax=ylim[1], legend_loc="upper right")
    image = plot.image.value
    for position in range(l01.SETUP.seq_len):
        plot.controls["position"].value = position
        if position != 2:  # the slider starts at 2
            assert plot.image.value != image  # a new picture ...
        image = plot.image.value
        # ... on the same figure, whose y range (and so its ticks) never moves
        assert view.figure is figure and view.panel.attention is bars and len(figure.axes) == 1
        assert view.panel.ax.get_ylim() == ylim
        # Only the bars, marker and title were redrawn, yet the frame is what a full drawing
        # shows: no bar reaches the legend, no stale pixel stays behind.
        responses = view.responses[position]
        l01.update_perturbation_panel(fresh, responses["attention"], responses["mlp"], position)
        reference = _pixels(figure_to_png(fresh.figure))
        assert np.abs(_pixels(image) - reference).mean() < 0.05, position


def test_perturbation_plot_autoscales_and_hides_unmoved_positions(block_and_x) -> None:
    block, x = block_and_x
    branches = l01.sublayer_branches(block)
    attn = l01.token_perturbation_response(branches["attention"], x, 3, scale=1.0)
    mlp = l01.token_perturbation_response(branches["mlp"], x, 3, scale=1.0)
    ax = l01.plot_perturbation_response(attn, mlp, position=3).axes[0]
    top = max(attn.max(), mlp.max())
    assert ax.get_ylim()[0] == 0 and top < ax.get_ylim()[1] < 1.2 * top
    shown = [bar.get_visible() for bar in ax.patches[:T]]
    assert shown == [False, False, False, True, True, True]  # causal: nothing before 3 moves
    assert "Nudge position 3: attention moves 3 positions, the MLP moves 1" == ax.get_title()
    with pytest.raises(ValueError, match="the panel has 6 positions"):
        l01.update_perturbation_panel(l01.new_perturbation_panel(6), attn[:4], mlp[:4], position=0)


def test_widget_shows_a_message_for_an_out_of_range_position() -> None:
    """Old behaviour: a position past the sequence raised a KeyError inside the callback and the
    previous figure stayed up, looking current."""
    plot = WIDGET_REGISTRY["perturb_one_position"][1]()
    good_image = plot.image.value
    plot.controls["position"].max = 20  # as a learner could by editing the slider
    plot.controls["position"].value = 12
    assert plot.last_error == "position must be an integer from 0 to 7, got 12"
    assert plot.image.value != good_image and "Cannot draw this setting" in plot.text.value
    plot.controls["position"].value = 3
    assert plot.last_error is None and "Nudging input position <b>3</b>" in plot.text.value


def test_finite_difference_blocks_tend_to_the_jacobian(block_and_x) -> None:
    block, x = block_and_x
    for branch in l01.sublayer_branches(block).values():
        exact = l01.jacobian_blocks(branch, x)
        gaps = [
            (l01.finite_difference_blocks(branch, x, eps) - exact).abs().max().item()
            for eps in (1.0, 0.1, 0.01)
        ]
        assert gaps[2] < gaps[0] / 10 and gaps[2] < 1e-3 * exact.max()
    # A known linear map: the finite difference is exact at any step size.
    a = torch.randn(3, 3, generator=torch.Generator().manual_seed(0))
    blocks = l01.finite_difference_blocks(lambda s: s @ a.T, torch.randn(4, 3), 0.5)
    assert torch.allclose(blocks, torch.diag(torch.full((4,), a.norm().item())), atol=1e-4)
    for bad in (0.0, -1.0, float("nan"), True):
        with pytest.raises(ValueError, match="eps"):
            l01.finite_difference_blocks(torch.nn.Identity(), torch.zeros(2, 3), bad)


def test_rope_keeps_the_pattern_and_changes_the_weights(block_and_x) -> None:
    block, x = block_and_x
    cos, sin = l01.block_rope_tables(block, T)
    assert cos.shape == sin.shape == (T, HIDDEN // 4)
    plain = l01.jacobian_blocks(l01.sublayer_branches(block)["attention"], x)
    rotated = l01.jacobian_blocks(l01.sublayer_branches(block, rope=(cos, sin))["attention"], x)
    lower = torch.tril(torch.ones(T, T, dtype=torch.bool))
    assert (rotated[~lower] == 0).all() and (rotated[lower] > 1e-3).all()
    assert (rotated - plain).abs().max() > 1e-3
    # Position 0 is not rotated (angle 0), so its output is the same with and without RoPE.
    assert torch.allclose(rotated[0], plain[0], atol=1e-6)
    # The branch with RoPE is what the block itself computes when given the tables.
    with torch.no_grad():
        h = x + l01.sublayer_branches(block, rope=(cos, sin))["attention"](x)
        expected = h + l01.sublayer_branches(block)["mlp"](h)
        assert torch.allclose(block(x, (cos, sin)), expected, atol=1e-6)


def test_sublayer_branches_reject_bad_rope_tables(block_and_x) -> None:
    block, _ = block_and_x
    cos, sin = l01.block_rope_tables(block, T)
    for bad in ((cos,), (cos, sin[:, :2]), (cos[:, :2], sin[:, :2]), "rope"):
        with pytest.raises(ValueError, match="rope"):
            l01.sublayer_branches(block, rope=bad)
    with pytest.raises(ValueError, match="Block"):
        l01.block_rope_tables(torch.nn.Linear(2, 2), T)
