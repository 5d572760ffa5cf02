"""Word and name matching: whether a passage holds a claim's word or name.

The word matcher (:class:`WordMatcher`, ``sourced.word_matcher.v1`` in spaCy's registry) decides
whether a passage holds a content lemma of a claim; it is what coverage counts. The default,
:func:`word_in`, is :func:`lemma_in` (the lemma, a word of a name, two forms of one stem) or a
review verb that agrees with the stars of the passage's review (:func:`review_agrees`).
"""

from __future__ import annotations

import re
from typing import Protocol

from rapidfuzz import fuzz

from .passage import Passage
from .types import Anchor


class Sources(Protocol):
    """What a word matcher may read of the sources beyond the passage: the review verbs
    (:class:`~sourced_nlp.verdict.index.PassageIndex` has them and more)."""

    sentiment: dict[str, int]


class WordMatcher(Protocol):
    """``matcher(lemma, passage, index) -> bool``: the passage holds the claim's lemma;
    ``index`` is the :class:`~sourced_nlp.verdict.index.PassageIndex` of the check."""

    def __call__(self, lemma: str, p: Passage, index: Sources) -> bool: ...


def same_word(a: str, b: str) -> bool:
    """The same lemma, or two forms of one stem ("quarterly"/"quarter", "closed"/"close",
    "attend"/"attendance"): both share a prefix of at least five letters that leaves at most
    two letters of the shorter one."""
    if a == b:
        return True
    short, long_ = sorted((a, b), key=len)
    n = max(5, len(short) - 2)
    return len(short) >= 5 and long_.startswith(short[:n])


def wordwise_close(a: str, b: str) -> bool:
    """Two near-identical names differ by spelling, not by a word: every word of each has a
    close word (rapidfuzz ratio >= 80) in the other ("Nadela"/"Nadella", never "University of
    California ..."/"University of Colorado ...")."""
    wa, wb = a.split(), b.split()
    return all(any(fuzz.ratio(x, y) >= 80 for y in wb) for x in wa) and all(
        any(fuzz.ratio(y, x) >= 80 for x in wa) for y in wb
    )


def compound_of(a: str, b: str) -> bool:
    """One predicate is the other with a prefix ("overcook"/"cook", "reopen"/"open")."""
    short, long_ = sorted((a, b), key=len)
    return len(short) >= 3 and long_.endswith(short) and len(long_) - len(short) <= 5


def in_words(lemma: str, text: str) -> bool:
    """The lemma is one of the words of ``text`` (or a form of one: "seat"/"seating")."""
    return any(same_word(lemma, w) or w.rstrip("s") == lemma for w in re.findall(r"[^\W\d_]+", text))


def lemma_in(lemma: str, p: Passage) -> bool:
    """The passage holds the lemma: among its lemmas or the words of its names and compounds
    (``joined``), or another form of the word (:func:`same_word`, words of five letters or more)."""
    if lemma in p.lemmas or lemma in p.joined:
        return True
    if len(lemma) >= 5:
        return any(same_word(lemma, other) for other in p.prefixes.get(lemma[:5], ()))
    return False


def entity_in(a: Anchor, p: Passage) -> bool:
    """The passage names the anchor: its key among every form the passage's names go by, an
    alias (an acronym) as the passage's own key, the key in the passage's text, a surname of a
    full name (PERSON), one word of a longer name of a compatible label, or a rapidfuzz ratio
    >= 90 of two names alike word by word (:func:`wordwise_close`)."""
    keys = (a["key"], *a["aliases"])
    # a key against every form the passage's name goes by; an alias (an acronym) only against
    # the passage's own key — two long names with the same initials are not one name
    if a["key"] in p.keys or any(k in p.own_keys for k in a["aliases"]):
        return True
    for k in keys:
        if len(k) >= 2 and f" {k} " in p.f["norm"]:
            return True
    words = a["key"].split()
    for pk, pa in p.keys.items():
        pwords = pk.split()
        if len(words) > 1 and len(pwords) == 1 and words[-1] == pk and a["label"] == pa["label"] == "PERSON":
            return True  # "James Holmes" in a passage that calls him "Holmes"
        if len(words) == 1 and len(pwords) > 1 and (pwords[-1] == words[0] or pwords[0] == words[0]):
            if (
                not a["label"]
                or not pa["label"]
                or a["label"] == pa["label"]
                or a["label"] in ("PERSON", "ORG")
                and pa["label"] in ("PERSON", "ORG")
            ):
                return True
        if len(a["key"]) >= 6 and fuzz.ratio(a["key"], pk) >= 90 and wordwise_close(a["key"], pk):
            return True
    return False


def review_agrees(lemma: str, p: Passage, index: Sources) -> bool:
    """A review verb of the claim ("praised", "complained") agrees with the review the
    passage is from: a positive verb with a review of 4 stars or more, a negative one with 3
    stars or fewer (a 3-star review is mixed: its praise is faint, its complaints real); a
    neutral verb that frames an opinion ("felt", "found", "citing") with any review
    (``models/lexical.json`` review verbs); never for a review without stars."""
    side = index.sentiment.get(lemma)
    if side is None or p.stars is None:
        return False
    if side == 0:
        return True  # "one guest felt ...", "citing ...": the review is the opinion it frames
    return p.stars >= 4 if side > 0 else p.stars <= 3


def word_in(lemma: str, p: Passage, index: Sources) -> bool:
    """The default :class:`WordMatcher`: :func:`lemma_in`, or a review verb that agrees with the
    passage's review (:func:`review_agrees`)."""
    return lemma_in(lemma, p) or review_agrees(lemma, p, index)
