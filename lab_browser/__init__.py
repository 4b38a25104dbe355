"""Drive JupyterLab in headless Chromium: the lab server, the page, and whether a browser is here.

Shared by the browser test suite (``tests/browser``) and the benchmarks (``python -m
benchmarks``), so neither imports the other. Not part of the ``minimind_lab`` package: it needs
Playwright, psutil and a Chromium, which the lessons do not.

* ``availability``: find Chromium and Playwright, and the one rule for a missing browser (skip and
  say how to install it; fail when ``MINIMIND_LAB_REQUIRE_BROWSER=1``, as in CI);
* ``server``: start and stop the project's own JupyterLab (``run.py``'s arguments) on copies of
  the lessons; ``lesson_notebooks`` reads the lesson registry;
* ``page``: open a notebook, run all cells, wait for widgets, drive a control.
"""

#: Chromium's switches for a headless run in a container (no sandbox, no GPU, no network chatter).
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
#: The page size every browser run uses, so screenshots and layouts compare.
VIEWPORT = {"width": 1400, "height": 1000}
