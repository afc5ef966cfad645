"""The browser the report page is tested and measured in: the system's Chromium, driven by Playwright.

Playwright's own browser downloads are not used (CI machines may not reach them): ``chromium_path`` finds the
system's Chromium (``REFEREE_CHROMIUM``, then ``chromium``, ``chromium-browser``, ``google-chrome`` on the PATH),
and ``launch`` starts it headless with a fresh profile and with everything that could reach the network by itself
switched off. Playwright (a test dependency) is imported by the caller, not here.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
ARGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)


def chromium_path() -> str | None:
    """The Chromium binary to use, or None when there is none."""
    chosen = os.environ.get("REFEREE_CHROMIUM")
    if chosen:
        return chosen if Path(chosen).is_file() else None
    for name in NAMES:
        found = shutil.which(name)
        if found:
            return found
    return None


MISSING = "no Chromium binary for the browser tests (apt-get install chromium, or set REFEREE_CHROMIUM)"


def browser_for_tests() -> str | None:
    """The Chromium the browser tests drive, or None: they are skipped (with ``MISSING`` as the reason). Where
    ``REFEREE_REQUIRE_BROWSER`` is set (CI, ``.ci/run``) a missing browser is an error instead."""
    found = chromium_path()
    if found is None and os.environ.get("REFEREE_REQUIRE_BROWSER"):
        raise RuntimeError("REFEREE_REQUIRE_BROWSER is set and no Chromium binary was found (apt-get install chromium)")
    return found


def launch(playwright: Any, profile: Path, executable: str, **options: Any) -> Any:
    """A persistent browser context in a fresh profile folder (``playwright.chromium.launch_persistent_context``)."""
    return playwright.chromium.launch_persistent_context(
        str(profile), executable_path=executable, args=list(ARGS), headless=True, **options
    )
