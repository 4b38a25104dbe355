"""Lesson widgets: ``InteractivePlot`` and one module per lesson topic.

Each topic module registers its builders in ``WIDGET_REGISTRY`` with ``@register_widget``.
"""

from .base import WIDGET_REGISTRY, InteractivePlot, figure_to_png, register_widget

# Topic modules are imported below (one line each) so their widgets register.
