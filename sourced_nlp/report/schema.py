"""The shape check of a saved ``sourced.report/1`` report (:meth:`Report.from_dict` runs it).

Pure module (no spaCy). :func:`validate_report` names the first field that
is missing or of the wrong type, as ``malformed report: claims[0].start must be an integer, got
string``; the shape is the one of :mod:`sourced_nlp.report`'s docstring.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .marks import VERDICTS

__all__ = ["json_type", "validate_report"]


def json_type(value: Any) -> str:
    """The JSON name of a value's type, for messages: object, array, string, ..."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, Mapping):
        return "object"
    if isinstance(value, (list, tuple)):
        return "array"
    return "string" if isinstance(value, str) else type(value).__name__


def _is_int(value: Any) -> bool:
    return (isinstance(value, int) and not isinstance(value, bool)) or (
        isinstance(value, float) and value.is_integer())


_KINDS = {
    "string": lambda v: isinstance(v, str),
    "integer": _is_int,
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "array": lambda v: isinstance(v, (list, tuple)),  # a tuple: a report back from a DocBin
    "object": lambda v: isinstance(v, Mapping),
    "source id": lambda v: isinstance(v, (str, int)) and not isinstance(v, bool),
}


def _field(obj: dict, key: str, where: str, kind: str, required: bool = True) -> None:
    """Check ``obj[key]`` is of ``kind`` (a key of ``_KINDS``); a missing (or, when not
    ``required``, null) value passes only when not ``required``."""
    name = f"{where}.{key}" if where else key
    if key not in obj:
        if required:
            raise ValueError(f"malformed report: {where or 'the report'} has no {key!r}")
        return
    value = obj[key]
    if value is None and not required:
        return
    if not _KINDS[kind](value):
        article = "an" if kind[0] in "aeiou" else "a"
        raise ValueError(f"malformed report: {name} must be {article} {kind}, got {json_type(value)}")


def _objects(obj: dict, key: str, where: str, required: bool = True) -> list[tuple[str, dict]]:
    """The items of the array ``obj[key]``, each checked to be an object, with their names."""
    _field(obj, key, where, "array", required)
    name = f"{where}.{key}" if where else key
    items = obj.get(key) or []
    for i, item in enumerate(items):
        if not isinstance(item, Mapping):
            raise ValueError(f"malformed report: {name}[{i}] must be an object, got {json_type(item)}")
    return [(f"{name}[{i}]", item) for i, item in enumerate(items)]


def validate_report(d: dict) -> None:
    """Raise ValueError ``malformed report: ...`` naming the first field of a saved report
    that is missing or of the wrong type (the shape of the module docstring)."""
    _field(d, "answer", "", "string", required=False)
    _objects(d, "sources", "")
    for where, c in _objects(d, "claims", ""):
        _field(c, "text", where, "string")
        _field(c, "start", where, "integer")
        _field(c, "end", where, "integer")
        _field(c, "verdict", where, "string")
        if c["verdict"] not in VERDICTS:
            raise ValueError(f"malformed report: {where}.verdict {c['verdict']!r} is none of {', '.join(VERDICTS)}")
        _field(c, "reason", where, "string", required=False)
        _field(c, "support", where, "number", required=False)
        _field(c, "citation_status", where, "string", required=False)
        _field(c, "rule", where, "string", required=False)
        _field(c, "meaning", where, "object", required=False)
        if isinstance(c.get("meaning"), Mapping):
            _field(c["meaning"], "model", f"{where}.meaning", "string")
            _field(c["meaning"], "version", f"{where}.meaning", "string")
            _field(c["meaning"], "score", f"{where}.meaning", "number")
        for ew, e in _objects(c, "evidence", where, required=False):
            _field(e, "source", ew, "source id")
            _field(e, "start", ew, "integer")
            _field(e, "end", ew, "integer")
            _field(e, "text", ew, "string")
        _objects(c, "differs", where, required=False)
        _objects(c, "citations", where, required=False)
    for where, s in _objects(d, "skipped", ""):
        _field(s, "text", where, "string")
        _field(s, "start", where, "integer")
        _field(s, "end", where, "integer")
        _field(s, "kind", where, "string")
    for where, f in _objects(d, "findings", "", required=False):
        _field(f, "kind", where, "string")
        _field(f, "severity", where, "string")
    _field(d, "counts", "", "object", required=False)
