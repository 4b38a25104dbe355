"""Lesson 03's measurements: activation curves, their derivatives, and what the derivative does.

Everything here computes and returns plain results (tensors, floats, dataclasses); the pictures
live in ``plots/activations.py``. Grids default to float64 so the checks against the analytic
derivatives in ``activations.py`` are exact to ~1e-12, not to float32's 1e-6.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import torch
from torch import Tensor

from .._checks import check_positive_int
from .._threads import one_thread
from ..activations import activation_derivative, get_activation

__all__ = [
    "ActivationCurves",
    "DepthSweep",
    "Extremum",
    "LESSON03_ACTIVATIONS",
    "SETUP",
    "Setup",
    "SwishFamily",
    "activation_curves",
    "activation_grid",
    "activation_minimum",
    "autograd_derivative",
    "derivative_max_error",
    "derivative_maximum",
    "gradient_norm_vs_depth",
    "max_abs_difference",
    "swish_beta",
    "swish_family",
]


#: The activations lesson 03 compares, modern ones first, then the historical two.
LESSON03_ACTIVATIONS: tuple[str, ...] = ("relu", "gelu", "silu", "sigmoid", "tanh")
_GOLDEN = (math.sqrt(5.0) - 1.0) / 2.0


@dataclass(frozen=True)
class Setup:
    """Lesson 03's grids and Swish temperatures, read by the notebook, widgets and figures."""

    curve_range: tuple[float, float] = (-4.0, 4.0)
    curve_points: int = 1601
    swish_betas: tuple[float, ...] = (0.1, 0.5, 1.0, 3.0, 10.0)


SETUP = Setup()


def activation_grid(lo: float = -6.0, hi: float = 6.0, points: int = 2401) -> Tensor:
    """An evenly spaced float64 grid ``(points,)`` on ``[lo, hi]`` for curves and checks."""
    check_positive_int("points", points)
    if not hi > lo:
        raise ValueError(f"the grid needs lo < hi, got lo={lo!r}, hi={hi!r}")
    return torch.linspace(lo, hi, points, dtype=torch.float64)


def autograd_derivative(name: str, x: Tensor) -> Tensor:
    """The derivative of activation ``name`` at ``x`` as autograd computes it: ``(*)`` → ``(*)``.

    Activations act element by element, so the gradient of ``sum(f(x))`` is ``f'(x)`` entry by
    entry. At ReLU's kink (x = 0) autograd returns 0, like the analytic ``(x > 0)``.
    """
    act = get_activation(name)
    leaf = x.detach().clone().requires_grad_(True)
    (grad,) = torch.autograd.grad(act(leaf).sum(), leaf)
    return grad


def derivative_max_error(name: str, x: Tensor) -> float:
    """``max |autograd f'(x) − analytic f'(x)|`` over the grid ``x`` ``(*)``: 0 up to rounding."""
    diff = autograd_derivative(name, x) - activation_derivative(name, x)
    return float(diff.abs().max())


@dataclass(frozen=True)
class ActivationCurves:
    """Values and autograd derivatives of several activations on one grid.

    ``x``: ``(P,)``; ``values[name]`` and ``derivatives[name]``: ``(P,)`` each.
    """

    x: Tensor
    values: dict[str, Tensor]
    derivatives: dict[str, Tensor]

    @property
    def names(self) -> tuple[str, ...]:
        """The activations held, in the order they were asked for."""
        return tuple(self.values)


def activation_curves(
    names: Sequence[str] = LESSON03_ACTIVATIONS, x: Tensor | None = None
) -> ActivationCurves:
    """Evaluate each activation in ``names`` and its autograd derivative on ``x`` ``(P,)``.

    ``x`` defaults to ``activation_grid()`` (float64, −6..6).
    """
    if not names:
        raise ValueError("activation_curves needs at least one activation name, got none")
    grid = activation_grid() if x is None else x.detach()
    if grid.dim() != 1:
        raise ValueError(f"x must be a 1-D grid (P,), got shape {tuple(grid.shape)}")
    values = {}
    derivatives = {}
    for name in names:
        with torch.no_grad():
            values[name] = get_activation(name)(grid)
        derivatives[name] = autograd_derivative(name, grid)
    return ActivationCurves(grid, values, derivatives)


@dataclass(frozen=True)
class Extremum:
    """Where a function reaches its extreme value on an interval: ``f(x) = value``."""

    x: float
    value: float


def _golden_minimum(f: Callable[[float], float], lo: float, hi: float, steps: int = 200) -> float:
    """Golden-section search for the minimiser of a unimodal ``f`` on ``[lo, hi]``."""
    a, b = lo, hi
    c, d = b - _GOLDEN * (b - a), a + _GOLDEN * (b - a)
    fc, fd = f(c), f(d)
    for _ in range(steps):
        if fc < fd:
            b, d, fd = d, c, fc
            c = b - _GOLDEN * (b - a)
            fc = f(c)
        else:
            a, c, fc = c, d, fd
            d = a + _GOLDEN * (b - a)
            fd = f(d)
    return (a + b) / 2.0


def _refined_minimum(f: Callable[[Tensor], Tensor], lo: float, hi: float) -> Extremum:
    # A dense grid finds the right basin; golden-section search then pins it to float64 precision.
    grid = activation_grid(lo, hi, 20001)
    values = f(grid)
    i = int(values.argmin())
    step = float(grid[1] - grid[0])
    a, b = max(lo, float(grid[i]) - step), min(hi, float(grid[i]) + step)

    def scalar(v: float) -> float:
        return float(f(torch.tensor([v], dtype=torch.float64))[0])

    x = _golden_minimum(scalar, a, b)
    return Extremum(x, scalar(x))


def _bisect_root(f: Callable[[float], float], a: float, b: float, steps: int = 200) -> float:
    """A root of ``f`` in ``[a, b]``, given ``f(a) < 0 < f(b)``."""
    for _ in range(steps):
        mid = (a + b) / 2.0
        if f(mid) < 0:
            a = mid
        else:
            b = mid
    return (a + b) / 2.0


def activation_minimum(name: str, lo: float = -5.0, hi: float = 5.0) -> Extremum:
    """The lowest point of activation ``name`` on ``[lo, hi]`` (SiLU: ≈ −0.278 at x ≈ −1.278).

    Where the analytic derivative changes sign around the grid minimum, the minimiser is pinned
    by bisection on f′ (float64, ~1e-15); otherwise the golden-section estimate is returned.
    """
    act = get_activation(name)
    with torch.no_grad():
        rough = _refined_minimum(act, lo, hi)

        def scalar(fn: Callable[[Tensor], Tensor], v: float) -> float:
            return float(fn(torch.tensor([v], dtype=torch.float64))[0])

        def slope(v: float) -> float:
            return scalar(lambda t: activation_derivative(name, t), v)

        step = (hi - lo) / 20000
        a, b = max(lo, rough.x - 2 * step), min(hi, rough.x + 2 * step)
        if slope(a) < 0 < slope(b):
            x = _bisect_root(slope, a, b)
            return Extremum(x, scalar(act, x))
        return rough


def derivative_maximum(name: str, lo: float = -5.0, hi: float = 5.0) -> Extremum:
    """The largest slope of activation ``name`` on ``[lo, hi]`` (sigmoid: 0.25 at x = 0)."""
    low = _refined_minimum(lambda x: -activation_derivative(name, x), lo, hi)
    return Extremum(low.x, -low.value)


def max_abs_difference(name_a: str, name_b: str, x: Tensor) -> Extremum:
    """Where on ``x`` ``(P,)`` two activations differ most, and by how much (``|f_a − f_b|``)."""
    with torch.no_grad():
        diff = (get_activation(name_a)(x) - get_activation(name_b)(x)).abs()
    i = int(diff.argmax())
    return Extremum(float(x[i]), float(diff[i]))


def swish_beta(x: Tensor, beta: float) -> Tensor:
    """Swish with a temperature: ``x·σ(βx)``, shape ``(*)`` → ``(*)``.

    β = 1 is SiLU; β → 0 tends to ``x/2``; β → ∞ tends to ReLU (the gap is ≈ 0.278/β, SiLU's own
    dip scaled down). β must be positive.
    """
    if not beta > 0:
        raise ValueError(f"beta must be positive, got {beta!r}")
    return x * torch.sigmoid(beta * x)


@dataclass(frozen=True)
class SwishFamily:
    """``x·σ(βx)`` for several β on one grid: ``x`` ``(P,)``, ``values[beta]`` ``(P,)``."""

    x: Tensor
    values: dict[float, Tensor]


def swish_family(betas: Sequence[float], x: Tensor | None = None) -> SwishFamily:
    """Evaluate ``swish_beta`` for every β in ``betas`` on ``x`` (default −4..4, float64)."""
    if not betas:
        raise ValueError("swish_family needs at least one beta, got none")
    grid = activation_grid(-4.0, 4.0, 801) if x is None else x.detach()
    return SwishFamily(grid, {float(b): swish_beta(grid, float(b)) for b in betas})


@dataclass(frozen=True)
class DepthSweep:
    """First-layer gradient norms of deep stacks, per activation and depth.

    ``norms[name][k]`` is ‖∂L/∂W₁‖ (Frobenius, geometric mean over seeds; 0.0 once float32
    underflows) for a stack of ``depths[k]`` layers; ``gain`` is the init scale used
    (weights ~ N(0, gain²/width)).
    """

    depths: tuple[int, ...]
    norms: dict[str, tuple[float, ...]]
    width: int
    gain: float

    def decay_per_layer(self, name: str) -> float:
        """The factor the gradient shrinks (<1) or grows (>1) by per extra layer, on average."""
        norms = self.norms[name]
        span = self.depths[-1] - self.depths[0]
        if span == 0:
            raise ValueError("decay_per_layer needs at least two different depths")
        if norms[-1] == 0.0:  # underflowed: the gradient vanished completely
            return 0.0
        return math.exp((math.log(norms[-1]) - math.log(norms[0])) / span)


def _first_layer_grad_norms(
    name: str, depths: Sequence[int], width: int, batch: int, gain: float, seed: int
) -> list[float]:
    gen = torch.Generator().manual_seed(seed)
    deepest = max(depths)
    weights = [
        torch.randn(width, width, generator=gen) * (gain / math.sqrt(width)) for _ in range(deepest)
    ]
    inputs = torch.randn(batch, width, generator=gen)
    cotangent = torch.randn(batch, width, generator=gen)
    act = get_activation(name)
    norms = []
    for depth in depths:
        first = weights[0].clone().requires_grad_(True)
        h = act(inputs @ first.T)  # (B, width)
        for w in weights[1:depth]:
            h = act(h @ w.T)  # (B, width)
        # A fixed random cotangent isolates the backward pass from what the loss would be.
        (grad,) = torch.autograd.grad((h * cotangent).sum() / batch, first)
        norms.append(float(grad.norm()))
    return norms


def gradient_norm_vs_depth(
    names: Sequence[str] = LESSON03_ACTIVATIONS,
    depths: Sequence[int] = (1, 2, 4, 6, 8, 12, 16, 24, 32),
    width: int = 64,
    batch: int = 256,
    gain: float = math.sqrt(2.0),
    seeds: int = 3,
) -> DepthSweep:
    """How much gradient reaches the first layer of ``Linear → act`` stacks of each depth.

    For every activation and depth, a bias-free stack of ``depth`` layers (width ``width``,
    weights ~ N(0, gain²/width), He init by default) runs a batch ``(batch, width)`` of Gaussian
    inputs; a fixed random cotangent on the output is pulled back and ‖∂L/∂W₁‖ recorded. Each
    layer multiplies the backward signal's norm by about ``gain·√E[f'(z)²]``: below 1 it vanishes
    geometrically (sigmoid: f' ≤ 0.25, so at most √2·0.25 ≈ 0.35 with He init), near 1 it
    survives (ReLU: √2·√½ = 1).
    """
    check_positive_int("width", width)
    check_positive_int("batch", batch)
    check_positive_int("seeds", seeds)
    if not depths or any(not isinstance(d, int) or d < 1 for d in depths):
        raise ValueError(f"depths must be positive integers, got {tuple(depths)!r}")
    if list(depths) != sorted(depths):
        raise ValueError(f"depths must be increasing, got {tuple(depths)!r}")
    norms: dict[str, tuple[float, ...]] = {}
    with one_thread():
        for name in names:
            runs = torch.tensor(
                [
                    _first_layer_grad_norms(name, depths, width, batch, gain, s)
                    for s in range(seeds)
                ],
                dtype=torch.float64,
            )  # (seeds, len(depths))
            # A float32 gradient can underflow to exactly 0; its geometric mean is then 0.
            norms[name] = tuple(runs.log().mean(0).exp().tolist())
    return DepthSweep(tuple(depths), norms, width, gain)
