"""Lesson widgets: ``InteractivePlot`` and one module per lesson topic.

Each topic module registers its builders in ``WIDGET_REGISTRY`` with ``@register_widget``.
"""

from .base import WIDGET_REGISTRY, InteractivePlot, figure_to_png, register_widget

# Topic modules are imported below (one line each) so their widgets register.
# lessons 01-02
# isort: split
from .attention import perturb_one_position_widget
from .collapse import activation_warps_the_plane_widget

# lessons 03-04
# isort: split
from .activations import activation_explorer, draw_activation, draw_swish, swish_beta_explorer
from .width import draw_width, width_explorer

# lessons 05-06
# isort: split
from .gating import draw_gated_product, gated_product_widget
from .sizing import draw_width_budget, width_budget_widget

# lessons 07-08
# isort: split
from .feedforward import draw_feedforward, feedforward_widget
from .moe import draw_moe, moe_widget
