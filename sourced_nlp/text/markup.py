"""The text a person reads in an answer written in HTML: tags blanked, offsets kept.

Pure module (no spaCy). Chat models often answer in HTML (``<p>``, ``<b>``, ``<ul><li>``,
tables): read as text, a tag glues itself to the words beside it (``<b>12%</b>``), so a value
or a name inside it can be missed. :func:`reading_text` returns the same text with every tag
replaced by spaces — a block tag (paragraph, list item, table row, heading, ``<br>``) by line
breaks, so that it ends a claim as it ends a line on screen — and the content of ``<script>``,
``<style>`` and HTML comments blanked too. It has the length of the input and every other
character in its place, so a claim's offsets into it are offsets into the original answer.
Markdown needs no such step: spaCy reads ``**12%**`` as ``12%``, and ``sourced_claims`` handles
list markers, headings, code fences and tables.
"""

from __future__ import annotations

import re

__all__ = ["reading_text", "has_markup", "BOM"]

BOM = "\ufeff"
#: the bidirectional controls (Unicode's Bidi_Control property): invisible, they reorder what a
#: reader sees ("Trojan source") and glue themselves to the word beside them ("2023.\u202e"), so
#: a value beside one is missed; each is read as a space
_BIDI = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")

_TAG = re.compile(r"</?([a-zA-Z][a-zA-Z0-9]*)\b(?:[^<>\"']|\"[^\"]*\"|'[^']*')*/?>")
_HIDDEN = re.compile(r"<(script|style)\b[^>]*>.*?</\1\s*>|<!--.*?(?:-->|\Z)", re.IGNORECASE | re.DOTALL)
#: Tags that end a block of text: a paragraph, a list item, a table row, a heading...
_BLOCK = frozenset(
    {
        "p",
        "div",
        "li",
        "ul",
        "ol",
        "dl",
        "dt",
        "dd",
        "tr",
        "table",
        "thead",
        "tbody",
        "tfoot",
        "caption",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "blockquote",
        "pre",
        "section",
        "article",
        "header",
        "footer",
        "aside",
        "nav",
        "main",
        "figure",
        "figcaption",
        "hr",
        "details",
        "summary",
    }
)
#: Tags that end a line but not a paragraph (a wrapped line may go on after them).
_LINE = frozenset({"br"})
#: Tags that are known HTML: only these are blanked ("<Acme>" or "<name>" in prose stay).
_KNOWN = (
    _BLOCK
    | _LINE
    | frozenset(
        {
            "a",
            "b",
            "i",
            "u",
            "s",
            "em",
            "strong",
            "small",
            "big",
            "sub",
            "sup",
            "mark",
            "code",
            "kbd",
            "samp",
            "var",
            "span",
            "abbr",
            "cite",
            "q",
            "del",
            "ins",
            "font",
            "td",
            "th",
            "img",
            "html",
            "body",
            "head",
            "title",
            "meta",
            "link",
            "label",
            "time",
            "data",
            "wbr",
            "center",
            "strike",
            "tt",
        }
    )
)


def has_markup(text: str) -> bool:
    """Whether ``text`` holds an HTML tag that :func:`reading_text` would blank."""
    return any(m.group(1).lower() in _KNOWN for m in _TAG.finditer(text)) or bool(_HIDDEN.search(text))


def reading_text(text: str) -> str:
    """``text`` with its HTML markup blanked, offsets kept (see the module docstring).

    Args:
        text: an answer, possibly holding HTML.

    Returns:
        A string of the same length: each known tag replaced by spaces (a block tag by two line
        breaks then spaces, ``<br>`` by one line break then spaces), ``<script>``/``<style>``
        elements and comments by spaces (line breaks kept), a leading byte-order mark (U+FEFF)
        by a space, each bidirectional control (U+061C, U+200E-F, U+202A-E, U+2066-9) by a
        space, every other character unchanged.
        Text without a known tag is returned as it is.

    Raises:
        TypeError: ``text`` is not a str.
    """
    if not isinstance(text, str):
        raise TypeError(f"reading_text(): text must be a str, not {type(text).__name__}")
    if text.startswith(BOM):  # a byte-order mark (a file read without utf-8-sig) is no character of the text
        text = " " + text[1:]
    text = _BIDI.sub(" ", text)
    if "<" not in text:
        return text
    chars = list(text)

    def blank(a: int, b: int, lead: str = "") -> None:
        for k in range(a, b):
            chars[k] = "\n" if text[k] == "\n" else " "
        for k, ch in enumerate(lead[: b - a]):
            chars[a + k] = ch

    for m in _HIDDEN.finditer(text):
        blank(m.start(), m.end())
    for m in _TAG.finditer(text):
        name = m.group(1).lower()
        if name not in _KNOWN or chars[m.start()] != "<":
            continue
        lead = "\n\n" if name in _BLOCK else "\n" if name in _LINE else ""
        blank(m.start(), m.end(), lead)
    return "".join(chars)
