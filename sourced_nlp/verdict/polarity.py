"""Polarity matching: whether a passage affirms or denies what a claim affirms or denies.

A claim and a passage agree when both affirm, or both deny the same predicate (a light
predicate of ``models/negation.json`` — "did not have the right to vote" / "were not allowed
to vote" — denies what the other denial does), or the claim affirms and the passage denies
another predicate. A record's ``false``/``no``/``none`` line always denies. A claim of both
polarities ("offers takeout, but does not offer delivery") is split into its affirmed and its
denied part by :func:`polarity_sides`.
"""

from __future__ import annotations

import re

from .lexicon import VerdictLexicon
from .passage import Passage
from .tree import _children, tokens
from .types import ClaimRecord, FeatureRecord
from .words import compound_of, same_word


def polarity_agrees(claim: ClaimRecord, p: Passage, lex: VerdictLexicon, complement: bool = False) -> bool:
    """The passage can state the claim as far as negation goes: both affirm; both deny the same
    predicate ("did not arrest" is not stated by "did not name the driver who was arrested"); or
    the claim affirms and the passage's denial is on a predicate the claim does not use
    ("Prosecutors are seeking the death penalty" from "..., and they did not rule out an
    appeal"); or (``complement``, :attr:`sourced_nlp.verdict.alignment.Alignment.complement`)
    one denies a word of every member and the other affirms its antonym of all ("none tested
    positive" / "all tested negative"). A denying claim otherwise needs a denying passage; a
    record's false/no line always denies."""
    if complement:
        return True
    if claim["negated"] and p.negated and not p.structured:
        a, b = claim.get("negated_predicate"), p.f.get("negated_predicate")
        return (
            not a or not b or same_word(a, b) or compound_of(a, b) or a in lex.light_denials or b in lex.light_denials
        )
    if claim["negated"] == p.negated:
        return True
    if claim["negated"] or p.structured:
        return False
    denied = p.f.get("negated_predicate")
    if not denied:
        # "no blackout dates", "without Wayne": an argument denied; the claim agrees when it
        # carries the same denial outside its main clause ("such as no blackout dates")
        phrase = cue_phrase(p.f)
        return bool(phrase) and phrase in " ".join(claim["norm"].split())
    return not any(same_word(denied, x) for x in (*claim["predicates"], *claim["lemmas"]))


def polarity_flip(claim: ClaimRecord, p: Passage, lex: VerdictLexicon) -> bool:
    """The passage states the claim's predicate with the other polarity: a record's true/false
    line against a claim of the other polarity; in prose, the denied predicate of one is a
    predicate of the other, and neither is a contrast ("not A, but B": mixed polarity)."""
    if p.structured and p.value in lex.yes_no:
        return claim["negated"] != p.negated
    if claim["negated"] != p.f["negated"]:
        negated, other = (claim, p.f) if claim["negated"] else (p.f, claim)
        return (
            bool(negated.get("negated_predicate"))
            and any(same_word(negated["negated_predicate"], x) for x in other["predicates"])  # type: ignore[arg-type]
            and not claim.get("contrast")
            and not p.f.get("contrast")  # "not A, but B": mixed polarity
            and not denied_there(other, negated["negated_predicate"], lex)  # type: ignore[arg-type]
        )
    return False


def denied_there(f: FeatureRecord, lemma: str, lex: VerdictLexicon) -> bool:
    """The segment denies ``lemma`` where it states it, though its main predicate is affirmed:
    a negation on the word itself ("any student not gainfully employed"), a denying verb over it
    ("failed to progress"), or a near-negative anywhere ("there was little net warming"). Read on
    natural text (``bench/rule_precision.py``), ``contradicted.polarity`` flipped such denials
    into contradictions: four of its five wrong contradictions on RAGTruth train and FaithBench."""
    toks = tokens(f.get("tokens") or [])
    if any(t.lemma in lex.near_negatives for t in toks):
        return True
    for i, t in enumerate(toks):
        if not same_word(t.lemma, lemma):
            continue
        if any(
            toks[c].dep == "neg" or toks[c].raw.replace("\u2019", "'") in ("not", "n't", "never")
            for c in _children(toks, i)
        ):
            return True
        if t.head >= 0 and toks[t.head].lemma in lex.verb_denials and t.dep == "xcomp":
            return True
    return False


def cue_phrase(f: FeatureRecord) -> str | None:
    """The passage's negation cue with the word after it, in ``norm`` form ("no blackout",
    "without wayne"); None when the cue is not found in the text."""
    cue = (f.get("cue") or "").lower()
    if not cue:
        return None
    m = re.search(r"(?<!\w)" + re.escape(cue) + r"\s+([^\W_]+)", f["text"].lower())
    return f"{cue} {m.group(1)}" if m else None


def polarity_sides(claim: ClaimRecord, lex: VerdictLexicon) -> tuple[str, str] | None:
    """``(affirmed, denied)`` parts of a claim of both polarities, as lower-case text: the denied
    part runs from the negation cue to the end of its clause ("It offers takeout, but it does not
    offer delivery"; "It does not serve alcohol, and parking is on the street"), or to the end of
    the phrase the parse says it denies when that comes first ("does not require appointments,
    has a parking lot"; the claim's ``denied`` offsets, which also take in the subject of a
    denied verb: "though delivery is not available"), the rest is affirmed. None for a claim
    without a cue, or one cue whose clause is the whole claim after it and no contrast ("It does
    not offer delivery or Wi-Fi"). The negation words and clause ends are those of
    ``models/verdict.json``."""
    text = claim["text"].lower()
    affirmed, denied, pos, bounded = [], [], 0, False
    while (m := lex.negation_word.search(text, pos)) is not None:
        # what the parse says the cue denies (its subject included), else the cue to the end of
        # its clause
        parsed = next(((s, e) for s, e in claim.get("denied") or () if s <= m.start() < e), None)
        end = lex.clause_end.search(text, m.end())
        start, stop = m.start(), end.start() if end else len(text)
        if parsed is not None:
            start, stop = max(pos, parsed[0]), min(stop, parsed[1])
        bounded = bounded or stop < len(text.rstrip(" .!?;"))
        affirmed.append(text[pos:start])
        denied.append(text[start:stop])
        pos = stop
    if not denied or not (bounded or claim.get("contrast")):
        return None
    affirmed.append(text[pos:])
    return " ".join(affirmed), " ".join(denied)
