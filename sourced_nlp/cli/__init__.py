"""The ``sourced`` command line: the commands (:mod:`.commands`: check, cite, fields, batch,
calibrate; :mod:`.eval`: eval and audit), the judge and meaning options they share
(:mod:`.judge`, :mod:`.meaning`), the outputs a command refuses (:mod:`.outputs`), how the
process ends on a signal or a closed pipe (:mod:`.signals`, :mod:`.stdout`) and the console
script (:mod:`.console`).

The top of the package: it may import every other part, and nothing imports it. This module
imports nothing at all, so that ``sourced --version`` and ``--help`` stay off spaCy;
``from sourced_nlp.cli import app, main`` reads :mod:`.commands` on first use (PEP 562).
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any


def __getattr__(name: str) -> Any:
    """A submodule (``sourced_nlp.cli.eval``), or a name of :mod:`.commands`, on first use.

    Raises:
        AttributeError: neither.
    """
    if not name.startswith("__") and importlib.util.find_spec(f"{__name__}.{name}") is not None:
        return importlib.import_module(f".{name}", __name__)
    commands = importlib.import_module(".commands", __name__)
    try:
        return getattr(commands, name)
    except AttributeError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
