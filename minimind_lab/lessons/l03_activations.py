"""Lesson 03's measurements: activation curves, their derivatives, and what the derivative does.

Everything here computes and returns plain results (tensors, floats, dataclasses); the pictures
live in ``plots/l03_activations.py``. Grids default to float64 so the checks against the analytic
derivatives in ``activations.py`` are exact to ~1e-12, not to float32's 1e-6.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import torch
from torch import Tensor

from .._checks import check_nonnegative_int, check_positive_int
from .._threads import one_thread
from ..activations import activation_derivative, get_activation
from ..attention import RMSNorm
from ..i18n import tr, tr_noop
from ..i18n.table import text_table

__all__ = [
    "ActivationCurves",
    "DepthSweep",
    "Extremum",
    "LESSON03_ACTIVATIONS",
    "SETUP",
    "STACK_BLOCKS",
    "Setup",
    "SwishFamily",
    "activation_curves",
    "activation_grid",
    "activation_minimum",
    "autograd_derivative",
    "block_step",
    "block_table",
    "depth_table",
    "derivative_max_error",
    "derivative_maximum",
    "first_layer_gradient",
    "gradient_norm_vs_depth",
    "max_abs_difference",
    "rule_table",
    "seed_range",
    "slope_by_layer_table",
    "swish_beta",
    "swish_family",
    "zero_slope_points",
]


#: The activations lesson 03 compares, modern ones first, then the historical two.
LESSON03_ACTIVATIONS: tuple[str, ...] = ("relu", "gelu", "silu", "sigmoid", "tanh")
_GOLDEN = (math.sqrt(5.0) - 1.0) / 2.0


#: The stacks of lesson 03's depth experiment: ``h ← f(Wh)``, ``h ← h + f(Wh)`` and the
#: pre-norm residual ``h ← h + f(W·RMSNorm(h))`` (the layout of lesson 01's block).
STACK_BLOCKS: tuple[str, ...] = ("plain", "residual", "prenorm")
#: How ``block_table`` heads each kind of stack (translated where it is printed).
_BLOCK_LABELS: dict[str, str] = {
    "plain": tr_noop("plain"),
    "residual": tr_noop("residual"),
    "prenorm": tr_noop("prenorm"),
}


@dataclass(frozen=True)
class Setup:
    """Lesson 03's grids, Swish temperatures and depth experiment, read by the notebook, the
    widgets and the figures."""

    curve_range: tuple[float, float] = (-4.0, 4.0)
    curve_points: int = 1601
    #: The dense grid of the autograd-vs-formula check: step 0.001, x = 0 exactly in the middle.
    check_range: tuple[float, float] = (-8.0, 8.0)
    check_points: int = 16001
    swish_betas: tuple[float, ...] = (0.1, 0.5, 1.0, 3.0, 10.0)
    swish_range: tuple[float, float] = (-4.0, 4.0)
    swish_points: int = 801
    explorer_range: tuple[float, float] = (-6.0, 6.0)
    explorer_points: int = 801
    depths: tuple[int, ...] = (1, 2, 4, 8, 16, 32)
    depth_width: int = 64
    depth_batch: int = 128
    depth_gain: float = math.sqrt(2.0)  # He (Kaiming) initialisation
    depth_seeds: int = 3


SETUP = Setup()


def activation_grid(lo: float = -6.0, hi: float = 6.0, points: int = 2401) -> Tensor:
    """An evenly spaced float64 grid ``(points,)`` on ``[lo, hi]`` for curves and checks.

    Point ``i`` is ``(lo·(n − i) + hi·i) / n`` with ``n = points − 1``, so the ends are exact, a
    symmetric grid (``lo = −hi``) is exactly antisymmetric, and with an odd number of points its
    middle point is exactly 0 (``torch.linspace`` gives −1.7e-16 there for −8..8, 16001 points).
    """
    check_positive_int("points", points)
    if not (math.isfinite(lo) and math.isfinite(hi) and hi > lo):
        raise ValueError(f"the grid needs finite ends with lo < hi, got lo={lo!r}, hi={hi!r}")
    if points == 1:
        return torch.tensor([float(lo)], dtype=torch.float64)
    n = points - 1
    i = torch.arange(points, dtype=torch.float64)
    return (float(lo) * (n - i) + float(hi) * i) / n


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


def zero_slope_points(name: str, x: Tensor) -> tuple[float, ...]:
    """Where the slope of activation ``name`` crosses zero on the grid ``x`` ``(P,)``, increasing.

    Each strict sign change of the autograd derivative between neighbouring grid points is pinned
    by bisection on the analytic derivative (float64, ~1e-15). A slope that is exactly 0 over a
    stretch (ReLU for x < 0) changes no sign and gives no point: this finds isolated zeros, such as
    the minima of GELU (x ≈ −0.7518) and SiLU (x ≈ −1.2785).
    """
    if x.dim() != 1 or x.numel() < 2:
        raise ValueError(f"x must be a 1-D grid of at least 2 points, got shape {tuple(x.shape)}")
    grid = x.detach().double().cpu()
    sign = torch.sign(autograd_derivative(name, grid))
    crossings = torch.nonzero(sign[:-1] * sign[1:] < 0).flatten().tolist()

    def slope(v: float) -> float:
        return float(activation_derivative(name, torch.tensor([v], dtype=torch.float64))[0])

    roots = []
    for i in crossings:
        a, b = float(grid[i]), float(grid[i + 1])
        if slope(a) < 0:
            roots.append(_bisect_root(slope, a, b))
        else:  # falling through zero: bisect −f′ instead
            roots.append(_bisect_root(lambda v: -slope(v), a, b))
    return tuple(roots)


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
    """Evaluate ``swish_beta`` for every β in ``betas`` on ``x`` (default: ``SETUP.swish_range``
    with ``SETUP.swish_points`` points, float64)."""
    if not betas:
        raise ValueError("swish_family needs at least one beta, got none")
    grid = activation_grid(*SETUP.swish_range, SETUP.swish_points) if x is None else x.detach()
    return SwishFamily(grid, {float(b): swish_beta(grid, float(b)) for b in betas})


@dataclass(frozen=True)
class DepthSweep:
    """First-layer gradient norms of deep stacks, per activation and depth.

    ``norms[name][k]``: ‖∂L/∂W₁‖ (Frobenius norm, taken in float64; geometric mean over the seeds)
    for a stack of ``depths[k]`` blocks; ``per_seed[name][s][k]``: the same for seed ``s`` alone.
    ``slope_sq[name][l]``: the mean of f′(z)² over the pre-activations ``z`` ``(batch, width)``
    of layer ``l + 1`` of the deepest stack (averaged over the seeds);
    ``slope_sq_per_seed[name][s][l]``: the same for seed ``s`` alone. ``weighted_slope_sq`` and
    ``weighted_slope_sq_per_seed``: the same means with each entry weighted by g², where
    ``g = ∂L/∂(the layer's output)`` in the deepest stack: ``Σ g²·f′(z)² / Σ g²``, the slope the
    backward signal meets (NaN where g is all zero).
    ``block`` is one of ``STACK_BLOCKS``; ``gain``
    the init scale (weights ~ N(0, gain²/width)). Every norm must be positive and finite: a
    gradient that underflowed to exactly 0 is refused here rather than turned into a factor.
    """

    depths: tuple[int, ...]
    norms: dict[str, tuple[float, ...]]
    width: int
    gain: float
    block: str = "plain"
    per_seed: dict[str, tuple[tuple[float, ...], ...]] = field(default_factory=dict)
    slope_sq: dict[str, tuple[float, ...]] = field(default_factory=dict)
    slope_sq_per_seed: dict[str, tuple[tuple[float, ...], ...]] = field(default_factory=dict)
    weighted_slope_sq: dict[str, tuple[float, ...]] = field(default_factory=dict)
    weighted_slope_sq_per_seed: dict[str, tuple[tuple[float, ...], ...]] = field(
        default_factory=dict
    )

    def __post_init__(self) -> None:
        if self.block not in STACK_BLOCKS:
            raise ValueError(f"block must be one of {STACK_BLOCKS}, got {self.block!r}")
        for name, norms in self.norms.items():
            if len(norms) != len(self.depths):
                raise ValueError(
                    f"{name}: {len(norms)} norms for {len(self.depths)} depths; expected one each"
                )
            for depth, norm in zip(self.depths, norms, strict=True):
                if not (math.isfinite(norm) and norm > 0):
                    raise ValueError(
                        f"{name}: the gradient norm at depth {depth} is {norm!r}; expected a "
                        "positive finite number (a float32 gradient underflowed? use float64)"
                    )

    def _norms(self, name: str) -> tuple[float, ...]:
        if name not in self.norms:
            raise ValueError(
                f"no activation {name!r} in this sweep; expected one of {tuple(self.norms)}"
            )
        return self.norms[name]

    def _seed_index(self, name: str, seed: int, measured: dict) -> int:
        runs = measured.get(name, ())
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < len(runs):
            raise ValueError(
                f"seed must be an int in 0..{len(runs) - 1} (the seeds measured for {name!r}), "
                f"got {seed!r}"
            )
        return seed

    @property
    def seeds(self) -> tuple[int, ...]:
        """The seeds measured one by one (``per_seed``), ``(0, 1, …)``; empty if none were."""
        return tuple(range(len(next(iter(self.per_seed.values()), ()))))

    def decay_per_layer(self, name: str, seed: int | None = None) -> float:
        """The factor the gradient shrinks (<1) or grows (>1) by per extra layer, on average:
        ``(norm(deepest) / norm(shallowest)) ** (1 / depth difference)``, for the geometric mean
        over the seeds, or for seed ``seed`` alone."""
        norms = self._norms(name)
        if seed is not None:
            norms = self.per_seed[name][self._seed_index(name, seed, self.per_seed)]
        span = self.depths[-1] - self.depths[0]
        if span == 0:
            raise ValueError("decay_per_layer needs at least two different depths")
        return math.exp((math.log(norms[-1]) - math.log(norms[0])) / span)

    def mean_slope_sq(self, name: str, seed: int | None = None, *, weighted: bool = False) -> float:
        """The geometric mean over layers of E[f′(z)²] in the deepest plain stack: over the layers
        the per-layer factor spans (``depths[0] + 1`` to ``depths[-1]``), averaged over the seeds
        or for seed ``seed`` alone. ``weighted=True`` reads the g²-weighted means
        (``weighted_slope_sq``) instead of the plain ones.

        A geometric mean, because the layers' factors multiply: ``gain·√(this)`` is the per-layer
        factor the rule predicts for the whole stack.
        """
        self._norms(name)
        if self.block != "plain":
            raise ValueError(f"the gain·√E[f′²] rule is for plain stacks, not block={self.block!r}")
        plain, per_seed = (
            (self.weighted_slope_sq, self.weighted_slope_sq_per_seed)
            if weighted
            else (self.slope_sq, self.slope_sq_per_seed)
        )
        if name not in plain:
            raise ValueError(f"no slope measurements for {name!r} in this sweep")
        slopes = plain[name]
        if seed is not None:
            slopes = per_seed[name][self._seed_index(name, seed, per_seed)]
        layers = slopes[self.depths[0] : self.depths[-1]]
        if not layers:
            raise ValueError("rule_of_thumb needs at least two different depths")
        if not all(math.isfinite(v) and v > 0 for v in layers):
            raise ValueError(f"{name}: a layer's mean slope is not positive and finite: {layers}")
        return math.exp(sum(math.log(v) for v in layers) / len(layers))

    def rule_of_thumb(self, name: str, seed: int | None = None, *, weighted: bool = False) -> float:
        """``gain·√E[f′(z)²]`` for a plain stack, with E measured layer by layer on the deepest
        stack and combined by ``mean_slope_sq`` (geometric mean over the layers above the
        shallowest depth), averaged over the seeds or for seed ``seed`` alone.

        The rule treats every layer as multiplying the backward signal's norm by the weights' gain
        times the root-mean-square slope; with the plain mean it holds when slopes and signals are
        independent. ``weighted=True`` uses the g²-weighted mean, the slope the signal meets.
        Only defined for ``block="plain"``: a residual adds the identity to every layer.
        """
        return self.gain * math.sqrt(self.mean_slope_sq(name, seed, weighted=weighted))


def _check_block(block: str) -> str:
    if block not in STACK_BLOCKS:
        raise ValueError(f"block must be one of {', '.join(STACK_BLOCKS)}; got {block!r}")
    return block


def _check_dtype(dtype: torch.dtype) -> torch.dtype:
    if dtype not in (torch.float32, torch.float64):
        raise ValueError(f"dtype must be torch.float32 or torch.float64, got {dtype!r}")
    return dtype


def _stack_draws(
    depth: int, width: int, batch: int, gain: float, seed: int, dtype: torch.dtype
) -> tuple[Tensor, Tensor, list[Tensor]]:
    """Inputs ``(batch, width)``, cotangent ``(batch, width)`` and ``depth`` weights
    ``(width, width)`` ~ N(0, gain²/width), drawn in that order from one seeded generator, so a
    stack of depth d uses the first d weights of any deeper one."""
    gen = torch.Generator().manual_seed(seed)
    inputs = torch.randn(batch, width, generator=gen)
    cotangent = torch.randn(batch, width, generator=gen)
    weights = [
        torch.randn(width, width, generator=gen) * (gain / math.sqrt(width)) for _ in range(depth)
    ]
    return inputs.to(dtype), cotangent.to(dtype), [w.to(dtype) for w in weights]


def block_step(
    h: Tensor, w: Tensor, act: torch.nn.Module, block: str, norm: RMSNorm
) -> tuple[Tensor, Tensor]:
    """One block of the depth experiment: the new stream ``(B, width)`` and the pre-activation
    ``z`` ``(B, width)``, for ``h`` ``(B, width)`` and ``w`` ``(width, width)``.

    ``"plain"``: ``f(Wh)``; ``"residual"``: ``h + f(Wh)``; ``"prenorm"``: ``h + f(W·norm(h))``.
    """
    _check_block(block)
    if block == "plain":
        z = h @ w.T
        return act(z), z
    z = (norm(h) if block == "prenorm" else h) @ w.T
    return h + act(z), z  # the residual: the stream itself passes on unchanged


def _check_stack_args(width: int, batch: int, gain: float, seed: int) -> None:
    check_positive_int("width", width)
    check_positive_int("batch", batch)
    check_nonnegative_int("seed", seed)
    if (
        isinstance(gain, bool)
        or not isinstance(gain, (int, float))
        or not (math.isfinite(gain) and gain > 0)
    ):
        raise ValueError(f"gain must be a positive finite number, got {gain!r}")


def first_layer_gradient(
    name: str,
    depth: int,
    width: int = SETUP.depth_width,
    batch: int = SETUP.depth_batch,
    gain: float = SETUP.depth_gain,
    seed: int = 0,
    block: str = "plain",
    dtype: torch.dtype = torch.float32,
) -> Tensor:
    """∂L/∂W₁ ``(width, width)`` of one stack of ``depth`` blocks, as ``gradient_norm_vs_depth``
    computes it for every depth and seed.

    The stack runs a batch ``(batch, width)`` of Gaussian inputs; ``L = Σ(h·c)/batch`` for a fixed
    random cotangent ``c`` on the output, so only the backward pass (反向传播) is measured, not what
    a particular loss would be. Returned in ``dtype`` (float32 by default, like a real network).
    """
    check_positive_int("depth", depth)
    _check_stack_args(width, batch, gain, seed)
    _check_block(block)
    _check_dtype(dtype)
    act = get_activation(name)
    norm = RMSNorm(width).to(dtype)
    inputs, cotangent, weights = _stack_draws(depth, width, batch, gain, seed, dtype)
    with one_thread():
        first = weights[0].clone().requires_grad_(True)
        h = inputs
        for w in [first, *weights[1:]]:
            h, _ = block_step(h, w, act, block, norm)  # (B, width)
        (grad,) = torch.autograd.grad((h * cotangent).sum() / batch, first)
    return grad


def _first_layer_grad_norms(
    name: str,
    depths: Sequence[int],
    width: int,
    batch: int,
    gain: float,
    seed: int,
    block: str,
    dtype: torch.dtype,
) -> tuple[list[float], list[float], list[float]]:
    """One forward pass to the deepest stack, one backward per depth.

    Returns the norms (one per depth), and the mean f′(z)² of every layer of the deepest stack,
    plain and weighted by g² (g: the backward signal at that layer's output).
    """
    act = get_activation(name)
    norm = RMSNorm(width).to(dtype)
    inputs, cotangent, weights = _stack_draws(max(depths), width, batch, gain, seed, dtype)
    first = weights[0].clone().requires_grad_(True)
    h = inputs
    outputs, slopes = {}, []
    for i, w in enumerate([first, *weights[1:]], start=1):
        h, z = block_step(h, w, act, block, norm)  # (B, width)
        outputs[i] = h
        slopes.append(activation_derivative(name, z.detach().double()).pow(2))  # (B, width)
    slope_sq = [float(s.mean()) for s in slopes]
    deepest = (outputs[max(depths)] * cotangent).sum() / batch
    signals = torch.autograd.grad(deepest, list(outputs.values()), retain_graph=True)
    weighted_sq = []
    for s, g in zip(slopes, signals, strict=True):
        g2 = g.detach().double().pow(2)  # (B, width)
        total = float(g2.sum())
        weighted_sq.append(float((g2 * s).sum()) / total if total > 0 else math.nan)
    norms = []
    for depth in depths:
        loss = (outputs[depth] * cotangent).sum() / batch
        (grad,) = torch.autograd.grad(loss, first, retain_graph=True)
        # float32 squares of entries below ~1e-23 underflow, so the norm is taken in float64.
        norms.append(float(grad.double().norm()))
    return norms, slope_sq, weighted_sq


def gradient_norm_vs_depth(
    names: Sequence[str] = LESSON03_ACTIVATIONS,
    depths: Sequence[int] = SETUP.depths,
    width: int = SETUP.depth_width,
    batch: int = SETUP.depth_batch,
    gain: float = SETUP.depth_gain,
    seeds: int = SETUP.depth_seeds,
    block: str = "plain",
    dtype: torch.dtype = torch.float32,
) -> DepthSweep:
    """How much gradient reaches the first layer of stacks of each depth, per activation.

    For every activation, seed and depth, a bias-free stack (width ``width``, weights ~
    N(0, gain²/width); ``gain = √2`` is He initialisation) of ``block`` blocks (``"plain"``:
    ``h ← f(Wh)``; ``"residual"``: ``h ← h + f(Wh)``; ``"prenorm"``: ``h ← h + f(W·RMSNorm(h))``)
    runs a batch ``(batch, width)``; ``first_layer_gradient`` gives ∂L/∂W₁ and its norm is
    recorded (in float64). In a plain stack each layer multiplies the backward signal's norm by
    about ``gain·√E[f′(z)²]`` (``DepthSweep.rule_of_thumb``): below 1 it vanishes geometrically
    (sigmoid: f′ ≤ 0.25, so at most √2·0.25 ≈ 0.35 with He init), near 1 it survives (ReLU:
    √2·√½ = 1). Raises ``ValueError`` if a float32 gradient underflows to exactly 0.
    """
    if not names:
        raise ValueError("gradient_norm_vs_depth needs at least one activation name, got none")
    _check_stack_args(width, batch, gain, 0)
    check_positive_int("seeds", seeds)
    _check_block(block)
    _check_dtype(dtype)
    if not depths or any(isinstance(d, bool) or not isinstance(d, int) or d < 1 for d in depths):
        raise ValueError(f"depths must be positive integers, got {tuple(depths)!r}")
    if list(depths) != sorted(set(depths)):
        raise ValueError(f"depths must be strictly increasing, got {tuple(depths)!r}")
    norms: dict[str, tuple[float, ...]] = {}
    per_seed: dict[str, tuple[tuple[float, ...], ...]] = {}
    slope_sq: dict[str, tuple[float, ...]] = {}
    slope_sq_per_seed: dict[str, tuple[tuple[float, ...], ...]] = {}
    weighted: dict[str, tuple[float, ...]] = {}
    weighted_per_seed: dict[str, tuple[tuple[float, ...], ...]] = {}
    with one_thread():
        for name in names:
            results = [
                _first_layer_grad_norms(name, depths, width, batch, gain, s, block, dtype)
                for s in range(seeds)
            ]
            runs = torch.tensor([r[0] for r in results], dtype=torch.float64)  # (seeds, depths)
            per_seed[name] = tuple(tuple(r[0]) for r in results)
            # Geometric mean over seeds; a zero (an underflowed gradient) stays 0 and is refused
            # by DepthSweep below.
            norms[name] = tuple(runs.log().mean(0).exp().tolist())
            slope_sq[name] = tuple(torch.tensor([r[1] for r in results]).mean(0).tolist())
            slope_sq_per_seed[name] = tuple(tuple(r[1]) for r in results)
            weighted[name] = tuple(
                torch.tensor([r[2] for r in results], dtype=torch.float64).mean(0).tolist()
            )
            weighted_per_seed[name] = tuple(tuple(r[2]) for r in results)
    return DepthSweep(
        tuple(depths),
        norms,
        width,
        float(gain),
        block,
        per_seed,
        slope_sq,
        slope_sq_per_seed,
        weighted,
        weighted_per_seed,
    )


# The tables the notebook prints: labels through ``tr``, columns padded by display width
# (``i18n.table.text_table``, the one helper every lesson's tables use).


def seed_range(values: Sequence[float], fmt: str = ".2f") -> str:
    """``"lo–hi"``: the smallest and the largest of ``values`` (one per seed), each in ``fmt``."""
    if not values:
        raise ValueError("seed_range needs at least one value, got none")
    return f"{format(min(values), fmt)}–{format(max(values), fmt)}"


def depth_table(sweep: DepthSweep) -> str:
    """Lesson 03's table of a plain depth sweep, one row per activation, each cell the range over
    the seeds: the gradient norm at the shallowest and the deepest depth, the factor per layer,
    E[f′(z)²] (``sweep.mean_slope_sq``: geometric mean over the layers) and the rule
    ``gain·√E[f′(z)²]``."""
    head = [
        tr("depth {depth}", depth=sweep.depths[0]),
        tr("depth {depth}", depth=sweep.depths[-1]),
        tr("per layer"),
        "E[f′(z)²]",
        tr("rule"),
    ]
    rows = []
    for name, runs in sweep.per_seed.items():
        seeds = sweep.seeds
        cells = [
            seed_range([run[0] for run in runs], ".0e"),
            seed_range([run[-1] for run in runs], ".0e"),
            "×" + seed_range([sweep.decay_per_layer(name, s) for s in seeds]),
            seed_range([sweep.mean_slope_sq(name, s) for s in seeds]),
            "×" + seed_range([sweep.rule_of_thumb(name, s) for s in seeds]),
        ]
        rows.append([name, *cells])
    return text_table([tr("{n} seeds", n=len(sweep.seeds)), *head], rows)


def rule_table(sweep: DepthSweep) -> str:
    """The rule against the measurement, one row per activation of a plain sweep, each cell the
    range over the seeds: E[f′(z)²] plain and g²-weighted (``sweep.mean_slope_sq``), then the
    measured factor per layer divided by the rule made from each."""
    head = [
        "E[f′(z)²]",
        tr("g²-weighted"),
        tr("measured ÷ rule"),
        tr("÷ weighted rule"),
    ]
    rows = []
    for name in sweep.per_seed:
        seeds = sweep.seeds
        factor = [sweep.decay_per_layer(name, s) for s in seeds]
        plain = [sweep.rule_of_thumb(name, s) for s in seeds]
        weighted = [sweep.rule_of_thumb(name, s, weighted=True) for s in seeds]
        cells = [
            seed_range([sweep.mean_slope_sq(name, s) for s in seeds]),
            seed_range([sweep.mean_slope_sq(name, s, weighted=True) for s in seeds]),
            seed_range([f / r for f, r in zip(factor, plain, strict=True)]),
            seed_range([f / r for f, r in zip(factor, weighted, strict=True)]),
        ]
        rows.append([name, *cells])
    return text_table([tr("{n} seeds", n=len(sweep.seeds)), *head], rows)


def slope_by_layer_table(sweep: DepthSweep, names: Sequence[str], layers: Sequence[int]) -> str:
    """E[f′(z)²] layer by layer in the deepest stack (mean over the seeds), plain and g²-weighted,
    two rows per activation in ``names``, one column per layer in ``layers`` (1-based)."""
    deepest = sweep.depths[-1]
    if not layers or any(not 1 <= layer <= deepest for layer in layers):
        raise ValueError(f"layers must be in 1..{deepest}, got {tuple(layers)!r}")
    head = [str(layer) for layer in layers]
    rows = []
    for name in names:
        for label, values in (
            ("E[f′(z)²]", sweep.slope_sq[name]),
            (tr("g²-weighted"), sweep.weighted_slope_sq[name]),
        ):
            rows.append([f"{name} {label}", *(f"{values[layer - 1]:.2f}" for layer in layers)])
    return text_table([tr("layer"), *head], rows)


def block_table(sweeps: Mapping[str, DepthSweep]) -> str:
    """The factor per layer of each activation (rows) in each kind of stack (columns, the keys of
    ``sweeps``), as the range over the seeds."""
    if not sweeps:
        raise ValueError("block_table needs at least one sweep, got none")
    first = next(iter(sweeps.values()))
    head = [
        tr(
            "{block}, {n} seeds",
            block=tr(_BLOCK_LABELS[block]) if block in _BLOCK_LABELS else block,
            n=len(s.seeds),
        )
        for block, s in sweeps.items()
    ]
    rows = []
    for name in first.norms:
        factors = [[s.decay_per_layer(name, k) for k in s.seeds] for s in sweeps.values()]
        rows.append([name, *("×" + seed_range(f) for f in factors)])
    return text_table([tr("per layer"), *head], rows)
