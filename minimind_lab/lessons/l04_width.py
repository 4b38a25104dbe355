"""Lesson 04's experiment: one small task, fitted by plain FFNs of different widths.

The task is small enough to draw. Each token is a point ``t`` on a line; its representation
(表示 hidden_states) ``x = t·u + v`` lives in ``hidden_size`` dimensions (``u``, ``v`` fixed
orthonormal directions; the constant ``v`` plays the role of a bias, which ``PlainFFN`` leaves
out). The FFN must write ``hidden_size`` different waves ``sin(ω_k·t + φ_k)`` into the
``hidden_size`` output coordinates, all through the same ``m`` hidden units. How well it can do
that, and in how many steps, depends on ``m`` (升维 to ``intermediate_size``) and on the activation.

Everything here computes; ``plots/width.py`` draws. Fits are cached by their arguments, so the
lesson's sweep and its widget share them and a redraw after the first is instant.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

import torch
from torch import Tensor

from .._checks import check_positive_int
from .._threads import one_thread
from ..ffn import PlainFFN
from ..runtime import seeded
from ..sizing import count_parameters
from ..train import fit

__all__ = [
    "SETUP",
    "Setup",
    "SparsityStats",
    "WIDTH_ACTIVATIONS",
    "WIDTH_RATIOS",
    "WidthFit",
    "WidthTask",
    "fit_width",
    "hidden_activations",
    "hidden_sparsity",
    "make_width_task",
    "ratio_to_width",
    "width_sweep",
]


#: The widths lesson 04 sweeps, as ratios m/h (½ to 8).
WIDTH_RATIOS: tuple[float, ...] = (0.5, 1.0, 2.0, 4.0, 8.0)
#: The activations lesson 04 compares.
WIDTH_ACTIVATIONS: tuple[str, ...] = ("relu", "gelu", "silu", "tanh", "sigmoid")


@dataclass(frozen=True)
class Setup:
    """Lesson 04's task and fits, read by the notebook, the widget and the figure."""

    hidden_size: int = 8
    n_tokens: int = 256
    steps: int = 400
    lr: float = 1e-2
    seed: int = 0
    ratios: tuple[float, ...] = WIDTH_RATIOS
    activations: tuple[str, ...] = WIDTH_ACTIVATIONS


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


def make_width_task(
    hidden_size: int = 8,
    n_tokens: int = 256,
    seed: int = 0,
    device: str | torch.device | None = None,
) -> WidthTask:
    """Build (or fetch from cache) the lesson-04 task: ``n_tokens`` tokens of width ``hidden_size``.

    Needs ``hidden_size ≥ 2`` (one direction for ``t``, one for the constant). Tensors are float32
    on ``device`` (CPU by default: at this size the CPU is as fast as any accelerator), and the
    caller's own copies.
    """
    check_positive_int("n_tokens", n_tokens)
    if check_positive_int("hidden_size", hidden_size) < 2:
        raise ValueError(f"hidden_size must be at least 2 for this task, got {hidden_size!r}")
    task = _cached_task(hidden_size, n_tokens, seed, _device_key(device))
    return WidthTask(
        *(v.clone() for v in (task.t, task.inputs, task.targets, task.freqs, task.phases))
    )


@dataclass(frozen=True)
class WidthFit:
    """One trained ``PlainFFN`` on the width task and what it achieved.

    ``losses``: MSE at every training step; ``prediction``: ``(N, h)`` after training;
    ``parameters``: counted from the module (``2·h·m``). ``model`` is the caller's own copy.
    """

    act: str
    ratio: float
    hidden_size: int
    intermediate_size: int
    parameters: int
    losses: tuple[float, ...]
    prediction: Tensor
    model: PlainFFN

    @property
    def final_loss(self) -> float:
        """The MSE after the last step."""
        return self.losses[-1]


def ratio_to_width(hidden_size: int, ratio: float) -> int:
    """``m = round(ratio·h)``, at least 1: the ``intermediate_size`` for a width ratio ``m/h``."""
    if not ratio > 0:
        raise ValueError(f"width ratio m/h must be positive, got {ratio!r}")
    return max(1, round(ratio * hidden_size))


@lru_cache(maxsize=256)
def _cached_fit(
    act: str, ratio: float, hidden_size: int, steps: int, lr: float, seed: int, device: str
) -> WidthFit:
    task = _cached_task(hidden_size, 256, 0, device)
    m = ratio_to_width(hidden_size, ratio)
    with seeded(seed):  # seed the init without touching the caller's RNG
        model = PlainFFN(hidden_size, m, act).to(device)
    with one_thread():
        losses = fit(model, task.inputs, task.targets, loss="mse", steps=steps, lr=lr)
        with torch.no_grad():
            prediction = model(task.inputs)
    return WidthFit(
        act, ratio, hidden_size, m, count_parameters(model), tuple(losses), prediction, model
    )


def fit_width(
    act: str,
    ratio: float,
    hidden_size: int = 8,
    steps: int = 400,
    lr: float = 1e-2,
    seed: int = 0,
    device: str | torch.device | None = None,
) -> WidthFit:
    """Train ``PlainFFN(h, m=ratio·h, act)`` on ``make_width_task(h)`` with ``fit`` (Adam, MSE).

    Cached on all arguments: a second call with the same values is instant and hands back its own
    copy of the model and prediction. The weight init is seeded by ``seed`` and leaves the global
    RNG untouched.
    """
    check_positive_int("steps", steps)
    make_width_task(hidden_size, device=device)  # validates hidden_size
    ratio_to_width(hidden_size, ratio)  # validates ratio
    cached = _cached_fit(
        act, float(ratio), hidden_size, steps, float(lr), seed, _device_key(device)
    )
    # The cache keeps the original; the caller gets a copy it may train or edit.
    return replace(cached, model=copy.deepcopy(cached.model), prediction=cached.prediction.clone())


def width_sweep(
    activations: Sequence[str] = WIDTH_ACTIVATIONS,
    ratios: Sequence[float] = WIDTH_RATIOS,
    **fit_kwargs: object,
) -> dict[str, list[WidthFit]]:
    """``fit_width`` for every activation × width ratio: ``{act: [fit per ratio, in order]}``."""
    if not activations or not ratios:
        raise ValueError("width_sweep needs at least one activation and one ratio")
    return {act: [fit_width(act, r, **fit_kwargs) for r in ratios] for act in activations}


def hidden_activations(ffn: PlainFFN, inputs: Tensor) -> Tensor:
    """What the activation hands to ``down_proj``: ``act(up_proj(x))``, ``(*, h)`` → ``(*, m)``."""
    with torch.no_grad():
        return ffn.act_fn(ffn.up_proj(inputs))


@dataclass(frozen=True)
class SparsityStats:
    """How many of the ``m`` hidden units a token actually uses.

    ``exact_zero``: fraction of entries that are exactly 0.0; ``near_zero``: fraction with
    ``|a| < tol·rms(a)``; ``units_used``: mean number of units per token above that threshold;
    ``values``: the flattened activations ``(N·m,)`` for histograms.
    """

    exact_zero: float
    near_zero: float
    units_used: float
    intermediate_size: int
    tol: float
    values: Tensor


def hidden_sparsity(hidden: Tensor, tol: float = 0.05) -> SparsityStats:
    """Sparsity of hidden activations ``(N, m)``: exact zeros and entries within ``tol·rms``.

    The threshold is relative to the layer's own RMS so layers of different scale compare fairly.
    """
    if hidden.dim() != 2:
        raise ValueError(f"hidden must be (N, m), got shape {tuple(hidden.shape)}")
    if not tol >= 0:
        raise ValueError(f"tol must be non-negative, got {tol!r}")
    a = hidden.detach().float()
    rms = a.pow(2).mean().sqrt()
    small = a.abs() < tol * rms
    return SparsityStats(
        exact_zero=float((a == 0).float().mean()),
        near_zero=float(small.float().mean()),
        units_used=float((~small).float().sum(1).mean()),
        intermediate_size=a.shape[1],
        tol=tol,
        values=a.flatten().cpu(),
    )
