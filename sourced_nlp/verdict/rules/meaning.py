"""Rule ``meaning``: the meaning tier, a learned score for the claims the rules cannot show.

Decides ``grounded.meaning`` / ``contradicted.meaning``. It is not in
:data:`~sourced_nlp.verdict.rules.DEFAULT_RULES`: ``sourced_verify`` puts it just before the
last rule (``unverified``) when its ``meaning`` config names a model (``sourced.meaning.v1``,
the shipped ``models/meaning-v1.json`` by default; ``meaning: null`` leaves it out). Every rule
before it has had its say, so it never changes a claim a rule grounded or contradicted.

It decides only a claim that :func:`eligible` lets through: prose sources (no record); a best
passage that names every name of the claim and is about its subject (``anchors_ok``), matches
every one of its values (none absent, none conflicting, in no candidate passage either), with
no polarity flip, antonym or swapped roles, and denies only when the claim denies too; the rules' shortfall ``too_little`` or ``subject``
(never ``missing``, ``polarity`` or ``no_passage``); no quote. A figure or name found in no
source therefore never reaches the model. For such a claim the model
(:class:`~sourced_nlp.verdict.meaning.model.MeaningModel` or any :class:`Scorer`) scores the features of
:mod:`sourced_nlp.verdict.meaning.features`; at or above its ``grounded_threshold`` the claim is
grounded with its best passage as evidence, at or below its ``contradicted_threshold`` (when
not None) contradicted; otherwise the rule passes (``unverified`` decides). The result carries
``meaning``: ``{"model", "version", "score"}``.
"""

from __future__ import annotations

from typing import Protocol

from ..context import ClaimContext
from ..meaning.features import features
from ..types import Result, result

DECIDES = ("grounded.meaning", "contradicted.meaning")
#: the shortfalls the tier may decide: every anchor of the claim is in its best passage
SHORTFALLS = ("too_little", "subject")


class Scorer(Protocol):
    """What the tier needs of a model: a name, a version, its thresholds and ``score(x) -> float``
    in [0, 1] (higher: the sources state the claim)."""

    name: str
    version: str
    grounded_threshold: float
    contradicted_threshold: float | None

    def score(self, x: list[float]) -> float: ...


def eligible(ctx: ClaimContext) -> bool:
    """The claim is one the tier may decide (module docstring): every anchor of it is in its
    best passage, no value conflicts or is absent, no polarity flip or antonym, prose only."""
    best = ctx.best
    if best is None or ctx.index.has_records or ctx.claim.get("quotes"):
        return False
    if not best.anchors_ok or best.q_absent or best.q_conflict or best.q_partial:
        return False
    if best.polarity_flip or best.antonym is not None or best.swap is not None:
        return False
    if any(a.q_conflict for a in ctx.alignments):
        return False
    if bool(ctx.claim.get("negated")) != bool(ctx.passage(best.pid).negated):
        # one denies, the other affirms: the rules let a denial of another predicate pass, but a
        # model that reads paraphrase would read that predicate as the claim's
        return False
    return ctx.shortfall.kind in SHORTFALLS


class MeaningRule:
    """The rule over one model (module docstring); ``rule(ctx) -> Result | None``."""

    __name__ = "meaning"

    def __init__(self, model: Scorer) -> None:
        self.model = model

    def __call__(self, ctx: ClaimContext) -> Result | None:
        if not eligible(ctx):
            return None
        m = self.model
        s = m.score(features(ctx))
        best = ctx.best
        assert best is not None
        info = {"model": m.name, "version": m.version, "score": round(s, 4)}
        if s >= m.grounded_threshold:
            # the support of a grounded claim (0.7-1.0), the lowest part of it: 0.7-0.8 by the score
            span = max(1e-9, 1.0 - m.grounded_threshold)
            support = 0.7 + 0.1 * min(1.0, (s - m.grounded_threshold) / span)
            out = result(
                "grounded",
                f"the meaning tier ({m.name} {m.version}) reads the passage as stating the claim "
                f"(score {s:.3f} >= {m.grounded_threshold:.3f}); every name and value of the claim is there",
                support,
                [ctx.evidence(best.pid)],
                rule="grounded.meaning",
            )
            return {**out, "meaning": info}  # type: ignore[typeddict-unknown-key]
        if m.contradicted_threshold is not None and s <= m.contradicted_threshold:
            out = result(
                "contradicted",
                f"the meaning tier ({m.name} {m.version}) reads the passage as saying otherwise "
                f"(score {s:.3f} <= {m.contradicted_threshold:.3f})",
                0.05,
                [ctx.evidence(best.pid)],
                rule="contradicted.meaning",
            )
            return {**out, "meaning": info}  # type: ignore[typeddict-unknown-key]
        return None
