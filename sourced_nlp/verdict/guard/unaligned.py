"""Word finder ``unverified.unaligned``: a word that carries the claim's meaning (a verb, adjective
or adverb; a quantifier, ordinal, comparative or superlative; a temporal relation) has no
counterpart in the evidence, or another word stands in its slot ("raised" where the source says
"held"), or a converse of it says the relation of the claim's own arguments without swapping them
("Paris is south of Lyon" where the source says "north": :mod:`~sourced_nlp.verdict.converse`).
The reason names the word (:func:`find_unaligned`).

Which words carry meaning is read from the parse (parts of speech, tags, dependency labels) and
the closed classes of ``models/guard.json`` (whose optional ``light`` list names words that may
stay unaligned under the stricter settings; none is shipped); which of them keep a claim from
``grounded`` with no counterpart at all is the guard's ``unaligned`` setting
(:data:`~sourced_nlp.verdict.guard.UNALIGNED`).

Measured on natural labelled text (``python bench/rule_precision.py``, 2026-12-07: RAGTruth train
and the five dev sets, pooled; ``bench/RESULTS.md``): another word in the slot of a closed-class
word, or of a verb that is the one word the evidence does not hold, took back 69 groundings, 20.3%
hallucinated, 1.13 times what the guard lets through: short of the 1.5x of a take-back, kept for the
one-word changes of the hand-written traps (an open item); a verb reworded around is shown only
("possible", 79 shown, 1.40x).
"""

from __future__ import annotations

from ..converse import unswapped
from ..finding import Finding
from ..tree import Token, _is_predicate, _text
from ..wordalign import _is_content, carries
from .context import GuardContext

DECIDES = ("unverified.unaligned",)


def find_unaligned(gctx: GuardContext, k: int) -> Finding | None:
    """Unaligned claim word ``k``, when it carries meaning (:func:`~sourced_nlp.verdict.wordalign.carries`;
    a noun in other words, "on-time rate" / "on-time performance", is the coverage rules' call):
    another word in its slot where that keeps the claim from grounded (:func:`substitutable`),
    or no counterpart where the guard's setting requires one (:func:`required`). None otherwise."""
    claim, lex = gctx.claim, gctx.lex
    hit = unswapped(lex, claim, k, gctx.ev, gctx.to)
    if hit is not None:
        # the evidence says the relation from its other end with the same two in the same places
        # (or the parse does not show both): the coverage may have counted it, the claim is not it
        w, s = gctx.cword(k), gctx.text(hit[0], gctx.ev[hit[0]][hit[1]])
        return Finding(
            "unverified",
            "unverified.unaligned",
            f"the claim says '{w}' where the source says '{s}', and not of the two in each other's place",
            [{"claim": w, "source": s, "kind": "word"}],
            hit[0],
        )
    if not carries(claim[k], lex, gctx.meta):
        return None
    w = gctx.cword(k)
    slot = gctx.slot(k)
    if slot is not None and gctx.ev[slot[0]][slot[1]].pos in lex.slot_pos and substitutable(gctx, claim, k):
        s = _text(gctx.passages[slot[0]], gctx.ev[slot[0]][slot[1]])
        if s.lower() == w.lower():
            return None  # the same word, read as another ("Won" the currency for "won")
        # another verb in the slot of the claim's predicate takes the grounding back only where it
        # is the one word of the claim the evidence does not hold (a minimal pair: "raised rates to
        # 5.5%" / "held rates at 5.5%"); reworded around it, it is shown ("possible"), not taken
        # back: on natural text (bench/rule_precision.py) verb take-backs were hallucinated no more
        # often than what the guard lets through (134 taken back, 25 hallucinated against 20.8
        # expected: 1.2x), most of them paraphrases ("deployed to control the fire" / "sent to
        # battle the blaze")
        verdict = "possible" if claim[k].pos == "VERB" and not only_word(gctx, k) else "unverified"
        return Finding(
            verdict,
            "unverified.unaligned",
            f"the claim says '{w}' where the source says '{s}'",
            [{"claim": w, "source": s, "kind": "word"}],
            slot[0],
        )
    if required(gctx, claim, k):
        return Finding(
            "unverified",
            "unverified.unaligned",
            f"the source does not say '{w}'",
            [{"claim": w, "source": "", "kind": "word"}],
            0,
        )
    return None


def only_word(gctx: GuardContext, k: int) -> bool:
    """Claim word ``k`` is the one content word of the claim its evidence does not hold, nouns
    included (names and values aside: the rules compared them)."""
    claim = gctx.claim
    return not any(
        ln.ev is None and ln.k != k and claim[ln.k].flag != "n" and _is_content(claim[ln.k], gctx.lex)
        for ln in gctx.links
    )


def substitutable(gctx: GuardContext, claim: list[Token], k: int) -> bool:
    """Another word in the slot of this one keeps the claim from grounded: the claim's main
    predicate ("raised" where the source says "held"), or a closed-class word (a quantifier,
    ordinal, comparative or superlative, temporal relation). A modifier in other words ("new"
    / "permanent" location) is the coverage rules' call."""
    return _closed_or_predicate(gctx, claim, k, gctx.lex.temporal)


def required(gctx: GuardContext, claim: list[Token], k: int) -> bool:
    """A carrier word with no counterpart keeps the claim from grounded at this level; at
    every level, a status of a named person ("interim president Alvarez", ``status`` of
    ``models/guard.json``) the evidence does not give."""
    if gctx.unaligned == "all" or _status_of_name(gctx, claim, k):
        return True
    if gctx.unaligned == "slots":
        return False
    return _closed_or_predicate(gctx, claim, k, gctx.lex.exclusive)


def _status_of_name(gctx: GuardContext, claim: list[Token], k: int) -> bool:
    """The word is a status (``status`` of ``models/guard.json``) of a named person: of a
    proper name, or of a title compounded with one ("interim president Alvarez"); not of a
    month or day ("late November")."""
    lex = gctx.lex
    tok, h = claim[k], claim[k].head
    if tok.lemma not in lex.status or tok.dep not in ("amod", "compound") or tok.flag == "n" or h < 0:
        return False
    head = claim[h]
    if lex.sets.get(head.lemma):
        return False
    return (
        head.flag == "n"
        and head.pos == "PROPN"
        or head.dep == "compound"
        and head.head >= 0
        and claim[head.head].pos == "PROPN"
    )


def _closed_or_predicate(gctx: GuardContext, claim: list[Token], k: int, also: frozenset[str]) -> bool:
    """The word is a comparative, superlative or ordinal, a quantifier, one of ``also``, or a
    main predicate (a verb or adjective that is the root, the complement of a root "be", or
    joined to one)."""
    tok, lex = claim[k], gctx.lex
    if tok.tag in lex.carrier_tags or tok.flag == "o" or tok.lemma in lex.ordinals or tok.lemma in also:
        return True
    if tok.tag in lex.quantifier_tags and tok.lemma in lex.scale:
        return True
    return tok.pos in ("VERB", "ADJ") and (
        _is_predicate(claim, k) or tok.dep == "conj" and _is_predicate(claim, tok.head)
    )
