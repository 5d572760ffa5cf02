"""The support score: how well the sources back a claim, in [0, 1], to order claims by.

0.7-1.0 for grounded (by coverage), 0.5-0.69 for grounded by a spread of passages, 0.15-0.65 for
unverified (above 0.5 only where a spread grounding's other checks fail), 0.0-0.1 for
contradicted. An unverified claim's support is 0.15 + ``support_best`` (0.25) x its best partial
alignment (the mean of one passage's coverage and the share of anchors it holds) +
``support_spread`` (0.25) x its spread (the same two shares over all candidate passages
together, a value counted only where no passage conflicts with it) - ``support_novel_words``
(0.3) x the weighted share of its words that no source holds in any form -
``support_novel_name`` (0.04) x each of its names (at most three) no source mentions, and never
below 0.15; the weights (``Thresholds``) were set on the RAGTruth train split (support ROC-AUC
0.792 -> 0.804 there for the first two terms, 0.809 -> 0.818 for the last two).
"""

from __future__ import annotations

import math

from .alignment import Aligner, Alignment, Values
from .index import PassageIndex
from .thresholds import Thresholds
from .types import ClaimRecord
from .words import lemma_in


def unverified_support(
    claim: ClaimRecord,
    cq: Values,
    best: Alignment,
    aligns: list[Alignment],
    index: PassageIndex,
    aligner: Aligner,
    t: Thresholds,
) -> float:
    """0.15 + ``support_best`` x ``best.partial`` + ``support_spread`` x :func:`spread` -
    :func:`novelty` (not clipped: the caller keeps it at 0.15 or more)."""
    return (
        0.15
        + t.support_best * best.partial
        + t.support_spread * spread(claim, cq, aligns, index)
        - novelty(claim, index, t)
    )


def novelty(claim: ClaimRecord, index: PassageIndex, t: Thresholds) -> float:
    """What an unverified claim's support loses for what no source holds anywhere:
    ``support_novel_words`` x the IDF-weighted share of its content lemmas found in no passage
    (in no form of the word) + ``support_novel_name`` x each of its own names no source
    mentions (at most three). Weights set on the RAGTruth train split (support ROC-AUC 0.809 ->
    0.818) and checked on the hand-written record cases (0.907 -> 0.917)."""
    lemmas = set(claim["lemmas"])
    total = math.fsum(index.weight(x) for x in lemmas)
    unseen = math.fsum(index.weight(x) for x in lemmas if not index.seen(x))
    names = sum(
        1
        for a in claim["entities"]
        if not a.get("inherited") and not any(k in index.entity_keys for k in (a["key"], *a["aliases"]))
    )
    return t.support_novel_words * (unseen / total if total else 0.0) + t.support_novel_name * min(3, names)


def spread(claim: ClaimRecord, cq: Values, aligns: list[Alignment], index: PassageIndex) -> float:
    """How much of the claim the candidate passages hold between them, in [0, 1]: the mean of
    the IDF-weighted share of its content lemmas found in any of them and the share of its
    names and values found in any of them (a value only where no passage conflicts with it)."""
    lemmas = set(claim["lemmas"])
    total = math.fsum(index.weight(x) for x in lemmas)
    found = math.fsum(index.weight(x) for x in lemmas if any(lemma_in(x, index.passages[al.pid]) for al in aligns))
    words = found / total if total else 1.0
    own = [a for a in claim["entities"] if not a.get("inherited")]
    got = sum(1 for a in own if any(a in al.ents_found for al in aligns))
    got += sum(
        1
        for qd, _ in cq
        if any(any(qd is m for m in al.q_match) for al in aligns)
        and not any(any(qd is c for c, _ in al.q_conflict) for al in aligns)
    )
    n = len(own) + len(cq)
    return (words + (got / n if n else words)) / 2
