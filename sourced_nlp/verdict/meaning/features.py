"""The features of the meaning tier: one fixed-order vector of floats per claim context.

:func:`features` reads what the rules already computed for a claim
(:class:`~sourced_nlp.verdict.context.ClaimContext`: its alignments with the candidate
passages, support, shortfall, the index's IDF weights) and adds a few cheap lexical ones
(rapidfuzz similarities of the claim's text with its best passage and with its top candidates
together; IDF-weighted coverage over the top two and three candidates). No parse beyond the
one the rules have: the cost is a few string comparisons per claim.

:data:`FEATURES` names the entries in order; a model file stores the names it was trained on
and :mod:`sourced_nlp.verdict.meaning.model` refuses a file whose names differ. Every sum is
:func:`math.fsum` in the claim's word order, so a vector does not follow the hash seed.
"""

from __future__ import annotations

import math

from rapidfuzz import fuzz

from ..context import ClaimContext
from ..support import spread

#: the names of the entries of :func:`features`, in order (a model file stores them)
FEATURES: tuple[str, ...] = (
    "coverage_best",  # IDF-weighted share of the claim's lemmas the best passage holds
    "partial_best",  # mean of that coverage and the share of names/values it holds
    "support",  # the rules' unverified support (0.15 + ...)
    "spread",  # what the candidates hold between them (support.spread)
    "coverage_top2",  # IDF-weighted coverage of the claim by the top two candidates together
    "coverage_top3",  # ... by the top three together
    "coverage_second",  # coverage of the second-best candidate (0 without one)
    "novel_share",  # IDF-weighted share of the claim's lemmas found in no source passage
    "missing_max_weight",  # the heaviest lemma the best passage lacks, as a share of the claim's weight
    "missing_count",  # log1p of the number of lemmas the best passage lacks
    "lemmas",  # log1p of the number of the claim's content lemmas
    "names",  # log1p of the number of the claim's own names
    "values",  # log1p of the number of the claim's checked values
    "values_matched",  # share of the claim's values the best passage matches (1 without values)
    "names_direct",  # share of the claim's names the best passage itself names (1 without names)
    "predicates_held",  # share of the claim's main predicates the best passage holds (1 without)
    "subject_shortfall",  # 1 when the rules' shortfall is "subject" (the passage is about another subject)
    "hedged",  # 1 when the claim is hedged
    "negated",  # 1 when the claim is negated
    "passage_negated",  # 1 when the best passage is negated
    "passage_words",  # log1p of the number of the best passage's lemmas
    "candidates",  # log1p of the number of candidate passages
    "best_rank",  # the best passage's rank among the candidates, 0 first (capped at 5)
    "fuzz_token_set_best",  # rapidfuzz token_set_ratio(claim, best passage) / 100
    "fuzz_partial_best",  # rapidfuzz partial_ratio(claim, best passage) / 100
    "fuzz_token_sort_best",  # rapidfuzz token_sort_ratio(claim, best passage) / 100
    "fuzz_token_set_top3",  # token_set_ratio(claim, the top three candidates joined) / 100
    "fuzz_partial_top3",  # partial_token_set_ratio(claim, the top three joined) / 100
    "length_ratio",  # len(claim text) / len(best passage text), capped at 3
)


def _weighted_coverage(ctx: ClaimContext, lemmas: list[str], pids: list[int]) -> float:
    """IDF-weighted share of ``lemmas`` held by any of the passages ``pids`` (1.0 for none)."""
    index, word_in = ctx.index, ctx.aligner.word_in
    weights = [index.weight(x) for x in lemmas]
    found = [w for x, w in zip(lemmas, weights) if any(word_in(x, index.passages[pid], index) for pid in pids)]
    total = math.fsum(weights)
    return math.fsum(found) / total if total else 1.0


def features(ctx: ClaimContext) -> list[float]:
    """The feature vector of a claim that has a best passage, in the order of :data:`FEATURES`.

    Args:
        ctx: the rules' context of the claim; ``ctx.best`` must not be None.

    Returns:
        ``len(FEATURES)`` floats, each finite (shares in [0, 1], counts as ``log1p``).

    Raises:
        ValueError: the claim has no candidate passage (``ctx.best`` is None).
    """
    best = ctx.best
    if best is None:
        raise ValueError("meaning features need a candidate passage (ctx.best is None)")
    claim, index = ctx.claim, ctx.index
    p = index.passages[best.pid]
    lemmas = list(dict.fromkeys(claim["lemmas"]))
    aligns = ctx.alignments
    ranked = [a.pid for a in aligns]  # candidate order
    weights = [index.weight(x) for x in lemmas]
    total = math.fsum(weights)
    lacking = [w for x, w in zip(lemmas, weights) if not ctx.aligner.word_in(x, p, index)]
    own = ctx.own_names
    preds = [x for x in claim["predicates"] if x not in ctx.aligner.meta_words]
    others = sorted((a for a in aligns if a.pid != best.pid), key=lambda a: (-a.coverage, a.pid))
    text = claim["text"]
    top3 = " ".join(index.passages[pid].f["text"] for pid in ranked[:3])
    unseen = [w for x, w in zip(lemmas, weights) if not index.seen(x)]
    novel_share = math.fsum(unseen) / total if total else 0.0
    return [
        float(best.coverage),
        float(best.partial),
        float(ctx.support),
        float(spread(claim, ctx.values, aligns, index)),
        _weighted_coverage(ctx, lemmas, ranked[:2]),
        _weighted_coverage(ctx, lemmas, ranked[:3]),
        float(others[0].coverage) if others else 0.0,
        novel_share,
        (max(lacking) / total) if lacking and total else 0.0,
        math.log1p(len(lacking)),
        math.log1p(len(lemmas)),
        math.log1p(len(own)),
        math.log1p(len(ctx.values)),
        len(best.q_match) / len(ctx.values) if ctx.values else 1.0,
        len(best.ents_direct) / len(own) if own else 1.0,
        sum(1 for x in preds if ctx.aligner.word_in(x, p, index)) / len(preds) if preds else 1.0,
        1.0 if ctx.shortfall.kind == "subject" else 0.0,
        1.0 if claim.get("hedged") else 0.0,
        1.0 if claim.get("negated") else 0.0,
        1.0 if p.negated else 0.0,
        math.log1p(len(p.lemmas)),
        math.log1p(len(aligns)),
        float(min(5, ranked.index(best.pid))),
        fuzz.token_set_ratio(text, p.f["text"]) / 100.0,
        fuzz.partial_ratio(text, p.f["text"]) / 100.0,
        fuzz.token_sort_ratio(text, p.f["text"]) / 100.0,
        fuzz.token_set_ratio(text, top3) / 100.0,
        fuzz.partial_token_set_ratio(text, top3) / 100.0,
        min(3.0, len(text) / max(1, len(p.f["text"]))),
    ]
