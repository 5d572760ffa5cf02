"""Rule ``spread``: grounded by a spread of passages — one that states most of a prose claim and
the one or two that hold the rest of its words.

Decides ``grounded.spread`` (support: the claim's unverified support, at most 0.69). Runs where
the claim would otherwise be unverified for too little of its content (shortfall
``too_little``, :mod:`sourced_nlp.verdict.shortfall`) and its support
(:mod:`sourced_nlp.verdict.support`) reaches ``spread_support`` (0.55).

The best passage holds all the claim's names and values, no conflicting, absent or partial
value, no polarity flip or antonym, coverage >= ``contradicted_coverage`` (0.5), and a hedge
of the claim where the claim has one; it is never a record's line (its lines share words with
any overview). The evidence is the best passage and the one or two candidate passages (prose,
agreeing in polarity, no conflict) that add most of the rest of the claim's words; what none of
them holds weighs at most 1 - ``fusion_coverage_content`` (0.1) of the claim ("the bribery
case"). Threshold set on the RAGTruth train split: 0.55 grounds 20 more clean sentences and no
hallucinated one (coverage 46.1% -> 46.9%); 0.5 grounds 33 more and 1 hallucinated, 0.6 none.
The record cases and dev sets are unchanged.
"""

from __future__ import annotations

import math

from ..alignment import Alignment
from ..context import ClaimContext
from ..polarity import polarity_agrees
from ..types import Result, result
from ..words import lemma_in

DECIDES = ("grounded.spread",)


def spread(ctx: ClaimContext) -> Result | None:
    """The rule (module docstring)."""
    best, t = ctx.best, ctx.t
    if best is None or ctx.support < t.spread_support or ctx.shortfall.kind != "too_little":
        return None
    claim, index = ctx.claim, ctx.index
    p = ctx.passage(best.pid)
    if (
        p.structured
        or not best.anchors_ok
        or best.q_conflict
        or best.q_absent
        or best.q_partial
        or best.polarity_flip
        or best.antonym
        or best.inherited_blocked
        or best.coverage < t.contradicted_coverage
    ):
        return None
    if claim["hedged"] and not p.f["hedged"]:
        return None
    lemmas = set(claim["lemmas"])
    missing = {x for x in lemmas if not ctx.aligner.word_in(x, p, index)}
    chosen = [best.pid]
    for _ in range(2):

        def adds(al: Alignment) -> float:
            q = index.passages[al.pid]
            if (
                al.pid in chosen
                or q.structured
                or al.q_conflict
                or al.polarity_flip
                or al.antonym
                or not polarity_agrees(claim, q, ctx.lex, al.complement)
            ):
                return 0.0
            return math.fsum(index.weight(x) for x in missing if lemma_in(x, q))

        more = max(ctx.alignments, key=lambda al: (adds(al), -al.pid))
        if adds(more) <= 0:
            break
        chosen.append(more.pid)
        missing = {x for x in missing if not lemma_in(x, index.passages[more.pid])}
    total = math.fsum(index.weight(x) for x in lemmas)
    if total and math.fsum(index.weight(x) for x in missing) / total > 1.0 - t.fusion_coverage_content:
        return None  # a word of the claim that none of them holds ("the bribery case")
    chosen.sort()
    reason = "stated in the source" if len(chosen) == 1 else f"stated across {len(chosen)} source passages"
    return result(
        "grounded", reason, min(ctx.support, 0.69), [ctx.evidence(pid) for pid in chosen], rule="grounded.spread"
    )
