"""The plain records the verdict reads and writes, typed: the boundary of :mod:`sourced_nlp.verdict`.

The components (``sourced_passages``, see :mod:`sourced_nlp.components.passages`) build one
:class:`FeatureRecord` per segment of a doc, for the claims of an answer and the passages of its
sources alike; the verdict compares them and returns one :class:`Result` per claim. Everything
here is a plain ``dict`` at run time (records are cached, pickled and shipped between
processes); the ``TypedDict`` s only name their keys.
"""

from __future__ import annotations

from typing import TypedDict

from typing_extensions import NotRequired


class Anchor(TypedDict):
    """A named entity of a segment (``Span._.anchors``): ``key`` in ``norm`` form, its
    ``aliases`` (acronym, surname), NER ``label`` (empty for a capitalised run the NER did not
    call a name), grammatical ``role`` (``subj``, ``obj``, ...), ``inherited`` when the segment
    took it from the sentence before ("It grew 40%")."""

    key: str
    aliases: list[str]
    label: str
    role: str
    text: str
    inherited: NotRequired[bool]
    refers_back: NotRequired[bool]
    every_day: NotRequired[bool]
    start: NotRequired[int]
    also_at: NotRequired[list[int]]


class QuantityRecord(TypedDict):
    """A value of a segment (``Span._.quantity``, :meth:`sourced_nlp.text.quantity.Quantity.to_dict`
    plus the counted ``noun`` and the verb ``head`` it is said of)."""

    kind: str
    low: float
    high: float
    text: str
    noun: NotRequired[str | None]
    head: NotRequired[str | None]


class FeatureRecord(TypedDict):
    """One segment (a claim or a source passage): see :mod:`sourced_nlp.components.passages`."""

    start: int
    end: int
    text: str
    norm: str
    lemmas: list[str]
    predicates: list[str]
    entities: list[Anchor]
    quantities: list[QuantityRecord]
    negated: bool
    hedged: bool
    quotes: list[str]
    cue: NotRequired[str | None]
    negated_predicate: NotRequired[str | None]
    denied: NotRequired[list[list[int]]]
    subject: NotRequired[list[str]]
    one_subject: NotRequired[bool]
    contrast: NotRequired[bool]
    kind: NotRequired[str]
    tokens: NotRequired[list[list]]


#: a claim's record is a segment's record
ClaimRecord = FeatureRecord
#: a source passage's record is a segment's record
PassageRecord = FeatureRecord


class Evidence(TypedDict):
    """A passage that bears on a claim: its source id, char offsets in that source, its text."""

    source: str
    start: int
    end: int
    text: str


class Difference(TypedDict):
    """What a claim says against what a source says, of one ``kind`` (``quantity``,
    ``polarity``, ``antonym``, ``entity``, ``value``)."""

    claim: str
    source: str
    kind: str


class Result(TypedDict):
    """The verdict of one claim; ``rule`` is the dotted name of the rule that decided it (the
    module of :mod:`sourced_nlp.verdict.rules` or :mod:`sourced_nlp.verdict.records` that holds
    it, see docs/rules.md)."""

    verdict: str
    reason: str
    support: float
    evidence: list[Evidence]
    differs: list[Difference]
    rule: str


def result(
    verdict: str,
    reason: str,
    support: float,
    evidence: list[Evidence] | None = None,
    differs: list[Difference] | None = None,
    *,
    rule: str,
) -> Result:
    """A :class:`Result`, ``support`` clipped to [0, 1] and rounded to 4 places."""
    return {
        "verdict": verdict,
        "reason": reason,
        "support": round(max(0.0, min(1.0, support)), 4),
        "evidence": evidence or [],
        "differs": differs or [],
        "rule": rule,
    }
