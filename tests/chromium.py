"""The system Chromium the browser tests drive (``tests/report/test_browser.py``,
``tests/cli/test_serve_browser.py``): ``$CHROMIUM`` first, then Debian's ``/usr/bin/chromium``, then
whatever ``chromium`` or ``chromium-browser`` is on the PATH."""

from __future__ import annotations

import os
import shutil


def find_chromium() -> str | None:
    """The path of an executable Chromium, or None."""
    for candidate in (
        os.environ.get("CHROMIUM"),
        "/usr/bin/chromium",
        shutil.which("chromium"),
        shutil.which("chromium-browser"),
    ):
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return None
