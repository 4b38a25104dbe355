"""minimind-lab: what the MLP does after attention, told through MiniMind's ``FeedForward``.

This module's names are the package's public API; notebooks and tests import only these.
"""

from .activations import (
    ACTIVATION_NAMES,
    ActivationSpec,
    activation_derivative,
    activation_formula,
    get_activation,
)
from .attention import Block, CausalSelfAttention, RMSNorm
from .checkpoint import load_minimind_mlp
from .ffn import GLU_VARIANTS, GatedFFN, PlainFFN
from .linear import collapse_linear
from .minimind import MINIMIND2_MODELS, FeedForward, MiniMindConfig, minimind2_config
from .moe import MoEFeedForward, Routing
from .plots.style import fixed_layout, new_figure, series_style
from .runtime import device, seed_everything
from .sizing import count_parameters, ffn_parameter_count, intermediate_size
from .train import fit
from .widgets import WIDGET_REGISTRY, InteractivePlot, figure_to_png, register_widget

# Lesson machinery (probes, experiments, plots, widgets) is exported below, one block per lesson.
# lessons 01-02
# isort: split
from .block_parameters import BlockParameterSplit, block_parameter_split
from .collapse import (
    DATASET_NAMES,
    STACK_ACTIVATIONS,
    WARP_WEIGHTS,
    Dataset2D,
    DecisionRegions,
    StackResult,
    accuracy,
    decision_regions,
    grid_lines,
    line_bend,
    make_dataset,
    make_stack,
    train_stack,
    warp_grid,
    warp_network,
)
from .jacobian import (
    jacobian_blocks,
    per_position_outputs,
    sublayer_branches,
    token_perturbation_response,
)
from .plots.attention import (
    plot_jacobian_blocks,
    plot_parameter_split,
    plot_perturbation_response,
)
from .plots.collapse import (
    draw_decision_regions,
    draw_warped_grid,
    plot_decision_regions,
    plot_loss_curves,
    plot_rank_vs_width,
    plot_warped_grids,
)
from .widgets.attention import perturb_one_position_widget
from .widgets.collapse import activation_warps_the_plane_widget

# lessons 03-04
# isort: split
from .gradients import (
    LESSON03_ACTIVATIONS,
    ActivationCurves,
    DepthSweep,
    Extremum,
    SwishFamily,
    activation_curves,
    activation_grid,
    activation_minimum,
    autograd_derivative,
    derivative_max_error,
    derivative_maximum,
    gradient_norm_vs_depth,
    max_abs_difference,
    swish_beta,
    swish_family,
)
from .plots.activations import (
    activation_label,
    plot_activation_curves,
    plot_activation_derivatives,
    plot_activation_pair,
    plot_gradient_vs_depth,
    plot_swish_beta,
)
from .plots.width import (
    plot_hidden_sparsity,
    plot_width_dashboard,
    plot_width_fit,
    plot_width_fits,
    plot_width_loss_curves,
    plot_width_sweep,
    ratio_label,
)
from .widgets.activations import (
    activation_explorer,
    draw_activation,
    draw_swish,
    swish_beta_explorer,
)
from .widgets.width import draw_width, width_explorer
from .width import (
    WIDTH_ACTIVATIONS,
    WIDTH_RATIOS,
    SparsityStats,
    WidthFit,
    WidthTask,
    fit_width,
    hidden_activations,
    hidden_sparsity,
    make_width_task,
    ratio_to_width,
    width_sweep,
)

# lessons 05-06
# isort: split
from .budget import (
    PARITY_RATIO,
    ParameterParity,
    WidthBudget,
    parameter_parity,
    rounding_overheads,
    width_budget,
)
from .gating import (
    BUDGET_CONTENDERS,
    BudgetResult,
    GatedCurve,
    GateStats,
    equal_budget_experiment,
    equal_budget_width,
    gate_activations,
    gate_statistics,
    gated_product_curve,
    product_target,
)
from .plots.gating import plot_equal_budget, plot_gate_distribution, plot_gated_product
from .plots.sizing import plot_model_budgets, plot_parameter_parity, plot_width_budget
from .published import PUBLISHED_WIDTHS, PublishedWidth, published_width, recomputed_width
from .widgets.gating import draw_gated_product, gated_product_widget
from .widgets.sizing import draw_width_budget, width_budget_widget

# lessons 07-08
# isort: split
from .hooks import Intermediate, capture_intermediates, intermediates_by_name
from .plots.feedforward import plot_gate_up_product, plot_intermediate_widths
from .plots.moe import plot_moe_parameter_counts, plot_moe_routing
from .token_kinds import clustered_tokens
from .widgets.feedforward import draw_feedforward, feedforward_widget
from .widgets.moe import draw_moe, moe_widget

# figures
# isort: split
from .figures import FIGURE_REGISTRY, build_figure, write_figures
from .plots.diagrams import plot_ffn_structure

