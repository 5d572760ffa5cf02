"""The denominator of a rate: "$30 per month" is not "$30 per year", "5 mg per day" is not "5 mg per
week". The rules compare the amount ($30, 5 mg) and the guard's alignment finds every word of
the claim in its evidence ("month" may stand elsewhere in the passage), so a rate read against
another rate of the same amount was grounded. :func:`find_rate` reads, for each value of the claim
aligned with a value of its evidence, the noun each one is counted per — the object of "per"
("per month", "per square kilometre") or a measure phrase with "a"/"an" ("$12 a month", "twice
an hour") hung on the value or on its unit — and when both have one and the two differ (not the
same lemma, form or synonym: ``GuardLexicon.related``) the claim is ``contradicted.value``,
shown as ``claim per month ≠ source per year``. A claim that names no denominator, or evidence
that names none, gives nothing: the rules have compared the amount.
"""

from __future__ import annotations

from .finding import Finding
from .tree import DEP, FLAG, HEAD, LEMMA, POS, _children, _text

#: the determiners of a measure phrase that reads as "per": "$12 a month", "twice an hour"
_PER_DET = ("a", "an")


def denominator(toks, i: int) -> int | None:
    """The noun that value word ``i`` is counted per, or None: the object of a "per" on the value,
    its unit, the noun the unit measures ("tonnes of silt") or the verb the unit is the object of,
    or a noun phrase "a/an N" hung on one of them."""
    around = [i]
    h = toks[i][HEAD]
    if h >= 0 and toks[i][DEP] in ("nummod", "nmod", "compound", "quantmod"):
        around.append(h)  # "5 mg per day": "per" hangs on the unit
        # "300 tonnes of silt per year": on the noun the unit measures
        around += [o for p in _children(toks, h) if toks[p][DEP] == "prep" and toks[p][LEMMA] == "of"
                   for o in _children(toks, p) if toks[o][DEP] == "pobj"]
        if toks[h][HEAD] >= 0 and toks[toks[h][HEAD]][POS] == "VERB":
            around.append(toks[h][HEAD])  # "carries 300 tonnes a year": on the verb
    for a in around:
        for c in _children(toks, a):
            t = toks[c]
            if t[DEP] == "prep" and t[LEMMA] == "per":
                obj = next((o for o in _children(toks, c) if toks[o][DEP] == "pobj"), None)
                if obj is not None:
                    return obj
            if t[DEP] == "npadvmod" and t[POS] == "NOUN" and any(
                    toks[d][DEP] == "det" and toks[d][LEMMA] in _PER_DET for d in _children(toks, c)):
                return c
    return None


def find_rate(lex, claim, ev, to, passages, cword) -> list[Finding]:
    """A value of the claim counted per another noun than its evidence's value (module docstring)."""
    for k, (e, j) in sorted(to.items()):
        if claim[k][FLAG] != "n" or claim[k][POS] != "NUM" or ev[e][j][POS] != "NUM":
            continue
        dc, de = denominator(claim, k), denominator(ev[e], j)
        if dc is None or de is None:
            continue
        a, b = claim[dc], ev[e][de]
        if lex.related(a[LEMMA], b[LEMMA]) or lex.related(b[LEMMA], a[LEMMA]):
            continue
        w, s = f"per {cword(dc)}", f"per {_text(passages[e], b)}"
        return [Finding("contradicted", "contradicted.value", f"the claim says '{cword(k)} {w}'; the source says '{s}'",
                        [{"claim": w, "source": s, "kind": "unit"}], e)]
    return []
