"""The activation registry: names, derivatives against autograd, formulas, errors."""

from __future__ import annotations

import re

import pytest
import torch

import minimind_lab as ml

REQUIRED = {"relu", "gelu", "gelu_pytorch_tanh", "silu", "swish", "sigmoid", "tanh", "identity"}


def test_registry_has_the_required_names() -> None:
    assert REQUIRED <= set(ml.ACTIVATION_NAMES)


@pytest.mark.parametrize("name", ml.ACTIVATION_NAMES)
def test_autograd_derivative_equals_analytic_on_a_dense_grid(name: str) -> None:
    # Skip x = 0 exactly: ReLU's derivative is a convention there.
    x = torch.linspace(-8, 8, 4001, dtype=torch.float64)
    x = x[x.abs() > 1e-9].requires_grad_(True)
    y = ml.get_activation(name)(x)
    (grad,) = torch.autograd.grad(y.sum(), x)
    torch.testing.assert_close(
        grad, ml.activation_derivative(name, x.detach()), atol=1e-9, rtol=1e-9
    )


@pytest.mark.parametrize(
    ("name", "reference"),
    [
        ("relu", torch.relu),
        ("gelu", lambda x: 0.5 * x * (1 + torch.erf(x / 2**0.5))),
        ("silu", lambda x: x * torch.sigmoid(x)),
        ("swish", lambda x: x * torch.sigmoid(x)),
        ("sigmoid", torch.sigmoid),
        ("tanh", torch.tanh),
        ("identity", lambda x: x),
    ],
)
def test_activation_values_match_their_definition(name, reference) -> None:
    x = torch.linspace(-6, 6, 241, dtype=torch.float64)
    torch.testing.assert_close(ml.get_activation(name)(x), reference(x))


def test_gelu_tanh_form_is_close_to_exact_gelu() -> None:
    x = torch.linspace(-6, 6, 10001, dtype=torch.float64)
    gap = (ml.get_activation("gelu")(x) - ml.get_activation("gelu_pytorch_tanh")(x)).abs().max()
    assert 0 < gap < 5e-4


@pytest.mark.parametrize("name", ml.ACTIVATION_NAMES)
def test_each_entry_has_a_formula_and_a_fresh_module(name: str) -> None:
    assert ml.activation_formula(name).strip()
    assert ml.get_activation(name) is not ml.get_activation(name)


@pytest.mark.parametrize("name", ml.ACTIVATION_NAMES)
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.bfloat16])
def test_derivative_follows_input_dtype(name: str, dtype: torch.dtype) -> None:
    x = torch.linspace(-3, 3, 7, dtype=dtype)
    assert ml.activation_derivative(name, x).dtype == dtype
    assert ml.get_activation(name)(x).dtype == dtype


@pytest.mark.parametrize("bad", ["Silu", "swiglu", "", None])
def test_unknown_activation_names_the_valid_ones(bad) -> None:
    with pytest.raises(ValueError) as info:
        ml.get_activation(bad)
    message = str(info.value)
    assert repr(bad) in message
    assert all(name in message for name in ml.ACTIVATION_NAMES)
    with pytest.raises(ValueError):
        ml.activation_derivative(bad, torch.zeros(1))


@pytest.mark.parametrize("name", ml.ACTIVATION_NAMES)
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_the_derivative_is_finite_and_right_at_huge_inputs(name: str, dtype: torch.dtype) -> None:
    """Old behaviour: the tanh GELU's slope was NaN at ±1e20 (x³ overflowed into inf · 0)."""
    x = torch.tensor([-1e20, -1e4, 1e4, 1e20], dtype=dtype)
    slope = ml.activation_derivative(name, x)
    assert torch.isfinite(slope).all(), slope
    far = ml.activation_derivative(name, torch.tensor([-30.0, 30.0], dtype=dtype))
    assert torch.allclose(slope[[0, -1]], far, atol=1e-10), (slope, far)


@pytest.mark.parametrize(
    ("x", "words"), [(0.5, "got 0.5 (type float)"), (torch.tensor([1, 2]), "got dtype torch.int64")]
)
def test_the_derivative_refuses_what_is_not_a_float_tensor(x: object, words: str) -> None:
    """Old behaviour: AttributeError: 'bool' object has no attribute 'to'."""
    with pytest.raises(
        ValueError, match=re.escape(f"x must be a floating-point torch.Tensor, {words}")
    ):
        ml.activation_derivative("relu", x)  # type: ignore[arg-type]
