"""Finder ``contradicted.polarity`` of an alternative the evidence sets aside: "moved to Denver
rather than Austin", "hired Lee instead of Park", "to Denver, not Austin". A claim that states the
set-aside alternative ("moved to Austin") is aligned word by word with that very passage, every word
found, and would be grounded; the guard (:mod:`sourced_nlp.verdict.guard`) asks
:func:`find_excluded` first.

The cues are the ``exclusion_cues`` of ``models/negation.json``: the connectives that put one
noun phrase in place of another (Quirk et al. 1985, "replacive" coordination: "rather than",
"instead of", "as opposed to", "in place of") and a bare "not" before a noun phrase. They are read
on the surface, just before the phrase, because the parser hangs them in several ways ("than" a
preposition of the verb, "of" a coordinator of the kept noun, "not" a negation of the kept noun).

Measured on natural labelled text (``python bench/rule_precision.py``, 2026-12-07: RAGTruth train
and the five dev sets, pooled; ``bench/RESULTS.md``): counted with ``denied`` under
``contradicted.polarity``: 5 of 5 contradictions right.
"""

from __future__ import annotations

from ..finding import Finding
from ..tree import _children, _text
from .context import GuardContext

DECIDES = ("contradicted.polarity",)


def _phrase_start(toks, i: int) -> int:
    """The first word of the noun phrase that word ``i`` is in: up its name or modifier
    attachments to the head noun, then the left-most word below it, leaving out a cue the parser
    hung on it (a negation, an adverb, a coordinator, a preposition, punctuation)."""
    while toks[i].dep in ("compound", "flat", "amod", "nummod") and toks[i].head >= 0:
        i = toks[i].head
    start, todo = i, [i]
    while todo:
        k = todo.pop()
        for c in _children(toks, k):
            if toks[c].dep not in ("neg", "advmod", "cc", "prep", "punct", "conj", "appos", "relcl", "acl"):
                start = min(start, c)
                todo.append(c)
    return start


def excluded_by(toks, i: int, cues: tuple[tuple[str, ...], ...], pseudo: frozenset[str]) -> str | None:
    """The cue that sets aside the noun phrase of word ``i`` ("rather than"), or None. The cue
    stands just before the phrase, or before the one preposition it hangs on ("not to Austin");
    a pseudo-negation ("not only", "not just") sets nothing aside."""
    if toks[i].pos not in ("NOUN", "PROPN", "NUM") and toks[i].flag != "n":
        return None
    start = _phrase_start(toks, i)
    ends = [start]
    if start > 0 and toks[start - 1].tag == "IN":
        ends.append(start - 1)
    for end in ends:
        for cue in cues:
            n = len(cue)
            if end >= n and tuple(t.raw.lower() for t in toks[end - n : end]) == cue:
                if cue == ("not",) and f"not {toks[end].raw.lower()}" in pseudo:
                    continue
                if (
                    cue == ("not",)
                    and toks[end - 1].dep == "neg"
                    and toks[end - 1].head >= 0
                    and toks[toks[end - 1].head].pos in ("AUX", "VERB")
                ):
                    continue  # the negation of a verb or copula ("this is not a chemical reaction"), no alternative set aside
                return " ".join(cue)
    return None


def find_excluded(gctx: GuardContext) -> list[Finding]:
    """A claim word (a noun or name) that the claim affirms and its evidence sets aside with an
    exclusion cue (:func:`excluded_by`): ``contradicted.polarity``, the cue and the word shown.
    A claim that sets the word aside
    itself ("Denver rather than Austin") is read the same way and gives nothing."""
    cues, pseudo, claim, ev, to, passages, cword = (
        gctx.exclusion,
        gctx.neg_pseudo,
        gctx.claim,
        gctx.ev,
        gctx.to,
        gctx.passages,
        gctx.cword,
    )
    for k, (e, j) in sorted(to.items()):
        if excluded_by(claim, k, cues, pseudo) is not None:
            continue
        cue = excluded_by(ev[e], j, cues, pseudo)
        if cue is None:
            continue
        word, s = _text(passages[e], ev[e][j]), f"{cue} {_text(passages[e], ev[e][j])}"
        said = _as_written(passages[e].f["text"], cue, ev[e][j])
        why = f"the source says '{said}'" if said else f"the source names '{word}' only to set it aside ({cue})"
        return [
            Finding(
                "contradicted",
                "contradicted.polarity",
                f"the claim says '{cword(k)}'; {why}",
                [{"claim": cword(k), "source": s, "kind": "polarity"}],
                e,
            )
        ]
    return []


def _as_written(text: str, cue: str, tok) -> str | None:
    """The passage's words from the exclusion cue to the word it sets aside, as written ("over
    Austin", "rather than a room"), when the cue stands within a few words before it; None when
    the cue's words (the lexicon's) are not written there so."""
    before = text[max(0, tok.start - 40) : tok.start].lower()
    at = before.rfind(cue.lower())
    if at < 0 or (at > 0 and before[at - 1].isalnum()) or len(before[at + len(cue) :].split()) > 3:
        return None
    return text[tok.start - len(before) + at : tok.end]
