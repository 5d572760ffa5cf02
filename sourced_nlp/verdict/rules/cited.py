"""Rule ``cited``: judge a claim by the sources it cites first.

Decides ``grounded.cited`` / ``contradicted.cited``; runs first, and only for a claim whose
citations name a source (``ctx.cited``, given by ``sourced_verify`` from the citations that
:func:`sourced_nlp.citing.provenance.check_citation` resolves). The claim is checked by the whole
decision order against the cited sources only; when they ground or contradict it, that is the
verdict (its reason, support, evidence and differs), under the rule name ``<verdict>.cited``;
otherwise (unverified against them) the next rules check it against every source. What a
citation's status and findings are stays in :mod:`sourced_nlp.citing.provenance`.
"""

from __future__ import annotations

from ..context import ClaimContext
from ..types import Result

DECIDES = ("grounded.cited", "contradicted.cited")


def cited(ctx: ClaimContext) -> Result | None:
    """The rule (module docstring)."""
    if ctx.cited is None or not ctx.cited.ids:
        return None
    got = ctx.cited.verify(ctx.cited.ids)
    if got["verdict"] not in ("grounded", "contradicted"):
        return None
    return {**got, "rule": f"{got['verdict']}.cited"}


def decided_by_citation(res: Result) -> bool:
    """The verdict is the cited sources' (this rule decided it)."""
    return res.get("rule") in DECIDES
