"""A source passage as the verdict sees it: its feature record and what the index derived from it."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..text.quantity import Quantity
from .types import Anchor, FeatureRecord, QuantityRecord


@dataclass
class Passage:
    """A source passage: its feature record plus the source it belongs to.

    ``negated``: the passage denies what it states: a negation cue on its predicate, or — for a
    line of a record — a false value (``false``/``no``/``none``: "attributes outdoor seating:
    false."). ``lemmas``/``joined``/``prefixes``: its words (see
    :class:`~sourced_nlp.verdict.index.PassageIndex`); ``keys``/``own_keys``: its names;
    ``structured``: a line of a record, ``head`` that record's first line, ``value`` the line's
    one-word value, ``text_of`` the line that opened the review it belongs to, ``stars`` that
    review's stars; ``prev``: the passage before it in its source.
    """

    source: str
    f: FeatureRecord
    quantities: list[tuple[QuantityRecord, Quantity]] = field(default_factory=list)
    lemmas: set[str] = field(default_factory=set)
    prefixes: dict[str, list[str]] = field(default_factory=dict)
    keys: dict[str, Anchor] = field(default_factory=dict)
    own_keys: dict[str, Anchor] = field(default_factory=dict)
    prev: int | None = None
    names_own: bool = False
    structured: bool = False
    head: int | None = None
    value: str | None = None
    joined: set[str] = field(default_factory=set)
    text_of: int | None = None
    stars: float | None = None
    negated: bool = False


def single(anchor: Anchor) -> Passage:
    """A passage that holds one name and nothing else, to ask whether two names are one."""
    keys = {k: anchor for k in (anchor["key"], *anchor["aliases"])}
    return Passage(
        source="",
        f={"norm": " " + anchor["key"] + " ", "entities": [anchor]},  # type: ignore[typeddict-item]
        keys=keys,
        own_keys={anchor["key"]: anchor},
    )


def evidence(p: Passage) -> dict:
    """The evidence entry of a passage: ``{"source", "start", "end", "text"}``."""
    return {"source": p.source, "start": p.f["start"], "end": p.f["end"], "text": p.f["text"]}


def line_value_text(p: Passage) -> str:
    """What a record's line gives after its key ("hours Monday: 17:0-21:0." -> "17:0-21:0")."""
    return p.f["text"].split(":", 1)[1].strip(" .")
