"""The arithmetic of FFN widths (升维 to ``intermediate_size``) and parameter counts.

A ``WidthRule`` says how a model family turns ``hidden_size`` into its FFN width; the named rules
below are the ones real models publish, and ``intermediate_size(h, rule)`` applies one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from torch import nn

from ._checks import check_bool, check_positive_int, check_real


def _check_positive_finite(name: str, value: object) -> float:
    return check_real(name, value, low=0, low_open=True)


@dataclass(frozen=True)
class WidthRule:
    """How a model family derives its FFN width from ``hidden_size``.

    ``truncate_first=True`` (MiniMind2, LLaMA): ``int(ratio·h)``, then ``int(·multiplier)`` if a
    ``ffn_dim_multiplier`` is given, then rounded up to a multiple of ``multiple_of``.
    ``truncate_first=False`` (minimind-3): ``ceil(ratio·h / multiple_of)·multiple_of`` straight
    from the real product, as minimind-3's config writes it.
    """

    ratio: float = 8 / 3
    multiple_of: int = 64
    ffn_dim_multiplier: float | None = None
    truncate_first: bool = True

    def __post_init__(self) -> None:
        # Stored back as checked: an int or float stays itself, a NumPy scalar becomes one.
        object.__setattr__(self, "ratio", _check_positive_finite("ratio", self.ratio))
        object.__setattr__(self, "multiple_of", check_positive_int("multiple_of", self.multiple_of))
        check_bool("truncate_first", self.truncate_first)
        if self.ffn_dim_multiplier is not None:
            multiplier = _check_positive_finite("ffn_dim_multiplier", self.ffn_dim_multiplier)
            object.__setattr__(self, "ffn_dim_multiplier", multiplier)
            if not self.truncate_first:
                raise ValueError("ffn_dim_multiplier is only defined for truncate_first=True rules")

    def unrounded(self, hidden_size: int) -> float:
        """The width before rounding up: an ``int`` for truncating rules, else ``ratio·h``."""
        hidden_size = check_positive_int("hidden_size", hidden_size)
        if not self.truncate_first:
            return self.ratio * hidden_size
        width = int(self.ratio * hidden_size)
        if self.ffn_dim_multiplier is not None:
            width = int(self.ffn_dim_multiplier * width)
        return width


#: MiniMind2 (the article's version): ``int(8h/3)`` rounded up to a multiple of 64.
MINIMIND2_RULE = WidthRule()
#: minimind-3: ``ceil(h·π/64)·64``, computed in its config.
MINIMIND3_RULE = WidthRule(ratio=math.pi, truncate_first=False)
#: LLaMA-1: ``int(8h/3)`` rounded up to a multiple of 256.
LLAMA1_RULE = WidthRule(multiple_of=256)
#: Llama 3 8B and 70B: ``int(1.3·int(8h/3))`` rounded up to 1024 and 4096.
LLAMA3_8B_RULE = WidthRule(multiple_of=1024, ffn_dim_multiplier=1.3)
LLAMA3_70B_RULE = WidthRule(multiple_of=4096, ffn_dim_multiplier=1.3)

#: The named rules, for tables and widgets.
WIDTH_RULES: dict[str, WidthRule] = {
    "minimind2": MINIMIND2_RULE,
    "minimind3": MINIMIND3_RULE,
    "llama1": LLAMA1_RULE,
    "llama3-8b": LLAMA3_8B_RULE,
    "llama3-70b": LLAMA3_70B_RULE,
}


def width_rule(name: str) -> WidthRule:
    """The ``WidthRule`` called ``name`` in ``WIDTH_RULES``; unknown names raise ``ValueError``."""
    if not isinstance(name, str) or name not in WIDTH_RULES:
        raise ValueError(f"unknown width rule {name!r}; expected one of: {', '.join(WIDTH_RULES)}")
    return WIDTH_RULES[name]


def intermediate_size(hidden_size: int, rule: WidthRule | str = MINIMIND2_RULE) -> int:
    """The FFN width ``rule`` derives from ``hidden_size`` (default: MiniMind2's 8/3 rule).

    512 → 1408 under MiniMind2's rule, 768 → 2432 under minimind-3's π rule. ``rule`` is a
    ``WidthRule`` or a name in ``WIDTH_RULES``. Raises ``ValueError`` for a non-positive or
    non-integer ``hidden_size`` and when the rule gives no unit at all (``ratio·h < 1``).
    """
    hidden_size = check_positive_int("hidden_size", hidden_size)
    if isinstance(rule, str):
        rule = width_rule(rule)
    if not isinstance(rule, WidthRule):
        raise ValueError(f"rule must be a WidthRule or a rule name, got {rule!r}")
    unrounded = rule.unrounded(hidden_size)
    if unrounded < 1:
        raise ValueError(
            f"the rule {rule} gives {unrounded!r} units for hidden_size={hidden_size}; "
            "expected at least one unit (a larger ratio or hidden_size)"
        )
    return rule.multiple_of * math.ceil(unrounded / rule.multiple_of)


def count_parameters(module: nn.Module, trainable_only: bool = False) -> int:
    """The number of scalar parameters in ``module`` (shared tensors counted once)."""
    if not isinstance(module, nn.Module):
        raise ValueError(f"expected an nn.Module, got {type(module).__name__}")
    check_bool("trainable_only", trainable_only)
    params = {id(p): p for p in module.parameters() if p.requires_grad or not trainable_only}
    return sum(p.numel() for p in params.values())


def ffn_parameter_count(
    hidden_size: int, intermediate_size: int, gated: bool, bias: bool = False
) -> int:
    """Parameters of an FFN by formula: ``2·h·m`` plain, ``3·h·m`` gated, plus biases if any.

    Biases add ``m + h`` (plain: up and down) or ``2m + h`` (gated: gate, up and down).
    ``gated`` and ``bias`` must be ``bool`` (a string such as ``"no"`` is refused).
    """
    h = check_positive_int("hidden_size", hidden_size)
    m = check_positive_int("intermediate_size", intermediate_size)
    check_bool("gated", gated)
    check_bool("bias", bias)
    matrices = 3 if gated else 2
    count = matrices * h * m
    if bias:
        count += (matrices - 1) * m + h
    return count
