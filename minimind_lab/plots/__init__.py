"""Plot functions: they take results and draw them; they never compute the experiment.

``style`` holds the shared look; one module per lesson topic holds that topic's pictures.
"""

from .style import (
    ATTENTION_COLOR,
    DIVERGING_CMAP,
    FIGURE_DPI,
    MLP_COLOR,
    PALETTE,
    SEQUENTIAL_CMAP,
    finish,
    new_figure,
    series_style,
)

# Topic modules register their functions below (one import line each).
