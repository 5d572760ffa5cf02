"""``sourced_claims``: split a doc into claims and skipped (non-claim) segments.

spaCy's sentences, plus the rules spaCy lacks for LLM answers:

* a line break ends a segment (not one inside a citation marker: ``[S1: "words\\nwrapped"]``
  is masked first); markdown bullets, numbered list markers (``1.``,
  ``1)``) and heading marks (``#``) are left out of the segment they start;
* a sentence boundary right after an abbreviation (``Dr.``, ``U.S.``, ``e.g.``, ``approx.``;
  the list is ``abbreviations`` in ``models/segments.json``), before a lower-case word or a
  digit (``£2.4m``), or one that leaves a fragment with no word of its own (``"``, ``2.``, ``*``,
  ``[1]``), is undone;
* preambles ("Here's the summary within 66 words:", also when the answer goes on after the colon
  on the same line), greetings, questions, headings and empty
  segments are kept as skipped segments with their kind (patterns in ``models/segments.json``);
  so are the lines of a fenced code block (kind ``code``) and a Markdown table's header row
  (``table-header``, the row above ``|---|---|``), and a Markdown footnote's definition line
  (``footnote``: ``[^1]: Q3 report``; the reference ``[^1]`` is a citation marker and ends nothing);
* a line break that only wraps a sentence (hard-wrapped text, see :meth:`ClaimSegmenter.soft_breaks`)
  ends no segment;
* a figure glued to the next sentence or clause by its full stop or comma, with no space
  ("spent £2,980,815,The Lib Dems spent", "1,027,339.The figures": text run together when a page
  was scraped) is split from it: the component teaches the pipeline's tokenizer the infix
  :data:`GLUED_FIGURE` when it is added, so the figure is read as a value (and
  :data:`GLUED_MARKER`: a citation marker glued to the word before it, "2023[1]", splits off);
* citation markers (``[1]``, ``[S2]``, ``(Passage 2)``, ...) stay inside the claim's span, so
  offsets stay those of the answer, and are listed in ``Span._.citations``; later components
  leave their characters out of what is checked.

Assigns ``doc.spans["sourced_claims"]`` (label ``"claim"``) and ``doc.spans["sourced_skipped"]``
(label = the kind), with ``Span._.claim_kind`` and ``Span._.citations`` on each span.
"""

from __future__ import annotations

import bisect
import re

from spacy.language import Language
from spacy.tokens import Doc, Span

from ..errors import PipelineOrderError
from ..text.citations import find_citations
from ..text.lexicons import LexiconComponent
from . import extensions

_WORD = re.compile(r"[^\W_]", re.UNICODE)
_FOOTNOTE_DEF = re.compile(r"[ \t]*\[\^[^\[\]\s]{1,60}\]:")  # a Markdown footnote's definition line


@Language.factory(
    "sourced_claims",
    assigns=["doc.spans", "span._.claim_kind", "span._.citations"],
    requires=["token.is_sent_start"],
    default_config={"lexicon": "segments"},
)
def make_claims(nlp: Language, name: str, lexicon: str):
    """Create the claim segmenter (see the module docstring). The spans go to the fixed keys
    ``extensions.CLAIMS_KEY`` and ``extensions.SKIPPED_KEY``, which every later component reads."""
    split_glued_figures(nlp)
    seg = ClaimSegmenter(name=name, lexicon=lexicon)
    seg.pipeline = nlp
    return seg


#: the full stop or comma between a figure and the capitalised word it is glued to
GLUED_FIGURE = r"(?<=[0-9])[.,](?=[A-Z][a-z])"

#: the opening bracket of a citation marker glued to the word or figure before it ("2023[1]",
#: "Oslo[2]", "8%[^3]", "2023.[1]"): a number of one to three digits, after at most three letters,
#: then the closing bracket (or the token's end: the tokenizer splits a closing bracket off first);
#: and a full stop between a word and such a marker
GLUED_MARKER = r"(?<=[\w%.)])\[(?=\^?[A-Za-z]{0,3}\d{1,3}(?:\]|$))|(?<=\w)\.(?=\[\^?[A-Za-z]{0,3}\d{1,3}(?:\]|$))"


def split_glued_figures(nlp: Language) -> None:
    """Add :data:`GLUED_FIGURE` and :data:`GLUED_MARKER` to the infixes of ``nlp``'s tokenizer,
    once each: "£2,980,815,The" becomes "£2,980,815", ",", "The" (a decimal point or a thousands
    separator has a digit on both sides and stays), and "2023[1]" becomes "2023", "[", "1", "]",
    so the year is read as a date and the marker as a marker (a name as well: "Oslo[1]" is
    "Oslo"). On FaithBench's natural summaries (``bench/rule_precision.py``) a figure of a source
    read this way as no value made two of the six ``contradicted.value`` verdicts and two of the
    seven ``unverified.unbound`` take-backs, all wrong."""
    tok = nlp.tokenizer
    finder = getattr(tok, "infix_finditer", None)
    pattern = getattr(getattr(finder, "__self__", None), "pattern", None)
    if pattern is None:
        return  # no regex infixes to extend (a custom tokenizer)
    added = [p for p in (GLUED_FIGURE, GLUED_MARKER) if p not in pattern]
    if added:
        tok.infix_finditer = re.compile("|".join([pattern, *added])).finditer


def _pieces(bounds: list[int], masked: str) -> list[list[int]]:
    """The segments of one line between its sentence cuts (``bounds``: the content start, the
    cuts, the line end), as ``[start, end]``: a fragment with no word, or one after a piece
    with no word or after a label, joins the piece before it."""
    pieces: list[list[int]] = []
    for a, b in zip(bounds, bounds[1:]):
        if pieces and not _WORD.search(masked[a:b]):
            pieces[-1][1] = b  # a fragment with no word joins the segment before
        elif pieces and not _WORD.search(masked[pieces[-1][0] : pieces[-1][1]]):
            pieces[-1][1] = b
        elif pieces and _is_label(masked[pieces[-1][0] : pieces[-1][1]]):
            pieces[-1][1] = b  # "city: | Tucson." — a label and its value are one statement
        else:
            pieces.append([a, b])
    return pieces


class ClaimSegmenter(LexiconComponent):
    """Segments a doc into claims and skipped segments.

    Args:
        name: the component name.
        lexicon: bundled name or path of the segment lexicon (abbreviations, preamble and
            greeting patterns, the list marker pattern).
    """

    def __init__(self, name: str, lexicon: str) -> None:
        self.name = name
        self._init_lexicon(lexicon)

    def _use_lexicon(self, lex: dict) -> None:
        self.abbreviations = {a.lower() for a in lex["abbreviations"]}
        self.preamble = [re.compile(p, re.I) for p in lex["preamble_patterns"]]
        self.greeting = [re.compile(p, re.I) for p in lex["greeting_patterns"]]
        self.list_marker = re.compile(lex["list_marker"])
        self.heading_max_words = int(lex["heading_max_words"])
        self.wrap_continuers = frozenset(lex.get("wrap_continuers", ()))

    #: The pipeline this segmenter belongs to (set by the factory), to check its order.
    pipeline = None
    _order_checked: tuple = ()

    def check_order(self) -> None:
        """Refuse a pipeline where ``sourced_verify`` comes before this component: it would
        find no claims and leave every verdict ``None``.

        Raises:
            PipelineOrderError: naming both components and how to add the verifier instead.
        """
        nlp = self.pipeline
        if nlp is None or tuple(nlp.pipe_names) == self._order_checked:
            return
        names = list(nlp.pipe_names)
        if self.name in names:
            mine = names.index(self.name)
            for other in names[:mine]:
                if nlp.get_pipe_meta(other).factory == "sourced_verify":
                    raise PipelineOrderError(
                        f"{other!r} runs before {self.name!r} (pipeline {names}): the verifier needs the "
                        f"claims, so it must come after them; add it with nlp.add_pipe('sourced_verify') "
                        f"(last), not first=True or before=..."
                    )
        self._order_checked = tuple(names)

    def __call__(self, doc: Doc) -> Doc:
        self._require_lexicon()
        self.check_order()
        citations = [c.to_dict() for c in find_citations(doc.text)]
        masked = _mask(doc.text, citations)
        claims: list[Span] = []
        skipped: list[Span] = []
        last = 0  # where the segment before ends: segments never overlap
        for start, end, kind in self.segments(doc, masked):
            span = doc.char_span(start, end, label=kind, alignment_mode="expand")
            if span is not None and span.start_char < last:
                # a token shared with the segment before ('8%"]The' after a citation marker):
                # this segment starts at the first whole token after it
                span = doc.char_span(max(start, last), end, label=kind, alignment_mode="contract")
            if span is None or not span.text.strip():
                continue
            last = span.end_char
            span._.claim_kind = kind
            span._.citations = [c for c in citations if start <= c["start"] and c["end"] <= end]
            (claims if kind == "claim" else skipped).append(span)
        doc.spans[extensions.CLAIMS_KEY] = claims
        doc.spans[extensions.SKIPPED_KEY] = skipped
        return doc

    # -- segmentation -------------------------------------------------------------------
    def segments(self, doc: Doc, masked: str) -> list[tuple[int, int, str]]:
        """Return ``(start, end, kind)`` for every segment, in order, as char offsets."""
        text = doc.text
        sent_starts = sorted(t.idx for t in doc if t.is_sent_start and t.i > 0 and self._keep_boundary(doc, t))
        out: list[tuple[int, int, str]] = []
        pos = 0
        masked = _LONE_CR.sub("\n", masked)  # a bare carriage return breaks a line too (same length)
        soft = self.soft_breaks(masked)
        if soft:  # a hard-wrapped sentence is one line; spaCy's cut at the wrap is undone
            chars = list(masked)
            for k in soft:
                chars[k] = " "
            masked = "".join(chars)
            sent_starts = [s for s in sent_starts if not _after_soft_break(text, s, soft)]
        lines = masked.split("\n")  # a line break inside a citation marker ends no line
        fenced = _fenced_lines(lines)
        for n_line, line in enumerate(lines):
            line_start, line_end = pos, pos + len(line)
            pos = line_end + 1
            if not line.strip():
                continue
            if n_line in fenced:  # a code block: code, not claims (its fences too)
                a, b = _strip(text, line_start, line_end)
                out.append((a, b, "code"))
                continue
            if _FOOTNOTE_DEF.match(text, line_start, line_end):  # "[^1]: Q3 report": where a reference points
                a, b = _strip(text, line_start, line_end)
                out.append((a, b, "footnote"))
                continue
            if _TABLE_ROW.match(line) and n_line + 1 < len(lines) and _TABLE_RULE.match(lines[n_line + 1]):
                a, b = _strip(text, line_start, line_end)  # "| Year | Revenue |" above "|---|---|"
                out.append((a, b, "table-header"))
                continue
            marker = self.list_marker.match(line)
            content_start = line_start + (marker.end() if marker else 0)
            is_heading_mark = bool(marker and marker.group(0).strip().startswith("#"))
            cuts = []
            for s in sent_starts[
                bisect.bisect_right(sent_starts, content_start) : bisect.bisect_left(sent_starts, line_end)
            ]:
                # a marker right after a sentence's period belongs to that sentence: "2023. [1] Profit"
                at = s
                while s < line_end and (
                    text[s] != masked[s] or (s > 0 and text[s - 1] != masked[s - 1] and text[s].isspace())
                ):
                    s += 1
                if s != at and s < line_end and text[s].islower():
                    continue  # the parser's cut at a marker inside a sentence: "rose 6% [1] to $910 million"
                if content_start < s < line_end and (not cuts or s > cuts[-1]):
                    cuts.append(s)
            pieces = _pieces([content_start, *cuts, line_end], masked)
            n_in_line = len(pieces)
            for a, b in pieces:
                a, b = _strip(text, a, b)
                if a >= b:
                    continue
                cut = self._preamble_cut(masked, a, b) if not is_heading_mark else None
                if cut is not None:  # "Here is an overview of X: X is a Thai restaurant ..."
                    out.append((a, cut, "preamble"))
                    a, b = _strip(text, cut, b)
                kind = self.classify(masked[a:b], is_heading_mark, n_in_line)
                out.append((a, b, kind))
        return out

    def soft_breaks(self, masked: str) -> list[int]:
        """Offsets of the line breaks that only wrap a sentence (hard-wrapped text: plain-text
        mail, reports, scraped pages broken at 60-80 columns), which end no segment.

        A break is soft when the line before it has a word and does not end a statement (no
        final ``.``, ``!``, ``?``, ``:`` or ``;``, also before a closing quote or bracket), the
        next line is not blank and starts no list item, heading, table row, quote or code fence,
        and either the next line goes on in lower case or with a digit, or the line before ends
        with a comma or a word that ends no sentence (``wrap_continuers`` in
        ``models/segments.json``: "in", "the", "and", ...), or it is long (at least
        :data:`WRAP_MIN_CHARS` characters, as wrapped lines are) and not a title (most of its
        words capitalised).
        """
        lines = masked.split("\n")
        fenced = _fenced_lines(lines)
        out: list[int] = []
        pos = 0
        for k, (cur, nxt) in enumerate(zip(lines, lines[1:])):
            pos += len(cur) + 1
            if k in fenced or k + 1 in fenced:
                continue
            c, n = cur.strip(), nxt.strip()
            if not c or not n or not _WORD.search(c):
                continue
            if _STATEMENT_END.search(c) or c.endswith(("**", "|", "```")) or _BLOCK_START.match(n):
                continue
            if self.list_marker.match(nxt) or (self.list_marker.match(cur) and cur.lstrip().startswith("#")):
                continue
            first = n[0]
            last_word = c.rsplit(None, 1)[-1].lower()
            if first.islower() or first.isdigit() or first in "($€£%&":
                out.append(pos - 1)
            elif c.endswith(",") or last_word in self.wrap_continuers:  # "1,200 people in\nLisbon"
                out.append(pos - 1)
            elif len(c) >= WRAP_MIN_CHARS and not _is_title(c):
                out.append(pos - 1)
        return out

    def _preamble_cut(self, masked: str, a: int, b: int) -> int | None:
        """End offset (after the colon) of a preamble that runs into the answer on the same line
        ("Sure! Here is an objective overview of Bangkok Garden based on the data: Bangkok Garden
        is a Thai restaurant ..."): the part up to the first colon is a preamble and the rest holds
        at least four words; None otherwise."""
        k = masked.find(": ", a, b)
        if k < 0:
            return None
        head, rest = masked[a : k + 1].strip(), masked[k + 1 : b]
        if len(rest.split()) < 4 or not any(p.search(head) for p in self.preamble):
            return None
        return k + 1

    def _keep_boundary(self, doc: Doc, token) -> bool:
        prev = doc[token.i - 1]
        if prev.is_space and token.i > 1:
            if "\n" in prev.text:
                return True
            prev = doc[token.i - 2]
        if prev.lower_ in self.abbreviations:
            return False
        if (
            len(prev.text) <= 3
            and prev.text.endswith(".")
            and prev.text[:-1].isalpha()
            and prev.text[0].isupper()
            and len(prev.text) == 2
        ):
            return False  # an initial: "J. Smith"
        first = token.text[:1]
        if first.islower() or first.isdigit():
            return False
        return True

    def classify(self, segment: str, heading_mark: bool, n_in_line: int) -> str:
        """Kind of a segment: ``claim``, ``preamble``, ``greeting``, ``question``, ``heading``
        or ``empty`` (no word once citation markers are masked)."""
        s = segment.strip().strip("*_ ").strip()
        if not _WORD.search(s):
            return "empty"
        if heading_mark:
            return "heading"
        if s.endswith("?"):
            return "question"
        if any(p.search(s) for p in self.greeting):
            return "greeting"
        if any(p.search(s) for p in self.preamble):
            return "preamble"
        words = s.split()
        if n_in_line == 1 and s.endswith(":") and len(words) <= self.heading_max_words:
            return "heading"
        if n_in_line == 1 and segment.strip().startswith("**") and segment.strip().endswith("**"):
            return "heading"
        if n_in_line == 1 and len(words) <= 4 and not re.search(r"[.!]$", s) and not any(ch.isdigit() for ch in s):
            if all(w[:1].isupper() for w in words if w.isalpha()):
                return "heading"
        return "claim"


_LONE_CR = re.compile(r"\r(?!\n)")
#: A line at least this long that ends with no full stop is taken as wrapped: hard-wrapped text
#: breaks its lines at 60-80 columns, and a heading or a record's line is shorter.
WRAP_MIN_CHARS = 45
_STATEMENT_END = re.compile(r"[.!?:;][\"'\u201d\u2019)\]*_]*$")
_BLOCK_START = re.compile(r"^(?:[|>#]|```|~~~|<)")


_FENCE = re.compile(r"^\s{0,3}(```|~~~)")
_TABLE_ROW = re.compile(r"^\s*\|.*\|\s*$")
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$")


def _fenced_lines(lines: list[str]) -> set[int]:
    """Indices of the lines of fenced code blocks (```` ``` ```` or ``~~~``), fences included;
    an unclosed fence runs to the end."""
    out: set[int] = set()
    fence = None
    for i, line in enumerate(lines):
        m = _FENCE.match(line)
        if fence is None:
            if m:
                fence = m.group(1)
                out.add(i)
        else:
            out.add(i)
            if m and m.group(1) == fence:
                fence = None
    return out


def _is_title(line: str) -> bool:
    """Most words capitalised: a title or heading line ("Contoso Reports Record Results")."""
    words = [w for w in re.findall(r"[^\W\d_][\w'-]*", line)]
    if not words:
        return False
    caps = sum(1 for w in words if w[:1].isupper())
    return caps >= 0.6 * len(words)


def _after_soft_break(text: str, start: int, soft: list[int]) -> bool:
    """Whether the sentence start at ``start`` follows a soft line break with nothing but
    spaces between them, and the text before the break ends no sentence."""
    k = start - 1
    while k >= 0 and text[k].isspace() and text[k] != "\n":
        k -= 1
    if k < 0 or k not in soft:
        return False
    j = k - 1
    while j >= 0 and text[j].isspace():
        j -= 1
    return j >= 0 and text[j] not in ".!?"


def _is_label(piece: str) -> bool:
    """A short piece ending in a colon: the label of what follows on the same line; up to four
    words, or eight in lower case (a record's key: "attributes business accepts credit cards:
    False.")."""
    piece = piece.strip()
    words = len(piece.split())
    return piece.endswith(":") and (words <= 4 or words <= 8 and piece[:1].islower())


def _mask(text: str, citations: list[dict]) -> str:
    """The text with every citation marker blanked out (same length, same offsets)."""
    chars = list(text)
    for c in citations:
        for i in range(c["start"], c["end"]):
            chars[i] = " "
    return "".join(chars)


def _strip(text: str, a: int, b: int) -> tuple[int, int]:
    """``(a, b)`` without the whitespace at either end (a byte-order mark, U+FEFF, counts as
    whitespace: a text read without ``utf-8-sig`` starts with one)."""
    while a < b and (text[a].isspace() or text[a] == "\ufeff"):
        a += 1
    while b > a and (text[b - 1].isspace() or text[b - 1] == "\ufeff"):
        b -= 1
    return a, b
