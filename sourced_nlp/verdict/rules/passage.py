"""Rule ``passage``: grounded by one passage.

Decides ``grounded.passage`` (support 0.7 + 0.3 x coverage) and ``unverified.hedged`` (support
0.5). One candidate passage holds every anchor of the claim (each of its own names, no passage
about another subject of the type of a name it inherits) with the same value (no conflicting,
absent or partial value), the same polarity
(:func:`~sourced_nlp.verdict.polarity.polarity_agrees`, no polarity flip), no antonym
predicate, and enough of its content: coverage >= ``grounded_coverage`` (0.75), or
``grounded_coverage_anchored`` (0.5) when a quantity or a named entity of the claim matched on
the passage itself (not carried over from the passage before). Both were set on the acceptance
cases and the RAGTruth train split. A matched value said of another subject ("Costs rose 8%"
against "Revenue rose 8%") does not ground: the passage must speak of the claim's subject (train:
16 clean sentences, no hallucinated one). A record's line whose coverage is below
``grounded_coverage`` must hold the claim's main predicates (a review names the people, not
what the claim says they did). The passage with the highest coverage is the evidence (ties: the
first). A hedged claim ("may", "reportedly") is not grounded by an unhedged passage: unverified.
"""

from __future__ import annotations

from ..alignment import Alignment
from ..context import ClaimContext
from ..polarity import polarity_agrees
from ..types import Result, result

DECIDES = ("grounded.passage", "unverified.hedged")


def _grounds(ctx: ClaimContext, al: Alignment) -> bool:
    claim, index, aligner, t = ctx.claim, ctx.index, ctx.aligner, ctx.t
    p = index.passages[al.pid]
    if not al.anchors_ok or al.q_conflict or al.q_absent or al.polarity_flip or al.antonym:
        return False
    if not polarity_agrees(claim, p, ctx.lex, al.complement):
        return False
    if (
        claim.get("subject")
        and al.q_match
        and p.f.get("subject")
        and not al.ents_direct
        and not aligner.about_subject(claim["subject"], p, index)
    ):
        # "Costs rose 8%" is not stated by "Revenue rose 8%": a value said of another subject.
        # Only a matched value is bound to its subject this way; a claim of words alone
        # needs most of its words anyway (train: 16 clean sentences, no hallucinated one)
        return False
    anchored = bool(al.q_match) or bool(al.ents_direct)  # named on this passage, not carried over
    need = t.grounded_coverage_anchored if anchored else t.grounded_coverage
    if p.structured and al.coverage < t.grounded_coverage and aligner.predicate_missing(claim, p, index):
        return False  # a record's review: its names and values are there, not what the claim says they did
    return al.coverage >= need


def grounded_passage(ctx: ClaimContext) -> Result | None:
    """The rule (module docstring)."""
    grounded = [al for al in ctx.alignments if _grounds(ctx, al)]
    if not grounded:
        return None
    best = max(grounded, key=lambda a: (a.coverage, -a.pid))
    p = ctx.passage(best.pid)
    if ctx.claim["hedged"] and not p.f["hedged"]:
        return result(
            "unverified",
            "the claim is hedged; the source states it without a hedge",
            0.5,
            [ctx.evidence(best.pid)],
            rule="unverified.hedged",
        )
    return result(
        "grounded",
        "stated in the source",
        0.7 + 0.3 * min(1.0, best.coverage),
        [ctx.evidence(best.pid)],
        rule="grounded.passage",
    )
