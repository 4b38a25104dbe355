"""The 8/3 budget: parameters of a plain FFN at 4h against a gated one at m, and rounding's cost.

A plain FFN at width ``4h`` holds ``2·h·4h = 8h²`` weights; a gated one at width ``m`` holds
``3·h·m``; they match at ``m = 8h/3``. Real models round that width up to a hardware-friendly
multiple (and Llama 3 scales it first), which costs a few extra parameters; this module counts them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from .._checks import check_positive_int
from ..minimind import MINIMIND2_MODELS
from ..sizing import (
    LLAMA1_RULE,
    LLAMA3_8B_RULE,
    LLAMA3_70B_RULE,
    MINIMIND2_RULE,
    MINIMIND3_RULE,
    WidthRule,
    ffn_parameter_count,
    intermediate_size,
)

__all__ = [
    "PARITY_RATIO",
    "PUBLISHED_WIDTHS",
    "ParameterParity",
    "PublishedWidth",
    "SETUP",
    "Setup",
    "WidthBudget",
    "parameter_parity",
    "published_width",
    "recomputed_width",
    "rounding_overheads",
    "width_budget",
]


@dataclass(frozen=True)
class Setup:
    """Lesson 06's ranges, read by the notebook and the widget."""

    curve_sizes: tuple[int, ...] = tuple(range(64, 8192 + 1, 64))
    multiple_of_choices: tuple[int, ...] = (1, 8, 32, 64, 128, 256, 1024, 4096)


SETUP = Setup()

_MINIMIND_SOURCE = (
    "MiniMind README (model table: d_model) and model/model_minimind.py FeedForward: "
    "int(hidden·8/3) rounded up to a multiple of 64"
)
_MINIMIND3_SOURCE = (
    "MiniMind README (minimind-3 mainline: dim=768, n_layers=8) and the current "
    "model/model_minimind.py config: math.ceil(hidden_size * math.pi / 64) * 64"
)
_LLAMA1_SOURCE = (
    "LLaMA paper (Touvron et al. 2023, Table 2: dimension) and params.json (multiple_of 256); "
    "rule in Meta's llama model.py FeedForward; HF config.json intermediate_size"
)
_LLAMA3_SOURCE = (
    "Meta's llama3 params.json (ffn_dim_multiplier 1.3, multiple_of {m}) and "
    "HF config.json intermediate_size"
)


@dataclass(frozen=True)
class PublishedWidth:
    """One model's published FFN width and the ``WidthRule`` that produces it.

    ``published_width`` is the ``intermediate_size`` of the released config; ``source`` says
    where the numbers come from.
    """

    name: str
    hidden: int
    rule: WidthRule
    published_width: int
    source: str


def _minimind2_row(name: str, width: int) -> PublishedWidth:
    hidden, _layers = MINIMIND2_MODELS[name]  # one source of MiniMind2's sizes
    return PublishedWidth(name, hidden, MINIMIND2_RULE, width, _MINIMIND_SOURCE)


#: Published FFN widths: the MiniMind2 family, minimind-3 (π·h), LLaMA-1 (multiple of 256) and
#: Llama 3 (× 1.3), each with the rule that derives it.
PUBLISHED_WIDTHS: tuple[PublishedWidth, ...] = (
    _minimind2_row("MiniMind2-Small", 1408),
    _minimind2_row("MiniMind2-MoE", 1728),
    _minimind2_row("MiniMind2", 2048),
    PublishedWidth("minimind-3", 768, MINIMIND3_RULE, 2432, _MINIMIND3_SOURCE),
    PublishedWidth("LLaMA-1 7B", 4096, LLAMA1_RULE, 11008, _LLAMA1_SOURCE),
    PublishedWidth("LLaMA-1 13B", 5120, LLAMA1_RULE, 13824, _LLAMA1_SOURCE),
    PublishedWidth("LLaMA-1 33B", 6656, LLAMA1_RULE, 17920, _LLAMA1_SOURCE),
    PublishedWidth("LLaMA-1 65B", 8192, LLAMA1_RULE, 22016, _LLAMA1_SOURCE),
    PublishedWidth("Llama 3 8B", 4096, LLAMA3_8B_RULE, 14336, _LLAMA3_SOURCE.format(m=1024)),
    PublishedWidth("Llama 3 70B", 8192, LLAMA3_70B_RULE, 28672, _LLAMA3_SOURCE.format(m=4096)),
)


def recomputed_width(row: PublishedWidth) -> int:
    """The width ``intermediate_size`` derives from ``row``'s hidden size and rule."""
    return intermediate_size(row.hidden, row.rule)


def published_width(name: str) -> PublishedWidth:
    """The row of ``PUBLISHED_WIDTHS`` named ``name``."""
    for row in PUBLISHED_WIDTHS:
        if row.name == name:
            return row
    names = ", ".join(row.name for row in PUBLISHED_WIDTHS)
    raise ValueError(f"unknown model {name!r}; expected one of: {names}")


#: The width ratio m/h at which a gated FFN has the parameters of a plain FFN at 4h.
PARITY_RATIO = Fraction(8, 3)


@dataclass(frozen=True)
class WidthBudget:
    """One hidden size pushed through a width rule, with every parameter count lesson 06 quotes.

    ``unrounded_width``: the rule's width before rounding up (``int(8h/3)`` for MiniMind2, the
    real ``π·h`` for minimind-3); ``width``: after rounding up to ``rule.multiple_of``.
    ``rounding_extra`` counts the gated weights rounding adds (``3·h·(width − unrounded)``);
    ``rounding_overhead`` is that as a fraction of the unrounded gated FFN; ``gated_to_plain``
    compares the gated FFN with the plain one at ``4h``.
    """

    hidden_size: int
    rule: WidthRule
    unrounded_width: float
    width: int
    plain_width: int
    plain_parameters: int
    gated_parameters: int
    rounding_extra: float
    rounding_overhead: float
    gated_to_plain: float


def width_budget(hidden_size: int, rule: WidthRule = MINIMIND2_RULE) -> WidthBudget:
    """The gated width ``rule`` gives ``hidden_size`` and what it costs in weights.

    The plain comparison is always the classic ``4h`` FFN.
    """
    check_positive_int("hidden_size", hidden_size)
    width = intermediate_size(hidden_size, rule)
    unrounded = rule.unrounded(hidden_size)
    gated = ffn_parameter_count(hidden_size, width, gated=True)
    plain = ffn_parameter_count(hidden_size, 4 * hidden_size, gated=False)
    extra = 3 * hidden_size * (width - unrounded)
    return WidthBudget(
        hidden_size=hidden_size,
        rule=rule,
        unrounded_width=unrounded,
        width=width,
        plain_width=4 * hidden_size,
        plain_parameters=plain,
        gated_parameters=gated,
        rounding_extra=extra,
        rounding_overhead=extra / (3 * hidden_size * unrounded),
        gated_to_plain=gated / plain,
    )


def rounding_overheads(
    hidden_sizes: Sequence[int], rule: WidthRule = MINIMIND2_RULE
) -> list[float]:
    """``width_budget(h, rule).rounding_overhead`` for every ``h`` in ``hidden_sizes``."""
    return [width_budget(h, rule).rounding_overhead for h in hidden_sizes]


@dataclass(frozen=True)
class ParameterParity:
    """Parameters per ``h²`` against the width ratio ``r = m/h``: plain ``2r``, gated ``3r``.

    ``plain_at_4h`` is the classic budget ``8``; ``crossing`` the ratio where the gated line
    reaches it (8/3). ``models``: per real model, ``(name, m/h, gated parameters / 8h²)``.
    """

    ratios: tuple[float, ...]
    plain: tuple[float, ...]
    gated: tuple[float, ...]
    plain_at_4h: float
    crossing: float
    models: tuple[tuple[str, float, float], ...]


def parameter_parity(
    rows: Sequence[PublishedWidth] = (), max_ratio: float = 6.0, points: int = 121
) -> ParameterParity:
    """The two parameter lines over ``r ∈ [0, max_ratio]``; where ``rows`` sit on the gated one."""
    check_positive_int("points", points)
    if not max_ratio > 0:
        raise ValueError(f"max_ratio must be positive, got {max_ratio!r}")
    ratios = tuple(max_ratio * i / (points - 1) for i in range(points)) if points > 1 else (0.0,)
    models = tuple(
        (row.name, row.published_width / row.hidden, 3 * row.published_width / (8 * row.hidden))
        for row in rows
    )
    return ParameterParity(
        ratios=ratios,
        plain=tuple(2 * r for r in ratios),
        gated=tuple(3 * r for r in ratios),
        plain_at_4h=8.0,
        crossing=float(PARITY_RATIO),
        models=models,
    )
