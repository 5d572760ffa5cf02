"""The word lists of the verdict, loaded once from the lexicons named in ``sourced_verify``'s config.

:class:`VerdictLexicon` gathers what the rules read from ``models/records.json`` (a business
record's values, field words, rating words), ``models/verdict.json`` (setting labels, the words
that bound a denied clause), ``models/negation.json`` (``light_predicates``, ``complement``),
``models/lexical.json`` (``money_words``) and ``models/units.json`` (``number_words``, the
spelled-out stars of a rating), and compiles the regular expressions built from them. Each
lexicon is given by bundled name or path (:func:`sourced_nlp.text.lexicons.load_lexicon`); nothing is
read at import time.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any

from ..text.lexicons import load_lexicon

_NEVER = "(?!)"  # a pattern that matches nothing, for an empty word list


def _alternation(words: Any) -> str:
    return "|".join(re.escape(w) for w in words) or _NEVER


@dataclass(frozen=True)
class VerdictLexicon:
    """The verdict's words (module docstring). Build it with :meth:`load`."""

    false_values: frozenset[str]
    true_values: frozenset[str]
    platforms: frozenset[str]
    field_words: dict[str, list[str]]
    value_denies: dict[str, dict[str, list[str]]]
    generic_key_words: frozenset[str]
    rating_words: dict[str, tuple[float, float]]
    highly_rated: float
    setting_labels: frozenset[str]
    light_denials: frozenset[str]
    near_negatives: frozenset[str]
    complement_denials: frozenset[str]
    universal: frozenset[str]
    verb_denials: frozenset[str]
    money_words: frozenset[str]
    article_ones: tuple[str, ...]
    not_fields: re.Pattern
    closed: re.Pattern
    high_praise: re.Pattern
    rating_phrase: re.Pattern
    negation_word: re.Pattern
    clause_end: re.Pattern
    record_kind: re.Pattern

    @property
    def yes_no(self) -> frozenset[str]:
        """The values of a record's line that deny or affirm its field."""
        return self.false_values | self.true_values

    @classmethod
    def load(
        cls,
        records: str = "records",
        verdict: str = "verdict",
        negation: str = "negation",
        lexical: str = "lexical",
        units: str = "units",
    ) -> "VerdictLexicon":
        """Read the five lexicons (bundled names or paths) and compile the patterns.

        Raises:
            FileNotFoundError: a lexicon that is neither bundled nor a file.
            KeyError: a lexicon without one of the keys the verdict reads.
        """
        rec, ver = load_lexicon(records), load_lexicon(verdict)
        rating_words = {w: (float(lo), float(hi)) for w, (lo, hi) in rec.get("rating_words", {}).items()}
        stars = [w for w, v in load_lexicon(units)["number_words"].items() if 1 <= v <= 5]
        nouns = "|".join(rf"{re.escape(n)}s?" for n in rec["rating_nouns"]) or _NEVER
        rating_phrase = re.compile(
            r"\b(" + "|".join(sorted(map(re.escape, rating_words), key=len, reverse=True) or [_NEVER]) + r")\s+"
            r"(?:(?:\d(?:\.\d+)?|" + _alternation(stars) + r")(?:[- ]star|\s+out\s+of|\s+stars?\b)"
            r"|(?:(?:" + _alternation(rec["rating_qualifiers"]) + r")\s+)?(?:" + nouns + r")\b)",
            re.IGNORECASE,
        )
        denial = r"\b(?:" + _alternation(ver["negation_words"]) + r")\b"
        denial += "".join(f"|{re.escape(s)}\\b" for s in ver.get("negation_suffixes", ()))
        clause_end = (
            r",\s*(?:"
            + _alternation(ver["clause_end_conjunctions"])
            + r")\s|;\s|\s(?:"
            + _alternation(ver["clause_end_bare"])
            + r")\s"
        )
        return cls(
            false_values=frozenset(rec["false_values"]),
            true_values=frozenset(rec["true_values"]),
            platforms=frozenset(rec.get("platform_names", ())),
            field_words=rec.get("field_words", {}),
            value_denies=rec.get("value_denies", {}),
            generic_key_words=frozenset(rec["generic_key_words"]),
            rating_words=rating_words,
            highly_rated=float(rec["highly_rated_stars"]),
            setting_labels=frozenset(ver["setting_labels"]),
            light_denials=frozenset(load_lexicon(negation).get("light_predicates", ())),
            near_negatives=frozenset(load_lexicon(negation).get("near_negatives", ())),
            complement_denials=frozenset(load_lexicon(negation).get("complement", {}).get("denying", ())),
            universal=frozenset(load_lexicon(negation).get("complement", {}).get("universal", ())),
            verb_denials=frozenset(load_lexicon(negation).get("verb_cues", ())),
            money_words=frozenset(load_lexicon(lexical).get("money_words", ())),
            article_ones=tuple(ver["article_ones"]),
            not_fields=re.compile(r"\b(?:" + "|".join(re.escape(x) for x in rec.get("not_fields", [_NEVER])) + r")\b"),
            closed=re.compile(r"\b(?:" + _alternation(rec["closed_words"]) + r")\b", re.IGNORECASE),
            high_praise=re.compile(
                r"\b(?:"
                + _alternation(rec["praise_adverbs"])
                + r")[- ](?:"
                + _alternation(rec["praise_participles"])
                + r")\b",
                re.IGNORECASE,
            ),
            rating_phrase=rating_phrase,
            negation_word=re.compile(denial),
            clause_end=re.compile(clause_end),
            record_kind=re.compile(r"^(?:" + _alternation(rec["kind_keys"]) + r")\s*:", re.IGNORECASE),
        )


@functools.lru_cache(maxsize=1)
def default_lexicon() -> VerdictLexicon:
    """The lexicon of the bundled files (built on first use, then kept)."""
    return VerdictLexicon.load()
