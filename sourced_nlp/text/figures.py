"""What answers write around a figure that is no part of its value, taken off before it is read.

Pure module (no spaCy): :func:`clean_figure`, used by :func:`sourced_nlp.text.quantity.parse_quantity`
and by :func:`sourced_nlp.components.quantity_tokens.unread_figure`.
"""

from __future__ import annotations

import html
import re

__all__ = ["and_a_half", "clean_figure"]

# the ways answers write a figure that are not its value: invisible characters, full-width forms,
# LaTeX and HTML escapes, a citation marker or footnote mark glued to it
_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad"), None)
_FULLWIDTH = {**{0xFF01 + i: 0x21 + i for i in range(94)}, 0x3000: 0x20}
_ENTITY = re.compile(r"&(#\d{1,6}|#x[0-9a-f]{1,6}|[a-z]{2,8});?", re.I)
_LATEX_MATH = re.compile(r"^\$([^$]*\d[^$]*)\$$")
_GLUED_MARK = re.compile(
    r"(?:\[\^?[a-z]{0,3}\d{1,3}(?:\s?[,\u2013-]\s?[a-z]{0,3}\d{1,3})*\]?|\u3010\d{1,3}\u3011?"
    r"|(?<=[\d%])[\u00b9\u00b2\u00b3\u2070\u2074-\u2079]+|(?<=illion)[\u00b9\u00b2\u00b3\u2070\u2074-\u2079]+"
    r"|(?<=%)\^\d{1,3}|(?<=%)\(\d{1,2}\)?)(?=$|[\s.,;:!?)])",
    re.I,
)
_DECIMAL_COMMA = re.compile(
    r"(?<![\d,.])(\d{1,3}),(\d{1,2})(?![\d,])(?=\s?(?:%|percent|thousand|million|billion|trillion|bn|mn|tn|m\b|b\b|k\b))"
    r"|(?<=[$\u00a3\u20ac\u00a5\u20b9])(\d{1,3}),(\d{1,2})(?![\d,])",
    re.I,
)


# thousands grouped by a space ("1 200", "12 500 000"; a no-break or thin space as well), and a
# scale word hyphenated to its figure ("$2.4-billion")
_SPACED_THOUSANDS = re.compile(r"(?<![\d.,])\d{1,3}(?:[ \u00a0\u202f\u2009]\d{3})+(?![\d]|[.,]\d)")
_HYPHENED_SCALE = re.compile(r"(?<=\d)-(?=(?:thousand|million|billion|trillion)\b)", re.I)

_SIGN_WORDS = {">": "more than", "<": "less than", "\u2265": "at least", "\u2264": "at most", "\u2248": "about"}
_SIGN = re.compile(r"^([<>\u2265\u2264\u2248])\s*(?=[\d$\u00a3\u20ac\u00a5.])")


def clean_figure(text: str) -> str:
    """``text`` with what is written around a figure but is no part of its value taken off:
    zero-width characters, full-width forms (``12％``), HTML entities (``12&#37;``), LaTeX
    (``12\\%``, ``$12\\%$``), a citation marker or footnote mark glued to it (``8%[1]``,
    ``$2.4 billion[^2]``, ``8%【1】``, ``45%¹``, ``12%^1``, ``12%(1)``; a superscript after a unit, ``m²``, is kept),
    a plus sign before it (``+12%``), thousands grouped by spaces (``1 200``), a scale word
    hyphenated to its figure (``$2.4-billion``), a comparison sign as its words (``>30%``, ``≤5 mg``), and a decimal comma before a scale word, percent sign or
    after a currency symbol (``€2,9 billion`` -> ``€2.9 billion``). Text without them is returned
    as is."""
    t = text.translate(_INVISIBLE)
    if any(ord(c) >= 0x3000 for c in t):
        t = t.translate(_FULLWIDTH)
    if "&" in t:
        t = _ENTITY.sub(lambda m: html.unescape(f"&{m.group(1)};"), t)
    if "\\" in t:
        t = t.replace("\\%", "%").replace("\\$", "$").replace("\\,", "")
    if t.count("$") >= 2 and (m := _LATEX_MATH.match(t.strip())):
        t = m.group(1)
    t = _GLUED_MARK.sub("", t)
    if " " in t or "\u00a0" in t or "\u202f" in t or "\u2009" in t:
        t = _SPACED_THOUSANDS.sub(lambda m: re.sub(r"\D", "", m.group(0)), t)
    if "-" in t:
        t = _HYPHENED_SCALE.sub(" ", t)
    if "," in t:
        t = _DECIMAL_COMMA.sub(lambda m: f"{m.group(1) or m.group(3)}.{m.group(2) or m.group(4)}", t)
    if t[:1] in _SIGN_WORDS:
        t = _SIGN.sub(lambda m: _SIGN_WORDS[m.group(1)] + " ", t, count=1)
    return re.sub(r"(?<![\w.])\+(?=\.?\d)", "", t)


_HALF_AFTER_UNIT = re.compile(r"^(?:an?|one)\s+([a-z]+)\s+and\s+a\s+half$")
_HALF_AFTER_COUNT = re.compile(r"^([a-z]+|\d+)\s+and\s+a\s+half\s+([a-z]+)$")
_HALF_OF_UNIT = re.compile(r"^half\s+an?\s+([a-z]+)$")


def and_a_half(t: str, number_words: dict) -> str:
    """A measure said with a half, in digits: "an hour and a half" and "one and a half hours"
    -> "1.5 hour(s)", "two and a half years" -> "2.5 years", "half an hour" -> "0.5 hour"; other
    text as is. ``t`` is lower case; ``number_words``: ``{"two": 2, ...}``."""
    if m := _HALF_AFTER_UNIT.match(t):
        return f"1.5 {m.group(1)}"
    if m := _HALF_OF_UNIT.match(t):
        return f"0.5 {m.group(1)}"
    if m := _HALF_AFTER_COUNT.match(t):
        count = m.group(1)
        n = int(count) if count.isdigit() else number_words.get(count)
        return f"{n}.5 {m.group(2)}" if isinstance(n, int) else t
    return t
