"""Claim/evidence alignment and the verdict — the rules of sourced-nlp, on plain data.

No spaCy in here: claims and source passages arrive as the feature records built by
``sourced_passages`` (see :mod:`sourced_nlp.components.passages`), so the rules can be read and
tested on their own.

For each claim:

1. **Candidates.** :class:`PassageIndex` finds the passages that share a content lemma, an
   entity key or a quantity kind with the claim — never a scan of every passage.
2. **Alignment.** Each candidate is compared with the claim: which entity anchors it names
   (key, alias, acronym, surname-of-full-name, rapidfuzz ratio >= 90, or the name in its text);
   for each quantity, whether the passage holds a comparable one and if it matches or
   conflicts (:func:`sourced_nlp.quantity.compare`); the share of the claim's content lemmas it
   holds, weighted by rarity among all source passages (``coverage``, IDF weights with a word
   absent from the sources weighted as the rarest); polarity; antonym predicates.
3. **Verdict**, in this order:

   * ``grounded`` — one passage holds every anchor of the claim with the same value, the same
     polarity, no antonym predicate, and enough of its content: coverage >= ``grounded_coverage``
     (``grounded_coverage_anchored`` when a quantity or a named entity of the claim matched).
     A hedged claim ("may", "reportedly") is not grounded by an unhedged passage.
   * ``contradicted`` — a passage about the same thing (every named anchor of the claim there,
     coverage >= ``contradicted_coverage``) states something incompatible: a comparable
     quantity with a disjoint value and none that matches; the claim's predicate with the
     opposite polarity; an antonym predicate; or, when the claim names someone the sources
     never mention, another name of the same type in the same grammatical role with the rest
     of the claim there (coverage >= ``swap_coverage``), every value of the claim there and
     another of its names or values, or, failing one, 90% of at least two of its words. In
     prose a value conflict also needs the passage to share a name or another value with the
     claim, the counted noun, or 70% of its words. Against a business record: an affirmed
     claim naming an attribute the record denies ("accepts reservations" for ``reservations:
     False``), another value of a field ("a full bar" for ``alcohol: beer and wine``), a part of
     a fused claim a false line denies, a week of opening hours told right but for one day, or
     "highly rated" for fewer than 3.5 stars.
   * ``grounded`` by two passages — a claim that fuses two facts: two passages, each naming the
     claim's entities, that together hold every anchor and enough content, neither
     contradicting it.
   * ``grounded`` by a spread of passages — a prose claim that one passage states in most of its
     words and all its names and values, whose other words the passages beside it hold (at most
     two more, together with it holding ``fusion_coverage_content`` of the claim), when its
     support (below) reaches ``spread_support``.
   * ``unverified`` — with the reason: a quote found in no source, anchors that never appear
     together, no passage about it, too little of its content stated.

``support`` in [0, 1] orders claims from best to least supported: 0.7-1.0 for grounded
(by coverage), 0.5-0.69 for grounded by a spread of passages, 0.15-0.65 for unverified
(above 0.5 only where a spread grounding's other checks fail), 0.0-0.1 for contradicted. An
unverified claim's support is 0.15 + 0.25 x its best partial alignment (the mean of one
passage's coverage and the share of anchors it holds) + 0.25 x its spread (the same two shares
over all candidate passages together, a value counted only where no passage conflicts with it)
- 0.3 x the weighted share of its words that no source holds in any form - 0.04 x each of its
names (at most three) no source mentions, and never below 0.15; the weights were set on the
RAGTruth train split (support ROC-AUC 0.792 -> 0.804 there for the first two terms, 0.809 ->
0.818 for the last two).
"""

from __future__ import annotations

import functools
import itertools
import math
import re
from dataclasses import dataclass, field
from typing import Any, Callable

from rapidfuzz import fuzz

from .lexicons import load_lexicon
from .quantity import Quantity, compare

Feature = dict[str, Any]

_FALSE_VALUES = {"false", "no", "none"}
_TRUE_VALUES = {"true", "yes"}
_RECORD_VALUE = re.compile(r":\s*([A-Za-z]+)\.?\s*$")
# support of an unverified claim: 0.15 + _SUPPORT_BEST x the best passage's partial match +
# _SUPPORT_SPREAD x what the candidate passages hold between them (set on the RAGTruth train split)
_SUPPORT_BEST = 0.25
_SUPPORT_SPREAD = 0.25
_SUPPORT_NOVEL_WORDS = 0.3  # ... - this x the weighted share of its words no source holds
_SUPPORT_NOVEL_NAME = 0.04  # ... - this x each name no source mentions (at most 3)
_RECORD_NUMBER = re.compile(r":\s*[-+]?\d[\d,]*(?:\.\d+)?\.?\s*$")  # "business stars: 4.0."
# lines of one record a claim may be told from: a week of opening hours (seven lines) and a few
# more fields ("open Monday to Friday from 7 AM to 4 PM, ... and a great place for lunch")
_FUSION_RECORD_LINES = 12
_CLOSED = re.compile(r"\bclosed\b", re.IGNORECASE)  # "closed on Mondays": a day without hours
_SWAP_MIN_WORDS = 2  # content words a swap of names needs the passage to share when it shares no other name or value
_UNANCHORED_CONFLICT = 0.7  # coverage at which a passage with no name or other value of the claim is about the same thing
# words of Yelp's attribute keys that name no field of their own ("attributes", "restaurants
# good for groups", "business accepts credit cards", "dogs allowed")
_KEY_SPAN = 5  # the words of an attribute's key stand within this many words of each other in a claim
_GENERIC_KEY_WORDS = frozenset({"attributes", "restaurants", "restaurant", "business", "good", "for", "accepts", "allowed",
                                "has", "in", "by", "of", "the", "a", "and", "info", "specializes", "range"})
_SETTING_LABELS = {"GPE", "NORP", "LOC"}  # places and peoples a source may name once and then assume
# verbs a denial may wrap around its fact ("did not have the right to vote" / "were not allowed to
# vote"): two denials on such verbs deny the same thing when the rest of the claim is stated
_LIGHT_DENIALS = frozenset(load_lexicon("negation").get("light_predicates", ()))
# the site a record comes from ("on Yelp"): a name a claim against a record need not find
_PLATFORMS = frozenset(load_lexicon("records").get("platform_names", ()))
# the words that name a field without its key ("serves beer" states Alcohol), and the phrases
# that state another value of it ("a full bar" is not "beer and wine")
_FIELD_WORDS: dict[str, list[str]] = load_lexicon("records").get("field_words", {})
_VALUE_DENIES: dict[str, dict[str, list[str]]] = load_lexicon("records").get("value_denies", {})
_NOT_FIELDS = re.compile(r"\b(?:" + "|".join(re.escape(x) for x in load_lexicon("records").get("not_fields", ["(?!)"])) + r")\b")
_CLAUSE_END = re.compile(r",\s*(?:and|but|while|whereas|though|although|yet)\s|;\s|\s(?:but|whereas)\s")  # the end of a denied clause
_NEGATION_WORD = re.compile(r"\b(?:not|no|never|without)\b|n't\b")  # where the denied part of a mixed claim starts
# "highly rated" (and "top-rated", "well-rated", "highly regarded"): a business of 4 stars or more
# of 5; the cut-off the hand-written record cases are labelled by (3.5 stars is not "highly rated")
_HIGH_PRAISE = re.compile(r"\b(?:highly|top|well|best)[- ](?:rated|reviewed|regarded)\b", re.IGNORECASE)
_HIGHLY_RATED = 4.0
# "costs $9", "paid $65": a word that says a value is a price, stated by the amount of money itself
_MONEY_WORDS = frozenset(load_lexicon("lexical").get("money_words", ()))
# "an impressive 4.5-star rating", "a perfect 5-star rating", "a low rating": the adjective judges
# the record's stars; it holds when they fall in its range of ``models/records.json`` rating words
_RATING_WORDS: dict[str, tuple[float, float]] = {
    w: (float(lo), float(hi)) for w, (lo, hi) in load_lexicon("records").get("rating_words", {}).items()}
_RATING_PHRASE = re.compile(
    r"\b(" + "|".join(sorted(map(re.escape, _RATING_WORDS), key=len, reverse=True) or ["(?!)"]) + r")\s+"
    r"(?:(?:\d(?:\.\d+)?|one|two|three|four|five)(?:[- ]star|\s+out\s+of|\s+stars?\b)"
    r"|(?:(?:overall|average|star|customer|user|yelp)\s+)?(?:ratings?|scores?)\b)", re.IGNORECASE)
_RECORD_KEY = re.compile(r"^[^:\n]{1,80}:\s")  # "review info review text: "
_TEXT_VALUE_WORDS = 6  # a record value of this many words is free text (a review), not a field
_RECORD_KIND = re.compile(r"^(?:name|categories|category|type|kind)\s*:", re.IGNORECASE)


@dataclass(frozen=True)
class Thresholds:
    """Tunables of the verdict (``sourced_verify`` config), all coverages in [0, 1].

    Defaults were set on the acceptance cases and the RAGTruth train split;
    ``fusion_coverage_record`` (one weak word of a claim told from several lines of a record may
    be missing) on the hand-written record cases of ``tests/cases/records.jsonl`` (1.0 -> 0.85:
    coverage 66 -> 77 of 136 sentences, false groundings 1 -> 1), since the train split holds
    no records. ``spread_support`` (the support at which a prose claim spread over one passage and
    the one or two beside it is grounded; 1.0 turns it off) on the RAGTruth train split.
    """

    grounded_coverage: float = 0.75
    grounded_coverage_anchored: float = 0.5
    contradicted_coverage: float = 0.5
    polarity_coverage: float = 0.7
    fusion_coverage: float = 0.75
    fusion_coverage_record: float = 0.85
    fusion_coverage_content: float = 0.9
    fusion_min_share: float = 0.3
    conflict_margin: float = 0.2
    swap_coverage: float = 0.7
    spread_support: float = 0.55
    max_candidates: int = 24


# -- quantities ------------------------------------------------------------------------------
def to_quantity(d: dict) -> Quantity | None:
    """A :class:`Quantity` from a ``span._.quantity`` dict (extra keys such as ``noun`` ignored)."""
    try:
        return Quantity.from_dict({k: v for k, v in d.items() if k != "noun"})
    except (KeyError, TypeError, ValueError):
        return None


def _same_word(a: str, b: str) -> bool:
    """The same lemma, or two forms of one stem ("quarterly"/"quarter", "closed"/"close",
    "attend"/"attendance"): both share a prefix of at least five letters that leaves at most
    two letters of the shorter one."""
    if a == b:
        return True
    short, long_ = sorted((a, b), key=len)
    n = max(5, len(short) - 2)
    return len(short) >= 5 and long_.startswith(short[:n])


def _wordwise_close(a: str, b: str) -> bool:
    """Two near-identical names differ by spelling, not by a word: every word of each has a
    close word (rapidfuzz ratio >= 80) in the other ("Nadela"/"Nadella", never "University of
    California ..."/"University of Colorado ...")."""
    wa, wb = a.split(), b.split()
    return all(any(fuzz.ratio(x, y) >= 80 for y in wb) for x in wa) and all(any(fuzz.ratio(y, x) >= 80 for x in wa) for y in wb)


def _is_article_one(qd: dict) -> bool:
    """"One reviewer", "one of the best": a spelled-out one is an article, not a count to check."""
    return qd.get("kind") == "number" and qd.get("low") == 1.0 and qd.get("high") == 1.0 and qd.get("text", "").strip().lower() in ("one", "a single")


def _compare(claim: Quantity, source: Quantity, hours: bool = False) -> str:
    """:func:`compare` (``hours``: the source is a line of a record, whose time ranges are
    opening hours), with two rules more: two stated ranges (both ends written, no "about",
    "over") that overlap without either holding the other ("8-10%" against "9-12%") differ — a
    conflict ("around 600 hours" against "over 600 hours" does not); and two time-of-day ranges with
    other ends ("open 11 AM to 9 PM" against "11:0-23:0") differ even when one holds the other."""
    if hours and claim.kind == "measure" and claim.low == claim.high == 86400.0 and source.kind == "time" and source.low == source.high == 0.0:
        return "match"  # "open 24 hours" for Yelp's "0:0-0:0"
    r = compare(claim, source, hours=hours)
    if r == "partial" and claim.kind == source.kind == "time" and claim.low < claim.high and source.low < source.high:
        return "conflict"  # opening hours: both ends are stated, another end is another fact
    stated = all(not q.approx and not math.isinf(q.low) and not math.isinf(q.high) for q in (claim, source))
    if r == "partial" and stated and claim.low < claim.high and source.low < source.high:
        if not (claim.low <= source.low and source.high <= claim.high) and not (source.low <= claim.low and claim.high <= source.high):
            return "conflict"
    return r


def _conflict_credible(claim_q: dict, source_q: dict) -> bool:
    """Whether two values can conflict: not two measures or dates said of two verbs ("rest for 10
    minutes" / "roast for about 20 minutes": two steps of a procedure; "released in 2016" /
    "first heard in 2005": two events — a percent or an amount is reported with many verbs,
    "affected 21%" / "reported by 12%"); two plain counts only when both count the same noun
    ("5 offices" / "56 offices"), or neither counts a noun and both are written in digits and
    at least 10 ("Headcount was 221,000" / "228,000"). Small spelled-out numbers ("one or more joints",
    "the two pieces") are too often not the attribute the source counts."""
    ha, hb = claim_q.get("head"), source_q.get("head")
    if claim_q.get("kind") == source_q.get("kind") and claim_q.get("kind") in ("measure", "date") and ha and hb and not _same_word(ha, hb):
        # "rest for 10 minutes" and "roast for about 20 minutes": two steps, two values; "released
        # in 2016" and "first heard in 2005": two events, two dates
        return False
    kinds = {claim_q.get("kind"), source_q.get("kind")}
    if kinds == {"number", "money"}:
        # "56B" for "$56 billion" is comparable; "four" crew members against "$65 million" is not
        plain = claim_q if claim_q.get("kind") == "number" else source_q
        return not plain.get("noun") and abs(float(plain["low"])) >= 1000
    if kinds != {"number"}:
        return True
    if claim_q.get("noun") and source_q.get("noun"):
        return claim_q["noun"] == source_q["noun"]
    if claim_q.get("noun") or source_q.get("noun"):
        return False
    digits = all(any(ch.isdigit() for ch in q.get("text", "")) for q in (claim_q, source_q))
    return digits and min(abs(float(claim_q["low"])), abs(float(source_q["low"]))) >= 10


def _nouns_compatible(a: dict, b: dict) -> bool:
    """Two values may be compared: they count or measure the same thing, or either names none.
    A noun is one word, or a volume's ingredients (space-separated): one in common will do;
    words alike in their first four letters are one ("cardamom"/"cardamon")."""
    na, nb = a.get("noun"), b.get("noun")
    if not na or not nb or na == nb:
        return True
    return any(x[:4] == y[:4] for x in na.split() for y in nb.split())


# -- the index -------------------------------------------------------------------------------
@dataclass
class Passage:
    """A source passage: its feature record plus the source it belongs to."""

    source: str
    f: Feature
    quantities: list[tuple[dict, Quantity]] = field(default_factory=list)
    lemmas: set[str] = field(default_factory=set)
    prefixes: dict[str, list[str]] = field(default_factory=dict)
    keys: dict[str, dict] = field(default_factory=dict)
    own_keys: dict[str, dict] = field(default_factory=dict)
    prev: int | None = None
    names_own: bool = False
    structured: bool = False
    head: int | None = None
    value: str | None = None
    joined: set[str] = field(default_factory=set)
    text_of: int | None = None
    stars: float | None = None

    @property
    def negated(self) -> bool:
        """The passage denies what it states: a negation cue on its predicate, or — for a line
        of a record — the value ``false``/``no``/``none`` ("attributes outdoor seating: false.")."""
        return bool(self.f["negated"]) or self.value in _FALSE_VALUES


class PassageIndex:
    """Inverted index over the passages of every source of one check.

    Args:
        sources: ``[(source_id, [feature record, ...], structured), ...]`` in source order;
            ``structured`` is True for a linearised JSON record, whose lines are all about the
            record's subject.
        relation_words: canonical lemmas a claim need not find in a structured source
            ("located" for ``city: X``).
        sentiment: review verb (canonical lemma) -> +1 praise / -1 complaint / 0 a verb that frames
            an opinion ("felt", "found").
        canon: word -> canonical member of its synonym group (``models/lexical.json``), so that a
            passage's words written in names ("Barbeque") hold their canonical form too.

    Attributes:
        passages: every passage, in source order.
        entity_keys: every entity key and alias named anywhere in the sources.
        record_words: per structured source, the lemmas of its ``name``/``categories``/``type``
            lines: the words an answer uses for the record's subject ("The Mexican restaurant").
    """

    def __init__(self, sources: list[tuple[str, list[Feature], bool]], relation_words: frozenset[str] = frozenset(),
                 sentiment: dict[str, int] | None = None, canon: dict[str, str] | None = None) -> None:
        self.relation_words = relation_words
        self.sentiment = sentiment or {}
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
        for source_id, records, structured in sources:
            prev: int | None = None
            head: int | None = None
            star_lines: list[tuple[int, float | None]] = []
            for rec in records:
                if not rec["text"].strip():
                    continue
                if not structured and any(a.get("every_day") for a in rec["entities"]):
                    # "6 to 7 hours daily" in prose: a frequency, not the days of opening hours
                    rec = dict(rec, entities=[a for a in rec["entities"] if not a.get("every_day")])
                pid = len(self.passages)
                head = pid if head is None else head
                p = Passage(source=source_id, f=rec, prev=prev, structured=structured, head=head)
                if structured and rec["text"].lower().startswith("attributes "):
                    self.attribute_lines.append(pid)
                if structured and (m := _RECORD_VALUE.search(rec["text"])):
                    p.value = m.group(1).lower()
                if structured:
                    # a free-text value (a review) may run over several sentences: they share the
                    # line that opened it
                    key_line = _RECORD_KEY.match(rec["text"])
                    if key_line and not _RECORD_KIND.match(rec["text"]) and (
                            len(rec["text"][key_line.end():].split()) >= _TEXT_VALUE_WORDS
                            or key_line.group(0).rstrip(": ").lower().endswith(" text")):
                        p.text_of = pid  # a review's text, however short its first sentence ("Zero tears.")
                    elif not key_line and prev is not None:
                        p.text_of = self.passages[prev].text_of
                prev = pid
                self.passages.append(p)
                p.names_own = any(not a.get("inherited") for a in rec["entities"])
                p.lemmas = set(rec["lemmas"])
                words = rec["norm"].split()
                # the words of names too ("Nail Salons" holds "salon"), and compounds written as one
                # word ("take out" holds "takeout", "health care" "healthcare")
                p.joined = {w for w in words if w.isalpha()}
                # a word of letters and digits ("82nd" of "5364 E 82nd St"): the passage reads it
                # as a value, a claim's parse may leave it a word
                p.joined |= {w for w in words if w.isalnum() and not w.isalpha() and not w.isdigit()}
                if structured:  # a record's categories name trades by their gerund ("Waxing", "Towing")
                    p.joined |= {w[:-3] for w in p.joined if len(w) >= 6 and w.endswith("ing")}
                p.joined |= {w[:-1] for w in p.joined if len(w) > 3 and w.endswith("s") and not w.endswith("ss")}
                p.joined |= {a + b for a, b in zip(words, words[1:]) if a.isalpha() and b.isalpha()}
                if canon:  # a name's word in its canonical form too ("Barbeque" holds "barbecue")
                    p.joined |= {canon[w] for w in p.joined if w in canon}
                for word in p.joined - p.lemmas:
                    self.by_lemma.setdefault(word, []).append(pid)
                    if len(word) >= 5:
                        p.prefixes.setdefault(word[:5], []).append(word)
                        self.by_prefix.setdefault(word[:5], set()).add(word)
                if structured and _RECORD_KIND.match(rec["text"]):
                    self.record_words.setdefault(source_id, set()).update(rec["lemmas"])
                for lemma in p.lemmas:
                    df[lemma] = df.get(lemma, 0) + 1
                    self.by_lemma.setdefault(lemma, []).append(pid)
                    if len(lemma) >= 5:
                        p.prefixes.setdefault(lemma[:5], []).append(lemma)
                        self.by_prefix.setdefault(lemma[:5], set()).add(lemma)
                for a in rec["entities"]:
                    if structured and a.get("inherited"):
                        continue  # a line of a record states its own field: "WiFi: no" names nothing for the next line
                    if not a.get("inherited"):
                        self.source_keys.setdefault(source_id, set()).add(a["key"])
                    p.own_keys.setdefault(a["key"], a)
                    for k in (a["key"], *a["aliases"]):
                        p.keys.setdefault(k, a)
                        self.by_key.setdefault(k, []).append(pid)
                        if not a.get("inherited"):
                            self.entity_keys.add(k)
                key_noun = rec["lemmas"][-1] if structured and rec["lemmas"] and _RECORD_NUMBER.search(rec["text"]) else None
                if structured and key_noun == "star" and not _RECORD_KIND.match(rec["text"]) and "business" not in rec["text"].split(":")[0]:
                    star_lines.append((pid, float(rec["quantities"][-1]["low"]) if rec["quantities"] else None))
                elif structured and key_noun == "star" and rec["quantities"] and source_id not in self.business_stars:
                    self.business_stars[source_id] = (pid, float(rec["quantities"][-1]["low"]))  # "business stars: 4.5"
                for qd in rec["quantities"]:
                    if key_noun and not qd.get("noun") and qd.get("kind") == "number":
                        qd = dict(qd, noun=key_noun)  # "business stars: 4.0" counts stars
                    q = to_quantity(qd)
                    if q is not None:
                        p.quantities.append((qd, q))
                        self.by_kind.setdefault(q.kind, []).append(pid)
            # a review's text takes the stars of the review it belongs to: the nearest stars line
            # within three lines of the line that opened the text
            for p in self.passages[head if head is not None else len(self.passages):]:
                if p.text_of is not None and star_lines:
                    dist, stars = min((abs(sp - p.text_of), v) for sp, v in star_lines)
                    p.stars = stars if dist <= 3 else None
        n = max(len(self.passages), 1)
        self.idf = {lemma: math.log(1 + n / c) for lemma, c in df.items()}
        self.max_idf = math.log(1 + n)
        # the field lines of records (not a review's text), where a name may stand without NER
        self.field_lines = [pid for pid, p in enumerate(self.passages) if p.structured and p.text_of is None]

    def weight(self, lemma: str) -> float:
        """IDF weight of a lemma; one absent from the sources weighs as the rarest."""
        return self.idf.get(lemma, self.max_idf)

    def candidates(self, claim: Feature, limit: int) -> list[int]:
        """Passage ids sharing a lemma, an entity key or a quantity kind with the claim, best first
        by the summed weight of what they share (ties by position)."""
        score: dict[int, float] = {}
        for lemma in set(claim["lemmas"]):
            w = self.weight(lemma)
            pids = set(self.by_lemma.get(lemma, ()))
            if len(lemma) >= 5:  # another form of the word ("catering" / "caters")
                for word in self.by_prefix.get(lemma[:5], ()):
                    if word != lemma and _same_word(lemma, word):
                        pids.update(self.by_lemma.get(word, ()))
            for pid in pids:
                score[pid] = score.get(pid, 0.0) + w
        for a in claim["entities"]:
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
            for pid in named:
                score[pid] = score.get(pid, 0.0) + self.max_idf
        for qd in claim["quantities"]:
            q = to_quantity(qd)
            if q is None:
                continue
            for pid in self.by_kind.get(q.kind, ()):
                score[pid] = score.get(pid, 0.0) + 0.5
            if q.kind == "number":
                for pid in self.by_kind.get("money", ()):
                    score[pid] = score.get(pid, 0.0) + 0.5
        ranked = sorted(score.items(), key=lambda kv: (-kv[1], kv[0]))
        return [pid for pid, _ in ranked[:limit]]


# -- alignment of one claim with one passage -------------------------------------------------
@dataclass
class Alignment:
    """How one passage bears on one claim."""

    pid: int
    coverage: float
    ents_found: list[dict]
    ents_missing: list[dict]
    inherited_blocked: bool
    q_match: list[dict]
    q_conflict: list[tuple[dict, dict]]
    q_absent: list[dict]
    polarity_flip: bool
    antonym: tuple[str, str] | None
    swap: tuple[dict, dict] | None = None
    q_partial: list[dict] = field(default_factory=list)
    ents_direct: list[dict] = field(default_factory=list)

    @property
    def anchors_ok(self) -> bool:
        return not self.ents_missing and not self.inherited_blocked

    @property
    def partial(self) -> float:
        n = len(self.ents_found) + len(self.ents_missing) + len(self.q_match) + len(self.q_conflict) + len(self.q_absent)
        found = len(self.ents_found) + len(self.q_match)
        share = found / n if n else self.coverage
        return (self.coverage + share) / 2


class Verifier:
    """Applies the verdict rules (module docstring) to claims against a :class:`PassageIndex`.

    Args:
        thresholds: the tunables.
        opposed: ``opposed(a, b) -> bool``, True when two canonical predicate lemmas are
            antonyms (:meth:`sourced_nlp.components.passages.Lexical.opposed`).
        locate: ``locate(quote, text) -> match | None`` for quotes
            (:func:`sourced_nlp.citations.locate`).
        meta_words: lemmas a claim uses to point at its sources or link sentences ("as
            mentioned in passage 1"), left out of its content.
    """

    def __init__(
        self,
        thresholds: Thresholds,
        opposed: Callable[[str, str], bool],
        locate: Callable[[str, str], Any],
        meta_words: frozenset[str] = frozenset(),
    ) -> None:
        self.t = thresholds
        self.opposed = opposed
        self.locate = locate
        self.meta_words = meta_words

    # lemma and entity matching
    @staticmethod
    def _lemma_in(lemma: str, p: Passage) -> bool:
        if lemma in p.lemmas or lemma in p.joined:
            return True
        if len(lemma) >= 5:
            return any(_same_word(lemma, other) for other in p.prefixes.get(lemma[:5], ()))
        return False

    @staticmethod
    def _entity_in(a: dict, p: Passage) -> bool:
        keys = (a["key"], *a["aliases"])
        # a key against every form the passage's name goes by; an alias (an acronym) only against
        # the passage's own key — two long names with the same initials are not one name
        if a["key"] in p.keys or any(k in p.own_keys for k in a["aliases"]):
            return True
        for k in keys:
            if len(k) >= 2 and f" {k} " in p.f["norm"]:
                return True
        words = a["key"].split()
        for pk, pa in p.keys.items():
            pwords = pk.split()
            if len(words) > 1 and len(pwords) == 1 and words[-1] == pk and a["label"] == pa["label"] == "PERSON":
                return True  # "James Holmes" in a passage that calls him "Holmes"
            if len(words) == 1 and len(pwords) > 1 and (pwords[-1] == words[0] or pwords[0] == words[0]):
                if not a["label"] or not pa["label"] or a["label"] == pa["label"] or a["label"] in ("PERSON", "ORG") and pa["label"] in ("PERSON", "ORG"):
                    return True
            if len(a["key"]) >= 6 and fuzz.ratio(a["key"], pk) >= 90 and _wordwise_close(a["key"], pk):
                return True
        return False

    @staticmethod
    def _polarity_agrees(claim: Feature, p: Passage) -> bool:
        """The passage can state the claim as far as negation goes: both affirm; both deny the same
        predicate ("did not arrest" is not stated by "did not name the driver who was arrested"); or
        the claim affirms and the passage's denial is on a predicate the claim does not use
        ("Prosecutors are seeking the death penalty" from "..., and they did not rule out an
        appeal"). A denying claim always needs a denying passage; a record's false/no line
        always denies."""
        if claim["negated"] and p.negated and not p.structured:
            a, b = claim.get("negated_predicate"), p.f.get("negated_predicate")
            return not a or not b or _same_word(a, b) or _compound_of(a, b) or a in _LIGHT_DENIALS or b in _LIGHT_DENIALS
        if claim["negated"] == p.negated:
            return True
        if claim["negated"] or p.structured:
            return False
        denied = p.f.get("negated_predicate")
        if not denied:
            # "no blackout dates", "without Wayne": an argument denied; the claim agrees when it
            # carries the same denial outside its main clause ("such as no blackout dates")
            phrase = _cue_phrase(p.f)
            return bool(phrase) and phrase in " ".join(claim["norm"].split())
        return not any(_same_word(denied, x) for x in (*claim["predicates"], *claim["lemmas"]))

    def _polarity_fits(self, claim: Feature, al: Alignment, p: Passage, sides: tuple[str, str] | None, index: PassageIndex) -> bool:
        """A passage may join a fusion as far as negation goes: it agrees with the claim's
        polarity; or — a line of a record against a claim of both polarities ("offers takeout, but
        does not offer delivery or Wi-Fi") — the claim words the line holds stand on the line's
        side of the claim's negation cue (before it for a true line, after it for a false one)."""
        if sides is not None and p.structured and p.value in _FALSE_VALUES | _TRUE_VALUES:
            side = sides[1] if p.negated else sides[0]
            words = [x for x in claim["lemmas"] if x not in index.relation_words and self._lemma_in(x, p)]
            return bool(words) and all(_in_words(x, side) for x in words)
        return not al.polarity_flip and self._polarity_agrees(claim, p)

    def _predicate_missing(self, claim: Feature, p: Passage, index: PassageIndex) -> bool:
        """A main predicate of the claim (root and the verbs it coordinates, "waited",
        "complained") is not in the passage — relation words of a record and meta words aside.
        Used for records only: on the RAGTruth train split (prose) the rule cost 120 correct
        groundings for 3 hallucinated ones, since prose sources paraphrase their predicates."""
        return any(
            not self._word_in(x, p, index) and x not in self.meta_words and not (p.structured and x in index.relation_words)
            for x in claim["predicates"]
        )

    def _about_subject(self, subject: list[str], p: Passage, index: PassageIndex) -> bool:
        """The passage speaks of the claim's subject (lemmas of its subject noun phrase): it holds
        one of them, or it is a line of a record and the subject names the record itself ("The
        restaurant", "This Mexican spot": a relation word or a word of its name/categories)."""
        if any(self._lemma_in(x, p) for x in subject):
            return True
        return p.structured and any(
            x in index.relation_words or x in index.record_words.get(p.source, ()) for x in subject
        )

    def _entity_found(self, a: dict, pid: int, index: PassageIndex, depth: int = 2) -> bool:
        """The anchor is named in the passage, or — for a passage that names nothing itself
        ("The firm has 56 offices") — in the one or two passages before it in its source."""
        p = index.passages[pid]
        if self._entity_in(a, p):
            return True
        if p.structured:
            # a record is about one subject, named on its first line ("name: Finch & Fork.");
            # any other name (a weekday, a city) must be on the line itself
            return p.head is not None and p.head != pid and self._entity_in(a, index.passages[p.head])
        if a.get("label") in _SETTING_LABELS and any(k in index.source_keys.get(p.source, ()) for k in (a["key"], *a["aliases"])) and not any(
                b.get("label") == a["label"] and not b.get("inherited") for b in p.f["entities"]):
            return True  # the place the source is set in ("Yemen"), where the passage names no other place
        if depth and not p.names_own and p.prev is not None:
            return self._entity_found(a, p.prev, index, depth - 1)
        return False

    @staticmethod
    def _review_agrees(lemma: str, p: Passage, index: PassageIndex) -> bool:
        """A review verb of the claim ("praised", "complained") agrees with the review the
        passage is from: a positive verb with a review of 4 stars or more, a negative one with 3
        stars or fewer (a 3-star review is mixed: its praise is faint, its complaints real); a
        neutral verb that frames an opinion ("felt", "found", "citing") with any review
        (``models/lexical.json`` review verbs); never for a review without stars."""
        side = index.sentiment.get(lemma)
        if side is None or p.stars is None:
            return False
        if side == 0:
            return True  # "one guest felt ...", "citing ...": the review is the opinion it frames
        return p.stars >= 4 if side > 0 else p.stars <= 3

    def _word_in(self, lemma: str, p: Passage, index: PassageIndex) -> bool:
        """:meth:`_lemma_in`, or a review verb that agrees with the passage's review."""
        return self._lemma_in(lemma, p) or self._review_agrees(lemma, p, index)

    def coverage(self, lemmas: list[str], p: Passage, index: PassageIndex) -> float:
        """IDF-weighted share of ``lemmas`` that the passage holds (1.0 for no lemmas)."""
        total = found = 0.0
        for lemma in set(lemmas):
            if p.structured and lemma in index.relation_words:
                continue
            if p.stars is not None and index.sentiment.get(lemma) == 0:
                continue  # "one guest felt ...": a frame states nothing a review could hold
            w = index.weight(lemma)
            total += w
            if self._word_in(lemma, p, index):
                found += w
        return found / total if total else 1.0

    def align(self, claim: Feature, cq: list[tuple[dict, Quantity]], pid: int, index: PassageIndex) -> Alignment:
        """Compare one claim with one passage (see :class:`Alignment`)."""
        p = index.passages[pid]
        own = [a for a in claim["entities"] if not a.get("inherited")]
        inherited = [a for a in claim["entities"] if a.get("inherited")]
        found = [a for a in own if self._entity_found(a, pid, index)]
        missing = [a for a in own if a not in found]
        # a claim that took its subject from the sentence before ("It grew 40%") is not about a
        # passage whose own subject is another name of the same type
        other_subject = any(
            not b.get("inherited") and b["role"] == "subj" and not any(self._entity_in(b, _single(c)) for c in claim["entities"])
            for b in p.f["entities"]
        )
        blocked = not p.structured and other_subject and any(
            a.get("refers_back") and a["role"] == "subj" and not self._entity_found(a, pid, index) for a in inherited
        )
        q_match: list[dict] = []
        q_conflict: list[tuple[dict, dict]] = []
        q_absent: list[dict] = []
        q_partial: list[dict] = []
        outcomes = [[_compare(q, s, hours=p.structured) if _nouns_compatible(qd, sd) else "incomparable" for sd, s in p.quantities]
                    for qd, q in cq]
        used = {j for row in outcomes for j, r in enumerate(row) if r == "match"}
        for (qd, q), row in zip(cq, outcomes):
            best, against = "absent", None
            for j, r in enumerate(row):
                sd = p.quantities[j][0]
                if r == "match":
                    best = "match"
                    break
                if r == "conflict" and best == "absent" and j not in used and _conflict_credible(qd, sd):
                    best, against = "conflict", sd
                elif r == "partial":
                    best, against = "partial", sd
            if best == "match":
                q_match.append(qd)
            elif best == "conflict":
                q_conflict.append((qd, against))
            else:
                q_absent.append(qd)
                if best == "partial":
                    q_partial.append(qd)
        lemmas = claim["lemmas"]
        if any(qd.get("kind") == "money" for qd in [*q_match, *(c for c, _ in q_conflict)]):
            lemmas = [x for x in lemmas if x not in _MONEY_WORDS]  # "costs $9" against "is $9" (or "is $12")
        cov = self.coverage(lemmas, p, index)
        flip = False
        if p.structured and p.value in _FALSE_VALUES | _TRUE_VALUES:
            flip = claim["negated"] != p.negated
        elif claim["negated"] != p.f["negated"]:
            negated, other = (claim, p.f) if claim["negated"] else (p.f, claim)
            flip = (
                bool(negated.get("negated_predicate"))
                and any(_same_word(negated["negated_predicate"], x) for x in other["predicates"])
                and not claim.get("contrast") and not p.f.get("contrast")  # "not A, but B": mixed polarity
            )
        antonym = None
        for x in claim["predicates"]:
            for y in p.f["predicates"]:
                if x != y and self.opposed(x, y) and x not in p.f["predicates"] and y not in claim["predicates"]:
                    antonym = (x, y)
                    break
            if antonym:
                break
        if antonym and any(self.opposed(z, antonym[1]) for z in p.f["lemmas"]):
            antonym = None  # the passage says both ("net income fell; it raises its dividend"): of two things
        direct = [a for a in found if self._entity_in(a, p)]
        return Alignment(pid, cov, found, missing, blocked, q_match, q_conflict, q_absent, flip, antonym,
                         q_partial=q_partial, ents_direct=direct)

    # the verdict
    def verify(self, claim: Feature, index: PassageIndex, source_texts: dict[str, str]) -> dict:
        """Verdict of one claim.

        Args:
            claim: the claim's feature record.
            index: the passages of every source of this check.
            source_texts: ``{source_id: text}``, for locating quotes.

        Returns:
            ``{"verdict", "reason", "support", "evidence": [{"source","start","end","text"}],
            "differs": [{"claim","source","kind"}]}``.
        """
        if self.meta_words:
            claim = dict(claim, lemmas=[x for x in claim["lemmas"] if x not in self.meta_words],
                         subject=[x for x in claim.get("subject") or () if x not in self.meta_words])
        if not index.has_records and any(a.get("every_day") for a in claim["entities"]):
            # "daily" names the days of opening hours; in prose it is a frequency, not seven names
            claim = dict(claim, entities=[a for a in claim["entities"] if not a.get("every_day")])
        if index.has_records and any(a["key"] in _PLATFORMS for a in claim["entities"]):
            claim = dict(claim, entities=[a for a in claim["entities"] if a["key"] not in _PLATFORMS])
        if index.has_records:
            # "Takeout and delivery are available", "offers free Wi-Fi": a capitalised word the
            # tagger took for a name (no NER label), whose words are those of a field of the record
            as_words = {id(a): w for a in claim["entities"]
                        if not a.get("inherited") and not a["label"] and (w := self._record_words(a["key"], index))}
            if as_words:
                claim = dict(claim, entities=[a for a in claim["entities"] if id(a) not in as_words],
                             lemmas=[*claim["lemmas"], *(w for ws in as_words.values() for w in ws)])
        if index.business_stars and (m := _HIGH_PRAISE.search(claim["text"])):
            rated = self._rating_level(m.group(0), index)
            if rated is not None:
                return rated
        if len(index.business_stars) == 1 and (judged := list(_RATING_PHRASE.finditer(claim["text"]))):
            claim, rated = self._rating_words(claim, judged, index)
            if rated is not None:
                return rated
        if index.has_records and _CLOSED.search(claim["text"]) and not claim["negated"]:
            closed = self._closed_days(claim, index)
            if closed is not None:
                return closed
        if not claim["lemmas"] and not claim["entities"] and not claim["quantities"]:
            return _result("unverified", "nothing to check: no content word, name or number", 0.15)
        cq = [(qd, q) for qd in claim["quantities"] if (q := to_quantity(qd)) is not None and not _is_article_one(qd)]
        for quote in claim["quotes"]:
            if not any(self.locate(quote, text) for text in source_texts.values()):
                return _result("unverified", f'quote not found in any source: "{quote}"', 0.15)
        pids = index.candidates(claim, self.t.max_candidates)
        if not pids:
            # a record's attribute the claim names without a word of its line ("Takeout is
            # available" against "take out: False") is still denied
            return self._contradiction(claim, [], index, False) or _result("unverified", "no source passage is about this claim", 0.15)
        aligns = [self.align(claim, cq, pid, index) for pid in pids]
        has_anchor = bool(cq) or any(not a.get("inherited") for a in claim["entities"])

        # 1. grounded by one passage
        grounded = []
        for al in aligns:
            p = index.passages[al.pid]
            if not al.anchors_ok or al.q_conflict or al.q_absent or al.polarity_flip or al.antonym:
                continue
            if not self._polarity_agrees(claim, p):
                continue
            if claim.get("subject") and al.q_match and p.f.get("subject") and not al.ents_direct and not self._about_subject(claim["subject"], p, index):
                # "Costs rose 8%" is not stated by "Revenue rose 8%": a value said of another subject.
                # Only a matched value is bound to its subject this way; a claim of words alone
                # needs most of its words anyway (train: 16 clean sentences, no hallucinated one)
                continue
            anchored = bool(al.q_match) or bool(al.ents_direct)  # named on this passage, not carried over
            need = self.t.grounded_coverage_anchored if anchored else self.t.grounded_coverage
            if p.structured and al.coverage < self.t.grounded_coverage and self._predicate_missing(claim, p, index):
                continue  # a record's review: its names and values are there, not what the claim says they did
            if al.coverage >= need:
                grounded.append(al)
        if grounded:
            best = max(grounded, key=lambda a: (a.coverage, -a.pid))
            p = index.passages[best.pid]
            if claim["hedged"] and not p.f["hedged"]:
                return _result("unverified", "the claim is hedged; the source states it without a hedge", 0.5,
                               [self._evidence(p)])
            return _result("grounded", "stated in the source", 0.7 + 0.3 * min(1.0, best.coverage), [self._evidence(p)])

        # 2. contradicted by a passage about the same thing
        contra = self._contradiction(claim, aligns, index, has_anchor)
        if contra is not None:
            return contra

        # 3. grounded by two passages together
        fused = self._fusion(claim, cq, aligns, index)
        if fused is not None:
            return fused

        # 4. unverified, with the reason
        best = max(aligns, key=lambda a: (a.partial, -a.pid))
        support = (0.15 + _SUPPORT_BEST * best.partial + _SUPPORT_SPREAD * self._spread(claim, cq, aligns, index)
                   - self._novelty(claim, index))
        reason = self._reason(claim, best, aligns, index)
        if support >= self.t.spread_support and reason.startswith("too little"):
            spread = self._spread_grounding(claim, best, aligns, index, support)
            if spread is not None:
                return spread
        return _result("unverified", reason, max(0.15, support))

    def _spread_grounding(self, claim: Feature, best: Alignment, aligns: list[Alignment], index: PassageIndex,
                          support: float) -> dict | None:
        """Ground a prose claim whose best passage holds most of it, all its names and values,
        and whose other words the candidate passages hold: ``support`` >= ``spread_support``
        (``_SUPPORT_BEST`` x the best passage's share + ``_SUPPORT_SPREAD`` x the candidates'
        share, less what no source holds). The evidence is the best passage and the one or two
        passages that add most of the rest. Never for a record (its lines share words with any
        overview), a hedge the source lacks, or a passage that conflicts with the claim or denies
        it. Threshold set on the RAGTruth train split: 0.55 grounds 20 more clean sentences and
        no hallucinated one (coverage 46.1% -> 46.9%); 0.5 grounds 33 more and 1 hallucinated,
        0.6 none. The record cases and dev sets are unchanged."""
        p = index.passages[best.pid]
        if (p.structured or not best.anchors_ok or best.q_conflict or best.q_absent or best.q_partial
                or best.polarity_flip or best.antonym or best.inherited_blocked or best.coverage < self.t.contradicted_coverage):
            return None
        if claim["hedged"] and not p.f["hedged"]:
            return None
        lemmas = set(claim["lemmas"])
        missing = {x for x in lemmas if not self._word_in(x, p, index)}
        chosen = [best.pid]
        for _ in range(2):
            def adds(al: Alignment) -> float:
                q = index.passages[al.pid]
                if al.pid in chosen or q.structured or al.q_conflict or al.polarity_flip or al.antonym or not self._polarity_agrees(claim, q):
                    return 0.0
                return sum(index.weight(x) for x in missing if self._lemma_in(x, q))
            more = max(aligns, key=lambda al: (adds(al), -al.pid))
            if adds(more) <= 0:
                break
            chosen.append(more.pid)
            missing = {x for x in missing if not self._lemma_in(x, index.passages[more.pid])}
        total = sum(index.weight(x) for x in lemmas)
        if total and sum(index.weight(x) for x in missing) / total > 1.0 - self.t.fusion_coverage_content:
            return None  # a word of the claim that none of them holds ("the bribery case")
        chosen.sort()
        reason = "stated in the source" if len(chosen) == 1 else f"stated across {len(chosen)} source passages"
        return _result("grounded", reason, min(support, 0.69), [self._evidence(index.passages[pid]) for pid in chosen])

    def _closed_days(self, claim: Feature, index: PassageIndex) -> dict | None:
        """A claim that a record's business is closed on named days ("closed on Mondays"),
        against the record's opening hours: a named day with a line of hours contradicts it (the
        record gives that day's hours); when none has one and the claim says nothing more, it is
        unverified: hours that leave a day out do not say the business is closed then (the
        reading of the hand-written record cases). None (checked as usual) for a record without
        hours, a claim that names no day or gives a time."""
        days = [a for a in claim["entities"] if a.get("label") == "DAY" and not a.get("inherited") and not a.get("every_day")]
        lines = [p for p in index.passages if p.structured and _hours_line(p)]
        if not days or not lines or any(qd.get("kind") == "time" for qd in claim["quantities"]):
            return None
        for a in days:
            for p in lines:
                if self._entity_in(a, p):
                    hours = _line_value_text(p)
                    differs = [{"claim": f"closed on {a['text']}", "source": hours, "kind": "quantity"}]
                    return _result("contradicted", f"the record gives {hours} for {a['text']}", 0.05, [self._evidence(p)], differs)
        rest = [x for x in claim["lemmas"] if x not in index.relation_words and x != "close"]
        if rest or any(a not in days and not a.get("inherited") and not any(self._entity_in(a, p) for p in index.passages if p.structured)
                       for a in claim["entities"]):
            return None  # more than the closed days, or a name the record does not hold
        names = ", ".join(a["text"] for a in days)
        return _result("unverified", f"the record's opening hours leave out {names}; they do not say it is closed", 0.4)

    @staticmethod
    def _record_words(key: str, index: PassageIndex) -> list[str] | None:
        """The words of a name's key as one field line of a record holds them all ("free wi fi"
        -> ``["free", "wifi"]`` for "attributes wifi: free.": two words may be one of the line's);
        None when no line holds them all. A review's text is no field line: the names in it are
        names ("a walk to the French Quarter")."""
        words = key.split()

        def held(p: Passage) -> list[str] | None:
            out: list[str] = []
            i = 0
            while i < len(words):
                if words[i] in p.joined or words[i] in p.lemmas:
                    out.append(words[i])
                    i += 1
                elif i + 1 < len(words) and (words[i] + words[i + 1] in p.joined or words[i] + words[i + 1] in p.lemmas):
                    out.append(words[i] + words[i + 1])
                    i += 2
                else:
                    return None
            return out

        return next((got for p in index.passages if p.structured and p.text_of is None and (got := held(p)) is not None), None)

    def _rating_level(self, phrase: str, index: PassageIndex) -> dict | None:
        """A claim that calls a record's business highly rated ("highly rated", "top-rated")
        against the record's stars: below 3.5 the record says otherwise (contradicted), at 3.5 it
        does not say so (unverified); from 4 stars on the phrase holds and the claim is checked as
        usual (None). Only for a single record among the sources."""
        if len(index.business_stars) != 1:
            return None
        pid, stars = next(iter(index.business_stars.values()))
        p = index.passages[pid]
        if stars >= _HIGHLY_RATED:
            return None
        if stars < _HIGHLY_RATED - 0.5:
            return _result("contradicted", f"'{phrase}' for a business of {stars:g} stars", 0.05, [self._evidence(p)],
                           [{"claim": phrase, "source": f"{stars:g} stars", "kind": "quantity"}])
        return _result("unverified", f"'{phrase}' for a business of {stars:g} stars: the record does not say so", 0.3,
                       [self._evidence(p)])

    def _rating_words(self, claim: Feature, judged: list[re.Match], index: PassageIndex) -> tuple[Feature, dict | None]:
        """The adjectives that judge the stars of the one record among the sources ("an
        impressive 4.5-star rating"), against those stars and the adjective's range of
        ``models/records.json`` rating words (in stars of 5).

        Returns:
            ``(claim, None)`` with each adjective that fits the stars taken out of the claim's
            lemmas (the rest of the claim is checked as usual); or ``(claim, verdict)`` for the
            first that does not fit: contradicted when the stars are a star or more outside its
            range ("a low rating" for 4.5 stars), unverified when half a star.
        """
        pid, stars = next(iter(index.business_stars.values()))
        lemmas = list(claim["lemmas"])
        for m in judged:
            word = m.group(1).lower()
            lo, hi = _RATING_WORDS[word]
            off = max(lo - stars, stars - hi, 0.0)
            if off == 0.0:
                if word in lemmas:
                    lemmas.remove(word)
                continue
            p = index.passages[pid]
            if off >= 1.0:
                return claim, _result("contradicted", f"'{m.group(0)}' for a business of {stars:g} stars", 0.05,
                                      [self._evidence(p)], [{"claim": m.group(0), "source": f"{stars:g} stars", "kind": "quantity"}])
            return claim, _result("unverified", f"'{m.group(0)}' for a business of {stars:g} stars: the record does not say so",
                                  0.3, [self._evidence(p)])
        return dict(claim, lemmas=lemmas), None

    def _novelty(self, claim: Feature, index: PassageIndex) -> float:
        """What an unverified claim's support loses for what no source holds anywhere:
        ``_SUPPORT_NOVEL_WORDS`` x the IDF-weighted share of its content lemmas found in no passage
        (in no form of the word) + ``_SUPPORT_NOVEL_NAME`` x each of its own names no source
        mentions (at most three). Weights set on the RAGTruth train split (support ROC-AUC 0.809 ->
        0.818) and checked on the hand-written record cases (0.907 -> 0.917)."""
        lemmas = set(claim["lemmas"])
        total = sum(index.weight(x) for x in lemmas)
        unseen = sum(index.weight(x) for x in lemmas if x not in index.idf and not (
            len(x) >= 5 and any(_same_word(x, w) for w in index.by_prefix.get(x[:5], ()))))
        names = sum(1 for a in claim["entities"] if not a.get("inherited")
                    and not any(k in index.entity_keys for k in (a["key"], *a["aliases"])))
        return _SUPPORT_NOVEL_WORDS * (unseen / total if total else 0.0) + _SUPPORT_NOVEL_NAME * min(3, names)

    def _spread(self, claim: Feature, cq: list, aligns: list[Alignment], index: PassageIndex) -> float:
        """How much of the claim the candidate passages hold between them, in [0, 1]: the mean of
        the IDF-weighted share of its content lemmas found in any of them and the share of its
        names and values found in any of them (a value only where no passage conflicts with it)."""
        lemmas = set(claim["lemmas"])
        total = sum(index.weight(x) for x in lemmas)
        found = sum(index.weight(x) for x in lemmas if any(self._lemma_in(x, index.passages[al.pid]) for al in aligns))
        words = found / total if total else 1.0
        own = [a for a in claim["entities"] if not a.get("inherited")]
        got = sum(1 for a in own if any(a in al.ents_found for al in aligns))
        got += sum(1 for qd, _ in cq if any(any(qd is m for m in al.q_match) for al in aligns)
                   and not any(any(qd is c for c, _ in al.q_conflict) for al in aligns))
        n = len(own) + len(cq)
        return (words + (got / n if n else words)) / 2

    def _contradiction(self, claim: Feature, aligns: list[Alignment], index: PassageIndex, has_anchor: bool) -> dict | None:
        found: list[tuple[float, Alignment, list[dict], str]] = []
        cq = [(qd, q) for qd in claim["quantities"] if (q := to_quantity(qd)) is not None]
        day_times = _day_times(claim, cq) if index.has_records and any(q.kind == "time" for _, q in cq) else None
        affirmed = claim
        if index.attribute_lines and _NEGATION_WORD.search(claim["text"].lower()):
            # a claim of both polarities affirms what lies outside its denied clauses
            sides = _polarity_sides(claim)
            affirmed = None if sides is None else dict(
                claim, text=sides[0], lemmas=[x for x in claim["lemmas"] if _in_words(x, sides[0])])
        if index.attribute_lines and affirmed is not None:
            # every attribute line of a record, not only the candidates: "serves beer" shares no
            # word with "attributes alcohol: none."
            for pid in index.attribute_lines:
                p = index.passages[pid]
                other = _other_value(affirmed, p)
                if other:
                    differs = [{"claim": other, "source": _line_value_text(p), "kind": "value"}]
                    found.append((1.0, self.align(claim, [], pid, index), differs,
                                  f"the record gives {differs[0]['source']} where the claim says {other}"))
                elif p.value in _FALSE_VALUES and self._states_field(affirmed, p, index):
                    # "It also accepts reservations for large parties" against "reservations:
                    # False": the claim affirms a field the record denies, whatever else it adds
                    differs = [{"claim": "affirmed", "source": p.value, "kind": "polarity"}]
                    found.append((1.0, self.align(claim, [], pid, index), differs,
                                  f"the record says '{p.value}' for {p.f['text'].split(':')[0].strip()}"))
        for al in aligns:
            p = index.passages[al.pid]
            # a line of opening hours speaks of its own day: the claim's other days do not matter
            other_days_only = p.structured and _hours_line(p) and any(a.get("label") == "DAY" for a in al.ents_direct) and all(
                a.get("label") == "DAY" for a in al.ents_missing)
            if (not al.ents_missing or other_days_only) and al.coverage >= self.t.contradicted_coverage:
                # a value conflict in prose needs the passage to be about the same thing: a name or
                # another value of the claim on it, a value counting the same noun ("21% of
                # patients" / "12% of patients"), or most of the claim's words ("cook for 5 minutes"
                # against another step's "cook for 10 minutes" is no conflict)
                anchored = (p.structured or al.ents_found or al.q_match or al.coverage >= _UNANCHORED_CONFLICT
                            or any(qd.get("noun") and qd.get("noun") == sd.get("noun") for qd, sd in al.q_conflict))
                conflicts = _own_day_conflicts(day_times, al, p)
                if conflicts and anchored and self._conflict_stands(al, aligns):
                    qd, sd = conflicts[0]
                    differs = [{"claim": qd.get("text", ""), "source": sd.get("text", ""), "kind": "quantity"} for qd, sd in conflicts]
                    found.append((al.coverage, al, differs, f"the source gives {sd.get('text')} where the claim says {qd.get('text')}"))
                    continue
                if al.polarity_flip and al.coverage >= self.t.polarity_coverage and not al.q_conflict:
                    claim_side = claim["cue"] or "affirmed"
                    src = p.f["cue"] or (p.value if p.structured and p.value else "affirmed")
                    differs = [{"claim": claim_side, "source": src, "kind": "polarity"}]
                    found.append((al.coverage, al, differs, f"opposite polarity: the source says '{src}' where the claim says '{claim_side}'"))
                    continue
                if al.antonym:
                    rest = [x for x in claim["lemmas"] if x != al.antonym[0]]
                    if self.coverage(rest, p, index) >= 0.6:
                        differs = [{"claim": al.antonym[0], "source": al.antonym[1], "kind": "antonym"}]
                        found.append((al.coverage, al, differs, f"the source says '{al.antonym[1]}' where the claim says '{al.antonym[0]}'"))
                        continue
            if len(al.ents_missing) == 1 and not al.q_conflict and al.coverage >= self.t.swap_coverage and not al.polarity_flip:
                a = al.ents_missing[0]
                if not a["label"] or a["label"] == "DAY":
                    continue  # a run of capitalised words the NER did not call a name; a weekday
                if any(k in index.entity_keys for k in (a["key"], *a["aliases"])):
                    continue  # the claim's name is in the sources: they may just be silent on this
                other = [
                    b for b in p.f["entities"]
                    if not b.get("inherited") and b["role"] == a["role"] and (b["label"] == a["label"] or not a["label"])
                    and not any(self._entity_in(b, _single(c)) for c in claim["entities"])
                ]
                # the passage is about the same thing: it holds another name or value of the claim,
                # or nearly all of at least _SWAP_MIN_WORDS of its words ("announced by CEO Sundar
                # Pichai" / "announced by CEO Satya Nadella"); never when it lacks one of the claim's
                # values ("Donald Trump served one term from 2017 to 2021" is no swap with a
                # passage on Grover Cleveland that gives neither)
                if other and not al.q_absent and (
                        al.ents_found or al.q_match or (al.coverage >= 0.9 and len(set(claim["lemmas"])) >= _SWAP_MIN_WORDS)):
                    b = other[0]
                    differs = [{"claim": a["text"], "source": b["text"], "kind": "entity"}]
                    found.append((al.coverage - 0.01, al, differs, f"the source names {b['text']} where the claim names {a['text']}"))
        if not found:
            return None
        cov, al, differs, reason = max(found, key=lambda x: (x[0], -x[1].pid))
        p = index.passages[al.pid]
        return _result("contradicted", reason, 0.1 * (1 - cov), [self._evidence(p)], differs)

    def _states_field(self, claim: Feature, p: Passage, index: PassageIndex) -> bool:
        """The claim names the field of a record's line: every distinctive word of the line's key
        ("attributes restaurants reservations" -> "reservations"; "business parking lot" ->
        "parking", "lot") is a word of the claim (or, through the line's lemma, one of its lemmas:
        "kids" / "children"). The generic words of Yelp's attribute keys do not count; a key of a
        restriction or a denial ("by appointment only", "music no music") is never stated this way
        (its false value permits, it does not deny); only the lines of ``attributes`` count."""
        key = p.f["text"].split(":")[0].lower()
        words = re.findall(r"[a-z]+", key)
        if not p.value or not words or words[0] != "attributes" or any(w in ("only", "no", "not", "without") for w in words):
            return False  # an attribute's line only: "hours: None" is a record without hours, no denial
        words = [w for w in words if w not in _GENERIC_KEY_WORDS]
        if not words:
            return False
        text, tokens, written = _claim_words(claim["text"])
        said = set(tokens)
        if any(v in written and v not in said for w in words for v in (w, f"{w}s")):
            return False  # the key's word is in the claim only as a false friend
        if "".join(words) in said:
            return True  # "takeout" for "take out"
        positions: list[list[int]] = []
        for w in words:
            hits = [i for i, t in enumerate(tokens) if t in (w, w.rstrip("s"), f"{w}s")]
            if hits:
                positions.append(hits)
                continue
            if any(re.search(rf"\b{re.escape(x)}s?\b", text) for x in _FIELD_WORDS.get(w, ())):
                continue
            forms = {x for x in p.f["lemmas"] if _in_words(x, w)} | {index.canon.get(v, v) for v in (w, w.rstrip("s"))}
            if not any(x in claim["lemmas"] for x in forms):
                return False
        # the words of the key stand together ("live music", "parking lot"), not apart ("takes
        # reservations ... a great night out" is no "take out")
        return not positions or any(max(c) - min(c) <= _KEY_SPAN for c in itertools.product(*positions))

    def _conflict_stands(self, al: Alignment, aligns: list[Alignment]) -> bool:
        """A value conflict stands unless a passage aligned almost as well (within
        ``conflict_margin`` of coverage) holds the claim's value."""
        conflicting = [id(qd) for qd, _ in al.q_conflict]
        for other in aligns:
            if other is al or other.ents_missing:
                continue
            if any(id(m) in conflicting for m in other.q_match) and other.coverage >= al.coverage - self.t.conflict_margin:
                return False
        return True

    def _fusion(self, claim: Feature, cq: list, aligns: list[Alignment], index: PassageIndex) -> dict | None:
        """:meth:`_fusion_of` the candidate passages; for a claim about one person or thing ("One
        customer ...") that they do not ground, again with the lines of one review at a time (and
        the record's field lines), so that a sentence of another review that shares a word ("they
        forgot our iced tea") does not take the place of the review it tells."""
        fused = self._fusion_of(claim, cq, aligns, index)
        if fused is not None or not claim.get("one_subject"):
            return fused
        reviews = sorted({index.passages[al.pid].text_of for al in aligns} - {None})
        if len(reviews) < 2:
            return None
        for review in reviews:
            own = [al for al in aligns if index.passages[al.pid].text_of in (None, review)]
            fused = self._fusion_of(claim, cq, own, index)
            if fused is not None and fused["verdict"] == "grounded":
                return fused
        return None

    def _fusion_of(self, claim: Feature, cq: list, aligns: list[Alignment], index: PassageIndex) -> dict | None:
        """Ground a claim that fuses facts from several passages: greedily pick the passage that
        adds the most of what is still missing. A passage must add a name or value the others lack
        (a fact of its own), a word of the claim (a line of a record: each line states one field),
        or — for prose — at least ``fusion_min_share`` of the claim's weighted content (a
        summary sentence compressing two source sentences). At most two passages of prose,
        ``_FUSION_RECORD_LINES`` lines of one record (each line states one field). Every name
        and value of the claim must be covered, and ``fusion_coverage`` of its content
        (``fusion_coverage_record`` for records; ``fusion_coverage_content`` when a passage was
        taken for its words alone); no chosen passage may conflict with the claim or deny it; a
        claim about one person or thing ("One customer ...") may not join two free-text values of
        a record (two reviews)."""
        own = [a for a in claim["entities"] if not a.get("inherited")]
        anchors = [("e", i) for i in range(len(own))] + [("q", i) for i in range(len(cq))]
        times = [q for _, q in cq if q.kind == "time"]
        day_times = _day_times(claim, cq) if times else None
        sides = _polarity_sides(claim)
        usable = [
            al for al in aligns
            if (not al.q_conflict or _other_days_times(times, al, index.passages[al.pid])
                or _day_times_hold(day_times, al, index.passages[al.pid]))
            and not al.q_partial and not al.antonym and not al.inherited_blocked
            and self._polarity_fits(claim, al, index.passages[al.pid], sides, index)
            and (not own or al.ents_found or index.passages[al.pid].structured)  # a record line is about the record
        ]
        if len(usable) < 2:
            return None
        structured = any(index.passages[al.pid].structured for al in usable)
        lemmas = sorted({x for x in claim["lemmas"] if not (structured and x in index.relation_words)})
        weights = {x: index.weight(x) for x in lemmas}
        total = sum(weights.values())
        offers: dict[int, tuple[set, set]] = {}
        for al in usable:
            p = index.passages[al.pid]
            if structured and times and not (_day_hours_stated(times, al, p) or _day_times_hold(day_times, al, p)):
                continue
            got_anchors = {("e", i) for i, a in enumerate(own) if self._entity_found(a, al.pid, index)
                           # the day of a claimed time comes from a line with times, not from a review
                           and not (times and a.get("label") == "DAY" and not any(q.kind == "time" for _, q in p.quantities))}
            got_anchors |= {("q", i) for i, (qd, _) in enumerate(cq) if any(qd is m for m in al.q_match)}
            money = any(qd.get("kind") == "money" for qd in al.q_match)
            offers[al.pid] = (got_anchors, {x for x in lemmas if self._word_in(x, p, index) or money and x in _MONEY_WORDS})
        max_parts = _FUSION_RECORD_LINES if structured else 2
        chosen: list[int] = []
        have_a: set = set()
        have_l: set = set()
        by_words = False
        for _ in range(max_parts):
            def gain(pid: int) -> tuple[float, bool]:
                a, l = offers[pid]
                words = sum(weights[x] for x in l - have_l)
                if a - have_a:
                    return len(a - have_a) * 100.0 + words, False
                if structured and words > 0:
                    return words, False  # a line of a record states one field: "accepts credit cards"
                if not structured and total and words / total >= self.t.fusion_min_share:
                    return words, True  # a fact of its own, told in words
                return 0.0, False
            pid = max((p for p in offers if p not in chosen), key=lambda p: (gain(p)[0], -p), default=None)
            if pid is None or gain(pid)[0] <= 0:
                break
            by_words = by_words or gain(pid)[1]
            chosen.append(pid)
            have_a |= offers[pid][0]
            have_l |= offers[pid][1]
        cov = sum(weights[x] for x in have_l) / total if total else 1.0
        if structured:
            need = self.t.fusion_coverage_record
        elif by_words:
            need = self.t.fusion_coverage_content
        else:
            need = self.t.fusion_coverage
        if structured and chosen and have_a == set(anchors):
            denied = self._denied_part(claim, chosen, have_l, aligns, index)
            if denied is not None and sum(weights[x] for x in have_l | set(denied[1])) / total >= need:
                p = index.passages[denied[0]]
                differs = [{"claim": "affirmed", "source": p.value, "kind": "polarity"}]
                return _result("contradicted", f"opposite polarity: the source says '{p.value}' for {', '.join(denied[1])}",
                               0.05, [self._evidence(p)], differs)
        if structured and times and chosen and cov >= need and have_a != set(anchors):
            wrong = self._misstated_day(claim, own, cq, set(anchors) - have_a, aligns, index)
            if wrong is not None:
                return wrong
        if len(chosen) < 2 or have_a != set(anchors) or cov < need:
            return None
        if claim.get("one_subject") and len({index.passages[pid].text_of for pid in chosen} - {None}) > 1:
            return None  # "One customer ..." told from two reviews of a record: a merge, not a fusion
        if claim.get("subject") and not own and not any(self._about_subject(claim["subject"], index.passages[pid], index) for pid in chosen):
            return None
        chosen.sort()
        return _result("grounded", f"stated across {len(chosen)} source passages", 0.7 + 0.25 * min(1.0, cov),
                       [self._evidence(index.passages[pid]) for pid in chosen])

    def _misstated_day(self, claim: Feature, own: list[dict], cq: list, missing: set, aligns: list[Alignment],
                       index: PassageIndex) -> dict | None:
        """A week of opening hours told right but for a day ("... and Sunday from 8 AM to 1 PM"
        against "hours Sunday: 8:0-12:0"): what the other lines do not hold is only that day and a
        time of the claim, and that day's line shares one end of its hours with the claim's times
        but not the other, every time of the claim a range with both ends. Contradicted, with the
        day's line as evidence; None otherwise (a day the claim names without its hours shares no
        end: it stays unverified)."""
        times = [q for _, q in cq if q.kind == "time"]
        if not all(_hours_range(q) for q in times):
            return None  # "until 10 PM on Saturdays" names one end only: a line's other end is not said
        ends = {x for q in times for x in (q.low, q.high)}
        wrong: list[tuple[Alignment, Quantity]] = []
        for al in aligns:
            p = index.passages[al.pid]
            days = [a for a in al.ents_direct if a.get("label") == "DAY"]
            ranges = [q for _, q in p.quantities if _hours_range(q)] if p.structured else []
            if days and len(ranges) == 1 and (ranges[0].low in ends) != (ranges[0].high in ends):
                wrong.append((al, ranges[0]))
        if not wrong:
            return None
        wrong_days = {a["key"] for al, _ in wrong for a in al.ents_direct if a.get("label") == "DAY"}
        for kind, i in missing:
            if kind == "e" and not (own[i].get("label") == "DAY" and own[i]["key"] in wrong_days):
                return None
            if kind == "q" and cq[i][1].kind != "time":
                return None
        al, r = wrong[0]
        p = index.passages[al.pid]
        day = next(a["text"] for a in al.ents_direct if a.get("label") == "DAY")
        hours = _line_value_text(p)
        differs = [{"claim": day, "source": hours, "kind": "quantity"}]
        return _result("contradicted", f"the record gives {hours} for {p.f['text'].split(':')[0].split()[-1]}",
                       0.05, [self._evidence(p)], differs)

    def _denied_part(self, claim: Feature, chosen: list[int], held: set[str], aligns: list[Alignment],
                     index: PassageIndex) -> tuple[int, list[str]] | None:
        """A claim told across the lines of a record whose one part the record denies ("offers
        free Wi-Fi, catering and takeout, and it is dog-friendly" against "dogs allowed: False"):
        a false line holds a claim word that no chosen line holds.
        Only for a claim with no negation word at all, told from field lines alone: in a claim of
        both polarities ("accepts cards, does not require appointments") which part a denial covers
        is not read here, and a review's visit ("waited 50 minutes for a walk-in appointment") is
        not what a field ("by appointment only: False") states.
        Returns ``(line's passage id, the claim words it denies)``; None when no line denies a
        part. The claim is contradicted when the rest of it is stated (see :meth:`_fusion`)."""
        if _NEGATION_WORD.search(claim["text"].lower()):
            return None
        if any(index.passages[pid].text_of is not None for pid in chosen):
            return None  # told from a review: a field's line speaks of the business, not of that visit
        for al in aligns:
            p = index.passages[al.pid]
            if al.pid in chosen or not (p.structured and p.value in _FALSE_VALUES):
                continue
            words = [x for x in dict.fromkeys(claim["lemmas"]) if x not in held and x not in index.relation_words and self._lemma_in(x, p)]
            if words and _names_key(claim, p, index):
                return al.pid, words
        return None

    def _reason(self, claim: Feature, best: Alignment, aligns: list[Alignment], index: PassageIndex) -> str:
        if best.coverage < 0.25 and not best.ents_found and not best.q_match:
            return "no source passage is about this claim"
        parts = []
        if best.ents_missing:
            parts.append("not named with the rest: " + ", ".join(dict.fromkeys(a["text"] for a in best.ents_missing)))
        if best.q_absent:
            parts.append("no source value for " + ", ".join(q.get("text", "") for q in best.q_absent))
        if best.inherited_blocked:
            parts.append("the passage is about another " + "/".join(sorted({a["label"] for a in claim["entities"] if a.get("inherited")})))
        if not parts and not self._polarity_agrees(claim, index.passages[best.pid]):
            parts.append("the passage about it has the opposite polarity, but not on the same predicate")
        if not parts and claim.get("subject") and not self._about_subject(claim["subject"], index.passages[best.pid], index):
            parts.append("the passage is about another subject: " + " ".join(claim["subject"]) + " is not there")
        if not parts:
            parts.append(f"too little of the claim is stated (coverage {best.coverage:.2f})")
        return "; ".join(parts)

    @staticmethod
    def _evidence(p: Passage) -> dict:
        return {"source": p.source, "start": p.f["start"], "end": p.f["end"], "text": p.f["text"]}


def _hours_range(q: Quantity) -> bool:
    """A time-of-day range with both ends stated ("8:0-13:0"): opening hours."""
    return q.kind == "time" and q.low != q.high and not math.isinf(q.low) and not math.isinf(q.high)


def _line_value_text(p: Passage) -> str:
    """What a record's line gives after its key ("hours Monday: 17:0-21:0." -> "17:0-21:0")."""
    return p.f["text"].split(":", 1)[1].strip(" .")


def _hours_line(p: Passage) -> bool:
    return any(_hours_range(q) for _, q in p.quantities)


def _polarity_sides(claim: Feature) -> tuple[str, str] | None:
    """``(affirmed, denied)`` parts of a claim of both polarities, as lower-case text: the denied
    part runs from the negation cue to the end of its clause ("It offers takeout, but it does not
    offer delivery"; "It does not serve alcohol, and parking is on the street"), or to the end of
    the phrase the parse says it denies when that comes first ("does not require appointments,
    has a parking lot"; the claim's ``denied`` offsets, which also take in the subject of a
    denied verb: "though delivery is not available"), the rest is affirmed. None for a claim
    without a cue, or one cue whose clause is the whole claim after it and no contrast ("It does
    not offer delivery or Wi-Fi")."""
    text = claim["text"].lower()
    affirmed, denied, pos, bounded = [], [], 0, False
    while (m := _NEGATION_WORD.search(text, pos)) is not None:
        # what the parse says the cue denies (its subject included), else the cue to the end of
        # its clause
        parsed = next(((s, e) for s, e in claim.get("denied") or () if s <= m.start() < e), None)
        end = _CLAUSE_END.search(text, m.end())
        start, stop = m.start(), end.start() if end else len(text)
        if parsed is not None:
            start, stop = max(pos, parsed[0]), min(stop, parsed[1])
        bounded = bounded or stop < len(text.rstrip(" .!?;"))
        affirmed.append(text[pos: start])
        denied.append(text[start: stop])
        pos = stop
    if not denied or not (bounded or claim.get("contrast")):
        return None
    affirmed.append(text[pos:])
    return " ".join(affirmed), " ".join(denied)


def _in_words(lemma: str, text: str) -> bool:
    """The lemma is one of the words of ``text`` (or a form of one: "seat"/"seating")."""
    return any(_same_word(lemma, w) or w.rstrip("s") == lemma for w in re.findall(r"[^\W\d_]+", text))


def _other_days_times(times: list[Quantity], al: Alignment, p: Passage) -> bool:
    """The only values a line of opening hours conflicts with are times the claim gives for other
    days ("11 AM to 10 PM Monday through Thursday, until 11 PM on Friday" against "hours
    Friday: 11:0-23:0"): both ends of its range are among the claim's times."""
    if not (p.structured and times and _hours_line(p)):
        return False
    if any(qd.get("kind") != "time" for qd, _ in al.q_conflict):
        return False
    ends = {x for q in times for x in (q.low, q.high) if not math.isinf(x)}
    return all(r.low in ends and r.high in ends for _, r in p.quantities if _hours_range(r))


def _names_key(claim: Feature, p: Passage, index: PassageIndex) -> bool:
    """The claim holds every distinctive word of a record line's key, in some form ("take out"
    needs "take" and "out", or "takeout": "takes reservations" names no "take out"; "by
    appointment only" needs "appointment")."""
    words = [w for w in re.findall(r"[a-z]+", p.f["text"].split(":")[0].lower())
             if w not in _GENERIC_KEY_WORDS and w not in ("only", "no", "not")]
    _, tokens, _ = _claim_words(claim["text"])
    said = set(tokens) | set(claim["lemmas"])
    if "".join(words) in said:
        return True
    return all(any(w == t or _same_word(w, t) or w.rstrip("s") == t.rstrip("s") or index.canon.get(w, w) == t for t in said) for w in words)


def _day_times(claim: Feature, cq: list) -> dict[str, list[dict]] | None:
    """The times of day a claim gives for each day it names, by the order it names them:
    ``{day key: [time quantity dicts]}``. When the claim names a time first ("from 4 PM to
    midnight Monday through Thursday and until 2 AM on Fridays and Saturdays"), a time is said of
    the days after it up to the next time; when it names a day first ("Friday and Saturday from
    11 AM to 2 AM, and Sunday from 11 AM to 10 PM"), of the days before it back to the last time;
    when it names days first and again after its last time, the first are a heading and the
    times are said of the days after them.
    None when the claim names no day, or a time of it cannot be placed or takes no day."""
    days = sorted(((at - claim["start"], a["key"]) for a in claim["entities"]
                   if a.get("label") == "DAY" and not a.get("inherited") and "start" in a
                   for at in (a["start"], *a.get("also_at", ()))), key=lambda x: x[0])
    if not days:
        return None
    text, pos, events = claim["text"], 0, []
    for qd, q in cq:
        if q.kind != "time":
            continue
        at = text.find(qd.get("text") or "\0", pos)
        if at < 0:
            return None
        events.append((at, qd))
        pos = at + 1
    if not events:
        return None
    # time first when a day follows the last time; days before the first time are then a
    # heading ("open Tuesday through Sunday, from 7 AM to 3 PM on weekdays and 8 AM to 2 PM on
    # weekends") that the days after the times spell out
    time_first = events[0][0] < days[0][0] or days[-1][0] > events[-1][0]
    said: list[list[str]] = []
    for i, (at, _) in enumerate(events):
        if time_first:
            end = events[i + 1][0] if i + 1 < len(events) else len(text)
            said.append([k for start, k in days if at < start < end])
        else:
            begin = events[i - 1][0] if i else -1
            said.append([k for start, k in days if begin < start < at])
    # times in a row share their days ("opens at 3 PM and closes at midnight Monday through
    # Thursday"); a last time without a day is said of the days before it ("..., when it opens
    # at 11 AM")
    order = range(len(events) - 1, -1, -1) if time_first else range(len(events))
    last: list[str] = []
    for i in order:
        said[i] = said[i] or last
        last = said[i]
    for i in range(1, len(said)):
        said[i] = said[i] or said[i - 1]
    out: dict[str, list[dict]] = {}
    for (_, qd), keys in zip(events, said):
        if not keys:
            return None
        for k in keys:
            out.setdefault(k, []).append(qd)
    return out


def _own_day_conflicts(day_times: dict[str, list[dict]] | None, al: Alignment, p: Passage) -> list[tuple[dict, dict]]:
    """The value conflicts of an alignment that are about its passage: on a line of opening
    hours, only those of the times the claim gives for the line's days (``day_times``, from
    :func:`_day_times`), when the claim's times can be placed ("4 PM to midnight Monday through
    Thursday and until 1 AM on Fridays" conflicts with Friday's "11:0-2:0" over "until 1 AM")."""
    if not al.q_conflict or not (p.structured and _hours_line(p)):
        return al.q_conflict
    named = {a["key"] for a in al.ents_direct if a.get("label") == "DAY"}
    if not day_times or not named or not named <= day_times.keys():
        return al.q_conflict
    own = {id(qd) for k in named for qd in day_times[k]}
    return [(qd, sd) for qd, sd in al.q_conflict if id(qd) in own or qd.get("kind") != "time"]


def _day_times_hold(day_times: dict[str, list[dict]] | None, al: Alignment, p: Passage) -> bool:
    """A line of opening hours holds every time the claim gives for each day of the line it names
    (``_day_times``); the claim's times for other days are not about this line."""
    if not day_times or not (p.structured and _hours_line(p)):
        return False
    named = {a["key"] for a in al.ents_direct if a.get("label") == "DAY"}
    return bool(named) and all(k in day_times and all(any(qd is m for m in al.q_match) for qd in day_times[k]) for k in named)


def _day_hours_stated(times: list[Quantity], al: Alignment, p: Passage) -> bool:
    """A line of opening hours ("hours Sunday: 8:0-13:0.") joins a fusion for a claim that states
    times of day only when the claim states that day's hours: both ends of its range are among
    the claim's times, or every time of the claim matches it. "Opens at 7 AM on Saturday and
    Sunday, closing at 2 PM on Saturday and 1 PM on Sunday" does not state a Sunday opening at 8."""
    ranges = [q for _, q in p.quantities if _hours_range(q)]
    if not ranges or not any(a.get("label") == "DAY" for a in al.ents_direct):
        return True
    ends = {x for q in times for x in (q.low, q.high) if not math.isinf(x)}
    if all(r.low in ends and r.high in ends for r in ranges):
        return True
    return len(al.q_match) == len(times) and not al.q_absent and not al.q_conflict


def _compound_of(a: str, b: str) -> bool:
    """One predicate is the other with a prefix ("overcook"/"cook", "reopen"/"open")."""
    short, long_ = sorted((a, b), key=len)
    return len(short) >= 3 and long_.endswith(short) and len(long_) - len(short) <= 5


def _cue_phrase(f: Feature) -> str | None:
    """The passage's negation cue with the word after it, in ``norm`` form ("no blackout",
    "without wayne"); None when the cue is not found in the text."""
    cue = (f.get("cue") or "").lower()
    if not cue:
        return None
    m = re.search(r"(?<!\w)" + re.escape(cue) + r"\s+([^\W_]+)", f["text"].lower())
    return f"{cue} {m.group(1)}" if m else None


@functools.lru_cache(maxsize=256)
def _claim_words(claim_text: str) -> tuple[str, list[str], frozenset[str]]:
    """``(lower-case text with the not-field phrases blanked, its words, the words as written)``
    of a claim, computed once for all the attribute lines it is held against."""
    text = _NOT_FIELDS.sub(" ", claim_text.lower())  # "caters to families", "hot dogs"
    return text, re.findall(r"[a-z]+", text), frozenset(re.findall(r"[a-z]+", claim_text.lower()))


def _other_value(claim: Feature, p: Passage) -> str | None:
    """The phrase of the claim that states another value of the field of a record's line ("full
    bar" against "attributes alcohol: beer and wine."; ``models/records.json`` value denies), or
    None."""
    key, _, value = p.f["text"].partition(":")
    words = re.findall(r"[a-z]+", key.lower())
    field = words[-1] if words and words[0] == "attributes" else None
    denies = _VALUE_DENIES.get(field or "", {}).get(value.strip(" .").lower(), ())
    text = claim["text"].lower()
    return next((x for x in denies if re.search(rf"\b{re.escape(x)}\b", text)), None)


def _single(anchor: dict) -> Passage:
    keys = {k: anchor for k in (anchor["key"], *anchor["aliases"])}
    return Passage(source="", f={"norm": " " + anchor["key"] + " ", "entities": [anchor]}, keys=keys,
                   own_keys={anchor["key"]: anchor})


def _result(verdict: str, reason: str, support: float, evidence: list[dict] | None = None, differs: list[dict] | None = None) -> dict:
    return {
        "verdict": verdict,
        "reason": reason,
        "support": round(max(0.0, min(1.0, support)), 4),
        "evidence": evidence or [],
        "differs": differs or [],
    }
