"""Locating quoted passages in sources, and parsing citation markers out of answers.

Pure module (no spaCy). Two halves:

* :func:`locate` finds a quote in a source text in three steps -- exact, normalised (NFKC,
  case, quotes, dashes, ellipsis, ligatures, whitespace), then fuzzy at the word level
  (rapidfuzz) -- and always answers with character offsets into the *original* text.
* :func:`find_citations` parses the citation markers an LLM writes (``[1]``, ``[1, 3]``,
  ``[S2: "words"]``, ``(Passage 2)``, ``(Source: Reuters)``, ``[^1]``, ``[doc-id]`` ...);
  :func:`strip_citations` and :func:`citation_spans` remove or mask them, and
  :func:`resolve_target` maps a marker's target to a source index.

Conservative by design (a false ``grounded`` is the worst error): exact and normalised matches
must start and end on word boundaries, short quotes are never matched fuzzily, and a fuzzy match
never changes a number.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_left
from collections import Counter, OrderedDict
from collections.abc import Collection
from dataclasses import dataclass

from rapidfuzz.distance import Levenshtein

__all__ = [
    "Match",
    "Citation",
    "normalize_with_map",
    "locate",
    "find_citations",
    "strip_citations",
    "citation_spans",
    "resolve_target",
    "positional_ids",
]

# ---------------------------------------------------------------------------------------------
# Normalisation
# ---------------------------------------------------------------------------------------------

_QUOTES = {
    "\u2018": "'",
    "\u2019": "'",
    "\u201a": "'",
    "\u201b": "'",
    "\u2032": "'",
    "\u2039": "'",
    "\u203a": "'",
    "`": "'",
    "\u00b4": "'",
    "\u201c": '"',
    "\u201d": '"',
    "\u201e": '"',
    "\u201f": '"',
    "\u2033": '"',
    "\u00ab": '"',
    "\u00bb": '"',
}
# Invisible characters that PDF extraction and web copy leave inside words.
_DROP = frozenset("\u00ad\u200b\u200c\u200d\u2060\ufeff")
_CHAR_CACHE: dict[str, str] = {}


def _norm_piece(cluster: str) -> str:
    """Normalise one base character with its combining marks (NFKC, casefold, quotes, dashes)."""
    cached = _CHAR_CACHE.get(cluster)
    if cached is not None:
        return cached
    out = []
    for ch in unicodedata.normalize("NFKC", cluster).casefold():
        if ch in _DROP:
            continue
        if ch in _QUOTES:
            out.append(_QUOTES[ch])
        elif ch == "\u2212" or unicodedata.category(ch) == "Pd":  # minus sign, every dash
            out.append("-")
        elif ch == "\u2026":
            out.append("...")
        elif ch.isspace():
            out.append(" ")
        else:
            out.append(ch)
    res = "".join(out)
    if len(_CHAR_CACHE) < 65536:
        _CHAR_CACHE[cluster] = res
    return res


def _normalize(text: str) -> tuple[str, list[int], list[int]]:
    """Normalise ``text``; return it with, per normalised char, the original (start, end).

    ``starts[i]:ends[i]`` is the original slice that normalised char ``i`` came from (one
    character, or a base character with its combining marks, or a whitespace run's first char).
    """
    out: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    n = len(text)
    i = 0
    while i < n:
        ch = text[i]
        j = i + 1
        while j < n and unicodedata.combining(text[j]):
            j += 1
        if j == i + 1 and ch.isascii():
            if ch.isspace():
                piece = " "
            elif ch == "`":
                piece = "'"
            else:
                piece = ch.lower()
        else:
            piece = _norm_piece(text[i:j])
        for p in piece:
            if p == " ":
                if not out or out[-1] == " ":
                    continue  # leading whitespace, or a run: keep its first char only
                out.append(" ")
                starts.append(i)
                ends.append(i + 1)
            else:
                out.append(p)
                starts.append(i)
                ends.append(j)
        i = j
    if out and out[-1] == " ":
        out.pop()
        starts.pop()
        ends.pop()
    return "".join(out), starts, ends


def normalize_with_map(text: str) -> tuple[str, list[int]]:
    """Normalise ``text`` for matching and keep, per normalised char, its original offset.

    Normalisation: Unicode NFKC (ligatures such as ``"ﬁ"`` -> ``"fi"``, full-width forms,
    ``"…"`` -> ``"..."``, no-break spaces), ``str.casefold``, curly and angle quotes to ``'`` and
    ``"``, every dash (Unicode category Pd) and the minus sign to ``-``, soft hyphens and
    zero-width characters dropped, each run of whitespace (line breaks included) to one space,
    leading and trailing whitespace removed.

    Args:
        text: any string.

    Returns:
        ``(normalised, offsets)`` where ``len(offsets) == len(normalised)`` and
        ``offsets[i]`` is the index in ``text`` of the character that produced
        ``normalised[i]`` (a character that expands, like ``"…"`` or ``"ß"``, maps each of its
        outputs to the same index).

    Example:
        >>> normalize_with_map("A\\n “b”")
        ('a "b"', [0, 1, 3, 4, 5])
    """
    norm, starts, _ = _normalize(text)
    return norm, starts


# ---------------------------------------------------------------------------------------------
# Locating quotes
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Match:
    """Where a quote was found in a source.

    Attributes:
        start: character offset into the original text (inclusive).
        end: character offset into the original text (exclusive); ``text[start:end] == self.text``.
        text: the matched region of the original text.
        method: ``"exact"``, ``"normalized"`` or ``"fuzzy"``.
        score: ``1.0`` for exact and normalised matches; for fuzzy ones the word-level
            similarity in ``[0, 1]`` (``1 - word_edits / max(quote_words, window_words)``).
    """

    start: int
    end: int
    text: str
    method: str
    score: float

    def to_dict(self) -> dict:
        """Plain dict: ``{"start", "end", "text", "method", "score"}``."""
        return {"start": self.start, "end": self.end, "text": self.text, "method": self.method, "score": self.score}


# A word: letters/digits, with inner apostrophes, hyphens, dots or commas ("don't", "3.5",
# "1,000", "well-known"); punctuation around words is ignored by the fuzzy step.
_WORD = re.compile(r"\w+(?:['\-.,]\w+)*")
_EDGE_PUNCT = " \"'.,;:!?-()[]"
_MIN_FUZZY_WORDS = 4


def _on_boundaries(text: str, start: int, end: int) -> bool:
    """True unless the match cuts a word in two at either end."""
    if start > 0 and text[start].isalnum() and text[start - 1].isalnum():
        return False
    if end < len(text) and text[end - 1].isalnum() and text[end].isalnum():
        return False
    return True


def _occurrences(needle: str, hay: str):
    """Every start of ``needle`` in ``hay`` (overlapping), via ``str.find``."""
    i = hay.find(needle)
    while i != -1:
        yield i
        i = hay.find(needle, i + 1)


_PREPARED: "OrderedDict[str, tuple[str, list[int], list[int], list[tuple[int, int]]]]" = OrderedDict()
_PREPARED_SIZE = 8


def _prepared(text: str) -> tuple[str, list[int], list[int], list[tuple[int, int]]]:
    """``_normalize(text)`` and the word spans of the normalised text, for the last few texts
    (a source is searched once per citation: normalising 550 KB takes about half a second)."""
    hit = _PREPARED.get(text)
    if hit is not None:
        _PREPARED.move_to_end(text)
        return hit
    nt, starts, ends = _normalize(text)
    out = (nt, starts, ends, [m.span() for m in _WORD.finditer(nt)])
    if len(text) >= 2000:  # short texts are cheap to normalise again
        _PREPARED[text] = out
        while len(_PREPARED) > _PREPARED_SIZE:
            _PREPARED.popitem(last=False)
    return out


def _closest(cands: list[tuple[int, int]], near: int | None) -> tuple[int, int]:
    """The first candidate, or the one whose start is closest to ``near`` (earliest on a tie)."""
    if near is None:
        return cands[0]
    return min(cands, key=lambda c: (abs(c[0] - near), c[0]))


def _guarded(words: list[str], protected: Collection[str]) -> Counter:
    """The words a fuzzy match may not change: numbers, and the caller's protected words."""
    return Counter(w for w in words if w in protected or any(c.isdigit() for c in w))


def _check_str(name: str, value: object, func: str) -> None:
    """Raise ``TypeError`` naming the argument unless ``value`` is a str."""
    if not isinstance(value, str):
        raise TypeError(f"{func}(): {name} must be a str, not {type(value).__name__}")


def locate(
    quote: str,
    text: str,
    *,
    fuzzy: bool = True,
    min_score: float = 0.8,
    near: int | None = None,
    protected: Collection[str] = (),
) -> Match | None:
    """Find ``quote`` in ``text``: exact, then normalised, then fuzzy at the word level.

    1. exact: ``str.find`` of the stripped quote;
    2. normalised: the quote in ``normalize_with_map(text)`` (see there), retried without
       leading/trailing punctuation, mapped back to original offsets;
    3. fuzzy (``fuzzy=True`` and a quote of at least 4 words): windows of ``n-1``, ``n`` and
       ``n+1`` words slide over the text's words; each is scored by word-level Levenshtein
       similarity (``rapidfuzz.distance.Levenshtein`` on word lists,
       ``1 - edits / max(n, window)``), so one changed or missing word in an 8-word quote scores
       0.875 and one in a 10-word quote 0.9. A window passes if it scores ``>= min_score`` and
       keeps every number (any word with a digit) and every ``protected`` word of the quote, no
       more and no fewer: a quote that differs by a number is a different claim, not a typo.

    Exact and normalised matches must start and end on word boundaries (``"cat"`` is not found
    in ``"concatenate"``, ``"10%"`` not in ``"110%"``). The best fuzzy window wins (highest score,
    then closest to ``near``, then fewest words, then earliest).

    Cost: linear in ``len(text)`` for a fixed quote (a word-count upper bound skips windows that
    cannot reach ``min_score`` before any edit distance is computed).

    Args:
        quote: the quoted words; surrounding whitespace is ignored.
        text: the source text to search.
        fuzzy: allow step 3.
        min_score: fuzzy acceptance threshold in ``[0, 1]``.
        near: an offset into ``text``; among several occurrences, the one whose start is
            closest to it is returned (otherwise the first).
        protected: normalised (casefolded) words a fuzzy match must keep, e.g. negation cues
            from the negation lexicon (``{"not", "never"}``).

    Returns:
        A :class:`Match` with offsets into the original ``text``, or ``None``.

    Raises:
        TypeError: ``quote`` or ``text`` is not a str (None, bytes, ...), ``min_score`` is not a
            number, ``near`` is not an int, ``protected`` is a str; the message names the argument.
        ValueError: ``quote`` is empty or only whitespace; ``min_score`` is outside [0, 1].
    """
    _check_str("quote", quote, "locate")
    _check_str("text", text, "locate")
    if isinstance(min_score, bool) or not isinstance(min_score, (int, float)):
        raise TypeError(f"locate(): min_score must be a number in [0, 1], not {type(min_score).__name__}")
    if not 0.0 <= min_score <= 1.0:  # NaN fails too
        raise ValueError(f"locate(): min_score must be in [0, 1], got {min_score!r}")
    if near is not None and (isinstance(near, bool) or not isinstance(near, int)):
        raise TypeError(f"locate(): near must be an int offset into text or None, not {type(near).__name__}")
    if isinstance(protected, str):
        raise TypeError("locate(): protected must be a collection of words, not a str")
    q = quote.strip()
    if not q:
        raise ValueError("locate() needs a non-empty quote")

    # 1. exact
    cands = [(s, s + len(q)) for s in _occurrences(q, text) if _on_boundaries(text, s, s + len(q))]
    if cands:
        s, e = _closest(cands, near)
        return Match(s, e, text[s:e], "exact", 1.0)

    # 2. normalised
    nt, starts, ends, spans = _prepared(text)
    nq, _, _ = _normalize(q)
    variants = [nq]
    trimmed = nq.strip(_EDGE_PUNCT)
    if trimmed and trimmed != nq:
        variants.append(trimmed)
    for v in variants:
        cands = []
        for ns in _occurrences(v, nt):
            ne = ns + len(v)
            s, e = starts[ns], ends[ne - 1]
            if _on_boundaries(nt, ns, ne) and _on_boundaries(text, s, e):
                cands.append((s, e))
        if cands:
            s, e = _closest(cands, near)
            return Match(s, e, text[s:e], "normalized", 1.0)

    # 3. fuzzy, word level
    if not fuzzy:
        return None
    qwords = _WORD.findall(nq)
    n = len(qwords)
    if n < _MIN_FUZZY_WORDS:
        return None
    words = [nt[a:b] for a, b in spans]
    if not words:
        return None
    qset = set(qwords)
    prefix = [0]
    for w in words:
        prefix.append(prefix[-1] + (w in qset))
    qguard = _guarded(qwords, protected)
    best: tuple | None = None  # (sort key, start, end, score)
    for size in (n - 1, n, n + 1):
        if size < 1 or size > len(words):
            continue
        denom = max(n, size)
        for i in range(len(words) - size + 1):
            # aligned equal words <= window words that occur in the quote: an upper bound
            if min(prefix[i + size] - prefix[i], n) / denom < min_score:
                continue
            window = words[i : i + size]
            score = Levenshtein.normalized_similarity(qwords, window, score_cutoff=min_score)
            if score < min_score or _guarded(window, protected) != qguard:
                continue
            s, e = starts[spans[i][0]], ends[spans[i + size - 1][1] - 1]
            key = (-score, abs(s - near) if near is not None else 0, size, s)
            if best is None or key < best[0]:
                best = (key, s, e, score)
    if best is None:
        return None
    _, s, e, score = best
    return Match(s, e, text[s:e], "fuzzy", round(float(score), 6))


# ---------------------------------------------------------------------------------------------
# Citation markers
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Citation:
    """A citation marker in an answer.

    Attributes:
        marker: the marker as written, e.g. ``"[1, 3]"``, ``"(Passage 2)"``, ``'[S2: "w"]'``.
        targets: what it points to, normalised but keeping labels: ``"[1-3]"`` ->
            ``("1", "2", "3")``, ``"[S2]"`` -> ``("S2",)``, ``"(Passage 2)"`` -> ``("2",)``,
            ``"(Source: Reuters)"`` -> ``("Reuters",)``, ``"[doc-id]"`` -> ``("doc-id",)``,
            ``"[^1]"`` -> ``("1",)``. Map one to a source with :func:`resolve_target`.
        quote: the quoted words of a ``[S2: "..."]`` marker, else ``None``.
        start: character offset of the marker in the answer (inclusive).
        end: character offset of the marker in the answer (exclusive).
    """

    marker: str
    targets: tuple[str, ...]
    quote: str | None
    start: int
    end: int

    def to_dict(self) -> dict:
        """Plain dict: ``{"marker", "targets": list[str], "quote", "start", "end"}``."""
        return {
            "marker": self.marker,
            "targets": list(self.targets),
            "quote": self.quote,
            "start": self.start,
            "end": self.end,
        }


#: The words an answer names a source with ("Source 2", "(Passage 3)", "see doc 4"); the one
#: list of them (the citation checks and the sentence cutter of replies read it too).
KEYWORDS = (
    "source",
    "passage",
    "document",
    "doc",
    "reference",
    "ref",
    "context",
    "chunk",
    "excerpt",
    "snippet",
    "citation",
)
#: Their short forms, read only before a number ("S2", "p-3", "src 4").
SHORT_KEYWORDS = ("src", "s", "p", "d")
_KEYWORDS = "(?:" + "|".join(KEYWORDS) + ")"
# "Source 2", "sources 1 and 3", "see Passage 2", "Source: Reuters", "Doc. 4", "Source #2"
_KW_RE = re.compile(rf"^\s*(?:see\s+(?:also\s+)?)?{_KEYWORDS}s?\.?(?![\w-])\s*(?P<colon>:)?\s*#?\s*", re.IGNORECASE)
_SPLIT_RE = re.compile(r"\s*(?:[,;&]|\band\b)\s*", re.IGNORECASE)
_NAME_SPLIT_RE = re.compile(r"\s*[,;]\s*")
_DASH = "-\u2010\u2011\u2012\u2013\u2014\u2212"
_NUM_RE = re.compile(r"^\d+$")
_RANGE_RE = re.compile(rf"^(\d+)\s*[{_DASH}]\s*(\d+)$")
_LABEL_RE = re.compile(r"^([A-Za-z]{1,3})(\d+)$")
_LABEL_RANGE_RE = re.compile(rf"^([A-Za-z]{{1,3}})(\d+)\s*[{_DASH}]\s*(?:\1)?(\d+)$")
_ID_RE = re.compile(r"^[A-Za-z0-9](?:[\w.\-]*[A-Za-z0-9])?$")
_FILE_RE = re.compile(r"^[\w\-]{2,}\.[A-Za-z0-9]{1,5}$")
_MAX_RANGE = 100

_LINK_RE = re.compile(
    r"!?\[(?P<label>(?:[^\[\]\n]|\[[^\[\]\n]*\])*)\]"
    r"\((?P<url>[^()\s]*(?:\([^()\s]*\)[^()\s]*)*)(?:\s+\"[^\"\n]*\")?\)"
)
_CODE_RE = re.compile(r"```.*?(?:```|\Z)|`[^`\n]+`", re.DOTALL)
_QUOTED_RE = re.compile(
    r"(?P<open>[\[(])\s*(?P<label>[^\[\]()\n:\"\u201c\u201d]{1,60}?)\s*:\s*"
    r"[\"\u201c\u201d\u00ab'\u2018\u2019](?P<quote>(?:[^\n]|\n(?![ \t]*\n)){1,2000}?)"  # a wrapped line, no blank one
    r"[\"\u201c\u201d\u00bb'\u2018\u2019]"
    r"\s*(?P<close>[\])])"
)
_FOOTNOTE_RE = re.compile(r"\[\^(?P<body>[^\[\]\s]{1,60})\]")
# a marker may be wrapped onto the next line ("[1,\n2]", "(Passage\n1)"), never across a blank one
_BRACKET_RE = re.compile(r"\[(?P<body>[^\[\]\n^](?:[^\[\]\n]|\n(?![ \t]*\n)){0,199})\]")
_PAREN_RE = re.compile(r"\((?P<body>(?:[^()\n]|\n(?![ \t]*\n)){1,200})\)")


def _num(s: str) -> str:
    return str(int(s))


def _parse_item(item: str) -> list[str] | None:
    """One comma-separated part of a marker body -> its targets, or None if not a target."""
    kw = _KW_RE.match(item)
    if kw and not kw.group("colon") and kw.end() < len(item):
        item = item[kw.end() :]
    if _NUM_RE.match(item):
        return [_num(item)]
    m = _RANGE_RE.match(item)
    if m:
        a, b = int(m.group(1)), int(m.group(2))
        if a <= b and b - a <= _MAX_RANGE:
            return [str(k) for k in range(a, b + 1)]
        return None
    if _LABEL_RE.match(item):
        return [item]
    m = _LABEL_RANGE_RE.match(item)
    if m:
        p, a, b = m.group(1), int(m.group(2)), int(m.group(3))
        if a <= b and b - a <= _MAX_RANGE:
            return [f"{p}{k}" for k in range(a, b + 1)]
        return None
    if _ID_RE.match(item) and (any(c.isdigit() or c in "-_" for c in item) or _FILE_RE.match(item)):
        return [item]
    return None


def _parse_body(body: str, *, need_keyword: bool) -> tuple[str, ...] | None:
    """The targets of a marker body (the text inside the brackets), or None if not a marker."""
    kw = _KW_RE.match(body)
    if need_keyword and not kw:
        return None
    if kw and kw.group("colon"):  # "Source: Reuters, AP" -> names as written
        names = [n.strip().strip("\"'\u201c\u201d\u2018\u2019").strip() for n in _NAME_SPLIT_RE.split(body[kw.end() :])]
        names = [n for n in names if n]
        return tuple(names) if names else None
    if kw:
        if kw.end() >= len(body.rstrip()):
            return None  # the keyword alone: "(source)"
        body = body[kw.end() :]
    out: list[str] = []
    for part in _SPLIT_RE.split(body.strip()):
        if not part:
            return None
        t = _parse_item(part)
        if t is None:
            return None
        out.extend(t)
    return tuple(out) if out else None


_FOOTNOTE_DEFINITION_RE = re.compile(r"^[ \t]*\[\^(?P<label>[^\[\]\s]{1,60})\]:[ \t]*(?P<text>\S[^\n]{0,199})$", re.M)


def _footnote_definitions(text: str) -> dict[str, tuple[str, ...]]:
    """The targets of the Markdown footnotes ``text`` defines by naming a source: a definition
    line ``[^1]: Source 3`` (or ``[^a]: [2]``, ``[^n]: q3-report.pdf``, ``[^r]: Source: Reuters``) makes
    every ``[^1]`` cite what it names. A definition that names no source as a marker would
    (``[^1]: the Q3 report, page 4``) leaves the footnote's own label as its target."""
    out: dict[str, tuple[str, ...]] = {}
    for m in _FOOTNOTE_DEFINITION_RE.finditer(text):
        body = m.group("text").strip().rstrip(".")
        inner = re.fullmatch(r"[\[(](.+)[\])]", body)
        targets = _parse_body(inner.group(1) if inner else body, need_keyword=False)
        if targets:
            out.setdefault(m.group("label"), targets)
    return out


def find_citations(text: str) -> list[Citation]:
    """Every citation marker in ``text``, in order of position.

    Recognised forms (keywords are case-insensitive: source, passage, document, doc, reference,
    ref, context, chunk, excerpt, snippet, citation, optionally plural or after "see"):

    ========================  ==========================
    marker                    targets
    ========================  ==========================
    ``[1]``, ``[1, 3]``       ``("1",)``, ``("1", "3")``
    ``[1-3]``, ``[1–3]``      ``("1", "2", "3")`` (ranges up to 100 wide)
    ``[S2]``, ``[S1-S3]``     ``("S2",)``, ``("S1", "S2", "S3")``
    ``[S2: "words"]``         ``("S2",)`` with ``quote="words"``
    ``(Passage 2)``           ``("2",)``; also ``(Source 3)``, ``(Sources 1 and 2)``, ``[Source 2]``
    ``(Source: Reuters)``     ``("Reuters",)``; names split on ``,`` and ``;``
    ``[^1]``                  ``("1",)`` (footnote); what its definition line names, if it
                              names a source (``[^1]: Source 3`` -> ``("3",)``)
    ``[doc-id]``, ``[a.txt]`` ``("doc-id",)``: one token with a digit, ``-`` or ``_``, or a file name
    ``[[1]](url)``            ``("1",)``: a link whose text is itself a marker
    ========================  ==========================

    Not markers: plain bracketed words (``[sic]``, ``[citation needed]``, ``[x]``), markdown
    links ``[text](url)`` and images, anything inside inline code or fenced code blocks,
    parentheses without a keyword (``(2021)``, ``(8%)``, ``(1)`` list markers), list markers.

    Args:
        text: the answer.

    A marker wrapped onto the next line (``[1,\n2]``, ``(Passage\n1)``: hard-wrapped text) is
    one marker; a blank line ends any marker.

    Returns:
        Non-overlapping :class:`Citation` objects sorted by ``start``.

    Raises:
        TypeError: ``text`` is not a str.
    """
    _check_str("text", text, "find_citations")
    masks: list[tuple[int, int]] = [m.span() for m in _CODE_RE.finditer(text)]
    cands: list[Citation] = []
    for m in _LINK_RE.finditer(text):
        label = m.group("label")
        inner = re.fullmatch(r"\[([^\[\]\n]+)\]", label) if not m.group(0).startswith("!") else None
        targets = _parse_body(inner.group(1), need_keyword=False) if inner else None
        if targets and not inner.group(1).startswith("^"):
            cands.append(Citation(m.group(0), targets, None, m.start(), m.end()))
        else:
            masks.append(m.span())
    for m in _QUOTED_RE.finditer(text):
        if (m.group("open") == "[") != (m.group("close") == "]"):
            continue
        targets = _parse_body(m.group("label"), need_keyword=m.group("open") == "(")
        if targets:
            quote = m.group("quote").strip()
            cands.append(Citation(m.group(0), targets, quote, m.start(), m.end()))
    defined = _footnote_definitions(text)
    for m in _FOOTNOTE_RE.finditer(text):
        body = m.group("body")
        targets = defined.get(body) or (_num(body) if body.isdigit() else body,)
        cands.append(Citation(m.group(0), targets, None, m.start(), m.end()))
    for rx, need_kw in ((_BRACKET_RE, False), (_PAREN_RE, True)):
        for m in rx.finditer(text):
            targets = _parse_body(m.group("body"), need_keyword=need_kw)
            if targets:
                cands.append(Citation(m.group(0), targets, None, m.start(), m.end()))

    merged: list[list[int]] = []
    for a, b in sorted(masks):
        if merged and a <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], b)
        else:
            merged.append([a, b])
    mask_starts = [a for a, _ in merged]

    def masked(s: int, e: int) -> bool:
        k = bisect_left(mask_starts, e) - 1  # the last mask starting before e
        return k >= 0 and merged[k][1] > s

    out: list[Citation] = []
    last_end = -1
    for c in sorted(cands, key=lambda c: (c.start, -c.end)):
        if c.start < last_end or masked(c.start, c.end):
            continue
        out.append(c)
        last_end = c.end
    return out


def citation_spans(text: str) -> list[tuple[int, int]]:
    """Character spans to mask citation markers while keeping the answer's offsets.

    Each span is a marker's ``(start, end)`` widened by one preceding space or tab, if any.

    Args:
        text: the answer.

    Returns:
        ``[(start, end), ...]`` sorted, non-overlapping offsets into ``text``.
    """
    _check_str("text", text, "citation_spans")
    spans = []
    for c in find_citations(text):
        s = c.start - 1 if c.start > 0 and text[c.start - 1] in " \t" else c.start
        spans.append((s, c.end))
    return spans


_SPACE_BEFORE_PUNCT = re.compile(r"[ \t]+(?=[.,;:!?)\]])")


def strip_citations(text: str) -> tuple[str, list[Citation]]:
    """Remove citation markers and tidy the spacing they leave behind.

    ``"opened in 1932 [1]."`` -> ``"opened in 1932."``; ``"A [1] [2] B"`` -> ``"A B"``;
    ``"in 1932 ([1])."`` -> ``"in 1932."``; a marker at the start of a line takes the spaces
    after it. Offsets change: to keep the answer's offsets, mask with :func:`citation_spans`.

    Args:
        text: the answer.

    Returns:
        ``(stripped_text, citations)``; the citations carry offsets into the *input* ``text``.
    """
    _check_str("text", text, "strip_citations")
    cites = find_citations(text)
    pieces: list[str] = []
    pos = 0
    for c in cites:
        s, e = c.start, c.end
        if s > 0 and e < len(text) and text[s - 1] == "(" and text[e] == ")":
            s, e = s - 1, e + 1  # a marker alone in parentheses
        if s < pos:
            s = pos
        stripped = text[pos:s].rstrip(" \t")
        before = stripped or next((p for p in reversed(pieces) if p), "")
        if not before or before.endswith("\n"):  # at a line start: take the spaces after it
            while e < len(text) and text[e] in " \t":
                e += 1
        pieces.append(stripped)
        pos = e
    pieces.append(text[pos:])
    out = "".join(pieces)
    out = _SPACE_BEFORE_PUNCT.sub("", out) if cites else out
    return out, cites


# ---------------------------------------------------------------------------------------------
# Resolving targets
# ---------------------------------------------------------------------------------------------

_PREFIX = "(?:" + "|".join(KEYWORDS + SHORT_KEYWORDS) + r")s?[\s\-_#.:]*"
_PREFIXED_RE = re.compile(rf"^{_PREFIX}(\d+)$", re.IGNORECASE)
#: A target of a numbered shape, with or without its keyword: "Source 7", "doc-7", "S7", "7".
NUMBERED_RE = re.compile(rf"^(?:{_PREFIX})?(\d+)$", re.IGNORECASE)


def positional_ids(source_ids: list[str]) -> list[bool]:
    """Per id, whether it is only its place in the list: ``"0"`` first, ``"1"`` second... (the
    ids that sources given as plain strings get; they name no number an answer writes)."""
    return [sid == str(i) for i, sid in enumerate(source_ids)]


def resolve_target(target: str, source_ids: list[str], *, base: int = 1) -> int | None:
    """The index in ``source_ids`` of the source a citation target points to.

    Rules, in order:

    1. a number ``N`` is the ``N``-th source of the list (``base``-based: ``"1"`` -> 0 with
       ``base=1``), since an answer's ``[1]`` means the first source -- also when plain-string
       sources (ids ``"0"``, ``"1"``, ...: their list index) and ``{"id", "text"}`` sources are
       mixed. Two exceptions: when some source was given a number as its id other than its
       list index (ids ``"10"``, ``"20"``), numbers are ids only; and a number that is no place
       in the list (``"0"`` with ``base=1``) names the source with that id, if any (``[0]`` is
       the source with id ``"0"``);
    2. an id equal to ``target`` (then equal after casefolding, if that is unique);
    3. a label with a number -- ``"S2"``, ``"P2"``, ``"Passage 2"``, ``"Source 2"``, ``"doc-2"``,
       ``"doc_2"`` -- is ``base``-based: ``"S2"`` -> 1. Not applied when some id has the same
       shape as the target (ids like ``"doc-0"``, ``"doc-1"``: the label is then an id, and a
       missing id resolves to ``None``, not to a position).

    Args:
        target: one entry of :attr:`Citation.targets`.
        source_ids: the source ids in order.
        base: the number of the first source in the answer's numbering (1 or 0).

    Returns:
        An index into ``source_ids``, or ``None`` when the target points nowhere.
    """
    t = target.strip()
    if not t or not source_ids:
        return None
    if t.isdigit():
        positional = positional_ids(source_ids)
        numeric_ids = any(sid.strip().isdigit() and not pos for sid, pos in zip(source_ids, positional))
        if not numeric_ids:
            k = int(t) - base
            if 0 <= k < len(source_ids):
                return k
    if t in source_ids:
        return source_ids.index(t)
    folded = [i for i, sid in enumerate(source_ids) if sid.casefold() == t.casefold()]
    if len(folded) == 1:
        return folded[0]
    if t.isdigit():
        return None
    m = _PREFIXED_RE.match(t)
    if not m:
        return None
    shape = re.sub(r"\d+$", "", t).casefold()
    if any(re.sub(r"\d+$", "", sid).casefold() == shape and sid[-1:].isdigit() for sid in source_ids):
        return None
    k = int(m.group(1)) - base
    return k if 0 <= k < len(source_ids) else None
