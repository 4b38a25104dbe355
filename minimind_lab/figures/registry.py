"""The list of tutorial figures: name → lesson, one-line caption and the builder that draws it."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from matplotlib.figure import Figure

from .._checks import check_bool
from ..lessons.registry import lesson as registered_lesson

Builder = Callable[[], Figure]


@dataclass(frozen=True)
class FigureSpec:
    """One figure of ``figures/``: its file stem, lesson ("03"), caption and builder.

    ``builder()`` seeds, runs the lesson's experiment (small and fast) and returns the
    ``Figure`` drawn by the same plot function the notebook calls (``plot_function`` names it).
    ``trained`` marks a figure drawn from models its builder trains: their losses move in the
    last digits from CPU to CPU (docs/CONVENTIONS.md, "Where the numbers repeat"), so the tests
    compare its structure exactly and its points within a tolerance, not its pixels.
    """

    name: str
    lesson: str
    caption: str
    plot_function: str
    builder: Builder
    trained: bool = False

    def plot(self) -> Callable[..., Figure]:
        """The plot function itself: ``plot_function`` in ``minimind_lab.lessons.l{lesson}``."""
        module = importlib.import_module(f"minimind_lab.lessons.l{self.lesson}")
        return getattr(module, self.plot_function)


#: Every figure, by name, in lesson order of registration.
FIGURE_REGISTRY: dict[str, FigureSpec] = {}


def register_figure(
    name: str, lesson: str, caption: str, plot_function: str, trained: bool = False
) -> Callable[[Builder], Builder]:
    """Decorator: record a zero-argument builder returning a ``Figure`` under ``name``.

    ``caption`` is one line on what the figure shows (it also becomes the builder's docstring and
    the files' title metadata); ``plot_function`` names the function of
    ``minimind_lab.lessons.l{lesson}`` that draws; ``trained`` says the builder trains the models
    it draws (see ``FigureSpec``).
    """
    check_bool("trained", trained)
    registered_lesson(lesson)  # an unknown lesson number raises ValueError naming the known ones
    if not name.replace("_", "").isalnum() or name != name.lower():
        raise ValueError(f"figure name must be lower_snake_case, got {name!r}")
    if name in FIGURE_REGISTRY:
        raise ValueError(f"figure {name!r} is already registered")

    def decorate(builder: Builder) -> Builder:
        FIGURE_REGISTRY[name] = FigureSpec(name, lesson, caption, plot_function, builder, trained)
        if not builder.__doc__:  # the caption documents the builder
            builder.__doc__ = f"Figure ``{name}`` (lesson {lesson}): {caption}"
        return builder

    return decorate


def figure_names(selection: Iterable[str] | None = None) -> list[str]:
    """Registered names, in lesson order; ``selection`` picks some (comma lists allowed).

    Raises ``ValueError`` naming any unknown figure.
    """
    ordered = sorted(
        FIGURE_REGISTRY, key=lambda n: (FIGURE_REGISTRY[n].lesson, list(FIGURE_REGISTRY).index(n))
    )
    if selection is None:
        return ordered
    wanted = {part.strip() for item in selection for part in item.split(",") if part.strip()}
    unknown = sorted(wanted - set(FIGURE_REGISTRY))
    if unknown:
        raise ValueError(
            f"unknown figure(s): {', '.join(unknown)}; expected some of: {', '.join(ordered)}"
        )
    if not wanted:
        raise ValueError("no figure named; expected some of: " + ", ".join(ordered))
    return [name for name in ordered if name in wanted]
