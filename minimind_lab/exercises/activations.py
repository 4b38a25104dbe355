"""Lesson 03's build-it piece: an activation's derivative, written by hand."""

from __future__ import annotations

import math
from collections.abc import Callable

import torch
from torch import Tensor

from ..activations import ACTIVATION_NAMES, activation_derivative, get_activation
from ..i18n import tr
from ._compare import checker, compare_tensor, require_callable, run_learner, success

#: ``fn(x)``: ``(*)`` → ``(*)``, the derivative at every entry.
DerivativeFn = Callable[[Tensor], Tensor]


def _phi(x: Tensor) -> Tensor:
    return torch.exp(-0.5 * x * x) / math.sqrt(2 * math.pi)


def _cdf(x: Tensor) -> Tensor:
    return 0.5 * (1 + torch.erf(x / math.sqrt(2)))


def _slope_of(name: str, x: Tensor) -> Callable[[], Tensor]:
    return lambda: activation_derivative(name, x)


def _known_mistakes(name: str, x: Tensor) -> dict[str, Callable[[], Tensor]]:
    sig = torch.sigmoid(x)
    mistakes: dict[str, Callable[[], Tensor]] = {
        tr("this is the activation itself, not its derivative"): lambda: get_activation(name)(x),
    }
    if name == "gelu":
        mistakes |= {
            tr(
                "this is Φ(x) only: the product rule's second term x·φ(x) is missing "
                "(GELU = x·Φ(x), so its slope is Φ(x) + x·φ(x))"
            ): lambda: _cdf(x),
            tr(
                "tanh approximation of GELU used where the exact erf one is expected "
                "(this is the slope of gelu_pytorch_tanh)"
            ): lambda: activation_derivative("gelu_pytorch_tanh", x),
            tr("this is x·φ(x) only: the term Φ(x) is missing"): lambda: x * _phi(x),
        }
    if name in ("silu", "swish"):
        mistakes |= {
            tr(
                "this is σ(x) only: the product rule's second term x·σ(x)(1 − σ(x)) is missing "
                "(SiLU = x·σ(x))"
            ): lambda: sig,
            tr("this is σ(x)(1 − σ(x)), the derivative of sigmoid, not of SiLU = x·σ(x)"): lambda: (
                sig * (1 - sig)
            ),
        }
    if name == "relu":
        mistakes[tr("the slope at x = 0 is 1 here; the reference (and autograd) use 0 there")] = (
            lambda: (x >= 0).to(x.dtype)
        )
    if name == "tanh":
        mistakes[tr("this is 1 − tanh(x): the tanh should be squared, 1 − tanh²(x)")] = lambda: (
            1 - torch.tanh(x)
        )
    if name == "sigmoid":
        mistakes[tr("this is σ(x)(1 + σ(x)); the slope is σ(x)(1 − σ(x))")] = lambda: (
            sig * (1 + sig)
        )
    for other in ACTIVATION_NAMES:
        same = {"silu": "swish", "swish": "silu"}.get(name)
        if other not in (name, same):
            wrong = tr("this is the derivative of {other}, not of {name}", other=other, name=name)
            mistakes[wrong] = _slope_of(other, x)
    return mistakes


@checker
def check_activation_derivative(fn: DerivativeFn, name: str = "gelu") -> None:
    """Check ``fn(x)`` against the derivative of activation ``name``; ``ExerciseError`` if off.

    ``fn``: ``(*)`` → ``(*)``, same shape and dtype as ``x``. ``name``: one of
    ``ml.ACTIVATION_NAMES``. Cases: a grid from −6 to 6 (through 0 and GELU's and SiLU's minima),
    a random ``(3, 4, 5)`` tensor, float64, and large ``±30``. Prints one line when every case
    matches.
    """
    require_callable("fn", fn, "a function fn(x) returning the derivative at x")
    if not isinstance(name, str) or name not in ACTIVATION_NAMES:
        raise ValueError(f"name must be one of {', '.join(ACTIVATION_NAMES)}, got {name!r}")
    g = torch.Generator().manual_seed(303)
    cases = {
        tr("x on a grid from -6 to 6 (241 points, 0 included)"): torch.linspace(-6, 6, 241),
        tr("random x of shape (3, 4, 5)"): torch.randn(3, 4, 5, generator=g),
        tr("float64 x on a grid from -4 to 4"): torch.linspace(-4, 4, 81, dtype=torch.float64),
        tr("large x: -30, -10, 10, 30"): torch.tensor([-30.0, -10.0, 10.0, 30.0]),
    }
    for case, x in cases.items():
        got = run_learner(fn, case, x.clone())
        compare_tensor(
            got,
            activation_derivative(name, x),
            case=case,
            what="derivative",
            wrong_versions=_known_mistakes(name, x),
        )
    success(
        tr(
            "your derivative of {name} matches the reference on {n} cases.",
            name=name,
            n=len(cases),
        )
    )
