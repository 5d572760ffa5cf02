"""Value parsing and comparison for quantities, dates and times (pure: no spaCy inside).

A quantity is read into a :class:`Quantity`: a *kind*, an interval ``[low, high]`` in base units,
the *unit* that is part of its identity, the *precision* the writer stated it with, and the
approximator ("about", "more than", ...) when there is one. Two quantities are then compared with
:func:`compare`, which says whether the source value supports, contradicts or only overlaps the
claim.

Rules and where they come from:

* Scale words and suffixes (``billion``, ``bn``, ``56B``, ``£2.4m``), spelled-out numbers,
  currency symbols/codes/words, percent words, approximators and unit spellings are data in
  ``models/units.json`` (see its ``"_source"`` key), not literals in this module.
* Units are converted with pint (one ``UnitRegistry``, :func:`unit_registry`, built on first
  use); a measure's ``unit`` is the pint base unit (``"meter"``, ``"second"``, ``"kilogram"``)
  and its ``dimension`` the pint dimensionality (``"[length]"``), so ``5 km`` equals ``5,000 m``
  and differs from ``5 miles``.
* Precision is half a unit of the last stated digit, scaled by the scale word and unit:
  ``56.5 billion`` -> 0.05e9, ``8%`` -> 0.5, ``1,000`` -> 0.5, ``0.3 km`` -> 50 (meters). Dates and
  times have precision 0: their interval already covers what was stated (``2021`` is the whole
  year).
* Approximators become intervals: ``about v`` = [0.9v, 1.1v]; ``more than``/``at least`` v =
  [v, inf]; ``fewer than``/``up to`` v = [-inf, v]; ``nearly v`` = [0.9v, v].
* Dates are proleptic Gregorian ordinal days (:meth:`datetime.date.toordinal`); numeric dates
  ``3/3/2021`` are read US style (month/day/year) unless the first field cannot be a month.
  A date without a year (``May``, ``May 3``) has unit ``"yearday"`` and values ``month*100+day``.
* Times of day are minutes since midnight (unit ``"minute"``); ``17:0`` (Yelp hours style) is
  17:00.
"""

from __future__ import annotations

import math
import re
from dataclasses import asdict, dataclass
from datetime import date
from decimal import Decimal
from functools import lru_cache
from typing import Any

from .figures import and_a_half, clean_figure
from .lexicons import load_lexicon as _load_lexicon

__all__ = ["Quantity", "parse_quantity", "compare", "comparable", "load_lexicon"]

_INF = math.inf


@lru_cache(maxsize=1)
def unit_registry() -> "pint.UnitRegistry":  # noqa: F821
    """pint's unit registry, one for the whole process, imported and built when a unit is first
    converted (about 1 s together, which a process that converts no unit never pays)."""
    import pint

    ureg = pint.UnitRegistry()
    for line in load_lexicon().get("unit_definitions", ()):  # what pint lacks: "decade" is its log unit
        ureg.define(line)
    return ureg


def load_lexicon() -> dict[str, Any]:
    """Load ``models/units.json`` once (:func:`sourced_nlp.text.lexicons.load_lexicon`, cached).

    Returns:
        The lexicon as a dict (scale words, number words, currencies, units, approximators, ...).
    """
    return _load_lexicon("units")


@dataclass(frozen=True)
class Quantity:
    """A parsed value.

    Attributes:
        kind: ``"number"``, ``"percent"``, ``"money"``, ``"measure"``, ``"date"``, ``"time"``,
            ``"ordinal"`` or ``"score"`` (a match's score, "2-1": the two numbers as ``low``/``high``,
            lower first; found by ``sourced_quantities``, never by :func:`parse_quantity`).
        low: Lower end of the value interval in base units (may be ``-inf``).
        high: Upper end (may be ``inf``); ``low == high`` for an exact value.
        unit: ``"%"`` (or ``"pp"`` for percentage points) for percent; ISO 4217 code for money;
            pint base unit for measure; ``"day"`` for calendar dates, ``"yearday"`` for dates
            without a year; ``"minute"`` for times of day; ``None`` for numbers and ordinals.
        dimension: pint dimensionality for measure (``"[length]"``); the currency code for money;
            the unit for percent; ``"date"``/``"time"``; ``None`` for numbers and ordinals.
        precision: Half a unit of the last stated digit, in base units; 0 for dates and times.
        approx: The normalised approximator when one is stated (``"about"``, ``"more than"``,
            ``"at least"``, ``"fewer than"``, ``"up to"``, ``"nearly"``, ``"before"``, ...).
        text: The surface text that was parsed.
    """

    kind: str
    low: float
    high: float
    unit: str | None = None
    dimension: str | None = None
    precision: float = 0.0
    approx: str | None = None
    text: str = ""

    def to_dict(self) -> dict:
        """Plain, JSON-safe dict: infinite bounds become the strings ``"inf"``/``"-inf"``."""
        d = asdict(self)
        for key in ("low", "high"):
            if math.isinf(d[key]):
                d[key] = "inf" if d[key] > 0 else "-inf"
        return d

    @classmethod
    def from_dict(cls, d: dict) -> "Quantity":
        """Inverse of :meth:`to_dict`; extra keys (e.g. ``"noun"``) are ignored."""
        return cls(
            kind=d["kind"],
            low=float(d["low"]),
            high=float(d["high"]),
            unit=d.get("unit"),
            dimension=d.get("dimension"),
            precision=float(d.get("precision") or 0.0),
            approx=d.get("approx"),
            text=d.get("text", ""),
        )


# --------------------------------------------------------------------------------------------
# comparison


# a claim may round what the source states by half a unit of its last digit, but by no more than
# this share of its value: "$56 billion" states "$56.2 billion", "$2 billion" does not state "$2.4 billion"
_ROUNDING = 0.05


def comparable(a: Quantity, b: Quantity) -> bool:
    """Whether two quantities have the same identity (kind and unit/dimension).

    A plain number is comparable with money (answers write ``56B`` for ``$56 billion``) but not
    with percent, measure, date, time or ordinal. Money compares only within one currency,
    measures only within one pint dimensionality, dates only with dates of the same unit
    (calendar ``day`` vs year-less ``yearday``).
    """
    if a.kind == b.kind:
        if a.kind in ("number", "ordinal", "time", "score"):
            return True
        if a.kind in ("money", "percent", "date"):
            return a.unit == b.unit
        if a.kind == "measure":
            return a.dimension == b.dimension
        return False
    return {a.kind, b.kind} == {"number", "money"}


def _scaled_text(q: Quantity) -> bool:
    """Whether a number was written with a scale word or suffix (``2.4 billion``, ``56B``),
    as amounts are, rather than in digits alone."""
    return bool(re.search(r"\d\s*[^\W\d_]", q.text))


def compare(claim: Quantity, source: Quantity, hours: bool = False) -> str:
    """Compare a claimed value with a source value.

    The claim interval is widened by ``claim.precision`` (a claim rounds what the source states;
    not a bound, "more than 5%", whose end is stated as written),
    for an exact count, amount or measure against an exact source value by at most
    ``_ROUNDING`` (5%) of the claim's value ("$56 billion" states "$56.2 billion"; "$2 billion"
    does not state "$2.4 billion").

    Returns:
        ``"match"`` when the source interval lies inside the widened claim interval; with
        ``hours`` (the source range is a record's opening hours, "10:0-23:0") a claimed time of
        day is one of its ends —
        either end for "at 10 AM", the closing time for "until 11 PM", the opening time for
        "since 10 AM", both ends for "11 AM to 11 PM" — and a ``"conflict"`` otherwise,
        ``"conflict"`` when the two are disjoint, ``"partial"`` when they overlap otherwise,
        ``"incomparable"`` when :func:`comparable` is false, and for a bare number (digits
        alone, no scale word: ``221,000``) against a money amount (or the reverse) that does not
        match: those may state one value, but never contradict each other.
    """
    if not comparable(claim, source):
        return "incomparable"
    if claim.kind == "score":  # a match's score is its two numbers, or another score
        return "match" if (claim.low, claim.high) == (source.low, source.high) else "conflict"
    # a bound ("more than 5%", "at least 500") is stated as written: its end is not rounded
    widen = 0.0 if math.isinf(claim.low) != math.isinf(claim.high) else claim.precision
    if (
        claim.kind in ("money", "number", "measure")
        and not claim.approx
        and not source.approx
        and math.isfinite(claim.low)
        and math.isfinite(claim.high)
    ):
        widen = min(widen, _ROUNDING * max(abs(claim.low), abs(claim.high)))
    if claim.kind == "measure" and (stated := converted_precision(claim, source)) is not None:
        # "900 kg" for "2,000 lb" (907 kg): a converted value rounds at the claim's last
        # non-zero digit, by no more than 5% ("907.2 kg" states 907.2, not 900)
        widen = max(widen, min(stated, _ROUNDING * max(abs(claim.low), abs(claim.high))))
    lo, hi = claim.low - widen, claim.high + widen
    s_lo, s_hi = source.low, source.high
    finite = [abs(x) for x in (lo, hi, s_lo, s_hi) if not math.isinf(x)]
    eps = 1e-9 * max([1.0, *finite])
    if hours and claim.kind == "time" and source.low != source.high and not math.isinf(s_lo) and not math.isinf(s_hi):
        # a time of day against opening hours ("10:0-23:0"): the claim names one end of them —
        # "opens at 10 AM" either end, "open until 11 PM" the closing time, "since 10 AM" the opening
        if claim.low == claim.high and not claim.approx:
            return "match" if claim.low in (s_lo, s_hi) else "conflict"
        if not math.isinf(claim.low) and not math.isinf(claim.high):  # "from 11 AM to 11 PM": both ends
            return "match" if (claim.low, claim.high) == (s_lo, s_hi) else "conflict"
        if claim.approx in ("by", "until") and math.isinf(claim.low):
            return "match" if claim.high == s_hi else "conflict"
        if claim.approx == "since" and math.isinf(claim.high):
            return "match" if claim.low == s_lo else "conflict"
    if s_lo >= lo - eps and s_hi <= hi + eps:
        return "match"
    if claim.kind != source.kind and not _scaled_text(claim if claim.kind == "number" else source):
        # a bare number and a money amount: "2.4 billion" may be another value of "$2.5 billion",
        # but "221,000" written in digits alone is a count, never another value of "$228,000"
        return "incomparable"
    if s_hi < lo - eps or s_lo > hi + eps:
        return "conflict"
    return "partial"


_FIGURE = re.compile(r"\d[\d,]*(?:\.\d+)?")


def unit_factor(q: Quantity) -> float | None:
    """The size in base units of one of the unit a measure was written in ("2,000 lb" ->
    0.4536 kg); None when it cannot be told (a range's ends, an approximator, an offset unit
    such as a temperature, a count in words, text that does not read with its number replaced by 1)."""
    if (
        q.kind != "measure"
        or q.approx
        or q.low != q.high
        or "temperature" in (q.dimension or "")
        or not _FIGURE.search(q.text)
    ):
        return None  # "two days": a count in words is no unit of its own
    one = parse_quantity(_FIGURE.sub("1", q.text, count=1))
    return one.low if one is not None and one.low == one.high and one.low > 0 else None


def converted_precision(claim: Quantity, source: Quantity) -> float | None:
    """When the claim's measure is written in another unit than the source's ("900 kg" against
    "2,000 lb"): half a unit of the claim's last non-zero digit before the point, in base units
    ("900" -> 50 kg, "190 L" -> 5 L; a written decimal, "907.2", keeps its own precision);
    None when the units are the same or either cannot be told."""
    fc, fs = unit_factor(claim), unit_factor(source)
    if fc is None or fs is None or math.isclose(fc, fs, rel_tol=1e-9):
        return None
    m = _FIGURE.search(claim.text)
    digits = m.group(0).replace(",", "") if m else ""
    if not digits or "." in digits:
        return claim.precision
    zeros = len(digits) - len(digits.rstrip("0"))
    return max(claim.precision, 0.5 * 10**zeros * fc) if zeros < len(digits) else claim.precision


def conversion(claim: Quantity, source: Quantity) -> str | None:
    """The conversion a match of two measures applied, for a reason ("2,000 lb = 907 kg"); None
    when they are written in one unit."""
    fc, fs = unit_factor(claim), unit_factor(source)
    if fc is None or fs is None or math.isclose(fc, fs, rel_tol=1e-9):
        return None
    return f"{source.text} = {source.low / fc:.4g} {_FIGURE.sub('', claim.text, count=1).strip()}"


# --------------------------------------------------------------------------------------------
# lexicon views


@lru_cache(maxsize=1)
def _lex() -> dict[str, Any]:
    raw = load_lexicon()
    lex: dict[str, Any] = {k: v for k, v in raw.items() if not k.startswith("_")}
    lex["codes"] = {c.lower(): raw.get("currency_code_aliases", {}).get(c, c) for c in raw["currency_codes"]}
    lex["symbols"] = {k.lower(): v for k, v in raw["currency_symbols"].items()}
    months = raw["months"]
    lex["month_re"] = "(?P<mon>" + "|".join(sorted(months, key=len, reverse=True)) + r")\.?"
    lex["month_re2"] = "(?P<mon2>" + "|".join(sorted(months, key=len, reverse=True)) + r")\.?"
    return lex


@lru_cache(maxsize=256)
def _unit_base(expr: str) -> tuple[float, float, str, str]:
    """``(factor, offset, base_unit, dimensionality)`` so that base = factor * v + offset."""
    ureg = unit_registry()
    q0 = ureg.Quantity(0.0, expr).to_base_units()
    q1 = ureg.Quantity(1.0, expr).to_base_units()
    return float(q1.magnitude - q0.magnitude), float(q0.magnitude), str(q1.units), str(q1.dimensionality)


# --------------------------------------------------------------------------------------------
# normalisation and small patterns

_DASHES = str.maketrans(
    {"\u2013": "-", "\u2014": "-", "\u2212": "-", "\u2010": "-", "\u2011": "-", "\u00a0": " ", "\u202f": " "}
)
_LABEL_RE = re.compile(r"^[a-z]+-?\d+(?:\.\d+)*[a-z]*$", re.I)
_STRIP_CHARS = " \t\n\r\"'\u201c\u201d\u2018\u2019()[]{}"
_LEAD_PUNCT = ",;:!?"
_TRAIL_PUNCT = ".,;:!?"


def _normalise(text: str) -> str:
    t = clean_figure(text).translate(_DASHES).strip(_STRIP_CHARS).lstrip(_LEAD_PUNCT + _STRIP_CHARS)
    # trailing sentence punctuation, but keep "p.m." / "a.m." / abbreviations with an inner dot
    while t and t[-1] in _TRAIL_PUNCT:
        if t[-1] == "." and re.search(r"(?:\b[ap]\.m|\bc|\bca|approx|\brs)\.$", t, re.I):
            break
        t = t[:-1].rstrip(_STRIP_CHARS)
    return re.sub(r"\s+", " ", t)


def _is_label(t: str) -> bool:
    """``Q3``, ``GPT-4``, ``v2``, ``COVID-19``, ``H1``: letters then digits in one word."""
    if not _LABEL_RE.match(t):
        return False
    letters = re.match(r"[a-z]+", t, re.I).group(0).lower()
    return letters not in _lex()["codes"] and letters not in _lex()["symbols"]


# --------------------------------------------------------------------------------------------
# dates

_SUFFIX = r"(?:st|nd|rd|th)?"
_DATE_PREFIX = re.compile(r"^(?:in|on|during|of|at)\s+(.*)$")


def _year_ok(y: int, label: str | None, cued: bool) -> bool:
    if not 1000 <= y <= 2100 or label == "ADDRESS":  # "ADDRESS": a house number ("1575 S Virginia St")
        return False
    if label == "DATE":
        return True
    if cued or not label:
        return y >= 1500
    return False


def _month_days(y: int, m: int) -> int:
    nxt = date(y + (m == 12), m % 12 + 1, 1)
    return (nxt - date(y, m, 1)).days


def _yearday_days(m: int) -> int:
    return _month_days(2000, m)  # leap year: Feb 29 allowed without a year


def _mon(name: str) -> int:
    return _lex()["months"][name.lower().rstrip(".")]


def _date_interval(t: str, label: str | None, cued: bool) -> tuple[float, float, str] | None:
    """Interval of a bare date expression (no approximator), in ordinal days or yeardays."""
    M, M2 = _lex()["month_re"], _lex()["month_re2"]
    try:
        if m := re.fullmatch(r"(\d{4})[-/](\d{1,2})[-/](\d{1,2})", t):
            d = date(int(m[1]), int(m[2]), int(m[3])).toordinal()
            return d, d, "day"
        if m := re.fullmatch(r"(\d{1,2})/(\d{1,2})/(\d{4}|\d{2})", t):
            a, b, y = int(m[1]), int(m[2]), int(m[3])
            if len(m[3]) == 2:
                y += 2000 if y < 70 else 1900
            mo, dy = (a, b) if a <= 12 else (b, a)
            d = date(y, mo, dy).toordinal()
            return d, d, "day"
        if m := re.fullmatch(M + r" (\d{1,2})" + _SUFFIX + r",? (\d{4})", t):
            d = date(int(m[3]), _mon(m["mon"]), int(m[2])).toordinal()
            return d, d, "day"
        if m := re.fullmatch(r"(?:the )?(\d{1,2})" + _SUFFIX + r" (?:of )?" + M + r",? (\d{4})", t):
            d = date(int(m[3]), _mon(m["mon"]), int(m[1])).toordinal()
            return d, d, "day"
        if m := re.fullmatch(M + r",? (?:of )?(\d{4})", t):
            y, mo = int(m[2]), _mon(m["mon"])
            return date(y, mo, 1).toordinal(), date(y, mo, _month_days(y, mo)).toordinal(), "day"
        if m := re.fullmatch(r"(\d{4})-(\d{2})", t):
            y, mo = int(m[1]), int(m[2])
            if 1 <= mo <= 12 and _year_ok(y, label, True):
                return date(y, mo, 1).toordinal(), date(y, mo, _month_days(y, mo)).toordinal(), "day"
        if m := re.fullmatch(M + r" (\d{1,2})" + _SUFFIX, t):
            mo, dy = _mon(m["mon"]), int(m[2])
            if 1 <= dy <= _yearday_days(mo):
                return mo * 100 + dy, mo * 100 + dy, "yearday"
            return None
        if m := re.fullmatch(r"(?:the )?(\d{1,2})" + _SUFFIX + r" (?:of )?" + M, t):
            mo, dy = _mon(m["mon"]), int(m[1])
            if 1 <= dy <= _yearday_days(mo):
                return mo * 100 + dy, mo * 100 + dy, "yearday"
            return None
        if m := re.fullmatch(M, t):
            mo = _mon(m["mon"])
            return mo * 100 + 1, mo * 100 + _yearday_days(mo), "yearday"
        if m := re.fullmatch(M + r" (?:-|to|through|until) " + M2 + r",? (\d{4})", t):
            y, a, b = int(m[3]), _mon(m["mon"]), _mon(m["mon2"])
            if a <= b:
                return date(y, a, 1).toordinal(), date(y, b, _month_days(y, b)).toordinal(), "day"
            return None
        if m := re.fullmatch(r"(?:the )?(\d{3}0)'?s", t):
            y = int(m[1])
            if _year_ok(y, "DATE", True):
                return date(y, 1, 1).toordinal(), date(y + 9, 12, 31).toordinal(), "day"
            return None
        if m := re.fullmatch(r"(early|mid|late)[- ](\d{4})", t):
            y = int(m[2])
            if not _year_ok(y, label, True):
                return None
            a, b = {"early": (1, 4), "mid": (5, 8), "late": (9, 12)}[m[1]]
            return date(y, a, 1).toordinal(), date(y, b, _month_days(y, b)).toordinal(), "day"
        if m := re.fullmatch(
            r"(?:the )?(?:q([1-4])|([1-4])q|(first|second|third|fourth|1st|2nd|3rd|4th) quarter(?: of)?),? (\d{4})", t
        ):
            q = int(m[1] or m[2] or {"first": 1, "second": 2, "third": 3, "fourth": 4}.get(m[3]) or m[3][0])
            y = int(m[4])
            if not _year_ok(y, label, True):
                return None
            a, b = 3 * q - 2, 3 * q
            return date(y, a, 1).toordinal(), date(y, b, _month_days(y, b)).toordinal(), "day"
        if m := re.fullmatch(r"(?:the )?(?:h([12])|(first|second|1st|2nd) half(?: of)?),? (\d{4})", t):
            h = int(m[1] or {"first": 1, "second": 2}.get(m[2]) or m[2][0])
            y = int(m[3])
            if not _year_ok(y, label, True):
                return None
            a, b = (1, 6) if h == 1 else (7, 12)
            return date(y, a, 1).toordinal(), date(y, b, _month_days(y, b)).toordinal(), "day"
        if m := re.fullmatch(r"(?:between |from )?(\d{4}) ?(?:-|to|through|until|and) ?(\d{4}|\d{2})", t):
            if t.startswith("between") != (" and " in t) and "-" not in t:
                return None
            a = int(m[1])
            b = int(m[2]) if len(m[2]) == 4 else (a // 100) * 100 + int(m[2])
            if a < b and _year_ok(a, label, cued or label == "DATE") and _year_ok(b, label, cued or label == "DATE"):
                return date(a, 1, 1).toordinal(), date(b, 12, 31).toordinal(), "day"
            return None
        if m := re.fullmatch(r"(?:the year )?(\d{4})", t):
            y = int(m[1])
            if _year_ok(y, label, cued or t.startswith("the year")):
                return date(y, 1, 1).toordinal(), date(y, 12, 31).toordinal(), "day"
            return None
    except ValueError:  # impossible calendar date (Feb 30, month 13)
        return None
    return None


_DATE_APPROX = re.compile(r"^(before|prior to|after|since|by|until|till|through)\s+(.*)$")


def _parse_date(t: str, label: str | None) -> Quantity | None:
    approx = None
    cued = False
    body = t
    if m := _DATE_APPROX.match(body):
        approx = _lex()["date_approximators"].get(m[1], m[1])
        body, cued = m[2], True
    elif m := _DATE_PREFIX.match(body):
        body, cued = m[1], True
    iv = _date_interval(body, label, cued)
    if iv is None:
        return None
    lo, hi, unit = iv
    if approx == "before":
        lo, hi = -_INF, lo - 1
    elif approx == "after":
        lo, hi = hi + 1, _INF
    elif approx == "since":
        hi = _INF
    elif approx in ("by", "until"):
        lo = -_INF
    return Quantity("date", float(lo), float(hi), unit, "date", 0.0, approx, "")


# --------------------------------------------------------------------------------------------
# times of day

_TIME_POINT = re.compile(
    r"(?:(\d{1,2})(?::(\d{2}|0))?\s?([ap])\.?\s?m\.?|(\d{1,2}):(\d{2}|0)|(noon|midnight)|(\d{1,2}))"
)


def _time_point(s: str) -> tuple[int | None, int, str | None] | None:
    """``(hour, minute, meridiem)``; hour None for noon/midnight handled inline."""
    m = _TIME_POINT.fullmatch(s)
    if not m:
        return None
    if m[6]:
        return (12, 0, None) if m[6] == "noon" else (0, 0, None)
    if m[3]:
        h, mi = int(m[1]), int(m[2] or 0)
        if not 1 <= h <= 12 or mi > 59:
            return None
        return h, mi, m[3]
    if m[4] is not None:
        h, mi = int(m[4]), int(m[5])
        if h > 24 or mi > 59:
            return None
        return h, mi, None
    return int(m[7]), 0, "bare"


def _to_minutes(h: int, mi: int, mer: str | None) -> int:
    if mer == "a":
        h = 0 if h == 12 else h
    elif mer == "p":
        h = h if h == 12 else h + 12
    return (h % 24) * 60 + mi if h != 24 else 24 * 60


def _parse_time(t: str) -> Quantity | None:
    approx = None
    body = t
    if m := re.match(r"^(before|after|by|until|since|at)\s+(.*)$", body):
        approx = None if m[1] == "at" else _lex()["date_approximators"].get(m[1], m[1])
        body = m[2]
    m = re.fullmatch(r"(?:from |between )?(.+?)\s*(?:-|to|until|till|and)\s*(.+)", body)
    if m and not approx:
        a, b = _time_point(m[1]), _time_point(m[2])
        if not a or not b or b[2] == "bare":
            return None
        if a[2] == "bare":
            if b[2] not in ("a", "p") or not 1 <= a[0] <= 12:
                return None
            mer = b[2]
            a_min = _to_minutes(a[0], 0, mer)
            if a_min > _to_minutes(*b):
                a_min = _to_minutes(a[0], 0, "a" if mer == "p" else "p")
        else:
            a_min = _to_minutes(*a)
        return Quantity("time", float(a_min), float(_to_minutes(*b)), "minute", "time", 0.0, None, "")
    p = _time_point(body)
    if not p or p[2] == "bare":
        return None
    v = float(_to_minutes(*p))
    lo, hi = v, v
    if approx == "before":
        lo, hi = -_INF, v - 1
    elif approx == "after":
        lo, hi = v + 1, _INF
    elif approx in ("by", "until"):
        lo = -_INF
    elif approx == "since":
        hi = _INF
    return Quantity("time", lo, hi, "minute", "time", 0.0, approx, "")


# --------------------------------------------------------------------------------------------
# ordinals


def _parse_ordinal(t: str) -> Quantity | None:
    lex = _lex()
    if m := re.fullmatch(r"(\d+)(st|nd|rd|th)", t):
        n = int(m[1])
        last2, last = n % 100, n % 10
        want = "th" if 11 <= last2 <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(last, "th")
        if m[2] != want:
            return None
        return Quantity("ordinal", float(n), float(n), None, None, 0.0, None, "")
    if t in lex["ordinal_words"]:
        n = lex["ordinal_words"][t]
        return Quantity("ordinal", float(n), float(n), None, None, 0.0, None, "")
    if m := re.fullmatch(r"([a-z]+)[- ]([a-z]+)", t):
        if m[1] in lex["tens_words"] and m[2] in lex["ordinal_words"] and lex["ordinal_words"][m[2]] < 10:
            n = lex["tens_words"][m[1]] + lex["ordinal_words"][m[2]]
            return Quantity("ordinal", float(n), float(n), None, None, 0.0, None, "")
    return None


# --------------------------------------------------------------------------------------------
# numbers, money, percent, measures

_TOKEN_RE = re.compile(
    r"(?P<num>[1-7]/[2348](?![\d/])|\d{1,3}(?:,\d{3})+(?:\.\d+)?|[1-9]\d{0,2}(?:\.\d{3}){2,}(?![\d.])|\d+(?:\.\d+)?|\.\d+)"
    r"|(?P<cur>us\$|au\$|a\$|ca\$|c\$|hk\$|nz\$|s\$|r\$|\$|£|€|¥|₹|₩|₽|₺|₪)"
    r"|(?P<pct>%)"
    r"|(?P<dash>-)"
    r"|(?P<tilde>~)"
    r"|(?P<word>[a-zµ°²³]+(?:[./'][a-zµ°²³]+)*\.?)"
    r"|(?P<comma>,)"
    r"|(?P<space>\s+)",
    re.I,
)


@dataclass
class _Tok:
    kind: str
    text: str  # original case
    low: str  # lowercased
    attached: bool  # no space before it


def _lex_tokens(t: str) -> list[_Tok] | None:
    toks: list[_Tok] = []
    pos, space = 0, True
    while pos < len(t):
        m = _TOKEN_RE.match(t, pos)
        if not m:
            return None
        pos = m.end()
        kind = m.lastgroup
        if kind == "space":
            space = True
            continue
        if kind == "comma":
            space = True
            continue
        toks.append(_Tok(kind, m.group(0), m.group(0).lower(), not space))
        space = False
    return toks


def _phrase(toks: list[_Tok], i: int, table: dict, max_words: int = 4) -> tuple[Any, int] | None:
    """Longest multi-word entry of ``table`` starting at token ``i``: ``(value, next_i)``."""
    for n in range(min(max_words, len(toks) - i), 0, -1):
        parts = toks[i : i + n]
        if any(p.kind not in ("word", "pct", "tilde") for p in parts):
            continue
        key = " ".join(p.low for p in parts)
        if key in table:
            return table[key], i + n
        key2 = key.rstrip(".")
        if key2 in table:
            return table[key2], i + n
    return None


@dataclass
class _Side:
    value: float
    precision: float
    scale: float = 1.0
    scaled: bool = False
    currency: str | None = None
    pct: str | None = None
    unit: str | None = None
    spelled: bool = False
    dotted: bool = False  # written "1.200": a European thousands separator, or three decimals


def _number_words(toks: list[_Tok], i: int) -> tuple[float, float, int] | None:
    """Spelled-out number at ``i``: ``(value, precision, next_i)``."""
    lex = _lex()
    units, tens, scales = lex["number_words"], lex["tens_words"], lex["scale_words"]
    total, current = 0.0, 0.0
    seen_number, last_scale, j = False, 1.0, i
    last_kind = None
    if i < len(toks) and toks[i].kind == "word" and toks[i].low in lex["frequency_words"]:
        return float(lex["frequency_words"][toks[i].low]), 0.5, i + 1  # "twice": a count of times, alone
    while j < len(toks):
        tk = toks[j]
        w = tk.low
        if tk.kind != "word":
            if (
                tk.kind == "dash"
                and last_kind == "tens"
                and j + 1 < len(toks)
                and toks[j + 1].low in units
                and units[toks[j + 1].low] < 10
            ):
                j += 1
                continue
            break
        if w in ("a", "an") and j == i and j + 1 < len(toks) and toks[j + 1].low in scales | {"dozen": 12}:
            current = 1.0
            j += 1
            last_kind = "a"
            continue
        if w == "and" and seen_number and j + 1 < len(toks) and (toks[j + 1].low in units or toks[j + 1].low in tens):
            j += 1
            continue
        if w == "dozen" and seen_number or (w == "dozen" and last_kind == "a"):
            current = max(current, 1.0) * 12
            seen_number, last_kind, last_scale = True, "scale", 1.0
        elif w in units:
            if last_kind in ("unit",):
                break
            current += units[w]
            seen_number, last_kind, last_scale = True, "unit", 1.0
        elif w in tens:
            if last_kind in ("unit", "tens"):
                break
            current += tens[w]
            seen_number, last_kind, last_scale = True, "tens", 1.0
        elif w in ("hundred", "thousand", "million", "billion", "trillion") and (seen_number or last_kind == "a"):
            s = scales[w]
            if s == 100:
                current = max(current, 1.0) * 100
            else:
                total += max(current, 1.0) * s
                current = 0.0
            seen_number, last_kind, last_scale = True, "scale", s
        else:
            break
        j += 1
    if not seen_number:
        return None
    value = total + current
    precision = 0.5 * last_scale if last_scale >= 1e6 else 0.5
    return value, precision, j


def _parse_side(toks: list[_Tok], i: int, other_currency: str | None = None) -> tuple[_Side, int] | None:
    lex = _lex()
    currency = None
    sign = 1.0
    if i < len(toks) and toks[i].kind == "cur":
        currency = lex["symbols"][toks[i].low]
        i += 1
    elif (
        i < len(toks)
        and toks[i].kind == "word"
        and toks[i].low.rstrip(".") in ("rs",)
        and i + 1 < len(toks)
        and toks[i + 1].kind == "num"
    ):
        currency = "INR"
        i += 1
    elif (
        i < len(toks)
        and toks[i].kind == "word"
        and toks[i].text.isupper()
        and toks[i].low in lex["codes"]
        and i + 1 < len(toks)
        and toks[i + 1].kind in ("num", "cur")
    ):
        currency = lex["codes"][toks[i].low]
        i += 1
    if i < len(toks) and toks[i].low == "minus":
        sign, i = -1.0, i + 1
    elif i == 0 and len(toks) > 1 and toks[0].kind == "dash" and toks[1].kind == "num" and toks[1].attached:
        sign, i = -1.0, i + 1
    if i >= len(toks):
        return None
    tk = toks[i]
    if tk.kind == "num":
        raw = tk.text.replace(",", "")
        spelled = False
        i += 1
        dotted = bool(_DOTTED_THOUSANDS.fullmatch(raw))
        if "/" in raw:
            value, precision = _fraction(raw)
            if value is None:
                return None
        elif raw.count(".") > 1:  # "1.200.000": only a thousands separator repeats
            value, precision = float(raw.replace(".", "")), 0.5
        else:
            value = float(raw)
            decimals = len(raw.split(".")[1]) if "." in raw else 0
            precision = 0.5 * 10.0 ** (-decimals)
    else:
        nw = _number_words(toks, i)
        if nw is None:
            return None
        value, precision, i = nw
        spelled = True
    side = _Side(sign * value, precision, currency=currency, spelled=spelled, dotted=tk.kind == "num" and dotted)
    cur_known = currency or other_currency
    # attached suffix: 56B, 56bn, 2.4m, 5km, 8%
    if i < len(toks) and toks[i].attached and toks[i].kind == "word" and not spelled:
        suf = toks[i].text.rstrip(".")
        if suf in lex["scale_suffixes"] or suf.lower() in lex["scale_suffixes"]:
            s = lex["scale_suffixes"].get(suf, lex["scale_suffixes"].get(suf.lower()))
            side.scale, side.scaled = float(s), True
            i += 1
        elif suf.lower() in lex["units"]:
            side.unit = lex["units"][suf.lower()]
            i += 1
        else:
            return None
    # spaced scale word: 56 billion, 56 bn, £2.4 m (m = million only with a currency)
    if i < len(toks) and toks[i].kind == "word" and not side.scaled and not spelled:
        w = toks[i].low.rstrip(".")
        if w in lex["scale_words"] and (w not in ("m", "k") or cur_known):
            side.scale, side.scaled = float(lex["scale_words"][w]), True
            i += 1
    elif i < len(toks) and toks[i].kind == "word" and spelled and not side.scaled:
        w = toks[i].low.rstrip(".")
        if w in lex["scale_words"] and w not in ("m", "k", "hundred", "thousand", "million", "billion", "trillion"):
            side.scale, side.scaled = float(lex["scale_words"][w]), True
            side.precision = 0.5 * side.scale if side.scale >= 1e6 else side.precision
            i += 1
    if side.scaled:
        side.precision = float(Decimal(repr(side.precision)) * Decimal(repr(side.scale)))
        side.value = float(Decimal(repr(side.value)) * Decimal(repr(side.scale)))
    # currency after the number: 5 EUR, dollars, pounds sterling
    if i < len(toks) and toks[i].kind == "word":
        if toks[i].low in lex["codes"] and toks[i].text.isupper():
            if side.currency and side.currency != lex["codes"][toks[i].low]:
                return None
            side.currency = lex["codes"][toks[i].low]
            i += 1
        else:
            hit = _phrase(toks, i, lex["currency_words"], 3)
            if hit:
                if side.currency and side.currency != hit[0]:
                    return None
                side.currency, i = hit
    # percent
    if side.unit is None and i < len(toks) and toks[i].kind in ("pct", "word"):
        hit = _phrase(toks, i, lex["percent_words"], 2)
        if hit:
            side.pct, i = hit
    # a unit joined by a hyphen: "a 60-minute massage", "a 2-hour window"
    if (
        side.unit is None
        and side.pct is None
        and side.currency is None
        and i + 1 < len(toks)
        and toks[i].kind == "dash"
        and toks[i].attached
        and toks[i + 1].kind == "word"
        and toks[i + 1].attached
        and toks[i + 1].low in lex["units"]
    ):
        i += 1
    # unit
    if (
        side.unit is None
        and side.pct is None
        and side.currency is None
        and i < len(toks)
        and toks[i].kind == "word"
        and toks[i].text not in _COMPASS
    ):
        hit = _phrase(toks, i, lex["units"], 3)
        if hit:
            side.unit, i = hit
    if side.dotted and not (side.scaled or side.pct or side.unit):
        # "1.200 employees", "€1.500": a count or an amount with three digits after one dot is
        # written with a European thousands separator (English writes 1.2, not 1.200, for a
        # decimal); with a scale word, a percent or a unit ("1.125 billion", "2.375 inches") it
        # stays a decimal
        side.value = float(Decimal(repr(side.value)) * 1000)
        side.precision = 0.5
    return side, i


def _fraction(raw: str) -> tuple[float | None, float]:
    """``(value, precision)`` of a proper fraction of a kitchen measure ("1/4", "3/4": the
    denominators 2, 3, 4 and 8 of ``models/units.json``); ``(None, 0)`` for another ("24/7")."""
    num, _, den = raw.partition("/")
    if not (num.isdigit() and den in ("2", "3", "4", "8")) or int(num) >= int(den):
        return None, 0.0
    return int(num) / int(den), 0.0


_DOTTED_THOUSANDS = re.compile(r"[1-9]\d{0,2}\.\d{3}")

# "1575 S Virginia St", "1420 W Idaho St": a house number and the street's direction, never a unit
# (seconds, watts and newtons are not written as a capital letter in running text)
_COMPASS = frozenset({"N", "S", "E", "W", "NE", "NW", "SE", "SW"})


def _apply_approx(approx: str | None, v: float) -> tuple[float, float]:
    d = 0.1 * abs(v)
    if approx == "about":
        return v - d, v + d
    if approx in ("more than", "at least"):
        return v, _INF
    if approx in ("fewer than", "up to"):
        return -_INF, v
    if approx == "nearly":
        return v - d, v
    return v, v


def _parse_numeric(t: str) -> Quantity | None:
    lex = _lex()
    toks = _lex_tokens(t)
    if not toks:
        return None
    i, approx, opener = 0, None, None
    if toks[0].kind == "tilde":
        approx, i = "about", 1
    else:
        hit = _phrase(toks, 0, lex["approximators"], 4)
        if hit and hit[1] < len(toks):
            approx, i = hit
    if i < len(toks) and toks[i].low in lex["range_openers"] and approx is None:
        opener, i = toks[i].low, i + 1
    first = _parse_side(toks, i)
    if first is None:
        return None
    a, i = first
    b = None
    if i < len(toks):
        sep = toks[i].low
        ok = (sep == "and") if opener == "between" else sep in ("-", "to", "through", "till", "until")
        if not ok:
            return None
        second = _parse_side(toks, i + 1, other_currency=a.currency)
        if second is None:
            return None
        b, i = second
        if i != len(toks):
            return None
    elif opener:
        return None
    if b is not None:
        # share currency, percent, unit and scale between the two ends: "$5-7 million", "8-10%"
        marks_a = [x for x in (a.currency, a.pct, a.unit) if x]
        marks_b = [x for x in (b.currency, b.pct, b.unit) if x]
        if marks_a and marks_b and marks_a != marks_b:
            return None  # "12% to $4.5bn" is two values, not a range
        for attr in ("currency", "pct", "unit"):
            va, vb = getattr(a, attr), getattr(b, attr)
            setattr(a, attr, va or vb)
            setattr(b, attr, va or vb)
        if b.scaled and not a.scaled and a.value * b.scale <= b.value:
            a.value = float(Decimal(repr(a.value)) * Decimal(repr(b.scale)))
            a.precision = float(Decimal(repr(a.precision)) * Decimal(repr(b.scale)))
            a.scaled = True
        if a.value > b.value:
            return None
    side = a
    if side.pct:
        kind, unit, dim = "percent", side.pct, side.pct
    elif side.currency:
        kind, unit, dim = "money", side.currency, side.currency
    elif side.unit:
        kind = "measure"
    else:
        kind, unit, dim = "number", None, None
    lo_v = a.value
    hi_v = b.value if b is not None else a.value
    precision = max(a.precision, b.precision) if b is not None else a.precision
    factor, offset = 1.0, 0.0
    if kind == "measure":
        try:
            factor, offset, unit, dim = _unit_base(side.unit)
        except Exception:  # pint cannot read the lexicon entry
            return None
        precision *= abs(factor)
    if b is None:
        # an approximator widens the value on its own scale: "about 20 °C" is 18-22 °C, not a
        # tenth of 293 K
        lo, hi = _apply_approx(approx, lo_v)
        lo, hi = factor * lo + offset, factor * hi + offset
    else:
        lo, hi = factor * lo_v + offset, factor * hi_v + offset
    return Quantity(kind, float(lo), float(hi), unit, dim, float(precision), approx, "")


# --------------------------------------------------------------------------------------------
# entry point


@lru_cache(maxsize=4096)
def _parse_cached(text: str, label: str | None) -> Quantity | None:
    t0 = shown = _normalise(text)
    if not t0:
        return None
    t = t0.lower()
    if _is_label(t0):
        return None
    if not re.search(r"\d", t) and not _has_value_word(t):
        if not _ONE_PERIOD.search(t):
            return None
        t0 = _ONE_PERIOD.sub("1 ", t0)  # "a decade": one of a period long enough to be a figure
        t = t0.lower()
    for parser in (_parse_time, lambda s: _parse_date(s, label), _parse_ordinal, None):
        q = parser(t) if parser is not None else _parse_numeric(t0)
        if q is not None:
            return Quantity(q.kind, q.low, q.high, q.unit, q.dimension, q.precision, q.approx, shown)
    if "half" in t and (q := _parse_numeric(and_a_half(t, _lex()["number_words"]))) is not None and q.kind == "measure":
        return Quantity(q.kind, q.low, q.high, q.unit, q.dimension, q.precision, q.approx, shown)
    return None


# "a fortnight" is 14 days; "a decade", "a century" are not read: news writes "over a decade" for
# "during the decade" (a FaithBench summary lost its grounding to "more than 10 years")
_ONE_PERIOD = re.compile(r"\b(?:a|an)\s+(?=fortnight\b)", re.I)


def _has_value_word(t: str) -> bool:
    lex = _lex()
    words = set(re.findall(r"[a-z]+", t))
    return bool(
        words & set(lex["number_words"])
        or words & set(lex["tens_words"])
        or words & set(lex["ordinal_words"])
        or words & set(lex["frequency_words"])
        or words & set(lex["months"])
        or words & {"hundred", "thousand", "million", "billion", "trillion", "noon", "midnight", "half"}
    )


_FAHRENHEIT = re.compile(r"(?:\u00b0|\bdeg(?:rees?)?\.?)\s*f\b|\u2109|\bfahrenheit\b", re.I)
_CELSIUS = re.compile(r"(?:\u00b0|\bdeg(?:rees?)?\.?)\s*c\b|\u2103|\bcelsius\b|\bcentigrade\b", re.I)


def temperature_difference(q: Quantity) -> Quantity:
    """A temperature read as a difference of temperatures ("6 °F warmer", "rose by 2 °C"):
    ``q`` (a temperature, in kelvin from its scale's zero) less its scale's offset, so that
    2 °C of warming is 2 K and 3.6 °F is 2 K as well (pint's ``delta_degC``/``delta_degF``).
    The scale is read from ``q.text`` (``°F``, ``degrees Fahrenheit``; ``°C``, ``Celsius``);
    ``q`` itself when it is no temperature or names no scale with an offset (kelvin)."""
    if q.kind != "measure" or "temperature" not in (q.dimension or ""):
        return q
    scale = "degF" if _FAHRENHEIT.search(q.text) else "degC" if _CELSIUS.search(q.text) else None
    if scale is None:
        return q
    _, offset, _, _ = _unit_base(scale)
    return Quantity(q.kind, q.low - offset, q.high - offset, q.unit, q.dimension, q.precision, q.approx, q.text)


def parse_quantity(text: str, label: str | None = None) -> Quantity | None:
    """Parse one quantity expression.

    Args:
        text: The surface text, e.g. ``"$56 billion"``, ``"8-10%"``, ``"more than 1,000"``,
            ``"March 3, 2021"``, ``"5:30 p.m."``, ``"3rd"``. Surrounding quotes, brackets and
            trailing sentence punctuation are ignored.
        label: Optional spaCy NER label of the text. It only decides whether a bare 4-digit
            number is a year: with ``"DATE"`` any 1000-2100 is a year, with no label 1500-2100
            is, with another label (``"CARDINAL"``) it is a number unless cued by ``in``/``on``.

    Returns:
        A :class:`Quantity`, or ``None`` when the text is not (only) a quantity: labels (``Q3``,
        ``GPT-4``, ``v2``, ``COVID-19``), relative dates (``next year``, ``yearly``), text with
        words the grammar does not know.
    """
    if not text:
        return None
    return _parse_cached(text, label or None)
