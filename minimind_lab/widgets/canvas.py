"""An Agg canvas for widget frames that renders each piece of text once, not at every frame.

matplotlib (3.11) lays a string out with FreeType and renders it glyph by glyph in Python at
every draw: a 30-character title costs several milliseconds, and the tick labels of a rezoomed
axis most of a redraw. A widget draws the same strings again and again (tick labels, titles
that name one of a few choices), so ``WidgetCanvas`` keeps each string's rendered glyphs and
only stamps them onto the frame.

The one visible difference from plain Agg: text is placed at whole pixels (plain Agg places it
at 1/64 pixel), so that a string rendered once fits wherever it appears. Every frame a widget
shows, drawn in full or blitted, goes through this canvas, so they all agree with each other.
"""

from __future__ import annotations

import math
import struct
import zlib
from collections import OrderedDict
from typing import Any

import numpy as np
from matplotlib.backend_bases import GraphicsContextBase
from matplotlib.backends.backend_agg import FigureCanvasAgg, RendererAgg, get_hinting_flag
from matplotlib.font_manager import FontProperties, fontManager
from matplotlib.ft2font import RenderMode

__all__ = ["TEXT_CACHE_SIZE", "TextCachingRenderer", "WidgetCanvas", "rgba_png"]

#: Strings kept rendered (least recently used dropped first), shared by every widget canvas of
#: the process: a widget shows a few dozen distinct tick labels and titles; 4096 hold all the
#: lessons' with room.
TEXT_CACHE_SIZE = 4096

#: One rendered glyph: its coverage bitmap (uint8, rows × columns) and its bitmap's left and top
#: edges in pixels from the text's anchor (x right, y up).
_Glyph = tuple[np.ndarray, int, int]
_TEXT_CACHE: OrderedDict[tuple, list[_Glyph]] = OrderedDict()


def _font_key(prop: FontProperties) -> tuple:
    """What plain Agg renders ``prop``'s glyphs with: the font files it resolves to (through the
    current rcParams, as Agg resolves them at each draw) and the size in points."""
    return (*fontManager._find_fonts_by_props(prop), prop.get_size_in_points())


class TextCachingRenderer(RendererAgg):
    """``RendererAgg`` whose ``draw_text`` renders each (string, font, size, angle, dpi) once.

    Mathtext (``$…$``) is drawn as plain Agg draws it. Everything else is laid out and rendered
    at the first use; later uses stamp the stored glyph bitmaps at the anchor rounded to whole
    pixels, in the ``gc``'s colour and alpha, exactly as Agg stamps them.
    """

    def draw_text(
        self,
        gc: GraphicsContextBase,
        x: float,
        y: float,
        s: str,
        prop: FontProperties,
        angle: float,
        ismath: bool | str = False,
        mtext: Any = None,
    ) -> None:
        """Draw ``s`` with its anchor at display ``(x, y)`` (y down), rotated by ``angle``°."""
        if ismath:
            return super().draw_text(gc, x, y, s, prop, angle, ismath, mtext)
        features = mtext.get_fontfeatures() if mtext is not None else None
        language = mtext.get_language() if mtext is not None else None
        antialiased = bool(gc.get_antialiased())
        key = (
            s,
            _font_key(prop),
            float(self.dpi),
            float(angle),
            antialiased,
            tuple(features) if features else None,
            language if isinstance(language, (str, type(None))) else repr(language),
            get_hinting_flag(),
        )
        glyphs = _TEXT_CACHE.get(key)
        if glyphs is None:
            glyphs = self._render_glyphs(s, prop, angle, antialiased, features, language)
            _TEXT_CACHE[key] = glyphs
            if len(_TEXT_CACHE) > TEXT_CACHE_SIZE:
                _TEXT_CACHE.popitem(last=False)
        else:
            _TEXT_CACHE.move_to_end(key)
        anchor_x, anchor_y = round(x), round(self.height - y)  # y up, as FreeType's
        height = int(self.height)
        for bitmap, left, top in glyphs:
            # draw_text_image's y is downwards and names the bitmap's bottom row.
            self._renderer.draw_text_image(
                bitmap, anchor_x + left, height - (anchor_y + top) + bitmap.shape[0], 0, gc
            )
        return None

    def _render_glyphs(
        self,
        s: str,
        prop: FontProperties,
        angle: float,
        antialiased: bool,
        features: Any,
        language: Any,
    ) -> list[_Glyph]:
        """Lay ``s`` out and render each glyph as plain Agg does, anchored at (0, 0)."""
        font = self._prepare_font(prop)
        flags = get_hinting_flag()
        items = font._layout(s, flags=flags, features=features, language=language)
        size = prop.get_size_in_points()
        cos, sin = math.cos(math.radians(angle)), math.sin(math.radians(angle))
        rotation = (0x10000 * np.array([[cos, -sin], [sin, cos]])).round().astype(int)
        mode = RenderMode.NORMAL if antialiased else RenderMode.MONO
        glyphs: list[_Glyph] = []
        for item in items:
            glyph_font, dx, dy = item.ft_object, item.x, item.y  # dy is upwards
            glyph_font.set_size(size, self.dpi)
            offset = [round(0x40 * (dx * cos - dy * sin)), round(0x40 * (dx * sin + dy * cos))]
            glyph_font._set_transform(rotation, offset)
            bitmap = glyph_font._render_glyph(item.glyph_index, flags, mode)
            buffer = np.array(bitmap.buffer, dtype=np.uint8)  # a copy: the font reuses its own
            if not antialiased:
                buffer *= 0xFF
            glyphs.append((buffer, int(bitmap.left), int(bitmap.top)))
        return glyphs


class WidgetCanvas(FigureCanvasAgg):
    """``FigureCanvasAgg`` drawing with a ``TextCachingRenderer`` (kept while the size and dpi
    stay the same, as Agg keeps its renderer)."""

    def get_renderer(self) -> RendererAgg:
        """The renderer for the figure's current pixel size and dpi."""
        width, height = self.get_width_height(physical=True)
        key = width, height, self.figure.dpi
        renderer = getattr(self, "renderer", None)
        if self._lastKey != key or not isinstance(renderer, TextCachingRenderer):
            self.renderer = TextCachingRenderer(width, height, self.figure.dpi)
            self._lastKey = key
        return self.renderer


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    checksum = zlib.crc32(kind + data) & 0xFFFFFFFF
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", checksum)


def rgba_png(pixels: np.ndarray, compress_level: int = 1) -> bytes:
    """PNG bytes of an RGBA image, ``pixels`` of shape (height, width, 4) and dtype uint8.

    Every row is stored unfiltered (PNG filter 0) and deflated at zlib's ``compress_level``
    (0–9). For a widget's line plots this is about three times faster than Pillow's encoder,
    which tries several filters on each row, for bytes a few percent larger.
    """
    pixels = np.asarray(pixels)
    if pixels.ndim != 3 or pixels.shape[2] != 4 or pixels.dtype != np.uint8:
        raise ValueError(
            f"pixels must be (height, width, 4) uint8, got {pixels.shape} {pixels.dtype}"
        )
    if isinstance(compress_level, bool) or compress_level not in range(10):
        raise ValueError(f"compress_level must be an integer from 0 to 9, got {compress_level!r}")
    height, width, _ = pixels.shape
    rows = np.zeros((height, 1 + 4 * width), dtype=np.uint8)  # byte 0 of each row: filter 0
    rows[:, 1:] = pixels.reshape(height, 4 * width)
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)  # 8 bits, RGBA
    return b"".join(
        [
            b"\x89PNG\r\n\x1a\n",
            _png_chunk(b"IHDR", header),
            _png_chunk(b"IDAT", zlib.compress(rows.tobytes(), compress_level)),
            _png_chunk(b"IEND", b""),
        ]
    )
