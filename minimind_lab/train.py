"""One small, deterministic training loop that every lesson's experiment shares."""

from __future__ import annotations

from collections.abc import Callable, Iterable

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from ._checks import check_parameters, check_positive_int, check_real, check_training_data

LOSSES: dict[str, Callable[[Tensor, Tensor], Tensor]] = {
    "mse": F.mse_loss,
    "cross_entropy": F.cross_entropy,
}


_fit_calls = 0


def _is_beta(value: object) -> bool:
    try:
        check_real("beta", value, low=0, high=1, high_open=True)
    except ValueError:
        return False
    return True


class Adam:
    """Adam (Kingma & Ba, 2015), written out: the update ``torch.optim.Adam`` makes on the CPU,
    operation for operation, so the numbers are bit for bit the same.

    Each parameter keeps two running averages: of its gradient (``avg``, the direction) and of
    the gradient squared (``avg_sq``, its typical size); a step moves it by about ``lr`` along
    ``avg / sqrt(avg_sq)``, whatever the gradient's scale. Written here rather than taken from
    ``torch.optim`` so the whole update is in view, and because ``torch.optim``'s first use in a
    process imports ``torch._dynamo`` (about a second, in every lesson that trains).

    ``parameters``: an iterable of tensors (``model.parameters()``), at least one requiring grad;
    a single tensor is refused, as ``torch.optim.Adam`` refuses it (wrap it: ``[weight]``).
    """

    def __init__(
        self,
        parameters: Iterable[nn.Parameter],
        lr: float = 1e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0.0,
    ) -> None:
        lr = check_real("lr", lr, low=0, low_open=True)
        eps = check_real("eps", eps, low=0, low_open=True)
        pair = isinstance(betas, (tuple, list)) and len(betas) == 2
        if not pair or not all(_is_beta(b) for b in betas):
            raise ValueError(f"betas must be two numbers in [0, 1), got {betas!r}")
        weight_decay = check_real("weight_decay", weight_decay, low=0)
        self.parameters = check_parameters(parameters, "Adam")
        self.lr, (self.beta1, self.beta2), self.eps = lr, betas, eps
        self.weight_decay = weight_decay
        self.steps = [0] * len(self.parameters)  # per parameter: skipped when it has no grad
        self.avg = [torch.zeros_like(p) for p in self.parameters]
        self.avg_sq = [torch.zeros_like(p) for p in self.parameters]

    def zero_grad(self) -> None:
        """Forget the last backward pass's gradients (``.grad = None``)."""
        for p in self.parameters:
            p.grad = None

    @torch.no_grad()
    def step(self) -> None:
        """Move every parameter that has a gradient by one Adam step."""
        b1, b2 = self.beta1, self.beta2
        for i, p in enumerate(self.parameters):
            if p.grad is None:
                continue
            self.steps[i] += 1
            t = float(self.steps[i])
            grad = p.grad if self.weight_decay == 0 else p.grad.add(p, alpha=self.weight_decay)
            self.avg[i].lerp_(grad, 1 - b1)  # running mean of the gradient
            self.avg_sq[i].mul_(b2).addcmul_(grad, grad, value=1 - b2)  # ... of its square
            step_size = self.lr / (1 - b1**t)  # both averages start at 0: correct the bias
            denom = (self.avg_sq[i].sqrt() / (1 - b2**t) ** 0.5).add_(self.eps)
            p.addcdiv_(self.avg[i], denom, value=-step_size)


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
    """Train ``model`` full-batch with ``Adam`` for ``steps`` steps; return the loss at every step.

    ``inputs``: ``(N, in)``; ``targets``: ``(N, out)`` for ``"mse"`` or ``(N,)`` class indices for
    ``"cross_entropy"``. Full-batch and seeded data make the run repeat exactly on one machine.
    """
    global _fit_calls
    if not isinstance(loss, str) or loss not in LOSSES:
        raise ValueError(f"unknown loss {loss!r}; expected one of: {', '.join(LOSSES)}")
    check_positive_int("steps", steps)  # refuses True, 2.5, 0
    check_real("lr", lr, low=0, low_open=True)  # refuses True, NaN, 0, "1e-2"
    check_real("weight_decay", weight_decay, low=0)
    check_training_data(model, inputs, targets)  # a module, tensors, rows that match, all finite
    if not any(p.requires_grad for p in model.parameters()):
        raise ValueError(
            f"the model ({type(model).__name__}) has no trainable parameters, so fit has nothing "
            "to train; give it a module with weights (nn.Linear, an FFN) or unfreeze them"
        )
    _fit_calls += 1
    loss_fn = LOSSES[loss]
    adam = Adam(model.parameters(), lr=lr, weight_decay=weight_decay)
    history: list[float] = []
    model.train()
    for _ in range(steps):
        adam.zero_grad()
        prediction = model(inputs)
        if loss == "mse" and prediction.shape != targets.shape:
            raise ValueError(
                f"model output has shape {tuple(prediction.shape)} but targets have shape "
                f"{tuple(targets.shape)}; for the mse loss they must match"
            )
        value = loss_fn(prediction, targets)
        value.backward()  # backpropagation: every parameter's .grad
        adam.step()
        history.append(value.item())
    model.eval()
    return history
