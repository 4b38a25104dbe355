"""Tutorial figures: one command regenerates ``figures/`` from the lessons' plot functions.

``python -m minimind_lab.figures`` builds every registered figure (``--only NAME``, ``--out DIR``,
``--list``; ``--gallery`` rewrites the README's gallery). Builders live in ``builders``; each
seeds, runs its lesson's experiment small and fast, and returns the ``Figure`` drawn by the same
plot function the notebook calls, so nothing in ``figures/`` is drawn by hand.
"""

from . import builders  # registers every figure
from .gallery import gallery_markdown, readme_gallery, with_gallery
from .registry import FIGURE_REGISTRY, FigureSpec, figure_names, register_figure
from .writer import (
    FORMATS,
    FigureBuildError,
    FigureWriteError,
    RenderedFigure,
    build_figure,
    default_out_dir,
    render_figures,
    write_figures,
    write_rendered,
)

__all__ = [
    "FIGURE_REGISTRY",
    "FORMATS",
    "FigureBuildError",
    "FigureWriteError",
    "FigureSpec",
    "RenderedFigure",
    "build_figure",
    "builders",
    "default_out_dir",
    "figure_names",
    "gallery_markdown",
    "readme_gallery",
    "with_gallery",
    "register_figure",
    "render_figures",
    "write_figures",
    "write_rendered",
]
