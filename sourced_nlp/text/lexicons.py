"""Loading of the lexicon data files under ``models/``.

Every word list the components use (negation cues, units, antonym pairs, aliases, hedges,
abbreviations) is a JSON file under ``models/`` with a ``"_source"`` key that says where its
entries come from. Components name their lexicon in their config, so a user can point a
component at a file of their own (``config={"lexicon": "/path/to/my_negation.json"}``).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from pathlib import Path
from typing import Any


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
    import importlib.resources

    import srsly  # here, not at import: it loads numpy (~0.25 s)

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


def lexicon_data(lexicon: str | Mapping[str, Any]) -> dict[str, Any]:
    """A lexicon's data: ``lexicon`` itself when it is already a mapping (a lexicon read back by
    ``from_disk``), else :func:`load_lexicon` of the name or path."""
    return dict(lexicon) if isinstance(lexicon, Mapping) else load_lexicon(lexicon)


def is_bundled(ref: str) -> bool:
    """Whether ``ref`` names a lexicon of ``models/`` (``"negation"``, ``"negation.json"``)
    rather than a file of the user's (a path with a folder, or a name that is no bundled file)."""
    path = Path(ref)
    if path.parent != Path(".") or path.is_file():
        return False
    name = path.name if path.suffix == ".json" else path.name + ".json"
    import importlib.resources

    return (importlib.resources.files("sourced_nlp.models") / name).is_file()


class LexiconComponent:
    """Serialisation for a component whose one state is its lexicon (spaCy's ``to_disk`` /
    ``from_disk`` / ``to_bytes`` / ``from_bytes``).

    A bundled lexicon is named in the config and read from ``models/`` again on load. A lexicon
    given as a path is written by ``to_disk`` (``<component>/lexicon.json``) and ``to_bytes``, so
    a saved pipeline loads with ``spacy.load`` where the file is gone: while the pipeline is
    built, a lexicon that cannot be found is left for ``from_disk`` to fill, and the component
    raises its :class:`FileNotFoundError` (naming it) when it is run without one.

    Subclasses call :meth:`_init_lexicon` from ``__init__``, implement :meth:`_use_lexicon`
    (build their tables from the data) and call :meth:`_require_lexicon` before their work.
    """

    lexicon_ref: str
    lexicon: dict[str, Any] | None = None
    _lexicon_error: FileNotFoundError | None = None

    def _init_lexicon(self, ref: str) -> None:
        self.lexicon_ref = ref
        try:
            data = load_lexicon(ref)
        except FileNotFoundError as err:
            self._lexicon_error = err  # from_disk may bring it; else raised when the component runs
            return
        self._set_lexicon(data)

    def _set_lexicon(self, data: dict[str, Any]) -> None:
        self.lexicon = data
        self._lexicon_error = None
        self._use_lexicon(data)

    def _use_lexicon(self, data: dict[str, Any]) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def _require_lexicon(self) -> None:
        """Raise the :class:`FileNotFoundError` of a path lexicon that was never found."""
        if self._lexicon_error is not None:
            raise self._lexicon_error

    def _own_lexicon(self) -> dict[str, Any] | None:
        """The data to write: a lexicon given as a path (a bundled one is named in the config)."""
        return None if self.lexicon is None or is_bundled(self.lexicon_ref) else self.lexicon

    def to_disk(self, path, *, exclude=tuple()) -> None:  # noqa: D102
        import srsly

        data = self._own_lexicon()
        if data is not None:
            path = Path(path)
            path.mkdir(parents=True, exist_ok=True)
            srsly.write_json(path / "lexicon.json", data)

    def from_disk(self, path, *, exclude=tuple()):  # noqa: D102
        import srsly

        file = Path(path) / "lexicon.json"
        if file.is_file():
            self._set_lexicon(srsly.read_json(file))
        return self

    def to_bytes(self, *, exclude=tuple()) -> bytes:  # noqa: D102
        import srsly

        return srsly.msgpack_dumps({"lexicon": self._own_lexicon()})

    def from_bytes(self, data: bytes, *, exclude=tuple()):  # noqa: D102
        import srsly

        lex = srsly.msgpack_loads(data).get("lexicon")
        if lex is not None:
            self._set_lexicon(lex)
        return self
