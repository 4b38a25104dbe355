"""Whether the browser parts can run here: the one rule the browser suite and the benchmarks use.

The browser parts need Chromium (``$MINIMIND_LAB_CHROMIUM``, else the first Chromium/Chrome on
the ``PATH``, e.g. Debian's ``/usr/bin/chromium``) and Playwright, which drives it (its own browser
download is not needed). Without them the browser parts are skipped, saying why and how to get
them, unless ``MINIMIND_LAB_REQUIRE_BROWSER=1`` (CI sets it): then a missing browser is a failure.
No pytest here, so ``python -m benchmarks`` can ask the same question.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
from pathlib import Path

CHROMIUM_ENV = "MINIMIND_LAB_CHROMIUM"
REQUIRE_ENV = "MINIMIND_LAB_REQUIRE_BROWSER"
CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
HOW_TO_INSTALL = (
    "install Chromium (`sudo apt-get install chromium` on Debian/Ubuntu) or set "
    f"{CHROMIUM_ENV}=/path/to/chrome; Playwright comes with `python3 run.py test`"
)
#: Appended to the reason when the browser is required, so the failure says why it is one.
REQUIRED_NOTE = f"({REQUIRE_ENV}=1, so this is a failure, not a skip)"


def find_chromium() -> str | None:
    """``$MINIMIND_LAB_CHROMIUM`` if it names a file, else the first Chromium/Chrome on PATH."""
    configured = os.environ.get(CHROMIUM_ENV)
    if configured:
        return configured if Path(configured).is_file() else None
    for name in CHROMIUM_NAMES:
        found = shutil.which(name)
        if found:
            return found
    return None


def browser_required() -> bool:
    """True when ``MINIMIND_LAB_REQUIRE_BROWSER=1``: a missing browser fails instead of skipping."""
    return os.environ.get(REQUIRE_ENV) == "1"


def why_no_browser() -> str | None:
    """Why the browser parts cannot run here, with how to fix it; ``None`` when they can.

    Chromium is checked first, then Playwright (found, not imported).
    """
    if find_chromium() is None:
        configured = os.environ.get(CHROMIUM_ENV)
        reason = (
            f"no Chromium found: {CHROMIUM_ENV}={configured} is not a file"
            if configured
            else "no Chromium found on PATH"
        )
    elif importlib.util.find_spec("playwright") is None:
        reason = "Playwright is not installed"
    else:
        return None
    return f"{reason}: {HOW_TO_INSTALL}"
