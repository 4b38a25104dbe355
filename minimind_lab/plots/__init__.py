"""Plot functions: they take results and draw them; they never compute the experiment.

``style`` holds the one look every picture shares; ``lNN_topic`` holds lesson NN's pictures
(reach them through ``minimind_lab.lessons.lNN``).
"""

from .style import (
    ATTENTION_COLOR,
    DIVERGING_CMAP,
    FIGURE_DPI,
    GLU_COLORS,
    MLP_COLOR,
    PALETTE,
    SEQUENTIAL_CMAP,
    axes_or_new,
    finish,
    fixed_layout,
    new_figure,
    series_style,
)

__all__ = [
    "ATTENTION_COLOR",
    "DIVERGING_CMAP",
    "FIGURE_DPI",
    "GLU_COLORS",
    "MLP_COLOR",
    "PALETTE",
    "SEQUENTIAL_CMAP",
    "axes_or_new",
    "finish",
    "fixed_layout",
    "new_figure",
    "series_style",
]
