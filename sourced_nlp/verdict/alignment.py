"""The alignment of a claim with one passage: what of the claim the passage holds.

:meth:`Aligner.align` compares a claim with a candidate passage: which entity anchors it names
(key, alias, acronym, surname-of-full-name, rapidfuzz ratio >= 90, or the name in its text —
:func:`~sourced_nlp.verdict.words.entity_in`, or in the one or two passages before it for a
passage that names nothing itself); for each quantity, whether the passage holds a comparable
one and if it matches or conflicts (:mod:`~sourced_nlp.verdict.values`); the share of the
claim's content lemmas it holds, weighted by rarity among all source passages (``coverage``,
IDF weights with a word absent from the sources weighted as the rarest; a word counts as held
by the word matcher, ``sourced.word_matcher.v1``); polarity; antonym predicates.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NamedTuple

from ..text.quantity import Quantity, load_lexicon
from .converse import comparatives, held_by_converse
from .index import PassageIndex
from .lexicon import VerdictLexicon
from .passage import Passage, single
from .polarity import polarity_flip
from .tree import tokens
from .types import Anchor, ClaimRecord, QuantityRecord
from .values import (
    change_amounts,
    compare_values,
    conflict_credible,
    nouns_compatible,
    roles_compatible,
    sign_only,
    to_quantity,
)
from .wordalign import GuardLexicon
from .words import WordMatcher, entity_in, lemma_in, same_word

#: a claim's values with their parsed quantities, in the claim's order
Values = list[tuple[QuantityRecord, Quantity]]


@dataclass
class Alignment:
    """How one passage bears on one claim."""

    pid: int
    coverage: float
    ents_found: list[Anchor]
    ents_missing: list[Anchor]
    inherited_blocked: bool
    q_match: list[QuantityRecord]
    q_conflict: list[tuple[QuantityRecord, QuantityRecord]]
    q_absent: list[QuantityRecord]
    polarity_flip: bool
    antonym: tuple[str, str] | None
    swap: tuple[dict, dict] | None = None
    q_partial: list[QuantityRecord] = field(default_factory=list)
    ents_direct: list[Anchor] = field(default_factory=list)
    #: one side denies a word of every member ("none of the samples tested positive"), the other
    #: affirms its antonym of all ("all samples tested negative"): the same polarity
    complement: bool = False

    @property
    def anchors_ok(self) -> bool:
        """Every own name of the claim is there and the passage is not about another subject."""
        return not self.ents_missing and not self.inherited_blocked

    @property
    def partial(self) -> float:
        """The mean of the coverage and the share of the claim's names and values it holds."""
        n = (
            len(self.ents_found)
            + len(self.ents_missing)
            + len(self.q_match)
            + len(self.q_conflict)
            + len(self.q_absent)
        )
        found = len(self.ents_found) + len(self.q_match)
        share = found / n if n else self.coverage
        return (self.coverage + share) / 2


class Aligner:
    """Compares claims with passages (module docstring).

    Args:
        lexicon: the verdict's words.
        opposed: ``opposed(a, b) -> bool``, True when two canonical predicate lemmas are
            antonyms (:meth:`sourced_nlp.components.passages.Lexical.opposed`).
        word_in: the word matcher (:class:`~sourced_nlp.verdict.words.WordMatcher`).
        meta_words: lemmas a claim uses to point at its sources or link sentences ("as
            mentioned in passage 1"), left out of its content.
    """

    def __init__(
        self,
        lexicon: VerdictLexicon,
        opposed: Callable[[str, str], bool],
        word_in: WordMatcher,
        meta_words: frozenset[str] = frozenset(),
        converses: GuardLexicon | None = None,
    ) -> None:
        self.lex = lexicon
        self.opposed = opposed
        self.word_in = word_in
        self.meta_words = meta_words
        #: the converse relations (the guard's lexicon, :mod:`~sourced_nlp.verdict.converse`): a
        #: word said from the other end of its relation counts as held, and is no antonym; set
        #: only while the guard reads every grounding, which checks that the two ends are swapped
        self.converses = converses

    def coverage(
        self,
        lemmas: list[str],
        p: Passage,
        index: PassageIndex,
        compared: frozenset[str] | None = None,
        held: frozenset[str] = frozenset(),
    ) -> float:
        """IDF-weighted share of ``lemmas`` that the passage holds (1.0 for no lemmas). With
        ``compared`` (not None: the claim's comparatives, maybe none) a word the passage says from
        the other end of its relation counts as held (:attr:`converses`); a word of ``held``
        counts as held (the words of a value the passage matches in other words:
        :func:`_value_words`)."""
        # summed in the claim's word order, never a set's, so the last bit does not follow the
        # hash seed. Not math.fsum: an exact share of equal weights would land on a threshold
        # (0.5, 0.25) that the rules, tuned on these rounded sums, only ever saw just below
        total = found = 0.0
        for lemma in dict.fromkeys(lemmas):
            if p.structured and lemma in index.relation_words:
                continue
            if p.stars is not None and index.sentiment.get(lemma) == 0:
                continue  # "one guest felt ...": a frame states nothing a review could hold
            w = index.weight(lemma)
            total += w
            if (
                lemma in held
                or self.word_in(lemma, p, index)
                or compared is not None
                and self.converses is not None
                and held_by_converse(self.converses, lemma, p, compared)
            ):
                found += w
        return found / total if total else 1.0

    def entity_found(self, a: Anchor, pid: int, index: PassageIndex, depth: int = 2) -> bool:
        """The anchor is named in the passage, or — for a passage that names nothing itself
        ("The firm has 56 offices") — in the one or two passages before it in its source."""
        p = index.passages[pid]
        if entity_in(a, p):
            return True
        if p.structured:
            # a record is about one subject, named on its first line ("name: Finch & Fork.");
            # any other name (a weekday, a city) must be on the line itself
            return p.head is not None and p.head != pid and entity_in(a, index.passages[p.head])
        if (
            a.get("label") in self.lex.setting_labels
            and any(k in index.source_keys.get(p.source, ()) for k in (a["key"], *a["aliases"]))
            and not any(b.get("label") == a["label"] and not b.get("inherited") for b in p.f["entities"])
        ):
            return True  # the place the source is set in ("Yemen"), where the passage names no other place
        if depth and not p.names_own and p.prev is not None:
            return self.entity_found(a, p.prev, index, depth - 1)
        return False

    def about_subject(self, subject: list[str], p: Passage, index: PassageIndex) -> bool:
        """The passage speaks of the claim's subject (lemmas of its subject noun phrase): it holds
        one of them, or it is a line of a record and the subject names the record itself ("The
        restaurant", "This Mexican spot": a relation word or a word of its name/categories)."""
        if any(lemma_in(x, p) for x in subject):
            return True
        return p.structured and any(
            x in index.relation_words or x in index.record_words.get(p.source, ()) for x in subject
        )

    def predicate_missing(self, claim: ClaimRecord, p: Passage, index: PassageIndex) -> bool:
        """A main predicate of the claim (root and the verbs it coordinates, "waited",
        "complained") is not in the passage — relation words of a record and meta words aside.
        Used for records only: on the RAGTruth train split (prose) the rule cost 120 correct
        groundings for 3 hallucinated ones, since prose sources paraphrase their predicates."""
        return any(
            not self.word_in(x, p, index)
            and x not in self.meta_words
            and not (p.structured and x in index.relation_words)
            for x in claim["predicates"]
        )

    def align(self, claim: ClaimRecord, cq: Values, pid: int, index: PassageIndex) -> Alignment:
        """Compare one claim (its values ``cq``) with one passage (see :class:`Alignment`)."""
        p = index.passages[pid]
        own = [a for a in claim["entities"] if not a.get("inherited")]
        inherited = [a for a in claim["entities"] if a.get("inherited")]
        found = [a for a in own if self.entity_found(a, pid, index)]
        missing = [a for a in own if a not in found]
        # a claim that took its subject from the sentence before ("It grew 40%") is not about a
        # passage whose own subject is another name of the same type
        other_subject = any(
            not b.get("inherited")
            and b["role"] == "subj"
            and not any(entity_in(b, single(c)) for c in claim["entities"])
            for b in p.f["entities"]
        )
        blocked = (
            not p.structured
            and other_subject
            and any(
                a.get("refers_back") and a["role"] == "subj" and not self.entity_found(a, pid, index) for a in inherited
            )
        )
        q_match, q_conflict, q_absent, q_partial = _match_values(cq, p)
        lemmas = claim["lemmas"]
        if any(qd.get("kind") == "money" for qd in [*q_match, *(c for c, _ in q_conflict)]):
            lemmas = [x for x in lemmas if x not in self.lex.money_words]  # "costs $9" against "is $9" (or "is $12")
        complement = self._complement(claim, p)
        if complement:
            lemmas = [complement[1] if x == complement[0] else x for x in lemmas]  # "negative" held as "not positive"
        cov = self.coverage(
            lemmas,
            p,
            index,
            compared=comparatives(claim.get("tokens") or ()) if self.converses is not None else None,
            held=_value_words(q_match),
        )
        flip = not complement and polarity_flip(claim, p, self.lex)
        antonym = None if complement else self._antonym(claim, p)
        direct = [a for a in found if entity_in(a, p)]
        return Alignment(
            pid,
            cov,
            found,
            missing,
            blocked,
            q_match,
            q_conflict,
            q_absent,
            flip,
            antonym,
            q_partial=q_partial,
            ents_direct=direct,
            complement=complement is not None,
        )

    def _denies(self, f: ClaimRecord, lemma: str) -> bool:
        """The segment denies ``lemma``: the predicate its negation is on, or one of its
        predicates under a denial of every member ("none of the valves failed")."""
        if not f["negated"]:
            return False
        if same_word(f.get("negated_predicate") or "", lemma):
            return True
        return (f.get("cue") or "").lower() in self.lex.complement_denials and lemma in f["predicates"]

    def _complement(self, claim: ClaimRecord, p: Passage) -> tuple[str, str] | None:
        """``(claim word, passage word)``: the antonyms by which a denial of every member on one
        side states the other side's affirmation of all ("None of the samples tested positive"
        for "All samples tested negative", and back): one side negated by a cue that denies of
        every member (``complement.denying`` of ``models/negation.json``: "none", "no"), the
        other affirmed with a universal quantifier ("all", "every"), and a word of the one the
        antonym of a word of the other, neither side holding both. None otherwise (a record's
        line, the same polarity, "not all tested positive")."""
        if p.structured or claim["negated"] == p.f["negated"]:
            return None
        negated, other = (claim, p.f) if claim["negated"] else (p.f, claim)
        if (negated.get("cue") or "").lower() not in self.lex.complement_denials:
            return None
        words = {t.lemma for t in tokens(other.get("tokens") or [])} | set(other["lemmas"])
        if not words & self.lex.universal or self.lex.negation_word.search(other["text"].lower()):
            return None  # "not all tested negative" is no "all" (a denial the parse did not mark)
        mine, theirs = claim["lemmas"], p.f["lemmas"]
        return next(
            (
                (x, y)
                for x in mine
                for y in theirs
                if x != y and x not in theirs and y not in mine and self.opposed(x, y)
            ),
            None,
        )

    def _antonym(self, claim: ClaimRecord, p: Passage) -> tuple[str, str] | None:
        """A predicate of the claim and an antonym of it among the passage's predicates (neither
        shared by the other side), unless the passage also says the claim's side; not a converse
        ("sold to" / "bought from": the guard reads whether the two ends are swapped)."""
        antonym = None
        for x in claim["predicates"]:
            for y in p.f["predicates"]:
                if (
                    x != y
                    and self.opposed(x, y)
                    and x not in p.f["predicates"]
                    and y not in claim["predicates"]
                    and not (self.converses is not None and y in self.converses.converses.get(x, ()))
                ):
                    antonym = (x, y)
                    break
            if antonym:
                break
        if antonym and any(self.opposed(z, antonym[1]) for z in p.f["lemmas"]):
            antonym = None  # the passage says both ("net income fell; it raises its dividend"): of two things
        if antonym and self._denies(claim, antonym[0]) != self._denies(p.f, antonym[1]):
            antonym = None  # "some valves passed" / "none of the valves failed": a denied antonym is no opposite
        return antonym


def _match_values(cq: Values, p: Passage) -> tuple[list, list, list, list]:
    """``(matched, conflicting (claim, source), absent, partial)`` values of a claim in a passage:
    a value matches when some comparable value of the passage matches it; conflicts with the first
    credible conflicting value that matches no other claim value; is partial (and absent) when
    only an overlapping one is there."""
    q_match: list = []
    q_conflict: list = []
    q_absent: list = []
    q_partial: list = []
    # a claimed amount of change ("rose by 50%") is compared with the amounts of the changes the
    # passage states by their levels ("from 4% to 6%"), where it states some, not with the levels
    # a verb that multiplies ("doubled": +100%) is compared only with the changes the passage
    # states by their levels and with its own multiplying verbs: never with a level
    against_of = [
        _multiplied(q, p.quantities)
        if qd.get("multiplier")
        else (change_amounts(q, p.quantities) if qd.get("change") == "by" else None) or p.quantities
        for qd, q in cq
    ]
    outcomes = [
        [
            compare_values(q, s, hours=p.structured) if comparable(qd, sd, values is p.quantities) else "incomparable"
            for sd, s in values
        ]
        for (qd, q), values in zip(cq, against_of)
    ]
    used = {
        j
        for row, values in zip(outcomes, against_of)
        if values is p.quantities
        for j, r in enumerate(row)
        if r == "match"
    }
    falls = _fall_verbs()
    shared: set[int] = set()  # the claim's values matched as a share of a whole
    for (qd, _q), row, values in zip(cq, outcomes, against_of):
        best, against = "absent", None
        for j, r in enumerate(row):
            sd = values[j][0]
            if r == "conflict" and (signed := sign_only(qd, sd, falls)):
                r = signed  # "-3%" and "fell 3%": the verb carries the sign
            if r in ("match", "conflict") and (qd.get("disputed") or sd.get("disputed")):
                r, sd = _disputed(qd, sd, r)  # "sixty (90) days": which of the two is meant?
            if r == "match" and sd.get("reading") == "points":
                r = "partial"  # "rose 2%" for 4% to 6%: 2 points, or a relative 2%? cannot tell
            if r == "match":
                best = "match"
                break
            if (
                r == "conflict"
                and best == "absent"
                and (j not in used or values is not p.quantities)
                and conflict_credible(qd, sd)
                and _same_event(qd, sd, p)
            ):
                best, against = "conflict", sd
            elif r == "partial":
                best, against = "partial", sd
        if best != "match" and values is p.quantities and _total_of_parts(qd, p.quantities):
            best = "match"  # "22 medals" for "11 gold, eight silver and three bronze medals"
        if best == "absent" and values is p.quantities and _share_of_whole(qd, _q, p.quantities):
            best = "match"  # "half of the 40 seats" for "20 of the 40 seats", and back
            shared.add(len(q_match) + len(q_conflict) + len(q_absent))
        if best == "absent" and qd.get("a_whole") and len(q_match) + len(q_conflict) + len(q_absent) - 1 in shared:
            best = "match"  # the "five" of "four out of five": stated with the share its part matched
        if best == "match":
            q_match.append(qd)
        elif best == "conflict":
            q_conflict.append((qd, against))
        else:
            q_absent.append(
                against if against is not None and "words and digits disagree" in against.get("text", "") else qd
            )
            if best == "partial":
                q_partial.append(qd)
    return q_match, q_conflict, q_absent, q_partial


def _disputed(qd: QuantityRecord, sd: QuantityRecord, outcome: str) -> tuple[str, QuantityRecord]:
    """The comparison of a claim's value ``qd`` with a passage's ``sd`` (``outcome``: by the
    digits) when either is a figure whose words and digits disagree ("sixty (90) days"): a
    conflict with both readings stays one; anything else is ``"partial"``, with a record whose
    text says why, for the reason ("no source value for 90 days (the source says sixty (90)
    days: its words and digits disagree)")."""
    own = bool(qd.get("disputed"))
    words = to_quantity(qd["disputed"] if own else sd["disputed"])
    other = to_quantity(sd if own else qd)
    if outcome == "conflict" and words is not None and other is not None:
        if (compare_values(other, words) if own else compare_values(words, other)) == "conflict":
            return "conflict", sd
    why = (
        "its words and digits disagree"
        if own
        else f"the source says {sd.get('text', '')}: its words and digits disagree"
    )
    return "partial", {**qd, "text": f"{qd.get('text', '')} ({why})"}


def _as_share(qd: QuantityRecord, q: Quantity) -> tuple[Quantity, float] | None:
    """A part of a stated whole ("20 of the 40": ``whole`` 40) as ``(the other reading, whole)``:
    a count as its share in percent (50%), a share as its count (half of 40: 20)."""
    whole = qd.get("whole")
    if not whole or q.low != q.high:
        return None
    if q.kind == "number":
        v = q.low / whole * 100.0
        return Quantity("percent", v, v, "%", "%", 0.5, None, qd.get("text", "")), whole
    if q.kind == "percent" and q.unit == "%":
        v = q.low * whole / 100.0
        return Quantity("number", v, v, None, None, 0.5, None, qd.get("text", "")), whole
    return None


def _share_of_whole(qd: QuantityRecord, q: Quantity, quantities: list) -> bool:
    """A claim's part of a whole matches a passage's part of the same whole in the other form
    ("half of the 40 seats" and "20 of the 40 seats"), or a count of a whole a share in percent of
    anything ("four out of five dentists" and "80% of dentists"): the share of the one is the count
    of the other. Only a match: a share that differs is left to the values as written."""
    mine = _as_share(qd, q)
    if mine is None:
        return False
    other, whole = mine
    # a share in percent is a share of any whole ("four out of five dentists": 80% of dentists)
    return any(
        (sd.get("whole") == whole or other.kind == "percent" and not sd.get("whole"))
        and s.kind == other.kind
        and compare_values(other, s) == "match"
        for sd, s in quantities
    )


def _value_words(matched: list[QuantityRecord]) -> frozenset[str]:
    """The words of the claim's matched rhythms that say what they count ("three *times a day*",
    "twice *daily*": noun ``"day-time"``): the passage holds them in its own words when it holds the
    value ("every 8 hours"), so coverage counts them as held."""
    out: set[str] = set()
    for qd in matched:
        noun = qd.get("noun") or ""
        if noun.endswith("-time"):
            period = noun[: -len("-time")]
            out |= {"time", period}
            out |= {adv for adv, per in _period_adverbs().items() if per == period}
    return frozenset(out)


@functools.lru_cache(maxsize=1)
def _period_adverbs() -> dict[str, str]:
    """``period_adverbs`` of ``models/units.json``: "daily" -> "day"."""
    return dict(load_lexicon().get("period_adverbs", {}))


def _multiplied(q: Quantity, quantities: list) -> list:
    """What a multiplying verb's relative change ``q`` ("doubled": +100%) is compared with in a
    passage's ``quantities``: the signed changes it states by two levels ("from 20 to 40":
    +100%), and its own multiplying verbs."""
    return change_amounts(q, quantities, signed=True) + [(sd, s) for sd, s in quantities if sd.get("multiplier")]


@functools.lru_cache(maxsize=1)
def _fall_verbs() -> frozenset[str]:
    """The verbs of a fall (``fall_verbs`` of ``models/units.json``), which carry a change's sign."""
    return frozenset(load_lexicon().get("fall_verbs", ()))


def _same_event(qd: QuantityRecord, sd: QuantityRecord, p: Passage) -> bool:
    """A date or a duration the claim says of a verb (its ``head``: "his collapse in 2011" is
    said of "learned" in "He learned from his collapse in 2011") conflicts only with a passage
    that has that verb: where the passage's value is said of no verb it names ("before adding
    wins in the 2012 US PGA"), a passage without the claim's verb speaks of another event. Two
    values each said of a verb are :func:`~.values.conflict_credible`'s. On FaithBench's natural
    summaries (``bench/rule_precision.py``) two of the six ``contradicted.value`` verdicts set the
    date of one event against the date of another this way, both wrong."""
    if qd.get("kind") not in ("date", "measure") or sd.get("kind") != qd.get("kind"):
        return True
    head = qd.get("head")
    return not head or bool(sd.get("head")) or lemma_in(head, p)


def _total_of_parts(qd: QuantityRecord, values: list) -> bool:
    """The claim's count is the total of the parts a passage lists of the same noun: two or more
    whole counts next to each other in the passage, the last of them counting the claim's noun,
    that add up to it ("22 medals" for "11 gold, eight silver and three bronze medals"). On
    FaithBench's natural summaries (``bench/rule_precision.py``) four of the nine
    ``contradicted.value`` verdicts set such a total against the list's last part."""
    if qd.get("kind") != "number" or qd.get("low") != qd.get("high") or not qd.get("noun"):
        return False
    want = float(qd["low"])
    if want != int(want) or want <= 0:
        return False
    for end, (sd, _) in enumerate(values):
        if sd.get("kind") != "number" or sd.get("noun") != qd["noun"]:
            continue
        total, n = 0.0, 0
        for start in range(end, -1, -1):
            part = values[start][0]
            if (
                part.get("kind") != "number"
                or part.get("low") != part.get("high")
                or float(part["low"]) != int(float(part["low"]))
            ):
                break
            total += float(part["low"])
            n += 1
            if n >= 2 and total == want:
                return True
            if total > want:
                break
    return False


def comparable(qd: QuantityRecord, sd: QuantityRecord, stated: bool = True) -> bool:
    """A claim's value and a passage's may be compared: of compatible nouns and, for a value the
    passage states (not an amount derived from its levels), of the same role in a change."""
    return nouns_compatible(qd, sd) and (not stated or roles_compatible(qd, sd))


class Conflict(NamedTuple):
    """A passage that contradicts a claim: the ``coverage`` it is ranked by (ties: the first
    passage), its alignment, what differs, the reason text and the rule name that decides."""

    coverage: float
    alignment: Alignment
    differs: list[dict]
    reason: str
    rule: str
