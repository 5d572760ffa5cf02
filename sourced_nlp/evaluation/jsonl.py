"""Reading the JSONL and JSON files of ``sourced eval``: every problem is one
:class:`~sourced_nlp.text.sources.SourceError` naming the file (and the line)."""

from __future__ import annotations

import json
from typing import Any, Iterator

from ..errors import SourceError
from ..files import read_file_bytes


def read_text(path: str, what: str) -> str:
    """The UTF-8 text of ``path`` (a leading BOM dropped).

    Raises:
        SourceError: ``"<what> not found: PATH"``, a directory, unreadable, or not UTF-8.
    """
    data = read_file_bytes(path, what)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise SourceError(f"{path}: not UTF-8 text (invalid byte at offset {err.start})") from err


def iter_jsonl(path: str, what: str) -> Iterator[tuple[int, Any]]:
    """``(line number, value)`` for every non-blank line of a JSONL file, numbered from 1.

    Raises:
        SourceError: the file cannot be read (:func:`read_text`), a line is not JSON
            (``"PATH: line N: malformed JSON: ..."``), or the file holds no line at all.
    """
    text = read_text(path, what)
    seen = False
    for n, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        seen = True
        try:
            value = json.loads(line)
        except json.JSONDecodeError as err:
            raise SourceError(f"{path}: line {n}: malformed JSON: {err.msg} at column {err.colno}") from err
        except RecursionError:
            raise SourceError(f"{path}: line {n}: malformed JSON: nested too deeply to read") from None
        yield n, value
    if not seen:
        raise SourceError(f"no records in {what} {path}")


def read_json(path: str, what: str) -> Any:
    """One JSON value from ``path``.

    Raises:
        SourceError: unreadable (:func:`read_text`), empty, or malformed JSON, naming the file.
    """
    text = read_text(path, what)
    if not text.strip():
        raise SourceError(f"{what} {path} is empty")
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise SourceError(f"{path}: malformed JSON: {err.msg} at line {err.lineno} column {err.colno}") from err
    except RecursionError:
        raise SourceError(f"{path}: malformed JSON: nested too deeply to read") from None


def dumps(value: Any) -> str:
    """Deterministic one-line JSON: sorted keys, UTF-8 text kept."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False)
