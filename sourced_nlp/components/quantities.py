"""``sourced_quantities``: find every quantity in a doc and parse it.

Writes ``doc.spans["sourced_quantities"]`` (``extensions.QUANTITIES_KEY``, the key the later
components read): sorted, non-overlapping spans,
each with ``span._.quantity`` = :meth:`sourced_nlp.text.quantity.Quantity.to_dict` plus ``"head"``
(the lemma of the verb the value is said of: "rest" in "let it rest for 10 minutes", or None) and ``"noun"``,
the lowercase lemma of the noun a plain number or ordinal counts (``5 offices`` -> ``"office"``),
or ``None``.

Also writes ``doc.spans["sourced_unread"]`` (``extensions.UNREAD_KEY``): the tokens that look
like a figure but were read as no value (:func:`~.quantity_tokens.unread_figure`: "12‰x", a
figure in a form the reader does not know); a claim holding one is never grounded.

How candidates are found:

1. *Seeds* are tokens that can carry a value: ``token.like_num``, tokens with a digit (``56bn``,
   ``17:0``, ``3/3/2021``), month names inside a DATE entity, ordinal words tagged ORDINAL.
2. Tokens that are not values are blocked first: citation markers (``[1]``, ``[1, 3]``, ``[S2]``,
   ``(Passage 2)``, ``(Source 3)``, and every marker ``sourced_claims`` found, such as
   ``[2023-report]``; a marker's quote is not blocked), list numbers at the start of a line (``1.``, ``2)``) and
   numbers after a label word (``version 3``, ``Table 2``; list ``label_words`` in
   ``models/units.json``) or a capitalised noun (``Store 7``, ``Flight 212``: an identifier,
   :func:`~.quantity_tokens.identifier_number`). Labels such as ``Q3``/``GPT-4``/``COVID-19`` are refused by
   :func:`~sourced_nlp.text.quantity.parse_quantity` itself.
3. Around each seed, token windows (a few tokens left for approximators, currency symbols and
   range openers; a few right for scale words, units and the other end of a range) are parsed;
   the longest window that parses wins, then words that do not change the value (``in``,
   trailing punctuation) are trimmed. This both merges ranges NER splits (``$5-7 million``,
   ``5 PM to 9 PM``, ``17:0-21:0``) and trims NER entities that hold extra words (``the fiscal
   quarter ending in March``).
   Before the windows, forms that are one value whatever the windows would make of them: a
   share of a whole before "of" (``three quarters of``, ``>1/3 of``: a percent,
   :func:`~.quantity_tokens.share_at`), ``every 12 hours`` (twice a day, noun ``"day-time"``),
   a match's score (``beat Sevilla 2-1``: kind ``"score"``), a verb that multiplies (``doubled``:
   +100%, ``multiplier: true``, compared only with a change stated by two levels), a figure in words restated in
   digits (``sixty (60) days``; ``sixty (90) days`` is read as 90 days, with the words' reading as ``disputed``); after it, the period a percent change is measured over
   (``+12% YoY``: noun ``"year-change"``).
4. A year-less month/ordinal that is only part of a longer DATE entity (``the second quarter``,
   ``the fiscal quarter ending in March``) is dropped: it names a period, not a value.
"""

from __future__ import annotations

import re

from spacy.language import Language
from spacy.tokens import Doc, Span

from ..text.citations import KEYWORDS
from ..text.quantity import Quantity, load_lexicon, parse_quantity, temperature_difference
from . import extensions  # noqa: F401  (registers Span._.quantity)
from .extensions import CLAIMS_KEY, QUANTITIES_KEY, SKIPPED_KEY, UNREAD_KEY
from .quantity_tokens import (
    _frequency_noun,
    _head_verb_of,
    _house_number,
    _is_period_name,
    _is_pronoun_one,
    _joinable,
    _measured,
    _same_value,
    _soft_breaks,
    change_role,
    compared_period,
    every_hours,
    identifier_number,
    is_change,
    match_score,
    multiplier_at,
    range_end_counts_a_noun,
    restated_value,
    share_at,
    unread_figure,
)

_MAX_LEFT = 4
_MAX_RIGHT = 7
_NUM_LABELS = {"MONEY", "PERCENT", "QUANTITY", "CARDINAL", "DATE", "TIME", "ORDINAL"}
_CITE_INNER = re.compile(r"^(?:\d+|[a-z]{1,3}\d+|,|;|-|\u2013|and)$", re.I)
_CITE_WORDS = frozenset(KEYWORDS)  # "(Passage 2)", "[Source 3]": a citation marker, not a value
_LIST_PUNCT = {".", ")"}
_HAS_DIGIT = re.compile(r"\d")
_TRIMMABLE_POS = {"ADP", "DET", "PUNCT", "CCONJ", "SPACE", "PART"}


@Language.factory(
    "sourced_quantities",
    assigns=["doc.spans", "span._.quantity"],
    requires=["doc.ents"],
    default_config={},
)
def make_quantities(nlp: Language, name: str) -> "QuantityFinder":
    """Build the component (found by spaCy through the ``spacy_factories`` entry point).

    Args:
        nlp: The pipeline.
        name: The component's name in the pipeline.
    """
    return QuantityFinder(nlp, name)


_COMPARED = frozenset(("warmer", "hotter", "cooler", "colder", "higher", "lower", "above", "below", "more", "less"))


def _compared_after(doc: Doc, end: int) -> bool:
    """The value is the amount of a comparison ("6 °F warmer", "2 °C above the average")."""
    return end < len(doc) and doc[end].lower_ in _COMPARED


_OF_THE_WHOLE = (("of",), ("of", "the"), ("out", "of"), ("of", "all"), ("of", "its"), ("of", "their"), ("in",))


def _mark_wholes(spans: list[Span]) -> None:
    """A count or a share of a whole the text states right after it ("20 of the 40 delegates",
    "four out of five dentists", "one in four adults", "half of the 40 seats"): the whole's value as ``"whole"`` in the
    part's record, so that a share can be compared with a count and a count with a share; the
    whole's record is marked ``"a_whole"``."""
    for part, whole in zip(spans, spans[1:]):
        q, w = part._.quantity, whole._.quantity
        words = tuple(t.lower_ for t in part.doc[part.end : whole.start])
        if (
            words in _OF_THE_WHOLE
            and q.get("kind") in ("number", "percent")
            and w.get("kind") == "number"
            and q.get("low") == q.get("high")
            and w.get("low") == w.get("high")
            and isinstance(w.get("low"), float)
            and w["low"] > 0
        ):
            part._.quantity = {**q, "whole": w["low"]}
            whole._.quantity = {**w, "a_whole": True}  # stated with its part: matched with the part's share


class QuantityFinder:
    """Stateless component: finds, parses and stores the quantities of a doc."""

    def __init__(self, nlp: Language, name: str = "sourced_quantities"):
        self.name = name
        lex = load_lexicon()
        self._months = set(lex["months"])
        self._ordinals = set(lex["ordinal_words"])
        self._labels = {w.lower() for w in lex["label_words"]}
        self._change_verbs = set(lex["change_verbs"])
        self._number_words = set(lex["number_words"]) | set(lex["tens_words"])
        self._number_values: dict[str, int] = dict(lex["number_words"])
        self._approximators: dict[str, str] = dict(lex["approximators"])
        self._frequency_words = set(lex.get("frequency_words", ()))
        self._frequency_periods = set(lex.get("frequency_periods", ()))
        self._period_adverbs: dict[str, str] = dict(lex.get("period_adverbs", {}))  # "twice daily": a day
        self._scale_words = frozenset(lex.get("rating_scale_words", ()))  # what a rating "out of 5" counts
        self._street_types = frozenset(lex.get("street_types", ()))

    # -- public ---------------------------------------------------------------------------

    def __call__(self, doc: Doc) -> Doc:
        blocked = self._blocked(doc)
        self._soft = _soft_breaks(doc)
        spans: list[Span] = []
        last_end = 0
        for tok in doc:
            if tok.i < last_end or tok.i in blocked:
                continue
            every = every_hours(doc, tok.i, self._number_values)
            rhythm = every[3] if every else None  # "every 6 months": "year-time"
            every = every[:3] if every else None
            multiplier = multiplier_at(doc, tok.i)
            found = every or multiplier or share_at(doc, tok.i, self._approximators)
            if found is None and not self._is_seed(tok):
                continue
            restated = None if found else restated_value(doc, tok.i, blocked)
            found = (
                found
                or match_score(doc, tok.i)
                or (restated[:3] if restated else None)
                or self._best_window(doc, tok.i, last_end, blocked)
            )
            if found is None:
                continue
            start, end, q = found
            if (
                _is_period_name(doc, start, end, q)
                or _is_pronoun_one(doc, start, end)
                or self._is_fraction(doc, start, q)
            ):
                continue
            period = compared_period(doc, end) if q.kind == "percent" else None
            if period is not None:
                end = period[1]  # "+12% YoY": the abbreviation is part of the value
            span = doc[start:end]
            value = q.to_dict()
            value["noun"] = (
                rhythm if every else period[0] if period else self._noun(span, q)
            )  # "every 12 hours": twice daily
            value["head"] = _head_verb_of(span)
            if restated and restated[3]:
                value["disputed"] = restated[3].to_dict()  # "sixty (90) days": the words' reading, 60 days
            if multiplier:
                value["change"], value["multiplier"] = "by", True  # "doubled": +100%, against two levels only
            elif (role := change_role(span, self._change_verbs, q.kind)) is not None:
                value["change"] = role
            if "temperature" in (q.dimension or "") and (value.get("change") == "by" or _compared_after(doc, end)):
                value.update(temperature_difference(q).to_dict())  # "6 °F warmer", "rose by 2 °C": a difference
            span._.quantity = value
            spans.append(span)
            last_end = end
        _mark_wholes(spans)
        doc.spans[QUANTITIES_KEY] = spans
        read = {i for sp in spans for i in range(sp.start, sp.end)}
        doc.spans[UNREAD_KEY] = [
            doc[t.i : t.i + 1] for t in doc if t.i not in read and t.i not in blocked and unread_figure(t)
        ]
        return doc

    # serialisation: the component has no state, these exist so nlp.to_disk/from_disk work
    def to_disk(self, path, *, exclude=tuple()):  # noqa: D102
        return None

    def from_disk(self, path, *, exclude=tuple()):  # noqa: D102
        return self

    def to_bytes(self, *, exclude=tuple()) -> bytes:  # noqa: D102
        return b""

    def from_bytes(self, data: bytes, *, exclude=tuple()):  # noqa: D102
        return self

    # -- candidates -----------------------------------------------------------------------

    def _is_seed(self, tok) -> bool:
        if tok.is_space or tok.is_punct and tok.text not in ("~",):
            return False
        if tok.like_num or _HAS_DIGIT.search(tok.text):
            return True
        low = tok.lower_.rstrip(".")
        if low == "half":
            return True  # "an hour and a half", "half an hour"
        if low in ("dozen", "fortnight"):
            return True  # "a dozen people", "a fortnight": a figure with no digit
        if low in ("noon", "midnight"):
            return True  # "closes at midnight": a time of day without a digit
        if low in self._frequency_words:
            # "twice a year" is two times a year; "once" only before a period ("once a week",
            # "once or twice"): alone it mostly means "formerly" ("once a doctoral student")
            nxt = tok.nbor(1) if tok.i + 1 < len(tok.doc) else None
            if low != "once":
                return True
            return (
                nxt is not None
                and nxt.lower_ in self._frequency_periods
                and not (
                    nxt.lower_ in ("a", "an") and nxt.i + 1 < len(tok.doc) and tok.doc[nxt.i + 1].pos_ not in ("NOUN",)
                )
            )
        if low in self._months and tok.ent_type_ == "DATE" and (tok.text[0].isupper()):
            return True
        if low in self._ordinals and tok.ent_type_ == "ORDINAL":
            return True
        return False

    _soft: frozenset = frozenset()

    def _blocked(self, doc: Doc) -> set[int]:
        """Token indices that must never be read as values (citations, list numbers, labels)."""
        out: set[int] = set()
        n = len(doc)
        # the markers sourced_claims found ("[2023-report]", "[q3.txt]"), up to a marker's quote
        for seg in (*doc.spans.get(CLAIMS_KEY, ()), *doc.spans.get(SKIPPED_KEY, ())):
            for c in seg._.citations or ():
                end = c["end"] if not c.get("quote") else c["start"] + c["marker"].find(c["quote"])
                marker = doc.char_span(c["start"], max(end, c["start"] + 1), alignment_mode="expand")
                if marker is not None:
                    # a token that holds a figure before a glued marker ("8%[1", "billion[1") is
                    # read: the figure reader takes the marker off (figures.clean_figure)
                    out.update(t.i for t in marker if t.idx >= c["start"])
        for tok in doc:
            # [1], [1, 3], [S2]
            if tok.text in ("[", "("):
                close = "]" if tok.text == "[" else ")"
                j = tok.i + 1
                inner = []
                while j < n and j - tok.i <= 8 and doc[j].text != close:
                    inner.append(doc[j])
                    j += 1
                if j < n and doc[j].text == close and inner:
                    words = [t for t in inner if t.lower_ in _CITE_WORDS]
                    rest = [t for t in inner if t.lower_ not in _CITE_WORDS]
                    is_cite = (tok.text == "[" or words) and rest and all(_CITE_INNER.match(t.text) for t in rest)
                    if tok.text == "(" and not words:
                        is_cite = False
                    if is_cite:
                        out.update(range(tok.i, j + 1))
            # "1." / "2)" at the start of a line
            if (
                tok.i == 0 or "\n" in doc[tok.i - 1].text or doc[tok.i - 1].text_with_ws.endswith("\n")
            ) and tok.text.isdigit():
                if tok.i + 1 < n and doc[tok.i + 1].text in _LIST_PUNCT:
                    out.add(tok.i)
                    out.add(tok.i + 1)
            if re.fullmatch(r"\d+[.)]", tok.text) and (tok.i == 0 or "\n" in doc[tok.i - 1].text_with_ws):
                out.add(tok.i)
            # "seven days a week": every day (an anchor of sourced_entities), not a count
            if tok.lower_ in ("seven", "7") and [t.lower_ for t in doc[tok.i + 1 : tok.i + 4]] == ["days", "a", "week"]:
                out.update(range(tok.i, tok.i + 4))
            # "First, place the hive ...", "you first need to join": an ordinal that orders the steps
            # of a text (an adverb before its verb, or a sentence's opening word before a comma) is
            # no value; "finished first" (after its verb) and "the first woman" (of a noun) are
            if (
                tok.lower_ in self._ordinals
                and tok.dep_ == "advmod"
                and (tok.head.i > tok.i or (tok.is_sent_start and tok.i + 1 < n and doc[tok.i + 1].text == ","))
            ):
                out.add(tok.i)
            # "4 out of 5 stars", "rated 4.5 stars out of 5", "8 out of 10": the top of a rating's
            # scale, no value of its own ("four out of five dentists" counts dentists: kept)
            if (
                tok.lower_ == "out"
                and tok.i + 2 < n
                and doc[tok.i + 1].lower_ == "of"
                and doc[tok.i + 2].like_num
                and tok.i > 0
                and (doc[tok.i - 1].like_num or doc[tok.i - 1].lower_ in self._scale_words)
                and (
                    tok.i + 3 >= n
                    or doc[tok.i + 3].lower_ in self._scale_words
                    or doc[tok.i + 3].pos_ not in ("NOUN", "PROPN")
                )
            ):
                out.add(tok.i + 2)
            # "version 3", "Table 2", "No. 5"
            if (
                tok.i > 0
                and (tok.like_num or _HAS_DIGIT.search(tok.text))
                and doc[tok.i - 1].lower_.rstrip(".") in self._labels
            ):
                out.add(tok.i)
            # "Store 7", "Room 310", "Flight 212": a number that names a thing (sourced_entities
            # makes it a name)
            if identifier_number(tok) and match_score(doc, tok.i) is None:  # "beat Sevilla 2-1": a score
                out.add(tok.i)
        return out

    def _label_for(self, doc: Doc, start: int, end: int, seed: int) -> str | None:
        if _house_number(doc, end, self._street_types):
            return "ADDRESS"  # "1575 S Virginia St": a house number, never a year (quantity._year_ok)
        if doc[seed].ent_type_:
            return doc[seed].ent_type_
        for t in doc[start:end]:
            if t.ent_type_ in _NUM_LABELS:
                return t.ent_type_
        return None

    def _best_window(self, doc: Doc, seed: int, floor: int, blocked: set[int]) -> tuple[int, int, Quantity] | None:
        """Longest parseable token window containing ``seed``, then trimmed."""
        lo = seed
        soft = self._soft
        while (
            lo > max(floor, seed - _MAX_LEFT)
            and (not doc[lo].is_sent_start or lo in soft)
            and _joinable(doc[lo - 1], blocked, soft)
        ):
            lo -= 1
        hi = seed + 1
        while (
            hi < min(len(doc), seed + 1 + _MAX_RIGHT)
            and (not doc[hi].is_sent_start or hi in soft)
            and _joinable(doc[hi], blocked, soft)
        ):
            hi += 1
        best = None
        for length in range(hi - lo, 0, -1):
            for start in range(lo, hi - length + 1):
                end = start + length
                if not start <= seed < end:
                    continue
                span = doc[start:end]
                if is_change(span, self._change_verbs):
                    continue
                if (
                    end + 1 < len(doc)
                    and doc[end].text == "-"
                    and doc[end + 1].lower_ == "old"
                    and doc[end - 1].is_alpha
                ):
                    continue  # "23-year-old" is an age, not a duration of 23 years
                q = parse_quantity(span.text, self._label_for(doc, start, end, seed))
                if q is not None and q.kind == "date" and range_end_counts_a_noun(doc, start, end):
                    continue  # "2022 to 40 units": a year, then a count
                if q is not None:
                    best = (start, end, q)
                    break
            if best:
                break
        if best is None:
            return None
        start, end, q = best
        # trim words that do not change the value ("in 2021" -> "2021", trailing ".")
        changed = True
        while changed and end - start > 1:
            changed = False
            for s2, e2, gone in ((start + 1, end, doc[start]), (start, end - 1, doc[end - 1])):
                if not s2 <= seed < e2 or gone.pos_ not in _TRIMMABLE_POS:
                    continue
                q2 = parse_quantity(doc[s2:e2].text, self._label_for(doc, s2, e2, seed))
                if q2 is not None and _same_value(q, q2):
                    start, end, q = s2, e2, q2
                    changed = True
                    break
        return start, end, q

    def _is_fraction(self, doc: Doc, start: int, q: Quantity) -> bool:
        """``a third``, ``two fifths``: an ordinal word after a count is a fraction, not a rank."""
        if q.kind != "ordinal" or start == 0:
            return False
        prev = doc[start - 1].lower_
        return prev in ("a", "an") or prev in self._number_words

    # -- noun -----------------------------------------------------------------------------

    def _noun(self, span: Span, q: Quantity) -> str | None:
        """Lemma of the common noun a plain number/ordinal counts (``5 offices`` -> ``"office"``),
        on the same line; a proper noun is a name, not what is counted (``12 Main St``). For a
        volume (a recipe's ``1 tsp. fennel seeds``, ``2 cups of flour``): the nouns of the phrase
        after it, the ingredients measured (see ``_measured``)."""
        if q.kind == "measure" and q.dimension == "[length] ** 3":
            return _measured(span)
        if q.kind not in ("number", "ordinal") or span.text.endswith("."):
            return None  # "56B." closes its sentence: the next noun belongs to the next one
        doc = span.doc
        if q.kind == "number" and (frequency := _frequency_noun(span, self._frequency_words, self._period_adverbs)):
            return frequency
        for tok in span:
            head = tok.head
            if tok.dep_ in ("nummod", "amod", "quantmod", "compound", "nmod") and not (span.start <= head.i < span.end):
                between = doc[tok.i : head.i].text
                if head.pos_ == "NOUN" and head.i > tok.i and "\n" not in between:
                    return head.lemma_.lower()
        if (
            span.end < len(doc)
            and not doc[span.end].is_sent_start
            and "\n" not in doc[span.end - 1 : span.end + 1].text_with_ws[len(doc[span.end - 1].text) :]
        ):
            nxt = doc[span.end]
            if nxt.pos_ == "NOUN":
                return nxt.lemma_.lower()
            if nxt.pos_ == "ADJ" and span.end + 1 < len(doc) and doc[span.end + 1].pos_ == "NOUN":
                return doc[span.end + 1].lemma_.lower()
        return None
