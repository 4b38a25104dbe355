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
from .runtime import device, seed_everything
from .sizing import count_parameters, ffn_parameter_count, intermediate_size
from .train import fit
from .widgets import WIDGET_REGISTRY, InteractivePlot, figure_to_png, register_widget

# Lesson machinery (probes, experiments, plots, widgets) is exported below, one block per lesson.
