"""Finder of what the claim drops (:func:`find_dropped`): words of the evidence that qualify what the
claim states, on a word the claim aligns with, missing from the claim: a status, an ordinal of a
superlative, an exception (``contradicted.qualifier``); a hedge, an attribution or a provisional
mark (``unverified.hedged``, unless the claim hedges too; an attribution verb over the claim's
verb: :func:`find_attributed`).

Measured on natural labelled text (``python bench/rule_precision.py``, 2026-12-07: RAGTruth train
and the five dev sets, pooled; ``bench/RESULTS.md``): ``contradicted.qualifier`` 2 of 2 right (fewer
than 10, each right: it may contradict; before a status was bound to the claim's own title and
person, 6 of 17, nine of FaithBench's eleven wrong); ``unverified.hedged`` (with ``unasserted``)
takes back 63 groundings, 1.56 times as often hallucinated as what the guard lets through (1.44
before an attribution to a definite source stopped counting as a hedge; 64 before a document of a
definite source did too, "according to a report by the Education Department").
"""

from __future__ import annotations

from ..finding import Finding
from ..tree import Token, _ancestors, _children, _subtree, _text
from ..wordalign import GuardLexicon
from .bound import status_bound
from .context import GuardContext

DECIDES = ("contradicted.qualifier", "unverified.hedged")


def find_dropped(gctx: GuardContext) -> list[Finding]:
    """Words of the evidence that qualify what the claim states, on a word the claim aligns
    with, missing from the claim: a status, an ordinal of a superlative, an exception
    (contradicted); a hedge or an attribution (unverified, unless the claim hedges too)."""
    lex, claim, ev, to, used, passages = gctx.lex, gctx.claim, gctx.ev, gctx.to, gctx.used, gctx.passages
    aligned = {v for v in to.values()}
    claim_lemmas = {t.lemma for t in claim}
    out: list[Finding] = []
    hedged = gctx.hedged
    # a claim that states its fact as beyond doubt says more than any attribution of it
    certain = any(t.lemma in lex.certainty or t.raw in lex.certainty for t in claim)
    for e, toks in enumerate(ev):
        p = passages[e]
        for j, t in enumerate(toks):
            if (e, j) in used or t.lemma in claim_lemmas:
                continue
            near = [a for a in _ancestors(toks, j, 2) if (e, a) in aligned]
            lemma, s, h0 = t.lemma, _text(p, t), t.head
            if (
                lemma in lex.status
                and h0 >= 0
                and (
                    toks[h0].lemma in claim_lemmas
                    or any(
                        (e, c) in aligned and toks[c].flag == "n"
                        for c in (*_children(toks, h0), toks[h0].head)
                        if c >= 0
                    )
                )
            ):
                near = [h0]  # "former director Osei": the title the claim names, or the title of its name
            if not near:
                continue
            head = toks[near[0]]
            if (
                lemma in lex.status
                and t.dep in ("amod", "compound", "advmod")
                and t.flag != "n"
                and head.pos in ("NOUN", "PROPN")
                and status_bound(claim, toks, e, near[0], to)
            ):
                out.append(
                    Finding(
                        "contradicted",
                        "contradicted.qualifier",
                        f"the source says '{s} {_text(p, head)}'",
                        [{"claim": "", "source": s, "kind": "qualifier"}],
                        e,
                    )
                )
            elif (lemma in lex.ordinals or t.flag == "o") and head.tag == "JJS":
                out.append(
                    Finding(
                        "contradicted",
                        "contradicted.qualifier",
                        f"the source says '{s} {_text(p, head)}'",
                        [{"claim": "", "source": s, "kind": "qualifier"}],
                        e,
                    )
                )
            elif lemma in lex.exceptions and t.dep in ("prep", "advcl", "mark", "cc"):
                out.append(
                    Finding(
                        "contradicted",
                        "contradicted.qualifier",
                        f"the source makes an exception: '{s} ...'",
                        [{"claim": "", "source": s, "kind": "qualifier"}],
                        e,
                    )
                )
            elif not hedged and (
                _modal_hedge(lex, toks, j, e, aligned)
                if t.tag == "MD"
                else lemma in lex.hedges
                and t.pos != "PROPN"
                or lemma in lex.attribution_preps
                and t.dep == "prep"
                and (certain or _vague_source(toks, j))
            ):
                out.append(
                    Finding(
                        "unverified",
                        "unverified.hedged",
                        f"the source hedges or attributes it: '{s}'",
                        [{"claim": "", "source": s, "kind": "hedge"}],
                        e,
                    )
                )
        if not hedged:
            out += find_attributed(lex, claim, toks, to, e, p)
        marked = next((t for t in toks if _provisional(lex, toks, t) and t.lemma not in claim_lemmas), None)
        if marked is not None:
            out.append(
                Finding(
                    "unverified",
                    "unverified.hedged",
                    f"the source marks it '{_text(p, marked)}'",
                    [{"claim": "", "source": _text(p, marked), "kind": "provisional"}],
                    e,
                )
            )
    return out


def _vague_source(toks: list[Token], j: int) -> bool:
    """The source an attribution ("according to ...") names is vague: a bare plural or an
    indefinite ("according to critics", "according to some analysts", "according to reports"),
    not a named or definite one ("according to Cal Fire", "according to the police", "according
    to her grandmother"), which only says where the statement comes from. Measured on natural
    text (``bench/rule_precision.py``): "according to" took back 23 groundings, 3 of them
    hallucinated, against 14.5% of what the guard lets through; most named a definite source."""
    for c in _children(toks, j):
        for o in [c, *_children(toks, c)]:
            if toks[o].dep == "pobj":
                return not _definite(toks, o, 2)
    return True


def _definite(toks: list[Token], o: int, depth: int) -> bool:
    """Noun ``o`` names a definite source: a name, a pronoun, a noun with "the" or a possessor,
    or a document or statement of a definite source ("a report by the Pew Research Center",
    "data from the census bureau", "a statement from the governor's office"; not "a study by
    researchers"), ``depth`` such steps at most."""
    t = toks[o]
    if t.flag == "n" or t.pos in ("PROPN", "PRON"):
        return True
    if any(toks[d].dep == "poss" or toks[d].dep == "det" and toks[d].lemma in _DEFINITE for d in _children(toks, o)):
        return True
    return depth > 0 and any(
        toks[g].dep == "pobj" and _definite(toks, g, depth - 1)
        for c in _children(toks, o)
        if toks[c].dep == "prep" and toks[c].lemma in _SOURCE_PREPS
        for g in _children(toks, c)
    )


#: the prepositions that name who a document or statement is from ("a report by", "data from")
_SOURCE_PREPS = frozenset({"by", "from", "of"})
#: determiners that make a source definite ("the police", "this report")
_DEFINITE = frozenset({"the", "this", "that", "these", "those"})


def _modal_hedge(lex: GuardLexicon, toks, j, e, aligned) -> bool:
    """A hedging modal ("may", "might", "could") hedges the claim only where it governs words the
    claim is aligned with: an aligned word under the verb it is the auxiliary of ("the museum
    might close": close; not "I could eat this every day" next to the dish the claim names)."""
    t = toks[j]
    if t.lemma not in lex.hedge_modals and t.lemma not in lex.hedges or t.head < 0:
        return False
    return any((e, i) in aligned for i in _subtree(toks, t.head) if i != j)


def _provisional(lex: GuardLexicon, toks, t) -> bool:
    """The word marks the passage's statement as not final (``provisional`` of
    ``models/guard.json``): an adjective or participle ("preliminary", "superseded"), or a noun as
    a status: a modifier ("draft budget") or "in draft"; not a countable noun ("drafts" on tap,
    "the draft was approved")."""
    if t.lemma not in lex.provisional:
        return False
    if t.pos not in ("NOUN", "PROPN"):
        return True
    if t.tag in ("NNS", "NNPS"):
        return False
    return (
        t.dep in ("compound", "amod", "nmod") or t.dep == "pobj" and t.head >= 0 and toks[t.head].lemma in ("in", "as")
    )


def find_attributed(lex: GuardLexicon, claim, toks, to, e, p) -> list[Finding]:
    """The claim's main verb is said in the evidence under an attribution verb the claim does
    not use ("critics say the plan will raise prices", "the minister denied that she resigned")."""
    roots = [k for k, t in enumerate(claim) if t.head < 0 and k in to and to[k][0] == e]
    for k in roots:
        j = to[k][1]
        for a in _ancestors(toks, j, 2):
            if toks[a].lemma in lex.attribution_verbs and (e, a) not in to.values():
                s = _text(p, toks[a])
                return [
                    Finding(
                        "unverified",
                        "unverified.hedged",
                        f"the source attributes it: '{s}'",
                        [{"claim": "", "source": s, "kind": "attribution"}],
                        e,
                    )
                ]
    return []
