"""Rule ``contradicted``: a passage about the same thing states something incompatible.

Decides ``contradicted.value``, ``contradicted.polarity``, ``contradicted.antonym``,
``contradicted.entity`` (a swap of names) and, against a record, ``contradicted.record_field``
(:func:`sourced_nlp.verdict.records.fields.field_conflicts`). Every candidate passage is
read; each conflict is ranked by the passage's coverage (a record's field line 1.0, a swap of
names its coverage - 0.01) and the first best decides (support 0.1 x (1 - coverage)).

A passage is about the same thing when every named anchor of the claim is there (on a line of
opening hours, the line's own day is enough) and its coverage >= ``contradicted_coverage``
(0.5). Then, in this order:

* **value** — a comparable quantity with a disjoint value and none that matches
  (:func:`~sourced_nlp.verdict.values.compare_values`, a conflict that a passage aligned within
  ``conflict_margin`` (0.2) of coverage does not resolve by holding the claim's value). In
  prose it also needs the passage to share a name or another value with the claim, the counted
  noun ("21% of patients" / "12% of patients"), or ``unanchored_conflict`` (0.7) of its words
  ("cook for 5 minutes" against another step's "cook for 10 minutes" is no conflict). On a line
  of opening hours, only the times the claim gives for the line's day count.
* **polarity** — the claim's predicate with the opposite polarity, at coverage >=
  ``polarity_coverage`` (0.7) and no value conflict.
* **antonym** — an antonym predicate (``models/lexical.json`` antonym groups), the rest of the
  claim's words held at coverage >= 0.6.

Whatever the coverage, **entity**: the claim names someone the sources never mention, and the
passage names another of the same type in the same grammatical role, the rest of the claim
there (coverage >= ``swap_coverage``, 0.7), every value of the claim there and another of its
names or values, or, failing one, 90% of at least ``swap_min_words`` (2) of its words
("announced by CEO Sundar Pichai" / "announced by CEO Satya Nadella"); never a run of
capitalised words the NER did not label, nor a weekday, nor an identifier ("Store 9"). All thresholds were set on the
acceptance cases and the RAGTruth train split.

Measured on natural labelled text (``python bench/rule_precision.py``, 2026-12-07: RAGTruth train
and the five dev sets, pooled; ``bench/RESULTS.md``): ``contradicted.value`` 65 of 79 right
(72-89%), ``contradicted.antonym`` 10 of 11 (62-98%), ``contradicted.entity`` 9 of 11 (52-95%; 10 of
14 before a name whose every word is in the passage stopped counting as another name),
``contradicted.polarity`` 10 of 12 (55-95%; 10 of 15 before a denial the passage states on the word
itself, with a denying verb or a near-negative, stopped counting as an affirmation:
:func:`~sourced_nlp.verdict.polarity.denied_there`). Each may contradict. On FaithBench alone
``contradicted.value`` is right 1 time in 5 (a figure glued to the next word, "£2,980,815,The";
dates of two events; 1 in 9 before a total of the parts a passage lists matched:
:func:`~sourced_nlp.verdict.alignment._total_of_parts`): an open item.
"""

from __future__ import annotations

import re

from ..alignment import Alignment, Conflict
from ..context import ClaimContext
from ..passage import single
from ..records.fields import field_conflicts
from ..records.hours import day_times, hours_line, own_day_conflicts
from ..tree import tokens
from ..types import Result, result
from ..values import compare_values, to_quantity
from ..wordalign import default_guard_lexicon
from ..words import entity_in

DECIDES = (
    "contradicted.value",
    "contradicted.polarity",
    "contradicted.antonym",
    "contradicted.entity",
    "contradicted.record_field",
)


def contradicted(ctx: ClaimContext) -> Result | None:
    """The rule (module docstring)."""
    found = field_conflicts(ctx)
    cq = ctx.all_values
    times = day_times(ctx.claim, cq) if ctx.index.has_records and any(q.kind == "time" for _, q in cq) else None
    for al in ctx.alignments:
        conflict = _about_same(ctx, al, times)
        if conflict is None:
            conflict = _swap(ctx, al)
        if conflict is not None:
            found.append(conflict)
    if not found:
        return None
    best = max(found, key=lambda x: (x.coverage, -x.alignment.pid))
    return result(
        "contradicted",
        best.reason,
        0.1 * (1 - best.coverage),
        [ctx.evidence(best.alignment.pid)],
        best.differs,
        rule=best.rule,
    )


def _about_same(ctx: ClaimContext, al: Alignment, times: dict | None) -> Conflict | None:
    """A value, polarity or antonym conflict of a passage about the same thing."""
    claim, t = ctx.claim, ctx.t
    p = ctx.passage(al.pid)
    # a line of opening hours speaks of its own day: the claim's other days do not matter
    other_days_only = (
        p.structured
        and hours_line(p)
        and any(a.get("label") == "DAY" for a in al.ents_direct)
        and all(a.get("label") == "DAY" for a in al.ents_missing)
    )
    if not ((not al.ents_missing or other_days_only) and al.coverage >= t.contradicted_coverage):
        return None
    # a value conflict in prose needs the passage to be about the same thing: a name or
    # another value of the claim on it, a value counting the same noun ("21% of
    # patients" / "12% of patients"), or most of the claim's words ("cook for 5 minutes"
    # against another step's "cook for 10 minutes" is no conflict)
    anchored = (
        p.structured
        or al.ents_found
        or al.q_match
        or al.coverage >= t.unanchored_conflict
        or any(qd.get("noun") and qd.get("noun") == sd.get("noun") for qd, sd in al.q_conflict)
    )
    conflicts = own_day_conflicts(times, al, p)
    if conflicts and anchored and _conflict_stands(ctx, al):
        qd, sd = conflicts[0]
        differs = [
            {"claim": qd.get("text", ""), "source": sd.get("text", ""), "kind": "quantity"} for qd, sd in conflicts
        ]
        return Conflict(
            al.coverage,
            al,
            differs,
            f"the source gives {sd.get('text')} where the claim says {qd.get('text')}",
            "contradicted.value",
        )
    # a denial of the claim's predicate about another value is no denial of the claim: "not
    # approved for people under 65" says nothing against "approved for people over 65"
    # ("never reported a loss" still denies "reported a loss in 2020": the passage has no year)
    kinds = {sd.get("kind") for sd, _ in p.quantities}
    other_value = not p.structured and any(qd.get("kind") in kinds for qd in al.q_absent)
    if al.polarity_flip and al.coverage >= t.polarity_coverage and not al.q_conflict and not other_value:
        claim_side = claim["cue"] or "affirmed"
        src = p.f["cue"] or (p.value if p.structured and p.value else "affirmed")
        differs = [{"claim": claim_side, "source": src, "kind": "polarity"}]
        return Conflict(
            al.coverage,
            al,
            differs,
            _polarity_reason(claim["cue"], src if src != "affirmed" else None),
            "contradicted.polarity",
        )
    if al.antonym:
        rest = [x for x in claim["lemmas"] if x != al.antonym[0]]
        if ctx.aligner.coverage(rest, p, ctx.index) >= 0.6:
            w, s = _written(claim, al.antonym[0]), _written(p.f, al.antonym[1])
            differs = [{"claim": w or al.antonym[0], "source": s or al.antonym[1], "kind": "antonym"}]
            why = (
                f"the source says '{s}' where the claim says '{w}'"
                if w and s
                else f"the source says the opposite of the claim: {al.antonym[1]} against {al.antonym[0]}"
            )
            return Conflict(al.coverage, al, differs, why, "contradicted.antonym")
    return None


def _polarity_reason(claim_cue: str | None, source_cue: str | None) -> str:
    """The reason of a polarity conflict, quoting only words the texts have: the cue of the side
    that denies; the side that affirms is said, not quoted ("affirmed" is no word of either)."""
    if claim_cue and source_cue:
        return f"opposite polarity: the source says '{source_cue}' where the claim says '{claim_cue}'"
    if claim_cue:
        return f"opposite polarity: the claim says '{claim_cue}' where the source affirms it"
    return f"opposite polarity: the source says '{source_cue}' where the claim affirms it"


def _written(record, lemma: str) -> str | None:
    """The word of a claim or passage record (``text`` and ``tokens``) whose canonical lemma is
    ``lemma``, as written there ("lowered" for ``reduce``), or None when no one word is."""
    text = record.get("text") or ""
    for t in tokens(record.get("tokens") or ()):
        if lemma in (t.lemma, t.raw):
            return text[t.start : t.end]
    return None


def _swap(ctx: ClaimContext, al: Alignment) -> Conflict | None:
    """A swap of names: the passage names another of the type of the one name of the claim that
    the sources never mention, in the same role, the rest of the claim there."""
    claim = ctx.claim
    if not (
        len(al.ents_missing) == 1 and not al.q_conflict and al.coverage >= ctx.t.swap_coverage and not al.polarity_flip
    ):
        return None
    a = al.ents_missing[0]
    if not a["label"] or a["label"] in ("DAY", "ID"):
        return None  # a run of capitalised words the NER did not call a name; a weekday; "Store 9" (another store, not a swap)
    if any(k in ctx.index.entity_keys for k in (a["key"], *a["aliases"])):
        return None  # the claim's name is in the sources: they may just be silent on this
    if _words_there(a["key"], ctx.passage(al.pid).f["text"]):
        return None  # every word of the name is in the passage ("Albert Brooks" in "Albert Lawrence Brooks")
    other = [
        b
        for b in ctx.passage(al.pid).f["entities"]
        if not b.get("inherited")
        and b["role"] == a["role"]
        and (b["label"] == a["label"] or not a["label"])
        and not any(entity_in(b, single(c)) for c in claim["entities"])
    ]
    # the passage is about the same thing: it holds another name or value of the claim,
    # or nearly all of at least swap_min_words of its words; never when it lacks one of the
    # claim's values ("Donald Trump served one term from 2017 to 2021" is no swap with a
    # passage on Grover Cleveland that gives neither)
    if (
        other
        and not al.q_absent
        and (al.ents_found or al.q_match or (al.coverage >= 0.9 and len(set(claim["lemmas"])) >= ctx.t.swap_min_words))
    ):
        b = other[0]
        differs = [{"claim": a["text"], "source": b["text"], "kind": "entity"}]
        return Conflict(
            al.coverage - 0.01,
            al,
            differs,
            f"the source names {b['text']} where the claim names {a['text']}",
            "contradicted.entity",
        )
    return None


def _words_there(key: str, text: str) -> bool:
    """Every word of a name's key is a word of ``text``: the passage names it in other words
    ("Albert Brooks" / "Albert Lawrence Brooks", "London Games" / "the 2012 Games in London").
    On FaithBench's natural summaries (``bench/rule_precision.py``) each of the three
    ``contradicted.entity`` verdicts was wrong, two of them of this kind."""
    words = re.findall(r"[^\W_]+", key.lower())
    there = set(re.findall(r"[^\W_]+", text.lower()))
    return bool(words) and all(w in there for w in words)


def _conflict_stands(ctx: ClaimContext, al: Alignment) -> bool:
    """A value conflict stands unless a passage aligned almost as well (within
    ``conflict_margin`` of coverage) holds the claim's value; a passage that marks its own
    statement as not final ("preliminary, superseded": the guard's ``provisional`` words, which
    the claim does not use) holds nothing against one that states another value."""
    conflicting = [id(qd) for qd, _ in al.q_conflict]
    for other in ctx.alignments:
        if other is al or other.ents_missing or _provisional(ctx, other.pid):
            continue
        if any(id(m) in conflicting for m in other.q_match) and (
            other.coverage >= al.coverage - ctx.t.conflict_margin or _same_act(ctx, al, other.pid)
        ):
            return False
    return True


def _same_act(ctx: ClaimContext, al: Alignment, pid: int) -> bool:
    """The passage ``pid`` states a conflicting measure of the claim with the claim's own verb
    ("leave it on for half an hour" for the claim's "Leave it on for half an hour", where another
    step says "Leave it on for 15 to 20 minutes"): the claim's act is there, however few of its
    other words the passage holds."""
    for qd, _ in al.q_conflict:
        q = to_quantity(qd)
        if q is None or q.kind != "measure" or not qd.get("head"):
            continue
        if any(
            sd.get("head") == qd["head"] and compare_values(q, s) == "match" for sd, s in ctx.passage(pid).quantities
        ):
            return True
    return False


def _provisional(ctx: ClaimContext, pid: int) -> bool:
    """The passage marks its own statement as not final with a word the claim does not use
    (``models/guard.json`` ``provisional``: "preliminary", "superseded", "draft")."""
    toks = ctx.passage(pid).f.get("tokens") or ()
    words = default_guard_lexicon().provisional
    said = set(ctx.claim["lemmas"])
    return any(t[0] in words and t[0] not in said for t in toks)
