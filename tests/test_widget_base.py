"""The widget pattern shared by every lesson: redraws, errors, and the static picture."""

from __future__ import annotations

import base64

import ipywidgets as widgets
from matplotlib.figure import Figure

from minimind_lab.widgets import InteractivePlot, all_widgets, require_choice, require_int_in


def _draw(n: int):
    require_int_in("n", n, 1, 5)
    fig = Figure(figsize=(2, 1))
    fig.add_subplot().plot(range(n))
    return fig, f"n = {n}"


def test_stored_output_carries_a_png_of_the_current_picture() -> None:
    """GitHub and nbviewer show the image/png; JupyterLab renders the live widget."""
    plot = InteractivePlot({"n": widgets.IntSlider(value=2, min=1, max=9)}, _draw)
    bundle = plot._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert base64.b64decode(bundle["image/png"]) == plot.image.value
    assert bundle["text/plain"].startswith("VBox(")


def test_an_invalid_value_replaces_the_picture_with_a_message() -> None:
    plot = InteractivePlot({"n": widgets.IntSlider(value=2, min=1, max=9)}, _draw)
    picture = plot.image.value
    plot.controls["n"].value = 7
    assert plot.last_error == "n must be an integer from 1 to 5, got 7"
    assert plot.image.value != picture and "Cannot draw this setting" in plot.text.value
    assert plot.redraw_count == 1  # the failed draw does not count as a redraw
    plot.controls["n"].value = 3
    assert plot.last_error is None and plot.text.value == "n = 3" and plot.redraw_count == 2


def test_require_helpers_name_the_value() -> None:
    for bad in (0, 6, 2.5, True, "3"):
        try:
            require_int_in("n", bad, 1, 5)
        except ValueError as error:
            assert repr(bad) in str(error)
        else:
            raise AssertionError(f"{bad!r} was accepted")
    try:
        require_choice("act", "mish", ("relu", "silu"))
    except ValueError as error:
        assert str(error) == "act must be one of relu, silu; got 'mish'"


def test_every_lesson_widget_is_registered_with_its_lesson() -> None:
    registry = all_widgets()
    assert len(registry) >= 9
    assert {lesson for lesson, _ in registry.values()} >= {"01", "02", "03", "04", "05", "06"}


def test_a_revisited_value_shows_the_stored_frame_without_drawing() -> None:
    calls: list[int] = []

    def counting_draw(n: int):
        calls.append(n)
        return _draw(n)

    plot = InteractivePlot({"n": widgets.IntSlider(value=2, min=1, max=5)}, counting_draw)
    first = plot.image.value
    plot.controls["n"].value = 3
    plot.controls["n"].value = 2  # back: from the frame cache
    assert calls == [2, 3] and plot.image.value == first and plot.redraw_count == 3
    assert [t.cached for t in plot.timings] == [False, False, True]
    assert all(t.draw > 0 and t.png > 0 for t in list(plot.timings)[:2])


def test_a_blitter_redraws_only_the_changing_artists_of_one_persistent_figure() -> None:
    import io

    import numpy as np
    from PIL import Image

    from minimind_lab.widgets.base import Blitter, figure_to_png

    fig = Figure(figsize=(3, 2))
    ax = fig.add_subplot()
    ax.set_xlim(0, 9)
    ax.set_ylim(0, 9)
    ax.set_title("static title")
    (line,) = ax.plot([], [])
    blitter = Blitter(fig, [line])

    def draw(n: int):
        line.set_data(range(10), [n] * 10)
        return blitter.png(), f"n = {n}"

    plot = InteractivePlot({"n": widgets.IntSlider(value=2, min=0, max=9)}, draw)
    two = plot.image.value
    plot.controls["n"].value = 7
    seven = plot.image.value
    assert two != seven and plot.last_figure is None  # the widget owns its figure
    pixels = np.asarray(Image.open(io.BytesIO(seven)))
    full = Figure(figsize=(3, 2), dpi=fig.dpi)
    full_ax = full.add_subplot()
    full_ax.set_xlim(0, 9)
    full_ax.set_ylim(0, 9)
    full_ax.set_title("static title")
    full_ax.plot(range(10), [7] * 10)
    reference = np.asarray(Image.open(io.BytesIO(figure_to_png(full, dpi=int(fig.dpi)))))
    assert pixels.shape == reference.shape
    assert np.abs(pixels.astype(int) - reference.astype(int)).mean() < 1.0  # the same picture
