"""What the gate (门控 gating) does: gate statistics, 1-D gated curves and the equal-budget race.

Probes and experiments for lesson 05, each returning plain results for the plots to draw:

* ``scaling_ratio``: ``‖f(c·x)‖ / ‖f(x)‖``, which tells a degree-2 map (ratio ``c²``) from a
  degree-1 one (``c``) and from the gated FFNs that are neither.
* ``gate_activations`` / ``gate_statistics`` / ``gate_census``: the values ``act(gate_proj(x))``
  a gated FFN really produces, how many are near zero (closed), pass, flip sign or amplify, and
  how that differs between the untrained and the trained networks of the race.
* ``gated_product_curve``: the 1-D shape of ``act(a·t) · t`` for one gate activation.
* ``mirror_gap``: ``‖f(−x) − f(x)‖ / ‖f(x)‖``, zero for a map with ``f(−x) = f(x)`` such as a
  quadratic form.
* ``equal_budget_experiment``: plain FFNs against the GLU family at the same parameter count on a
  task with multiplicative structure, several seeds each, trained with ``fit``; ``race_inputs``
  and ``initial_contender`` give its data and its untrained models, so a notebook can run one
  contender by hand. ``FFNBatch`` holds every seed of every contender of one kind (plain or
  gated) side by side, so one ``fit`` loop trains them all: the copies share no weight and each
  gets the gradient it would get alone (up to float rounding), so this is many independent
  trainings with one loop's overhead per step instead of one per network.
* ``table``, ``contender_label``, ``loss_text``, ``percentage_points``: how the notebook lays out
  what it prints.
"""

from __future__ import annotations

import functools
import math
import statistics
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import torch
from torch import Tensor, nn

from .._checks import check_positive_int
from .._threads import one_thread
from ..activations import get_activation
from ..ffn import GLU_VARIANTS, GatedFFN, PlainFFN
from ..i18n import tr, tr_noop
from ..i18n.table import text_table
from ..runtime import seeded
from ..sizing import count_parameters
from ..train import fit
from ._copies import check_member, check_names, check_seeds, own_gradients, per_block

__all__ = [
    "BUDGET_CONTENDERS",
    "BudgetResult",
    "FFNBatch",
    "GateCensus",
    "GateStats",
    "GatedCurve",
    "SETUP",
    "Setup",
    "contender_label",
    "equal_budget_experiment",
    "equal_budget_width",
    "gate_activations",
    "gate_census",
    "gate_statistics",
    "gated_product_curve",
    "initial_contender",
    "loss_text",
    "mirror_gap",
    "listing",
    "percentage_points",
    "product_target",
    "race_inputs",
    "scaling_ratio",
    "table",
]


#: Contenders of the equal-budget race: display name → ("plain" | "gated", activation name).
#: The plain FFNs are the three Shazeer (2020) compared against; the gated ones are
#: ``GLU_VARIANTS``. The plain names are labels, translated where drawn; the GLU variants' are
#: names in every language.
BUDGET_CONTENDERS: dict[str, tuple[str, str]] = {
    tr_noop("Plain ReLU"): ("plain", "relu"),
    tr_noop("Plain GELU"): ("plain", "gelu"),
    tr_noop("Plain SiLU"): ("plain", "silu"),
    **{name: ("gated", act) for name, act in GLU_VARIANTS.items()},
}


@dataclass(frozen=True)
class Setup:
    """Lesson 05's sizes and seeds, read by the notebook, the widget and the figures.

    The equal-budget race: ``hidden_size``, ``plain_width`` (the gated width is 2/3 of it),
    ``seeds``, ``steps`` and ``lr`` of ``fit``, ``n_train``/``n_test`` inputs drawn from
    ``data_seed``. The gate census calls a gate closed below ``closed_below``. The widget's gate
    slope ``a`` runs over ``gate_scale_range`` = (lowest, highest, step).
    """

    hidden_size: int = 6
    plain_width: int = 24
    seeds: tuple[int, ...] = (0, 1, 2, 3, 4)
    steps: int = 300
    lr: float = 1e-2
    n_train: int = 512
    n_test: int = 2048
    data_seed: int = 1234
    closed_below: float = 0.1
    gate_scale_range: tuple[float, float, float] = (-3.0, 3.0, 0.25)


SETUP = Setup()


# --- how outputs scale with the input ------------------------------------------------------------


def scaling_ratio(module: nn.Module, x: Tensor, factor: float = 2.0) -> float:
    """``‖f(factor·x)‖ / ‖f(x)‖`` over a whole batch ``x``: ``(N, hidden_size)``, no gradients.

    A map of degree ``k`` (``f(c·x) = cᵏ·f(x)``) gives ``factorᵏ``: 2 for a bias-free ReLU FFN,
    4 for a bilinear one at ``factor=2``. Raises ``ValueError`` for a zero or non-finite
    ``factor`` and when ``f(x)`` is zero (the ratio would be undefined).
    """
    if isinstance(factor, bool) or not isinstance(factor, (int, float)):
        raise ValueError(f"factor must be a non-zero finite number, got {factor!r}")
    if not math.isfinite(factor) or factor == 0:
        raise ValueError(f"factor must be a non-zero finite number, got {factor!r}")
    with torch.no_grad():
        base = module(x).double().norm()
        scaled = module(factor * x).double().norm()
    if base == 0:
        raise ValueError("f(x) is zero for the whole batch; the ratio is undefined")
    return (scaled / base).item()


def mirror_gap(module: nn.Module, x: Tensor) -> float:
    """``‖f(−x) − f(x)‖ / ‖f(x)‖`` over a whole batch ``x``: ``(N, hidden_size)``, no gradients.

    Zero for a map with ``f(−x) = f(x)``, such as a quadratic form (a bias-free bilinear FFN);
    a quadratic function with a linear part, or a ReLU-gated FFN, gives more. Raises
    ``ValueError`` when ``f(x)`` is zero (the ratio would be undefined).
    """
    with torch.no_grad():
        base = module(x).double()
        mirrored = module(-x).double()
    if base.norm() == 0:
        raise ValueError("f(x) is zero for the whole batch; the ratio is undefined")
    return ((mirrored - base).norm() / base.norm()).item()


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
    """``act(a·t)``, ``t`` and their product on a grid of ``t``; every tensor ``(points,)``.

    ``variant`` is the GLU variant's name (``"SwiGLU"``) when the curve was asked for by one,
    else ``None``; ``act`` is the gate's activation either way.
    """

    act: str
    variant: str | None
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
    variant = act if act in GLU_VARIANTS else None
    act_name = GLU_VARIANTS.get(act, act)
    check_positive_int("points", points)
    low, high = x_range
    if not low < high:
        raise ValueError(f"x_range must be (low, high) with low < high, got {x_range!r}")
    t = torch.linspace(low, high, points, dtype=torch.float64)
    gate = get_activation(act_name)(gate_scale * t)
    return GatedCurve(
        act=act_name,
        variant=variant,
        gate_scale=gate_scale,
        t=t,
        gate=gate,
        up=t,
        product=gate * t,
    )


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
    ``contenders`` and ``plain_width`` say how each was built, so ``initial_contender`` can
    rebuild any of them untrained. ``zero_loss``: the training MSE of predicting 0 everywhere,
    ``mean(y²)`` over the training targets (the variance only when the targets average 0).
    """

    names: tuple[str, ...]
    hidden_size: int
    plain_width: int
    contenders: dict[str, tuple[str, str]]
    widths: dict[str, int]
    parameters: dict[str, int]
    seeds: tuple[int, ...]
    steps: int
    final_loss: dict[str, list[float]]
    test_loss: dict[str, list[float]]
    histories: dict[str, list[list[float]]]
    models: dict[str, list[nn.Module]] = field(repr=False)
    test_inputs: Tensor = field(repr=False)
    zero_loss: float = 0.0

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
        self._losses(name, "final")  # unknown names raise ValueError
        return self.contenders[name][0]

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


def initial_contender(
    name: str,
    seed: int,
    hidden_size: int = SETUP.hidden_size,
    plain_width: int = SETUP.plain_width,
    contenders: Mapping[str, tuple[str, str]] | None = None,
) -> nn.Module:
    """Contender ``name`` with the initial weights seed ``seed`` gives it in the race, untrained.

    Built inside ``seeded(seed)`` exactly as ``equal_budget_experiment`` builds it, so it is the
    race's model before its first step (the caller's RNG is left as it was). ``contenders``
    defaults to ``BUDGET_CONTENDERS``. Raises ``ValueError`` for an unknown name.
    """
    contenders = BUDGET_CONTENDERS if contenders is None else contenders
    if name not in contenders:
        raise ValueError(f"unknown contender {name!r}; expected one of: {', '.join(contenders)}")
    kind, act = contenders[name]
    with seeded(seed):
        return _build(kind, act, hidden_size, plain_width)


def race_inputs(
    hidden_size: int = SETUP.hidden_size,
    n_train: int = SETUP.n_train,
    n_test: int = SETUP.n_test,
    data_seed: int = SETUP.data_seed,
) -> tuple[Tensor, Tensor]:
    """The race's inputs ``x ~ N(0, 1)``: training ``(n_train, h)`` and held-out ``(n_test, h)``.

    Drawn from their own generator seeded with ``data_seed`` (the global RNG is untouched), so
    every contender and every seed of the race sees the same points.
    """
    check_positive_int("hidden_size", hidden_size)
    check_positive_int("n_train", n_train)
    check_positive_int("n_test", n_test)
    generator = torch.Generator().manual_seed(data_seed)
    x_train = torch.randn(n_train, hidden_size, generator=generator)
    x_test = torch.randn(n_test, hidden_size, generator=generator)
    return x_train, x_test


class FFNBatch(nn.Module):
    """Race contenders of one kind, every seed, as independent FFNs side by side.

    ``names`` are contenders (keys of ``contenders``, default ``BUDGET_CONTENDERS``) of one kind,
    all plain or all gated; copy ``k`` is ``copies[k] = (name, seed)``, ordered contender by
    contender, seeds within, and starts from exactly the weights of
    ``initial_contender(name, seed)``. Each projection's weights are stacked along a first axis,
    in ``nn.Linear``'s layout: ``up_proj`` (and for gated copies ``gate_proj``) ``(C, m, h)``,
    ``down_proj`` ``(C, h, m)``. ``forward`` maps ``(C, N, h)`` → ``(C, N, h)``: copy ``k`` uses
    only its own slice of every weight and its own contender's activation, so no copy sees
    another, and ``own_gradients`` (lesson 02's) hands each copy exactly its own gradient, so Adam
    moves it as if it trained alone: the same numbers as separate fits, up to float rounding.
    """

    def __init__(
        self,
        names: Sequence[str],
        seeds: Sequence[int],
        hidden_size: int = SETUP.hidden_size,
        plain_width: int = SETUP.plain_width,
        contenders: Mapping[str, tuple[str, str]] | None = None,
    ) -> None:
        super().__init__()
        contenders = BUDGET_CONTENDERS if contenders is None else contenders
        names, seeds = check_names(names, "names"), check_seeds(seeds)
        unknown = [name for name in names if name not in contenders]
        if unknown:
            raise ValueError(
                f"unknown contender {unknown[0]!r}; expected one of: {', '.join(contenders)}"
            )
        kinds = {contenders[name][0] for name in names}
        if len(kinds) != 1:
            raise ValueError(f"names must be all plain or all gated, got kinds {sorted(kinds)}")
        self.kind = kinds.pop()
        self.names, self.seeds = names, seeds
        self.hidden_size, self.plain_width = hidden_size, plain_width
        self.contenders = {name: contenders[name] for name in names}
        self.copies = tuple((name, seed) for name in names for seed in seeds)
        self.act_fns = nn.ModuleList(get_activation(contenders[name][1]) for name in names)
        start = [
            initial_contender(name, seed, hidden_size, plain_width, contenders)
            for name, seed in self.copies
        ]
        self.projections = ("gate_proj", "up_proj") if self.kind == "gated" else ("up_proj",)
        for proj in (*self.projections, "down_proj"):
            stacked = torch.stack([getattr(model, proj).weight.detach() for model in start])
            self.register_parameter(proj, nn.Parameter(stacked))  # (C, out, in)
        self.intermediate_size = start[0].intermediate_size

    def activate(self, pre: Tensor) -> Tensor:
        """Each contender's activation on its own block of copies: ``(C, N, m)`` → same."""
        return per_block(self.act_fns, pre, len(self.seeds))

    def forward(self, x: Tensor) -> Tensor:
        """``x``: ``(C, N, h)`` → ``(C, N, h)``, copy by copy."""
        n_copies = len(self.copies)
        if x.dim() != 3 or x.shape[0] != n_copies or x.shape[2] != self.hidden_size:
            raise ValueError(
                f"input has shape {tuple(x.shape)}; expected (C={n_copies}, N, {self.hidden_size})"
            )
        up = torch.bmm(x, self.up_proj.transpose(1, 2))  # (C, N, m): each copy its own matrix
        if self.kind == "gated":
            gate = self.activate(torch.bmm(x, self.gate_proj.transpose(1, 2)))  # (C, N, m)
            hidden = gate * up  # element-wise: how much passes × what passes
        else:
            hidden = self.activate(up)
        out = torch.bmm(hidden, self.down_proj.transpose(1, 2))  # (C, N, h)
        # fit's loss is the mean over all C copies: undo its 1/C in the backward pass
        return own_gradients(out, n_copies)

    def member(self, k: int) -> nn.Module:
        """Copy ``k`` (``copies[k]``) as a stand-alone ``PlainFFN`` or ``GatedFFN`` (eval mode)."""
        check_member(k, len(self.copies))
        name, _seed = self.copies[k]
        with seeded(0):  # the init is overwritten below; seeded keeps the caller's RNG untouched
            kind, act = self.contenders[name]
            module = _build(kind, act, self.hidden_size, self.plain_width)
        module = module.to(self.up_proj.device)
        with torch.no_grad():
            for proj in (*self.projections, "down_proj"):
                getattr(module, proj).weight.copy_(getattr(self, proj)[k])
        return module.eval()


def equal_budget_experiment(
    hidden_size: int = SETUP.hidden_size,
    plain_width: int = SETUP.plain_width,
    seeds: Sequence[int] = SETUP.seeds,
    steps: int = SETUP.steps,
    lr: float = SETUP.lr,
    n_train: int = SETUP.n_train,
    n_test: int = SETUP.n_test,
    target: Callable[[Tensor], Tensor] = product_target,
    contenders: Mapping[str, tuple[str, str]] | None = None,
    data_seed: int = SETUP.data_seed,
    device: torch.device | str | None = None,
) -> BudgetResult:
    """Train plain and gated FFNs of equal parameter count on ``y = target(x)``, several seeds.

    Inputs come from ``race_inputs`` (the same points for every contender); seed ``s`` only sets
    the initial weights (``initial_contender``). Plain FFNs are ``hidden → plain_width``; gated
    ones ``hidden → 2/3 of it``. Training is ``fit`` (full-batch Adam, MSE) on ``device``
    (default: the CPU, which is faster than a GPU for nets this small and gives the same numbers
    everywhere): one ``fit`` per kind, each training an ``FFNBatch`` of all that kind's
    contenders and seeds, every network as if alone; a forward hook records each network's own
    MSE at every step. Raises ``ValueError`` if a gated contender's parameter count differs from
    the plain one's by more than one gated unit (``3·hidden``).
    """
    if not seeds:
        raise ValueError("seeds is empty; expected at least one seed")
    contenders = dict(BUDGET_CONTENDERS if contenders is None else contenders)
    x_train, x_test = race_inputs(hidden_size, n_train, n_test, data_seed)
    target_device = torch.device("cpu") if device is None else torch.device(device)
    x_train, x_test = x_train.to(target_device), x_test.to(target_device)
    y_train, y_test = target(x_train), target(x_test)
    if y_train.shape != x_train.shape:
        raise ValueError(
            f"target must map (N, {hidden_size}) to (N, {hidden_size}), got {tuple(y_train.shape)}"
        )
    result = BudgetResult(
        names=tuple(contenders),
        hidden_size=hidden_size,
        plain_width=plain_width,
        contenders=contenders,
        widths={},
        parameters={},
        seeds=tuple(seeds),
        steps=steps,
        final_loss={},
        test_loss={},
        histories={},
        models={},
        test_inputs=x_test,
        zero_loss=y_train.pow(2).mean().item(),
    )
    kinds: dict[str, list[str]] = {}  # "plain"/"gated" → its contenders, in the given order
    for name, (kind, _act) in contenders.items():
        if kind not in ("plain", "gated"):
            raise ValueError(f"contender kind must be 'plain' or 'gated', got {kind!r}")
        kinds.setdefault(kind, []).append(name)
    with one_thread():  # matrices this small train fastest on one thread
        trained = {}
        for names in kinds.values():
            trained.update(_train_group(result, names, lr, (x_train, y_train, x_test, y_test)))
    for name in contenders:  # the result's dictionaries in the contenders' order
        for field_name in ("final_loss", "test_loss", "histories", "models"):
            getattr(result, field_name)[name] = trained[name][field_name]
        _check_budget(result, name)
    return result


def _train_group(
    result: BudgetResult,
    names: Sequence[str],
    lr: float,
    data: tuple[Tensor, Tensor, Tensor, Tensor],
) -> dict[str, dict[str, list]]:
    """Train every seed of the contenders ``names`` (one kind) in one ``FFNBatch`` and ``fit``."""
    x_train, y_train, x_test, y_test = data
    batch = FFNBatch(
        names, result.seeds, result.hidden_size, result.plain_width, result.contenders
    ).to(x_train.device)
    n_copies = len(batch.copies)
    x = x_train.expand(n_copies, -1, -1)  # (C, N, h): every copy sees the same points
    y = y_train.expand(n_copies, -1, -1)
    per_step: list[Tensor] = []  # each copy's own MSE at every forward pass of fit

    def record(_module: nn.Module, _inputs: object, output: Tensor) -> None:
        per_step.append((output.detach() - y).pow(2).mean(dim=(1, 2)))  # (C,)

    handle = batch.register_forward_hook(record)
    try:
        fit(batch, x, y, loss="mse", steps=result.steps, lr=lr)
    finally:
        handle.remove()
    histories = torch.stack(per_step).T.tolist()  # (C, steps)
    with torch.no_grad():
        test = (batch(x_test.expand(n_copies, -1, -1)) - y_test).pow(2).mean(dim=(1, 2)).tolist()
    out: dict[str, dict[str, list]] = {
        name: {"final_loss": [], "test_loss": [], "histories": [], "models": []} for name in names
    }
    for k, (name, _seed) in enumerate(batch.copies):
        out[name]["final_loss"].append(histories[k][-1])
        out[name]["test_loss"].append(test[k])
        out[name]["histories"].append(histories[k])
        out[name]["models"].append(batch.member(k))
    return out


def _check_budget(result: BudgetResult, name: str) -> None:
    h = result.hidden_size
    params = count_parameters(result.models[name][0])
    budget = 2 * h * result.plain_width
    if abs(params - budget) > 3 * h:
        raise ValueError(
            f"{name} has {params} parameters, the plain budget is {budget}; expected them "
            f"within one gated unit ({3 * h})"
        )
    result.parameters[name] = params
    result.widths[name] = result.models[name][0].intermediate_size


# --- the gate census: untrained against trained --------------------------------------------------


@dataclass(frozen=True)
class GateCensus:
    """``gate_statistics`` of one gated contender of a race, per seed, before and after training.

    ``before[i]``: the untrained network of seed ``seeds[i]`` (``initial_contender``);
    ``after[i]``: the trained one. Both are measured on the race's held-out inputs.
    ``pre_rms_before[i]`` / ``pre_rms_after[i]``: the root mean square of the gate's
    pre-activations ``gate_proj(x)``, which sets how far into the activation the gate reaches.
    """

    name: str
    seeds: tuple[int, ...]
    before: tuple[GateStats, ...]
    after: tuple[GateStats, ...]
    pre_rms_before: tuple[float, ...]
    pre_rms_after: tuple[float, ...]

    def values(self, statistic: str, when: str) -> list[float]:
        """One ``GateStats`` field (``"closed"``, ``"negative"``, ...) per seed, ``when`` is
        ``"before"`` or ``"after"`` training."""
        if when not in ("before", "after"):
            raise ValueError(f"when must be 'before' or 'after', got {when!r}")
        if statistic not in GateStats.__dataclass_fields__:
            fields = ", ".join(GateStats.__dataclass_fields__)
            raise ValueError(f"unknown statistic {statistic!r}; expected one of: {fields}")
        stats = self.before if when == "before" else self.after
        return [float(getattr(s, statistic)) for s in stats]

    def mean(self, statistic: str, when: str) -> float:
        """Mean over seeds of ``values(statistic, when)``."""
        return statistics.fmean(self.values(statistic, when))

    def changes(self, statistic: str) -> list[float]:
        """Per seed, after minus before."""
        return [
            a - b
            for a, b in zip(
                self.values(statistic, "after"), self.values(statistic, "before"), strict=True
            )
        ]


def gate_census(
    result: BudgetResult,
    names: Sequence[str] | None = None,
    closed_below: float = SETUP.closed_below,
) -> dict[str, GateCensus]:
    """Gate statistics of the gated contenders ``names`` (default: all), untrained and trained.

    For every seed of the race, the untrained network (same initial weights) and the trained one
    run on ``result.test_inputs`` ``(N, h)``; returns name → ``GateCensus``. Raises
    ``ValueError`` for a plain or unknown contender.
    """
    names = [n for n in result.names if result.kind(n) == "gated"] if names is None else names
    with one_thread():  # tensors this small are fastest on one thread
        return {name: _census_of(result, name, closed_below) for name in names}


def _census_of(result: BudgetResult, name: str, closed_below: float) -> GateCensus:
    if result.kind(name) != "gated":
        raise ValueError(f"{name!r} is a plain FFN; the census needs a gated contender")
    x = result.test_inputs  # (n_test, h)
    before, after, rms_before, rms_after = [], [], [], []
    for seed, trained in zip(result.seeds, result.models[name], strict=True):
        untrained = initial_contender(
            name, seed, result.hidden_size, result.plain_width, result.contenders
        ).to(x.device)
        before.append(gate_statistics(gate_activations(untrained, x), closed_below))
        after.append(gate_statistics(gate_activations(trained, x), closed_below))
        with torch.no_grad():
            rms_before.append(untrained.gate_proj(x).double().pow(2).mean().sqrt().item())
            rms_after.append(trained.gate_proj(x).double().pow(2).mean().sqrt().item())
    return GateCensus(
        name,
        result.seeds,
        tuple(before),
        tuple(after),
        tuple(rms_before),
        tuple(rms_after),
    )


# --- what the notebook prints --------------------------------------------------------------------


#: The one GLU variant named by a word rather than an acronym, so named in the reader's language.
_TRANSLATED_VARIANTS = (tr_noop("Bilinear"),)


def contender_label(name: str) -> str:
    """A race contender's name as a reader sees it: a plain FFN's label and the bilinear variant's
    in the notebook's language (``"Plain SiLU"``, ``"Bilinear"``), the other GLU variants' names
    (``"SwiGLU"``) as they are, in every language."""
    if name in BUDGET_CONTENDERS and BUDGET_CONTENDERS[name][0] == "plain":
        return tr(name)
    if name in _TRANSLATED_VARIANTS:
        return tr(name)
    return name


def table(header: Sequence[str], rows: Mapping[str, Sequence[str]], align: str = "") -> str:
    """A monospace table: ``header`` over the lines ``rows`` (row label → its other cells).

    Cells are text already (the caller chooses the digits). Each column is as wide as its widest
    entry, counted in display columns (``minimind_lab.i18n.table.text_table``) so that Chinese
    labels line up too; ``align`` gives one ``"<"`` (left) or ``">"`` (right) per column, by
    default the labels left and the rest right. Columns are two spaces apart. Raises
    ``ValueError`` when a row's length or ``align`` does not match ``header``.
    """
    n = len(header)
    align = align or "<" + ">" * (n - 1)
    if len(align) != n or set(align) - {"<", ">"}:
        raise ValueError(f"align must be one '<' or '>' per column ({n}), got {align!r}")
    for label, cells in rows.items():
        if len(cells) != n - 1:
            raise ValueError(
                f"row {label!r} has {len(cells)} cells; expected {n - 1} after its label"
            )
    return text_table(header, [[label, *cells] for label, cells in rows.items()], align=align)


def loss_text(value: float) -> str:
    """A loss as the race prints it: two significant digits, or ``"< 1e-6"`` below ``1e-6``,
    where a float32 loss is rounding noise whose digits change from machine to machine."""
    return "< 1e-6" if value < 1e-6 else f"{value:.2g}"


def listing(entries: Iterable[str]) -> str:
    """Printed entries on one line, separated as the reader's language separates them
    (``"a, b"`` in English, ``"a；b"`` in Chinese)."""
    return functools.reduce(
        lambda before, after: tr("{before}, {after}", before=before, after=after), entries
    )


def percentage_points(changes: Sequence[float]) -> str:
    """Changes of a fraction, one per seed, as signed percentage points: ``"+12, +10, -3"``."""
    return ", ".join(f"{100 * d:+.0f}" for d in changes)
