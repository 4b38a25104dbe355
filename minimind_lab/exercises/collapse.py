"""Lesson 02's build-it piece: the one linear layer two linear layers collapse to."""

from __future__ import annotations

from collections.abc import Callable

import torch
from torch import Tensor, nn

from ..i18n import tr
from ..linear import collapse_linear
from ._compare import (
    ExerciseError,
    Forbidden,
    WrongVersions,
    checker,
    compare_tensor,
    fresh_rng,
    require_function,
    run_learner,
    success,
)

#: ``fn(first, second)`` → an ``nn.Linear`` (or a ``(weight, bias)`` pair) equal to both.
CollapseFn = Callable[[nn.Linear, nn.Linear], object]


def _weight_and_bias(layer: nn.Linear) -> tuple[Tensor, Tensor]:
    bias = layer.bias if layer.bias is not None else layer.weight.new_zeros(layer.out_features)
    return layer.weight.detach(), bias.detach()


def collapse_two(first: nn.Linear, second: nn.Linear) -> tuple[Tensor, Tensor]:
    """The reference: ``W = W2·W1`` ``(out2, in1)`` and ``b = W2·b1 + b2`` ``(out2,)``.

    A layer without a bias counts as a bias of zeros.
    """
    (w1, b1), (w2, b2) = _weight_and_bias(first), _weight_and_bias(second)
    return w2 @ w1, w2 @ b1 + b2


def _as_pair(result: object, case: str) -> tuple[object, object]:
    if isinstance(result, nn.Linear):
        return result.weight, result.bias
    if isinstance(result, tuple | list) and len(result) == 2:
        return result[0], result[1]
    raise ExerciseError(
        tr(
            "{case}: your function returned a {kind}; expected an nn.Linear or a (weight, bias) "
            "pair",
            case=case,
            kind=type(result).__name__,
        )
    )


def _layers(
    shapes: tuple[int, int, int], bias1: bool, bias2: bool, dtype: torch.dtype, seed: int
) -> tuple[nn.Linear, nn.Linear]:
    a, b, c = shapes
    with fresh_rng(seed):
        return nn.Linear(a, b, bias=bias1, dtype=dtype), nn.Linear(b, c, bias=bias2, dtype=dtype)


@checker
def check_collapse(fn: CollapseFn) -> None:
    """Check ``fn(first, second)`` against ``collapse_two``; raise ``ExerciseError`` if off.

    ``fn`` gets two ``nn.Linear`` layers, ``first`` ``(in → mid)`` then ``second``
    ``(mid → out)``, and returns the single layer both amount to: an ``nn.Linear`` or a
    ``(weight (out, in), bias (out,))`` pair. Cases: square layers (8 → 8 → 8, where the order of
    the product shows), a wide middle (8 → 32 → 8), rectangular (4 → 6 → 3), a layer without a
    bias (either one), float64. ``ml.collapse_linear`` is the package's own answer, so calling
    it is refused; so is a function that changes either layer. Prints one line when every case
    matches.
    """
    require_function("fn", fn, tr("a function fn(first, second) of two nn.Linear layers"))
    cases = {
        tr("square layers 8 → 8 → 8"): _layers((8, 8, 8), True, True, torch.float32, 1),
        tr("a wide middle 8 → 32 → 8"): _layers((8, 32, 8), True, True, torch.float32, 2),
        tr("rectangular layers 4 → 6 → 3"): _layers((4, 6, 3), True, True, torch.float32, 3),
        tr("the first layer without a bias (bias=None)"): _layers(
            (5, 7, 5), False, True, torch.float32, 4
        ),
        tr("the second layer without a bias (bias=None)"): _layers(
            (5, 7, 5), True, False, torch.float32, 5
        ),
        tr("float64 layers 3 → 5 → 2"): _layers((3, 5, 2), True, True, torch.float64, 6),
    }
    for case, (first, second) in cases.items():
        with torch.no_grad():
            result = run_learner(
                fn, case, first, second, names=("first", "second"), forbidden=_forbidden()
            )
        weight, bias = _as_pair(result, case)
        (w1, b1), (w2, b2) = _weight_and_bias(first), _weight_and_bias(second)
        ref_w, ref_b = collapse_two(first, second)
        compare_tensor(
            weight,
            ref_w,
            case=case,
            what="weight",
            wrong_versions=_weight_mistakes(w1, w2),
            nan_cause=_nan_cause(),
        )
        if bias is None:
            if bool((ref_b == 0).all()):
                continue
            raise ExerciseError(
                tr(
                    "{case}: your layer has no bias; the collapsed bias is W2·b1 + b2, which is "
                    "not zero here",
                    case=case,
                )
            )
        compare_tensor(
            bias,
            ref_b,
            case=case,
            what="bias",
            wrong_versions=_bias_mistakes(w2, b1, b2),
            nan_cause=_nan_cause(),
        )
    success(
        tr("the collapsed layer matches W2·W1 and W2·b1 + b2 on {n} pairs of layers.", n=len(cases))
    )


def _nan_cause() -> str:
    return tr(
        "a tensor made with torch.empty holds whatever was in memory; a missing bias counts as "
        "zeros (torch.zeros)"
    )


def _forbidden() -> Forbidden:
    return dict.fromkeys(
        (collapse_linear, collapse_two),
        tr(
            "your code calls ml.collapse_linear (or the checker's reference), the package's own "
            "answer; multiply the layers out yourself"
        ),
    )


def _weight_mistakes(w1: Tensor, w2: Tensor) -> WrongVersions:
    return {
        tr(
            "the product is in the wrong order: W1·W2; the layer applied first stands on "
            "the right, W = W2·W1"
        ): lambda: w1 @ w2,
        tr(
            "the weight is W1·W2ᵀ-like (transposed); nn.Linear stores (out, in), so W = W2·W1"
        ): lambda: (w2 @ w1).T,
    }


def _bias_mistakes(w2: Tensor, b1: Tensor, b2: Tensor) -> WrongVersions:
    return {
        tr("bias is b1 + b2: b1 must pass through the second layer's weight, W2·b1 + b2"): (
            lambda: b1 + b2
        ),
        tr(
            "bias is b2 only: W2·b1 is missing (the first layer's bias goes through the "
            "second layer's weight)"
        ): lambda: b2,
        tr("bias is W2·b1 only: the second layer's own bias b2 is missing"): lambda: w2 @ b1,
    }
