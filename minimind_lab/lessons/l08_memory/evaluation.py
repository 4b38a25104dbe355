"""Lesson 08: Accuracy per kind, and hooks that replace a sublayer's output."""

from __future__ import annotations

import statistics
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager

import torch
from torch import Tensor, nn

from ..._threads import one_thread
from .task import Corpus

__all__ = ["accuracy_per_kind", "replaced_outputs", "spread"]


def _logits(model: nn.Module, ids: Tensor) -> Tensor:
    """``model(ids)`` as float32 without gradients, on one CPU thread (fastest at this size, and
    far faster than two threads on a busy machine)."""
    with torch.no_grad(), one_thread():
        return model(ids).float()


def accuracy_per_kind(model: nn.Module, corpus: Corpus) -> dict[str, float]:
    """Argmax accuracy at the graded positions of ``corpus``, per kind name.

    Puts ``model`` in eval mode. Raises ``ValueError`` if a kind has no graded position.
    """
    model.eval()
    prediction = _logits(model, corpus.ids[:, :-1]).argmax(-1)  # (N, T-1)
    kinds, targets = corpus.kinds[:, :-1], corpus.ids[:, 1:]
    result = {}
    for code, kind in enumerate(corpus.kind_names):
        graded = kinds == code
        if not graded.any():
            raise ValueError(f"the corpus has no graded position of kind {kind!r}")
        result[kind] = (prediction[graded] == targets[graded]).float().mean().item()
    return result


def spread(values: Sequence[float]) -> tuple[float, float, float]:
    """``(mean, min, max)`` of ``values``."""
    if not values:
        raise ValueError("spread needs at least one value")
    return statistics.fmean(values), min(values), max(values)


#: What a hook may do to a sublayer's output: ``(B, T, h)`` → ``(B, T, h)``.
Replacement = Callable[[Tensor], Tensor]


def _sublayer(model: nn.Module, sublayer: str, layer: int) -> nn.Module:
    if sublayer not in ("mlp", "self_attn"):
        raise ValueError(f"sublayer must be 'mlp' or 'self_attn', got {sublayer!r}")
    layers = model.model.layers
    if isinstance(layer, bool) or not isinstance(layer, int) or not 0 <= layer < len(layers):
        raise ValueError(f"layer must be an integer from 0 to {len(layers) - 1}, got {layer!r}")
    module = getattr(layers[layer], sublayer)
    if module is None:
        raise ValueError(f"layer {layer} of this model has no {sublayer}")
    return module


@contextmanager
def replaced_outputs(
    model: nn.Module, replacements: Mapping[tuple[str, int], Replacement]
) -> Iterator[None]:
    """Within the block, ``(sublayer, layer)``'s output is replaced by ``fn(output)``.

    ``sublayer`` is ``"mlp"`` or ``"self_attn"``: a forward hook on
    ``model.model.layers[layer].<sublayer>`` returns the new output. ``lambda out:
    torch.zeros_like(out)`` knocks the sublayer out. The hooks come off afterwards, also on error.
    """
    modules = [(_sublayer(model, s, i), fn) for (s, i), fn in replacements.items()]
    handles = [m.register_forward_hook(lambda _m, _a, out, fn=fn: fn(out)) for m, fn in modules]
    try:
        yield
    finally:
        for handle in handles:
            handle.remove()
