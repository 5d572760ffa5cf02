"""Finder ``contradicted.value`` of a rate, the denominator of a rate: "$30 per month" is not "$30
per year", "5 mg per day" is not "5 mg per week". The rules compare the amount ($30, 5 mg) and the
guard's alignment finds every word of the claim in its evidence ("month" may stand elsewhere in the
passage), so a rate read against another rate of the same amount was grounded. :func:`find_rate`
reads, for each value of the claim aligned with a value of its evidence, the noun each one is
counted per — the object of "per" ("per month", "per square kilometre") or a measure phrase with
"a"/"an" ("$12 a month", "twice an hour") hung on the value or on its unit — and when both have one
and the two differ (not the same lemma, form or synonym: ``GuardLexicon.related``) the claim is
``contradicted.value``, shown as ``claim per month ≠ source per year``. A claim that names no
denominator, or evidence that names none, gives nothing: the rules have compared the amount.
"""

from __future__ import annotations

from ..finding import Finding
from ..tree import _children, _text
from .context import GuardContext

DECIDES = ("contradicted.value",)


#: the determiners of a measure phrase that reads as "per": "$12 a month", "twice an hour"
_PER_DET = ("a", "an")


def denominator(toks, i: int) -> int | None:
    """The noun that value word ``i`` is counted per, or None: the object of a "per" on the value,
    its unit, the noun the unit measures ("tonnes of silt") or the verb the unit is the object of,
    or a noun phrase "a/an N" hung on one of them."""
    around = [i]
    h = toks[i].head
    if h >= 0 and toks[i].dep in ("nummod", "nmod", "compound", "quantmod"):
        around.append(h)  # "5 mg per day": "per" hangs on the unit
        # "300 tonnes of silt per year": on the noun the unit measures
        around += [
            o
            for p in _children(toks, h)
            if toks[p].dep == "prep" and toks[p].lemma == "of"
            for o in _children(toks, p)
            if toks[o].dep == "pobj"
        ]
        if toks[h].head >= 0 and toks[toks[h].head].pos == "VERB":
            around.append(toks[h].head)  # "carries 300 tonnes a year": on the verb
    for a in around:
        for c in _children(toks, a):
            t = toks[c]
            if t.dep == "prep" and t.lemma == "per":
                obj = next((o for o in _children(toks, c) if toks[o].dep == "pobj"), None)
                if obj is not None:
                    return obj
            if (
                t.dep == "npadvmod"
                and t.pos == "NOUN"
                and any(toks[d].dep == "det" and toks[d].lemma in _PER_DET for d in _children(toks, c))
            ):
                return c
    return None


def find_rate(gctx: GuardContext) -> list[Finding]:
    """A value of the claim counted per another noun than its evidence's value (module docstring)."""
    lex, claim, ev, to, passages, cword = gctx.lex, gctx.claim, gctx.ev, gctx.to, gctx.passages, gctx.cword
    for k, (e, j) in sorted(to.items()):
        if claim[k].flag != "n" or claim[k].pos != "NUM" or ev[e][j].pos != "NUM":
            continue
        dc, de = denominator(claim, k), denominator(ev[e], j)
        if dc is None or de is None:
            continue
        a, b = claim[dc], ev[e][de]
        if lex.related(a.lemma, b.lemma) or lex.related(b.lemma, a.lemma):
            continue
        w, s = f"per {cword(dc)}", f"per {_text(passages[e], b)}"
        said = gctx.ctx.record["text"][
            min(claim[k].start, a.start) : max(claim[k].end, a.end)
        ]  # "12 a month" as written
        there = passages[e].f["text"][min(ev[e][j].start, b.start) : max(ev[e][j].end, b.end)]
        return [
            Finding(
                "contradicted",
                "contradicted.value",
                f"the claim says '{said}'; the source says '{there}'",
                [{"claim": w, "source": s, "kind": "unit"}],
                e,
            )
        ]
    return []
