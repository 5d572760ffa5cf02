"""Rule ``quote``: a claim that quotes words ("called it "a disaster"") that no source holds.

Decides ``unverified.quote`` (support 0.15): each quote of the claim is looked for in every
source text with :func:`sourced_nlp.text.citations.locate` at ``min_score`` 0.9 (the quote finder
``sourced_verify`` gives the verifier); the first found in none decides. A citation marker's
own quote (``[S2: "words"]``) is not a quote of the claim (:func:`sourced_nlp.citing.provenance.claim_record`).
"""

from __future__ import annotations

from ..context import ClaimContext
from ..types import Result, result

DECIDES = ("unverified.quote",)


def quote(ctx: ClaimContext) -> Result | None:
    """The rule (module docstring)."""
    for q in ctx.claim["quotes"]:
        if not any(ctx.locate(q, text) for text in ctx.source_texts.values()):
            return result("unverified", f'quote not found in any source: "{q}"', 0.15, rule="unverified.quote")
    return None
