"""Lesson 04's experiment: one small task, fitted by plain FFNs of different widths.

The task is small enough to draw. Each token is a point ``t`` on a line; its representation
(表示 hidden_states) ``x = t·u + v`` lives in ``hidden_size`` dimensions (``u``, ``v`` fixed
orthonormal directions; the constant ``v`` plays the role of a bias, which ``PlainFFN`` leaves
out). The FFN must write ``hidden_size`` different waves ``sin(ω_k·t + φ_k)`` into the
``hidden_size`` output coordinates, all through the same ``m`` hidden units. How well it can do
that depends on ``m`` (升维 to ``intermediate_size``), on the activation and, as the control
shows, on the number of parameters that comes with ``m``.

Every setting is trained for several seeds. ``MLPBatch`` holds one copy of the network per
activation and seed side by side and trains them all in one ``ml.fit`` loop: the copies share no
weight, and Adam updates every weight on its own, so this is many independent trainings at a
fraction of the cost. The learning-rate scan trains its extra rates the same way, one batch per
shape (``RateBatch``, ``CopyAdam``: each copy at its own rate). Everything here computes;
``plots/l04_width.py`` draws. Runs are cached by their arguments, so the lesson, its widget and its
figure share them and a redraw after the first is instant.
"""

from __future__ import annotations

import copy
import functools
import math
import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

import torch
from torch import Tensor, nn

from .._checks import check_nonnegative_int, check_positive_int
from .._threads import one_thread
from ..activations import activation_label, get_activation
from ..ffn import PlainFFN
from ..i18n import tr, tr_noop
from ..i18n.table import text_table
from ..runtime import seeded
from ..sizing import count_parameters
from ..train import Adam, fit
from ._copies import check_member, check_names, check_seeds, linear_layers, own_gradients, per_block

__all__ = [
    "SETUP",
    "CopyAdam",
    "MLPBatch",
    "ParameterControl",
    "RateBatch",
    "RateScan",
    "Setup",
    "SparsityStats",
    "WIDTH_ACTIVATIONS",
    "WIDTH_RATIOS",
    "WidthFit",
    "WidthRuns",
    "WidthTask",
    "best_rate",
    "best_rate_control",
    "control_table",
    "equal_parameter_control",
    "fit_group",
    "fit_mlp",
    "fit_rates",
    "fit_width",
    "hidden_activations",
    "hidden_sparsity",
    "listing",
    "make_width_task",
    "mlp_stack",
    "ranking",
    "rate_scan",
    "ratio_to_width",
    "runs_table",
    "sparsity_table",
    "steps_table",
    "sweep_table",
    "text_table",
    "truth",
    "width_sweep",
]


#: The widths lesson 04 sweeps, as ratios m/h (½ to 8).
WIDTH_RATIOS: tuple[float, ...] = (0.5, 1.0, 2.0, 4.0, 8.0)
#: The activations lesson 04 compares.
WIDTH_ACTIVATIONS: tuple[str, ...] = ("relu", "gelu", "silu", "tanh", "sigmoid")


@dataclass(frozen=True)
class Setup:
    """Lesson 04's task, training and controls, read by the notebook, the widget and the figure."""

    hidden_size: int = 8
    n_tokens: int = 128
    task_seed: int = 0
    steps: int = 400
    lr: float = 1e-2
    #: The learning rates each activation and shape is read at when they are compared: the
    #: lesson's rate and two higher ones, about three times apart.
    lr_ladder: tuple[float, ...] = (1e-2, 3e-2, 1e-1)
    #: Every setting is trained once per seed; results are reported as median and min–max.
    seeds: tuple[int, ...] = (0, 1, 2)
    ratios: tuple[float, ...] = WIDTH_RATIOS
    activations: tuple[str, ...] = WIDTH_ACTIVATIONS
    #: "Gets there": the number of steps until the training MSE first drops below this.
    loss_threshold: float = 0.05
    #: The equal-parameter control: ``deep_layers`` hidden layers of ``deep_width`` units hold
    #: as many weights as one hidden layer of ``control_ratio·h`` units (1,024 at h = 8).
    control_ratio: float = 8.0
    deep_width: int = 16
    deep_layers: int = 4
    #: The width whose hidden units the sparsity section inspects, and its "near zero" threshold.
    sparsity_ratio: float = 4.0
    near_zero_tol: float = 0.05


SETUP = Setup()


@dataclass(frozen=True)
class WidthTask:
    """The lesson-04 regression task.

    ``t``: ``(N,)`` token coordinates; ``inputs``: ``(N, h)``; ``targets``: ``(N, h)`` with
    ``targets[:, k] = sin(freqs[k]·t + phases[k])``; ``freqs``, ``phases``: ``(h,)``.
    """

    t: Tensor
    inputs: Tensor
    targets: Tensor
    freqs: Tensor
    phases: Tensor

    @property
    def hidden_size(self) -> int:
        """``h``, the width of the token representation."""
        return self.inputs.shape[1]


def _device_key(device: str | torch.device | None) -> str:
    return str(torch.device("cpu") if device is None else torch.device(device))


@lru_cache(maxsize=16)
def _cached_task(hidden_size: int, n_tokens: int, seed: int, device: str) -> WidthTask:
    gen = torch.Generator().manual_seed(seed)
    t = torch.linspace(-3.0, 3.0, n_tokens)
    basis, _ = torch.linalg.qr(torch.randn(hidden_size, hidden_size, generator=gen))
    inputs = t[:, None] * basis[:, 0] + basis[:, 1]  # (N, h): position along u, constant along v
    freqs = torch.linspace(0.5, 3.0, hidden_size)  # slow to fast waves
    phases = torch.rand(hidden_size, generator=gen) * 2 * math.pi
    targets = torch.sin(freqs * t[:, None] + phases)  # (N, h)
    return WidthTask(*(v.to(device) for v in (t, inputs, targets, freqs, phases)))


def _check_task_args(hidden_size: int, n_tokens: int, seed: int) -> None:
    check_positive_int("n_tokens", n_tokens)
    check_nonnegative_int("task seed", seed)
    if check_positive_int("hidden_size", hidden_size) < 2:
        raise ValueError(f"hidden_size must be at least 2 for this task, got {hidden_size!r}")


def make_width_task(
    hidden_size: int = SETUP.hidden_size,
    n_tokens: int = SETUP.n_tokens,
    seed: int = SETUP.task_seed,
    device: str | torch.device | None = None,
) -> WidthTask:
    """Build (or fetch from cache) the lesson-04 task: ``n_tokens`` tokens of width ``hidden_size``.

    Needs ``hidden_size ≥ 2`` (one direction for ``t``, one for the constant). Tensors are float32
    on ``device`` (CPU by default: at this size the CPU is as fast as any accelerator), and the
    caller's own copies.
    """
    _check_task_args(hidden_size, n_tokens, seed)
    task = _cached_task(hidden_size, n_tokens, seed, _device_key(device))
    return WidthTask(
        *(v.clone() for v in (task.t, task.inputs, task.targets, task.freqs, task.phases))
    )


def ratio_to_width(hidden_size: int, ratio: float) -> int:
    """``m = round(ratio·h)``, at least 1: the ``intermediate_size`` for a width ratio ``m/h``."""
    ok = isinstance(ratio, (int, float)) and not isinstance(ratio, bool) and math.isfinite(ratio)
    if not ok or not ratio > 0:
        raise ValueError(f"width ratio m/h must be a positive number, got {ratio!r}")
    return max(1, round(ratio * hidden_size))


def _check_widths(widths: Sequence[int]) -> tuple[int, ...]:
    widths = tuple(widths)
    if len(widths) < 3 or any(
        isinstance(w, bool) or not isinstance(w, int) or w < 1 for w in widths
    ):
        raise ValueError(
            "widths must be at least three positive integers (input, hidden…, output), "
            f"got {widths!r}"
        )
    return widths


def mlp_stack(widths: Sequence[int], act: str) -> nn.Module:
    """A bias-free MLP ``widths[0] → widths[1] → … → widths[-1]``, the activation between layers.

    Three widths ``(h, m, h)`` give a ``PlainFFN(h, m, act)``; more give an ``nn.Sequential`` of
    ``nn.Linear`` layers and activations (the deeper, narrower control of lesson 04).
    Shapes: ``(*, widths[0])`` → ``(*, widths[-1])``.
    """
    widths = _check_widths(widths)
    if len(widths) == 3 and widths[0] == widths[2]:
        return PlainFFN(widths[0], widths[1], act)
    layers: list[nn.Module] = []
    for i, (n_in, n_out) in enumerate(zip(widths[:-1], widths[1:], strict=True)):
        if i > 0:
            layers.append(get_activation(act))
        layers.append(nn.Linear(n_in, n_out, bias=False))
    return nn.Sequential(*layers)


def _check_group(acts: Sequence[str]) -> tuple[str, ...]:
    acts = check_names(acts, "a group's activations")
    for act in acts:
        get_activation(act)  # raises ValueError naming the valid names
    return acts


class MLPBatch(nn.Module):
    """Independent bias-free MLPs of one shape, one per (activation, seed), run side by side.

    Copy ``(act, seed)`` starts from exactly the weights ``mlp_stack(widths, act)`` draws under
    ``seeded(seed)`` (for ``(h, m, h)``: the ``PlainFFN`` a notebook would build). The copies
    are ordered activation by activation, seeds within (``copies``), and stacked along a first
    axis: ``weights[i]`` is ``(C, widths[i+1], widths[i])``. ``forward`` maps ``(C, N, widths[0])``
    → ``(C, N, widths[-1])``; each copy reads only its own slice and its own activation, so the
    copies never interact, and ``own_gradients`` (lesson 02's) hands each copy exactly its own
    gradient, so Adam moves it as if it trained alone, up to float rounding.
    """

    def __init__(self, widths: Sequence[int], acts: Sequence[str], seeds: Sequence[int]) -> None:
        super().__init__()
        self.widths = _check_widths(widths)
        self.acts = _check_group(acts)
        self.seeds = check_seeds(seeds)
        self.copies = tuple((act, seed) for act in self.acts for seed in self.seeds)
        self.act_fns = nn.ModuleList(get_activation(act) for act in self.acts)
        layers = []
        for act, seed in self.copies:
            with seeded(seed):  # the caller's RNG is untouched
                layers.append(linear_layers(mlp_stack(self.widths, act)))
        self.weights = nn.ParameterList(
            nn.Parameter(torch.stack([copy_layers[i].weight.detach() for copy_layers in layers]))
            for i in range(len(self.widths) - 1)
        )

    def forward(self, x: Tensor) -> Tensor:
        """``x``: ``(C, N, widths[0])`` → ``(C, N, widths[-1])``, copy by copy."""
        if x.dim() != 3 or x.shape[0] != len(self.copies) or x.shape[2] != self.widths[0]:
            raise ValueError(
                f"input has shape {tuple(x.shape)}; expected (C={len(self.copies)}, N, "
                f"{self.widths[0]})"
            )
        for i, w in enumerate(self.weights):
            x = torch.bmm(x, w.transpose(1, 2))  # (C, N, widths[i+1]): each copy its own matrix
            if i < len(self.weights) - 1:  # each activation on its own block of copies
                x = per_block(self.act_fns, x, len(self.seeds))
        # fit's loss is the mean over all C copies: undo its 1/C in the backward pass
        return own_gradients(x, len(self.copies))

    def member(self, k: int) -> nn.Module:
        """Copy ``k`` (``copies[k]``) as a stand-alone ``PlainFFN`` or ``nn.Sequential``."""
        check_member(k, len(self.copies))
        with seeded(0):  # the init is overwritten below; seeded keeps the caller's RNG untouched
            module = mlp_stack(self.widths, self.copies[k][0]).to(self.weights[0].device)
        with torch.no_grad():
            for layer, w in zip(linear_layers(module), self.weights, strict=True):
                layer.weight.copy_(w[k])
        return module.eval()


class CopyAdam(Adam):
    """``ml.Adam`` for stacked copies, each at its own learning rate (as lesson 09's).

    Every parameter is ``(C, ...)``, one slice per copy, and ``lrs`` holds the ``C`` rates. Copy
    ``k`` takes the step ``ml.Adam(lr=lrs[k])`` would take from the same gradients: the same
    operations in the same order, the step size ``lr / (1 - β₁ᵗ)`` read per copy and rounded to
    the parameter's dtype as ``ml.Adam`` rounds it.
    """

    def __init__(self, parameters: Iterable[Tensor], lrs: Sequence[float]) -> None:
        lrs = tuple(lrs)
        for lr in lrs:
            ok = isinstance(lr, (int, float)) and not isinstance(lr, bool) and math.isfinite(lr)
            if not ok or not lr > 0:
                raise ValueError(f"a copy's lr must be a positive finite number, got {lr!r}")
        if not lrs:
            raise ValueError("CopyAdam needs one learning rate per copy, got none")
        super().__init__(parameters, lr=max(lrs))
        for p in self.parameters:
            if p.dim() == 0 or p.shape[0] != len(lrs):
                raise ValueError(
                    f"every parameter must be (C={len(lrs)}, ...), one slice per copy; got shape "
                    f"{tuple(p.shape)}"
                )
        self.lrs = torch.tensor([float(lr) for lr in lrs], dtype=torch.float64)  # (C,)

    @torch.no_grad()
    def step(self) -> None:
        """Move every parameter that has a gradient by one Adam step, each copy at its rate."""
        b1, b2 = self.beta1, self.beta2
        for i, p in enumerate(self.parameters):
            if p.grad is None:
                continue
            self.steps[i] += 1
            t = float(self.steps[i])
            self.avg[i].lerp_(p.grad, 1 - b1)  # running mean of the gradient
            self.avg_sq[i].mul_(b2).addcmul_(p.grad, p.grad, value=1 - b2)  # ... of its square
            step_size = (self.lrs / (1 - b1**t)).to(p.device, p.dtype)  # (C,): per copy
            denom = (self.avg_sq[i].sqrt() / (1 - b2**t) ** 0.5).add_(self.eps)
            # ml.Adam: p + (-step_size)·avg / denom, with the step size per copy
            p.addcdiv_(step_size.view(-1, *[1] * (p.dim() - 1)) * self.avg[i], denom, value=-1)


class RateBatch(MLPBatch):
    """``MLPBatch``'s copies once per learning rate in ``lrs``, side by side (``fit_rates``).

    Copy ``(act, lr, seed)`` starts from the weights of ``MLPBatch``'s copy ``(act, seed)``; the
    copies are ordered activation by activation, rates within, seeds within rates (``copies``;
    ``copy_lrs`` gives each copy's rate). ``fit_rates``'s loss is a sum over the rates of the
    mean over that rate's copies, and ``forward`` scales the gradient back by the copies per rate,
    so each copy's gradient is computed as in its rate's own ``MLPBatch``.
    """

    def __init__(
        self,
        widths: Sequence[int],
        acts: Sequence[str],
        seeds: Sequence[int],
        lrs: Sequence[float],
    ) -> None:
        super().__init__(widths, acts, seeds)
        self.lrs = _check_lrs(lrs)
        shape = (len(self.acts), len(self.lrs), len(self.seeds))
        self.copies = tuple(
            (act, lr, seed) for act in self.acts for lr in self.lrs for seed in self.seeds
        )
        self.copy_lrs = tuple(lr for _, lr, _ in self.copies)
        self.weights = nn.ParameterList(
            nn.Parameter(  # (A·S, ...) -> (A, L, S, ...) -> (A·L·S, ...): one copy per rate
                w.detach()
                .unflatten(0, (shape[0], 1, shape[2]))
                .expand(*shape, *w.shape[1:])
                .flatten(0, 2)
                .clone()
            )
            for w in self.weights
        )

    def forward(self, x: Tensor) -> Tensor:
        """``x``: ``(C, N, widths[0])`` → ``(C, N, widths[-1])``, copy by copy."""
        if x.dim() != 3 or x.shape[0] != len(self.copies) or x.shape[2] != self.widths[0]:
            raise ValueError(
                f"input has shape {tuple(x.shape)}; expected (C={len(self.copies)}, N, "
                f"{self.widths[0]})"
            )
        for i, w in enumerate(self.weights):
            x = torch.bmm(x, w.transpose(1, 2))  # (C, N, widths[i+1]): each copy its own matrix
            if i < len(self.weights) - 1:  # each activation on its own block of copies
                x = per_block(self.act_fns, x, len(self.lrs) * len(self.seeds))
        # the loss holds one mean per rate: undo its 1/(copies per rate) in the backward pass
        return own_gradients(x, len(self.copies) // len(self.lrs))


@dataclass(frozen=True)
class WidthFit:
    """One trained network (one seed) on the width task and what it achieved.

    ``widths``: ``(h, m, h)`` for a plain FFN, longer for a deeper stack; ``losses``: the MSE at
    every training step; ``prediction``: ``(N, h)`` after training; ``parameters``: counted from
    the module; ``model``: the trained network, the caller's own copy; ``lr``: the learning rate
    it trained at.
    """

    act: str
    widths: tuple[int, ...]
    seed: int
    parameters: int
    losses: tuple[float, ...]
    prediction: Tensor
    model: nn.Module
    lr: float = SETUP.lr

    @property
    def hidden_size(self) -> int:
        """``h``, the width of the token representation."""
        return self.widths[0]

    @property
    def intermediate_size(self) -> int:
        """``m``, the width of the (first) hidden layer."""
        return self.widths[1]

    @property
    def ratio(self) -> float:
        """``m/h``."""
        return self.widths[1] / self.widths[0]

    @property
    def final_loss(self) -> float:
        """The MSE after the last step."""
        return self.losses[-1]

    def steps_to(self, threshold: float) -> int | None:
        """The first step (counting from 1) whose MSE is below ``threshold``; None if never."""
        return next((i + 1 for i, v in enumerate(self.losses) if v < threshold), None)


@dataclass(frozen=True)
class WidthRuns:
    """The same setting trained once per seed: ``fits[k]`` is seed ``seeds[k]``."""

    fits: tuple[WidthFit, ...]

    def __post_init__(self) -> None:
        if not self.fits:
            raise ValueError("WidthRuns needs at least one fit")
        first = self.fits[0]
        if any((f.act, f.widths, f.lr) != (first.act, first.widths, first.lr) for f in self.fits):
            raise ValueError(
                "all fits of one WidthRuns must share the activation, widths and learning rate"
            )

    @property
    def act(self) -> str:
        return self.fits[0].act

    @property
    def widths(self) -> tuple[int, ...]:
        return self.fits[0].widths

    @property
    def ratio(self) -> float:
        """``m/h`` of the first hidden layer."""
        return self.fits[0].ratio

    @property
    def lr(self) -> float:
        """The learning rate every seed trained at."""
        return self.fits[0].lr

    @property
    def intermediate_size(self) -> int:
        return self.fits[0].intermediate_size

    @property
    def parameters(self) -> int:
        return self.fits[0].parameters

    @property
    def seeds(self) -> tuple[int, ...]:
        return tuple(f.seed for f in self.fits)

    @property
    def final_losses(self) -> tuple[float, ...]:
        """The final MSE of every seed, in seed order."""
        return tuple(f.final_loss for f in self.fits)

    @property
    def median_loss(self) -> float:
        return statistics.median(self.final_losses)

    @property
    def loss_range(self) -> tuple[float, float]:
        """``(min, max)`` of the final MSE over the seeds."""
        return min(self.final_losses), max(self.final_losses)

    def steps_to(self, threshold: float) -> tuple[int | None, ...]:
        """``WidthFit.steps_to`` for every seed."""
        return tuple(f.steps_to(threshold) for f in self.fits)

    def median_steps_to(self, threshold: float) -> float | None:
        """The median over seeds of the steps to ``threshold`` (a seed that never gets there
        counts as infinitely many); None if the median seed never gets there."""
        steps = [math.inf if s is None else s for s in self.steps_to(threshold)]
        middle = statistics.median(steps)
        return None if math.isinf(middle) else middle


@lru_cache(maxsize=64)
def _cached_group(
    acts: tuple[str, ...],
    widths: tuple[int, ...],
    seeds: tuple[int, ...],
    steps: int,
    lr: float,
    task_key: tuple[int, int, int],
    device: str,
) -> dict[str, WidthRuns]:
    task = _cached_task(*task_key, device)
    model = MLPBatch(widths, acts, seeds).to(device)
    n_copies = len(model.copies)
    x = task.inputs.expand(n_copies, -1, -1)  # (C, N, h): every copy sees the same tokens
    y = task.targets.expand(n_copies, -1, -1)  # (C, N, h)
    per_step: list[Tensor] = []  # each copy's own MSE at every forward pass of fit

    def record(_module: nn.Module, _inputs: object, output: Tensor) -> None:
        per_step.append((output.detach() - y).pow(2).mean(dim=(1, 2)))  # (C,)

    handle = model.register_forward_hook(record)
    try:
        with one_thread():
            fit(model, x, y, loss="mse", steps=steps, lr=lr)
    finally:
        handle.remove()
    with torch.no_grad(), one_thread():
        prediction = model(x)  # (C, N, h)
    return _runs_by_rate(model, per_step[:steps], prediction, [lr] * n_copies)[lr]


def _runs_by_rate(
    model: MLPBatch, per_step: list[Tensor], prediction: Tensor, copy_lrs: Sequence[float]
) -> dict[float, dict[str, WidthRuns]]:
    """A trained batch's copies as ``{lr: {act: WidthRuns}}``: ``per_step`` holds every copy's
    MSE ``(C,)`` at every step, ``prediction`` is ``(C, N, h)`` after training, and copy ``k``
    trained at ``copy_lrs[k]``."""
    losses = torch.stack(per_step).T.tolist()  # (C, steps)
    fits: dict[float, dict[str, list[WidthFit]]] = {}
    for k, (copy_, lr) in enumerate(zip(model.copies, copy_lrs, strict=True)):
        act, seed = copy_[0], copy_[-1]
        member = model.member(k)
        fit_ = WidthFit(
            act,
            model.widths,
            seed,
            count_parameters(member),
            tuple(losses[k]),
            prediction[k].clone(),
            member,
            lr,
        )
        fits.setdefault(lr, {}).setdefault(act, []).append(fit_)
    return {
        lr: {act: WidthRuns(tuple(runs)) for act, runs in by_act.items()}
        for lr, by_act in fits.items()
    }


def _copy_runs(runs: WidthRuns) -> WidthRuns:
    """The cache keeps the original; every caller gets copies it may train or edit."""
    return WidthRuns(
        tuple(
            replace(f, model=copy.deepcopy(f.model), prediction=f.prediction.clone())
            for f in runs.fits
        )
    )


def fit_group(
    acts: Sequence[str],
    widths: Sequence[int],
    seeds: Sequence[int] = SETUP.seeds,
    steps: int = SETUP.steps,
    lr: float = SETUP.lr,
    n_tokens: int = SETUP.n_tokens,
    task_seed: int = SETUP.task_seed,
    device: str | torch.device | None = None,
) -> dict[str, WidthRuns]:
    """Train ``mlp_stack(widths, act)`` on ``make_width_task(widths[0])`` for every activation in
    ``acts`` and every seed: ``{act: WidthRuns}``.

    ``widths[0] == widths[-1] == h``. All copies train together in one ``MLPBatch`` with
    ``ml.fit`` (full-batch Adam, MSE, ``steps`` steps, learning rate ``lr``); each copy's loss at
    every step is recorded by a forward hook. The group is part of what defines a run (like the
    seed): the same arguments always give the same numbers. Cached on all arguments: a second
    call is instant and hands back its own copies. The global RNG is left untouched.
    """
    acts = _check_group(acts)
    widths = _check_widths(widths)
    if widths[0] != widths[-1]:
        raise ValueError(f"the task maps h to h: widths must start and end alike, got {widths!r}")
    _check_task_args(widths[0], n_tokens, task_seed)
    check_positive_int("steps", steps)
    seeds = check_seeds(seeds)
    ok = isinstance(lr, (int, float)) and not isinstance(lr, bool) and math.isfinite(lr)
    if not ok or not lr > 0:
        raise ValueError(f"lr must be a positive finite number, got {lr!r}")
    runs = _cached_group(
        acts,
        widths,
        seeds,
        steps,
        float(lr),
        (widths[0], n_tokens, task_seed),
        _device_key(device),
    )
    return {act: _copy_runs(r) for act, r in runs.items()}


@lru_cache(maxsize=32)
def _cached_rates(
    acts: tuple[str, ...],
    widths: tuple[int, ...],
    seeds: tuple[int, ...],
    steps: int,
    lrs: tuple[float, ...],
    task_key: tuple[int, int, int],
    device: str,
) -> dict[float, dict[str, WidthRuns]]:
    task = _cached_task(*task_key, device)
    model = RateBatch(widths, acts, seeds, lrs).to(device)
    n_copies = len(model.copies)
    x = task.inputs.expand(n_copies, -1, -1)  # (C, N, h): every copy sees the same tokens
    y = task.targets.expand(n_copies, -1, -1)  # (C, N, h)
    per_rate = y.numel() // len(lrs)  # the entries one rate's copies hold
    adam = CopyAdam(model.parameters(), model.copy_lrs)
    per_step: list[Tensor] = []  # each copy's own MSE at every step
    model.train()
    with one_thread():
        for _ in range(steps):  # ml.fit's loop, with CopyAdam and one mean per rate
            adam.zero_grad()
            squared = (model(x) - y).pow(2)  # (C, N, h)
            per_step.append(squared.detach().mean(dim=(1, 2)))  # (C,)
            # Σ over rates of the mean over that rate's copies: each entry's gradient is the one
            # ml.fit's mean over one rate's batch gives it
            (squared.sum() / per_rate).backward()
            adam.step()
        model.eval()
        with torch.no_grad():
            prediction = model(x)  # (C, N, h)
    return _runs_by_rate(model, per_step, prediction, model.copy_lrs)


def fit_rates(
    acts: Sequence[str],
    widths: Sequence[int],
    lrs: Sequence[float],
    seeds: Sequence[int] = SETUP.seeds,
    steps: int = SETUP.steps,
    n_tokens: int = SETUP.n_tokens,
    task_seed: int = SETUP.task_seed,
    device: str | torch.device | None = None,
) -> dict[float, dict[str, WidthRuns]]:
    """``fit_group`` at every learning rate in ``lrs``, trained together: ``{lr: {act: runs}}``.

    One ``RateBatch`` holds every (activation, rate, seed) copy and ``CopyAdam`` moves each at its
    own rate; the loss is the sum over the rates of the mean over that rate's copies. Each copy's
    forward pass, gradient and Adam step are then the operations ``fit_group(acts, widths,
    lr=lr)`` runs for it, so each rate's runs are that call's (bit for bit under one arithmetic),
    from one training loop instead of ``len(lrs)``. Cached like ``fit_group``.
    """
    acts = _check_group(acts)
    widths = _check_widths(widths)
    if widths[0] != widths[-1]:
        raise ValueError(f"the task maps h to h: widths must start and end alike, got {widths!r}")
    _check_task_args(widths[0], n_tokens, task_seed)
    check_positive_int("steps", steps)
    runs = _cached_rates(
        acts,
        widths,
        check_seeds(seeds),
        steps,
        _check_lrs(lrs),
        (widths[0], n_tokens, task_seed),
        _device_key(device),
    )
    return {lr: {act: _copy_runs(r) for act, r in by_act.items()} for lr, by_act in runs.items()}


def _default_group(act: str, group: Sequence[str] | None) -> tuple[str, ...]:
    if group is None:
        group = SETUP.activations if act in SETUP.activations else (act,)
    group = tuple(group)
    if act not in group:
        raise ValueError(f"activation {act!r} is not in its group {group!r}")
    return group


def fit_mlp(
    act: str,
    widths: Sequence[int],
    group: Sequence[str] | None = None,
    **kwargs: object,
) -> WidthRuns:
    """One activation's runs from ``fit_group(group, widths, **kwargs)``.

    ``group`` defaults to the lesson's activations (``SETUP.activations``) when ``act`` is one of
    them, else ``(act,)``, so the lesson, its widget and its figure share one set of runs.
    """
    return fit_group(_default_group(act, group), widths, **kwargs)[act]


def fit_width(
    act: str,
    ratio: float,
    hidden_size: int = SETUP.hidden_size,
    group: Sequence[str] | None = None,
    **kwargs: object,
) -> WidthRuns:
    """``fit_mlp`` for the plain FFN ``(h, m = ratio·h, h)``: ``PlainFFN(h, m, act)`` per seed.

    ``kwargs`` go to ``fit_group`` (``seeds``, ``steps``, ``lr``, ``n_tokens``, ``task_seed``,
    ``device``).
    """
    m = ratio_to_width(hidden_size, ratio)
    return fit_mlp(act, (hidden_size, m, hidden_size), group=group, **kwargs)


def width_sweep(
    activations: Sequence[str] = WIDTH_ACTIVATIONS,
    ratios: Sequence[float] = WIDTH_RATIOS,
    hidden_size: int = SETUP.hidden_size,
    **kwargs: object,
) -> dict[str, list[WidthRuns]]:
    """Every activation × width ratio, each width trained as one group of all ``activations``:
    ``{act: [runs per ratio, in order]}``."""
    if not activations or not ratios:
        raise ValueError("width_sweep needs at least one activation and one ratio")
    acts = _check_group(activations)
    by_ratio = [
        fit_group(acts, (hidden_size, ratio_to_width(hidden_size, r), hidden_size), **kwargs)
        for r in ratios
    ]
    return {act: [runs[act] for runs in by_ratio] for act in acts}


@dataclass(frozen=True)
class ParameterControl:
    """Equal weights, different shapes: is it the width, or the parameters that come with it?

    ``wide[act]``: one hidden layer of ``m`` units; ``deep[act]``: several narrower hidden
    layers; ``linear``: the wide shape with no activation (identity), one linear map. All hold
    ``parameters`` weights.
    """

    wide: dict[str, WidthRuns]
    deep: dict[str, WidthRuns]
    linear: WidthRuns
    parameters: int


def equal_parameter_control(
    activations: Sequence[str] = WIDTH_ACTIVATIONS,
    hidden_size: int = SETUP.hidden_size,
    ratio: float = SETUP.control_ratio,
    deep_width: int = SETUP.deep_width,
    deep_layers: int = SETUP.deep_layers,
    **kwargs: object,
) -> ParameterControl:
    """Train, per activation, one wide hidden layer ``(h, ratio·h, h)`` and a deeper narrow stack
    ``(h, deep_width × deep_layers, h)`` with the same number of weights, plus the wide shape
    without an activation. Raises ``ValueError`` unless the counts are equal (at h = 8:
    2·8·64 = 8·16 + 3·16² + 16·8 = 1,024). Each shape is one group of ``activations`` (the wide
    one is then the width sweep's m/h = 8 runs); ``kwargs`` go to ``fit_group``.
    """
    if not activations:
        raise ValueError("equal_parameter_control needs at least one activation")
    wide_shape, deep_shape, parameters = _control_shapes(
        hidden_size, ratio, deep_width, deep_layers
    )
    acts = _check_group(activations)
    return ParameterControl(
        wide=fit_group(acts, wide_shape, **kwargs),
        deep=fit_group(acts, deep_shape, **kwargs),
        linear=fit_group(("identity",), wide_shape, **kwargs)["identity"],
        parameters=parameters,
    )


def _control_shapes(
    hidden_size: int, ratio: float, deep_width: int, deep_layers: int
) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """The control's wide shape ``(h, ratio·h, h)``, its deep shape and their common number of
    weights; ``ValueError`` unless the two counts are equal."""
    check_positive_int("deep_width", deep_width)
    check_positive_int("deep_layers", deep_layers)
    m = ratio_to_width(hidden_size, ratio)
    wide_shape = (hidden_size, m, hidden_size)
    deep_shape = (hidden_size, *([deep_width] * deep_layers), hidden_size)
    with seeded(0):  # only counted; seeded keeps the caller's RNG untouched
        counts = {
            shape: count_parameters(mlp_stack(shape, "relu")) for shape in (wide_shape, deep_shape)
        }
    if counts[wide_shape] != counts[deep_shape]:
        raise ValueError(
            f"the control needs equal parameters: {wide_shape} has {counts[wide_shape]:,}, "
            f"{deep_shape} has {counts[deep_shape]:,}"
        )
    return wide_shape, deep_shape, counts[wide_shape]


def hidden_activations(ffn: PlainFFN, inputs: Tensor) -> Tensor:
    """What the activation hands to ``down_proj``: ``act(up_proj(x))``, ``(*, h)`` → ``(*, m)``."""
    if not isinstance(ffn, PlainFFN):
        raise ValueError(f"hidden_activations needs a PlainFFN, got {type(ffn).__name__}")
    with torch.no_grad():
        return ffn.act_fn(ffn.up_proj(inputs))


@dataclass(frozen=True)
class SparsityStats:
    """How many of the ``m`` hidden units a token actually uses.

    ``exact_zero``: fraction of all entries that are exactly 0.0; ``near_zero``: fraction with
    ``|a| < tol·rms(a)``; ``units_used``: mean number of units per token above that threshold.
    ``dead_units``: units that are exactly 0 for every token (they get no gradient, lesson 03);
    ``live_zero``: among the other units, the fraction a token switches exactly off, averaged over
    tokens, and ``live_zero_range`` its (min, max) over tokens. ``values``: the flattened
    activations ``(N·m,)`` for histograms.
    """

    exact_zero: float
    near_zero: float
    units_used: float
    dead_units: int
    live_zero: float
    live_zero_range: tuple[float, float]
    intermediate_size: int
    tol: float
    values: Tensor


def hidden_sparsity(hidden: Tensor, tol: float = SETUP.near_zero_tol) -> SparsityStats:
    """Sparsity of hidden activations ``(N, m)``: exact zeros, dead units, entries under tol·rms.

    The threshold is relative to the layer's own RMS so layers of different scale compare fairly.
    """
    if hidden.dim() != 2 or hidden.shape[0] == 0:
        raise ValueError(f"hidden must be (N, m) with N ≥ 1, got shape {tuple(hidden.shape)}")
    if not tol >= 0:
        raise ValueError(f"tol must be non-negative, got {tol!r}")
    a = hidden.detach().float()
    rms = a.pow(2).mean().sqrt()
    small = a.abs() < tol * rms
    zero = a == 0
    dead = zero.all(dim=0)  # (m,)
    live = ~dead
    if bool(live.any()):
        per_token = zero[:, live].float().mean(dim=1)  # (N,)
        live_zero = float(per_token.mean())
        live_range = (float(per_token.min()), float(per_token.max()))
    else:
        live_zero, live_range = 0.0, (0.0, 0.0)
    return SparsityStats(
        exact_zero=float(zero.float().mean()),
        near_zero=float(small.float().mean()),
        units_used=float((~small).float().sum(1).mean()),
        dead_units=int(dead.sum()),
        live_zero=live_zero,
        live_zero_range=live_range,
        intermediate_size=a.shape[1],
        tol=tol,
        values=a.flatten().cpu(),
    )


# ---- each activation at its own best learning rate --------------------------------------------


def best_rate(candidates: Sequence[WidthRuns]) -> WidthRuns:
    """Of one setting trained at several learning rates, the runs whose median final MSE is
    lowest (the earlier candidate on a tie)."""
    candidates = tuple(candidates)
    if not candidates:
        raise ValueError("best_rate needs at least one set of runs")
    first = candidates[0]
    if any(
        (r.act, r.widths, r.seeds) != (first.act, first.widths, first.seeds) for r in candidates
    ):
        raise ValueError("best_rate compares one setting: same activation, widths and seeds")
    return min(candidates, key=lambda runs: runs.median_loss)


@dataclass(frozen=True)
class RateScan:
    """The width sweep at several learning rates: ``sweeps[lr]`` is ``width_sweep(lr=lr)``,
    ``{act: [runs per ratio, in order]}``."""

    sweeps: dict[float, dict[str, list[WidthRuns]]]

    @property
    def lrs(self) -> tuple[float, ...]:
        """The rates scanned, in the order given."""
        return tuple(self.sweeps)

    def at_best(self) -> dict[str, list[WidthRuns]]:
        """A width sweep with every activation and width read at its own best rate (``best_rate``
        over the scanned rates): ``{act: [runs per ratio]}``, each ``WidthRuns.lr`` saying which."""
        first = self.sweeps[self.lrs[0]]
        return {
            act: [best_rate([self.sweeps[lr][act][i] for lr in self.lrs]) for i in range(len(runs))]
            for act, runs in first.items()
        }


def _check_lrs(lrs: Sequence[float]) -> tuple[float, ...]:
    lrs = tuple(lrs)
    if not lrs or len(set(lrs)) != len(lrs):
        raise ValueError(f"learning rates must be distinct and at least one, got {lrs!r}")
    for lr in lrs:
        ok = isinstance(lr, (int, float)) and not isinstance(lr, bool) and math.isfinite(lr)
        if not ok or not lr > 0:
            raise ValueError(f"lr must be a positive finite number, got {lr!r}")
    return tuple(float(lr) for lr in lrs)


def rate_scan(
    lrs: Sequence[float] = SETUP.lr_ladder,
    activations: Sequence[str] = WIDTH_ACTIVATIONS,
    ratios: Sequence[float] = WIDTH_RATIOS,
    hidden_size: int = SETUP.hidden_size,
    **kwargs: object,
) -> RateScan:
    """``width_sweep`` once per learning rate in ``lrs``. The first rate's sweep is
    ``width_sweep``'s own (cached, so the lesson's sweep at its rate is reused); the other rates
    train together, one ``fit_rates`` batch per width, with the same runs as their own sweeps.
    ``kwargs`` go to ``fit_group`` and ``fit_rates`` (``seeds``, ``steps``, ...)."""
    if "lr" in kwargs:
        raise ValueError("rate_scan takes its rates as lrs, not lr")
    lrs = _check_lrs(lrs)
    acts = _check_group(activations)
    first = width_sweep(acts, ratios, hidden_size, lr=lrs[0], **kwargs)
    shapes = [(hidden_size, ratio_to_width(hidden_size, r), hidden_size) for r in ratios]
    rest = [fit_rates(acts, shape, lrs[1:], **kwargs) for shape in shapes] if lrs[1:] else []
    sweeps = {lrs[0]: first}
    for lr in lrs[1:]:
        sweeps[lr] = {act: [per_width[lr][act] for per_width in rest] for act in acts}
    return RateScan(sweeps)


def best_rate_control(
    lrs: Sequence[float] = SETUP.lr_ladder,
    activations: Sequence[str] = WIDTH_ACTIVATIONS,
    hidden_size: int = SETUP.hidden_size,
    ratio: float = SETUP.control_ratio,
    deep_width: int = SETUP.deep_width,
    deep_layers: int = SETUP.deep_layers,
    **kwargs: object,
) -> ParameterControl:
    """``equal_parameter_control`` at every rate in ``lrs``, each shape and activation (and the
    linear shape) read at its own best rate (``best_rate``). The wide shape's runs are
    ``rate_scan``'s at its width (cached, so the lesson's scan is reused); the deep and the
    linear shape train all their rates together (``fit_rates``). ``kwargs`` go to ``fit_group``
    and ``fit_rates``."""
    if "lr" in kwargs:
        raise ValueError("best_rate_control takes its rates as lrs, not lr")
    lrs = _check_lrs(lrs)
    if not activations:
        raise ValueError("best_rate_control needs at least one activation")
    wide_shape, deep_shape, parameters = _control_shapes(
        hidden_size, ratio, deep_width, deep_layers
    )
    acts = _check_group(activations)
    wide = rate_scan(lrs, acts, (ratio,), hidden_size, **kwargs).sweeps  # {lr: {act: [runs]}}
    deep = fit_rates(acts, deep_shape, lrs, **kwargs)
    linear = fit_rates(("identity",), wide_shape, lrs, **kwargs)
    return ParameterControl(
        wide={act: best_rate([wide[lr][act][0] for lr in lrs]) for act in acts},
        deep={act: best_rate([deep[lr][act] for lr in lrs]) for act in acts},
        linear=best_rate([linear[lr]["identity"] for lr in lrs]),
        parameters=parameters,
    )


def ranking(sweep: Mapping[str, Sequence[WidthRuns]]) -> list[list[tuple[str, float]]]:
    """Per width (in sweep order): ``(activation, median final MSE)`` from lowest to highest."""
    if not sweep:
        raise ValueError("ranking needs a sweep with at least one activation")
    n = {len(runs) for runs in sweep.values()}
    if len(n) != 1:
        raise ValueError("every activation of a sweep needs the same widths")
    return [
        sorted(((act, runs[i].median_loss) for act, runs in sweep.items()), key=lambda p: p[1])
        for i in range(n.pop())
    ]


# ---- tables and lines, as the lesson prints them -----------------------------------------------


#: A yes/no fact as the catalogue knows it.
_TRUTH = {True: tr_noop("True"), False: tr_noop("False")}


def truth(value: bool) -> str:
    """A yes/no fact as the lesson prints it: ``"True"``/``"False"`` in English, 是/否 in
    Chinese."""
    return tr(_TRUTH[bool(value)])


def listing(values: Iterable[object]) -> str:
    """Printed values on one line, joined as the reader's language lists them: ``"0.5, 0.86"`` in
    English, ``"0.5、0.86"`` in Chinese (each value written with ``str``; none gives ``""``)."""
    texts = [str(value) for value in values]
    if not texts:
        return ""
    return functools.reduce(
        lambda items, item: tr("{items}, {item}", items=items, item=item), texts
    )


def _loss(loss: float) -> str:
    """A trained loss to two significant digits, as ``plots.l04_width.loss_label`` writes it."""
    return f"{loss:#.2g}"


def _ratio(ratio: float) -> str:
    """``0.5`` → ``"½"``, ``4.0`` → ``"4"``, as ``plots.l04_width.ratio_label`` writes it."""
    return "½" if ratio == 0.5 else f"{ratio:g}"


def _fall(factor: float) -> str:
    """A decrease by ``factor``, two significant digits: ``179.6`` → ``"÷180"``."""
    return f"÷{float(f'{factor:.2g}'):g}"


def sweep_table(sweep: Mapping[str, Sequence[WidthRuns]], show_rates: bool = False) -> str:
    """The median final MSE of every activation (rows) at every width (columns), the factor it
    falls by from the first width to the last, the activation lowest at each width, and how far
    apart the best two are. ``show_rates`` adds, under each activation, the learning rate each
    entry trained at (for a sweep read at each one's best rate, ``RateScan.at_best``)."""
    order = ranking(sweep)
    ratios = [runs.ratio for runs in next(iter(sweep.values()))]
    fall_label = f"{_ratio(ratios[0])} → {_ratio(ratios[-1])}"
    header = [tr("median MSE"), *(f"m/h = {_ratio(r)}" for r in ratios), fall_label]
    rows: list[list[str]] = []
    for act, runs in sweep.items():
        fall = runs[0].median_loss / runs[-1].median_loss
        rows.append([activation_label(act), *(_loss(r.median_loss) for r in runs), _fall(fall)])
        if show_rates:
            rows.append(["  " + tr("at lr"), *(f"{r.lr:g}" for r in runs), ""])
    rows.append([tr("lowest"), *(activation_label(per[0][0]) for per in order), ""])
    gaps = [f"{per[1][1] / per[0][1] - 1:.0%}" if len(per) > 1 else "" for per in order]
    rows.append([tr("best two apart"), *gaps, ""])
    return text_table(header, rows)


def steps_table(sweep: Mapping[str, Sequence[WidthRuns]], threshold: float) -> str:
    """The median number of steps until the training MSE first drops below ``threshold``, per
    activation (rows) and width (columns); "never" where the median seed does not get there."""
    ratios = [runs.ratio for runs in next(iter(sweep.values()))]
    header = [tr("steps to MSE < {threshold:g}", threshold=threshold)]
    header += [f"m/h = {_ratio(r)}" for r in ratios]
    rows = []
    for act, runs in sweep.items():
        cells = [r.median_steps_to(threshold) for r in runs]
        rows.append([activation_label(act), *(tr("never") if c is None else int(c) for c in cells)])
    return text_table(header, rows)


def runs_table(rows: Mapping[str, WidthRuns], threshold: float, title: str = "") -> str:
    """One line per labelled setting (``title`` heads the labels): the median final MSE over the
    seeds, its range, and the median steps to MSE below ``threshold`` ("never" if the median seed
    does not get there)."""
    header = [
        title,
        tr("median MSE"),
        tr("range"),
        tr("steps to < {threshold:g}", threshold=threshold),
    ]
    lines = []
    for label, runs in rows.items():
        low, high = runs.loss_range
        steps = runs.median_steps_to(threshold)
        lines.append(
            [
                label,
                _loss(runs.median_loss),
                f"{_loss(low)}–{_loss(high)}",
                tr("never") if steps is None else int(steps),
            ]
        )
    return text_table(header, lines)


def control_table(control: ParameterControl, show_rates: bool = False) -> str:
    """The equal-parameter control: per activation, the median final MSE of one wide layer and of
    the deeper narrow stack and their ratio, then the linear shape. ``show_rates`` adds the
    learning rate each entry trained at."""
    wide = next(iter(control.wide.values()))
    deep = next(iter(control.deep.values()))
    wide_name = f"1 × {wide.intermediate_size}"
    deep_name = f"{len(deep.widths) - 2} × {deep.intermediate_size}"
    header = [tr("median MSE"), wide_name, deep_name, tr("deep / wide")]
    if show_rates:
        header += [tr("lr (wide)"), tr("lr (deep)")]
    rows = []
    for act in control.wide:
        w, d = control.wide[act], control.deep[act]
        row = [activation_label(act), _loss(w.median_loss), _loss(d.median_loss)]
        row.append(f"{d.median_loss / w.median_loss:.2g}")
        rows.append(row + ([f"{w.lr:g}", f"{d.lr:g}"] if show_rates else []))
    linear = control.linear
    row = [tr("linear (none)"), _loss(linear.median_loss), "", ""]
    rows.append(row + ([f"{linear.lr:g}", ""] if show_rates else []))
    return text_table(header, rows)


def sparsity_table(stats: Mapping[str, Sequence[SparsityStats]]) -> str:
    """Per activation, the range over seeds of: the share of hidden entries exactly 0, the share
    below ``tol``·rms, the dead units, the share of live units a token switches exactly off, and
    the units a token uses (above ``tol``·rms)."""

    def span(values: Sequence[float], fmt: str) -> str:
        return f"{format(min(values), fmt)}–{format(max(values), fmt)}"

    if not stats or not all(stats.values()):
        raise ValueError("sparsity_table needs at least one activation with at least one seed")
    first = next(iter(stats.values()))
    header = [
        tr("{n} seeds", n=max(len(per_seed) for per_seed in stats.values())),
        tr("exactly 0"),
        tr("<{tol:.0%} rms", tol=first[0].tol),
        tr("dead"),
        tr("live off"),
        tr("units used"),
    ]
    rows = []
    for act, per_seed in stats.items():
        rows.append(
            [
                activation_label(act),
                span([s.exact_zero for s in per_seed], ".2f"),
                span([s.near_zero for s in per_seed], ".2f"),
                span([s.dead_units for s in per_seed], "d"),
                span([s.live_zero for s in per_seed], ".2f"),
                span([s.units_used for s in per_seed], ".1f"),
            ]
        )
    return text_table(header, rows)
