"""The widget canvas: text rendered once and stamped, and the fast PNG encoder (issue 34)."""

from __future__ import annotations

import io

import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from PIL import Image

from minimind_lab.widgets import canvas as widget_canvas
from minimind_lab.widgets.canvas import WidgetCanvas, rgba_png


def _figure(title: str = "GELU: f'(x) (autograd)") -> Figure:
    fig = Figure(figsize=(4.0, 2.5), dpi=80)
    ax = fig.add_subplot()
    ax.plot([0, 1, 2, 3], [0, 1, 0.5, 2])
    ax.set_title(title)
    ax.set_xlabel("input x")
    ax.set_ylabel("derivative f'(x)")  # rotated by 90°
    ax.text(1.0, 1.0, "$\\sigma(x)$ and x·σ(βx)")  # mathtext and plain text
    return fig


def _pixels(canvas: FigureCanvasAgg) -> np.ndarray:
    canvas.draw()
    return np.asarray(canvas.buffer_rgba()).astype(int)


def test_the_cached_canvas_draws_what_agg_draws_but_for_text_at_whole_pixels() -> None:
    plain = _pixels(FigureCanvasAgg(_figure()))
    cached = _pixels(WidgetCanvas(_figure()))
    assert plain.shape == cached.shape
    differs = np.abs(plain - cached).max(axis=2) > 0
    # Glyphs move by under half a pixel: a few percent of the pixels, all near text.
    assert 0 < differs.mean() < 0.05
    # Control: the middle of the plot, the line and the mathtext label (which Agg draws as
    # usual, at rows 92–104 and columns 126–216), is the same to the bit.
    assert np.array_equal(plain[60:140, 120:280], cached[60:140, 120:280])


def test_a_string_drawn_again_comes_from_the_cache_and_looks_the_same() -> None:
    widget_canvas._TEXT_CACHE.clear()
    canvas = WidgetCanvas(_figure())
    first = _pixels(canvas)
    stored = len(widget_canvas._TEXT_CACHE)
    assert stored >= 4  # title, two labels, tick labels: each rendered once
    again = _pixels(canvas)
    assert len(widget_canvas._TEXT_CACHE) == stored and np.array_equal(first, again)
    # A fresh canvas of an equal figure reuses the process-wide cache and agrees to the bit.
    assert np.array_equal(_pixels(WidgetCanvas(_figure())), first)


def test_a_new_title_renders_its_own_glyphs() -> None:
    one = _pixels(WidgetCanvas(_figure("ReLU: f(x)")))
    other = _pixels(WidgetCanvas(_figure("SiLU: f(x)")))
    assert not np.array_equal(one, other)
    assert np.array_equal(one[40:, :], other[40:, :])  # only the title's band differs


def test_the_cache_stays_within_its_size(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(widget_canvas, "TEXT_CACHE_SIZE", 3)
    widget_canvas._TEXT_CACHE.clear()
    _pixels(WidgetCanvas(_figure()))
    assert len(widget_canvas._TEXT_CACHE) == 3


def test_rgba_png_decodes_to_the_same_pixels() -> None:
    rng = np.random.default_rng(0)
    pixels = rng.integers(0, 256, size=(7, 5, 4), dtype=np.uint8)
    for level in (0, 1, 9):
        decoded = np.asarray(Image.open(io.BytesIO(rgba_png(pixels, level))))
        assert decoded.shape == (7, 5, 4) and np.array_equal(decoded, pixels)
    empty = np.zeros((1, 1, 4), dtype=np.uint8)
    assert np.array_equal(np.asarray(Image.open(io.BytesIO(rgba_png(empty)))), empty)


def test_rgba_png_does_not_change_its_input() -> None:
    pixels = np.full((2, 3, 4), 200, dtype=np.uint8)
    before = pixels.copy()
    rgba_png(pixels)
    assert np.array_equal(pixels, before)


@pytest.mark.parametrize(
    ("pixels", "level", "expected"),
    [
        (np.zeros((2, 3, 3), np.uint8), 1, r"\(height, width, 4\) uint8, got \(2, 3, 3\) uint8"),
        (np.zeros((2, 3, 4), np.float32), 1, r"got \(2, 3, 4\) float32"),
        (np.zeros((6, 4), np.uint8), 1, r"got \(6, 4\) uint8"),
        (np.zeros((2, 3, 4), np.uint8), 10, "an integer from 0 to 9, got 10"),
        (np.zeros((2, 3, 4), np.uint8), True, "got True"),
    ],
)
def test_rgba_png_names_what_it_cannot_encode(pixels, level, expected: str) -> None:
    with pytest.raises(ValueError, match=expected):
        rgba_png(pixels, level)
