"""Rule ``rating``: a claim that judges the stars of the one record among the sources.

Decides ``contradicted.rating`` / ``unverified.rating``; runs only when a source is a record
with ``business stars`` (and for a rating word, only when exactly one is).

* "Highly rated" (and "top-rated", "well-rated", "highly regarded": the praise adverbs and
  participles of ``models/records.json``) calls a business of 4 stars or more of 5
  (``highly_rated_stars``, the cut-off the hand-written record cases are labelled by: 3.5 stars
  is not "highly rated"). Below 3.5 the record says otherwise (contradicted, support 0.05), at
  3.5 it does not say so (unverified, support 0.3); from 4 stars on the phrase holds and the
  claim is checked as usual.
* A rating word before the rating ("an impressive 4.5-star rating", "a perfect 5-star rating",
  "a low rating": ``rating_words`` of ``models/records.json``, each with the stars of 5 it fits)
  holds when the stars fall in its range; it is then left out of the claim's words
  (:func:`without_fitting_words`, before every rule) and the rest is checked as usual. The first
  that does not fit decides: contradicted when the stars are a star or more outside its range,
  unverified when half a star.
"""

from __future__ import annotations

import re

from ..context import ClaimContext
from ..index import PassageIndex
from ..lexicon import VerdictLexicon
from ..types import ClaimRecord, Result, result

DECIDES = ("contradicted.rating", "unverified.rating")


def rating(ctx: ClaimContext) -> Result | None:
    """The rule (module docstring)."""
    index, text = ctx.index, ctx.claim["text"]
    if index.business_stars and (m := ctx.lex.high_praise.search(text)) and len(index.business_stars) == 1:
        pid, stars = next(iter(index.business_stars.values()))
        if stars < ctx.lex.highly_rated:
            phrase = m.group(0)
            if stars < ctx.lex.highly_rated - 0.5:
                return _judged("contradicted", phrase, stars, ctx, pid)
            return _judged("unverified", phrase, stars, ctx, pid)
    if len(index.business_stars) == 1:
        pid, stars = next(iter(index.business_stars.values()))
        for m in ctx.lex.rating_phrase.finditer(text):
            off = _off(m, stars, ctx.lex)
            if off >= 1.0:
                return _judged("contradicted", m.group(0), stars, ctx, pid)
            if off > 0.0:
                return _judged("unverified", m.group(0), stars, ctx, pid)
    return None


def without_fitting_words(claim: ClaimRecord, index: PassageIndex, lex: VerdictLexicon) -> ClaimRecord:
    """The claim without the rating words that fit the one record's stars (each taken out of its
    lemmas once), up to the first that does not fit (which :func:`rating` then decides on)."""
    if len(index.business_stars) != 1:
        return claim
    judged = list(lex.rating_phrase.finditer(claim["text"]))
    if not judged:
        return claim
    _, stars = next(iter(index.business_stars.values()))
    lemmas = list(claim["lemmas"])
    for m in judged:
        if _off(m, stars, lex) != 0.0:
            return claim
        word = m.group(1).lower()
        if word in lemmas:
            lemmas.remove(word)
    return dict(claim, lemmas=lemmas)  # type: ignore[return-value]


def _off(m: re.Match, stars: float, lex: VerdictLexicon) -> float:
    """How many stars the record's stars lie outside the range of the phrase's rating word."""
    lo, hi = lex.rating_words[m.group(1).lower()]
    return max(lo - stars, stars - hi, 0.0)


def _judged(verdict: str, phrase: str, stars: float, ctx: ClaimContext, pid: int) -> Result:
    if verdict == "contradicted":
        return result(
            "contradicted",
            f"'{phrase}' for a business of {stars:g} stars",
            0.05,
            [ctx.evidence(pid)],
            [{"claim": phrase, "source": f"{stars:g} stars", "kind": "quantity"}],
            rule="contradicted.rating",
        )
    return result(
        "unverified",
        f"'{phrase}' for a business of {stars:g} stars: the record does not say so",
        0.3,
        [ctx.evidence(pid)],
        rule="unverified.rating",
    )
