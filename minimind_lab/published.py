"""The FFN widths real models publish, with where each number comes from, as data.

Every row says which rule produced the width (``ratio``, ``ffn_dim_multiplier``, ``multiple_of``)
so ``recomputed_width(row)`` can derive it again with ``intermediate_size`` and lesson 06 can assert
that the rule and the published number agree.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .sizing import intermediate_size

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
    """One model's published FFN width and the rule that produces it.

    ``published_width`` is the ``intermediate_size`` of the released config; ``multiplier`` is
    Llama 3's ``ffn_dim_multiplier`` (``None`` when the model has none).
    """

    name: str
    hidden: int
    multiple_of: int
    multiplier: float | None
    ratio: float
    published_width: int
    source: str


#: Published FFN widths: the MiniMind2 family, minimind-3 (π·h), LLaMA-1 (multiple of 256) and
#: Llama 3 (× 1.3). minimind-3's rule is ``ceil(h·π/64)·64``; ``intermediate_size`` floors ``π·h``
#: first, which gives the same width for h = 768 (lesson 06 checks where the two rules part).
PUBLISHED_WIDTHS: tuple[PublishedWidth, ...] = (
    PublishedWidth("MiniMind2-Small", 512, 64, None, 8 / 3, 1408, _MINIMIND_SOURCE),
    PublishedWidth("MiniMind2-MoE", 640, 64, None, 8 / 3, 1728, _MINIMIND_SOURCE),
    PublishedWidth("MiniMind2", 768, 64, None, 8 / 3, 2048, _MINIMIND_SOURCE),
    PublishedWidth("minimind-3", 768, 64, None, math.pi, 2432, _MINIMIND3_SOURCE),
    PublishedWidth("LLaMA-1 7B", 4096, 256, None, 8 / 3, 11008, _LLAMA1_SOURCE),
    PublishedWidth("LLaMA-1 13B", 5120, 256, None, 8 / 3, 13824, _LLAMA1_SOURCE),
    PublishedWidth("LLaMA-1 33B", 6656, 256, None, 8 / 3, 17920, _LLAMA1_SOURCE),
    PublishedWidth("LLaMA-1 65B", 8192, 256, None, 8 / 3, 22016, _LLAMA1_SOURCE),
    PublishedWidth("Llama 3 8B", 4096, 1024, 1.3, 8 / 3, 14336, _LLAMA3_SOURCE.format(m=1024)),
    PublishedWidth("Llama 3 70B", 8192, 4096, 1.3, 8 / 3, 28672, _LLAMA3_SOURCE.format(m=4096)),
)


def recomputed_width(row: PublishedWidth) -> int:
    """The width ``intermediate_size`` derives from ``row``'s hidden size and rule."""
    return intermediate_size(
        row.hidden, multiple_of=row.multiple_of, ffn_dim_multiplier=row.multiplier,
        ratio=row.ratio,
    )


def published_width(name: str) -> PublishedWidth:
    """The row of ``PUBLISHED_WIDTHS`` named ``name``."""
    for row in PUBLISHED_WIDTHS:
        if row.name == name:
            return row
    names = ", ".join(row.name for row in PUBLISHED_WIDTHS)
    raise ValueError(f"unknown model {name!r}; expected one of: {names}")
