"""minimind-lab: what the MLP does after attention, told through MiniMind's ``FeedForward``.

``import minimind_lab as ml`` gives the core: real PyTorch modules and the arithmetic around
them, reusable outside the lessons (CPU, CUDA and MPS alike). Importing it loads neither
matplotlib nor ipywidgets. Each lesson's probes, experiments, plots and widget live apart, in
``minimind_lab.lessons.lNN`` (``from minimind_lab.lessons import l04``).
"""

from .activations import (
    ACTIVATION_NAMES,
    ActivationSpec,
    activation_derivative,
    activation_formula,
    activation_label,
    get_activation,
)
from .attention import Block, CausalSelfAttention, RMSNorm
from .checkpoint import load_minimind_mlp, load_minimind_model
from .ffn import GLU_VARIANTS, GatedFFN, PlainFFN
from .linear import collapse_linear
from .minimind import MINIMIND2_MODELS, VERSIONS, FeedForward, MiniMindConfig, minimind2_config
from .model import MiniMindForCausalLM
from .moe import MoEFeedForward, Routing, version_comparison
from .runtime import (
    REPRODUCIBLE_CPU_ENV,
    device,
    reproducible_cpu,
    seed_everything,
    seeded,
)
from .sizing import (
    LLAMA1_RULE,
    LLAMA3_8B_RULE,
    LLAMA3_70B_RULE,
    MINIMIND2_RULE,
    MINIMIND3_RULE,
    WIDTH_RULES,
    WidthRule,
    count_parameters,
    ffn_parameter_count,
    intermediate_size,
    width_rule,
)
from .train import Adam, fit, fit_call_count

__all__ = [
    "ACTIVATION_NAMES",
    "GLU_VARIANTS",
    "LLAMA1_RULE",
    "LLAMA3_70B_RULE",
    "LLAMA3_8B_RULE",
    "MINIMIND2_MODELS",
    "MINIMIND2_RULE",
    "MINIMIND3_RULE",
    "REPRODUCIBLE_CPU_ENV",
    "VERSIONS",
    "WIDTH_RULES",
    "ActivationSpec",
    "Adam",
    "Block",
    "CausalSelfAttention",
    "FeedForward",
    "GatedFFN",
    "MiniMindConfig",
    "MiniMindForCausalLM",
    "MoEFeedForward",
    "PlainFFN",
    "RMSNorm",
    "Routing",
    "WidthRule",
    "activation_derivative",
    "activation_formula",
    "activation_label",
    "collapse_linear",
    "count_parameters",
    "device",
    "ffn_parameter_count",
    "fit",
    "fit_call_count",
    "get_activation",
    "intermediate_size",
    "load_minimind_mlp",
    "load_minimind_model",
    "minimind2_config",
    "reproducible_cpu",
    "seed_everything",
    "seeded",
    "version_comparison",
    "width_rule",
]
