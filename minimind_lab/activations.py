"""One registry of activation functions (激活函数), looked up by name like HF's ``ACT2FN``.

Each entry carries three things a lesson needs side by side: the module that computes the
activation, its derivative written out by hand (so lesson 03 can check autograd against it), and a
one-line formula for labels and tables.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import torch
from torch import Tensor, nn

from .i18n import tr, tr_noop

_SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)
_GELU_TANH_COEFF = 0.044715


def _gelu_derivative(x: Tensor) -> Tensor:
    cdf = 0.5 * (1.0 + torch.erf(x / math.sqrt(2.0)))  # Φ(x)
    pdf = torch.exp(-0.5 * x * x) / math.sqrt(2.0 * math.pi)  # φ(x)
    return cdf + x * pdf


def _gelu_tanh_derivative(x: Tensor) -> Tensor:
    # Beyond |x| = 20 the slope is 0 or 1 to every digit of float64 (tanh(√(2/π)·(20 + 0.044715·
    # 20³)) rounds to 1); clamping there keeps x³ from overflowing into inf · 0 = NaN.
    x = x.clamp(-20.0, 20.0)
    inner = _SQRT_2_OVER_PI * (x + _GELU_TANH_COEFF * x**3)
    t = torch.tanh(inner)
    d_inner = _SQRT_2_OVER_PI * (1.0 + 3.0 * _GELU_TANH_COEFF * x * x)
    return 0.5 * (1.0 + t) + 0.5 * x * (1.0 - t * t) * d_inner


def _silu_derivative(x: Tensor) -> Tensor:
    s = torch.sigmoid(x)
    return s * (1.0 + x * (1.0 - s))


def _sigmoid_derivative(x: Tensor) -> Tensor:
    s = torch.sigmoid(x)
    return s * (1.0 - s)


def _tanh_derivative(x: Tensor) -> Tensor:
    t = torch.tanh(x)
    return 1.0 - t * t


@dataclass(frozen=True)
class ActivationSpec:
    """An activation's display label, module factory, analytic derivative and formula.

    ``derivative`` maps a tensor of any shape to a tensor of the same shape, dtype and device.
    """

    name: str
    label: str
    make: Callable[[], nn.Module]
    derivative: Callable[[Tensor], Tensor]
    formula: str


_REGISTRY: dict[str, ActivationSpec] = {
    spec.name: spec
    for spec in (
        ActivationSpec(
            "relu", tr_noop("ReLU"), nn.ReLU, lambda x: (x > 0).to(x.dtype), tr_noop("max(0, x)")
        ),
        ActivationSpec(
            "gelu",
            tr_noop("GELU"),
            nn.GELU,
            _gelu_derivative,
            tr_noop("x·Φ(x), Φ the standard normal CDF"),
        ),
        ActivationSpec(
            "gelu_pytorch_tanh",
            tr_noop("GELU (tanh form)"),
            lambda: nn.GELU(approximate="tanh"),
            _gelu_tanh_derivative,
            tr_noop("0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³)))"),
        ),
        ActivationSpec(
            "silu", tr_noop("SiLU / Swish"), nn.SiLU, _silu_derivative, tr_noop("x·σ(x)")
        ),
        ActivationSpec(
            "swish",
            tr_noop("SiLU / Swish"),
            nn.SiLU,
            _silu_derivative,
            tr_noop("x·σ(x) (the same function as silu)"),
        ),
        ActivationSpec(
            "sigmoid",
            tr_noop("sigmoid"),
            nn.Sigmoid,
            _sigmoid_derivative,
            tr_noop("σ(x) = 1 / (1 + e^(−x))"),
        ),
        ActivationSpec(
            "tanh",
            tr_noop("tanh"),
            nn.Tanh,
            _tanh_derivative,
            tr_noop("(e^x − e^(−x)) / (e^x + e^(−x))"),
        ),
        ActivationSpec("identity", tr_noop("identity"), nn.Identity, torch.ones_like, tr_noop("x")),
    )
}

#: Every name ``get_activation`` accepts, in the registry's order.
ACTIVATION_NAMES: tuple[str, ...] = tuple(_REGISTRY)


def _spec(name: str) -> ActivationSpec:
    try:
        return _REGISTRY[name]
    except (KeyError, TypeError):
        raise ValueError(
            f"unknown activation {name!r}; expected one of: {', '.join(ACTIVATION_NAMES)}"
        ) from None


def get_activation(name: str) -> nn.Module:
    """Return a fresh activation module for ``name`` (element-wise, any shape ``(*)`` → ``(*)``).

    Raises ``ValueError`` naming the valid names when ``name`` is not in the registry.
    """
    return _spec(name).make()


def activation_derivative(name: str, x: Tensor) -> Tensor:
    """The analytic derivative of activation ``name`` at ``x``: shape ``(*)`` → ``(*)``.

    ``x`` must be a floating-point tensor (``torch.tensor(0.5)`` for one number); anything else
    raises ``ValueError`` naming what it got. The result has ``x``'s dtype and device.
    """
    spec = _spec(name)
    if not isinstance(x, Tensor) or not x.is_floating_point():
        if isinstance(x, Tensor):
            got, fix = f"dtype {x.dtype}", "convert it with x.float()"
        else:
            got, fix = f"{x!r} (type {type(x).__name__})", "for one number write torch.tensor(0.5)"
        raise ValueError(f"x must be a floating-point torch.Tensor, got {got}; {fix}")
    return spec.derivative(x)


def activation_formula(name: str) -> str:
    """A one-line formula for activation ``name``, for labels and tables (its words in the
    lesson's language, ``minimind_lab.i18n``)."""
    return tr(_spec(name).formula)


def activation_label(name: str) -> str:
    """The display name of activation ``name`` (``"silu"`` → ``"SiLU / Swish"``) for plots, in
    the lesson's language where it has words (``"GELU (tanh form)"``)."""
    return tr(_spec(name).label)
