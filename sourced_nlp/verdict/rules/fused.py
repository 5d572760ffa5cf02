"""Rule ``fused``: grounded by two passages (or several lines of a record) together.

Decides ``grounded.fused`` (support 0.7 + 0.25 x coverage), and against a record
``contradicted.record_field`` (a part the record denies,
:func:`~sourced_nlp.verdict.records.fields.denied_part`) and ``contradicted.hours`` (a week of
opening hours told right but for a day, :func:`~sourced_nlp.verdict.records.hours.misstated_day`),
support 0.05.

A claim that fuses facts from several passages: greedily pick the passage that adds the most of
what is still missing. A passage must add a name or value the others lack (a fact of its own), a
word of the claim (a line of a record: each line states one field), or — for prose — at least
``fusion_min_share`` (0.3) of the claim's weighted content (a summary sentence compressing two
source sentences). At most two passages of prose, ``fusion_record_lines`` (12) lines of one
record (a week of opening hours, seven lines, and a few more fields). Every name and value of the
claim must be covered, and ``fusion_coverage`` (0.75) of its content (``fusion_coverage_record``,
0.85, for records: set on ``tests/cases/records.jsonl``, 1.0 -> 0.85: coverage 66 -> 77 of 136
sentences, false groundings 1 -> 1; ``fusion_coverage_content``, 0.9, when a passage was taken
for its words alone); no chosen passage may conflict with the claim or deny it (a record's line
against a claim of both polarities: the claim words it holds stand on the line's side of the
claim's negation cue); each passage names the claim's entities (a record's line is about the
record); a claim about one person or thing ("One customer ...") may not join two free-text values
of a record (two reviews), and when the passages do not ground it, it is tried again with the
lines of one review at a time (and the record's field lines), so that a sentence of another
review that shares a word ("they forgot our iced tea") does not take the place of the review it
tells.
"""

from __future__ import annotations

import math

from ..alignment import Alignment
from ..context import ClaimContext
from ..passage import Passage
from ..polarity import polarity_agrees, polarity_sides
from ..records.fields import denied_part
from ..records.hours import day_hours_stated, day_times, day_times_hold, misstated_day, other_days_times
from ..types import Result, result
from ..words import in_words, lemma_in

DECIDES = ("grounded.fused",)


def fused(ctx: ClaimContext) -> Result | None:
    """The rule (module docstring)."""
    aligns = ctx.alignments
    got = _fusion_of(ctx, aligns)
    if got is not None or not ctx.claim.get("one_subject"):
        return got
    reviews = sorted({ctx.passage(al.pid).text_of for al in aligns} - {None})
    if len(reviews) < 2:
        return None
    for review in reviews:
        own = [al for al in aligns if ctx.passage(al.pid).text_of in (None, review)]
        got = _fusion_of(ctx, own)
        if got is not None and got["verdict"] == "grounded":
            return got
    return None


def _polarity_fits(ctx: ClaimContext, al: Alignment, p: Passage, sides: tuple[str, str] | None) -> bool:
    """A passage may join a fusion as far as negation goes: it agrees with the claim's
    polarity; or — a line of a record against a claim of both polarities ("offers takeout, but
    does not offer delivery or Wi-Fi") — the claim words the line holds stand on the line's
    side of the claim's negation cue (before it for a true line, after it for a false one)."""
    claim = ctx.claim
    if sides is not None and p.structured and p.value in ctx.lex.yes_no:
        side = sides[1] if p.negated else sides[0]
        words = [x for x in claim["lemmas"] if x not in ctx.index.relation_words and lemma_in(x, p)]
        return bool(words) and all(in_words(x, side) for x in words)
    return not al.polarity_flip and polarity_agrees(claim, p, ctx.lex, al.complement)


def _usable(ctx: ClaimContext, aligns: list[Alignment], times: list, by_day: dict | None) -> list[Alignment]:
    sides = polarity_sides(ctx.claim, ctx.lex)
    own = ctx.own_names
    return [
        al
        for al in aligns
        if (
            not al.q_conflict
            or other_days_times(times, al, ctx.passage(al.pid))
            or day_times_hold(by_day, al, ctx.passage(al.pid))
        )
        and not al.q_partial
        and not al.antonym
        and not al.inherited_blocked
        and _polarity_fits(ctx, al, ctx.passage(al.pid), sides)
        and (not own or al.ents_found or ctx.passage(al.pid).structured)  # a record line is about the record
    ]


def _offers(
    ctx: ClaimContext, usable: list[Alignment], structured: bool, times: list, by_day: dict | None, lemmas: list[str]
) -> dict[int, tuple[set, set]]:
    """Per passage, the anchors (``("e", i)`` names, ``("q", i)`` values) and words it offers."""
    offers: dict[int, tuple[set, set]] = {}
    for al in usable:
        p = ctx.passage(al.pid)
        if structured and times and not (day_hours_stated(times, al, p) or day_times_hold(by_day, al, p)):
            continue
        got_anchors = {
            ("e", i)
            for i, a in enumerate(ctx.own_names)
            if ctx.aligner.entity_found(a, al.pid, ctx.index)
            # the day of a claimed time comes from a line with times, not from a review
            and not (times and a.get("label") == "DAY" and not any(q.kind == "time" for _, q in p.quantities))
        }
        got_anchors |= {("q", i) for i, (qd, _) in enumerate(ctx.values) if any(qd is m for m in al.q_match)}
        money = any(qd.get("kind") == "money" for qd in al.q_match)
        offers[al.pid] = (
            got_anchors,
            {x for x in lemmas if ctx.aligner.word_in(x, p, ctx.index) or money and x in ctx.lex.money_words},
        )
    return offers


def _choose(
    ctx: ClaimContext, offers: dict[int, tuple[set, set]], weights: dict[str, float], structured: bool
) -> tuple[list[int], set, set, bool]:
    """Greedy choice: ``(chosen pids, anchors held, words held, a passage taken for words alone)``."""
    total = math.fsum(weights.values())
    max_parts = ctx.t.fusion_record_lines if structured else 2
    chosen: list[int] = []
    have_a: set = set()
    have_l: set = set()
    by_words = False

    def gain(pid: int) -> tuple[float, bool]:
        a, lemmas = offers[pid]
        words = math.fsum(weights[x] for x in lemmas - have_l)
        if a - have_a:
            return len(a - have_a) * 100.0 + words, False
        if structured and words > 0:
            return words, False  # a line of a record states one field: "accepts credit cards"
        if not structured and total and words / total >= ctx.t.fusion_min_share:
            return words, True  # a fact of its own, told in words
        return 0.0, False

    for _ in range(max_parts):
        pid = max((p for p in offers if p not in chosen), key=lambda p: (gain(p)[0], -p), default=None)
        if pid is None or gain(pid)[0] <= 0:
            break
        by_words = by_words or gain(pid)[1]
        chosen.append(pid)
        have_a |= offers[pid][0]
        have_l |= offers[pid][1]
    return chosen, have_a, have_l, by_words


def _fusion_of(ctx: ClaimContext, aligns: list[Alignment]) -> Result | None:
    claim, index, t, cq = ctx.claim, ctx.index, ctx.t, ctx.values
    own = ctx.own_names
    anchors = {("e", i) for i in range(len(own))} | {("q", i) for i in range(len(cq))}
    times = [q for _, q in cq if q.kind == "time"]
    by_day = day_times(claim, cq) if times else None
    usable = _usable(ctx, aligns, times, by_day)
    if len(usable) < 2:
        return None
    structured = any(ctx.passage(al.pid).structured for al in usable)
    lemmas = sorted({x for x in claim["lemmas"] if not (structured and x in index.relation_words)})
    weights = {x: index.weight(x) for x in lemmas}
    total = math.fsum(weights.values())
    chosen, have_a, have_l, by_words = _choose(
        ctx, _offers(ctx, usable, structured, times, by_day, lemmas), weights, structured
    )
    cov = math.fsum(weights[x] for x in have_l) / total if total else 1.0
    need = t.fusion_coverage_record if structured else t.fusion_coverage_content if by_words else t.fusion_coverage
    if structured and chosen and have_a == anchors:
        denied = denied_part(ctx, chosen, have_l, aligns)
        if denied is not None and math.fsum(weights[x] for x in have_l | set(denied[1])) / total >= need:
            p = ctx.passage(denied[0])
            differs = [{"claim": "affirmed", "source": p.value, "kind": "polarity"}]
            return result(
                "contradicted",
                f"opposite polarity: the source says '{p.value}' for {', '.join(denied[1])}",
                0.05,
                [ctx.evidence(denied[0])],
                differs,
                rule="contradicted.record_field",
            )  # type: ignore[list-item]
    if structured and times and chosen and cov >= need and have_a != anchors:
        wrong = misstated_day(ctx, anchors - have_a, aligns)
        if wrong is not None:
            return wrong
    if len(chosen) < 2 or have_a != anchors or cov < need:
        return None
    if claim.get("one_subject") and len({ctx.passage(pid).text_of for pid in chosen} - {None}) > 1:
        return None  # "One customer ..." told from two reviews of a record: a merge, not a fusion
    if (
        claim.get("subject")
        and not own
        and not any(ctx.aligner.about_subject(claim["subject"], ctx.passage(pid), index) for pid in chosen)
    ):
        return None
    chosen.sort()
    return result(
        "grounded",
        f"stated across {len(chosen)} source passages",
        0.7 + 0.25 * min(1.0, cov),
        [ctx.evidence(pid) for pid in chosen],
        rule="grounded.fused",
    )
