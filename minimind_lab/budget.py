"""The 8/3 budget: parameters of a plain FFN at 4h against a gated one at m, and rounding's cost.

A plain FFN at width ``4h`` holds ``2·h·4h = 8h²`` weights; a gated one at width ``m`` holds
``3·h·m``; they match at ``m = 8h/3``. Real models round that width up to a hardware-friendly
multiple (and Llama 3 scales it first), which costs a few extra parameters; this module counts them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from ._checks import check_positive_int
from .published import PublishedWidth
from .sizing import ffn_parameter_count, intermediate_size

#: The width ratio m/h at which a gated FFN has the parameters of a plain FFN at 4h.
PARITY_RATIO = Fraction(8, 3)


@dataclass(frozen=True)
class WidthBudget:
    """One hidden size pushed through a width rule, with every parameter count lesson 06 quotes.

    ``unrounded_width``: ``int(multiplier·int(ratio·h))`` before rounding; ``width``: after
    rounding up to ``multiple_of``. ``rounding_extra`` counts the gated weights rounding adds
    (``3·h·(width − unrounded_width)``); ``rounding_overhead`` is that as a fraction of the
    unrounded gated FFN; ``gated_to_plain`` compares the gated FFN with the plain one at ``4h``.
    """

    hidden_size: int
    multiple_of: int
    multiplier: float | None
    ratio: float
    unrounded_width: int
    width: int
    plain_width: int
    plain_parameters: int
    gated_parameters: int
    rounding_extra: int
    rounding_overhead: float
    gated_to_plain: float


def width_budget(
    hidden_size: int,
    multiple_of: int = 64,
    ffn_dim_multiplier: float | None = None,
    ratio: float = 8 / 3,
) -> WidthBudget:
    """The gated width ``intermediate_size`` gives ``hidden_size`` and what it costs in weights.

    Arguments as ``intermediate_size``; the plain comparison is always the classic ``4h`` FFN.
    """
    check_positive_int("hidden_size", hidden_size)
    width = intermediate_size(hidden_size, multiple_of, ffn_dim_multiplier, ratio)
    unrounded = intermediate_size(hidden_size, 1, ffn_dim_multiplier, ratio)
    gated = ffn_parameter_count(hidden_size, width, gated=True)
    plain = ffn_parameter_count(hidden_size, 4 * hidden_size, gated=False)
    extra = 3 * hidden_size * (width - unrounded)
    return WidthBudget(
        hidden_size=hidden_size,
        multiple_of=multiple_of,
        multiplier=ffn_dim_multiplier,
        ratio=ratio,
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
    hidden_sizes: Sequence[int],
    multiple_of: int = 64,
    ffn_dim_multiplier: float | None = None,
    ratio: float = 8 / 3,
) -> list[float]:
    """``width_budget(h, ...).rounding_overhead`` for every ``h`` in ``hidden_sizes``."""
    return [
        width_budget(h, multiple_of, ffn_dim_multiplier, ratio).rounding_overhead
        for h in hidden_sizes
    ]


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
