"""Linear collapse: a stack of linear layers with nothing between them is one linear layer."""

from __future__ import annotations

from collections.abc import Iterable

import torch
from torch import nn


def collapse_linear(layers: Iterable[nn.Module]) -> nn.Linear:
    """The single ``nn.Linear`` equal to applying ``layers`` in order.

    For ``y = W2(W1 x + b1) + b2`` that is ``W = W2·W1`` and ``b = W2·b1 + b2``; longer stacks fold
    the same way. Layers may have biases or not; the result has a bias when any layer had one.
    Shapes: ``(*, in_features of the first)`` → ``(*, out_features of the last)``. Accepts an
    ``nn.Sequential`` too. Anything but a plain ``nn.Linear`` (another module, a subclass with its
    own ``forward``, a layer with forward hooks) raises ``ValueError``, since folding it as affine
    would give a wrong map. So do layers of different dtypes (the message names both).
    """
    if not isinstance(layers, Iterable):
        raise ValueError(
            f"collapse_linear expects a sequence of nn.Linear layers, got "
            f"{type(layers).__name__}, which is not one; pass a list such as [layer]"
        )
    stack: list[nn.Linear] = []
    for i, layer in enumerate(layers):
        if not isinstance(layer, nn.Linear):
            raise ValueError(
                f"layer {i} is {type(layer).__name__}; collapse_linear expects only nn.Linear "
                "(an activation between layers is exactly what stops the collapse)"
            )
        if type(layer).forward is not nn.Linear.forward:
            # A subclass that computes something else than x·Wᵀ + b (a scale, a mask, a
            # nonlinearity) would be folded as if it were affine: a wrong map, silently.
            raise ValueError(
                f"layer {i} is {type(layer).__name__}, an nn.Linear subclass with its own "
                "forward; collapse_linear can only fold layers that compute x·Wᵀ + b"
            )
        if isinstance(layer, nn.modules.lazy.LazyModuleMixin) and layer.has_uninitialized_params():
            raise ValueError(
                f"layer {i} is an uninitialised {type(layer).__name__}: it has no weight until a "
                "first batch runs through it; call it once on an input, or build nn.Linear with "
                "its in_features"
            )
        if layer._forward_hooks or layer._forward_pre_hooks:
            raise ValueError(
                f"layer {i} has forward hooks, which may change what it computes; remove them "
                "before collapsing"
            )
        stack.append(layer)
    if not stack:
        raise ValueError("collapse_linear needs at least one nn.Linear layer, got none")
    dtype = stack[0].weight.dtype
    for i, layer in enumerate(stack):
        for name, tensor in (("weight", layer.weight), ("bias", layer.bias)):
            if tensor is not None and tensor.dtype != dtype:
                raise ValueError(
                    f"layer {i}'s {name} has dtype {tensor.dtype} but layer 0's weight has "
                    f"{dtype}; convert the layers to one dtype first, e.g. "
                    f"[layer.to({dtype}) for layer in layers]"
                )
    for i, (before, after) in enumerate(zip(stack, stack[1:], strict=False)):
        if before.out_features != after.in_features:
            raise ValueError(
                f"layer {i} gives {before.out_features} features but layer {i + 1} expects "
                f"{after.in_features}"
            )
    first = stack[0].weight
    with torch.no_grad():
        weight = first.detach().clone()
        bias = torch.zeros(weight.shape[0], dtype=first.dtype, device=first.device)
        has_bias = stack[0].bias is not None
        if has_bias:
            bias = stack[0].bias.detach().clone()
        for layer in stack[1:]:
            weight = layer.weight @ weight
            bias = layer.weight @ bias
            if layer.bias is not None:
                bias = bias + layer.bias
                has_bias = True
        merged = nn.Linear(
            stack[0].in_features,
            stack[-1].out_features,
            bias=has_bias,
            dtype=first.dtype,
            device=first.device,
        )
        merged.weight.copy_(weight)
        if has_bias:
            merged.bias.copy_(bias)
    return merged
