"""The arithmetic of FFN widths (升维 to ``intermediate_size``) and parameter counts."""

from __future__ import annotations

from torch import nn

from ._checks import check_positive_int


def intermediate_size(
    hidden_size: int,
    multiple_of: int = 64,
    ffn_dim_multiplier: float | None = None,
    ratio: float = 8 / 3,
) -> int:
    """The FFN width MiniMind and LLaMA derive from ``hidden_size``.

    ``int(ratio * hidden_size)``, then times ``ffn_dim_multiplier`` if given (``int`` again), then
    rounded up to a multiple of ``multiple_of``. With the defaults this is MiniMind2's rule
    (512 → 1408); LLaMA-1 uses ``multiple_of=256``; Llama 3 adds ``ffn_dim_multiplier=1.3``.
    """
    check_positive_int("hidden_size", hidden_size)
    check_positive_int("multiple_of", multiple_of)
    if not ratio > 0:
        raise ValueError(f"ratio must be positive, got {ratio!r}")
    width = int(ratio * hidden_size)
    if ffn_dim_multiplier is not None:
        if not ffn_dim_multiplier > 0:
            raise ValueError(f"ffn_dim_multiplier must be positive, got {ffn_dim_multiplier!r}")
        width = int(ffn_dim_multiplier * width)
    return multiple_of * ((width + multiple_of - 1) // multiple_of)


def count_parameters(module: nn.Module, trainable_only: bool = False) -> int:
    """The number of scalar parameters in ``module`` (shared tensors counted once)."""
    params = {id(p): p for p in module.parameters() if p.requires_grad or not trainable_only}
    return sum(p.numel() for p in params.values())


def ffn_parameter_count(
    hidden_size: int, intermediate_size: int, gated: bool, bias: bool = False
) -> int:
    """Parameters of an FFN by formula: ``2·h·m`` plain, ``3·h·m`` gated, plus biases if any.

    Biases add ``m + h`` (plain: up and down) or ``2m + h`` (gated: gate, up and down).
    """
    h = check_positive_int("hidden_size", hidden_size)
    m = check_positive_int("intermediate_size", intermediate_size)
    matrices = 3 if gated else 2
    count = matrices * h * m
    if bias:
        count += (matrices - 1) * m + h
    return count
