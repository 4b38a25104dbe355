"""Lesson 08's build-it piece: a forward hook that patches one position with a clean output."""

from __future__ import annotations

from collections.abc import Callable

import torch
from torch import Tensor, nn

from ..i18n import tr
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
    takes_positional,
)

#: ``make_hook(clean_output, position)`` → ``hook(module, args, output)``; ``clean_output``
#: and ``output`` are ``(B, T, h)``.
HookFactory = Callable[[Tensor, int], Callable[[nn.Module, tuple, Tensor], Tensor | None]]


def patched_output(output: Tensor, clean_output: Tensor, position: int) -> Tensor:
    """The reference: ``output`` ``(B, T, h)`` with position ``position`` taken from ``clean``.

    A new tensor; neither argument is changed.
    """
    patched = output.clone()
    patched[:, position] = clean_output[:, position]
    return patched


def _cases() -> dict[str, tuple[int, int, int]]:
    return {
        tr("batch 3, 5 positions, patch position 2"): (3, 5, 2),
        tr("batch 3, 4 positions, patch position 0 (the first)"): (3, 4, 0),
        tr("batch 2, 6 positions, patch position 5 (the last)"): (2, 6, 5),
        tr("batch 1, 1 position, patch position 0"): (1, 1, 0),
    }


@checker
def check_patching_hook(make_hook: HookFactory) -> None:
    """Check a patching hook factory against ``patched_output``; ``ExerciseError`` if off.

    ``make_hook(clean_output, position)`` returns a forward hook for
    ``module.register_forward_hook``: called as ``hook(module, args, output)`` with ``output``
    of shape ``(B, T, h)``, it must make the module's output equal ``output`` except at
    sequence position ``position``, which comes from ``clean_output`` (cached from the clean run),
    and it must leave ``clean_output`` unchanged so the cache serves the next patch (writing into
    ``output`` is fine). Pass the factory itself, ``check_patching_hook(make_hook)``. Cases cover
    the first, a middle and the last position. Prints one line when every case matches.
    """
    require_function("make_hook", make_hook, tr("a function make_hook(clean_output, position)"))
    if takes_positional(make_hook, 2) is False and takes_positional(make_hook, 3):
        raise ValueError(
            tr(
                "make_hook must be the factory make_hook(clean_output, position) that returns a "
                "hook; this function takes three arguments, like the hook itself (module, args, "
                "output): pass make_hook, not make_hook(clean_output, position)"
            )
        )
    forbidden: Forbidden = {
        patched_output: tr(
            "your hook calls the checker's own reference, patched_output; write the patch yourself"
        )
    }
    g = torch.Generator().manual_seed(808)
    for case, (b, t, position) in _cases().items():
        with fresh_rng(808):
            module = nn.Linear(8, 8)
        clean_x = torch.randn(b, t, 8, generator=g)
        corrupt_x = torch.randn(b, t, 8, generator=g)
        with torch.no_grad():
            clean = module(clean_x)
            corrupt = module(corrupt_x)
        cache = clean.clone()
        hook = run_learner(
            make_hook, case, cache, position, names=("clean_output",), forbidden=forbidden
        )
        if not callable(hook):
            raise ExerciseError(
                tr(
                    "{case}: make_hook returned {type}, expected a hook function "
                    "hook(module, args, output)",
                    case=case,
                    type=type(hook).__name__,
                )
            )
        handle = module.register_forward_hook(hook)
        try:
            with torch.no_grad():
                got = run_learner(module, case, corrupt_x, names=("args[0]",), forbidden=forbidden)
        finally:
            handle.remove()
        if not torch.equal(cache, clean):
            raise ExerciseError(
                tr(
                    "{case}: your hook changed the cached clean output in place; write into the "
                    "module's output (or a copy of it), never into the cache",
                    case=case,
                )
            )
        if not isinstance(got, Tensor):
            raise ExerciseError(
                tr(
                    "{case}: your hook returned a {kind}; a forward hook's return value replaces "
                    "the module's output, here one tensor (B, T, h): return the patched tensor "
                    "itself (return patched, not (patched,))",
                    case=case,
                    kind=type(got).__name__,
                )
            )
        if (
            torch.equal(got, corrupt)
            and t > 1
            and not torch.equal(clean[:, position], corrupt[:, position])
        ):
            raise ExerciseError(
                tr(
                    "{case}: the output is unchanged; a forward hook's return value replaces the "
                    "output, so return the patched tensor (returning None keeps the output as it "
                    "was)",
                    case=case,
                )
            )
        compare_tensor(
            got,
            patched_output(corrupt, clean, position),
            case=case,
            wrong_versions=_mistakes(corrupt, clean, position),
            nan_cause=tr(
                "a patch only copies values: look for a tensor made with torch.empty and not filled"
            ),
        )
    success(tr("your hook patches exactly one position, on {n} cases.", n=len(_cases())))


def _mistakes(corrupt: Tensor, clean: Tensor, position: int) -> WrongVersions:
    t = corrupt.shape[1]
    other = position + 1 if position + 1 < t else max(position - 1, 0)
    return {
        tr(
            "every position was patched: the whole clean output came back, not just one position"
        ): lambda: clean,
        tr(
            "the batch dimension was patched (output[position]); the position is the second "
            "dimension, output[:, position]"
        ): lambda: _patch_batch(corrupt, clean, position),
        tr(
            "the wrong position was patched ({other}, not {position}): an off-by-one?",
            other=other,
            position=position,
        ): lambda: patched_output(corrupt, clean, other),
    }


def _patch_batch(output: Tensor, clean: Tensor, position: int) -> Tensor:
    if position >= output.shape[0]:
        raise IndexError("no such batch row")
    patched = output.clone()
    patched[position] = clean[position]
    return patched
