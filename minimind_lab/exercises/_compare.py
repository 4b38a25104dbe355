"""What every checker shares: the error a wrong answer raises and how two outputs are compared.

A checker runs the learner's piece and the reference on the same inputs. When they differ it
raises ``ExerciseError`` (an ``AssertionError``, so a notebook cell stops there) whose message says
what differs: the case, the shape or dtype, which entries, and, when the learner's output equals a
known wrong version (SiLU on the wrong branch, a dropped bias, ...), the likely mistake by name.
Inputs are drawn from the checker's own ``torch.Generator``, so running a checker never changes
what the notebook draws next.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import ParamSpec, TypeVar

import torch
from torch import Tensor

from ..i18n import tr, tr_noop

#: A known wrong version: the mistake in words → a function computing that wrong output.
WrongVersions = Mapping[str, Callable[[], Tensor]]
T = TypeVar("T")
P = ParamSpec("P")
#: What a checker prints when the learner's piece still raises ``NotImplementedError``.
NOT_WRITTEN_YET = tr_noop(
    "Not written yet: replace the line that raises NotImplementedError with your code, "
    "then run the cell again."
)


class ExerciseError(AssertionError):
    """The learner's piece differs from the reference; the message says where and, if known, why."""


def require_callable(name: str, value: object, expected: str) -> None:
    """Raise ``ValueError`` unless ``value`` is callable; ``expected`` describes what it should be.

    ``require_callable("fn", 3, "a function fn(q, k)")`` → ``fn must be a function fn(q, k),
    got 3 (type int)``.
    """
    if not callable(value):
        raise ValueError(f"{name} must be {expected}, got {value!r} (type {type(value).__name__})")


def run_learner(fn: Callable[..., T], case: str, *args: object) -> T:
    """``fn(*args)``; an exception inside it becomes an ``ExerciseError`` naming the case.

    ``NotImplementedError`` passes through unchanged: it is the work cell's unwritten body, which
    ``checker`` turns into one printed line.
    """
    try:
        return fn(*args)
    except (ExerciseError, NotImplementedError):
        raise
    except Exception as err:  # the learner's code may raise anything
        raise ExerciseError(
            tr(
                "{case}: your code raised {error}: {message}",
                case=case,
                error=type(err).__name__,
                message=err,
            )
        ) from err


@contextmanager
def fresh_rng(seed: int) -> Iterator[None]:
    """Torch's global RNG starts from ``seed`` inside; the caller's state comes back afterwards."""
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        yield


def _close(got: Tensor, expected: Tensor, atol: float, rtol: float) -> bool:
    if got.shape != expected.shape:
        return False
    both_nan = got.isnan() & expected.isnan()
    return bool(
        (torch.isclose(got, expected, atol=atol, rtol=rtol, equal_nan=False) | both_nan).all()
    )


def _matching_mistake(
    got: Tensor, expected: Tensor, wrong_versions: WrongVersions, atol: float, rtol: float
) -> str | None:
    """The first mistake whose output equals ``got`` and differs from ``expected`` here."""
    for mistake, compute in wrong_versions.items():
        try:
            wrong = compute().detach()
        except Exception:  # a wrong version that does not apply to this case
            continue
        if wrong.shape == expected.shape and _close(wrong.to(expected.dtype), expected, atol, rtol):
            continue  # this case cannot tell that mistake from the right answer
        if _close(got.detach(), wrong.to(got.dtype), atol, rtol):
            return mistake
    return None


#: What the checkers call the learner's result (``what=``), translated where a message names it.
WHAT_NAMES = (
    tr_noop("output"),
    tr_noop("attention weights"),
    tr_noop("bias"),
    tr_noop("derivative"),
    tr_noop("total"),
    tr_noop("weight"),
    tr_noop("weights"),
)


def compare_tensor(
    got: object,
    expected: Tensor,
    *,
    case: str,
    what: str = "output",
    wrong_versions: WrongVersions | None = None,
    atol: float = 1e-5,
    rtol: float = 1e-4,
) -> None:
    """Raise ``ExerciseError`` unless ``got`` equals ``expected`` (shape, dtype, values).

    ``got``: the learner's result; ``expected``: the reference's, any shape ``(*)``. Values are
    compared with ``torch.isclose(atol, rtol)``. On a mismatch each of ``wrong_versions`` is
    computed and, if the learner's output equals one, its key is the message's diagnosis.
    """
    wrong_versions = wrong_versions or {}
    if not isinstance(got, Tensor):
        raise ExerciseError(
            tr(
                "{case}: your {what} is a {kind}, expected a torch.Tensor of shape {shape}",
                case=case,
                what=tr(what),
                kind=type(got).__name__,
                shape=tuple(expected.shape),
            )
        )
    if got.shape == expected.shape and got.dtype == expected.dtype:
        if _close(got.detach(), expected.detach(), atol, rtol):
            return
    mistake = _matching_mistake(got, expected.detach(), wrong_versions, atol, rtol)
    if mistake is not None:
        raise ExerciseError(tr("{case}: {mistake}", case=case, mistake=mistake))
    if got.shape != expected.shape:
        raise ExerciseError(
            tr(
                "{case}: your {what} has shape {got}, expected {expected}",
                case=case,
                what=tr(what),
                got=tuple(got.shape),
                expected=tuple(expected.shape),
            )
        )
    if got.dtype != expected.dtype:
        if _close(got.detach().to(expected.dtype), expected.detach(), atol, rtol):
            raise ExerciseError(
                tr(
                    "{case}: right values, but your {what} is {got} where the input is "
                    "{expected}; the dtype should follow the input",
                    case=case,
                    what=tr(what),
                    got=got.dtype,
                    expected=expected.dtype,
                )
            )
        raise ExerciseError(
            tr(
                "{case}: your {what} is {got}, expected {expected} (the input's dtype)",
                case=case,
                what=tr(what),
                got=got.dtype,
                expected=expected.dtype,
            )
        )
    difference = describe_difference(got.detach(), expected.detach(), what)
    raise ExerciseError(tr("{case}: {mistake}", case=case, mistake=difference))


def describe_difference(got: Tensor, expected: Tensor, what: str = "output") -> str:
    """``"3 of 40 entries of your output differ; the largest at index (1, 2): got …"``.

    ``got`` and ``expected``: the same shape ``(*)``. NaN or infinity in ``got`` is named first.
    """
    if not got.isfinite().all() and expected.isfinite().all():
        where = tuple(int(i) for i in (~got.isfinite()).nonzero()[0])
        return tr(
            "your {what} holds NaN or infinity (first at index {where}) where the reference is "
            "finite; an exp of a large number overflows (softmax subtracts the row's maximum)",
            what=tr(what),
            where=where,
        )
    gap = (got.double() - expected.double()).abs().nan_to_num(nan=float("inf"))
    wrong = ~torch.isclose(got.double(), expected.double(), atol=1e-5, rtol=1e-4)
    index = tuple(int(i) for i in torch.unravel_index(gap.argmax(), gap.shape))
    shown = index if index else "()"
    return tr(
        "{wrong} of {total} entries of your {what} differ from the reference; the largest gap at "
        "index {index}: got {got:.5g}, expected {expected:.5g}",
        wrong=int(wrong.sum()),
        total=wrong.numel(),
        what=tr(what),
        index=shown,
        got=got[index].item(),
        expected=expected[index].item(),
    )


def success(message: str) -> None:
    """Print the one line a passing checker prints."""
    print(tr("Correct: {message}", message=message))


def checker(check: Callable[P, None]) -> Callable[P, None]:
    """Make ``check`` print "Not written yet" where the piece raises ``NotImplementedError``.

    A work cell holds the piece's signature, a body that raises ``NotImplementedError`` and the
    checker call, so it runs as given (and in CI) and says what is left to do instead of showing
    a traceback. Any other outcome (a pass, an ``ExerciseError``, a ``ValueError`` for a bad
    argument) is unchanged.
    """

    @functools.wraps(check)
    def checked(*args: P.args, **kwargs: P.kwargs) -> None:
        try:
            check(*args, **kwargs)
        except NotImplementedError:
            print(tr(NOT_WRITTEN_YET))

    return checked
