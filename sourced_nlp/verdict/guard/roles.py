"""Finder ``contradicted.roles``: two names of the claim in each other's part in the evidence
(:func:`find_roles`; the voice read from the parse, so "Smith was defeated by Jones" is "Jones
defeated Smith").

Measured on natural labelled text (``python bench/rule_precision.py``, 2026-12-07: RAGTruth train
and the five dev sets, pooled; ``bench/RESULTS.md``): with ``moved``, 3 of 3 contradictions right
(fewer than 10, each right: it may contradict; before the subject of a copula lost its part, 3 of
7).
"""

from __future__ import annotations

from ..finding import Finding
from ..tree import _text
from .context import GuardContext

DECIDES = ("contradicted.roles",)


def find_roles(gctx: GuardContext) -> list[Finding]:
    """Two names of the claim, the agent and another argument of one verb (:func:`_role`: the
    voice read from the parse, so "Smith was defeated by Jones" is "Jones defeated Smith"), in
    each other's part in the evidence."""
    claim, ev, to, passages, cword = gctx.claim, gctx.ev, gctx.to, gctx.passages, gctx.cword
    if "converse" in gctx.hows.values():
        return []  # the claim says the relation from its other end: the two change places (:mod:`..converse`)
    subj = {k for k, t in enumerate(claim) if t.flag == "n" and t.dep in ("nsubj", "nsubjpass") and k in to}
    obj = {k for k, t in enumerate(claim) if t.flag == "n" and t.dep in ("dobj", "pobj") and k in to}
    for s in subj:
        for o in obj:
            (es, js), (eo, jo) = to[s], to[o]
            rs, ro = _role(claim, s), _role(claim, o)
            if (
                es == eo
                and rs is not None
                and ro is not None
                and rs != ro
                and _role(ev[es], js) == ro
                and _role(ev[eo], jo) == rs
            ):
                return [
                    Finding(
                        "contradicted",
                        "contradicted.roles",
                        f"the claim has '{cword(s)}' and '{cword(o)}' in each other's place",
                        [
                            {
                                "claim": f"{cword(s)} ... {cword(o)}",
                                "source": f"{_text(passages[es], ev[eo][jo])} ... {_text(passages[es], ev[es][js])}",
                                "kind": "roles",
                            }
                        ],
                        es,
                    )
                ]
    return []


def _role(toks, i: int) -> str | None:
    """The part a name plays in its verb's event: ``agent`` (the active subject, the passive's
    "by" phrase) or ``other`` (the passive subject, an object); None for any other dependency."""
    while toks[i].dep in ("compound", "flat") and toks[i].head >= 0 and toks[toks[i].head].flag == "n":
        i = toks[i].head  # a word of a name ("Beta" of "Beta Corp") plays the part of its head
    dep = toks[i].dep
    if dep == "nsubj" and toks[i].head >= 0 and toks[toks[i].head].lemma == "be":
        # the subject of a copula is what the clause describes, no agent ("Speak & Spell is an
        # album from Depeche Mode": one of this finder's four firings on natural text, wrong)
        return None
    if dep == "nsubj" or dep == "pobj" and toks[i].head >= 0 and toks[toks[i].head].dep == "agent":
        return "agent"
    return "other" if dep in ("nsubjpass", "dobj", "pobj") else None
