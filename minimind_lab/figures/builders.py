"""One builder per figure: seed, run the lesson's experiment small and fast, draw it.

Each builder calls the same lesson functions the notebook calls (``minimind_lab.lessons.lNN``),
with the lesson's ``SETUP``, and returns the plot function's ``Figure``. Nothing here draws; it
only wires results to plots.
"""

from __future__ import annotations

import torch
from matplotlib.figure import Figure

from ..i18n import tr, tr_noop
from ..lessons import l01, l02, l03, l04, l05, l06, l08, l09, l10
from ..minimind import MiniMindConfig
from ..moe import MoEFeedForward
from ..runtime import seeded
from .registry import register_figure


@register_figure(
    "jacobian_blocks",
    lesson="01",
    caption=tr_noop(
        "Jacobian block norms ‖∂y_i/∂x_j‖ of a tiny block's attention and MLP: attention fills "
        "the lower triangle (it mixes positions), the MLP only the diagonal"
    ),
    plot_function="plot_jacobian_blocks",
)
def jacobian_blocks() -> Figure:
    block, x = l01.tiny_block_and_sequence(l01.SETUP)  # (T, hidden)
    branches = l01.sublayer_branches(block)
    return l01.plot_jacobian_blocks(
        l01.jacobian_blocks(branches["attention"], x), l01.jacobian_blocks(branches["mlp"], x)
    )


@register_figure(
    "linear_collapse_grids",
    lesson="02",
    caption=tr_noop(
        "One grid pushed through the same layers with no activation (a linear map: rotate, "
        "scale, shear) and with ReLU (bends lines, flattens regions), GELU and SiLU (bend lines, "
        "fold the plane over: black dots mark where the map's area scale is negative)"
    ),
    plot_function="plot_warped_grids",
)
def linear_collapse_grids() -> Figure:
    setup = l02.SETUP
    lines = l02.grid_lines(extent=setup.grid_extent, n_lines=setup.grid_lines)  # (2L, P, 2)
    grids, scales = {"input grid": lines}, {}
    for act in l02.STACK_ACTIVATIONS:
        network = l02.warp_network(act)
        grids[act] = l02.warp_grid(lines, network)
        scales[act] = l02.area_scale(network, lines)  # (2L, P)
    return l02.plot_warped_grids(grids, area_scales=scales)


@register_figure(
    "linear_collapse_regions",
    lesson="02",
    caption=tr_noop(
        "Decision regions on the spirals data: a deep stack with no activation draws one "
        "straight boundary; the same stack with ReLU fits the spirals"
    ),
    plot_function="plot_decision_regions",
    trained=True,
)
def linear_collapse_regions() -> Figure:
    setup = l02.SETUP
    data = l02.make_dataset(setup.dataset, n=setup.n_points, seed=setup.seed)
    regions, accuracies = {}, {}
    stacks = l02.train_stacks(  # the lesson's batch of 4 activations × 3 seeds; seed 0 drawn
        setup.dataset,
        l02.STACK_ACTIVATIONS,
        setup.seeds,
        setup.depth,
        setup.width,
        setup.steps,
        setup.lr,
    )
    for act in ("none", "relu"):  # lesson 02 shows gelu and silu too; they look like relu
        result = stacks[act, setup.seed]
        regions[act] = l02.decision_regions(result.model)
        accuracies[act] = result.accuracy
    return l02.plot_decision_regions(regions, data, accuracies)


def _lesson03_curves() -> l03.ActivationCurves:
    """Lesson 03's curves: its five activations on its float64 grid."""
    lo, hi = l03.SETUP.curve_range
    grid = l03.activation_grid(lo, hi, l03.SETUP.curve_points)
    return l03.activation_curves(l03.LESSON03_ACTIVATIONS, grid)


def _lesson03_minima() -> dict[str, l03.Extremum]:
    return {"silu": l03.activation_minimum("silu"), "gelu": l03.activation_minimum("gelu")}


@register_figure(
    "activation_curves",
    lesson="03",
    caption=tr_noop(
        "ReLU, GELU, SiLU, sigmoid and tanh on one axis; an inset zooms on the dips and marks "
        "the minima of SiLU (≈ −0.278 at x ≈ −1.278) and GELU (≈ −0.170 at x ≈ −0.752)"
    ),
    plot_function="plot_activation_curves",
)
def activation_curves() -> Figure:
    return l03.plot_activation_curves(_lesson03_curves(), extrema=_lesson03_minima())


@register_figure(
    "activation_derivatives",
    lesson="03",
    caption=tr_noop(
        "The derivatives of the same activations (from autograd): ReLU's is 0 or 1, "
        "sigmoid's never exceeds 0.25"
    ),
    plot_function="plot_activation_derivatives",
)
def activation_derivatives() -> Figure:
    return l03.plot_activation_derivatives(_lesson03_curves())


@register_figure(
    "swish_beta",
    lesson="03",
    caption=tr_noop(
        "Swish_β(x) = x·σ(βx) for several β: β → 0 gives x/2, β = 1 is SiLU, β → ∞ gives ReLU"
    ),
    plot_function="plot_swish_beta",
)
def swish_beta() -> Figure:
    return l03.plot_swish_beta(l03.swish_family(l03.SETUP.swish_betas))


@register_figure(
    "width_sweep",
    lesson="04",
    caption=tr_noop(
        "Final MSE of a plain FFN on lesson 04's wave task against its width m/h (½ to 8, "
        "64 to 1,024 weights), five activations, median and range of 3 seeds: lower at m/h = 8 "
        "than at ½ for every activation (at 16× the weights; lesson 04's control compares equal "
        "weights)"
    ),
    plot_function="plot_width_sweep",
    trained=True,
)
def width_sweep() -> Figure:
    s = l04.SETUP  # 5 widths, each one batched training of 5 activations × 3 seeds
    sweep = l04.width_sweep(
        s.activations,
        s.ratios,
        s.hidden_size,
        seeds=s.seeds,
        steps=s.steps,
        lr=s.lr,
        n_tokens=s.n_tokens,
        task_seed=s.task_seed,
    )
    return l04.plot_width_sweep(sweep)


@register_figure(
    "ffn_structure",
    lesson="05",
    caption=tr_noop(
        "Plain FFN (h → 4h → h) beside SwiGLU (gate and up, h → m, multiplied element-wise, "
        "then m → h), with the tensor shape on every arrow"
    ),
    plot_function="plot_ffn_structure",
)
def ffn_structure() -> Figure:
    return l05.plot_ffn_structure()


@register_figure(
    "gate_distribution",
    lesson="05",
    caption=tr_noop(
        "Gate values act(gate_proj(x)) of the GLU, ReGLU, GEGLU and SwiGLU FFNs of the "
        "equal-budget race, trained (solid) against the same networks untrained (dashed): how many "
        "sit near zero (closed, shaded) before and after training"
    ),
    plot_function="plot_gate_distribution",
    trained=True,
)
def gate_distribution() -> Figure:
    shown = ("GLU", "ReGLU", "GEGLU", "SwiGLU")
    s = l05.SETUP  # lesson 05's race; its first seed's models, trained alone
    result = l05.equal_budget_experiment(
        hidden_size=s.hidden_size,
        plain_width=s.plain_width,
        seeds=s.seeds[:1],
        steps=s.steps,
        lr=s.lr,
        device="cpu",
        contenders={name: l05.BUDGET_CONTENDERS[name] for name in shown},
    )
    census = l05.gate_census(result, shown, closed_below=s.closed_below)
    x = result.test_inputs  # (n_test, h)
    trained = {name: l05.gate_activations(result.models[name][0], x) for name in shown}
    untrained = {
        name: l05.gate_activations(l05.initial_contender(name, s.seeds[0]), x) for name in shown
    }
    titles = {
        name: tr(
            "{name}: closed {before:.0%} → {after:.0%}",
            name=name,
            before=c.before[0].closed,
            after=c.after[0].closed,
        )
        for name, c in census.items()
    }
    return l05.plot_gate_distribution(
        trained, untrained, closed_below=s.closed_below, titles=titles
    )


@register_figure(
    "parameter_parity",
    lesson="06",
    caption=tr_noop(
        "Parameters of a plain and a gated FFN, counted on the modules at every width m, "
        "against m/h: the gated FFN at m = 8h/3 weighs what the plain one does at 4h; real models "
        "sit near the crossing (an inset zooms in on the ones it covers)"
    ),
    plot_function="plot_parameter_parity",
)
def parameter_parity() -> Figure:
    s = l06.SETUP
    parity = l06.parameter_parity(
        l06.PUBLISHED_WIDTHS, s.parity_hidden_size, s.parity_max_ratio, s.parity_width_step
    )
    return l06.plot_parameter_parity(parity)


def _lesson08_floors(task: l08.FactTask) -> dict[str, float]:
    """Lesson 08's floors: the relation-only guess for recall and fetch, chance for copy."""
    guess = l08.relation_only_accuracy(task)
    return {"recall": guess, "copy": 1 / task.n_noise, "fetch": guess}


@register_figure(
    "mlp_model_comparison",
    lesson="08",
    caption=tr_noop(
        "Held-out accuracy per kind of a tiny MiniMind2 with MLPs, without them (same "
        "non-embedding parameters, twice as wide) and without attention, after 200 steps at one "
        "learning rate (3e-3); seed 0 only (the lesson shows 3 seeds and a learning-rate sweep): "
        "attention-only copies as well but answers fewer of the facts"
    ),
    plot_function="plot_model_comparison",
    trained=True,
)
def mlp_model_comparison() -> Figure:
    s = l08.SETUP  # the first seed's three runs (lesson 08 trains three seeds of each)
    runs = [l08.train_model(name, s.seeds[0], setup=s) for name in l08.MODEL_NAMES]
    title = tr(
        "Held-out accuracy, seed {seed}, {steps} steps at lr {lr:g}",
        seed=s.seeds[0],
        steps=s.steps,
        lr=s.lr,
    )
    floors = _lesson08_floors(l08.fact_task(s))
    return l08.plot_model_comparison(l08.accuracy_table(runs), floors=floors, title=title)


@register_figure(
    "mlp_patching",
    lesson="08",
    caption=tr_noop(
        "Activation patching in the trained full model (seed 0, subject swapped): the share "
        "of the logit difference restored by putting back one attention or MLP output at one "
        "position; only outputs at the relation, where the answer is read, bring it back"
    ),
    plot_function="plot_patching_grid",
    trained=True,
)
def mlp_patching() -> Figure:
    s = l08.SETUP
    run = l08.train_model("full", s.seeds[0], setup=s)  # the comparison figure's model
    task = l08.fact_task(s)
    patch_set = l08.make_corpus(task, s.eval_size, s.eval_seed).rows(0, s.patch_size)
    grids = l08.patching_grid(run.model, task, patch_set, seed=s.corrupt_seed)
    title = tr(
        "Seed {seed}, subject swapped: share of the logit difference restored", seed=s.seeds[0]
    )
    return l08.plot_patching_grid(grids, title=title)


@register_figure(
    "mlp_learning_rates",
    lesson="08",
    caption=tr_noop(
        "Facts answered (recall and fetch, held out) after 200 steps against the peak "
        "learning rate, 3 seeds, for the full model, attention-only at twice the width and at the "
        "same width (8 layers), a plain MLP and a frozen random MLP, all with the same "
        "non-embedding parameters; read from the lesson's stored sweep"
    ),
    plot_function="plot_lr_sweep",
)
def mlp_learning_rates() -> Figure:
    same_budget = [m for m in l08.SWEEP.lr_models if m != "MLPs removed"]  # the caption's five
    return l08.plot_lr_sweep(l08.load_sweep(), models=same_budget)


@register_figure(
    "capacity_bits",
    lesson="09",
    caption=tr_noop(
        "Bits held against parameters at 100 and 1,000 exposures per fact, MiniMind2 models of "
        "one and two blocks in six kinds (each at its own best learning rate, 3 seeds, stored "
        "sweep), beside the paper's 2 bits per parameter"
    ),
    plot_function="plot_capacity_panels",
)
def capacity_bits() -> Figure:
    record = l09.load_sweep()
    return l09.plot_capacity_panels(l09.sweep_points(record["rows"]), record["table_bits"])


@register_figure(
    "capacity_accuracy",
    lesson="09",
    caption=tr_noop(
        "Accuracy per fact against exposures at h = 12 (stored sweep, each kind at its own best "
        "learning rate, 3 seeds; the seeds' range shaded)"
    ),
    plot_function="plot_accuracy_vs_exposures",
)
def capacity_accuracy() -> Figure:
    points = l09.sweep_points(l09.load_sweep()["rows"])
    return l09.plot_accuracy_vs_exposures(points, 12)


@register_figure(
    "moe_routing",
    lesson="10",
    caption=tr_noop(
        "A batch of tokens of three kinds routed by a softmax router to 2 of 4 experts: "
        "which expert each token goes to, and with what weight"
    ),
    plot_function="plot_moe_routing",
)
def moe_routing() -> Figure:
    s = l10.SETUP
    x, labels = l10.clustered_tokens(s.hidden_size, s.tokens_per_kind, s.kinds, seed=s.seed)
    with seeded(s.seed):
        config = MiniMindConfig(hidden_size=s.hidden_size)
        moe = MoEFeedForward(config, num_experts=s.num_experts, top_k=s.top_k).eval()
    with torch.no_grad():
        moe(x)  # (tokens, h), as lesson 10 routes it
    return l10.plot_moe_routing(moe.last_routing, token_labels=labels)
