"""One builder per figure: seed, run the lesson's experiment small and fast, draw it.

Each builder calls the same public ``minimind_lab`` functions the lesson notebook calls (looked up
on the package when the builder runs), with the notebook's parameters where they are cheap, and
returns the plot function's ``Figure``. Nothing here draws; it only wires results to plots.
"""

from __future__ import annotations

import torch
from matplotlib.figure import Figure

import minimind_lab as ml

from .registry import register_figure


@register_figure(
    "jacobian_blocks", lesson="01",
    caption="Jacobian block norms ‖∂y_i/∂x_j‖ of a tiny block's attention and MLP: attention fills "
            "the lower triangle (it mixes positions), the MLP only the diagonal",
    plot_function="plot_jacobian_blocks",
)
def jacobian_blocks() -> Figure:
    ml.seed_everything(0)
    # Lesson 01's block and sequence: h = 32, 4 heads, T = 8.
    config = ml.MiniMindConfig(hidden_size=32, num_attention_heads=4, num_key_value_heads=4)
    block = ml.Block(config).eval()
    x = torch.randn(1, 8, config.hidden_size)  # (batch=1, T, hidden)
    branches = ml.sublayer_branches(block)
    return ml.plot_jacobian_blocks(
        ml.jacobian_blocks(branches["attention"], x), ml.jacobian_blocks(branches["mlp"], x)
    )


@register_figure(
    "linear_collapse_grids", lesson="02",
    caption="One grid pushed through the same layers with no activation (a linear map: rotate, "
            "scale, shear) and with ReLU, GELU and SiLU (fold, bend, cut)",
    plot_function="plot_warped_grids",
)
def linear_collapse_grids() -> Figure:
    ml.seed_everything(0)
    lines = ml.grid_lines(extent=2.0, n_lines=11)  # (22, 101, 2), as in lesson 02
    grids = {"input grid": lines}
    for act in ml.STACK_ACTIVATIONS:
        grids[act] = ml.warp_grid(lines, ml.warp_network(act))
    return ml.plot_warped_grids(grids)


@register_figure(
    "linear_collapse_regions", lesson="02",
    caption="Decision regions on the spirals data: a deep stack with no activation draws one "
            "straight boundary; the same stack with ReLU fits the spirals",
    plot_function="plot_decision_regions",
)
def linear_collapse_regions() -> Figure:
    ml.seed_everything(0)
    data = ml.make_dataset("spirals", n=400, seed=0)
    regions, accuracies = {}, {}
    for act in ("none", "relu"):  # lesson 02 shows gelu and silu too; they look like relu
        result = ml.train_stack("spirals", act)
        regions[act] = ml.decision_regions(result.model)
        accuracies[act] = result.accuracy
    return ml.plot_decision_regions(regions, data, accuracies)


def _lesson03_curves() -> ml.ActivationCurves:
    """Lesson 03's curves: its five activations on a float64 grid over [-4, 4]."""
    return ml.activation_curves(ml.LESSON03_ACTIVATIONS, ml.activation_grid(-4, 4, 1601))


def _lesson03_minima() -> dict[str, ml.Extremum]:
    return {"silu": ml.activation_minimum("silu"), "gelu": ml.activation_minimum("gelu")}


@register_figure(
    "activation_curves", lesson="03",
    caption="ReLU, GELU, SiLU, sigmoid and tanh on one axis; the minima of SiLU (≈ −0.278 at "
            "x ≈ −1.278) and GELU (≈ −0.170 at x ≈ −0.752) marked",
    plot_function="plot_activation_curves",
)
def activation_curves() -> Figure:
    ml.seed_everything(0)
    return ml.plot_activation_curves(_lesson03_curves(), extrema=_lesson03_minima())


@register_figure(
    "activation_derivatives", lesson="03",
    caption="The derivatives of the same activations (from autograd): ReLU's is 0 or 1, "
            "sigmoid's never exceeds 0.25",
    plot_function="plot_activation_derivatives",
)
def activation_derivatives() -> Figure:
    ml.seed_everything(0)
    return ml.plot_activation_derivatives(_lesson03_curves())


@register_figure(
    "swish_beta", lesson="03",
    caption="Swish_β(x) = x·σ(βx) for several β: β → 0 gives x/2, β = 1 is SiLU, β → ∞ gives "
            "ReLU",
    plot_function="plot_swish_beta",
)
def swish_beta() -> Figure:
    ml.seed_everything(0)
    return ml.plot_swish_beta(ml.swish_family([0.1, 0.5, 1, 3, 10]))


@register_figure(
    "width_sweep", lesson="04",
    caption="Fit quality of a plain FFN against its width m/h (½ to 8) for five activations: "
            "every activation gains from going wide",
    plot_function="plot_width_sweep",
)
def width_sweep() -> Figure:
    ml.seed_everything(0)
    return ml.plot_width_sweep(ml.width_sweep())  # lesson 04's 25 tiny fits


@register_figure(
    "ffn_structure", lesson="05",
    caption="Plain FFN (h → 4h → h) beside SwiGLU (gate and up, h → m, multiplied element-wise, "
            "then m → h), with the tensor shape on every arrow",
    plot_function="plot_ffn_structure",
)
def ffn_structure() -> Figure:
    ml.seed_everything(0)
    return ml.plot_ffn_structure()


@register_figure(
    "gate_distribution", lesson="05",
    caption="Gate values act(gate_proj(x)) of the GLU, ReGLU, GEGLU and SwiGLU FFNs trained in "
            "the equal-budget race: how many sit near zero (closed) and how many pass",
    plot_function="plot_gate_distribution",
)
def gate_distribution() -> Figure:
    ml.seed_everything(0)
    shown = ("GLU", "ReGLU", "GEGLU", "SwiGLU")
    # Lesson 05's race (h = 6, plain width 24, 300 steps); its seed-0 models, trained alone.
    result = ml.equal_budget_experiment(
        hidden_size=6, plain_width=24, seeds=(0,), steps=300, device="cpu",
        contenders={name: ml.BUDGET_CONTENDERS[name] for name in shown},
    )
    samples = {name: ml.gate_activations(result.models[name][0], result.test_inputs)
               for name in shown}
    closed = {name: ml.gate_statistics(samples[name], closed_below=0.1).closed for name in shown}
    title = (f"Closed gates (|a| < 0.1): GLU {closed['GLU']:.0%}, "
             f"ReGLU {closed['ReGLU']:.0%}, SwiGLU {closed['SwiGLU']:.0%}")
    return ml.plot_gate_distribution(samples, closed_below=0.1, title=title)


@register_figure(
    "parameter_parity", lesson="06",
    caption="Parameters of a plain (2·h·m) and a gated (3·h·m) FFN against m/h: the gated FFN at "
            "m = 8h/3 weighs what the plain one does at 4h; real models sit near the crossing",
    plot_function="plot_parameter_parity",
)
def parameter_parity() -> Figure:
    ml.seed_everything(0)
    return ml.plot_parameter_parity(ml.parameter_parity(ml.PUBLISHED_WIDTHS))


@register_figure(
    "moe_routing", lesson="08",
    caption="A batch of tokens of three kinds routed by a softmax router to 2 of 4 experts: "
            "which expert each token goes to, and with what weight",
    plot_function="plot_moe_routing",
)
def moe_routing() -> Figure:
    ml.seed_everything(0)
    x, labels = ml.clustered_tokens(hidden_size=32, tokens_per_kind=8, kinds="ABC")
    moe = ml.MoEFeedForward(ml.MiniMindConfig(hidden_size=32), num_experts=4, top_k=2).eval()
    with torch.no_grad():
        moe(x.reshape(2, 12, 32))  # (batch, tokens, h), as lesson 08 routes it
    return ml.plot_moe_routing(moe.last_routing, token_labels=labels)
