"""Fixtures for the browser suite: one JupyterLab server and one headless Chromium per session.

The server is the project's own (``run.lab_arguments``) on copies of the lessons; see
``lab_browser.server``. Chromium comes from ``$MINIMIND_LAB_CHROMIUM`` or the ``PATH``
(Debian's ``/usr/bin/chromium``); Playwright drives it, since its own browser download is not
needed. Without Chromium or Playwright the browser tests skip, saying how to install them, unless
``MINIMIND_LAB_REQUIRE_BROWSER=1`` (CI sets it), which turns the skip into a failure. That rule
lives in ``lab_browser.availability``, which ``python -m benchmarks`` uses too.
``MINIMIND_LAB_BROWSER_NOTEBOOKS=/some/folder`` runs the suite on that folder's notebooks instead
of ``notebooks/`` (for trying the suite itself on throwaway notebooks).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from lab_browser import CHROMIUM_ARGS, VIEWPORT
from lab_browser.availability import (
    REQUIRED_NOTE,
    browser_required,
    find_chromium,
    why_no_browser,
)
from lab_browser.server import (
    ROOT,
    LabServer,
    lesson_notebooks,
    start_lab_server,
    stop_lab_server,
)

ARTIFACTS = ROOT / "test-artifacts" / "browser"


def skip_or_fail(message: str) -> None:
    """Skip with ``message`` (reason and install advice); fail when the browser is required."""
    if browser_required():
        pytest.fail(f"{message} {REQUIRED_NOTE}")
    pytest.skip(message)


@pytest.fixture(scope="session")
def chromium_executable() -> str:
    """Chromium's path; skips (or fails, when required) without Chromium or Playwright."""
    message = why_no_browser()
    if message is not None:
        skip_or_fail(message)
    return find_chromium()


@pytest.fixture(scope="session")
def lab_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LabServer]:
    """The project's JupyterLab on copies of every lesson, stopped (kernels too) at the end."""
    server = start_lab_server(lesson_notebooks(), tmp_path_factory.mktemp("jupyterlab"))
    try:
        yield server
    finally:
        stop_lab_server(server)


@pytest.fixture(scope="session")
def browser(chromium_executable: str) -> Iterator[object]:
    """One headless Chromium for the session, driven by Playwright."""
    from playwright.sync_api import sync_playwright  # present: chromium_executable checked

    playwright = sync_playwright().start()
    try:
        chromium = playwright.chromium.launch(
            executable_path=chromium_executable, headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield chromium
        finally:
            chromium.close()
    finally:
        playwright.stop()


@pytest.fixture(scope="session")
def browser_context(browser) -> Iterator[object]:
    """One browser context for the session, so JupyterLab's scripts load from cache after the
    first lesson; each lesson still gets its own page."""
    context = browser.new_context(viewport=VIEWPORT)
    try:
        yield context
    finally:
        context.close()


@pytest.fixture
def lesson_page(browser_context, lab_server: LabServer) -> Iterator[object]:
    """A new page for one lesson; afterwards its kernel and the saved workspace are removed."""
    page = browser_context.new_page()
    page.set_default_timeout(30_000)
    page_errors: list[str] = []
    page.on("pageerror", lambda error: page_errors.append(str(error)))
    try:
        yield page
    finally:
        if page_errors:  # shown with the test's captured output when it fails
            print("JavaScript errors in the page:", *page_errors, sep="\n  ")
        page.close()
        lab_server.shutdown_sessions()
        lab_server.delete_workspaces()


@pytest.fixture(scope="session")
def artifacts_dir() -> Path:
    """``test-artifacts/browser`` (git-ignored): screenshots of each lesson after interaction."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
