"""Rule ``nothing_to_check``: a claim with no content word, name or number.

Decides ``unverified.nothing_to_check`` (support 0.15): after the meta words ("as mentioned in
passage 1") and a record's platform name are taken out, a claim with nothing left to compare is
left unverified. :func:`no_sources` and :func:`no_features` are the verdicts ``sourced_verify``
gives without running the rules (``unverified.no_sources``: the doc has no sources;
``unverified.no_features``: the claim span has no feature record), support 0.0.
"""

from __future__ import annotations

from ..context import ClaimContext
from ..types import Result, result

DECIDES = ("unverified.nothing_to_check",)


def nothing_to_check(ctx: ClaimContext) -> Result | None:
    """The rule (module docstring)."""
    claim = ctx.claim
    if not claim["lemmas"] and not claim["entities"] and not claim["quantities"]:
        return result(
            "unverified", "nothing to check: no content word, name or number", 0.15, rule="unverified.nothing_to_check"
        )
    return None


def no_sources() -> Result:
    """The verdict of a claim of a doc without sources."""
    return result("unverified", "no sources", 0.0, rule="unverified.no_sources")


def no_features() -> Result:
    """The verdict of a claim span without a feature record."""
    return result("unverified", "no features for this span", 0.0, rule="unverified.no_features")
