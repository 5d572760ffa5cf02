"""Loading of the lexicon data files under ``models/``.

Every word list the components use (negation cues, units, antonym pairs, aliases, hedges,
abbreviations) is a JSON file under ``models/`` with a ``"_source"`` key that says where its
entries come from. Components name their lexicon in their config, so a user can point a
component at a file of their own (``config={"lexicon": "/path/to/my_negation.json"}``).
"""

from __future__ import annotations

import functools
import importlib.resources
from pathlib import Path
from typing import Any

import srsly


@functools.lru_cache(maxsize=64)
def load_lexicon(ref: str) -> dict[str, Any]:
    """Load a lexicon by bundled name or by path.

    Args:
        ref: a bundled name (``"negation"`` or ``"negation.json"``, a file in ``models/``) or
            the path of a JSON file.

    Returns:
        The parsed JSON object (a dict). Cached: the same ``ref`` is read once per process.

    Raises:
        FileNotFoundError: neither a bundled lexicon nor an existing file.
        ValueError: the file does not hold a JSON object.
    """
    path = Path(ref)
    if path.suffix != ".json":
        path = path.with_suffix(".json")
    if path.is_file():
        data = srsly.read_json(path)
    else:
        bundled = importlib.resources.files("sourced_nlp.models") / path.name
        if not bundled.is_file():
            raise FileNotFoundError(f"no lexicon {ref!r}: not a bundled lexicon and no such file")
        data = srsly.json_loads(bundled.read_text(encoding="utf8"))
    if not isinstance(data, dict):
        raise ValueError(f"lexicon {ref!r} must hold a JSON object")
    return data
