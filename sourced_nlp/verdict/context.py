"""What the rules share about one claim: its values, candidates and alignments, computed once.

A :class:`ClaimContext` is built per claim by :class:`~sourced_nlp.verdict.verifier.Verifier`;
each rule (:class:`Rule`) reads it and returns a :class:`~sourced_nlp.verdict.types.Result` or
None (the next rule decides). Everything the rules compute from the claim and its passages is a
lazily computed attribute here, so no rule rebuilds what another already has.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Protocol

from .alignment import Aligner, Alignment, Values
from .index import PassageIndex
from .passage import Passage, evidence
from .shortfall import Shortfall, shortfall
from .support import unverified_support
from .thresholds import Thresholds
from .types import ClaimRecord, Evidence, Result
from .values import is_article_one, to_quantity


@dataclass(frozen=True)
class CitedSources:
    """The sources a claim cites: their ids, and ``verify(ids) -> Result``, the verdict of the
    claim against those sources only (the component builds and caches their index)."""

    ids: list[str]
    verify: Callable[[list[str]], Result]


class ClaimContext:
    """One claim as the rules see it.

    Args:
        record: the claim's feature record as the component gave it.
        claim: the record prepared for the rules (meta words, a record's platform and field
            names taken out: :meth:`~sourced_nlp.verdict.verifier.Verifier.prepare`).
        index: the passages of every source of this check.
        source_texts: ``{source_id: text}``, for locating quotes.
        thresholds, aligner, locate: the verifier's tunables, claim/passage comparison and
            quote finder (``locate(quote, text) -> match | None``).
        cited: the sources the claim cites, when it cites any.
    """

    def __init__(
        self,
        record: ClaimRecord,
        claim: ClaimRecord,
        index: PassageIndex,
        source_texts: dict[str, str],
        *,
        thresholds: Thresholds,
        aligner: Aligner,
        locate: Callable[[str, str], Any],
        cited: CitedSources | None = None,
    ) -> None:
        self.record = record
        self.claim = claim
        self.index = index
        self.source_texts = source_texts
        self.t = thresholds
        self.aligner = aligner
        self.lex = aligner.lex
        self.locate = locate
        self.cited = cited

    @cached_property
    def values(self) -> Values:
        """The claim's values that are checked (an article "one" left out)."""
        return [
            (qd, q)
            for qd in self.claim["quantities"]
            if (q := to_quantity(qd)) is not None and not is_article_one(qd, self.lex.article_ones)
        ]

    @cached_property
    def all_values(self) -> Values:
        """Every value of the claim, an article "one" too (what a contradiction reads)."""
        return [(qd, q) for qd in self.claim["quantities"] if (q := to_quantity(qd)) is not None]

    @cached_property
    def own_names(self) -> list:
        """The names the claim states itself (not taken from the sentence before)."""
        return [a for a in self.claim["entities"] if not a.get("inherited")]

    @cached_property
    def candidates(self) -> list[int]:
        """The passages compared with the claim (:meth:`PassageIndex.candidates`)."""
        return self.index.candidates(self.claim, self.t.max_candidates)

    @cached_property
    def alignments(self) -> list[Alignment]:
        """One :class:`Alignment` per candidate, in candidate order."""
        return [self.aligner.align(self.claim, self.values, pid, self.index) for pid in self.candidates]

    @cached_property
    def best(self) -> Alignment | None:
        """The candidate that holds most of the claim (:attr:`Alignment.partial`); None without one."""
        return max(self.alignments, key=lambda a: (a.partial, -a.pid)) if self.alignments else None

    @cached_property
    def support(self) -> float:
        """The support of the claim left unverified (:func:`~sourced_nlp.verdict.support.unverified_support`)."""
        assert self.best is not None, "support needs a candidate passage"
        return unverified_support(self.claim, self.values, self.best, self.alignments, self.index, self.aligner, self.t)

    @cached_property
    def shortfall(self) -> Shortfall:
        """Why the best candidate does not state the claim (:func:`~sourced_nlp.verdict.shortfall.shortfall`)."""
        assert self.best is not None, "a shortfall needs a candidate passage"
        return shortfall(self.claim, self.best, self.index, self.aligner)

    def passage(self, pid: int) -> Passage:
        """The passage of an id."""
        return self.index.passages[pid]

    def evidence(self, pid: int) -> Evidence:
        """The evidence entry of a passage."""
        return evidence(self.index.passages[pid])  # type: ignore[return-value]


class Rule(Protocol):
    """One rule of the decision order: ``rule(ctx) -> Result | None`` (None: not this rule)."""

    def __call__(self, ctx: ClaimContext) -> Result | None: ...
