"""One small, deterministic training loop that every lesson's experiment shares."""

from __future__ import annotations

from collections.abc import Callable

import torch
import torch.nn.functional as F
from torch import Tensor, nn

LOSSES: dict[str, Callable[[Tensor, Tensor], Tensor]] = {
    "mse": F.mse_loss,
    "cross_entropy": F.cross_entropy,
}


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
    if loss not in LOSSES:
        raise ValueError(f"unknown loss {loss!r}; expected one of: {', '.join(LOSSES)}")
    if steps <= 0:
        raise ValueError(f"steps must be a positive integer, got {steps!r}")
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
