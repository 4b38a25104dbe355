"""One small, deterministic training loop that every lesson's experiment shares."""

from __future__ import annotations

import math
from collections.abc import Callable

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from ._checks import check_positive_int

LOSSES: dict[str, Callable[[Tensor, Tensor], Tensor]] = {
    "mse": F.mse_loss,
    "cross_entropy": F.cross_entropy,
}


_fit_calls = 0


def fit_call_count() -> int:
    """How many times ``fit`` has started in this process.

    Lets a test or a benchmark tell whether a widget redraw trained anything, without replacing
    ``fit``: read it before and after.
    """
    return _fit_calls


def fit(
    model: nn.Module,
    inputs: Tensor,
    targets: Tensor,
    loss: str = "mse",
    steps: int = 200,
    lr: float = 1e-2,
    weight_decay: float = 0.0,
) -> list[float]:
    """Train ``model`` full-batch with Adam for ``steps`` steps; return the loss at every step.

    ``inputs``: ``(N, in)``; ``targets``: ``(N, out)`` for ``"mse"`` or ``(N,)`` class indices for
    ``"cross_entropy"``. Full-batch and seeded data make the run repeat exactly on one machine.
    """
    global _fit_calls
    if not isinstance(loss, str) or loss not in LOSSES:
        raise ValueError(f"unknown loss {loss!r}; expected one of: {', '.join(LOSSES)}")
    check_positive_int("steps", steps)  # refuses True, 2.5, 0
    for name, value, lowest in (("lr", lr, "positive"), ("weight_decay", weight_decay, "≥ 0")):
        ok = (
            isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
        )
        if not ok or (value <= 0 if lowest == "positive" else value < 0):
            raise ValueError(f"{name} must be a finite number {lowest}, got {value!r}")
    if inputs.shape[0] != targets.shape[0]:
        raise ValueError(
            f"inputs have {inputs.shape[0]} rows but targets {targets.shape[0]}; "
            "expected one target per input"
        )
    _fit_calls += 1
    loss_fn = LOSSES[loss]
    optimizer = torch.optim.Adam(model.parameters(), lr=lr, weight_decay=weight_decay)
    history: list[float] = []
    model.train()
    for _ in range(steps):
        optimizer.zero_grad(set_to_none=True)
        prediction = model(inputs)
        if loss == "mse" and prediction.shape != targets.shape:
            raise ValueError(
                f"model output has shape {tuple(prediction.shape)} but targets have shape "
                f"{tuple(targets.shape)}; for the mse loss they must match"
            )
        value = loss_fn(prediction, targets)
        value.backward()
        optimizer.step()
        history.append(value.item())
    model.eval()
    return history
