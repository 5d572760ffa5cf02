"""Why a claim is not stated by its best passage: the structured reason of an unverified claim.

:func:`shortfall` returns the kind (the second part of the rule name ``unverified.<kind>``) and
the reason text, so that a rule that depends on why a claim is unverified (the spread rule reads
``too_little``) reads the kind, not the message.
"""

from __future__ import annotations

from typing import NamedTuple

from .alignment import Aligner, Alignment
from .index import PassageIndex
from .polarity import polarity_agrees
from .types import ClaimRecord

#: the kinds of shortfall, in the order they are checked
KINDS = ("no_passage", "missing", "polarity", "subject", "too_little")


class Shortfall(NamedTuple):
    """``kind``: one of :data:`KINDS`; ``reason``: the report's reason text."""

    kind: str
    reason: str


def shortfall(claim: ClaimRecord, best: Alignment, index: PassageIndex, aligner: Aligner) -> Shortfall:
    """The shortfall of the best alignment: ``no_passage`` (coverage < 0.25 and none of the
    claim's names or values there); ``missing`` (names not named with the rest, values with no
    source value, or a passage about another subject of the type of the claim's inherited one;
    the reason lists each); ``polarity`` (the passage denies, not on the same predicate);
    ``subject`` (the passage is about another subject); else ``too_little`` of the claim's
    content is stated."""
    if best.coverage < 0.25 and not best.ents_found and not best.q_match:
        return Shortfall("no_passage", "no source passage is about this claim")
    parts = []
    if best.ents_missing:
        parts.append("not named with the rest: " + ", ".join(dict.fromkeys(a["text"] for a in best.ents_missing)))
    if best.q_absent:
        parts.append("no source value for " + ", ".join(q.get("text", "") for q in best.q_absent))
    if best.inherited_blocked:
        labels = sorted({a["label"] for a in claim["entities"] if a.get("inherited") and a.get("label")})
        parts.append("the passage is about another " + ("/".join(labels) if labels else "subject"))  # never cut short
    if parts:
        return Shortfall("missing", "; ".join(parts))
    p = index.passages[best.pid]
    if not polarity_agrees(claim, p, aligner.lex, best.complement):
        return Shortfall("polarity", "the passage about it has the opposite polarity, but not on the same predicate")
    if claim.get("subject") and not aligner.about_subject(claim["subject"], p, index):
        return Shortfall(
            "subject", "the passage is about another subject: " + " ".join(claim["subject"]) + " is not there"
        )
    return Shortfall("too_little", f"too little of the claim is stated (coverage {best.coverage:.2f})")
