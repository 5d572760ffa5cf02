"""Value matching: whether a claim's quantity matches, conflicts with or is absent from a passage's.

Two values are compared by :func:`sourced_nlp.text.quantity.compare` (intervals after approximators,
unit conversion by pint) with the rules of :func:`compare_values` on top; a conflict counts only
between values that can conflict (:func:`conflict_credible`) and count or measure the same
thing (:func:`nouns_compatible`).
"""

from __future__ import annotations

import math
from collections.abc import Collection

from ..text.quantity import Quantity, compare, conversion
from .types import QuantityRecord
from .words import same_word


def to_quantity(d: dict) -> Quantity | None:
    """A :class:`Quantity` from a ``span._.quantity`` dict (extra keys such as ``noun`` ignored)."""
    try:
        return Quantity.from_dict({k: v for k, v in d.items() if k != "noun"})
    except (KeyError, TypeError, ValueError):
        return None


def is_article_one(qd: QuantityRecord, article_ones: tuple[str, ...]) -> bool:
    """ "One reviewer", "one of the best": a spelled-out one (``article_ones`` of
    ``models/verdict.json``) is an article, not a count to check."""
    return (
        qd.get("kind") == "number"
        and qd.get("low") == 1.0
        and qd.get("high") == 1.0
        and qd.get("text", "").strip().lower() in article_ones
        and not qd.get("whole")  # "one in four adults": a count of a whole
    )


def compare_values(claim: Quantity, source: Quantity, hours: bool = False) -> str:
    """:func:`compare` (``hours``: the source is a line of a record, whose time ranges are
    opening hours), with three rules more: two stated ranges (both ends written, no "about",
    "over") that overlap without either holding the other ("8-10%" against "9-12%") differ — a
    conflict ("around 600 hours" against "over 600 hours" does not); two stated ranges of which
    one holds the other state one range only with the same ends ("10-20%" against "10-15%": a
    conflict); and two time-of-day ranges with
    other ends ("open 11 AM to 9 PM" against "11:0-23:0") differ even when one holds the other."""
    if (
        hours
        and claim.kind == "measure"
        and claim.low == claim.high == 86400.0
        and source.kind == "time"
        and source.low == source.high == 0.0
    ):
        return "match"  # "open 24 hours" for Yelp's "0:0-0:0"
    r = compare(claim, source, hours=hours)
    if r == "partial" and claim.kind == source.kind == "time" and claim.low < claim.high and source.low < source.high:
        return "conflict"  # opening hours: both ends are stated, another end is another fact
    stated = all(not q.approx and not math.isinf(q.low) and not math.isinf(q.high) for q in (claim, source))
    if (
        r == "match"
        and stated
        and claim.kind not in ("date", "time")  # "2014" holds "February 2014": a date is a span, no range
        and claim.low < claim.high
        and source.low < source.high
    ):
        # two stated ranges state one range only with the same ends: "10-20%" is not "10-15%"
        # (a single value inside a claimed range still matches it)
        ends = (
            compare(_end(claim, claim.low), _end(source, source.low)),
            compare(_end(claim, claim.high), _end(source, source.high)),
        )
        if ends != ("match", "match"):
            return "conflict"
    if r == "partial" and stated and claim.low < claim.high and source.low < source.high:
        if not (claim.low <= source.low and source.high <= claim.high) and not (
            source.low <= claim.low and claim.high <= source.high
        ):
            return "conflict"
    return r


def sign_only(claim_q: QuantityRecord, source_q: QuantityRecord, falls: Collection[str]) -> str | None:
    """Two values of one magnitude of which exactly one is written with a minus sign ("-3%" and
    "fell 3%"): ``"match"`` when the other is said of a verb of falling (``fall_verbs`` of
    ``models/units.json``: the verb carries the sign), else ``"partial"`` (a change of -3% and
    a level of 3% cannot be told apart from the figures); None for any other pair."""
    if claim_q.get("kind") != source_q.get("kind") or claim_q.get("unit") != source_q.get("unit"):
        return None
    try:
        a, b = float(claim_q["low"]), float(source_q["low"])
    except (KeyError, TypeError, ValueError):
        return None
    if a == 0 or a != -b or claim_q.get("high") != claim_q.get("low") or source_q.get("high") != source_q.get("low"):
        return None
    minus = [q.get("text", "").lstrip()[:1] in ("-", "\u2212") for q in (claim_q, source_q)]
    if minus.count(True) != 1:
        return None
    unsigned = source_q if minus[0] else claim_q
    return "match" if (unsigned.get("head") or "") in falls else "partial"


def _end(q: Quantity, v: float) -> Quantity:
    """One end of range ``q`` as a value of its own, at the range's precision."""
    return Quantity(q.kind, v, v, q.unit, q.dimension, q.precision, None, q.text)


def conflict_credible(claim_q: QuantityRecord, source_q: QuantityRecord) -> bool:
    """Whether two values can conflict: not two measures or dates said of two verbs ("rest for 10
    minutes" / "roast for about 20 minutes": two steps of a procedure; "released in 2016" /
    "first heard in 2005": two events — a percent or an amount is reported with many verbs,
    "affected 21%" / "reported by 12%"); two plain counts only when both count the same noun
    ("5 offices" / "56 offices"), or neither counts a noun and both are written in digits and
    at least 10 ("Headcount was 221,000" / "228,000"). Small spelled-out numbers ("one or more joints",
    "the two pieces") are too often not the attribute the source counts."""
    ha, hb = claim_q.get("head"), source_q.get("head")
    if (
        claim_q.get("kind") == source_q.get("kind")
        and claim_q.get("kind") in ("measure", "date")
        and ha
        and hb
        and not same_word(ha, hb)
    ):
        # "rest for 10 minutes" and "roast for about 20 minutes": two steps, two values; "released
        # in 2016" and "first heard in 2005": two events, two dates
        return False
    kinds = {claim_q.get("kind"), source_q.get("kind")}
    if kinds == {"number", "money"}:
        # "56B" for "$56 billion" is comparable; "four" crew members against "$65 million" is not
        plain = claim_q if claim_q.get("kind") == "number" else source_q
        return not plain.get("noun") and abs(float(plain["low"])) >= 1000
    if kinds != {"number"}:
        return True
    if claim_q.get("noun") and source_q.get("noun"):
        return claim_q["noun"] == source_q["noun"]
    if claim_q.get("noun") or source_q.get("noun"):
        return False
    digits = all(any(ch.isdigit() for ch in q.get("text", "")) for q in (claim_q, source_q))
    return digits and min(abs(float(claim_q["low"])), abs(float(source_q["low"]))) >= 10


def nouns_compatible(a: QuantityRecord, b: QuantityRecord) -> bool:
    """Two values may be compared: they count or measure the same thing, or either names none.
    A noun is one word, or a volume's ingredients (space-separated): one in common will do;
    words alike in their first four letters are one ("cardamom"/"cardamon")."""
    na, nb = a.get("noun"), b.get("noun")
    if not na or not nb or na == nb:
        return True
    return any(x[:4] == y[:4] for x in na.split() for y in nb.split())


def roles_compatible(a: QuantityRecord, b: QuantityRecord) -> bool:
    """Two values may be compared unless one is the amount of a change ("rose by 4%") and the
    other a level the change starts from or ends at ("rose from 4% to 6%"): a change of 4% is
    not a rate of 4%. A value of no known role (a level, or a table's cell under "Growth") is
    compared with either."""
    roles = {a.get("change"), b.get("change")}
    return not ("by" in roles and roles & {"from", "to"})


def hours_range(q: Quantity) -> bool:
    """A time-of-day range with both ends stated ("8:0-13:0"): opening hours."""
    return q.kind == "time" and q.low != q.high and not math.isinf(q.low) and not math.isinf(q.high)


def change_amounts(
    claim: Quantity, levels: list[tuple[QuantityRecord, Quantity]], signed: bool = False
) -> list[tuple[QuantityRecord, Quantity]]:
    """The amounts of the changes a passage states by their two levels ("rose from 4% to 6%",
    the values marked ``change: "from"`` and the next ``"to"`` of the same kind and unit), in the
    terms of a claimed amount ``claim`` ("rose by 50%"): the relative change in percent for a
    claim in ``%`` (6 against 4: 50%), the difference for any other unit (2 percentage points,
    $100 million); for a claim in ``%`` against levels in ``%`` also the difference, marked
    ``reading: "points"`` ("rose 2%" for 4% to 6% may mean 2 points: a match of it is only
    partial). Magnitudes only: the direction is the verb's; ``signed`` (a claim whose value
    carries its direction: "doubled" +100%, "halved" -50%): the relative change with its sign,
    and no reading in points. Empty when the passage states no such change, or a level is zero
    or a range."""
    out: list[tuple[QuantityRecord, Quantity]] = []
    for k, (ad, a) in enumerate(levels):
        if ad.get("change") != "from":
            continue
        b_pair = next(((bd, b) for bd, b in levels[k + 1 :] if bd.get("change") == "to"), None)
        if b_pair is None:
            continue
        bd, b = b_pair
        if (a.kind, a.unit) != (b.kind, b.unit) or a.low != a.high or b.low != b.high or a.low == 0:
            continue
        readings = []
        if signed:
            if claim.kind == "percent" and claim.unit == "%":
                readings.append(((b.low - a.low) / abs(a.low) * 100.0, None))
        elif claim.kind == "percent" and claim.unit == "%":
            readings.append((abs(b.low - a.low) / abs(a.low) * 100.0, None))
            if a.unit == "%":  # "rose 2%" for 4% to 6% may mean 2 points: a match of that reading is only partial
                readings.append((abs(b.low - a.low), "points"))
        elif (claim.kind, claim.unit) == (a.kind, a.unit) or (claim.unit == "pp" and a.unit == "%"):
            readings.append((abs(b.low - a.low), None))
        text = f"{ad.get('text', '')} to {bd.get('text', '')}"  # "4% to 6%"; a relative change adds " (50%)"
        for value, reading in readings:
            shown = f"{text} ({value:.3g}{' points' if reading else '%'})" if claim.unit == "%" else text
            q = Quantity(claim.kind, value, value, claim.unit, claim.dimension, 0.0, None, shown)
            d = {**q.to_dict(), "noun": ad.get("noun"), "head": ad.get("head")}
            out.append(({**d, "reading": reading} if reading else d, q))
    return out


def conversions(values: list[tuple[QuantityRecord, Quantity]], passages: list) -> list[str]:
    """The unit conversions by which the claim's measures ``values`` match the values of
    ``passages`` (:class:`~sourced_nlp.verdict.passage.Passage`), one each: ``["2,000 lb = 907.2 kg"]``;
    empty when every match is in the claim's own unit."""
    out: list[str] = []
    for qd, q in values:
        if q.kind != "measure":
            continue
        for p in passages:
            note = next(
                (
                    c
                    for sd, s in p.quantities
                    if nouns_compatible(qd, sd) and compare_values(q, s) == "match" and (c := conversion(q, s))
                ),
                None,
            )
            if note:
                out.append(note)
                break
    return out
