"""Lesson 06's build-it piece: a MiniMind width rule, ``hidden_size`` → FFN width."""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable

from ..i18n import tr
from ..minimind import MiniMindConfig
from ..sizing import MINIMIND2_RULE, MINIMIND3_RULE, WidthRule, intermediate_size
from ._compare import ExerciseError, Forbidden, checker, require_function, run_learner, success

#: ``fn(hidden_size)`` → the FFN width, an ``int``.
WidthFn = Callable[[int], int]

#: The version names the checker knows, with the rule each stands for.
VERSION_RULES = {"minimind2": MINIMIND2_RULE, "minimind3": MINIMIND3_RULE}

_HIDDEN_SIZES = range(1, 2049)


def _up(value: float, multiple: int = 64) -> int:
    return multiple * math.ceil(value / multiple)


def _mistakes(version: str) -> dict[str, Callable[[int], float]]:
    ratio, name = (8 / 3, "8h/3") if version == "minimind2" else (math.pi, "h·π")
    mistakes: dict[str, Callable[[int], float]] = {
        tr(
            "width truncated where it should round up: this rounds {name} down to a multiple of 64",
            name=name,
        ): lambda h: 64 * math.floor(ratio * h / 64),
        tr(
            "width rounded to the nearest multiple of 64; the rule rounds {name} up", name=name
        ): lambda h: 64 * round(ratio * h / 64),
        tr(
            "no rounding to a multiple of 64: this is {name} cut to an integer", name=name
        ): lambda h: int(ratio * h),
        tr("{name} rounded up to an integer, not to a multiple of 64", name=name): lambda h: (
            math.ceil(ratio * h)
        ),
        tr("rounded up to a multiple of 256 (LLaMA-1's multiple_of), not 64"): lambda h: _up(
            int(ratio * h), 256
        ),
        tr("this is 4h, the original Transformer's width, not the rule's"): lambda h: 4 * h,
    }
    if version == "minimind2":
        mistakes[tr("this is minimind-3's π rule; MiniMind2 uses 8/3")] = lambda h: _up(math.pi * h)
    else:
        mistakes[tr("this is MiniMind2's 8/3 rule; minimind-3 uses π")] = lambda h: _up(
            int(8 * h / 3)
        )
        mistakes[
            tr(
                "h·π is cut to an int before rounding up; minimind-3 rounds the real product up, "
                "ceil(h·π / 64)·64 (they differ when int(h·π) is a multiple of 64)"
            )
        ] = lambda h: _up(int(math.pi * h))
    return mistakes


@checker
def check_width_rule(fn: WidthFn, version: str = "minimind2") -> None:
    """Check ``fn(hidden_size)`` against ``version``'s width rule; raise ``ExerciseError`` if off.

    ``version``: ``"minimind2"`` (``int(8h/3)`` rounded up to a multiple of 64) or
    ``"minimind3"`` (``ceil(h·π/64)·64``). Every ``hidden_size`` from 1 to 2048 is tried; the
    result must be an ``int``. ``ml.intermediate_size`` (and the ``WidthRule`` it applies) is the
    package's own rule, so calling it is refused. Prints one line when all agree.
    """
    require_function("fn", fn, tr("a function fn(hidden_size) returning the FFN width"))
    if not isinstance(version, str) or version not in VERSION_RULES:
        raise ValueError(
            tr(
                "version must be one of {names}, got {version!r}",
                names=", ".join(VERSION_RULES),
                version=version,
            )
        )
    rule = VERSION_RULES[version]
    forbidden: Forbidden = dict.fromkeys(
        (intermediate_size, WidthRule.unrounded, MiniMindConfig.derived_intermediate_size),
        tr(
            "your function calls ml.intermediate_size (or the WidthRule behind it), the "
            "package's own rule; write the rule yourself with int(...), math.ceil and 64"
        ),
    )
    answers: dict[int, int] = {}
    for h in _HIDDEN_SIZES:
        got = run_learner(fn, f"hidden_size={h}", h, forbidden=forbidden)
        if not isinstance(got, numbers.Integral) or isinstance(got, bool):
            raise ExerciseError(
                tr(
                    "hidden_size={h}: your function returned {got!r} ({kind}); a width counts "
                    "units, so return an int (math.ceil and int(...) give one)",
                    h=h,
                    got=got,
                    kind=type(got).__name__,
                )
            )
        answers[h] = int(got)
    wrong = [h for h, got in answers.items() if got != intermediate_size(h, rule)]
    if not wrong:
        success(
            tr(
                "your {version} width rule agrees with the reference for every hidden_size from "
                "1 to {last}.",
                version=version,
                last=_HIDDEN_SIZES[-1],
            )
        )
        return
    first = wrong[0]
    diagnosis = next(
        (
            mistake
            for mistake, rule_fn in _mistakes(version).items()
            if all(int(rule_fn(h)) == got for h, got in answers.items())
        ),
        None,
    )
    message = tr(
        "{n_wrong} of {n} hidden sizes differ; for hidden_size={first} you return {got}, the "
        "{version} rule gives {expected}",
        n_wrong=len(wrong),
        n=len(_HIDDEN_SIZES),
        first=first,
        got=answers[first],
        version=version,
        expected=intermediate_size(first, rule),
    )
    if diagnosis:
        message = tr("{message}; {diagnosis}", message=message, diagnosis=diagnosis)
    raise ExerciseError(message)
