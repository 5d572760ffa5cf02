"""Finder ``contradicted.roles`` of two nouns: two nouns or names of the claim each in the other's
slot in the evidence (:func:`find_moved`: "from the reservoir to the lake" for "from the lake to
the reservoir").

Measured on natural labelled text (``python bench/rule_precision.py``, 2026-12-07: RAGTruth train
and the five dev sets, pooled; ``bench/RESULTS.md``): counted with ``roles`` under
``contradicted.roles``: 3 of 3 right (an apposition, a possessive and a copula's subject are one
thing or no part: 3 of 6 wrong before).
"""

from __future__ import annotations

from ..finding import Finding
from ..tree import _text
from ..wordalign import GuardLexicon
from .bound import one_thing
from .context import GuardContext

DECIDES = ("contradicted.roles",)


def find_moved(gctx: GuardContext) -> list[Finding]:
    """Two nouns of the claim in each other's place, where the evidence holds both: "produces a
    correct input for every output" against "produces a correct output for every input". Each
    noun's slot (the aligned content word it depends on, and the dependency or preposition it
    hangs on by: :func:`_slot_of`) holds, in the evidence, the word the other noun is aligned
    with, and neither noun's own word is in its slot; two members of one list are in no
    order (:func:`_coordinated`). Nouns by lemma or form, names by key ("from Porto to Ajax" /
    "from Ajax to Porto", "Ortiz's deputy, Varga" / "Varga's deputy, Ortiz"); values are
    :func:`find_binding`'s."""
    lex, claim, ev, to, how, passages, cword = (
        gctx.lex,
        gctx.claim,
        gctx.ev,
        gctx.to,
        gctx.hows,
        gctx.passages,
        gctx.cword,
    )
    if "converse" in how.values():
        return []  # the claim says the relation from its other end: the two change places (:mod:`..converse`)
    ev_slots: dict[int, dict[tuple[int, str], list[int]]] = {}  # each passage's words by slot, once
    memo: dict[int, tuple[int, list[int]] | None] = {}

    def slot_in_ev(k: int) -> tuple[int, list[int]] | None:
        if k in memo:
            return memo[k]
        sl = _slot_of(lex, claim, k)
        out = None
        if sl is not None and sl[0] in to:
            e, hj = to[sl[0]]
            if e not in ev_slots:
                ev_slots[e] = {}
                for i in range(len(ev[e])):
                    if (x := _slot_of(lex, ev[e], i)) is not None:
                        ev_slots[e].setdefault(x, []).append(i)
            out = e, ev_slots[e].get((hj, sl[1]), [])
        memo[k] = out
        return out

    nouns = [
        k
        for k in to
        if claim[k].pos in ("NOUN", "PROPN")
        and (claim[k].flag != "n" and how.get(k) in ("lemma", "form") or claim[k].flag == "n" and how.get(k) == "name")
        and not claim[k].raw.isdigit()
    ]
    at: dict[tuple[int, int], list[int]] = {}  # the claim nouns aligned with each evidence word
    for n, b in enumerate(nouns):
        at.setdefault(to[b], []).append(n)
    for a in nouns:
        sa = slot_in_ev(a)
        if sa is None or to[a][0] != sa[0] or to[a][1] in sa[1]:
            continue
        for b in [nouns[n] for n in sorted({n for j in sa[1] for n in at.get((sa[0], j), ())})]:
            if b == a or claim[b].lemma == claim[a].lemma:
                continue
            sb = slot_in_ev(b)
            if sb is None or sb[0] != sa[0] or to[a][1] not in sb[1] or to[b][1] in sb[1]:
                continue
            if (
                _slot_of(lex, claim, a) == _slot_of(lex, claim, b)
                or _coordinated(claim, a, b)
                or _coordinated(ev[sa[0]], to[a][1], to[b][1])
            ):
                continue  # members of one list, in any order
            if one_thing(claim, a, b) or one_thing(ev[sa[0]], to[a][1], to[b][1]):
                continue  # "the club's chairman, Jim Mann": one person, no roles to swap
            p = passages[sa[0]]
            s = _text(p, ev[sa[0]][to[b][1]])
            return [
                Finding(
                    "contradicted",
                    "contradicted.roles",
                    f"the claim has '{cword(a)}' and '{cword(b)}' in each other's place",
                    [
                        {
                            "claim": f"{cword(a)} ... {cword(b)}",
                            "source": f"{s} ... {_text(p, ev[sa[0]][to[a][1]])}",
                            "kind": "roles",
                        }
                    ],
                    sa[0],
                )
            ]
    return []


def _slot_of(lex: GuardLexicon, toks, i: int) -> tuple[int, str] | None:
    """The word's slot: the content word it depends on and how (its dependency class, or the
    preposition it hangs on: "parsing of sentences" is ``(parsing, "of")``)."""
    t = toks[i]
    h = t.head
    if h < 0:
        return None
    if t.dep == "pobj" and toks[h].dep in ("prep", "agent", "dative") and toks[h].head >= 0:
        return toks[h].head, "of:" + toks[h].lemma
    return h, lex.dep_class.get(t.dep, t.dep)


def _coordinated(toks, i: int, j: int) -> bool:
    """Words ``i`` and ``j`` are members of one coordination ("a hammer, a saw and a drill")."""

    def first(x: int) -> int:
        while toks[x].dep == "conj" and toks[x].head >= 0:
            x = toks[x].head
        return x

    return first(i) == first(j)
