"""The shape check of a saved ``sourced.report/1`` report, read from the dataclasses that
define the report (:mod:`sourced_nlp.report.data`): :func:`check_shape` walks a dataclass's
fields, so a field added there is checked here with no second list to keep.

Pure module (no spaCy). The check names the first field that is missing or of the wrong type, as
``malformed report: claims[0].start must be an integer, got string``.
:func:`~sourced_nlp.report.model.validate_report` (also importable from here, as before) runs it
over a whole report.

What a field's type says (``str``, ``int``, ``float``, ``dict``, ``list[...]``, ``... | None``)
is read from its annotation; what it does not say is in the field's ``metadata``:

- ``"required"``: the key must be present (default: the field has no default);
- ``"kind"``: a kind of :data:`KINDS` other than the annotation's (``"source id"``);
- ``"one_of"``: the values allowed (a verdict);
- ``"keys"``: ``{key: kind}`` a mapping (or each mapping of a list) must hold.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

__all__ = ["json_type", "check_shape", "check_field", "KINDS"]


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
    return (isinstance(value, int) and not isinstance(value, bool)) or (isinstance(value, float) and value.is_integer())


#: a JSON kind -> whether a value is of it
KINDS = {
    "string": lambda v: isinstance(v, str),
    "integer": _is_int,
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "array": lambda v: isinstance(v, (list, tuple)),  # a tuple: a report back from a DocBin
    "object": lambda v: isinstance(v, Mapping),
    "source id": lambda v: isinstance(v, (str, int)) and not isinstance(v, bool),
}


def check_field(obj: dict, key: str, where: str, kind: str, required: bool = True) -> None:
    """Check ``obj[key]`` is of ``kind`` (a key of :data:`KINDS`); a missing (or, when not
    ``required``, null) value passes only when not ``required``.

    Raises:
        ValueError: ``malformed report: ...`` naming ``where.key``.
    """
    name = f"{where}.{key}" if where else key
    if key not in obj:
        if required:
            raise ValueError(f"malformed report: {where or 'the report'} has no {key!r}")
        return
    value = obj[key]
    if value is None and not required:
        return
    if not KINDS[kind](value):
        article = "an" if kind[0] in "aeiou" else "a"
        raise ValueError(f"malformed report: {name} must be {article} {kind}, got {json_type(value)}")


def _objects(obj: dict, key: str, where: str, required: bool = True) -> list[tuple[str, dict]]:
    """The items of the array ``obj[key]``, each checked to be an object, with their names."""
    check_field(obj, key, where, "array", required)
    name = f"{where}.{key}" if where else key
    items = obj.get(key) or []
    for i, item in enumerate(items):
        if not isinstance(item, Mapping):
            raise ValueError(f"malformed report: {name}[{i}] must be an object, got {json_type(item)}")
    return [(f"{name}[{i}]", item) for i, item in enumerate(items)]


_KIND_OF = {str: "string", int: "integer", float: "number", dict: "object", list: "array"}


@lru_cache(maxsize=None)
def _spec(cls: type) -> tuple[tuple[str, str, bool, Any, dict], ...]:
    """``(name, kind, required, item dataclass or None, metadata)`` per field of ``cls``, in order."""
    hints = typing.get_type_hints(cls)
    out = []
    for f in dataclasses.fields(cls):
        tp = hints[f.name]
        if isinstance(tp, types.UnionType) or typing.get_origin(tp) is typing.Union:
            tp = next(a for a in typing.get_args(tp) if a is not type(None))
        origin = typing.get_origin(tp) or tp
        item = next(iter(typing.get_args(tp)), None) if origin is list else None
        required = f.metadata.get(
            "required", f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        )
        kind = f.metadata.get("kind") or _KIND_OF[origin]
        out.append((f.name, kind, required, item if dataclasses.is_dataclass(item) else None, dict(f.metadata)))
    return tuple(out)


def _keys(obj: Mapping, keys: Mapping[str, str], where: str) -> None:
    for key, kind in keys.items():
        check_field(obj, key, where, kind)


def check_shape(obj: Mapping, cls: type, where: str = "") -> None:
    """Check the mapping ``obj`` against the JSON shape of the dataclass ``cls``, field by field
    in the order ``cls`` declares them (its items too, for a ``list`` of a dataclass or with
    ``"keys"``; see the module docstring).

    Args:
        obj: the mapping (a saved report, or one of its parts).
        cls: the dataclass whose fields give the shape.
        where: the path of ``obj`` in the report (``"claims[0]"``), ``""`` for the report.

    Raises:
        ValueError: ``malformed report: ...`` naming the first field that is missing, of the
            wrong type, or not one of the values allowed.
    """
    for name, kind, required, item, meta in _spec(cls):
        if kind == "array":
            for iw, value in _objects(obj, name, where, required):
                if item is not None:
                    check_shape(value, item, iw)
                elif "keys" in meta:
                    _keys(value, meta["keys"], iw)
            continue
        check_field(obj, name, where, kind, required)
        value = obj.get(name)
        path = f"{where}.{name}" if where else name
        if "one_of" in meta and name in obj and value not in meta["one_of"]:
            raise ValueError(f"malformed report: {path} {value!r} is none of {', '.join(meta['one_of'])}")
        if "keys" in meta and isinstance(value, Mapping):
            _keys(value, meta["keys"], path)


def __getattr__(name: str):
    """:func:`validate_report`, now in :mod:`sourced_nlp.report.data` beside the dataclasses it
    reads, under its old path for one release (see :mod:`sourced_nlp._compat`)."""
    from .._compat import moved_name

    return moved_name(__name__, name)
