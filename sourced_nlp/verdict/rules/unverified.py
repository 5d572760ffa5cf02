"""Rule ``unverified``: the last of the decision order; it always decides.

Decides ``unverified.<shortfall>`` with the reason of :func:`sourced_nlp.verdict.shortfall.shortfall`:
``unverified.no_passage`` (no candidate passage, or none about the claim: coverage < 0.25 and
none of its names or values), ``unverified.missing`` (names not named with the rest, values
with no source value, a passage about another subject of an inherited name's type),
``unverified.polarity`` (the passage denies, not on the same predicate), ``unverified.subject``
(the passage is about another subject), ``unverified.too_little`` (too little of the claim's
content is stated). The support is the claim's unverified support
(:mod:`sourced_nlp.verdict.support`), never below 0.15; 0.15 without a candidate.
"""

from __future__ import annotations

from ..context import ClaimContext
from ..shortfall import KINDS
from ..types import Result, result

DECIDES = tuple(f"unverified.{kind}" for kind in KINDS)


def unverified(ctx: ClaimContext) -> Result:
    """The rule (module docstring)."""
    if ctx.best is None:
        return result("unverified", "no source passage is about this claim", 0.15, rule="unverified.no_passage")
    return result("unverified", ctx.shortfall.reason, max(0.15, ctx.support), rule=f"unverified.{ctx.shortfall.kind}")
