"""Finder ``contradicted.polarity`` of a denied word: a word the claim denies ("a bridge that was
not repaired") that the evidence holds by lemma, affirmed, and no passage of the sources denies
(:func:`find_denied`).

Measured on natural labelled text (``python bench/rule_precision.py``, 2026-12-07: RAGTruth train
and the five dev sets, pooled; ``bench/RESULTS.md``): with ``excluded``, 5 of 5 contradictions right
(fewer than 10 firings, each right: it may contradict; before the denying verb above the word and
the negation of a copula were read, 5 of 6), 1.91 times as often hallucinated as what the guard lets
through.
"""

from __future__ import annotations

from ..finding import Finding
from ..tree import Token, _ancestors, _children, _clause, _text
from .context import GuardContext

DECIDES = ("contradicted.polarity",)


def find_denied(gctx: GuardContext) -> list[Finding]:
    """A word the claim denies with a ``neg`` dependent ("the road that does not flood", "the
    senator, who was not elected") that the evidence holds by its own lemma, affirmed:
    no word of that lemma, in the evidence or in any other passage of the sources (``others``:
    every passage, the evidence's included; the evidence alone when it gives none), is denied by a cue on it, on a word above it up to its clause's verb, or on its object's
    determiner ("do not have", "was not known", "has no tip"). Other passages count because a
    contrast ("X have a tip, while Y do not") is grounded on the affirmed clause's passage and
    may be denied in another; a cue deeper in a clause the word governs ("knew they would not
    ...") does not deny it. The negation component reads the cue of a sentence's main predicate
    only (:mod:`sourced_nlp.components.negation`); this reads the cue on any word the claim
    shares with its evidence, a relative or subordinate clause's. The cues and the
    pseudo-negations ("not only") are those of ``models/negation.json``; a synonym, a broader
    word or another form of the stem ("waterlogged" / "water") is no evidence of an affirmation
    (the evidence may deny in other words)."""
    cues, pseudo, claim, ev, to, how, passages, cword = (
        gctx.neg_cues,
        gctx.neg_pseudo,
        gctx.claim,
        gctx.ev,
        gctx.to,
        gctx.hows,
        gctx.passages,
        gctx.cword,
    )
    others = gctx.others
    for k, t in enumerate(claim):
        h = t.head
        if t.dep != "neg" or t.raw.replace("\u2019", "'") not in cues or h < 0 or h not in to or how.get(h) != "lemma":
            continue
        if k > h:  # a cue after its head is a contrast the parse hung there ("..., not climate change")
            continue
        nxt = claim[k + 1].raw if k + 1 < len(claim) else ""
        if f"{t.raw} {nxt}" in pseudo or t.raw == "no" and nxt == "longer":
            continue
        e, j = to[h]
        lemma = ev[e][j].lemma

        def denied(toks: list[Token], i: int) -> bool:
            # the cue on the word, on a word above it up to its clause's verb, or on its object
            # ("do not have", "was not known", "has no tip"); not a cue deeper in a clause it
            # governs ("knew they would not get into trouble")
            clause = _clause(toks, i)
            above = [i]
            for a in _ancestors(toks, i, 3):
                if clause is None or i == clause or clause in above:
                    break
                above.append(a)
            reach = {c for a in above for c in _children(toks, a)}
            reach |= {d for c in _children(toks, i) for d in _children(toks, c) if toks[d].dep == "det"}
            if any(toks[a].lemma in cues and toks[a].pos in ("VERB", "AUX") for a in above[1:]):
                return True  # a denying verb above it ("failed to progress")
            return any(
                toks[x].raw.replace("\u2019", "'") in cues or toks[x].lemma in cues or toks[x].dep == "neg"
                for x in reach
            )

        if any(denied(toks, i) for toks in (others() or ev) for i in range(len(toks)) if toks[i].lemma == lemma):
            continue
        s = _text(passages[e], ev[e][j])
        w = f"{cword(k)} {cword(h)}"
        return [
            Finding(
                "contradicted",
                "contradicted.polarity",
                f"the claim says '{w}'; the source says '{s}'",
                [{"claim": w, "source": s, "kind": "polarity"}],
                e,
            )
        ]
    return []
