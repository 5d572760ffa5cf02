"""A long source in parts: where a text longer than one parse is cut.

spaCy reads at most ``nlp.max_length`` characters at once (1,000,000 by default), and the
memory of a parse grows with the text it holds. ``sourced_verify`` therefore parses a source
longer than :data:`PART_CHARS` (or than ``nlp.max_length``, when that is smaller) in parts cut
by :func:`split_parts`, one after the other, and shifts every offset of the parts' passage
records by the part's start (:func:`shift_passage`): evidence offsets stay into the source as
given. A source no longer than a part is parsed whole, as one text, exactly as before.
"""

from __future__ import annotations

import re

from ..text.sources import MAX_SOURCE_CHARS

__all__ = ["PART_CHARS", "MAX_SOURCE_CHARS", "split_parts", "shift_passage"]

#: the most characters of a source parsed at once; a longer source is parsed in parts (the
#: longest source checked at all is :data:`~sourced_nlp.text.sources.MAX_SOURCE_CHARS`)
PART_CHARS = 100_000

# Where a part may end, best first; each cut falls after the match (its spaces included), so a
# part ends with the break and the next one starts with text. Searched in the second half of a
# part's window only, so that no part is shorter than half a part (but the last one).
_BREAKS = (
    re.compile(r"\n[^\S\n]*\n\s*"),  # a paragraph break (a blank line)
    re.compile(r"[.!?:;][\"'\u201d\u2019)\]]*[^\S\n]*\n\s*"),  # a line that ends a sentence
    re.compile(r"\n\s*"),  # any line break
    re.compile(r"[.!?][\"'\u201d\u2019)\]]*\s+"),  # a sentence end inside a line
    re.compile(r"\s+"),  # between two words
)


def split_parts(text: str, size: int = PART_CHARS) -> list[tuple[int, str]]:
    """Cut ``text`` into consecutive parts of at most ``size`` characters.

    A part ends at the last paragraph break of its window when its second half holds one, else
    at the last line that ends a sentence, any line break, sentence end, then space between two
    words; only a run of more than ``size / 2`` characters without a space is cut inside it.

    Args:
        text: the text (a source).
        size: the most characters of a part (>= 2).

    Returns:
        ``[(start, part), ...]``: each part with its start offset in ``text``; the parts joined
        are ``text``. A text no longer than ``size`` is one part, ``[(0, text)]``.

    Raises:
        ValueError: ``size`` below 2.
    """
    if size < 2:
        raise ValueError(f"split_parts: a part of {size} characters is too small (at least 2)")
    if len(text) <= size:
        return [(0, text)]
    parts: list[tuple[int, str]] = []
    start = 0
    while len(text) - start > size:
        cut = _cut(text, start, start + size)
        parts.append((start, text[start:cut]))
        start = cut
    parts.append((start, text[start:]))
    return parts


def _cut(text: str, start: int, stop: int) -> int:
    """The end of the part that starts at ``start`` and may run to ``stop`` (see :func:`split_parts`)."""
    low = start + (stop - start) // 2
    for pattern in _BREAKS:
        last = None
        for last in pattern.finditer(text, low, stop):  # noqa: B007  (the last match is kept)
            pass
        if last is not None and last.end() > start:
            return last.end()
    return stop


def shift_passage(record: dict, offset: int, i: int) -> dict:
    """A passage record of a part (:mod:`sourced_nlp.components.passages`) as one of the whole
    source: its ``start``/``end`` and its entity anchors' ``start``/``end``/``also_at`` moved by
    ``offset`` (the part's start, characters), its position ``i`` in the whole source's list.
    The other offsets of a record (``denied``) count from the passage's own start and stay.
    Returns a new record; ``record`` is not changed."""
    entities = []
    for a in record["entities"]:
        a = dict(a, start=a["start"] + offset, end=a["end"] + offset) if "start" in a else dict(a)
        if "also_at" in a:
            a["also_at"] = [at + offset for at in a["also_at"]]
        entities.append(a)
    return dict(record, i=i, start=record["start"] + offset, end=record["end"] + offset, entities=entities)
