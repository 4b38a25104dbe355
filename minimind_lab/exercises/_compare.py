"""What every checker shares: the error a wrong answer raises, how the learner's piece is run and
how two outputs are compared.

A checker runs the learner's piece and the reference on the same inputs. When they differ it
raises ``ExerciseError`` (an ``AssertionError``, so a notebook cell stops there) whose message says
what differs: the case, the shape or dtype, which entries, and, when the learner's output equals a
known wrong version (SiLU on the wrong branch, a dropped bias, ...), the likely mistake by name.
``run_learner`` also refuses a piece that changes its inputs in place or calls what the exercise
asks the learner to write (the package's own version of the piece, the module's ``forward``,
autograd). Inputs are drawn from the checker's own ``torch.Generator``, so running a checker never
changes what the notebook draws next.
"""

from __future__ import annotations

import functools
import inspect
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from types import CodeType, FrameType
from typing import ParamSpec, TypeVar

import torch
from torch import Tensor, nn

from ..i18n import tr, tr_noop

#: A known wrong version: the mistake in words → a function computing that wrong output.
WrongVersions = Mapping[str, Callable[[], Tensor]]
#: What the learner's code must not call: a function (or method) → what the checker says if it
#: does (already translated).
Forbidden = Mapping[Callable[..., object], str]
T = TypeVar("T")
P = ParamSpec("P")
#: What a checker prints when the learner's piece still raises ``NotImplementedError``.
NOT_WRITTEN_YET = tr_noop(
    "Not written yet: replace the line that raises NotImplementedError with your code, "
    "then run the cell again."
)
#: autograd's entry points, for an exercise that asks for a derivative by hand.
AUTOGRAD_FUNCTIONS: tuple[Callable[..., object], ...] = (
    torch.autograd.grad,
    torch.autograd.backward,
    Tensor.backward,
    torch.autograd.functional.jacobian,
    torch.autograd.functional.vjp,
    torch.func.grad,
    torch.func.grad_and_value,
    torch.func.vjp,
    torch.func.jacrev,
    torch.func.jacfwd,
)


class ExerciseError(AssertionError):
    """The learner's piece differs from the reference; the message says where and, if known, why."""


def require_callable(name: str, value: object, expected: str) -> None:
    """Raise ``ValueError`` unless ``value`` is callable; ``expected`` describes what it should be.

    ``require_callable("fn", 3, "a function fn(q, k)")`` → ``fn must be a function fn(q, k),
    got 3 (type int)``.
    """
    if not callable(value):
        raise ValueError(
            tr(
                "{name} must be {expected}, got {value!r} (type {kind})",
                name=name,
                expected=expected,
                value=value,
                kind=type(value).__name__,
            )
        )


def require_function(name: str, value: object, expected: str, *, classes: bool = False) -> None:
    """``require_callable``, and refuse a module where a function is asked.

    An ``nn.Module`` instance is callable, so passing one (``check_x(ffn)`` or
    ``check_feedforward(MyFeedForward(config))``) would fail deep inside the checker; this says
    what to pass instead. ``classes=True``: a module class is what is asked (a factory); else a
    module class is refused too.
    """
    require_callable(name, value, expected)
    if isinstance(value, nn.Module):
        kind = type(value).__name__
        if classes:
            message = tr(
                "{name} must be {expected}; you passed a module, an instance of {kind}: pass the "
                "class itself ({kind}), not {kind}(config)",
                name=name,
                expected=expected,
                kind=kind,
            )
        else:
            message = tr(
                "{name} must be {expected}; you passed a module, an instance of {kind}: pass "
                "your function",
                name=name,
                expected=expected,
                kind=kind,
            )
        raise ValueError(message)
    if not classes and isinstance(value, type) and issubclass(value, nn.Module):
        raise ValueError(
            tr(
                "{name} must be {expected}; you passed the module class {kind}: pass your function",
                name=name,
                expected=expected,
                kind=value.__name__,
            )
        )


def _code_of(fn: Callable[..., object]) -> CodeType | None:
    function = getattr(fn, "__func__", fn)
    code = getattr(function, "__code__", None)
    return code if isinstance(code, CodeType) else None


class _ForbiddenCall(BaseException):
    """Raised where the learner's code enters a forbidden function; a ``BaseException``, so the
    learner's own ``except Exception`` does not swallow it."""


@contextmanager
def _watching(forbidden: Forbidden) -> Iterator[list[str]]:
    """Stop the learner's code where it enters a forbidden function, and record that function's
    message in the list it yields.

    A profile function (``sys.setprofile``) sees every Python call, however the function was
    reached: ``ffn(x)``, ``ffn.forward(x)``, ``type(ffn).forward(ffn, x)``, a name imported under
    another name. It raises ``_ForbiddenCall`` at the call, so the forbidden function never
    runs. The caller's profile function comes back afterwards.
    """
    codes = {code: message for fn, message in forbidden.items() if (code := _code_of(fn))}
    hits: list[str] = []
    if not codes:
        yield hits
        return

    def profile(frame: FrameType, event: str, arg: object) -> None:
        if event == "call" and not hits and frame.f_code in codes:
            hits.append(codes[frame.f_code])
            raise _ForbiddenCall

    previous = sys.getprofile()
    sys.setprofile(profile)
    try:
        yield hits
    finally:
        sys.setprofile(previous)


def _snapshot(value: object) -> object:
    if isinstance(value, Tensor):
        return value.detach().clone()
    if isinstance(value, nn.Module):
        return [t.detach().clone() for t in value.state_dict().values()]
    return None


def _same(a: Tensor, b: Tensor) -> bool:
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    if a.is_floating_point() or a.is_complex():
        return bool(((a == b) | (a.isnan() & b.isnan())).all())
    return torch.equal(a, b)


def _changed(value: object, saved: object) -> bool:
    if isinstance(value, Tensor) and isinstance(saved, Tensor):
        return not _same(value.detach(), saved)
    if isinstance(value, nn.Module) and isinstance(saved, list):
        now = [t.detach() for t in value.state_dict().values()]
        return len(now) != len(saved) or not all(map(_same, now, saved))
    return False


def _is_autograd_error(err: Exception) -> bool:
    text = str(err)
    return isinstance(err, RuntimeError) and (
        "does not require grad" in text or "does not have a grad_fn" in text
    )


def run_learner(
    fn: Callable[..., T],
    case: str,
    *args: object,
    names: Sequence[str] = (),
    forbidden: Forbidden | None = None,
    without_autograd: str | None = None,
) -> T:
    """``fn(*args)``, refused with an ``ExerciseError`` naming the case where it goes wrong.

    Refused: an exception inside ``fn``; a call, anywhere inside it, of one of ``forbidden``
    (its message says why); a tensor or module among ``args`` changed in place (``names`` name
    the arguments in that message). ``without_autograd``: ``fn`` runs under ``torch.no_grad()``
    and autograd's entry points are forbidden with this message. ``NotImplementedError`` passes
    through unchanged: it is the work cell's unwritten body, which ``checker`` turns into one
    printed line.
    """
    rules = dict(forbidden or {})
    grad_mode: AbstractContextManager[object] = nullcontext()
    if without_autograd is not None:
        rules.update(dict.fromkeys(AUTOGRAD_FUNCTIONS, without_autograd))
        grad_mode = torch.no_grad()
    saved = [_snapshot(arg) for arg in args]
    with _watching(rules) as hits:
        try:
            with grad_mode:
                result = fn(*args)
        except _ForbiddenCall:
            pass  # reported below, from ``hits``
        except (ExerciseError, NotImplementedError):
            if hits:  # the forbidden call came first
                raise ExerciseError(tr("{case}: {mistake}", case=case, mistake=hits[0])) from None
            raise
        except Exception as err:  # the learner's code may raise anything
            if hits:
                raise ExerciseError(tr("{case}: {mistake}", case=case, mistake=hits[0])) from err
            if without_autograd is not None and _is_autograd_error(err):
                raise ExerciseError(
                    tr("{case}: {mistake}", case=case, mistake=without_autograd)
                ) from err
            raise ExerciseError(
                tr(
                    "{case}: your code raised {error}: {message}",
                    case=case,
                    error=type(err).__name__,
                    message=err,
                )
            ) from err
    if hits:
        raise ExerciseError(tr("{case}: {mistake}", case=case, mistake=hits[0]))
    for i, (arg, before) in enumerate(zip(args, saved, strict=True)):
        if not _changed(arg, before):
            continue
        name = names[i] if i < len(names) else tr("argument {i}", i=i + 1)
        if isinstance(arg, nn.Module):
            raise ExerciseError(
                tr(
                    "{case}: your code changed the weights of {name} in place; read them, "
                    "never write into them",
                    case=case,
                    name=name,
                )
            )
        raise ExerciseError(
            tr(
                "{case}: your code changed its input {name} in place (an in-place operation "
                "such as {name} /= ..., {name}.clamp_(...) or {name}[...] = ...); the caller's "
                "tensor must stay as it was, so compute a new one ({name} = {name} / ...)",
                case=case,
                name=name,
            )
        )
    return result


def takes_positional(fn: Callable[..., object], count: int) -> bool | None:
    """Whether ``fn`` accepts exactly ``count`` positional arguments; ``None`` if unknown."""
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError):
        return None
    try:
        signature.bind(*([None] * count))
    except TypeError:
        return False
    return True


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


def _comparable(got: Tensor, other: Tensor) -> tuple[Tensor, Tensor]:
    """Both in one floating dtype: a bool or integer answer is read as its values (0/1, ...)."""
    if got.is_floating_point():
        dtype = torch.promote_types(got.dtype, other.dtype)
    else:
        dtype = other.dtype if other.is_floating_point() else torch.float64
    return got.to(dtype), other.to(dtype)


def _gap(got: Tensor, wrong: Tensor) -> float:
    return float((got.double() - wrong.double()).abs().nan_to_num(nan=0.0).max())


def _matching_mistake(
    got: Tensor, expected: Tensor, wrong_versions: WrongVersions, atol: float, rtol: float
) -> str | None:
    """The mistake whose output is closest to ``got`` among those equal to it (within the
    tolerance) and different from ``expected`` here. Known mistakes and ``got`` are compared in
    one floating dtype, so an answer of another dtype (a bool ``x > 0``) is read by its values.

    Where ``got`` holds no finite number at all (a NaN total), every mistake that gives NaN
    matches it; one is named only if it is the only one."""
    found: list[tuple[float, int, str]] = []
    for i, (mistake, compute) in enumerate(wrong_versions.items()):
        try:
            wrong = compute().detach()
        except Exception:  # a wrong version that does not apply to this case
            continue
        if wrong.shape != got.shape:
            continue
        if _close(*_comparable(wrong, expected), atol, rtol):
            continue  # this case cannot tell that mistake from the right answer
        mine, theirs = _comparable(got.detach(), wrong)
        if _close(mine, theirs, atol, rtol):
            found.append((_gap(mine, theirs), i, mistake))
    if not found:
        return None
    if got.numel() > 0 and not bool(_comparable(got.detach(), expected)[0].isfinite().any()):
        return found[0][2] if len(found) == 1 else None
    return min(found)[2]


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
    nan_cause: str = "",
    atol: float = 1e-5,
    rtol: float = 1e-4,
) -> None:
    """Raise ``ExerciseError`` unless ``got`` equals ``expected`` (shape, dtype, values).

    ``got``: the learner's result; ``expected``: the reference's, any shape ``(*)``. Values are
    compared with ``torch.isclose(atol, rtol)``. On a mismatch each of ``wrong_versions`` is
    computed and, if the learner's output equals one, its key is the message's diagnosis.
    ``nan_cause``: the likely cause of a NaN or infinity in this piece (translated), said when
    ``got`` holds one where the reference is finite and no known mistake matches.
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
        if _close(*_comparable(got.detach(), expected.detach()), atol, rtol):
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
    difference = describe_difference(got.detach(), expected.detach(), what, nan_cause)
    raise ExerciseError(tr("{case}: {mistake}", case=case, mistake=difference))


def describe_difference(
    got: Tensor, expected: Tensor, what: str = "output", nan_cause: str = ""
) -> str:
    """``"3 of 40 entries of your output differ; the largest at index (1, 2): got …"``.

    ``got`` and ``expected``: the same shape ``(*)``. NaN or infinity in ``got`` is named first,
    with ``nan_cause`` (translated) where the checker knows what causes one in its piece.
    """
    if not got.isfinite().all() and expected.isfinite().all():
        where = tuple(int(i) for i in (~got.isfinite()).nonzero()[0])
        if nan_cause:
            return tr(
                "your {what} holds NaN or infinity (first at index {where}) where the reference "
                "is finite; {cause}",
                what=tr(what),
                where=where,
                cause=nan_cause,
            )
        return tr(
            "your {what} holds NaN or infinity (first at index {where}) where the reference is "
            "finite",
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
