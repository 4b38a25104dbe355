"""Checkers for the lessons' build-it exercises, in the spirit of ARENA's test functions.

Each ``check_*`` runs a learner's piece and the reference on random inputs and edge cases. A
wrong piece raises ``ExerciseError`` (an ``AssertionError``) naming the case, what differs
(shape, dtype, which entries) and, where it matches a known wrong version, the likely mistake;
a right one prints a single line. Bad arguments to a checker raise ``ValueError``.
"""

from ._compare import ExerciseError
from .activations import check_activation_derivative
from .attention import check_causal_attention_weights
from .capacity import check_fact_bits
from .collapse import check_collapse
from .feedforward import check_feedforward
from .ffn import check_plain_ffn_forward, check_swiglu
from .patching import check_patching_hook
from .routing import check_top_k_routing
from .sizing import check_width_rule

__all__ = [
    "ExerciseError",
    "check_activation_derivative",
    "check_causal_attention_weights",
    "check_collapse",
    "check_fact_bits",
    "check_feedforward",
    "check_patching_hook",
    "check_plain_ffn_forward",
    "check_swiglu",
    "check_top_k_routing",
    "check_width_rule",
]
