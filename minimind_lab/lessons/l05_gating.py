"""What the gate (门控 gating) does: gate statistics, 1-D gated curves and the equal-budget race.

Three probes for lesson 05, each returning plain results for the plots to draw:

* ``gate_activations`` / ``gate_statistics``: the values ``act(gate_proj(x))`` a gated FFN really
  produces, and how many of them are near zero (closed), pass, flip sign or amplify.
* ``gated_product_curve``: the 1-D shape of ``act(a·t) · t`` for one gate activation.
* ``equal_budget_experiment``: plain FFNs against the GLU family at the same parameter count on a
  task with multiplicative structure, several seeds each, trained with ``fit``.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from .._checks import check_positive_int
from .._threads import one_thread
from ..activations import get_activation
from ..ffn import GLU_VARIANTS, GatedFFN, PlainFFN
from ..runtime import seeded
from ..sizing import count_parameters
from ..train import fit

__all__ = [
    "BUDGET_CONTENDERS",
    "BudgetResult",
    "GateStats",
    "GatedCurve",
    "SETUP",
    "Setup",
    "equal_budget_experiment",
    "equal_budget_width",
    "gate_activations",
    "gate_statistics",
    "gated_product_curve",
    "product_target",
]


#: Contenders of the equal-budget race: display name → ("plain" | "gated", activation name).
#: The plain FFNs are the three Shazeer (2020) compared against; the gated ones are
#: ``GLU_VARIANTS``.
BUDGET_CONTENDERS: dict[str, tuple[str, str]] = {
    "Plain ReLU": ("plain", "relu"),
    "Plain GELU": ("plain", "gelu"),
    "Plain SiLU": ("plain", "silu"),
    **{name: ("gated", act) for name, act in GLU_VARIANTS.items()},
}


@dataclass(frozen=True)
class Setup:
    """Lesson 05's equal-budget race, read by the notebook and the figure."""

    hidden_size: int = 6
    plain_width: int = 24
    seeds: tuple[int, ...] = (0, 1, 2, 3, 4)
    steps: int = 300
    closed_below: float = 0.1


SETUP = Setup()


# --- gate statistics -----------------------------------------------------------------------------


def gate_activations(module: nn.Module, x: Tensor) -> Tensor:
    """The gate values ``act_fn(gate_proj(x))`` of a gated FFN, without gradients.

    ``module`` is any FFN with ``gate_proj`` and ``act_fn`` (``GatedFFN``, ``FeedForward``).
    ``x``: ``(*, hidden_size)`` → ``(*, intermediate_size)``.
    """
    if not (hasattr(module, "gate_proj") and hasattr(module, "act_fn")):
        raise ValueError(
            f"{type(module).__name__} has no gate branch; expected a module with gate_proj and "
            "act_fn (GatedFFN or FeedForward)"
        )
    with torch.no_grad():
        return module.act_fn(module.gate_proj(x))


@dataclass(frozen=True)
class GateStats:
    """How a set of gate values splits up. Fractions are of all values, in ``[0, 1]``.

    ``closed``: ``|a| < closed_below`` (the content is all but blocked); ``passing``: the rest;
    ``negative``: ``a < -closed_below`` (passes with its sign flipped); ``amplifying``: ``|a| > 1``
    (passes scaled up, which a sigmoid gate can never do). ``units``: the gate units (the last
    dimension); ``always_closed_units``: how many of them are closed for every input (dead units).
    """

    count: int
    closed_below: float
    closed: float
    passing: float
    negative: float
    amplifying: float
    units: int
    always_closed_units: int
    mean: float
    minimum: float
    maximum: float


def gate_statistics(values: Tensor, closed_below: float = 0.1) -> GateStats:
    """Summarise gate values ``values``: ``(*, m)``, e.g. ``(N, m)`` from ``gate_activations``."""
    if not closed_below > 0:
        raise ValueError(f"closed_below must be positive, got {closed_below!r}")
    if values.numel() == 0:
        raise ValueError("values is empty; expected at least one gate value")
    per_unit = values.detach().reshape(-1, values.shape[-1]).double()  # (N, m)
    flat = per_unit.reshape(-1)
    closed = (flat.abs() < closed_below).double().mean().item()
    return GateStats(
        count=flat.numel(),
        closed_below=closed_below,
        closed=closed,
        passing=1.0 - closed,
        negative=(flat < -closed_below).double().mean().item(),
        amplifying=(flat.abs() > 1.0).double().mean().item(),
        units=per_unit.shape[-1],
        always_closed_units=int((per_unit.abs() < closed_below).all(dim=0).sum()),
        mean=flat.mean().item(),
        minimum=flat.min().item(),
        maximum=flat.max().item(),
    )


# --- the 1-D shape of act(gate) · up -------------------------------------------------------------


@dataclass(frozen=True)
class GatedCurve:
    """``act(a·t)``, ``t`` and their product on a grid of ``t``; every tensor ``(points,)``."""

    act: str
    gate_scale: float
    t: Tensor
    gate: Tensor
    up: Tensor
    product: Tensor


def gated_product_curve(
    act: str,
    gate_scale: float = 1.0,
    x_range: tuple[float, float] = (-4.0, 4.0),
    points: int = 401,
) -> GatedCurve:
    """One gated unit on a line: gate ``act(gate_scale·t)``, content ``t``, output their product.

    ``act`` is an activation name (``"silu"``) or a GLU variant name (``"SwiGLU"``). With
    ``gate_scale=1`` SwiGLU traces ``t²·σ(t)``, ReGLU ``relu(t)·t``, bilinear ``t²``.
    """
    act_name = GLU_VARIANTS.get(act, act)
    check_positive_int("points", points)
    low, high = x_range
    if not low < high:
        raise ValueError(f"x_range must be (low, high) with low < high, got {x_range!r}")
    t = torch.linspace(low, high, points, dtype=torch.float64)
    gate = get_activation(act_name)(gate_scale * t)
    return GatedCurve(act=act_name, gate_scale=gate_scale, t=t, gate=gate, up=t, product=gate * t)


# --- the equal-budget experiment -----------------------------------------------------------------


def product_target(x: Tensor) -> Tensor:
    """Neighbouring products ``y_i = x_i · x_{i+1}`` (wrapping around): ``(N, h)`` → ``(N, h)``."""
    return x * x.roll(-1, dims=-1)


def equal_budget_width(plain_width: int) -> int:
    """The gated width with the plain FFN's parameters: ``2·h·m = 3·h·m'`` gives ``m' = 2m/3``.

    Rounds to the nearest integer, so the two counts differ by at most one gated unit (``3h``
    parameters) and are equal when ``plain_width`` is a multiple of 3.
    """
    check_positive_int("plain_width", plain_width)
    if plain_width < 2:
        raise ValueError(f"plain_width must be at least 2 to leave a gated unit, got {plain_width}")
    return max(1, round(2 * plain_width / 3))


@dataclass
class BudgetResult:
    """Results of ``equal_budget_experiment``, per contender name (in ``names`` order).

    ``final_loss[name]``: training MSE at the last step, one per seed. ``test_loss[name]``: MSE on
    held-out inputs, one per seed. ``histories[name]``: per seed, the loss at every step.
    ``models[name]``: the trained modules, one per seed (for probes such as ``gate_activations``).
    """

    names: tuple[str, ...]
    hidden_size: int
    widths: dict[str, int]
    parameters: dict[str, int]
    seeds: tuple[int, ...]
    steps: int
    final_loss: dict[str, list[float]]
    test_loss: dict[str, list[float]]
    histories: dict[str, list[list[float]]]
    models: dict[str, list[nn.Module]] = field(repr=False)
    test_inputs: Tensor = field(repr=False)
    target_variance: float = 0.0

    def mean(self, name: str, which: str = "final") -> float:
        """Mean over seeds of the final training loss (``which="final"``) or test loss."""
        return statistics.fmean(self._losses(name, which))

    def spread(self, name: str, which: str = "final") -> float:
        """Sample standard deviation over seeds (0 with a single seed)."""
        losses = self._losses(name, which)
        return statistics.stdev(losses) if len(losses) > 1 else 0.0

    def median(self, name: str, which: str = "final") -> float:
        """Median over seeds: robust to one unlucky seed."""
        return statistics.median(self._losses(name, which))

    def kind(self, name: str) -> str:
        """``"plain"`` or ``"gated"``."""
        return "gated" if isinstance(self.models[name][0], GatedFFN) else "plain"

    def _losses(self, name: str, which: str) -> list[float]:
        if name not in self.final_loss:
            expected = ", ".join(self.names)
            raise ValueError(f"unknown contender {name!r}; expected one of: {expected}")
        if which not in ("final", "test"):
            raise ValueError(f"which must be 'final' or 'test', got {which!r}")
        return self.final_loss[name] if which == "final" else self.test_loss[name]


def _build(kind: str, act: str, hidden_size: int, plain_width: int) -> nn.Module:
    if kind == "plain":
        return PlainFFN(hidden_size, plain_width, act)
    if kind == "gated":
        return GatedFFN(hidden_size, equal_budget_width(plain_width), act)
    raise ValueError(f"contender kind must be 'plain' or 'gated', got {kind!r}")


def equal_budget_experiment(
    hidden_size: int = 6,
    plain_width: int = 24,
    seeds: Sequence[int] = (0, 1, 2, 3, 4),
    steps: int = 300,
    lr: float = 1e-2,
    n_train: int = 512,
    n_test: int = 2048,
    target: Callable[[Tensor], Tensor] = product_target,
    contenders: Mapping[str, tuple[str, str]] | None = None,
    data_seed: int = 1234,
    device: torch.device | str | None = None,
) -> BudgetResult:
    """Train plain and gated FFNs of equal parameter count on ``y = target(x)``, several seeds.

    Inputs ``x ~ N(0, 1)`` of shape ``(n_train, hidden_size)`` (held-out ``(n_test, hidden_size)``)
    come from ``data_seed``, so every contender sees the same data; seed ``s`` only sets the
    initial weights. Plain FFNs are ``hidden → plain_width``; gated ones ``hidden → 2/3 of it``.
    Training is ``fit`` (full-batch Adam, MSE) on ``device`` (default: the CPU, which is faster
    than a GPU for nets this small and gives the same numbers everywhere). Raises ``ValueError``
    if a gated contender's parameter count differs from the plain one's by more than one gated
    unit (``3·hidden``).
    """
    check_positive_int("hidden_size", hidden_size)
    check_positive_int("n_train", n_train)
    check_positive_int("n_test", n_test)
    if not seeds:
        raise ValueError("seeds is empty; expected at least one seed")
    contenders = dict(BUDGET_CONTENDERS if contenders is None else contenders)
    generator = torch.Generator().manual_seed(data_seed)
    x_train = torch.randn(n_train, hidden_size, generator=generator)
    x_test = torch.randn(n_test, hidden_size, generator=generator)
    target_device = torch.device("cpu") if device is None else torch.device(device)
    x_train, x_test = x_train.to(target_device), x_test.to(target_device)
    y_train, y_test = target(x_train), target(x_test)
    if y_train.shape != x_train.shape:
        raise ValueError(
            f"target must map (N, {hidden_size}) to (N, {hidden_size}), got {tuple(y_train.shape)}"
        )

    budget = 2 * hidden_size * plain_width
    with one_thread():  # matrices this small train fastest on one thread
        return _race(
            contenders,
            hidden_size,
            plain_width,
            seeds,
            steps,
            lr,
            budget,
            (x_train, y_train, x_test, y_test),
        )


def _race(
    contenders: Mapping[str, tuple[str, str]],
    hidden_size: int,
    plain_width: int,
    seeds: Sequence[int],
    steps: int,
    lr: float,
    budget: int,
    data: tuple[Tensor, Tensor, Tensor, Tensor],
) -> BudgetResult:
    x_train, y_train, x_test, y_test = data
    result = BudgetResult(
        names=tuple(contenders),
        hidden_size=hidden_size,
        widths={},
        parameters={},
        seeds=tuple(seeds),
        steps=steps,
        final_loss={},
        test_loss={},
        histories={},
        models={},
        test_inputs=x_test,
        target_variance=y_train.var().item(),
    )
    for name, (kind, act) in contenders.items():
        result.final_loss[name], result.test_loss[name] = [], []
        result.histories[name], result.models[name] = [], []
        for seed in seeds:
            with seeded(seed):
                model = _build(kind, act, hidden_size, plain_width).to(x_train.device)
            history = fit(model, x_train, y_train, loss="mse", steps=steps, lr=lr)
            with torch.no_grad():
                test = F.mse_loss(model(x_test), y_test).item()
            result.final_loss[name].append(history[-1])
            result.test_loss[name].append(test)
            result.histories[name].append(history)
            result.models[name].append(model)
        params = count_parameters(result.models[name][0])
        if abs(params - budget) > 3 * hidden_size:
            raise ValueError(
                f"{name} has {params} parameters, the plain budget is {budget}; expected them "
                f"within one gated unit ({3 * hidden_size})"
            )
        result.parameters[name] = params
        result.widths[name] = result.models[name][0].intermediate_size
    return result
