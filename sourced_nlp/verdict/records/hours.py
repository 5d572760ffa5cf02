"""Rule ``hours``: opening hours and closed days of a record's business.

Decides ``contradicted.hours`` / ``unverified.hours``; runs only when the sources hold a record
with lines of opening hours ("hours Monday: 17:0-21:0.").

* :func:`closed_days`, the rule of the decision order: a claim that the business is closed on
  named days ("closed on Mondays"; the closed words of ``models/records.json``), against the
  record's opening hours: a named day with a line of hours contradicts it (the record gives that
  day's hours, support 0.05); when none has one and the claim says nothing more, it is
  unverified (support 0.4): hours that leave a day out do not say the business is closed then
  (the reading of the hand-written record cases). Checked as usual for a record without hours,
  a claim that names no day or gives a time.
* :func:`misstated_day`, a step of the fusion rule (:mod:`sourced_nlp.verdict.rules.fused`): a
  week of opening hours told right but for a day is contradicted by that day's line.
* The helpers that place a claim's times on its days (:func:`day_times`) and decide which of a
  line's conflicts are about its own day, for the contradiction and fusion rules.
"""

from __future__ import annotations

import math

from ...text.quantity import Quantity
from ..alignment import Alignment, Values
from ..context import ClaimContext
from ..passage import Passage, evidence, line_value_text
from ..types import ClaimRecord, QuantityRecord, Result, result
from ..values import hours_range
from ..words import entity_in

DECIDES = ("contradicted.hours", "unverified.hours")


def hours_line(p: Passage) -> bool:
    """The passage gives a time-of-day range (a line of opening hours)."""
    return any(hours_range(q) for _, q in p.quantities)


def closed_days(ctx: ClaimContext) -> Result | None:
    """The rule (module docstring)."""
    claim, index = ctx.claim, ctx.index
    if not index.has_records or not ctx.lex.closed.search(claim["text"]) or claim["negated"]:
        return None
    days = [
        a for a in claim["entities"] if a.get("label") == "DAY" and not a.get("inherited") and not a.get("every_day")
    ]
    lines = [p for p in index.passages if p.structured and hours_line(p)]
    if not days or not lines or any(qd.get("kind") == "time" for qd in claim["quantities"]):
        return None
    for a in days:
        for p in lines:
            if entity_in(a, p):
                hours = line_value_text(p)
                differs = [{"claim": f"closed on {a['text']}", "source": hours, "kind": "quantity"}]
                return result(
                    "contradicted",
                    f"the record gives {hours} for {a['text']}",
                    0.05,
                    [evidence(p)],
                    differs,
                    rule="contradicted.hours",
                )  # type: ignore[list-item]
    rest = [x for x in claim["lemmas"] if x not in index.relation_words and x != "close"]
    if rest or any(
        a not in days and not a.get("inherited") and not any(entity_in(a, p) for p in index.passages if p.structured)
        for a in claim["entities"]
    ):
        return None  # more than the closed days, or a name the record does not hold
    names = ", ".join(a["text"] for a in days)
    return result(
        "unverified",
        f"the record's opening hours leave out {names}; they do not say it is closed",
        0.4,
        rule="unverified.hours",
    )


def misstated_day(ctx: ClaimContext, missing: set, aligns: list[Alignment]) -> Result | None:
    """A week of opening hours told right but for a day ("... and Sunday from 8 AM to 1 PM"
    against "hours Sunday: 8:0-12:0"): what the other lines do not hold (``missing``, anchors
    ``("e", i)`` of the claim's own names and ``("q", i)`` of its values) is only that day and a
    time of the claim, and that day's line shares one end of its hours with the claim's times
    but not the other, every time of the claim a range with both ends. Contradicted, with the
    day's line as evidence; None otherwise (a day the claim names without its hours shares no
    end: it stays unverified)."""
    own, cq = ctx.own_names, ctx.values
    times = [q for _, q in cq if q.kind == "time"]
    if not all(hours_range(q) for q in times):
        return None  # "until 10 PM on Saturdays" names one end only: a line's other end is not said
    ends = {x for q in times for x in (q.low, q.high)}
    wrong: list[tuple[Alignment, Quantity]] = []
    for al in aligns:
        p = ctx.passage(al.pid)
        days = [a for a in al.ents_direct if a.get("label") == "DAY"]
        ranges = [q for _, q in p.quantities if hours_range(q)] if p.structured else []
        if days and len(ranges) == 1 and (ranges[0].low in ends) != (ranges[0].high in ends):
            wrong.append((al, ranges[0]))
    if not wrong:
        return None
    wrong_days = {a["key"] for al, _ in wrong for a in al.ents_direct if a.get("label") == "DAY"}
    for kind, i in missing:
        if kind == "e" and not (own[i].get("label") == "DAY" and own[i]["key"] in wrong_days):
            return None
        if kind == "q" and cq[i][1].kind != "time":
            return None
    al, r = wrong[0]
    p = ctx.passage(al.pid)
    day = next(a["text"] for a in al.ents_direct if a.get("label") == "DAY")
    hours = line_value_text(p)
    differs = [{"claim": day, "source": hours, "kind": "quantity"}]
    return result(
        "contradicted",
        f"the record gives {hours} for {p.f['text'].split(':')[0].split()[-1]}",
        0.05,
        [ctx.evidence(al.pid)],
        differs,
        rule="contradicted.hours",
    )  # type: ignore[list-item]


def other_days_times(times: list[Quantity], al: Alignment, p: Passage) -> bool:
    """The only values a line of opening hours conflicts with are times the claim gives for other
    days ("11 AM to 10 PM Monday through Thursday, until 11 PM on Friday" against "hours
    Friday: 11:0-23:0"): both ends of its range are among the claim's times."""
    if not (p.structured and times and hours_line(p)):
        return False
    if any(qd.get("kind") != "time" for qd, _ in al.q_conflict):
        return False
    ends = {x for q in times for x in (q.low, q.high) if not math.isinf(x)}
    return all(r.low in ends and r.high in ends for _, r in p.quantities if hours_range(r))


def _day_events(
    claim: ClaimRecord, cq: Values
) -> tuple[list[tuple[int, str]], list[tuple[int, QuantityRecord]]] | None:
    """The claim's days ``(offset, day key)`` and times ``(offset, quantity dict)`` in text
    order; None when a time is not found in the text."""
    days = sorted(
        (
            (at - claim["start"], a["key"])
            for a in claim["entities"]
            if a.get("label") == "DAY" and not a.get("inherited") and "start" in a
            for at in (a["start"], *a.get("also_at", ()))
        ),
        key=lambda x: x[0],
    )
    text, pos, events = claim["text"], 0, []
    for qd, q in cq:
        if q.kind != "time":
            continue
        at = text.find(qd.get("text") or "\0", pos)
        if at < 0:
            return None
        events.append((at, qd))
        pos = at + 1
    return days, events


def day_times(claim: ClaimRecord, cq: Values) -> dict[str, list[QuantityRecord]] | None:
    """The times of day a claim gives for each day it names, by the order it names them:
    ``{day key: [time quantity dicts]}``. When the claim names a time first ("from 4 PM to
    midnight Monday through Thursday and until 2 AM on Fridays and Saturdays"), a time is said of
    the days after it up to the next time; when it names a day first ("Friday and Saturday from
    11 AM to 2 AM, and Sunday from 11 AM to 10 PM"), of the days before it back to the last time;
    when it names days first and again after its last time, the first are a heading and the
    times are said of the days after them.
    None when the claim names no day, or a time of it cannot be placed or takes no day."""
    placed = _day_events(claim, cq)
    if placed is None or not placed[0]:
        return None
    days, events = placed
    if not events:
        return None
    text = claim["text"]
    # time first when a day follows the last time; days before the first time are then a
    # heading ("open Tuesday through Sunday, from 7 AM to 3 PM on weekdays and 8 AM to 2 PM on
    # weekends") that the days after the times spell out
    time_first = events[0][0] < days[0][0] or days[-1][0] > events[-1][0]
    said: list[list[str]] = []
    for i, (at, _) in enumerate(events):
        if time_first:
            end = events[i + 1][0] if i + 1 < len(events) else len(text)
            said.append([k for start, k in days if at < start < end])
        else:
            begin = events[i - 1][0] if i else -1
            said.append([k for start, k in days if begin < start < at])
    # times in a row share their days ("opens at 3 PM and closes at midnight Monday through
    # Thursday"); a last time without a day is said of the days before it ("..., when it opens
    # at 11 AM")
    order = range(len(events) - 1, -1, -1) if time_first else range(len(events))
    last: list[str] = []
    for i in order:
        said[i] = said[i] or last
        last = said[i]
    for i in range(1, len(said)):
        said[i] = said[i] or said[i - 1]
    out: dict[str, list[QuantityRecord]] = {}
    for (_, qd), keys in zip(events, said):
        if not keys:
            return None
        for k in keys:
            out.setdefault(k, []).append(qd)
    return out


def _line_days(al: Alignment) -> set[str]:
    return {a["key"] for a in al.ents_direct if a.get("label") == "DAY"}


def own_day_conflicts(times_by_day: dict[str, list[QuantityRecord]] | None, al: Alignment, p: Passage) -> list:
    """The value conflicts of an alignment that are about its passage: on a line of opening
    hours, only those of the times the claim gives for the line's days (``times_by_day``, from
    :func:`day_times`), when the claim's times can be placed ("4 PM to midnight Monday through
    Thursday and until 1 AM on Fridays" conflicts with Friday's "11:0-2:0" over "until 1 AM")."""
    if not al.q_conflict or not (p.structured and hours_line(p)):
        return al.q_conflict
    named = _line_days(al)
    if not times_by_day or not named or not named <= times_by_day.keys():
        return al.q_conflict
    own = {id(qd) for k in named for qd in times_by_day[k]}
    return [(qd, sd) for qd, sd in al.q_conflict if id(qd) in own or qd.get("kind") != "time"]


def day_times_hold(times_by_day: dict[str, list[QuantityRecord]] | None, al: Alignment, p: Passage) -> bool:
    """A line of opening hours holds every time the claim gives for each day of the line it names
    (:func:`day_times`); the claim's times for other days are not about this line."""
    if not times_by_day or not (p.structured and hours_line(p)):
        return False
    named = _line_days(al)
    return bool(named) and all(
        k in times_by_day and all(any(qd is m for m in al.q_match) for qd in times_by_day[k]) for k in named
    )


def day_hours_stated(times: list[Quantity], al: Alignment, p: Passage) -> bool:
    """A line of opening hours ("hours Sunday: 8:0-13:0.") joins a fusion for a claim that states
    times of day only when the claim states that day's hours: both ends of its range are among
    the claim's times, or every time of the claim matches it. "Opens at 7 AM on Saturday and
    Sunday, closing at 2 PM on Saturday and 1 PM on Sunday" does not state a Sunday opening at 8."""
    ranges = [q for _, q in p.quantities if hours_range(q)]
    if not ranges or not any(a.get("label") == "DAY" for a in al.ents_direct):
        return True
    ends = {x for q in times for x in (q.low, q.high) if not math.isinf(x)}
    if all(r.low in ends and r.high in ends for r in ranges):
        return True
    return len(al.q_match) == len(times) and not al.q_absent and not al.q_conflict
