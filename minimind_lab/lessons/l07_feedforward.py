"""Watching a forward pass: every intermediate tensor of a module, captured with forward hooks.

PyTorch calls a forward hook after each submodule runs and hands it the submodule's input and
output. ``capture_intermediates`` registers such hooks on the leaf submodules (the ones with no
children: ``Linear``, the activation, ``Dropout``), runs the module once, and removes the hooks
again, also when the forward pass raises. ``text_table`` (the course's one table helper,
``minimind_lab.i18n.table``) lays out the small tables the lesson prints, lined up by display width
in either language; ``dense_comparison_rows`` gives it the dense block's rows of
``ml.version_comparison`` with their labels and yes/no values in the reader's language.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import torch
from torch import Tensor, nn
from torch.utils.hooks import RemovableHandle

from ..i18n import tr_noop
from ..i18n.table import text_table
from .l06_sizing import comparison_rows

__all__ = [
    "DENSE_ASPECTS",
    "Intermediate",
    "SETUP",
    "Setup",
    "capture_intermediates",
    "dense_comparison_rows",
    "intermediates_by_name",
    "text_table",
]


@dataclass(frozen=True)
class Setup:
    """Lesson 07's sizes and seeds: the module the notebook reads, its inputs, the toy checkpoint.

    ``hidden_size``: the notebook's module and the widget's start (MiniMind2-Small's 512);
    ``n_tokens``: tokens of the widget's pass; ``closed_below``: when |act(gate)| counts as a
    closed gate (0.1, the threshold lesson 05's gate census uses); ``gradient_seeds`` and
    ``gradient_tokens``: the weight/input seeds and tokens per seed of the one-token gradient
    measurement (§7); ``checkpoint_*``: the tiny MiniMind model whose checkpoints (MiniMind2's
    layout and minimind-3's) the notebook writes.
    """

    hidden_size: int = 512
    n_tokens: int = 16
    weight_seed: int = 0
    input_seed: int = 1
    closed_below: float = 0.1
    gradient_seeds: tuple[int, ...] = (0, 1, 2)
    gradient_tokens: int = 64
    checkpoint_hidden_size: int = 64
    checkpoint_layers: int = 2
    checkpoint_heads: int = 4
    checkpoint_vocab_size: int = 128


SETUP = Setup()


@dataclass(frozen=True)
class Intermediate:
    """One tensor seen during a forward pass, detached from the graph.

    ``tensor`` shares storage with the pass (an in-place module run later can change it).
    ``name`` is the submodule's name (``"gate_proj"``); ``"<name>:in"`` marks an input that no
    earlier entry produced (for ``FeedForward``, ``"down_proj:in"`` is the gate·up product);
    ``"input"`` is the tensor passed to the module. ``shape`` is ``tuple(tensor.shape)``.
    """

    name: str
    shape: tuple[int, ...]
    tensor: Tensor


def capture_intermediates(module: nn.Module, x: Tensor) -> list[Intermediate]:
    """Run ``module(x)`` under ``torch.no_grad()`` and return every tensor it made, in call order.

    The list starts with ``"input"`` (``x``), then for each leaf submodule call: its input when no
    earlier entry holds that tensor (``"<name>:in"``), then its output (``"<name>"``). A submodule
    called twice appears as ``"<name>#2"`` the second time. Last comes ``"output"``, the module's
    own output, unless the last leaf already returned that very tensor (as ``FeedForward``'s
    ``dropout`` does). Hooks are removed before returning, also when the forward pass raises.
    """
    if not isinstance(module, nn.Module):
        raise ValueError(f"module must be a torch.nn.Module, got {type(module).__name__}")
    if not isinstance(x, Tensor):
        raise ValueError(f"x must be a torch.Tensor, got {type(x).__name__}")
    captured: list[Intermediate] = [Intermediate("input", tuple(x.shape), x.detach())]
    seen: dict[int, Tensor] = {id(x): x}  # holding the tensors keeps their ids from being reused
    calls: dict[str, int] = {}

    def record(name: str, tensor: object) -> None:
        if isinstance(tensor, Tensor):
            captured.append(Intermediate(name, tuple(tensor.shape), tensor.detach()))
            seen[id(tensor)] = tensor

    def make_hook(name: str) -> Callable[[nn.Module, tuple[object, ...], object], None]:
        def hook(_module: nn.Module, args: tuple[object, ...], output: object) -> None:
            calls[name] = calls.get(name, 0) + 1
            label = name if calls[name] == 1 else f"{name}#{calls[name]}"
            first = args[0] if args else None
            if isinstance(first, Tensor) and id(first) not in seen:
                record(f"{label}:in", first)
            record(label, output)

        return hook

    leaves = [
        (name, sub)
        for name, sub in module.named_modules()
        if name and next(sub.children(), None) is None
    ]
    if not leaves:  # a leaf module itself: watch it directly
        leaves = [(type(module).__name__, module)]
    handles: list[RemovableHandle] = []
    try:
        for name, sub in leaves:
            handles.append(sub.register_forward_hook(make_hook(name)))
        with torch.no_grad():
            output = module(x)
        if isinstance(output, Tensor) and id(output) not in seen:
            record("output", output)
    finally:
        for handle in handles:
            handle.remove()
    return captured


def intermediates_by_name(intermediates: list[Intermediate]) -> dict[str, Tensor]:
    """The captured tensors keyed by name, for lookups like ``d["act_fn"]``."""
    return {item.name: item.tensor for item in intermediates}


#: The dense block's rows of ``ml.version_comparison``, in its order (the MoE rows are lesson 10's),
#: marked so the table prints them in the reader's language.
DENSE_ASPECTS: tuple[str, ...] = (
    tr_noop("FFN width m"),
    tr_noop("FFN width / hidden"),
    tr_noop("FFN dropout after down_proj"),
    tr_noop("q/k RMSNorm per head"),
    tr_noop("rms_norm_eps"),
    tr_noop("key/value heads (default)"),
)


def dense_comparison_rows(comparison: Mapping[str, tuple[object, object]]) -> list[list[str]]:
    """The dense block's rows of ``ml.version_comparison(h)``, ready for ``text_table``.

    One row per aspect of ``DENSE_ASPECTS``: its label in the reader's language, then MiniMind2's
    value and minimind-3's, as lesson 06's ``comparison_rows`` writes them (a yes/no fact as
    ``truth`` prints it: ``True``/``False`` in English, 是/否 in Chinese; numbers with ``str``).
    Raises ``ValueError`` naming the aspects that ``comparison`` lacks (pass the dict
    ``ml.version_comparison`` returns).
    """
    return comparison_rows(comparison, DENSE_ASPECTS)
