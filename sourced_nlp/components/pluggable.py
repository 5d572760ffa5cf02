"""The pluggable parts of ``sourced_verify``, registered in spaCy's registry (``@misc``) when
:mod:`.verify` is imported, and named in its config: the decision order (``sourced.rules.v1``),
the meaning tier (``sourced.meaning.v1``; the entailment tier ``sourced.meaning.v2`` from
:mod:`.meaning_v2`), the word matcher of coverage
(``sourced.word_matcher.v1``) and the guard of ``grounded`` (``sourced.guard.v1``).
"""

from __future__ import annotations

from spacy.util import registry

from ..verdict import DEFAULT_RULES, Rule, WordMatcher, word_in
from ..verdict.guard import Guard, GuardLexicon


@registry.misc("sourced.rules.v1")
def make_rules(exclude: list[str] = []) -> tuple[Rule, ...]:  # noqa: B006 - a config default, never mutated
    """The decision order of the verdict: :data:`~sourced_nlp.verdict.rules.DEFAULT_RULES`
    without the rules whose function name is in ``exclude`` (``["spread"]``).

    Raises:
        ValueError: a name in ``exclude`` that is no rule of the default order, or one that
            would leave out the last rule (``unverified``, which always decides).
    """
    names = [r.__name__ for r in DEFAULT_RULES]  # type: ignore[attr-defined]
    unknown = [x for x in exclude if x not in names]
    if unknown or "unverified" in exclude:
        raise ValueError(f"sourced.rules.v1: cannot exclude {unknown or ['unverified']}; the rules are {names}")
    return tuple(r for r in DEFAULT_RULES if r.__name__ not in exclude)  # type: ignore[attr-defined]


@registry.misc("sourced.meaning.v1")
def make_meaning(path: str | None = None):
    """The meaning tier (:mod:`sourced_nlp.verdict.rules.meaning`) over a model file: the shipped
    ``models/meaning-v1.json`` when ``path`` is None. ``sourced_verify`` puts it just before the
    last rule; its config key ``meaning: null`` leaves it out (the rules only).

    Raises:
        FileNotFoundError, ValueError: no model file at ``path``, or one of another shape or of
            other features (:meth:`sourced_nlp.verdict.meaning.model.MeaningModel.load`).
    """
    from ..verdict.meaning.model import MeaningModel
    from ..verdict.rules.meaning import MeaningRule

    return MeaningRule(MeaningModel.load(path))


@registry.misc("sourced.word_matcher.v1")
def make_word_matcher() -> WordMatcher:
    """The word matcher of coverage: a claim's lemma is held by a passage when it is among its
    lemmas or the words of its names, another form of the word, or a review verb that agrees
    with the passage's review (:func:`sourced_nlp.verdict.words.word_in`)."""
    return word_in


@registry.misc("sourced.guard.v1")
def make_guard(unaligned: str = "slots", wordnet: str = "wordnet", guard: str = "guard") -> Guard:
    """The guard of ``grounded`` (:mod:`sourced_nlp.verdict.guard`): every grounded result is
    aligned word by word with its evidence and taken back when a word that carries the claim's
    meaning is unaccounted for. ``unaligned``: which claim words with no counterpart keep a claim
    from grounded (``slots``: only a word with another word in its slot; ``predicates``: also the
    main predicates and the closed classes; ``all``: every word that carries meaning; the three
    settings' figures are in bench/RESULTS.md). ``wordnet``/``guard``: the guard's own lexicons,
    bundled name or path; it reads ``sourced_verify``'s ``lexicon`` and ``negation`` too, which
    the component gives it (:meth:`~sourced_nlp.verdict.guard.Guard.with_lexicons`).

    Raises:
        ValueError: an ``unaligned`` that is none of the three.
    """
    return Guard(
        GuardLexicon.load(wordnet=wordnet, guard=guard),
        unaligned=unaligned,
        lexicons={"wordnet": wordnet, "guard": guard},
    )


from .meaning_v2 import make_entailment  # noqa: E402,F401 - registers sourced.meaning.v2
