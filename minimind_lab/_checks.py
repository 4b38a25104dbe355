"""Argument checks shared by the modules, so every error message has one shape."""

from __future__ import annotations

from torch import Tensor


def check_positive_int(name: str, value: object) -> int:
    """Return ``value`` if it is a positive ``int``; otherwise raise ``ValueError`` saying so."""
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ValueError(f"{name} must be a positive integer, got {value!r}")
    return value


def check_nonnegative_int(name: str, value: object) -> int:
    """Return ``value`` if it is an ``int`` ≥ 0 (not a bool); otherwise raise ``ValueError``."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{name} must be a non-negative integer, got {value!r}")
    return value


def check_features(x: Tensor, expected: int, what: str = "hidden_size") -> None:
    """Raise ``ValueError`` unless ``x`` is a float tensor with ``x.shape[-1] == expected``.

    Token vectors are real numbers: an integer tensor (token ids, say) would otherwise fail deep
    inside a matrix product with a message about dtypes, not about the input.
    """
    if not isinstance(x, Tensor):
        raise ValueError(
            f"input must be a torch.Tensor of shape (*, {what}), got {type(x).__name__}"
        )
    if not x.is_floating_point():
        raise ValueError(
            f"input has dtype {x.dtype}; expected floating-point vectors of size {what}={expected} "
            "(token ids go through an embedding first)"
        )
    if x.dim() == 0 or x.shape[-1] != expected:
        raise ValueError(
            f"input has shape {tuple(x.shape)}; its last dimension must equal {what}={expected}"
        )
