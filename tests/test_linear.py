"""collapse_linear: a stack of linear layers is one linear layer."""

from __future__ import annotations

import pytest
import torch
from torch import nn

import minimind_lab as ml


@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("depth", [1, 2, 10])
def test_collapsed_layer_equals_the_stack(bias: bool, depth: int, generator) -> None:
    widths = [6, 11, 3, 9, 6, 4, 7, 5, 8, 6, 2][: depth + 1]
    stack = nn.Sequential(
        *(nn.Linear(a, b, bias=bias) for a, b in zip(widths, widths[1:], strict=False))
    ).double()
    x = torch.randn(20, widths[0], generator=generator, dtype=torch.float64)
    merged = ml.collapse_linear(stack)
    assert (merged.in_features, merged.out_features) == (widths[0], widths[-1])
    assert (merged.bias is not None) == bias
    torch.testing.assert_close(merged(x), stack(x))


def test_two_layers_fold_to_w2w1_and_w2b1_plus_b2() -> None:
    first, second = nn.Linear(4, 9).double(), nn.Linear(9, 3).double()
    merged = ml.collapse_linear([first, second])
    torch.testing.assert_close(merged.weight, second.weight @ first.weight)
    torch.testing.assert_close(merged.bias, second.weight @ first.bias + second.bias)


def test_mixed_biases_keep_a_bias() -> None:
    merged = ml.collapse_linear([nn.Linear(3, 5, bias=False), nn.Linear(5, 2, bias=True)])
    assert merged.bias is not None


def test_collapsed_layer_follows_dtype() -> None:
    merged = ml.collapse_linear(
        [nn.Linear(3, 5, dtype=torch.bfloat16), nn.Linear(5, 2, dtype=torch.bfloat16)]
    )
    assert merged.weight.dtype == torch.bfloat16


def test_an_activation_in_the_stack_is_refused() -> None:
    with pytest.raises(ValueError, match="layer 1 is ReLU"):
        ml.collapse_linear([nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2)])


def test_mismatched_widths_and_empty_stack_are_refused() -> None:
    with pytest.raises(ValueError, match="layer 0 gives 4 features but layer 1 expects 5"):
        ml.collapse_linear([nn.Linear(3, 4), nn.Linear(5, 2)])
    with pytest.raises(ValueError, match="at least one"):
        ml.collapse_linear([])


def test_a_linear_subclass_with_its_own_forward_is_refused() -> None:
    """Old behaviour: it was folded as if it computed x·Wᵀ + b, a wrong map returned silently."""

    class ScaledLinear(nn.Linear):
        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return 2.0 * super().forward(x)

    class NamedLinear(nn.Linear):  # a subclass that only adds a name still folds
        pass

    with pytest.raises(ValueError, match="layer 1 is ScaledLinear, an nn.Linear subclass"):
        ml.collapse_linear([nn.Linear(3, 4), ScaledLinear(4, 2)])
    merged = ml.collapse_linear([NamedLinear(3, 4), nn.Linear(4, 2)])
    assert merged.weight.shape == (2, 3)
    hooked = nn.Linear(3, 3)
    hooked.register_forward_hook(lambda module, args, out: out * 0)
    with pytest.raises(ValueError, match="layer 0 has forward hooks"):
        ml.collapse_linear([hooked])


def test_layers_of_different_dtypes_are_refused_naming_both() -> None:
    """Old behaviour: torch's "expected m1 and m2 to have the same dtype" from the product."""
    with pytest.raises(
        ValueError,
        match=r"layer 1's weight has dtype torch.float64 but layer 0's weight has torch.float32; "
        r"convert the layers to one dtype first",
    ):
        ml.collapse_linear([nn.Linear(3, 4), nn.Linear(4, 2).double()])
    mixed = nn.Linear(4, 2)
    mixed.bias.data = mixed.bias.data.half()
    with pytest.raises(ValueError, match="layer 1's bias has dtype torch.float16"):
        ml.collapse_linear([nn.Linear(3, 4), mixed])


def test_a_single_layer_instead_of_a_list_is_refused() -> None:
    """Old behaviour: TypeError: 'Linear' object is not iterable."""
    with pytest.raises(ValueError, match=r"got Linear, which is not one; pass a list"):
        ml.collapse_linear(nn.Linear(3, 4))  # type: ignore[arg-type]


def test_an_uninitialised_lazy_layer_is_named_as_such() -> None:
    """Old behaviour: it blamed forward hooks (the lazy layer's own initialising hook)."""
    with pytest.raises(ValueError, match="layer 0 is an uninitialised LazyLinear"):
        ml.collapse_linear([nn.LazyLinear(3)])
    lazy = nn.LazyLinear(3)
    lazy(torch.ones(1, 2))  # once it has seen a batch it is an nn.Linear
    assert ml.collapse_linear([lazy]).weight.shape == (3, 2)
