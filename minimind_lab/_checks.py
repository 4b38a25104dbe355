"""Argument checks shared by the modules, so every error message has one shape.

Each check names the argument, the value it got and what it expected, and adds the value's type
when the type is the problem (``'False'`` is a ``str``, not a ``bool``). The checks a forward
pass calls look at arguments, shapes and dtypes only, never a tensor's values, so they cost a few
attribute look-ups and no device sync; ``check_training_data``, which reads the data once to find
NaN, runs once per training run.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable

import torch
from torch import Tensor


def _got(value: object, expected_type: str, type_ok: bool) -> str:
    """``got 'x'``, with `` (type str, expected bool)`` appended when the type is wrong."""
    if type_ok or value is None:
        return f"got {value!r}"
    return f"got {value!r} (type {type(value).__name__}, expected {expected_type})"


def _is_integer(value: object) -> bool:
    # numbers.Integral covers int and NumPy's integer scalars (np.int64(512)); bool is an int
    # subclass but never a size.
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def _as_int(value: object) -> int | None:
    """``value`` as an ``int`` if it is an integer (not a bool), else ``None``."""
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return int(value)
    return None


def check_positive_int(name: str, value: object) -> int:
    """Return ``value`` as an ``int`` if it is an integer ≥ 1; otherwise raise ``ValueError``.

    Accepted: ``int`` and integral NumPy scalars (``np.int64(512)``). Refused: ``bool``,
    ``float`` (even ``8.0``), ``Fraction``, strings, and anything ≤ 0.
    """
    number = _as_int(value)
    if number is None or number <= 0:
        raise ValueError(
            f"{name} must be a positive integer, {_got(value, 'int', number is not None)}"
        )
    return number


def check_nonnegative_int(name: str, value: object) -> int:
    """Return ``value`` as an ``int`` if it is an integer ≥ 0 (not a bool); else ``ValueError``."""
    number = _as_int(value)
    if number is None or number < 0:
        raise ValueError(
            f"{name} must be a non-negative integer, {_got(value, 'int', number is not None)}"
        )
    return number


def check_bool(name: str, value: object) -> bool:
    """Return ``value`` if it is ``True`` or ``False``; a string such as ``'False'`` is refused.

    A flag given ``'False'`` would otherwise be truthy and silently switch the feature on.
    """
    if not isinstance(value, bool):
        raise ValueError(f"{name} must be True or False, {_got(value, 'bool', False)}")
    return value


def _interval(low: float | None, high: float | None, low_open: bool, high_open: bool) -> str:
    if high is None:
        if low is None:
            return "a finite number"
        if low == 0 and low_open:
            return "a positive finite number"
        return f"a finite number {'>' if low_open else '≥'} {low}"
    left = "(" if low_open else "["
    right = ")" if high_open else "]"
    return f"a number in {left}{low}, {high}{right}"


def check_real(
    name: str,
    value: object,
    *,
    low: float | None = None,
    high: float | None = None,
    low_open: bool = False,
    high_open: bool = False,
) -> float:
    """Return ``value`` if it is a finite real number within the bounds; else ``ValueError``.

    ``low``/``high``: the bounds (``None``: none); ``low_open``/``high_open``: exclude them.
    Accepted: ``int``, ``float`` and NumPy's real scalars (returned as ``float``). Refused:
    ``bool`` (``lr=True`` is not a learning rate of 1), strings, ``None``, NaN and infinities.
    """
    type_ok = isinstance(value, numbers.Real) and not isinstance(value, bool)
    number = float(value) if isinstance(value, numbers.Real) else math.nan
    ok = type_ok and math.isfinite(number)
    if ok and low is not None:
        ok = number > low if low_open else number >= low
    if ok and high is not None:
        ok = number < high if high_open else number <= high
    if not ok:
        expected = _interval(low, high, low_open, high_open)
        raise ValueError(f"{name} must be {expected}, {_got(value, 'int or float', type_ok)}")
    if type(value) is int:
        return value  # an int stays an int (lr=1 prints as 1); NumPy's scalars become float
    return number


def check_probability(name: str, value: object) -> float:
    """A dropout probability: a number in ``[0, 1)``."""
    return check_real(name, value, low=0, high=1, high_open=True)


_TENSOR_METHOD = {
    torch.float32: "float()",
    torch.float64: "double()",
    torch.float16: "half()",
    torch.bfloat16: "bfloat16()",
}


def _convert(what: str, dtype: torch.dtype) -> str:
    method = _TENSOR_METHOD.get(dtype)
    return f"{what}.{method}" if method else f"{what}.to({dtype})"


def _autocast_on(device_type: str) -> bool:
    try:
        return torch.is_autocast_enabled(device_type)
    except TypeError:  # torch < 2.4: no device argument
        if device_type == "cpu":
            return torch.is_autocast_cpu_enabled()
        return torch.is_autocast_enabled()


def check_same_dtype(x: Tensor, weight: Tensor, module: str) -> None:
    """Raise ``ValueError`` naming both dtypes and the fix unless ``x`` has ``weight``'s dtype.

    The most common slip: ``torch.from_numpy`` gives float64, the module is float32, and torch
    says only "expected m1 and m2 to have the same dtype". Under ``torch.autocast`` mixed dtypes
    are what is asked for, and nothing is checked.
    """
    if x.dtype == weight.dtype or _autocast_on(x.device.type):
        return
    raise ValueError(
        f"input has dtype {x.dtype} but {module}'s weights are {weight.dtype}; convert the "
        f"input with {_convert('x', weight.dtype)} or the module with "
        f"{_convert('module', x.dtype)}"
    )


def check_features(
    x: object,
    expected: int,
    what: str = "hidden_size",
    *,
    weight: Tensor | None = None,
    module: str = "the module",
) -> None:
    """Raise ``ValueError`` unless ``x`` is a float tensor of ``expected`` features.

    Token vectors are real numbers: an integer tensor (token ids, say) would otherwise fail deep
    inside a matrix product with a message about dtypes, not about the input. An empty batch or
    sequence (a shape with a 0 before the last dimension) passes, as in PyTorch's own modules:
    code that routes no tokens to a module gets an empty output back. With ``weight``, the
    input's dtype must also be the weight's (``check_same_dtype``; ``module`` names the owner in
    the message).
    """
    if not isinstance(x, Tensor):
        hint = ""
        if type(x).__module__ == "numpy" or isinstance(x, (list, tuple)):
            hint = "; convert it with torch.as_tensor(x, dtype=torch.float32)"
        raise ValueError(
            f"input must be a torch.Tensor of shape (*, {what}={expected}), got "
            f"{type(x).__name__}{hint}"
        )
    if not x.is_floating_point():
        raise ValueError(
            f"input has dtype {x.dtype}; expected floating-point vectors of size {what}={expected} "
            "(token ids go through an embedding first)"
        )
    if x.dim() == 0 or x.shape[-1] != expected:
        raise ValueError(
            f"input has shape {tuple(x.shape)}; its last dimension must equal {what}={expected}"
        )
    if weight is not None:
        check_same_dtype(x, weight, module)


def check_training_data(model: object, inputs: object, targets: object) -> None:
    """Raise ``ValueError`` unless ``model`` is an ``nn.Module`` and ``inputs``/``targets`` are
    tensors with the same number of rows (at least one) and no NaN or infinity.

    Reads every value once (``torch.isfinite``), so call it once per training run, never in a
    forward pass: one NaN in the data makes every loss and every weight NaN, with no word.
    """
    from torch import nn

    if not isinstance(model, nn.Module):
        raise ValueError(
            f"model must be an nn.Module (a network with parameters to train), got "
            f"{type(model).__name__}"
        )
    rows = {"inputs": inputs, "targets": targets}
    tensors: dict[str, Tensor] = {}
    for name, data in rows.items():
        if not isinstance(data, Tensor):
            raise ValueError(
                f"{name} must be a torch.Tensor with one row per example, got "
                f"{type(data).__name__}; convert it with torch.as_tensor(...)"
            )
        if data.dim() == 0 or data.shape[0] == 0:
            raise ValueError(
                f"{name} has shape {tuple(data.shape)}; expected one row per example, shape "
                "(N, ...) with N ≥ 1"
            )
        tensors[name] = data
    if tensors["inputs"].shape[0] != tensors["targets"].shape[0]:
        raise ValueError(
            f"inputs have {tensors['inputs'].shape[0]} rows but targets "
            f"{tensors['targets'].shape[0]}; expected one target per input"
        )
    for name, tensor in tensors.items():
        if tensor.is_floating_point() and not bool(torch.isfinite(tensor).all()):
            bad = int((~torch.isfinite(tensor)).sum())
            raise ValueError(
                f"{name} hold {bad} NaN or infinite value(s); expected finite numbers (one NaN "
                "makes every loss and every weight NaN)"
            )


def check_parameters(parameters: object, owner: str) -> list[Tensor]:
    """The tensors of ``parameters`` (such as ``model.parameters()``) as a list.

    Refused, as ``torch.optim`` refuses them: a single tensor (iterating it would give its rows,
    which are not leaves, and a step would change nothing), an empty iterable, and entries that
    are not tensors (parameter-group dicts included). Also refused: a list in which no tensor
    requires grad, since nothing would ever train.
    """
    if isinstance(parameters, Tensor):
        raise ValueError(
            f"{owner} expects an iterable of tensors such as model.parameters(), got a single "
            f"Tensor of shape {tuple(parameters.shape)}; wrap it in a list: [weight]"
        )
    if not isinstance(parameters, Iterable) or isinstance(parameters, (str, bytes)):
        raise ValueError(
            f"{owner} expects an iterable of tensors such as model.parameters(), got "
            f"{type(parameters).__name__}"
        )
    tensors = list(parameters)
    if not tensors:
        raise ValueError(f"{owner} got an empty parameter list; expected at least one tensor")
    for i, p in enumerate(tensors):
        if not isinstance(p, Tensor):
            raise ValueError(
                f"{owner}'s parameter {i} is {type(p).__name__}; expected tensors "
                "(parameter groups are not supported)"
            )
        if not p.is_leaf:
            raise ValueError(
                f"{owner}'s parameter {i} is not a leaf tensor (it was computed from others); "
                "expected the model's own parameters"
            )
    if not any(p.requires_grad for p in tensors):
        raise ValueError(
            f"{owner} got {len(tensors)} tensor(s), none with requires_grad=True; expected "
            "trainable parameters (nothing would change)"
        )
    return tensors
