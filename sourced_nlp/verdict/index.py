"""The passage index and the candidate search: which passages a claim is compared with.

:class:`PassageIndex` is an inverted index over the passages of every source of one check, by
content lemma (and the words of names, compounds, word forms), by entity key and alias, and by
quantity kind; :meth:`PassageIndex.candidates` ranks the passages that share something with a
claim, never a scan of every passage. Word weights are IDF over the source passages, a word
absent from the sources weighted as the rarest.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable

from ..text.quantity import Quantity
from .lexicon import VerdictLexicon, default_lexicon
from .passage import Passage
from .types import ClaimRecord, FeatureRecord, QuantityRecord
from .values import compare_values, nouns_compatible, to_quantity
from .words import same_word

_RECORD_VALUE = re.compile(r":\s*([A-Za-z]+)\.?\s*$")  # "attributes wifi: free."
_RECORD_NUMBER = re.compile(r":\s*[-+]?\d[\d,]*(?:\.\d+)?\.?\s*$")  # "business stars: 4.0."
_RECORD_KEY = re.compile(r"^[^:\n]{1,80}:\s")  # "review info review text: "


class PassageIndex:
    """Inverted index over the passages of every source of one check.

    Args:
        sources: ``[(source_id, [feature record, ...], structured), ...]`` in source order;
            ``structured`` is True for a linearised JSON record, whose lines are all about the
            record's subject.
        relation_words: canonical lemmas a claim need not find in a structured source ("located").
        sentiment: review verb (canonical lemma) -> +1 praise / -1 complaint / 0 a verb that frames
            an opinion ("felt", "found").
        canon: word -> canonical member of its synonym group (``models/lexical.json``), so that a
            passage's words written in names ("Barbeque") hold their canonical form too.
        lexicon: the verdict's words (:class:`~sourced_nlp.verdict.lexicon.VerdictLexicon`;
            the bundled one by default).
        text_value_words: a record value of this many words is free text (a review), not a field
            (``Thresholds.text_value_words``).
        sampled: source id -> ``(documents, frequency)`` for a source whose passages here are a
            sample of it (the blocks a claim needs of a large source, :mod:`sourced_nlp.components.blocks`):
            ``documents`` estimates its passages, ``frequency(lemma)`` how many of them hold the
            lemma. The word weights then count the whole source, not the sample, so that they do
            not depend on which of its blocks were parsed.

    Attributes:
        passages: every passage, in source order.
        entity_keys: every entity key and alias named anywhere in the sources.
        record_words: per structured source, the lemmas of its ``name``/``categories``/``type``
            lines: the words an answer uses for the record's subject ("The Mexican restaurant").
    """

    def __init__(
        self,
        sources: list[tuple[str, list[FeatureRecord], bool]],
        relation_words: frozenset[str] = frozenset(),
        sentiment: dict[str, int] | None = None,
        canon: dict[str, str] | None = None,
        *,
        lexicon: VerdictLexicon | None = None,
        text_value_words: int = 6,
        sampled: dict[str, tuple[float, Callable[[str], float]]] | None = None,
    ) -> None:
        self.relation_words = relation_words
        self.sentiment = sentiment or {}
        self.lex = lexicon or default_lexicon()
        self.text_value_words = text_value_words
        self.passages: list[Passage] = []
        self.by_lemma: dict[str, list[int]] = {}
        self.by_prefix: dict[str, set[str]] = {}  # first five letters -> the words (lemmas) with them
        self.has_records = any(structured for _, _, structured in sources)
        self.canon = canon or {}
        self.attribute_lines: list[int] = []  # the lines of records' attributes ("attributes wifi: free.")
        self.business_stars: dict[str, tuple[int, float]] = {}  # source id -> (line's passage id, stars)
        self.by_key: dict[str, list[int]] = {}
        self.by_kind: dict[str, list[int]] = {}
        self.entity_keys: set[str] = set()
        self.record_words: dict[str, set[str]] = {}
        self.source_keys: dict[str, set[str]] = {}
        df: dict[str, int] = {}
        self._sampled = sampled or {}
        whole_df: dict[str, int] = {}  # the document frequencies of the sources read whole
        whole_n = 0
        for source_id, records, structured in sources:
            first = len(self.passages)
            self._add_source(source_id, records, structured, df)
            if source_id not in self._sampled:
                whole_n += len(self.passages) - first
                for p in self.passages[first:]:
                    for lemma in p.lemmas:
                        whole_df[lemma] = whole_df.get(lemma, 0) + 1
        n = max(len(self.passages), 1)
        self.idf = {lemma: math.log(1 + n / c) for lemma, c in df.items()}
        self.max_idf = math.log(1 + n)
        if self._sampled:
            self._whole_df, self._weights = whole_df, {}
            self._n_all = max(whole_n + sum(docs for docs, _ in self._sampled.values()), 1)
            self.max_idf = math.log(1 + self._n_all)
        # the field lines of records (not a review's text), where a name may stand without NER
        self.field_lines = [pid for pid, p in enumerate(self.passages) if p.structured and p.text_of is None]

    def _add_source(self, source_id: str, records: list[FeatureRecord], structured: bool, df: dict[str, int]) -> None:
        prev: int | None = None
        head: int | None = None
        star_lines: list[tuple[int, float | None]] = []
        for rec in records:
            if not rec["text"].strip():
                continue
            if not structured and any(a.get("every_day") for a in rec["entities"]):
                # "6 to 7 hours daily" in prose: a frequency, not the days of opening hours
                rec = dict(rec, entities=[a for a in rec["entities"] if not a.get("every_day")])  # type: ignore[assignment]
            pid = len(self.passages)
            head = pid if head is None else head
            p = Passage(source=source_id, f=rec, prev=prev, structured=structured, head=head)
            if structured:
                self._record_line(p, pid, prev)
            p.negated = bool(rec["negated"]) or p.value in self.lex.false_values
            prev = pid
            self.passages.append(p)
            p.names_own = any(not a.get("inherited") for a in rec["entities"])
            self._index_words(p, pid, df)
            self._index_names(p, pid)
            self._index_values(p, pid, star_lines)
        # a review's text takes the stars of the review it belongs to: the nearest stars line
        # within three lines of the line that opened the text
        for p in self.passages[head if head is not None else len(self.passages) :]:
            if p.text_of is not None and star_lines:
                dist, stars = min((abs(sp - p.text_of), v) for sp, v in star_lines)
                p.stars = stars if dist <= 3 else None

    def _record_line(self, p: Passage, pid: int, prev: int | None) -> None:
        """A line of a record: an attribute's line, its one-word value, the review it opens or
        continues."""
        text = p.f["text"]
        if text.lower().startswith("attributes "):
            self.attribute_lines.append(pid)
        if m := _RECORD_VALUE.search(text):
            p.value = m.group(1).lower()
        # a free-text value (a review) may run over several sentences: they share the line that
        # opened it
        key_line = _RECORD_KEY.match(text)
        if (
            key_line
            and not self.lex.record_kind.match(text)
            and (
                len(text[key_line.end() :].split()) >= self.text_value_words
                or key_line.group(0).rstrip(": ").lower().endswith(" text")
            )
        ):
            p.text_of = pid  # a review's text, however short its first sentence ("Zero tears.")
        elif not key_line and prev is not None:
            p.text_of = self.passages[prev].text_of

    def _index_words(self, p: Passage, pid: int, df: dict[str, int]) -> None:
        rec = p.f
        p.lemmas = set(rec["lemmas"])
        words = rec["norm"].split()
        # the words of names too ("Nail Salons" holds "salon"), and compounds written as one
        # word ("take out" holds "takeout", "health care" "healthcare")
        p.joined = {w for w in words if w.isalpha()}
        # a word of letters and digits ("82nd" of "5364 E 82nd St"): the passage reads it
        # as a value, a claim's parse may leave it a word
        p.joined |= {w for w in words if w.isalnum() and not w.isalpha() and not w.isdigit()}
        if p.structured:  # a record's categories name trades by their gerund ("Waxing", "Towing")
            p.joined |= {w[:-3] for w in p.joined if len(w) >= 6 and w.endswith("ing")}
        p.joined |= {w[:-1] for w in p.joined if len(w) > 3 and w.endswith("s") and not w.endswith("ss")}
        p.joined |= {a + b for a, b in zip(words, words[1:]) if a.isalpha() and b.isalpha()}
        if self.canon:  # a name's word in its canonical form too ("Barbeque" holds "barbecue")
            p.joined |= {self.canon[w] for w in p.joined if w in self.canon}
        for word in p.joined - p.lemmas:
            self._add_word(p, pid, word)
        if p.structured and self.lex.record_kind.match(rec["text"]):
            self.record_words.setdefault(p.source, set()).update(rec["lemmas"])
        for lemma in p.lemmas:
            df[lemma] = df.get(lemma, 0) + 1
            self._add_word(p, pid, lemma)

    def _add_word(self, p: Passage, pid: int, word: str) -> None:
        self.by_lemma.setdefault(word, []).append(pid)
        if len(word) >= 5:
            p.prefixes.setdefault(word[:5], []).append(word)
            self.by_prefix.setdefault(word[:5], set()).add(word)

    def _index_names(self, p: Passage, pid: int) -> None:
        for a in p.f["entities"]:
            if p.structured and a.get("inherited"):
                continue  # a line of a record states its own field: "WiFi: no" names nothing for the next line
            if not a.get("inherited"):
                self.source_keys.setdefault(p.source, set()).add(a["key"])
            p.own_keys.setdefault(a["key"], a)
            for k in (a["key"], *a["aliases"]):
                p.keys.setdefault(k, a)
                self.by_key.setdefault(k, []).append(pid)
                if not a.get("inherited"):
                    self.entity_keys.add(k)

    def _index_values(self, p: Passage, pid: int, star_lines: list[tuple[int, float | None]]) -> None:
        rec, structured = p.f, p.structured
        key_noun = rec["lemmas"][-1] if structured and rec["lemmas"] and _RECORD_NUMBER.search(rec["text"]) else None
        if (
            structured
            and key_noun == "star"
            and not self.lex.record_kind.match(rec["text"])
            and "business" not in rec["text"].split(":")[0]
        ):
            star_lines.append((pid, float(rec["quantities"][-1]["low"]) if rec["quantities"] else None))
        elif structured and key_noun == "star" and rec["quantities"] and p.source not in self.business_stars:
            self.business_stars[p.source] = (pid, float(rec["quantities"][-1]["low"]))  # "business stars: 4.5"
        for qd in rec["quantities"]:
            if key_noun and not qd.get("noun") and qd.get("kind") == "number":
                qd = dict(qd, noun=key_noun)  # type: ignore[assignment]  # "business stars: 4.0" counts stars
            q = to_quantity(qd)
            if q is not None:
                p.quantities.append((qd, q))
                self.by_kind.setdefault(q.kind, []).append(pid)

    def weight(self, lemma: str) -> float:
        """IDF weight of a lemma, ``ln(1 + N / df)`` over the passages; one absent from the sources
        weighs as the rarest. With ``sampled`` sources, N and df count their estimates too."""
        if not self._sampled:
            return self.idf.get(lemma, self.max_idf)
        w = self._weights.get(lemma)
        if w is None:
            c = self._whole_df.get(lemma, 0) + math.fsum(freq(lemma) for _, freq in self._sampled.values())
            w = self._weights[lemma] = math.log(1 + self._n_all / c) if c > 0 else self.max_idf
        return w

    def seen(self, lemma: str) -> bool:
        """Some passage holds the lemma, in some form (:func:`~sourced_nlp.verdict.words.same_word`)."""
        return lemma in self.idf or (
            len(lemma) >= 5 and any(same_word(lemma, w) for w in self.by_prefix.get(lemma[:5], ()))
        )

    def candidates(self, claim: ClaimRecord, limit: int) -> list[int]:
        """Passage ids sharing a lemma, an entity key or a quantity kind with the claim, best first
        by the summed weight of what they share (ties by position)."""
        # each passage's score is an exact sum (math.fsum) of what it shares, so that neither the
        # ranking nor its ties follow the order of the claim's words
        parts: dict[int, list[float]] = {}
        for lemma in dict.fromkeys(claim["lemmas"]):
            w = self.weight(lemma)
            pids = set(self.by_lemma.get(lemma, ()))
            if len(lemma) >= 5:  # another form of the word ("catering" / "caters")
                for word in self.by_prefix.get(lemma[:5], ()):
                    if word != lemma and same_word(lemma, word):
                        pids.update(self.by_lemma.get(word, ()))
            for pid in pids:
                parts.setdefault(pid, []).append(w)
        for a in claim["entities"]:
            for pid in self._naming(a):
                parts.setdefault(pid, []).append(self.max_idf)
        for qd in claim["quantities"]:
            q = to_quantity(qd)
            if q is None:
                continue
            for pid in self.by_kind.get(q.kind, ()):
                parts.setdefault(pid, []).append(0.5)
            if q.kind == "number":
                for pid in self.by_kind.get("money", ()):
                    parts.setdefault(pid, []).append(0.5)
            # a passage that holds the claim's own value weighs as one that names its entity: among
            # many similar lines ("In 2001 the company had 1,234 stores.") the one the claim
            # repeats must make the shortlist, however many others share its words and kinds
            for pid in self._holding(qd, q):
                parts.setdefault(pid, []).append(self.max_idf)
        score = {pid: math.fsum(ws) for pid, ws in parts.items()}
        ranked = sorted(score.items(), key=lambda kv: (-kv[1], kv[0]))
        return [pid for pid, _ in ranked[:limit]]

    def _holding(self, qd: QuantityRecord, q: Quantity) -> list[int]:
        """The passages (in order, each once) holding a value that matches the claim's value ``q``
        (:func:`~sourced_nlp.verdict.values.compare_values` is ``"match"``, of a compatible noun)."""
        kinds = (q.kind, "money") if q.kind == "number" else (q.kind,)
        pids = dict.fromkeys(pid for kind in kinds for pid in self.by_kind.get(kind, ()))
        return [
            pid
            for pid in pids
            if any(
                nouns_compatible(qd, sd) and compare_values(q, s, hours=self.passages[pid].structured) == "match"
                for sd, s in self.passages[pid].quantities
            )
        ]

    def _naming(self, a: dict) -> set[int]:
        """The passages that name an anchor, by key or alias, or with the name in a record's line."""
        words = a["key"].split()
        # a name the passage's NER cut one word shorter ("S Virginia St" / "Virginia St")
        parts = {" ".join(words[1:]), " ".join(words[:-1])} if len(words) > 2 else set()
        named = {pid for k in {a["key"], *a["aliases"], *parts} for pid in self.by_key.get(k, ())}
        # a record's line that holds the name where its NER saw none ("city: Fishers."), or
        # on a line of one short value, its alias ("state: OK." for "Oklahoma")
        for pid in self.field_lines:
            norm = self.passages[pid].f["norm"]
            short = len(norm.split()) <= 3
            if any(len(k) >= 2 and f" {k} " in norm for k in (a["key"], *(a["aliases"] if short else ()))):
                named.add(pid)
        return named


def passage_at(index: PassageIndex, source: str, start: int, end: int) -> int | None:
    """The id of the passage of ``source`` at these char offsets (an evidence entry's), or None;
    the lookup is built on first use and kept on the index."""
    lookup = index.__dict__.get("_at")
    if lookup is None:
        lookup = index.__dict__["_at"] = {
            (p.source, p.f["start"], p.f["end"]): pid for pid, p in reversed(list(enumerate(index.passages)))
        }
    return lookup.get((source, start, end))
