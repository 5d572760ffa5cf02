"""The record of one check: ``{"id"?, "answer" (or "output"), "sources"}``, the shape of a
``sourced batch`` line, a ``--json-input`` file, a fixture and a mapping given to
``check_many``.

Pure module (no spaCy). :func:`record_parts` is the one place that knows the record's keys;
each reader (``check_many``, ``sourced batch`` and ``--json-input``, ``sourced eval fixtures``)
takes its parts from it and refuses what it cannot use in its own words.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

__all__ = ["ANSWER_KEYS", "RecordParts", "record_parts", "is_record"]

#: the keys that may hold the answer, the first winning when both are given
ANSWER_KEYS = ("answer", "output")


class RecordParts(NamedTuple):
    """The parts of a record mapping, unchecked (each reader checks their types)."""

    id: Any
    """The record's ``"id"``, or None."""
    key: str | None
    """The key that holds the answer: ``"answer"`` (also when both are given), ``"output"``,
    or None when neither is given."""
    answer: Any
    """The value under :attr:`key` (None when missing, or null)."""
    sources: Any
    """The value under ``"sources"`` (None when missing, or null)."""
    has_sources: bool
    """``"sources"`` is a key of the record (its value may be null)."""
    both: bool
    """Both ``"answer"`` and ``"output"`` are keys of the record."""


def record_parts(value: Mapping) -> RecordParts:
    """The parts of the record ``value`` (a mapping; any other value is the caller's to refuse).

    Returns:
        :class:`RecordParts` ``(id, key, answer, sources, has_sources, both)``.
    """
    key = next((k for k in ANSWER_KEYS if k in value), None)
    return RecordParts(
        id=value.get("id"),
        key=key,
        answer=value.get(key) if key is not None else None,
        sources=value.get("sources"),
        has_sources="sources" in value,
        both=all(k in value for k in ANSWER_KEYS),
    )


def is_record(value: Any) -> bool:
    """``value`` is a mapping with sources and an answer key: a whole record (what an ANSWER
    file must not be)."""
    if not isinstance(value, Mapping):
        return False
    parts = record_parts(value)
    return parts.has_sources and parts.key is not None
