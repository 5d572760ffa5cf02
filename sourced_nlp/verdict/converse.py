"""Converse relations: two words that say one relation from its two ends, so that a claim holds
where its evidence says the other word with the two arguments in each other's place ("Lena is
younger than Omar" / "Omar is older than Lena"; "Vela bought the mill from Orto" / "Orto sold the
mill to Vela"; "the audit came before the merger" / "the merger came after the audit").

Which words are converses: a pair of ``converses`` of ``models/guard.json`` (``buy``/``sell``,
``before``/``after``, ``parent``/``child``), or two comparatives of WordNet antonyms
(``models/wordnet.json``: ``older``/``younger``, ``cheaper``/``dearer``) (:func:`converse`). A
converse aligns with the claim's word only where both arguments are swapped: the claim's subject
is the evidence's other argument, and one of the claim's other arguments is the evidence's subject
(:func:`converse_links`); the same word with the arguments in the same places is an antonym, which
the guard's antonym finder reads. The coverage of a claim counts a word as held by its converse
(:func:`held_by_converse`; a comparative's antonym only as a comparative of the passage) only while
the guard reads the claim: it takes the grounding back where a converse says the relation of the
claim's own arguments without swapping them (:func:`unswapped`). A verb in the passive is no
converse: its voice turns it round already (:func:`passive`).
"""

from __future__ import annotations

from .passage import Passage
from .tree import Token, _children, _subject, tokens
from .wordalign import GuardLexicon, Link

#: the tags of a comparative adjective or adverb ("older", "earlier")
COMPARATIVE = ("JJR", "RBR")
#: the dependents that belong to an argument's own phrase (a name's other words, its modifiers)
_PHRASE = ("compound", "flat", "amod", "nmod", "poss", "nummod", "det")


def comparative(toks: list[Token], j: int) -> bool:
    """Word ``j`` compares: a comparative ("older", "earlier") or an adjective or adverb under
    "more" ("more expensive"; not "less", which turns the comparison round)."""
    t = toks[j]
    return (
        t.tag in COMPARATIVE
        or t.pos in ("ADJ", "ADV")
        and any(toks[c].lemma == "more" and toks[c].dep == "advmod" for c in _children(toks, j))
    )


def passive(toks: list[Token], j: int) -> bool:
    """Word ``j`` is a verb in the passive voice, which says its relation from the other end
    itself ("was given" is "received")."""
    return any(toks[c].dep in ("nsubjpass", "auxpass") for c in _children(toks, j))


def converse(lex: GuardLexicon, claim: list[Token], k: int, ev: list[Token], j: int) -> bool:
    """Claim word ``k`` and evidence word ``j`` say one relation from its two ends (module
    docstring); never a verb in the passive (:func:`passive`), whose voice turns it round."""
    a, b = claim[k], ev[j]
    if passive(claim, k) or passive(ev, j):
        return False
    if b.lemma in lex.converses.get(a.lemma, ()) or b.raw in lex.converses.get(a.raw, ()):
        return True
    return (
        (b.raw in lex.antonyms.get(a.raw, ()) or b.lemma in lex.antonyms.get(a.lemma, ()))
        and comparative(claim, k)
        and comparative(ev, j)
    )


def arguments(toks: list[Token], j: int) -> tuple[int | None, list[int]]:
    """The two ends of relation word ``j``: its subject (of the verb it is the complement of, "is
    older", "is the parent of", or, for a preposition, of the verb it hangs on, "came after"; an
    active subject only) and its other arguments (a direct or indirect object, the object of a
    preposition of it: "than Omar", "from Orto", "of Lena"). ``(None, [])`` for none."""
    t = toks[j]
    if t.pos == "ADP" or t.dep == "prep":
        host = t.head
        others = [c for c in _children(toks, j) if toks[c].dep == "pobj"]
    else:
        host = t.head if t.dep in ("acomp", "attr", "oprd", "advmod") else j
        others = []
        for c in _children(toks, j):
            if toks[c].dep in ("dobj", "dative") and toks[c].pos != "ADP":
                others.append(c)
            elif toks[c].dep in ("prep", "agent", "dative"):  # "lent it to Halden": "to" is a dative
                others += [g for g in _children(toks, c) if toks[g].dep == "pobj"]
    if host < 0:
        return None, []
    subj = _subject(toks, host)
    return (subj if subj is not None and toks[subj].dep == "nsubj" else None), others


def _phrase(toks: list[Token], x: int) -> set[int]:
    return {x, *(c for c in _children(toks, x) if toks[c].dep in _PHRASE)}


def _same(claim: list[Token], c: int, ev: list[Token], x: int, e: int, to: dict) -> bool:
    """Claim argument ``c`` is evidence argument ``x`` (of passage ``e``): a word of its phrase
    aligned with a word of the other's."""
    held = _phrase(ev, x)
    return any(to.get(i, (None, None))[0] == e and to[i][1] in held for i in _phrase(claim, c))


def swapped(claim: list[Token], k: int, ev: list[Token], j: int, e: int, to: dict) -> bool:
    """Claim word ``k`` and evidence word ``j`` (of passage ``e``) have their two arguments in
    each other's place (:func:`arguments`; ``to``: the claim's aligned words)."""
    cs, co = arguments(claim, k)
    es, eo = arguments(ev, j)
    if cs is None or es is None or not co or not eo:
        return False
    return any(_same(claim, cs, ev, x, e, to) for x in eo) and any(_same(claim, c, ev, es, e, to) for c in co)


def converse_links(claim: list[Token], evidence: list[list[Token]], links: list[Link], lex: GuardLexicon) -> list[Link]:
    """``links`` with each unaligned claim word that has a converse in the evidence with the two
    arguments swapped aligned with it (``how``: ``converse``). A word that WordNet aligns with
    its converse ("trail" and "lead" share a synset) is aligned with it only so; with the
    arguments in their places it is left unaligned (the antonym finder reads it)."""
    if not lex.converses and not any(comparative(claim, k) for k in range(len(claim))):
        return links
    to = {ln.k: ln.ev for ln in links if ln.ev is not None}
    links = [
        Link(ln.k, None, None)
        if ln.ev is not None
        and ln.how in ("synonym", "broader")
        and converse(lex, claim, ln.k, evidence[ln.ev[0]], ln.ev[1])
        and not swapped(claim, ln.k, evidence[ln.ev[0]], ln.ev[1], ln.ev[0], to)
        else ln
        for ln in links
    ]
    used = {ln.ev for ln in links if ln.ev is not None}
    out = []
    for ln in links:
        if (
            ln.ev is not None
            and ln.how in ("synonym", "broader")
            and converse(lex, claim, ln.k, evidence[ln.ev[0]], ln.ev[1])
        ):
            ln = Link(ln.k, ln.ev, "converse")
        elif ln.ev is None:
            hit = next(
                (
                    (e, j)
                    for e, toks in enumerate(evidence)
                    for j, t in enumerate(toks)
                    if (e, j) not in used
                    and converse(lex, claim, ln.k, toks, j)
                    and swapped(claim, ln.k, toks, j, e, to)
                ),
                None,
            )
            if hit is not None:
                used.add(hit)
                ln = Link(ln.k, hit, "converse")
        out.append(ln)
    return out


def unswapped(
    lex: GuardLexicon, claim: list[Token], k: int, evidence: list[list[Token]], to: dict
) -> tuple[int, int] | None:
    """The evidence word, ``(passage, word)``, that is a converse of unaligned claim word ``k``
    and says the relation of one of the claim's arguments, not with the two swapped (so the
    coverage may have counted it, and it is not what the claim says); None when there is none.
    A converse of another relation ("after" the harvest in another clause) is not read."""
    cs, co = arguments(claim, k)
    mine = [c for c in (cs, *co) if c is not None]
    for e, toks in enumerate(evidence):
        for j in range(len(toks)):
            if converse(lex, claim, k, toks, j):
                es, eo = arguments(toks, j)
                if any(_same(claim, c, toks, x, e, to) for c in mine for x in (es, *eo) if x is not None):
                    return e, j
    return None


def comparatives(records: list) -> frozenset[str]:
    """The lemmas of the comparatives of a span's token records (:func:`comparative`)."""
    toks = tokens(records)
    return frozenset(t.lemma for k, t in enumerate(toks) if comparative(toks, k))


def held_by_converse(lex: GuardLexicon, lemma: str, p: Passage, compared: frozenset[str]) -> bool:
    """For the coverage of a claim: the passage holds a converse of the claim's lemma; for a
    comparative of the claim (``compared``: the claim's, :func:`comparatives`), an antonym that
    the passage compares too."""
    others = lex.converses.get(lemma, frozenset())
    if others and any(x in p.lemmas for x in others):
        return True
    if lemma not in compared or "tokens" not in p.f:
        return False
    against = lex.antonyms.get(lemma, frozenset())
    return bool(against) and bool(against & comparatives(p.f["tokens"]))  # type: ignore[typeddict-item]
