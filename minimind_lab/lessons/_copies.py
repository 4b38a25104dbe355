"""Copies of a small network trained side by side: the pieces lessons 02, 04 and 05 share.

A lesson that trains many small networks (activations × seeds) stacks their weights along a
first axis and runs them as one batched module (``l02.StackBatch``, ``l04.MLPBatch``,
``l05.FFNBatch``), so one ``ml.fit`` call trains them all. Copy ``k`` must read only its own
inputs and weights, apply its own activation, and get exactly the gradient it would get alone.
These helpers are the parts of that which do not depend on the network's shape.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import torch
from torch import Tensor, nn

from .._checks import check_nonnegative_int

__all__ = [
    "check_member",
    "check_names",
    "check_seeds",
    "linear_layers",
    "own_gradients",
    "per_block",
]


def check_names(names: Sequence[str], what: str) -> tuple[str, ...]:
    """``names`` as a tuple: distinct and at least one (``ValueError`` naming ``what`` if not)."""
    if isinstance(names, str):
        raise ValueError(f"{what} must be a sequence of names, got the string {names!r}")
    names = tuple(names)
    if not names or len(set(names)) != len(names):
        raise ValueError(f"{what} must be distinct and at least one, got {names!r}")
    return names


def check_seeds(seeds: Sequence[int]) -> tuple[int, ...]:
    """``seeds`` as a tuple: distinct non-negative integers, at least one."""
    seeds = tuple(seeds)
    if not seeds or len(set(seeds)) != len(seeds):
        raise ValueError(f"seeds must be distinct and at least one, got {seeds!r}")
    for seed in seeds:
        check_nonnegative_int("seed", seed)
    return seeds


def check_member(k: int, n_copies: int) -> int:
    """``k`` if it indexes one of ``n_copies`` copies, else ``ValueError``."""
    if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k < n_copies:
        raise ValueError(f"member index must be in 0..{n_copies - 1}, got {k!r}")
    return k


def linear_layers(module: nn.Module) -> list[nn.Linear]:
    """The ``nn.Linear`` layers of ``module``, in order."""
    return [m for m in module.modules() if isinstance(m, nn.Linear)]


def per_block(fns: Sequence[Callable[[Tensor], Tensor]], x: Tensor, block_size: int) -> Tensor:
    """``fns[i]`` on the ``i``-th block of ``block_size`` copies: ``(C, N, m)`` → same shape.

    Copies are ordered name by name, seeds within, so each name's copies form one block.
    """
    blocks = x.split(block_size)
    return torch.cat([f(block) for f, block in zip(fns, blocks, strict=True)])


def own_gradients(out: Tensor, n_copies: int) -> Tensor:
    """``out`` unchanged; in the backward pass its gradient is multiplied by ``n_copies``.

    ``ml.fit``'s loss is a mean over all copies' rows, so it hands each copy ``1/C`` of the
    gradient the copy would get trained alone. Scaling back by ``C`` gives each copy exactly its
    own gradient, and Adam (its ε included) moves it as if it trained alone, up to float rounding.
    """
    if out.requires_grad:
        out.register_hook(lambda grad: grad * n_copies)
    return out
