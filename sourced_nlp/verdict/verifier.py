"""The verifier: prepares a claim, builds its :class:`~sourced_nlp.verdict.context.ClaimContext`
and tries the rules of the decision order (:data:`~sourced_nlp.verdict.rules.DEFAULT_RULES`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .alignment import Aligner
from .context import CitedSources, ClaimContext, Rule
from .guard import Guard
from .index import PassageIndex
from .lexicon import VerdictLexicon, default_lexicon
from .precision import PrecisionTable, default_precision, possible
from .records.fields import record_words
from .records.rating import without_fitting_words
from .rules import DEFAULT_RULES
from .rules.contradicted import contradicted
from .thresholds import Thresholds
from .types import ClaimRecord, Result, result
from .values import conversions
from .words import WordMatcher, word_in


class Verifier:
    """Applies the rules to claims against a :class:`PassageIndex`.

    Args:
        thresholds: the tunables.
        opposed: ``opposed(a, b) -> bool``, True when two canonical predicate lemmas are
            antonyms (:meth:`sourced_nlp.components.passages.Lexical.opposed`).
        locate: ``locate(quote, text) -> match | None`` for quotes
            (:func:`sourced_nlp.text.citations.locate`).
        meta_words: lemmas a claim uses to point at its sources or link sentences ("as
            mentioned in passage 1"), left out of its content.
        rules: the decision order (``sourced.rules.v1``); the last rule must always decide.
        word_matcher: whether a passage holds a claim's word (``sourced.word_matcher.v1``).
        lexicon: the verdict's words (the bundled lexicons by default).
        guard: the guard every grounded result passes (:class:`~sourced_nlp.verdict.guard.Guard`);
            None: results as the rules give them. A grounded result the guard lets through is
            then offered to the vetoes of the rules (:meth:`vetoed`); a result taken back by
            either may still be contradicted by the ``contradicted`` rule.
        precision: the rules' measured precision on natural text
            (:mod:`~sourced_nlp.verdict.precision`; the shipped table by default): a
            ``contradicted`` of a rule it demotes is given as ``unverified.possible`` (:meth:`admitted`).
    """

    def __init__(
        self,
        thresholds: Thresholds,
        opposed: Callable[[str, str], bool],
        locate: Callable[[str, str], Any],
        meta_words: frozenset[str] = frozenset(),
        *,
        rules: Sequence[Rule] = DEFAULT_RULES,
        word_matcher: WordMatcher = word_in,
        lexicon: VerdictLexicon | None = None,
        guard: Guard | None = None,
        precision: PrecisionTable | None = None,
    ) -> None:
        self.t = thresholds
        self.precision = precision or default_precision()
        self.lex = lexicon or default_lexicon()
        self.locate = locate
        self.meta_words = meta_words
        self.rules = tuple(rules)
        # a word said from the other end of its relation counts only where the guard checks the swap
        self.aligner = Aligner(
            self.lex, opposed, word_matcher, meta_words, converses=guard.lex if guard is not None else None
        )
        self.guard = guard.with_meta(meta_words) if guard is not None else None
        if self.guard is not None:
            self.guard.precision = self.precision

    def prepare(self, claim: ClaimRecord, index: PassageIndex) -> ClaimRecord:
        """The claim as the rules read it: without meta words; in prose without the every-day
        anchor of "daily" (a frequency, not seven names); against a record without the record's
        platform ("on Yelp"), with the words of a field line the tagger took for a name read as
        words ("Takeout and delivery are available"), and without the rating words that fit the
        record's stars (:func:`~sourced_nlp.verdict.records.rating.without_fitting_words`)."""
        if self.meta_words:
            claim = dict(
                claim,
                lemmas=[x for x in claim["lemmas"] if x not in self.meta_words],  # type: ignore[assignment]
                subject=[x for x in claim.get("subject") or () if x not in self.meta_words],
            )
        if not index.has_records and any(a.get("every_day") for a in claim["entities"]):
            # "daily" names the days of opening hours; in prose it is a frequency, not seven names
            claim = dict(claim, entities=[a for a in claim["entities"] if not a.get("every_day")])  # type: ignore[assignment]
        if not index.has_records:
            return claim
        if any(a["key"] in self.lex.platforms for a in claim["entities"]):
            claim = dict(claim, entities=[a for a in claim["entities"] if a["key"] not in self.lex.platforms])  # type: ignore[assignment]
        # "Takeout and delivery are available", "offers free Wi-Fi": a capitalised word the
        # tagger took for a name (no NER label), whose words are those of a field of the record
        as_words = {
            id(a): w
            for a in claim["entities"]
            if not a.get("inherited") and not a["label"] and (w := record_words(a["key"], index))
        }
        if as_words:
            claim = dict(
                claim,
                entities=[a for a in claim["entities"] if id(a) not in as_words],  # type: ignore[assignment]
                lemmas=[*claim["lemmas"], *(w for ws in as_words.values() for w in ws)],
            )
        return without_fitting_words(claim, index, self.lex)

    def context(
        self, claim: ClaimRecord, index: PassageIndex, source_texts: dict[str, str], cited: CitedSources | None = None
    ) -> ClaimContext:
        """The shared per-claim context of the rules."""
        return ClaimContext(
            claim,
            self.prepare(claim, index),
            index,
            source_texts,
            thresholds=self.t,
            aligner=self.aligner,
            locate=self.locate,
            cited=cited,
        )

    def verify(
        self, claim: ClaimRecord, index: PassageIndex, source_texts: dict[str, str], cited: CitedSources | None = None
    ) -> Result:
        """Verdict of one claim.

        Args:
            claim: the claim's feature record.
            index: the passages of every source of this check.
            source_texts: ``{source_id: text}``, for locating quotes.
            cited: the sources the claim cites (the ``cited`` rule checks them first).

        Returns:
            ``{"verdict", "reason", "support", "evidence": [{"source","start","end","text"}],
            "differs": [{"claim","source","kind"}], "rule"}``.

        Raises:
            RuntimeError: no rule decided (a rule list whose last rule may return None).
        """
        ctx = self.context(claim, index, source_texts, cited)
        for rule in self.rules:
            decided = rule(ctx)
            if decided is not None:
                if decided["verdict"] != "grounded":
                    return self.admitted(decided)
                guarded = decided if self.guard is None else self.guard(ctx, decided)
                if guarded["verdict"] == "grounded":
                    guarded = self.vetoed(ctx, guarded)
                if guarded["verdict"] == "unverified":
                    # the grounding is taken back: a passage that states otherwise now decides
                    found = contradicted(ctx)
                    return guarded if found is None else self.admitted(found)
                return with_conversions(ctx, guarded)
        raise RuntimeError("no rule of the verdict decided: the last rule must always decide")

    def admitted(self, res: Result) -> Result:
        """``res`` as is, unless it is a ``contradicted`` of a rule the precision table demotes
        (:meth:`~sourced_nlp.verdict.precision.PrecisionTable.contradicts`): then ``unverified``
        (rule ``unverified.possible``), its reason saying what was found, by which rule, and how
        often that rule is right on natural text; evidence and differences kept."""
        if res["verdict"] != "contradicted" or self.precision.contradicts(res["rule"]):
            return res
        reason = possible(res["reason"], res["rule"], self.precision.of(res["rule"]))
        return result(
            "unverified", reason, max(0.15, res["support"]), res["evidence"], res["differs"], rule="unverified.possible"
        )

    def vetoed(self, ctx: ClaimContext, res: Result) -> Result:
        """A grounded ``res`` as the vetoes of the decision order leave it: a rule with a
        ``veto(ctx, res) -> Result | None`` method (the entailment tier,
        :mod:`~sourced_nlp.verdict.rules.entailment`) may take it back; the first that does decides."""
        for rule in self.rules:
            veto = getattr(rule, "veto", None)
            if veto is not None and (taken := veto(ctx, res)) is not None:
                return taken
        return res


def with_conversions(ctx: ClaimContext, res: Result) -> Result:
    """A grounded ``res`` whose claim states a measure in another unit than its evidence, with
    the conversion that matched them in its reason ("stated in the source (2,000 lb = 907.2 kg)");
    any other result as is."""
    if res["verdict"] != "grounded" or not any(q.kind == "measure" for _, q in ctx.values):
        return res
    shown = [(e["source"], e["start"]) for e in res["evidence"]]
    passages = [p for pid in ctx.candidates if ((p := ctx.passage(pid)).source, ctx.evidence(pid)["start"]) in shown]
    notes = conversions(ctx.values, passages)
    return dict(res, reason=f"{res['reason']} ({'; '.join(notes)})") if notes else res  # type: ignore[return-value]
