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

from .. import extensions
from ..citations import find_citations
from ..lexicons import LexiconComponent

_WORD = re.compile(r"[^\W_]", re.UNICODE)


@Language.factory(
    "sourced_claims",
    assigns=["doc.spans", "span._.claim_kind", "span._.citations"],
    requires=["token.is_sent_start"],
    default_config={"lexicon": "segments"},
)
def make_claims(nlp: Language, name: str, lexicon: str):
    """Create the claim segmenter (see the module docstring). The spans go to the fixed keys
    ``extensions.CLAIMS_KEY`` and ``extensions.SKIPPED_KEY``, which every later component reads."""
    return ClaimSegmenter(name=name, lexicon=lexicon)


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

    def __call__(self, doc: Doc) -> Doc:
        self._require_lexicon()
        citations = [c.to_dict() for c in find_citations(doc.text)]
        masked = _mask(doc.text, citations)
        claims: list[Span] = []
        skipped: list[Span] = []
        for start, end, kind in self.segments(doc, masked):
            span = doc.char_span(start, end, label=kind, alignment_mode="expand")
            if span is None or not span.text.strip():
                continue
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
        sent_starts = sorted(
            t.idx for t in doc if t.is_sent_start and t.i > 0 and self._keep_boundary(doc, t)
        )
        out: list[tuple[int, int, str]] = []
        pos = 0
        masked = _LONE_CR.sub("\n", masked)  # a bare carriage return breaks a line too (same length)
        for line in masked.split("\n"):  # a line break inside a citation marker ends no line
            line_start, line_end = pos, pos + len(line)
            pos = line_end + 1
            if not line.strip():
                continue
            marker = self.list_marker.match(line)
            content_start = line_start + (marker.end() if marker else 0)
            is_heading_mark = bool(marker and marker.group(0).strip().startswith("#"))
            cuts = []
            for s in sent_starts[bisect.bisect_right(sent_starts, content_start) : bisect.bisect_left(sent_starts, line_end)]:
                # a marker right after a sentence's period belongs to that sentence: "2023. [1] Profit"
                while s < line_end and (text[s] != masked[s] or (s > 0 and text[s - 1] != masked[s - 1] and text[s].isspace())):
                    s += 1
                if content_start < s < line_end and (not cuts or s > cuts[-1]):
                    cuts.append(s)
            bounds = [content_start, *cuts, line_end]
            pieces: list[list[int]] = []
            for a, b in zip(bounds, bounds[1:]):
                if pieces and not _WORD.search(masked[a:b]):
                    pieces[-1][1] = b  # a fragment with no word joins the segment before
                elif pieces and not _WORD.search(masked[pieces[-1][0]:pieces[-1][1]]):
                    pieces[-1][1] = b
                elif pieces and _is_label(masked[pieces[-1][0]:pieces[-1][1]]):
                    pieces[-1][1] = b  # "city: | Tucson." — a label and its value are one statement
                else:
                    pieces.append([a, b])
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
        if len(prev.text) <= 3 and prev.text.endswith(".") and prev.text[:-1].isalpha() and prev.text[0].isupper() and len(prev.text) == 2:
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
    while a < b and text[a].isspace():
        a += 1
    while b > a and text[b - 1].isspace():
        b -= 1
    return a, b
