"""``sourced_entities``: entity anchors of every segment, with canonical keys and aliases.

An anchor is a named thing a claim is about: a spaCy NER entity with a naming label
(PERSON, ORG, GPE, ...; ``labels`` in ``models/entities.json``) or a run of proper nouns
the NER missed. Each gets one canonical key: lower case, a leading "the", a possessive
``'s``, punctuation inside abbreviations (``U.S.`` -> ``us``), leading titles (``Dr``, ``CEO``)
and corporate suffixes (``Inc``, ``Corp``) folded. Aliases: the alias groups of the lexicon
and the acronym of a multi-word name (``World Health Organization`` -> ``who``).

A segment whose subject is a pronoun or a definite description ("It", "Its margin",
"The company") or that names nothing itself inherits the anchors of the segment before it,
marked ``"inherited": True`` (plain coreference by position; the rule that resolves "It grew
40%" to the company of the sentence before).

Assigns ``Span._.anchors`` on the spans of ``doc.spans["sourced_claims"]`` and
``doc.spans["sourced_skipped"]``: a list of dicts ``{"text", "key", "label", "start", "end",
"aliases": [str], "role": str, "inherited": bool}`` (``start``/``end`` char offsets in the doc;
for an inherited anchor, those of its first mention; an inherited anchor also carries
``"refers_back"``: True when a pronoun or definite subject points at it, False when the segment
merely names nothing itself). A day (label ``DAY``) named more than once in a segment is one
anchor whose ``"also_at"`` lists the char offsets of its other mentions ("open Tuesday through
Sunday, ... at noon on weekends": where each time's days are).
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from collections.abc import Mapping
from typing import Any

from spacy.language import Language
from spacy.tokens import Doc, Span

from ..text.citations import KEYWORDS
from ..text.lexicons import LexiconComponent, lexicon_data, load_lexicon
from . import extensions
from .quantity_tokens import identifier_number


def _words_re(template: str, words) -> re.Pattern:
    """``template`` with ``{words}`` replaced by an alternation of ``words`` (escaped); case-blind."""
    return re.compile(template.replace("{words}", "|".join(re.escape(w) for w in words)), re.IGNORECASE)


def _label_end(span: Span, list_label: re.Pattern) -> int | None:
    """Token index of the first word after a numbered list label ("Step 1: Boil ..."), None for a
    span that opens with no such label."""
    for tok in span[:4]:
        if tok.text == ":":
            if tok.i > span.start and tok.i + 1 < span.end and list_label.match(span.doc[span.start : tok.i + 1].text):
                return tok.i + 1
            return None
    return None


_PUNCT = re.compile(r"[^\w\s&+-]", re.UNICODE)
_SPACES = re.compile(r"\s+")


@Language.factory(
    "sourced_entities",
    assigns=["span._.anchors"],
    requires=["doc.ents", "doc.spans"],
    default_config={"lexicon": "entities"},
)
def make_entities(nlp: Language, name: str, lexicon: str):
    """Create the entity anchor component (see the module docstring)."""
    return EntityAnchors(name=name, lexicon=lexicon)


class EntityKeys:
    """Canonical keys and aliases of entity names, from the entity lexicon.

    Args:
        lexicon: bundled name or path of the entity lexicon, or its data.
    """

    def __init__(self, lexicon: str | Mapping[str, Any] = "entities") -> None:
        lex = lexicon_data(lexicon)
        self.labels = set(lex["labels"])
        self.suffixes = set(lex["corporate_suffixes"])
        self.titles = set(lex["titles"])
        self.inherit_subjects = set(lex["inherit_subjects"])
        self.fuzzy_min_score = float(lex["fuzzy_min_score"])
        # "Version 3.2", "Article 17": a label word and its number name a thing
        self.id_words = frozenset(lex.get("identifier_words", ()))
        self.weekdays: list[str] = list(lex.get("weekdays", []))  # in week order
        self.day_groups: dict[str, list[str]] = dict(lex.get("day_groups", {}))  # "weekends" -> its days
        self.day_phrases: list[list[str]] = sorted(
            (x.split() for x in lex.get("day_phrases", [])), key=len, reverse=True
        )
        # "Step 1:", "Tip 3:", "Method 2:": a numbered list label (a label that names a thing,
        # "SlimFast Diet:", stays a name)
        self.list_label = _words_re(r"^(?:{words})\s*\d*\s*:$", lex.get("list_label_words", ()))
        # "Passage 1", "Passages 2 and 3", "Document 4": the answer pointing at its sources, not a name
        self.source_reference = _words_re(
            r"^(?:{words})s?\b(?:\s+\d+)?\s*$", (*KEYWORDS, *lex.get("source_reference_words", ()))
        )
        self.alias_of: dict[str, list[str]] = {}
        groups = list(lex["aliases"])
        for more in lex.get("alias_lexicons", ()):  # models/aliases.json: countries, cities, organisations
            groups += load_lexicon(more)["aliases"]
        for group in groups:
            keys = {self.key(a) for a in group}
            for k in keys:
                self.alias_of[k] = sorted(keys.union(self.alias_of.get(k, ())))

    def key(self, text: str) -> str:
        """Canonical key of a name: ``"The U.S.'s"`` -> ``"us"``, ``"Acme Corp."`` -> ``"acme"``."""
        s = unicodedata.normalize("NFKC", text).lower().replace("\u2019", "'")
        s = re.sub(r"'s\b|'$", "", s.strip())
        s = s.replace(".", "")
        s = _PUNCT.sub(" ", s).replace("-", " ")
        words = _SPACES.sub(" ", s).strip().split(" ")
        while len(words) > 1 and words[0] in ("the", "a", "an"):
            words = words[1:]
        while len(words) > 1 and words[0] in self.titles:
            words = words[1:]
        while len(words) > 1 and words[-1] in self.suffixes:
            words = words[:-1]
        return " ".join(w for w in words if w)

    def _is_region(self, key: str) -> bool:
        """A state or country of the alias groups written with a two-letter code ("az",
        "arizona", "dc", "uk")."""
        return any(len(k) == 2 for k in self.alias_of.get(key, ()))

    def aliases(self, key: str) -> list[str]:
        """Every other key the same thing goes by (alias groups, acronym); sorted."""
        out = set(self.alias_of.get(key, ()))
        words = [w for w in key.split() if w not in ("of", "and", "the", "for", "&")]
        if len(words) >= 2:
            out.add("".join(w[0] for w in words))
        parts = key.split()
        for n in (1, 2):  # "washington dc", "tucson az", "portland new york": the place without its region
            if len(parts) > n and self._is_region(" ".join(parts[-n:])):
                out.add(" ".join(parts[:-n]))
                break
        out.discard(key)
        return sorted(out)


class EntityAnchors(LexiconComponent):
    """Computes ``Span._.anchors`` for every segment of a doc (see the module docstring)."""

    def __init__(self, name: str, lexicon: str) -> None:
        self.name = name
        self._init_lexicon(lexicon)

    def _use_lexicon(self, lex: dict) -> None:
        self.keys = EntityKeys(lex)

    def __call__(self, doc: Doc) -> Doc:
        self._require_lexicon()
        segments = extensions.segments(doc)
        if not segments:
            segments = list(doc.sents)
        ents = list(doc.ents)
        ends = [e.end for e in ents]
        values = _value_tokens(doc)
        previous: list[dict] = []
        for span in segments:
            own = self.span_anchors(span, ents, ends, values)
            anchors = list(own)
            refers_back = bool(previous) and self._refers_back(span)
            if previous and (not own or refers_back):
                have = {a["key"] for a in own}
                anchors += [
                    dict(a, inherited=True, refers_back=refers_back)
                    for a in previous
                    if a["key"] not in have and a["label"] != "DAY"
                ]
            span._.anchors = anchors
            if anchors:
                previous = anchors
        return doc

    def _day_anchors(self, span: Span, out: list[dict], covered: set[int]) -> None:
        """The days of the week a span names, an anchor each, added to ``out`` (the tokens they
        take added to ``covered``): a phrase for every day ("open daily"), a day or a group of
        days ("on weekdays"), and every day of a range ("Monday through Friday")."""
        doc = span.doc
        week = self.keys.weekdays
        # "open daily", "seven days a week": every day of the week, an anchor each (marked
        # ``every_day``: the verifier counts them against a record's opening hours only)
        words = [t.lower_ for t in span]
        for phrase in self.keys.day_phrases:
            for k in range(len(words) - len(phrase) + 1):
                if words[k : k + len(phrase)] == phrase and not any(
                    span.start + k + j in covered for j in range(len(phrase))
                ):
                    covered.update(range(span.start + k, span.start + k + len(phrase)))
                    for key in week:
                        self._add(out, span[k : k + len(phrase)], "DAY", key=key)
                        if out and out[-1]["key"] == key:
                            out[-1]["every_day"] = True
        days: list[tuple[int, str]] = []
        for tok in span:
            day = tok.lower_.rstrip("s") if tok.lower_.endswith("days") else tok.lower_
            if day in week and tok.i not in covered:
                covered.add(tok.i)
                days.append((tok.i, day))
                self._add(out, doc[tok.i : tok.i + 1], "DAY", key=day)
            elif tok.lower_ in self.keys.day_groups and tok.i not in covered:
                covered.add(tok.i)  # "on weekdays": each day of the group is an anchor of its own
                for key in self.keys.day_groups[tok.lower_]:
                    self._add(out, doc[tok.i : tok.i + 1], "DAY", key=key)
        # "Monday through Friday" names every day between: each is an anchor of its own
        for (i, a), (j, b) in zip(days, days[1:]):
            between = [t.lower_ for t in doc[i + 1 : j]]
            if (
                between
                and len(between) <= 2
                and between[-1] in ("through", "thru", "to", "-", "\u2013", "until", "till")
            ):
                ia, ib = week.index(a), week.index(b)
                for k in range(ia + 1, ib if ib > ia else ib + len(week)):
                    self._add(out, doc[i : j + 1], "DAY", key=week[k % len(week)])

    def span_anchors(
        self, span: Span, ents: list[Span] | None = None, ends: list[int] | None = None, values: set[int] | None = None
    ) -> list[dict]:
        """The span's own anchors: NER entities with a naming label, then proper-noun runs.
        ``values``: token indices of the doc's quantities, which no proper-noun run takes ("11 AM");
        computed from the doc when not given."""
        doc = span.doc
        out: list[dict] = []
        covered: set[int] = {tok.i for c in span._.citations or [] for tok in span if c["start"] <= tok.idx < c["end"]}
        if ents is None:
            ents = list(doc.ents)
        for ent in _ents_in(ents, [e.end for e in ents] if ends is None else ends, span):
            if ent.label_ not in self.keys.labels:
                continue
            if any(i in covered for i in range(ent.start, ent.end)):
                continue
            start = max(ent.start, span.start)
            while start < min(ent.end, span.end) - 1 and doc[start].is_lower:
                start += 1  # "free Wi-Fi": a lower-case word the NER took in is not part of the name
            end = min(ent.end, span.end)
            while end - 1 > start and doc[end - 1].is_lower and doc[end - 1].pos_ in ("ADP", "CCONJ", "DET"):
                end -= 1  # "1420 W Idaho St in Boise": a preposition the NER took in ends no name
            value_at = _value_tokens(doc) if values is None else values
            if all(k in value_at for k in range(start, end)):
                continue  # "+12% YoY": the NER's name is a word of a value
            while end - 1 > start and end - 1 in value_at:
                end -= 1  # "beat Sevilla 2-1": the score the NER took in is a value, not part of the name
            ent = doc[start:end]
            covered.update(range(ent.start, ent.end))
            self._add(out, ent, ent.root.ent_type_ or "")
        self._day_anchors(span, out, covered)
        # a proper-noun run never takes a token of a value ("11 AM", "5 PM EST"), nor a word of a
        # numbered list label ("Step 1: Boil the tamarind") or the capitalised verb after it
        covered |= _value_tokens(doc) if values is None else values
        label_end = _label_end(span, self.keys.list_label)
        if label_end is not None:
            covered.update(range(span.start, label_end + 1))
        for tok in span:
            # "Store 7", "Version 3.2", "Flight 212": a number that names a thing, with its noun
            if (
                tok.i not in covered
                and tok.i - 1 not in covered
                and tok.i > span.start
                and (
                    identifier_number(tok)
                    or doc[tok.i - 1].lower_ in self.keys.id_words
                    and (tok.like_num or tok.text[:1].isdigit())
                )
            ):
                covered.update((tok.i - 1, tok.i))
                self._add(out, doc[tok.i - 1 : tok.i + 1], "ID")
        run: list[int] = []
        for tok in [*span, None]:
            if tok is not None and tok.pos_ == "PROPN" and tok.i not in covered and tok.text[:1].isupper():
                run.append(tok.i)
                continue
            if (
                tok is not None
                and run
                and tok.text == "-"
                and not doc[tok.i - 1].whitespace_
                and not tok.whitespace_
                and tok.i + 1 < span.end
                and doc[tok.i + 1].text[:1].isupper()
                and tok.i + 1 not in covered
            ):
                run.append(tok.i)  # "Wi-Fi", "Rolls-Royce": one name across the hyphen
                continue
            if run:
                if not self.keys.source_reference.match(doc[run[0] : run[-1] + 1].text):
                    self._add(out, doc[run[0] : run[-1] + 1], "")
                run = []
        return [a for a in out if not self.keys.source_reference.match(a["text"])]

    def _add(self, out: list[dict], ent: Span, label: str, key: str | None = None) -> None:
        key = key or self.keys.key(ent.text)
        if not key or key in self.keys.titles:
            return
        if (same := next((a for a in out if a["key"] == key), None)) is not None:
            if label == "DAY" and same["label"] == "DAY" and ent.start_char != same["start"]:
                same.setdefault("also_at", []).append(ent.start_char)  # a day named again: where (for its times)
            return
        out.append(
            {
                "text": ent.text,
                "key": key,
                "label": label,
                "start": ent.start_char,
                "end": ent.end_char,
                "aliases": self.keys.aliases(key),
                "role": _role(ent),
                "inherited": False,
            }
        )

    def _refers_back(self, span: Span) -> bool:
        for tok in span:
            if tok.dep_ in ("nsubj", "nsubjpass") and tok.head.dep_ == "ROOT":
                if tok.lower_ in self.keys.inherit_subjects:
                    return True
                if any(c.dep_ == "poss" and c.lower_ in self.keys.inherit_subjects for c in tok.children):
                    return True
                dets = [c.lower_ for c in tok.children if c.dep_ == "det"]
                has_name = tok.pos_ == "PROPN" or any(c.pos_ == "PROPN" for c in tok.children)
                if dets and dets[0] in ("the", "this", "that", "these") and not has_name and not tok.ent_type_:
                    return True
        return False


def _value_tokens(doc: Doc) -> set[int]:
    """Token indices inside the doc's quantity spans."""
    return {i for q in doc.spans.get(extensions.QUANTITIES_KEY, []) for i in range(q.start, q.end)}


def _ents_in(ents: list[Span], ends: list[int], span: Span) -> list[Span]:
    """The entities of ``ents`` (sorted, with their ``end`` token indices in ``ends``) that
    overlap ``span``, found by bisection: a long source has thousands of segments and entities,
    and scanning ``doc.ents`` for each segment would be quadratic."""
    i = bisect.bisect_right(ends, span.start)
    out = []
    while i < len(ents) and ents[i].start < span.end:
        out.append(ents[i])
        i += 1
    return out


def _role(ent: Span) -> str:
    """The grammatical role of a name: ``subj``, ``obj``, ``agent``, ``poss``, ``pobj:<prep>``."""
    tok = ent.root
    while tok.dep_ in ("compound", "flat", "appos") and tok.head is not tok:
        tok = tok.head
    dep = tok.dep_
    if dep in ("nsubj", "nsubjpass"):
        return "subj"
    if dep in ("dobj", "attr", "oprd"):
        return "obj"
    if dep == "pobj":
        prep = tok.head
        if prep.dep_ == "agent":
            return "agent"
        return f"pobj:{prep.lower_}"
    return dep or "dep"
