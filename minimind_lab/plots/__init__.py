"""Plot functions: they take results and draw them; they never compute the experiment.

``style`` holds the shared look; one module per lesson topic holds that topic's pictures.
"""

from .style import (
    ATTENTION_COLOR,
    DIVERGING_CMAP,
    FIGURE_DPI,
    MLP_COLOR,
    PALETTE,
    SEQUENTIAL_CMAP,
    finish,
    fixed_layout,
    new_figure,
    series_style,
)

# Topic modules register their functions below (one import line each).
# lessons 01-02
# isort: split
from .attention import plot_jacobian_blocks, plot_parameter_split, plot_perturbation_response
from .collapse import (
    draw_decision_regions,
    draw_warped_grid,
    plot_decision_regions,
    plot_loss_curves,
    plot_rank_vs_width,
    plot_warped_grids,
)

# lessons 03-04
# isort: split
from .activations import (
    activation_label,
    plot_activation_curves,
    plot_activation_derivatives,
    plot_activation_pair,
    plot_gradient_vs_depth,
    plot_swish_beta,
)
from .width import (
    plot_hidden_sparsity,
    plot_width_dashboard,
    plot_width_fit,
    plot_width_fits,
    plot_width_loss_curves,
    plot_width_sweep,
    ratio_label,
)

# lessons 05-06
# isort: split
from .gating import plot_equal_budget, plot_gate_distribution, plot_gated_product
from .sizing import plot_model_budgets, plot_parameter_parity, plot_width_budget

# lessons 07-08
# isort: split
from .feedforward import plot_gate_up_product, plot_intermediate_widths
from .moe import plot_moe_parameter_counts, plot_moe_routing

# figures
# isort: split
from .diagrams import plot_ffn_structure

