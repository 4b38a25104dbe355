"""Lesson widgets: the ``InteractivePlot`` pattern (``base``) and one module per lesson.

Each ``lNN_topic`` module registers its builders in ``WIDGET_REGISTRY`` with
``@register_widget``; ``all_widgets()`` imports them all, for the browser suite and benchmarks.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable

from .base import (
    WIDGET_REGISTRY,
    DrawResult,
    InteractivePlot,
    figure_to_png,
    register_widget,
    require_choice,
    require_int_in,
)

__all__ = [
    "WIDGET_REGISTRY",
    "DrawResult",
    "InteractivePlot",
    "all_widgets",
    "figure_to_png",
    "register_widget",
    "require_choice",
    "require_int_in",
]


def all_widgets() -> dict[str, tuple[str, Callable[[], InteractivePlot]]]:
    """Every lesson widget: name → (lesson number, zero-argument builder), lesson order."""
    for info in pkgutil.iter_modules(__path__):
        if info.name.startswith("l") and info.name[1:3].isdigit():
            importlib.import_module(f"{__name__}.{info.name}")
    return dict(sorted(WIDGET_REGISTRY.items(), key=lambda item: (item[1][0], item[0])))
