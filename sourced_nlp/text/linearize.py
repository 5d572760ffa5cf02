"""Structured sources as text: :func:`linearize` turns a JSON value (a Yelp record, say) into
plain statements, one per line (:func:`sourced_nlp.text.sources.normalize_sources` calls it for
every source that is not a document; it is re-exported there).

Pure module (no spaCy).
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from .lexicons import load_lexicon

__all__ = ["linearize"]


# Key words whose capitalisation carries meaning and is kept when keys are split into words.
_KEEP_CASE = {
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
}
_WORD_RE = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+|[^\W\d_]+")
_TERMINAL = (".", "!", "?")
_MAPPING_KEYS = {"id", "text", "structured"}


def _key_words(key: Any) -> str:
    """Split a JSON key into words: ``"OutdoorSeating"`` -> ``"outdoor seating"``.

    camelCase, PascalCase, snake_case, kebab-case and spaces are split and lowercased; day and
    month names keep their capital; a key whose camel pieces are all at most two letters
    (``"WiFi"``) is kept as written.
    """
    key = str(key)
    words: list[str] = []
    for chunk in re.split(r"[\s_\-.]+", key.strip()):
        if not chunk:
            continue
        if _is_short_mixed(chunk):
            words.append(chunk)
        else:
            words.extend(_WORD_RE.findall(chunk) or [chunk])
    if not words:
        return key
    return " ".join(w if w in _KEEP_CASE or _is_short_mixed(w) else w.lower() for w in words)


def _is_short_mixed(word: str) -> bool:
    """A token like ``WiFi`` whose camel pieces are all at most two letters."""
    pieces = _WORD_RE.findall(word)
    return len(pieces) > 1 and all(len(p) <= 2 for p in pieces)


def _looks_like_literal(text: str) -> bool:
    t = text.strip()
    return len(t) >= 2 and ((t[0] == "{" and t[-1] == "}") or (t[0] == "[" and t[-1] == "]"))


def _parse_literal(text: str) -> Any:
    """Parse a string holding a Python-literal or JSON container; ``None`` when it is not one."""
    t = text.strip()
    try:
        return ast.literal_eval(t)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        pass
    try:
        return json.loads(t)
    except ValueError:
        return None


_IDENT_RE = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+")
_QUOTED_RE = re.compile(r"""^u?(['"])(.*)\1$""", re.DOTALL)


def _scalar(value: Any) -> str:
    """One scalar as statement text: booleans ``true``/``false``, null ``none``."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        m = _QUOTED_RE.match(value.strip())
        if m:  # Yelp stores some values as Python reprs: "u'free'", "'casual'"
            value = m.group(2)
        if _IDENT_RE.fullmatch(value.strip()):  # an enum identifier: "full_bar" -> "full bar"
            value = value.replace("_", " ")
        return " ".join(value.split())
    return str(value)


@lru_cache(maxsize=1)
def _value_words() -> dict[str, dict[str, str]]:
    """``models/records.json`` value words: ``{key words: {value: words}}``."""
    return load_lexicon("records")["value_words"]


def _statement(prefix: str, value_text: str) -> str:
    line = f"{prefix}: {value_text}" if prefix else value_text
    return line if line.endswith(_TERMINAL) else line + "."


def _join(prefix: str, word: str) -> str:
    return f"{prefix} {word}" if prefix else word


def _lines(value: Any, prefix: str) -> list[str]:
    if isinstance(value, str) and _looks_like_literal(value):
        parsed = _parse_literal(value)
        if isinstance(parsed, (dict, list, tuple)):
            value = parsed
    if isinstance(value, Mapping):
        if not value:
            return [_statement(prefix, "none")] if prefix else []
        out: list[str] = []
        for key, item in value.items():
            out.extend(_lines(item, _join(prefix, _key_words(key))))
        return out
    if isinstance(value, (list, tuple)):
        if not value:
            return [_statement(prefix, "none")] if prefix else []
        if all(not isinstance(v, (Mapping, list, tuple)) for v in value):
            return [_statement(prefix, ", ".join(_scalar(v) for v in value))]
        out = []
        for item in value:  # no position number: "review info 2 review stars: 4.0" reads as a value 2
            out.extend(_lines(item, prefix))
        return out
    text = _scalar(value)
    for key, words in _value_words().items():
        if (prefix == key or prefix.endswith(" " + key)) and text in words:
            text = f"{text} ({words[text]})"  # "price range 2: 2 (moderate, moderately priced)."
            break
    return [_statement(prefix, text)]


def linearize(value: Any, prefix: str = "") -> str:
    """Turn a structured JSON value into plain statements, one per line.

    Format (each line is one statement, ending with ``"."`` unless the value already ends
    with ``.``, ``!`` or ``?``)::

        {"name": "Joe's"}                          -> name: Joe's.
        {"hours": {"Monday": "17:0-21:0"}}         -> hours Monday: 17:0-21:0.
        {"attributes": {"OutdoorSeating": false}}  -> attributes outdoor seating: false.
        {"categories": "Pizza, Italian"}           -> categories: Pizza, Italian.
        {"tags": ["a", "b"]}                       -> tags: a, b.
        {"review_info": [{"review_text": "..."}]}  -> review info review text: ...
        {"Alcohol": "u'full_bar'"}                 -> alcohol: full bar.
        {"BusinessParking": "{'garage': False}"}   -> business parking garage: false.

    - Nested mapping keys are joined into a prefix of words; camelCase, PascalCase and
      snake_case keys are split into lowercase words (day and month names keep their capital,
      short mixed tokens such as ``WiFi`` are kept as written).
    - A list of scalars is one statement, its items joined with ``", "``; a list holding objects
      or lists gives one block of lines per item, in order, under the list's own prefix (no
      position number: a number in a line would be read as one of its values).
    - Scalars: ``true``/``false`` for booleans, ``none`` for null, a lower-case identifier's
      underscores as spaces (``full_bar`` -> ``full bar``) (and for an empty object or
      list under a key), numbers as Python ``str``; whitespace runs inside strings (including
      newlines) become one space, so a statement never spans lines.
    - A coded value whose meaning ``models/records.json`` gives in words is followed by them:
      ``{"RestaurantsPriceRange2": "2"}`` -> ``restaurants price range 2: 2 (moderate, moderately
      priced, mid-range).``
    - A string that holds a Python-literal or JSON object/list (Yelp stores
      ``"{'garage': False, ...}"``) is parsed with :func:`ast.literal_eval` (then ``json``) and
      linearised; a quoted repr such as ``"u'free'"`` becomes ``free``.

    Args:
        value: any JSON value (dict, list, str, number, bool, None).
        prefix: words put before every statement (used for nesting).

    Returns:
        The statements joined with ``"\\n"`` ("" for an empty object or list at the top).
    """
    return "\n".join(_lines(value, prefix))
