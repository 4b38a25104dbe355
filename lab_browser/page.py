"""Drive one lesson in JupyterLab with Playwright: open, run all, check outputs, move controls.

Every wait here is bounded; a timeout names what it was waiting for and what it saw last.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # imported for type hints only, so this module loads without Playwright
    from playwright.sync_api import Locator, Page

    from .server import LabServer

OPEN_TIMEOUT_S = 90.0  # page load + kernel start on a busy 2-core machine
RUN_ALL_TIMEOUT_S = 240.0  # one lesson, top to bottom ("a few seconds" each, with a margin)
WIDGET_RENDER_TIMEOUT_S = 30.0
REDRAW_TIMEOUT_S = 30.0  # one control change → new image or text in the page
POLL_S = 0.25

WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
STDERR_MIME = "application/vnd.jupyter.stderr"
WIDGET_CLASS = "minimind-lab-widget"
# An error output (Lab renders it with the stderr mime type): a traceback, or the one-line
# "SyntaxError: ..." form IPython prints without a traceback.
ERROR_PATTERN = re.compile(r"Traceback|\b\w*(Error|Exception)\b:")
LOG_CONSOLE_STATUS = ".jp-LogConsoleStatusItem"
WIDGET_FAILURE_TEXTS = ("Error displaying widget", "Error rendering widget")

# The state of the open notebook, read in one go from the DOM.
_NOTEBOOK_STATE_JS = """
({stderrMime, widgetClass}) => {
  const panel = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden)');
  if (!panel) return null;
  const indicator = panel.querySelector('.jp-Notebook-ExecutionIndicator');
  const cells = [...panel.querySelectorAll('.jp-Notebook .jp-CodeCell')];
  let pending = 0, unexecuted = 0, nonEmpty = 0;
  for (const cell of cells) {
    const prompt = cell.querySelector('.jp-InputArea-prompt')?.textContent ?? '';
    const source = cell.querySelector('.cm-content')?.textContent ?? '';
    if (source.trim()) nonEmpty += 1;
    if (prompt.includes('*')) pending += 1;
    else if (source.trim() && !/\\[\\d+\\]/.test(prompt)) unexecuted += 1;
  }
  const stderrSelector = `.jp-OutputArea-output[data-mime-type="${stderrMime}"]`;
  const stderr = [...panel.querySelectorAll(stderrSelector)].map(node => node.textContent);
  return {
    status: indicator ? indicator.getAttribute('data-status') : null,
    kernel: panel.querySelector('.jp-Toolbar-kernelName')?.textContent?.trim() ?? '',
    dialog: document.querySelector('.jp-Dialog')?.textContent ?? null,
    codeCells: cells.length, nonEmpty, pending, unexecuted, stderr,
    text: panel.querySelector('.jp-Notebook')?.textContent ?? '',
    widgetViews: [...panel.querySelectorAll('.jp-OutputArea-output')].filter(output =>
      output.matches('.jupyter-widgets') || output.querySelector('.jupyter-widgets')).length,
    labWidgets: panel.querySelectorAll(`.${widgetClass}`).length,
    // A widget JupyterLab could not render as a widget shows its text repr, e.g. "VBox(children=".
    widgetsAsText: [...panel.querySelectorAll(
      '.jp-OutputArea-executeResult .jp-OutputArea-output[data-mime-type="text/plain"]')]
      .map(node => node.textContent).filter(text => /^\\w+\\(children=/.test(text)).length,
  };
}
"""

# What a lesson widget shows: every image source and every HTML text inside it.
_WIDGET_OUTPUT_JS = """
(root) => JSON.stringify([
  [...root.querySelectorAll('img')].map(img => img.getAttribute('src') || ''),
  [...root.querySelectorAll('.widget-html-content')].map(node => node.innerHTML),
])
"""


def stored_widget_outputs(notebook: Path) -> int:
    """How many widget views the notebook's stored outputs hold (its last clean run)."""
    cells = json.loads(notebook.read_text(encoding="utf-8")).get("cells", [])
    return sum(
        WIDGET_MIME in output.get("data", {})
        for cell in cells
        for output in cell.get("outputs", [])
    )


def notebook_state(page: Page) -> dict | None:
    """The open notebook's kernel status, pending/unexecuted cells, stderr outputs, widgets."""
    return page.evaluate(
        _NOTEBOOK_STATE_JS, {"stderrMime": STDERR_MIME, "widgetClass": WIDGET_CLASS}
    )


def _describe(state: dict | None) -> str:
    if state is None:
        return "no notebook panel in the page"
    shown = {key: value for key, value in state.items() if key != "text"}
    return json.dumps(shown)[:2000]


def wait_for(condition, what: str, timeout_s: float, page: Page) -> dict | None:
    """Poll ``condition(notebook_state)`` until true; raise TimeoutError naming ``what``."""
    deadline = time.monotonic() + timeout_s
    state = None
    while True:
        state = notebook_state(page)
        if state is not None and state["dialog"] is not None:
            raise AssertionError(f"a dialog opened while waiting for {what}: {state['dialog']!r}")
        if condition(state):
            return state
        if time.monotonic() > deadline:
            raise TimeoutError(
                f"waited {timeout_s:.0f} s for {what}; last state: {_describe(state)}"
            )
        page.wait_for_timeout(POLL_S * 1000)


def open_notebook(page: Page, server: LabServer, notebook: str) -> None:
    """Open ``notebook`` at /lab/tree/ (token in the URL) and wait until its kernel is idle.

    The page alone is not enough: before the kernel exists the toolbar shows "No Kernel" and an
    "idle" indicator, so the server must also list an idle kernel session for the notebook.
    """
    page.goto(server.url(f"/lab/tree/{notebook}"), timeout=OPEN_TIMEOUT_S * 1000)

    def kernel_ready(state: dict | None) -> bool:
        if state is None or state["status"] != "idle" or state["kernel"] in ("", "No Kernel"):
            return False
        status, sessions = server.api("GET", "/api/sessions")
        return status == 200 and any(
            Path(session["path"]).as_posix() == notebook
            and session["kernel"]["execution_state"] == "idle"
            for session in sessions
        )

    wait_for(kernel_ready, "the notebook to open with an idle kernel", OPEN_TIMEOUT_S, page)
    panels = page.locator(".jp-NotebookPanel").count()
    if panels != 1:
        raise AssertionError(f"expected only {notebook} open, found {panels} notebook tabs")


def click_menu(page: Page, menu: str, item: str) -> None:
    """Click ``menu`` in the menu bar, then ``item`` in it (as a user would)."""
    page.get_by_role("menuitem", name=menu, exact=True).click()
    page.get_by_role("menuitem", name=item, exact=True).click()


def run_all_cells(page: Page) -> dict:
    """Clear outputs, then Run → Run All Cells; wait until every cell ran or one failed."""
    click_menu(page, "Edit", "Clear Outputs of All Cells")
    wait_for(
        lambda s: s is not None and s["pending"] == 0 and s["unexecuted"] == s["nonEmpty"],
        "outputs and execution counts to clear",
        30.0,
        page,
    )
    click_menu(page, "Run", "Run All Cells")

    def finished(state: dict | None) -> bool:
        if state is None or state["status"] != "idle" or state["pending"]:
            return False
        failed = any(ERROR_PATTERN.search(text) for text in state["stderr"])
        return failed or state["unexecuted"] == 0

    return wait_for(finished, "Run All Cells to finish", RUN_ALL_TIMEOUT_S, page)


def error_outputs(state: dict) -> list[str]:
    """The stderr outputs that are errors (tracebacks), shortened for a failure message."""
    return [text[-1500:] for text in state["stderr"] if ERROR_PATTERN.search(text)]


def wait_for_widgets(page: Page, expected_views: int) -> dict:
    """Wait until at least ``expected_views`` widget views rendered and none is still loading."""

    def rendered(state: dict | None) -> bool:
        if state is not None and state["widgetsAsText"]:
            return True  # not rendered, and it will not be: widget_failures reports it
        return (
            state is not None
            and state["widgetViews"] >= expected_views
            and "Loading widget..." not in state["text"]
            and page.locator(f".{WIDGET_CLASS} img:is(:not([src]), [src=''])").count() == 0
        )

    what = (
        f"{expected_views} widget view(s) to render (without the ipywidgets lab extension"
        " JupyterLab shows widgets as text)"
    )
    return wait_for(rendered, what, WIDGET_RENDER_TIMEOUT_S, page)


def widget_failures(state: dict) -> list[str]:
    """Widget failure messages (e.g. "Error displaying widget") found in the notebook's text."""
    failures = [text for text in WIDGET_FAILURE_TEXTS if text in state["text"]]
    if state["widgetsAsText"]:
        failures.append(f"{state['widgetsAsText']} widget(s) shown as text, not rendered")
    return failures


def widget_output(widget: Locator) -> str:
    """A fingerprint of what ``widget`` shows (image sources and HTML texts)."""
    return widget.evaluate(_WIDGET_OUTPUT_JS)


def kernel_tracebacks(log: str) -> str:
    """The part of a server log from its first "Traceback" on ('' when there is none)."""
    start = log.find("Traceback")
    return log[start:][-3000:] if start >= 0 else ""


def log_console_count(page: Page) -> int:
    """The message count JupyterLab's status bar shows for the Log Console (0 when none)."""
    item = page.locator(LOG_CONSOLE_STATUS)
    if item.count() == 0:
        return 0
    text = item.first.inner_text().strip()
    return int(text) if text.isdigit() else 0


def read_log_console(page: Page) -> str:
    """Open the Log Console (click its status bar item) and return its text."""
    panel = page.locator(".jp-LogConsolePanel").first
    if not panel.is_visible():
        page.locator(LOG_CONSOLE_STATUS).first.click()
        panel.wait_for(state="visible", timeout=10_000)
    deadline = time.monotonic() + 10.0
    while not panel.inner_text().strip() and time.monotonic() < deadline:
        page.wait_for_timeout(POLL_S * 1000)
    return panel.inner_text()


class KernelErrorWatch:
    """Errors the kernel reports outside any cell, e.g. from a widget's draw callback.

    ipywidgets sends a callback's traceback as an error message that belongs to no cell, so
    JupyterLab puts it in its Log Console (the status bar counts it); errors that ipykernel only
    logs go to its stderr, which is the server's log. Both are watched.
    """

    def __init__(self, page: Page, server_log: Callable[[], str]) -> None:
        self.page = page
        self.server_log = server_log
        self.log_console = ""
        self._count_read = 0

    def errors(self) -> str:
        """The traceback(s) reported so far ('' when none)."""
        traceback = kernel_tracebacks(self.server_log())
        if traceback:
            return f"in the server/kernel log:\n{traceback}"
        count = log_console_count(self.page)
        if count and count != self._count_read:
            self._count_read = count
            self.log_console = read_log_console(self.page)
        if ERROR_PATTERN.search(self.log_console):
            return f"in JupyterLab's Log Console:\n{self.log_console[-3000:]}"
        return ""


def _wait_output_changed(widget: Locator, before: str, what: str, watch: KernelErrorWatch) -> None:
    """Wait for ``widget`` to show something new; fail at once if the kernel reports an error."""
    deadline = time.monotonic() + REDRAW_TIMEOUT_S
    while widget_output(widget) == before:
        errors = watch.errors()
        if errors:
            raise AssertionError(f"{what}: the kernel reported an error {errors}")
        if time.monotonic() > deadline:
            raise AssertionError(
                f"{what}: the widget's image and text did not change within "
                f"{REDRAW_TIMEOUT_S:.0f} s"
            )
        widget.page.wait_for_timeout(POLL_S * 1000)


def _move_slider(handle: Locator) -> str:
    """Press ArrowRight on a slider handle (ArrowLeft when at its maximum); return what moved."""
    now = float(handle.get_attribute("aria-valuenow") or "nan")
    top = float(handle.get_attribute("aria-valuemax") or "nan")
    key = "ArrowLeft" if now >= top else "ArrowRight"
    handle.focus()
    handle.press(key)
    after = handle.get_attribute("aria-valuenow")
    if after is not None and float(after) == now:
        raise AssertionError(f"slider handle did not move on {key} (value {now}, max {top})")
    return f"slider {now:g} -> {after} ({key})"


def _change_select(select: Locator) -> str | None:
    """Select the next option of a <select>; None when it has fewer than two options."""
    options = select.locator("option").all_inner_texts()
    if len(options) < 2:
        return None
    current = select.evaluate("node => node.selectedIndex")
    target = (current + 1) % len(options)
    select.select_option(index=target)
    return f"dropdown {options[current]!r} -> {options[target]!r}"


def _controls(widget: Locator) -> list[tuple[str, Locator]]:
    """Every control of a lesson widget, as (kind, locator), in page order."""
    found: list[tuple[str, Locator]] = []
    found += [("slider", handle) for handle in widget.locator(".noUi-handle").all()]
    found += [("select", select) for select in widget.locator("select").all()]
    found += [("checkbox", box) for box in widget.locator("input[type=checkbox]").all()]
    found += [
        ("toggle", group.locator("button:not(.mod-active)").first)
        for group in widget.locator(".widget-toggle-buttons").all()
    ]
    found += [
        ("radio", group.locator("input[type=radio]:not(:checked)").first)
        for group in widget.locator(".widget-radio-box").all()
    ]
    return found


def move_every_control(widget: Locator, label: str, watch: KernelErrorWatch) -> list[str]:
    """Move each control of ``widget`` once; after each, wait for its image or text to change."""
    moved = []
    controls = _controls(widget)
    if not controls:
        raise AssertionError(f"{label}: found no slider, dropdown, checkbox or button to move")
    for index, (kind, control) in enumerate(controls):
        control.scroll_into_view_if_needed()
        before = widget_output(widget)
        if kind == "slider":
            done = _move_slider(control)
        elif kind == "select":
            done = _change_select(control)
        else:
            control.click()
            done = f"{kind} clicked"
        if done is None:
            continue
        what = f"{label}, control {index + 1} ({done})"
        _wait_output_changed(widget, before, what, watch)
        moved.append(what)
    return moved
