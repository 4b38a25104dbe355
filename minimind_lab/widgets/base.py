"""The one widget pattern every lesson uses: controls → a pure draw function → image and text.

A lesson's widget is an ``InteractivePlot``: a few ipywidgets controls, a ``draw`` function that
takes the controls' values and returns a matplotlib ``Figure`` and a short HTML summary, and two
outputs (an ``Image`` holding the PNG and an ``HTML`` holding the text). Because ``draw`` is a plain
function and the outputs are widget values, tests set a control and read the outputs without a
browser or a kernel.
"""

from __future__ import annotations

import base64
import gc
import html as html_lib
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import ipywidgets as widgets
import numpy as np
from matplotlib.artist import Artist
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from ..i18n import tr
from ..lessons.registry import lesson as registered_lesson
from .canvas import WidgetCanvas, rgba_png

#: What a widget's ``draw`` returns: a figure (rendered to PNG here) or PNG bytes it rendered
#: itself (e.g. with a ``Blitter``), and the summary HTML.
DrawResult = tuple[Figure | bytes, str]
#: Lesson widgets by name, for the browser suite and the benchmarks: name → (lesson, builder).
WIDGET_REGISTRY: dict[str, tuple[str, Callable[[], InteractivePlot]]] = {}
WIDGET_DPI = 80
#: zlib level for widget PNGs: 1 encodes several times faster than the default 6 for line plots
#: of a few hundred pixels, and the bytes grow by only a few percent.
PNG_COMPRESS_LEVEL = 1
#: Frames (PNG and summary) a widget keeps per combination of control values: revisiting a
#: value shows the stored frame instead of drawing it again.
FRAME_CACHE_SIZE = 64
_gc_frozen = False


def _freeze_startup_objects() -> None:
    """Move the objects alive now (torch, matplotlib, ...) out of the garbage collector's scans.

    A lesson's kernel holds a few hundred thousand long-lived objects; a full collection walking
    them all takes ~0.2 s and, landing during a redraw, makes a slider stutter. Freezing them once
    (``gc.freeze``) keeps redraws steady; later garbage is still collected as usual.
    """
    global _gc_frozen
    if not _gc_frozen:
        gc.collect()
        gc.freeze()
        _gc_frozen = True


def require_int_in(name: str, value: object, lo: int, hi: int) -> int:
    """``value`` if it is an integer in ``[lo, hi]``; else a ``ValueError`` naming it."""
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise ValueError(f"{name} must be an integer from {lo} to {hi}, got {value!r}")
    return value


def require_choice(name: str, value: object, choices: Sequence[object]) -> object:
    """``value`` if it is one of ``choices``; else ``ValueError`` naming it and the choices."""
    if value not in choices:
        listed = ", ".join(map(str, choices))
        raise ValueError(f"{name} must be one of {listed}; got {value!r}")
    return value


def register_widget(
    name: str, lesson: str
) -> Callable[[Callable[[], InteractivePlot]], Callable[[], InteractivePlot]]:
    """Decorator: record a zero-argument widget builder under ``name`` for ``lesson`` ("04").

    ``lesson`` must be in ``minimind_lab.lessons.registry.LESSONS``; else ``ValueError``.
    """
    registered_lesson(lesson)

    def decorate(builder: Callable[[], InteractivePlot]) -> Callable[[], InteractivePlot]:
        WIDGET_REGISTRY[name] = (lesson, builder)
        return builder

    return decorate


def figure_to_png(
    fig: Figure, dpi: int = WIDGET_DPI, compress_level: int = PNG_COMPRESS_LEVEL
) -> bytes:
    """Render ``fig`` with the Agg backend to PNG bytes (no pyplot, no display needed), text
    placed as every widget frame places it (``WidgetCanvas``).

    Goes straight to the Agg canvas: ``savefig`` draws a figure that has (or had) a layout engine
    twice, and a widget redraw pays for every draw. A layout engine still runs, inside the draw.
    ``compress_level`` is zlib's (0–9): widgets use a fast level, the bytes barely grow.
    """
    canvas = WidgetCanvas(fig)
    saved_dpi = fig.dpi
    fig.dpi = dpi
    try:
        canvas.draw()
        return canvas_to_png(canvas, compress_level)
    finally:
        fig.dpi = saved_dpi


def canvas_to_png(canvas: FigureCanvasAgg, compress_level: int = PNG_COMPRESS_LEVEL) -> bytes:
    """PNG bytes of what ``canvas`` holds now, without drawing it again."""
    return rgba_png(np.asarray(canvas.buffer_rgba()), compress_level)


class Blitter:
    """A widget figure drawn in full once; later frames redraw only the artists that change.

    Axes, ticks, labels and titles are rendered into a background the first time; each ``png()``
    restores that background and draws the ``dynamic`` artists (lines, bars, images, texts whose
    data a redraw updates) on top. That skips re-laying out every tick label, which is most of
    a redraw. Use it only for a figure the widget owns: the dynamic artists are marked animated,
    so a plain ``savefig`` of the same figure would leave them out. If the static part must
    change (new limits, new tick labels), call ``refresh_background()`` first.
    """

    def __init__(self, fig: Figure, dynamic: Sequence[Artist], dpi: int = WIDGET_DPI) -> None:
        self.figure = fig
        self.dynamic = list(dynamic)
        for artist in self.dynamic:
            artist.set_animated(True)
        fig.dpi = dpi
        self.canvas = WidgetCanvas(fig)
        self.refresh_background()

    def refresh_background(self) -> None:
        """Render the static part again (after a change of limits, ticks or titles)."""
        self.canvas.draw()
        self.background = self.canvas.copy_from_bbox(self.figure.bbox)

    def png(self) -> bytes:
        """The current frame: the stored background plus every dynamic artist, as PNG bytes."""
        self.canvas.restore_region(self.background)
        for artist in self.dynamic:
            if artist.get_visible():
                self.figure.draw_artist(artist)
        return canvas_to_png(self.canvas)


@dataclass(frozen=True)
class RedrawTiming:
    """Where one redraw's time went, in seconds: ``draw`` builds the figure, ``png`` renders and
    encodes it (zero both when the frame came from the cache)."""

    draw: float
    png: float
    cached: bool

    @property
    def total(self) -> float:
        """``draw + png``: the kernel's share of what the learner waits for."""
        return self.draw + self.png


class InteractivePlot:
    """Controls wired to a ``draw(**values) -> (Figure, html)`` function; redraws on change.

    ``controls`` maps each ``draw`` keyword to a value widget (slider, dropdown, ...). After every
    change ``image.value`` holds the new PNG, ``text.value`` the new summary and ``redraw_count``
    counts the frames shown. ``draw`` must be a pure function of the control values: a frame
    once drawn is kept (``FRAME_CACHE_SIZE`` of them) and shown again when the values come back.
    ``last_figure`` is the figure of the last frame actually drawn; ``timings`` holds where each
    redraw's time went. Display it like any widget.
    """

    def __init__(
        self,
        controls: Mapping[str, widgets.ValueWidget],
        draw: Callable[..., DrawResult],
        title: str = "",
    ) -> None:
        self.controls = dict(controls)
        self.draw = draw
        # Shown at its own pixel size (not stretched to the output's width, which blurs it).
        self.image = widgets.Image(format="png", layout=widgets.Layout(align_self="flex-start"))
        self.text = widgets.HTML()
        self.last_figure: Figure | None = None
        self.last_error: str | None = None
        self.redraw_count = 0
        self.timings: deque[RedrawTiming] = deque(maxlen=1000)
        self._frames: OrderedDict[tuple, tuple[bytes, str]] = OrderedDict()
        header = [widgets.HTML(f"<b>{title}</b>")] if title else []
        self.ui = widgets.VBox(
            [*header, widgets.HBox(list(self.controls.values())), self.image, self.text]
        )
        self.ui.add_class("minimind-lab-widget")
        for control in self.controls.values():
            control.observe(self._on_change, names="value")
        self.redraw()
        _freeze_startup_objects()

    def values(self) -> dict[str, Any]:
        """The current value of every control, by ``draw`` keyword."""
        return {name: control.value for name, control in self.controls.items()}

    def redraw(self) -> str | None:
        """Show the frame for the current values (drawn, or from the frame cache); return its
        summary HTML.

        A ``ValueError`` from ``draw`` (a control value it cannot draw) is shown in place of the
        picture: the image becomes a card with the message, the text says what to change, and
        ``last_error`` holds the message (the return value is then ``None``), so no stale figure
        is left looking current.
        """
        values = self.values()
        key = tuple(values.items())
        frame = self._frames.get(key)
        if frame is not None:
            self._frames.move_to_end(key)
            self.timings.append(RedrawTiming(0.0, 0.0, cached=True))
        else:
            start = time.perf_counter()
            try:
                fig, html = self.draw(**values)
            except ValueError as error:
                self.last_error = str(error)
                self._show_error(self.last_error)
                return None
            drawn = time.perf_counter()
            frame = (fig if isinstance(fig, bytes) else figure_to_png(fig), html)
            self.timings.append(RedrawTiming(drawn - start, time.perf_counter() - drawn, False))
            self._frames[key] = frame
            if len(self._frames) > FRAME_CACHE_SIZE:
                self._frames.popitem(last=False)
            if isinstance(fig, bytes):  # drawn by the widget itself (e.g. with a Blitter)
                fig = self.last_figure
            previous, self.last_figure = self.last_figure, fig
            if previous is not None and previous is not fig:
                # A figure is a web of reference cycles; left whole, it waits for a full garbage
                # collection, which then stalls a later redraw for tens of ms. Cleared, most of it
                # is freed at once by reference counting.
                previous.clear()
        self.last_error = None
        self.image.value, self.text.value = frame
        self.redraw_count += 1
        return frame[1]

    def _show_error(self, message: str) -> None:
        card = Figure(figsize=(6.0, 1.2))
        card.text(
            0.02,
            0.5,
            tr("Nothing drawn: {message}", message=message),
            fontsize=9,
            color="#D55E00",
            va="center",
            ha="left",
            wrap=True,
        )
        self.image.value = figure_to_png(card)
        self.text.value = (
            f'<span style="color:#D55E00"><b>{tr("Cannot draw this setting:")}</b> '
            f"{html_lib.escape(message)}</span>"
        )

    def _on_change(self, _change: Mapping[str, Any]) -> None:
        self.redraw()

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any] | None:
        """The live widget, plus a PNG of the current picture for viewers without a kernel.

        JupyterLab with a kernel renders the widget; GitHub and nbviewer have no widget state
        and fall back to the ``image/png``, so a stored lesson shows the widget's first picture
        instead of ``VBox(...)``.
        """
        bundle = self.ui._repr_mimebundle_(**kwargs)
        if bundle is not None and self.image.value:
            bundle = dict(bundle)
            bundle["image/png"] = base64.b64encode(self.image.value).decode("ascii")
        return bundle
