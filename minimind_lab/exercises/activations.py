"""Lesson 03's build-it piece: an activation's derivative, written by hand."""

from __future__ import annotations

import math
from collections.abc import Callable

import torch
import torch.nn.functional as F
from torch import Tensor

from .. import activations as _activations
from ..activations import ACTIVATION_NAMES, activation_derivative, get_activation
from ..i18n import tr
from ._compare import (
    Forbidden,
    checker,
    compare_tensor,
    require_function,
    run_learner,
    success,
)

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
            tr(
                "this is Φ(x) + φ(x): the product rule's second term is x·φ(x), the density times x"
            ): lambda: _cdf(x) + _phi(x),
            tr(
                "Φ(x) is written as gelu(x)/x, which is 0/0 = NaN at x = 0; write Φ(x) = "
                "½(1 + erf(x/√2)) instead"
            ): lambda: F.gelu(x) / x + x * _phi(x),
            tr(
                "φ(x) lacks its 1/√(2π): the density of the standard normal is exp(−x²/2)/√(2π)"
            ): lambda: _cdf(x) + x * torch.exp(-0.5 * x * x),
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
            tr(
                "σ(x) is written as silu(x)/x, which is 0/0 = NaN at x = 0; use torch.sigmoid(x)"
            ): lambda: F.silu(x) / x * (1 + x * (1 - sig)),
        }
    if name == "relu":
        mistakes[tr("the slope at x = 0 is 1 here; the reference (and autograd) use 0 there")] = (
            lambda: (x >= 0).to(x.dtype)
        )
        mistakes[
            tr(
                "this is the slope of clamp(max=0), 1 for x < 0; ReLU = clamp(min=0) has slope 1 "
                "for x > 0 and 0 elsewhere"
            )
        ] = lambda: (x < 0).to(x.dtype)
    if name == "tanh":
        mistakes[tr("this is 1 − tanh(x): the tanh should be squared, 1 − tanh²(x)")] = lambda: (
            1 - torch.tanh(x)
        )
        mistakes[tr("this is 1 − x²: the square is of tanh(x), 1 − tanh²(x)")] = lambda: 1 - x * x
    if name == "sigmoid":
        mistakes[tr("this is σ(x)(1 + σ(x)); the slope is σ(x)(1 − σ(x))")] = lambda: (
            sig * (1 + sig)
        )
    if name == "identity":
        mistakes[tr("this is 0; the identity's slope is 1 everywhere")] = lambda: torch.zeros_like(
            x
        )
    for other in ACTIVATION_NAMES:
        same = {"silu": "swish", "swish": "silu"}.get(name)
        if other not in (name, same):
            wrong = tr("this is the derivative of {other}, not of {name}", other=other, name=name)
            mistakes[wrong] = _slope_of(other, x)
    return mistakes


def _forbidden() -> Forbidden:
    """The package's own slopes: the exercise is to write one."""
    message = tr(
        "your code calls ml.activation_derivative (or the slope it looks up), the package's own "
        "answer; write the formula yourself with torch.erf, torch.exp, torch.sigmoid, ..."
    )
    derivatives = [_activations._spec(name).derivative for name in ACTIVATION_NAMES]
    return dict.fromkeys([activation_derivative, *derivatives], message)


def _cases() -> dict[str, Tensor]:
    g = torch.Generator().manual_seed(303)
    # Grids built from integers, so x = 0 (and every other point) is exact under any kernel.
    return {
        tr("x on a grid from -6 to 6 in steps of 0.05 (0 included)"): torch.arange(-120, 121) / 20,
        tr("random x of shape (3, 4, 5)"): torch.randn(3, 4, 5, generator=g),
        tr("float64 x on a grid from -4 to 4 in steps of 0.05 (0 included)"): (
            torch.arange(-80, 81, dtype=torch.float64) / 20
        ),
        tr("large x: -30, -10, 10, 30"): torch.tensor([-30.0, -10.0, 10.0, 30.0]),
    }


@checker
def check_activation_derivative(fn: DerivativeFn, name: str = "gelu") -> None:
    """Check ``fn(x)`` against the derivative of activation ``name``; ``ExerciseError`` if off.

    ``fn``: ``(*)`` → ``(*)``, same shape and dtype as ``x``, written by hand: it runs under
    ``torch.no_grad()``, and a call of autograd or of ``ml.activation_derivative`` is refused.
    ``name``: one of ``ml.ACTIVATION_NAMES``. Cases: a grid from −6 to 6 in steps of 0.05 (built
    from integers, so 0 is exactly in it), a random ``(3, 4, 5)`` tensor, float64, and large
    ``±30``. A function that changes ``x`` in place is refused. Prints one line when every case
    matches.
    """
    require_function("fn", fn, tr("a function fn(x) returning the derivative at x"))
    if not isinstance(name, str) or name not in ACTIVATION_NAMES:
        raise ValueError(
            tr(
                "name must be one of {names}, got {name!r}",
                names=", ".join(ACTIVATION_NAMES),
                name=name,
            )
        )
    no_autograd = tr(
        "your code uses autograd (torch.autograd.grad, .backward(), torch.func, ...); this "
        "exercise asks for the derivative written out by hand, and the checker runs your "
        "function under torch.no_grad()"
    )
    cases = _cases()
    for case, x in cases.items():
        got = run_learner(
            fn,
            case,
            x.clone(),
            names=("x",),
            forbidden=_forbidden(),
            without_autograd=no_autograd,
        )
        compare_tensor(
            got,
            activation_derivative(name, x),
            case=case,
            what="derivative",
            wrong_versions=_known_mistakes(name, x),
            nan_cause=tr(
                "look for a division by x (0/0 = NaN at x = 0) or an exp of a large |x| that "
                "overflows (inf/inf); σ(x), tanh(x) and exp(−x²/2) stay finite"
            ),
        )
    success(
        tr(
            "your derivative of {name} matches the reference on {n} cases.",
            name=name,
            n=len(cases),
        )
    )
