"""What a learner feels: key press (or option change) → new picture decoded and painted.

The suite writes one throwaway notebook that builds every lesson widget (``all_widgets()``) and a
**floor** widget, starts the browser suite's JupyterLab server on it (``lab_browser``, shared
with ``tests/browser``), opens it in headless Chromium through Playwright and runs it. Then, for
every control of every widget, it makes ``changes`` changes the way a learner does: a real key
press on a slider handle
(ArrowRight, turning back at the end of the range) or a new option in a dropdown. For each change
the page records, from the moment the key or option event arrived:

* ``to picture``: until the widget's ``<img>`` got its new ``src`` (kernel + messaging);
* ``decode``: until ``img.decode()`` resolved (the browser decoded the PNG);
* ``frame``: until the next animation frame after that (the picture is on screen).

``total`` = the sum, what the learner waits for. The kernel's part (``draw`` + PNG encoding,
``InteractivePlot.timings``) is read back from the kernel at the end; ``messaging`` =
``to picture`` − kernel. The floor widget serves precomputed PNGs of a typical size from its
frame cache (no drawing), so its total is what the pipeline costs with no work at all.

Absolute times drift with the machine and its load: compare within one run, against the floor.
Budget (issue 34): p95 ≤ 100 ms for every control, those that re-fit included
(``continuous_update=False``, the project's convention for re-fitting sliders; 200 ms before).
"""

from __future__ import annotations

import json
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import nbformat

from .stats import Summary, summarize

ROOT = Path(__file__).resolve().parent.parent
BROWSER_REDRAW_BUDGET_S = 0.100
BROWSER_REFIT_BUDGET_S = 0.100
NOTEBOOK_NAME = "widget_latency.ipynb"
FLOOR_NAME = "floor (precomputed PNGs)"
CHANGE_TIMEOUT_MS = 15_000
PAUSE_MS = 60  # between changes, so one change's frame never overlaps the next key press

# Installed once per page: remember when the learner's event arrived, and measure one change.
_INSTALL_JS = (
    """
() => {
  if (window.__latency) return;
  window.__latency = {t0: null};
  const mark = () => { window.__latency.t0 = performance.now(); };
  document.addEventListener('keydown', mark, true);
  document.addEventListener('change', mark, true);
  window.__measureChange = (root) => new Promise((resolve) => {
    const img = root.querySelector('img');
    const before = img.getAttribute('src');
    window.__latency.t0 = null;
    const timer = setTimeout(() => {
      observer.disconnect(); resolve({timeout: true});
    }, TIMEOUT_MS);
    const observer = new MutationObserver(async () => {
      if (img.getAttribute('src') === before) return;
      const tPicture = performance.now();
      observer.disconnect();
      clearTimeout(timer);
      try { await img.decode(); } catch (error) { /* a broken image still counts */ }
      const tDecoded = performance.now();
      requestAnimationFrame(() => {
        const tFrame = performance.now();
        const t0 = window.__latency.t0;
        resolve({toPicture: tPicture - t0, decode: tDecoded - tPicture,
                 frame: tFrame - tDecoded, total: tFrame - t0});
      });
    });
    observer.observe(img, {attributes: true, attributeFilter: ['src']});
  });
}
"""
).replace("TIMEOUT_MS", str(CHANGE_TIMEOUT_MS))


@dataclass
class BrowserControl:
    """One control of one widget, measured in the browser (seconds)."""

    widget: str
    lesson: str
    control: str
    kind: str
    refit: bool
    total: Summary | None = None
    to_picture: Summary | None = None
    kernel: Summary | None = None
    messaging: Summary | None = None
    decode: Summary | None = None
    frame: Summary | None = None
    first_touch: Summary | None = None
    drawn_share: float = 0.0
    note: str = ""

    @property
    def budget(self) -> float:
        """The p95 budget for this control (the same 100 ms whether it re-fits or only redraws)."""
        return BROWSER_REFIT_BUDGET_S if self.refit else BROWSER_REDRAW_BUDGET_S

    @property
    def within_budget(self) -> bool | None:
        """p95 of ``total`` within the budget (``None`` when nothing was measured)."""
        return None if self.total is None else self.total.p95 <= self.budget


@dataclass
class BrowserResult:
    """The browser section: every control, the floor, and what went wrong."""

    controls: list[BrowserControl] = field(default_factory=list)
    floor: BrowserControl | None = None
    changes: int = 0
    chromium: str = ""
    note: str = ""
    skipped: str = ""  # why nothing was measured when that is allowed (no browser, not required)
    error: str | None = None


def _notebook(widget_names: list[str]) -> nbformat.NotebookNode:
    """The throwaway notebook: every widget in its own cell, the floor, and a timings dump."""
    cells = [
        nbformat.v4.new_code_cell(
            f"import sys\nsys.path.insert(0, {str(ROOT)!r})  # this repo's benchmarks package\n"
            "import json\n"
            "import ipywidgets\n"
            "from benchmarks.browser import floor_widget\n"
            "from minimind_lab.widgets import all_widgets\n"
            "REGISTRY = all_widgets()\n"
            "WIDGETS = {}"
        )
    ]
    for name in widget_names:
        cells.append(
            nbformat.v4.new_code_cell(
                f"WIDGETS[{name!r}] = REGISTRY[{name!r}][1]()\nWIDGETS[{name!r}]"
            )
        )
    cells.append(
        nbformat.v4.new_code_cell(
            f"WIDGETS[{FLOOR_NAME!r}] = floor_widget()\nWIDGETS[{FLOOR_NAME!r}]"
        )
    )
    cells.append(
        nbformat.v4.new_code_cell(
            "dump = ipywidgets.Textarea(layout=ipywidgets.Layout(width='200px'))\n"
            "button = ipywidgets.Button(description='dump timings')\n"
            "button.add_class('latency-dump')\n"
            "dump.add_class('latency-dump-text')\n"
            "def _dump(_):\n"
            "    dump.value = json.dumps({\n"
            "        'timings': {name: [[t.draw, t.png, t.cached] for t in w.timings]\n"
            "                    for name, w in WIDGETS.items()},\n"
            "        'refit': {name: [c.description for c in w.controls.values()\n"
            "                         if getattr(c, 'continuous_update', True) is False]\n"
            "                  for name, w in WIDGETS.items()},\n"
            "    })\n"
            "button.on_click(_dump)\n"
            "ipywidgets.VBox([button, dump])"
        )
    )
    notebook = nbformat.v4.new_notebook()
    notebook.cells = cells
    notebook.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    return notebook


def floor_widget(frames: int = 12):  # -> InteractivePlot (imported lazily: no ipywidgets here)
    """A widget whose every frame is drawn before it is shown: a change only swaps a PNG.

    The frames are line plots of a lesson widget's size (2 panels, ~700×270 px at the widgets'
    dpi), so the bytes sent and decoded are typical; the kernel does no drawing at all.
    """
    import ipywidgets as widgets
    import numpy as np

    from minimind_lab.plots.style import fixed_layout, new_figure
    from minimind_lab.widgets.base import InteractivePlot

    rng = np.random.default_rng(0)
    x = np.linspace(-4, 4, 400)

    def draw(frame: int):
        fig, (left, right) = new_figure(1, 2, panel_size=(4.4, 3.4))
        for k in range(4):
            left.plot(x, np.tanh(x * (0.5 + 0.2 * k)) + 0.1 * frame, label=f"curve {k}")
            right.plot(x, rng.normal(size=x.size).cumsum() / 20, linewidth=1)
        left.legend(fontsize=8)
        left.set_title(f"floor frame {frame}")
        right.set_title("a second panel")
        return fixed_layout(fig), f"frame {frame}"

    slider = widgets.IntSlider(value=0, min=0, max=frames - 1, description="frame")
    plot = InteractivePlot({"frame": slider}, draw, title="Floor: precomputed frames")
    for frame in range(1, frames):  # draw every frame now: later changes only swap PNGs
        slider.value = frame
    slider.value = 0
    plot.timings.clear()
    return plot


def _controls(widget) -> list[tuple[str, str, object]]:
    """(label, kind, locator) of each slider handle and dropdown in a widget, in page order."""
    found = []
    sliders = widget.locator(".widget-slider, .widget-hslider")
    for i in range(sliders.count()):
        container = sliders.nth(i)
        label = container.locator(".widget-label").first.inner_text().strip() or f"slider {i}"
        handle = container.locator(".noUi-handle").first
        found.append((label, "slider", handle))
    dropdowns = widget.locator(".widget-dropdown")
    for i in range(dropdowns.count()):
        container = dropdowns.nth(i)
        label = container.locator(".widget-label").first.inner_text().strip() or f"dropdown {i}"
        found.append((label, "dropdown", container.locator("select").first))
    return found


def _change(kind: str, control, direction: list[str]) -> None:
    """One learner change: a key press on a slider handle, or the next dropdown option."""
    if kind == "slider":
        now = float(control.get_attribute("aria-valuenow") or "nan")
        top = float(control.get_attribute("aria-valuemax") or "nan")
        low = float(control.get_attribute("aria-valuemin") or "nan")
        if now >= top:
            direction[0] = "ArrowLeft"
        elif now <= low:
            direction[0] = "ArrowRight"
        control.focus()
        control.press(direction[0])
    else:
        count = control.locator("option").count()
        current = control.evaluate("node => node.selectedIndex")
        control.select_option(index=(current + 1) % count)


def _measure_control(page, root, kind: str, control, changes: int) -> list[dict]:
    direction = ["ArrowRight"]
    results = []
    for _ in range(changes):
        page.evaluate("root => { window.__pending = window.__measureChange(root); }", root)
        _change(kind, control, direction)
        results.append(page.evaluate("() => window.__pending"))
        page.wait_for_timeout(PAUSE_MS)
    return results


def bench_browser(
    widgets: list[tuple[str, str]],
    changes: int,
    quick: bool = False,
    log: Callable[[str], None] = print,
) -> BrowserResult:
    """Measure every control of ``widgets`` ((lesson, name) pairs) in JupyterLab in Chromium.

    ``changes`` learner changes per control (the floor gets as many). ``quick`` builds and
    measures only the first widget's first control (building every widget would train lesson
    08's models again in the page's kernel, minutes for one control). Without Chromium or
    Playwright it measures nothing and decides as the browser test suite does
    (``lab_browser/availability.py``):
    ``skipped`` says why and how to get them, or, when ``MINIMIND_LAB_REQUIRE_BROWSER=1`` (CI),
    ``error`` does. ``error`` is also set (and nothing else) when the server or page fails.
    """
    result = BrowserResult(changes=changes)
    try:
        from lab_browser.availability import (
            REQUIRED_NOTE,
            browser_required,
            find_chromium,
            why_no_browser,
        )
    except ImportError as error:
        result.error = f"the browser driver (lab_browser/) is missing: {error}"
        return result
    missing = why_no_browser()
    if missing is not None:
        if browser_required():
            result.error = f"{missing} {REQUIRED_NOTE}"
        else:
            result.skipped = missing
            log(f"[benchmarks] browser: skipped: {missing}")
        return result
    try:
        from playwright.sync_api import sync_playwright

        from lab_browser import CHROMIUM_ARGS, VIEWPORT
        from lab_browser.page import open_notebook, run_all_cells, wait_for_widgets
        from lab_browser.server import start_lab_server, stop_lab_server
    except ImportError as error:
        result.error = f"browser tools missing: {error}"
        return result
    chromium = find_chromium()
    result.chromium = chromium
    if quick:
        widgets = widgets[:1]
    names = [name for _, name in widgets]
    lessons = {name: lesson for lesson, name in widgets}
    with tempfile.TemporaryDirectory(prefix="minimind-latency-") as tmp:
        folder = Path(tmp)
        notebook = folder / NOTEBOOK_NAME
        nbformat.write(_notebook(names), notebook)
        server = start_lab_server([notebook], folder / "server")
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=chromium, headless=True, args=CHROMIUM_ARGS
                )
                try:
                    page = browser.new_context(viewport=VIEWPORT).new_page()
                    page.set_default_timeout(60_000)
                    open_notebook(page, server, NOTEBOOK_NAME)
                    started = time.perf_counter()
                    run_all_cells(page)
                    wait_for_widgets(page, len(names) + 1)
                    log(
                        f"[benchmarks] browser: {len(names)} widgets built in "
                        f"{time.perf_counter() - started:.1f} s"
                    )
                    page.evaluate(_INSTALL_JS)
                    raw = _measure_all(page, names, changes, quick, log)
                    timings = _kernel_timings(page)
                finally:
                    browser.close()
        except Exception as error:  # report, do not crash the whole benchmark run
            result.error = f"{type(error).__name__}: {error}"[:2000]
            return result
        finally:
            stop_lab_server(server)
    used: dict[str, int] = {}  # per widget, how many of its kernel timings are paired already
    for name, label, kind, measured in raw:
        refit = label in timings.get("refit", {}).get(name, [])
        series = timings.get("timings", {}).get(name, [])
        # A lesson widget's first timing is its draw at build time; the floor cleared its own.
        start = used.get(name, 0 if name == FLOOR_NAME else 1)
        used[name] = start + len(measured)
        kernel = series[start : start + len(measured)]
        if len(kernel) != len(measured):
            kernel = []  # an extra or missing redraw: do not pair them up wrongly
        control = _summarize(name, lessons.get(name, "–"), label, kind, refit, measured, kernel)
        if name == FLOOR_NAME:
            result.floor = control
        else:
            result.controls.append(control)
    if quick:
        result.note = "Quick mode: the first control of the first widget, and the floor."
    return result


def _measure_all(page, names: list[str], changes: int, quick: bool, log) -> list[tuple]:
    """Every (widget, control) measured: (name, label, kind, [per change dicts]), page order.

    Quick mode: the first control of the first widget, then the floor's.
    """
    roots = page.locator(".minimind-lab-widget")
    targets = [*(names[:1] if quick else names), FLOOR_NAME]
    raw = []
    for name in targets:
        root = roots.nth([*names, FLOOR_NAME].index(name))
        root.scroll_into_view_if_needed()
        controls = _controls(root)[: 1 if quick else None]
        for label, kind, control in controls:
            measured = _measure_control(page, root.element_handle(), kind, control, changes)
            log(f"[benchmarks] browser: {name} / {label}: {len(measured)} changes")
            raw.append((name, label, kind, measured))
    return raw


def _kernel_timings(page) -> dict[str, dict]:
    """Ask the kernel (the notebook's dump button) for every widget's ``timings`` and the
    descriptions of its sliders declared with ``continuous_update=False`` (they re-fit)."""
    page.locator(".latency-dump").first.click()
    box = page.locator(".latency-dump-text textarea").first
    deadline = time.monotonic() + 30
    while not box.input_value() and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    return json.loads(box.input_value() or "{}")


def _summarize(
    name: str,
    lesson: str,
    label: str,
    kind: str,
    refit: bool,
    measured: list[dict],
    kernel: list[list],
) -> BrowserControl:
    """Summaries of one control's changes; ``kernel`` pairs each change with its redraw
    ``[draw, png, cached]`` (empty when they could not be paired)."""
    control = BrowserControl(widget=name, lesson=lesson, control=label, kind=kind, refit=refit)
    pairs = [
        (m, k)
        for m, k in zip(measured, kernel or [None] * len(measured), strict=True)
        if not m.get("timeout")
    ]
    if len(pairs) < len(measured):
        control.note = f"{len(measured) - len(pairs)} change(s) brought no new picture in 15 s"
    if not pairs:
        return control

    def seconds(key: str) -> list[float]:
        return [m[key] / 1000 for m, _ in pairs]

    control.total = summarize(seconds("total"))
    control.to_picture = summarize(seconds("toPicture"))
    control.decode = summarize(seconds("decode"))
    control.frame = summarize(seconds("frame"))
    if kernel:
        control.kernel = summarize([k[0] + k[1] for _, k in pairs])
        control.messaging = summarize(
            [max(0.0, m["toPicture"] / 1000 - (k[0] + k[1])) for m, k in pairs]
        )
        drawn = [m["total"] / 1000 for m, k in pairs if not k[2]]
        control.drawn_share = len(drawn) / len(pairs)
        control.first_touch = summarize(drawn) if drawn else None
    return control
