"""What the tokens around a value of ``sourced_quantities`` mean: line breaks a value may run
across, tokens a value window may take, a month or ordinal that names a period, "one" as a
pronoun, the noun a number counts or measures, the verb a value is said of, a house number, a
number that names a thing (an identifier).

Functions of spaCy tokens and spans only (no component state), for :mod:`.quantities`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Mapping

from spacy.tokens import Doc, Span, Token

from ..text.figures import clean_figure
from ..text.quantity import Quantity, parse_quantity
from .extensions import CLAIMS_KEY, SKIPPED_KEY

_CALENDAR = frozenset(
    (
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
        "jan",
        "feb",
        "mar",
        "apr",
        "jun",
        "jul",
        "aug",
        "sep",
        "sept",
        "oct",
        "nov",
        "dec",
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
        "sunday",
        "q",
        "fy",
        "h",
        "week",
        "day",
        "year",
        "month",
        "quarter",
        "page",
    )
)


def _soft_breaks(doc: Doc) -> frozenset:
    """Indices of the line-break tokens inside a segment of ``sourced_claims`` (a line that
    only wraps a sentence: hard-wrapped text), and of the token after each: a value may run
    across them ("$2.4\nbillion")."""
    out: set[int] = set()
    for seg in (*doc.spans.get(CLAIMS_KEY, ()), *doc.spans.get(SKIPPED_KEY, ())):
        for tok in seg[1:-1]:
            if tok.is_space and tok.text.count("\n") == 1:
                out.update((tok.i, tok.i + 1))
    return frozenset(out)


def _joinable(tok, blocked: set[int], soft: frozenset = frozenset()) -> bool:
    if tok.i in blocked or ("\n" in tok.text and tok.i not in soft):
        return False
    return tok.text not in (";", "(", ")", "[", "]")


def _is_period_name(doc: Doc, start: int, end: int, q: Quantity) -> bool:
    """A bare month / ordinal that is only part of a longer DATE entity names a period."""
    if not (q.kind == "ordinal" or (q.kind == "date" and q.unit == "yearday" and q.high - q.low > 0)):
        return False
    ents = [e for e in doc.ents if e.start <= start and end <= e.end and e.label_ == "DATE"]
    for ent in ents:
        extra = [t for t in ent if not (start <= t.i < end) and not t.is_punct and t.lower_ not in ("in", "on", "of")]
        if extra:
            return True
    return False


def _is_pronoun_one(doc: Doc, start: int, end: int) -> bool:
    """``one of the best``, ``the one``: "one" used as a pronoun, not a count."""
    tok = doc[start]
    nxt = [t.lower_ for t in doc[end : end + 3]]
    if nxt[:1] == ["in"] and len(nxt) > 1 and doc[end + 1].like_num or nxt[:2] == ["out", "of"]:
        return False  # "one in four adults", "one out of five": a count of a whole
    return end - start == 1 and tok.lower_ == "one" and tok.dep_ != "nummod"


def _frequency_noun(span: Span, frequency_words: Collection[str], period_adverbs: Mapping[str, str]) -> str | None:
    """What a count of times counts: ``"year-time"`` for "twice a year", "two times per year",
    "3 times annually"; ``"time"`` for a count of times with no period ("twice", "two times");
    None for any other number. The period is part of the noun, so that "twice a year" is not
    compared with "two times a day" (see ``_nouns_compatible``). ``frequency_words`` ("once",
    "twice", "thrice") and ``period_adverbs`` ("daily": "day") come from ``models/units.json``."""
    doc = span.doc
    i = span.end
    if span[-1].lower_ not in frequency_words:
        if i < len(doc) and doc[i].lemma_.lower() == "time" and doc[i].lower_ in ("time", "times"):
            i += 1
        else:
            return None
    if i < len(doc) and doc[i].lower_ in period_adverbs:
        return f"{period_adverbs[doc[i].lower_]}-time"
    if i + 1 < len(doc) and doc[i].lower_ in ("a", "an", "per", "every", "each") and doc[i + 1].pos_ == "NOUN":
        return f"{doc[i + 1].lemma_.lower()}-time"
    return "time"


def _measured(span: Span) -> str | None:
    """The ingredients a volume measures: the nouns of the words after it, space-separated
    ("1 teaspoon ground cardamon" -> "ground cardamon"; "2 c. of chicken or vegetable stock" ->
    "chicken vegetable stock"), past an abbreviation's period, "of" and a determiner; None when
    no noun follows."""
    doc = span.doc
    i = span.end
    if i < len(doc) and doc[i].text == "." and not doc[i].whitespace_ == "" and doc[i - 1].text.isalpha():
        i += 1  # "tsp." written with its period
    while i < len(doc) and (doc[i].lower_ in ("of", "each") or doc[i].pos_ == "DET"):
        i += 1
    words: list[str] = []
    while (
        i < len(doc)
        and doc[i].is_alpha
        and (doc[i].pos_ in ("NOUN", "PROPN", "ADJ", "VERB") or doc[i].pos_ == "CCONJ" and words)
    ):
        if doc[i].pos_ in ("NOUN", "PROPN"):
            words.append(doc[i].lower_ if doc[i].pos_ == "PROPN" else doc[i].lemma_.lower())
        i += 1
    return " ".join(dict.fromkeys(words)) or None


def _head_verb_of(span: Span) -> str | None:
    """Lemma of the verb the value is said of, through one preposition ("let it rest for 10
    minutes" -> ``"rest"``, "rose 8% to $2 billion" -> ``"rise"``); None when it hangs off a
    noun or nothing."""
    head = span.root.head
    if head.i == span.root.i:
        return None
    if head.pos_ == "ADP" and head.head.i != head.i:
        head = head.head
        if head.dep_ == "dobj" and head.head.pos_ == "VERB":
            head = head.head  # "Roast the steaks for 20 minutes": the parser hangs "for" on the object
    # the small model tags some verbs as nouns in a verb's place ("let it rest for 10 minutes")
    verb_like = head.pos_ == "VERB" or head.pos_ == "NOUN" and head.dep_ in ("ccomp", "xcomp", "ROOT")
    return head.lemma_.lower() if verb_like else None


def _same_value(a: Quantity, b: Quantity) -> bool:
    return (a.kind, a.low, a.high, a.unit, a.approx) == (b.kind, b.low, b.high, b.unit, b.approx)


def _house_number(doc: Doc, end: int, street_types: Collection[str]) -> bool:
    """The value ending before token ``end`` is followed by a street name ending in a street type
    (``street_types`` of ``models/units.json``: USPS Publication 28) within four tokens ("1575 S
    Virginia St", "10150 82 Ave NW")."""
    for tok in doc[end : min(len(doc), end + 4)]:
        if tok.lower_.rstrip(".") in street_types and tok.text[:1].isupper():
            return True
        if not (tok.text[:1].isupper() or tok.like_num):
            return False
    return False


def identifier_number(tok: Token) -> bool:
    """The token is a number that names a thing with the noun before it ("Store 7", "Room 310",
    "Flight 212", "Article 17", "Windows 11"): a bare number (no unit, currency or percent after
    it) right after a capitalised singular noun that is no month or weekday, no part of a date and no
    code in capitals ("USD 5", "KB 3").
    Such a number is an identifier: matched as a name, never compared as an amount."""
    if (
        not (tok.like_num or tok.text.replace(".", "").isdigit())
        or tok.i == 0
        or tok.ent_type_ in ("DATE", "TIME", "MONEY", "PERCENT")
    ):
        return False
    prev = tok.doc[tok.i - 1]
    if (
        prev.tag_ not in ("NN", "NNP")
        or not prev.text[:1].isupper()
        or prev.text.isupper()
        or prev.ent_type_ in ("DATE", "TIME")
        or not prev.is_alpha
    ):
        return False
    if prev.lower_ in _CALENDAR:
        return False
    nxt = tok.doc[tok.i + 1] if tok.i + 1 < len(tok.doc) else None
    return nxt is None or nxt.text not in ("%", "percent") and not (nxt.like_num and not nxt.is_punct)


def change_role(span: Span, change_words: Collection[str], kind: str) -> str | None:
    """The part a value plays in a change (``change_verbs`` of ``models/units.json``): ``"by"``
    for the amount of a change ("rose by 50%", "rose 50%", "a 50% rise", "an increase of 50%"),
    ``"from"`` and ``"to"`` for its two levels ("rose from 4% to 6%"); None otherwise (a level,
    "unemployment was 6%")."""
    doc, root = span.doc, span.root
    before = doc[span.start - 1] if span.start > 0 else None
    if before is not None and before.lower_ in ("by", "from", "to"):
        # the word before the value, hung (through at most three more words: "from 4% to 6%" is
        # parsed as one phrase) on a change verb
        up = before.head
        for _ in range(4):
            if up.pos_ in ("VERB", "AUX") and up.lemma_.lower() in change_words:
                return before.lower_
            if up.head.i == up.i:
                break
            up = up.head
    head = root.head
    if head.i == root.i:
        return None
    if head.pos_ == "ADP" and root.dep_ == "pobj":
        if head.lower_ == "of" and head.head.pos_ == "NOUN" and head.head.lemma_.lower() in change_words:
            return "by"  # "an increase of 50%"
        return None
    if kind not in ("percent", "money", "number"):
        return None
    if root.dep_ in ("npadvmod", "dobj") and head.pos_ == "VERB" and head.lemma_.lower() in change_words:
        return "by"  # "rose 50%"
    if root.dep_ in ("compound", "amod", "nummod") and head.pos_ == "NOUN" and head.lemma_.lower() in change_words:
        return "by"  # "a 50% rise"
    return None


# a character that marks a token with a digit as a figure (a sign, percent, currency, an escape,
# a full-width or invisible character, a superscript): such a token read as no value is a
# figure the reader could not read; digits with only [.,:/-] are as often codes, dates and scores
_FIGURE_MARKS = re.compile(
    r"[%\u2030+\u00b1$\u00a3\u20ac\u00a5\u20b9\\&\uff01-\uff5e\u200b\u200c\u200d\u2060\ufeff\u00ad"
    r"\u00b9\u00b2\u00b3\u2070\u2074-\u2079]"
)
_SCALE = frozenset(("%", "percent", "per", "thousand", "million", "billion", "trillion", "bn", "mn", "tn"))
_CURRENCY = frozenset("$\u00a3\u20ac\u00a5\u20b9")


def unread_figure(tok: Token) -> bool:
    """The token looks like a figure but was read as no value (the caller knows it was not):
    it holds a digit once a glued citation marker is taken off, and either a mark of a figure
    (a sign, ``%``, a currency symbol, a backslash or ``&`` escape, a full-width, invisible or
    superscript character: "+12", "12\\%", "12&#37", "1\u200b2") or, written in digits with ``.``
    and ``,`` only, a currency symbol before it or a percent sign or scale word after it
    ("€ 2,9,5 billion"). A word with letters ("Q3", "COVID-19") is no figure."""
    text = tok.text
    if not any(c.isdigit() for c in text):
        return False
    cleaned = clean_figure(text)
    if not any(c.isdigit() for c in cleaned) or any(c.isalpha() for c in cleaned):
        return False
    if _FIGURE_MARKS.search(text):
        return True
    if not re.fullmatch(r"[\d.,]+", text):
        return False
    doc = tok.doc
    before = doc[tok.i - 1].text if tok.i > 0 else ""
    after = doc[tok.i + 1].lower_ if tok.i + 1 < len(doc) else ""
    return before in _CURRENCY or after in _SCALE


# the words of a sentence that reports a match ("beat", "won", "a 2-1 win"): a "2-1" in it is its score
_MATCH_WORDS = frozenset(
    (
        "beat",
        "defeat",
        "win",
        "lose",
        "draw",
        "tie",
        "edge",
        "thrash",
        "rout",
        "down",
        "overcome",
        "score",
        "scoreline",
        "victory",
        "loss",
        "match",
        "game",
        "final",
        "fixture",
        "a.e.t",
        "aet",
        "penalty",
        "pen",
        "extra",
        "overtime",
        "half",
        "lead",
        "trail",
        "equalise",
        "equalize",
    )
)
_DIGIT = re.compile(r"\d")
_SCORE_TOKEN = re.compile(r"(\d{1,3})[-\u2013\u2014](\d{1,3})")


def match_score(doc: Doc, i: int) -> tuple[int, int, Quantity] | None:
    """A match's score starting at token ``i`` ("beat Sevilla 2-1", "won 3\u20131 a.e.t.", "a 2 - 0
    win"): ``(start, end, Quantity)`` of kind ``"score"`` (``low``/``high``: the lower and higher
    of the two goals or points, the order of the teams being the sentence's), when its sentence
    has a word of a match (beat, won, lost, drew, a win, the final, ...); None otherwise, and
    for a dash between two numbers elsewhere (a range, "5-7 days")."""
    tok = doc[i]
    if (m := _SCORE_TOKEN.fullmatch(tok.text)) is not None:
        a, b, end = int(m.group(1)), int(m.group(2)), i + 1
    elif (
        tok.text.isdigit()
        and len(tok.text) <= 3
        and i + 2 < len(doc)
        and doc[i + 1].text in ("-", "\u2013", "\u2014")
        and doc[i + 2].text.isdigit()
        and len(doc[i + 2].text) <= 3
    ):
        a, b, end = int(tok.text), int(doc[i + 2].text), i + 3
    else:
        return None
    if end < len(doc) and doc[end].text in ("%", "-") or i > 0 and doc[i - 1].text in ("$", "-", "\u2013"):
        return None
    if (
        end < len(doc)
        and doc[end].pos_ in ("NOUN", "PROPN")
        and doc[end].lemma_.lower() not in _MATCH_WORDS
        and doc[end].is_alpha
    ):
        return None  # "lose 1-2 pounds a week": a range of what follows, not a score
    if not any(t.lemma_.lower().rstrip(".") in _MATCH_WORDS or t.lower_.rstrip(".") in _MATCH_WORDS for t in tok.sent):
        return None
    text = doc[i:end].text
    return i, end, Quantity("score", float(min(a, b)), float(max(a, b)), "score", "score", 0.0, None, text)


_COUNTS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
}
_PARTS = {
    "half": 2,
    "halves": 2,
    "third": 3,
    "thirds": 3,
    "quarter": 4,
    "quarters": 4,
    "fourth": 4,
    "fourths": 4,
    "fifth": 5,
    "fifths": 5,
    "sixth": 6,
    "sixths": 6,
    "eighth": 8,
    "eighths": 8,
    "tenth": 10,
    "tenths": 10,
}
_SIGNS = {">": "more than", "<": "fewer than", "\u2265": "at least", "\u2264": "up to", "\u2248": "about", "~": "about"}
_SHARE = re.compile(
    r"(?:(?P<ap>[<>\u2265\u2264\u2248~]|[a-z]+(?: [a-z]+){0,2})\s*)??"
    r"(?:(?P<n>an?|one|two|three|four|five|six|seven|eight|nine)[\s-]+(?P<d>[a-z]+)|(?P<h>half)"
    r"|(?P<fn>\d{1,2})\s?/\s?(?P<fd>\d{1,2}))\s+(?P<of>of|the)\b",
    re.I,
)
_APPROX_FIRST = frozenset(
    (
        "more",
        "over",
        "nearly",
        "almost",
        "about",
        "around",
        "roughly",
        "approximately",
        "some",
        "just",
        "well",
        "less",
        "fewer",
        "under",
        "at",
        "up",
        "close",
        "upwards",
        "north",
        "in",
        "no",
        "not",
        "greater",
        "above",
        "below",
        "exceeding",
        "an",
        "estimated",
        "circa",
        "a",
    )
)
_NOT_SHARE_BEFORE = frozenset(
    ("first", "second", "last", "latter", "former", "the", "other", "back", "front", "top", "bottom")
)


def share_at(doc: Doc, i: int, approximators: Mapping[str, str]) -> tuple[int, int, Quantity] | None:
    """A share of a whole starting at token ``i``, as a percent: "three quarters of voters" (75%),
    "a third of sales", "half the staff" (50%), "1/3 of revenue", with a bound or approximator
    before it ("more than a third of", ">1/3 of", "nearly half of"; ``approximators`` of
    ``models/units.json``): ``(start, end, Quantity)`` over the words of the share (not the
    "of"), read to half a percent. Only before "of" (and "half" before "the"): "a third
    party", "the third quarter" and "two quarters" alone are no shares; nor "the first half of"."""
    tok = doc[i]
    first = tok.lower_
    if (
        not (
            first in _COUNTS
            or first == "half"
            or first in _SIGNS
            or first[:1].isdigit()
            or first in _APPROX_FIRST
            or first in approximators
        )
        or i > 0
        and doc[i - 1].lower_ in _NOT_SHARE_BEFORE
    ):
        return None
    m = _SHARE.match(doc.text, tok.idx, min(len(doc.text), tok.idx + 60))
    if m is None or m.start("ap") not in (-1, tok.idx) and m.start() != tok.idx:
        return None
    if m.group("h"):
        n, d = 1, 2
    elif m.group("fn"):
        n, d = int(m.group("fn")), int(m.group("fd"))
    else:
        n, d = _COUNTS.get(m.group("n").lower()), _PARTS.get(m.group("d").lower())
        if d is None or (n > 1) != m.group("d").lower().endswith(("s", "halves")) and d != 2:
            return None
    if m.group("of").lower() == "the" and not m.group("h") or not d or not 0 < n < d:
        return None
    approx = None
    if m.group("ap"):
        approx = _SIGNS.get(m.group("ap")) or approximators.get(m.group("ap").lower())
        if approx is None:
            return None
    v = 100.0 * n / d
    d_ = 0.1 * v
    lo, hi = {
        "about": (v - d_, v + d_),
        "more than": (v, math.inf),
        "at least": (v, math.inf),
        "fewer than": (-math.inf, v),
        "up to": (-math.inf, v),
        "nearly": (v - d_, v),
    }.get(approx or "", (v, v))
    span = doc.char_span(tok.idx, m.start("of"), alignment_mode="contract")
    if span is None or span.start != i:
        return None
    amount = _share_of_amount(doc, i, span.end, n / d, approx)
    if amount is not None:
        return i, amount[0], amount[1]  # "a quarter of a billion dollars": $250 million
    text = span.text
    return i, span.end, Quantity("percent", lo, hi, "%", "%", 0.5, approx, text)


_SCALE_WORDS = frozenset(("thousand", "million", "billion", "trillion"))


def _share_of_amount(doc: Doc, start: int, of: int, share: float, approx: str | None) -> tuple[int, Quantity] | None:
    """A share of an amount of money or of a count with a scale word, after "of" at token
    ``of`` ("a quarter of a billion dollars", "half of $3 million", "a third of a million
    people"): ``(end, Quantity)``, the amount times the share; None for any other text ("a
    quarter of 40 students" is a share of a stated whole, read as such)."""
    if approx or of >= len(doc) or doc[of].lower_ != "of":
        return None
    for end in range(min(len(doc), of + 6), of + 1, -1):
        if doc[end - 1].is_punct:
            continue  # "a billion dollars.": the full stop is no part of it
        words = doc[of + 1 : end]
        if not any(t.lower_ in _SCALE_WORDS or t.text[:1] in "$\u00a3\u20ac\u00a5" for t in words):
            continue
        q = parse_quantity(words.text)
        if q is None or q.kind not in ("money", "number") or q.low != q.high or q.approx:
            continue
        if q.kind == "number" and not any(t.lower_ in _SCALE_WORDS for t in words):
            continue
        v = q.low * share
        return end, Quantity(q.kind, v, v, q.unit, q.dimension, q.precision * share, None, doc[start:end].text)
    return None


_HOURS = frozenset(("hour", "hours", "hr", "hrs", "h"))


# a verb that multiplies a level (WordNet's "double": "increase twofold"), as the relative change
# it says, in percent, and the half-width of the ratio a reader still calls so (5%: 1.9 to 2.1
# times is "doubled"); "halved" is a fall of half
_MULTIPLIERS = {"double": (100.0, 10.0), "triple": (200.0, 15.0), "quadruple": (300.0, 20.0), "halve": (-50.0, 2.5)}


def multiplier_at(doc: Doc, i: int) -> tuple[int, int, Quantity] | None:
    """A verb that multiplies what it is said of, at token ``i``: "sales doubled", "tripled its
    staff", "halved the price" -> ``(i, i + 1, Quantity)``, the relative change it says in
    percent (+100%, +200%, +300%, -50%) with a precision of 5% of the ratio (:data:`_MULTIPLIERS`).
    It is compared with the change a passage states by its two levels ("from 20 to 40"), never
    with a level. None for another word, a verb with a particle or "as" ("doubled down",
    "doubles as a hospital"), and one a bound or approximator qualifies ("nearly doubled",
    "more than doubled"): the reader keeps those as words."""
    tok = doc[i]
    found = _MULTIPLIERS.get(tok.lemma_.lower())
    if found is None or tok.pos_ != "VERB":
        return None
    if any(c.dep_ in ("prt", "advmod") for c in tok.children) or i + 1 < len(doc) and doc[i + 1].lower_ == "as":
        return None
    value, precision = found
    return i, i + 1, Quantity("percent", value, value, "%", "%", precision, None, tok.text)


def range_end_counts_a_noun(doc: Doc, start: int, end: int) -> bool:
    """A date range whose end is a short number counting the noun after it: "from 20 units in
    2022 to 40 units" is no range 2022-2040, "between 2019 and 21 people" none 2019-2021."""
    last = doc[end - 1]
    return (
        end - start > 1
        and end < len(doc)
        and last.is_digit
        and len(last.text) <= 2
        and doc[end].pos_ == "NOUN"
        and last.head.i == end
    )


#: a rhythm's unit -> (how many of it make the period it is counted in, that period): "every 12
#: hours" is twice a day, "every 6 months" twice a year, "every 2 days" ... not a whole count a week
_RHYTHMS = {
    **dict.fromkeys(_HOURS, (24, "day")),
    **dict.fromkeys(("day", "days"), (7, "week")),
    **dict.fromkeys(("week", "weeks"), (52, "year")),
    **dict.fromkeys(("month", "months"), (12, "year")),
    **dict.fromkeys(("quarter", "quarters"), (4, "year")),
}


def every_hours(doc: Doc, i: int, number_words: Mapping[str, int]) -> tuple[int, int, Quantity, str] | None:
    """A rhythm: "every 12 hours", "every eight hours", "every six months" at token ``i``
    ("every"), as the times a period it comes to (the value of "twice daily", "three times a
    day", "twice a year", whose noun is ``"day-time"``, ``"year-time"``: :data:`_RHYTHMS`); None
    for another text, or a count that does not divide the period."""
    if doc[i].lower_ not in ("every", "each") or i + 2 >= len(doc) or doc[i + 2].lower_ not in _RHYTHMS:
        return None
    count = doc[i + 1].lower_
    n = int(count) if count.isdigit() else number_words.get(count)
    per, period = _RHYTHMS[doc[i + 2].lower_]
    if not isinstance(n, int) or n <= 0 or per % n:
        return None
    times = per // n
    q = Quantity("number", float(times), float(times), None, None, 0.0, None, doc[i : i + 3].text)
    return i, i + 3, q, f"{period}-time"


_PERIOD_ABBREVIATIONS = {
    "yoy": "year",
    "qoq": "quarter",
    "mom": "month",
    "wow": "week",
    "y/y": "year",
    "q/q": "quarter",
    "m/m": "month",
    "w/w": "week",
}
_PERIODS = frozenset(("year", "quarter", "month", "week", "day"))


def compared_period(doc: Doc, end: int) -> tuple[str, int] | None:
    """The period a change in percent is measured over, written right after it: "+12% YoY",
    "3% y/y", "5% year-over-year", "4% year on year" -> ``("year-change", end)``, where ``end``
    takes in an abbreviation (which is then part of the value, no name: "YoY") but not the words;
    None when none follows token ``end``."""
    words = [t.lower_.rstrip(".") or t.lower_ for t in doc[end : end + 5]]
    if not words:
        return None
    for n in (3, 1):
        abbreviation = "".join(words[:n])
        if len(words) >= n and abbreviation in _PERIOD_ABBREVIATIONS and (n == 1 or words[1] == "/"):
            return f"{_PERIOD_ABBREVIATIONS[abbreviation]}-change", end + n
    phrase = [w for w in words if w != "-"]
    if len(phrase) >= 3 and phrase[0] in _PERIODS and phrase[1] in ("over", "on") and phrase[2] == phrase[0]:
        return f"{phrase[0]}-change", end
    return None


def restated_figure(doc: Doc, i: int, blocked: Collection[int]) -> tuple[int, int, Quantity] | None:
    """:func:`restated_value` without the words of a restatement that disagrees."""
    found = restated_value(doc, i, blocked)
    return found[:3] if found else None


def restated_value(doc: Doc, i: int, blocked: Collection[int]) -> tuple[int, int, Quantity, Quantity | None] | None:
    """A figure in words restated in digits, as contracts write it ("sixty (60) days",
    "ten (10) percent"): ``(start, end, Quantity, None)``, one value, the digits read with the
    words after the bracket, over the whole span. When the words and the digits disagree
    ("sixty (90) days": a fault of the text) the value is the digits' and the fourth item the
    words' reading (60 days): which of the two the text means cannot be told, and a value
    compared with it is matched by neither and contradicted only by both
    (:func:`sourced_nlp.verdict.alignment._match_values`).
    None for any other text."""
    j = i
    while j < len(doc) and doc[j].is_alpha and (doc[j].like_num or doc[j].lower_ in ("and", "-") and j > i):
        j += 1
    if (
        j == i
        or j + 2 >= len(doc)
        or doc[j].text != "("
        or doc[j + 2].text != ")"
        or not _DIGIT.search(doc[j + 1].text)
    ):
        return None
    words = parse_quantity(doc[i:j].text)
    if words is None:
        return None
    for end in range(min(len(doc), j + 3 + 3), j + 2, -1):
        if any(k in blocked or "\n" in doc[k].text for k in range(j + 3, end)):
            continue
        q = parse_quantity(f"{doc[j + 1].text} {doc[j + 3 : end].text}".strip())
        if q is not None:
            if words.kind != "number":
                return None
            while end > j + 3 and doc[end - 1].is_punct:
                end -= 1  # "sixty (60) days.": the sentence's full stop is no part of it
            rest = doc[j + 3 : end].text
            disputed = None
            if not _same_number(doc[j + 1].text, words.low):  # "sixty (90) days": the words' reading too
                disputed = parse_quantity(f"{words.low:g} {rest}".strip())
                if disputed is None:
                    return None
            q = Quantity(q.kind, q.low, q.high, q.unit, q.dimension, q.precision, q.approx, doc[i:end].text)
            return i, end, q, disputed
    return None


def _same_number(digits: str, value: float) -> bool:
    q = parse_quantity(digits)
    return q is not None and q.low == value


def is_change(span: Span, change_verbs: Collection[str]) -> bool:
    """``rose from $10 million to $12 million``: two values of a change, not a range.

    The parser attaches ``from`` (just before or at the start of the window) to the change
    verb (``change_verbs`` in ``models/units.json``); a ``to`` inside the window then
    separates the old and the new value.
    """
    doc = span.doc
    if not any(t.lower_ == "to" for t in span):
        return False
    for i in range(max(0, span.start - 3), span.end):
        tok = doc[i]
        if tok.lower_ == "from" and tok.head.lemma_.lower() in change_verbs and tok.head.pos_ in ("VERB", "AUX"):
            return True
    return False
