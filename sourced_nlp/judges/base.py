"""The judge interface: what a judge is given, what it answers, and the Protocol it implements.

A judge is a tier after the rules: it sees only the claims the rules left ``unverified``, each
with its candidate passages, and answers one :class:`Judgment` per claim. A judgment is never
trusted as it stands: :mod:`sourced_nlp.judges.quotes` checks its quote in the source it names
before the claim's verdict changes (see :mod:`sourced_nlp.judges.tier`).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Mapping, Protocol, Sequence, runtime_checkable

VERDICTS = ("grounded", "contradicted", "unverified")


@dataclass(frozen=True)
class Candidate:
    """A source passage shown to the judge with a claim.

    Attributes:
        source: the source id (``doc._.sources[i]["id"]``).
        start: character offset of the passage in that source's text.
        end: character offset just past the passage.
        text: ``source_text[start:end]``.
    """

    source: str
    start: int
    end: int
    text: str


@dataclass(frozen=True)
class JudgeInput:
    """One undecided claim, as a judge sees it.

    Attributes:
        index: the claim's position in the report (``report["claims"][index]``); the id the
            judge answers with.
        claim: the claim text.
        candidates: the passages the rules compared it with, best first (may be empty: the
            judge then has the whole sources only).
        reason: why the rules left it unverified (shown to no model; kept for the report).
    """

    index: int
    claim: str
    candidates: tuple[Candidate, ...] = ()
    reason: str = ""


@dataclass(frozen=True)
class Judgment:
    """A judge's answer for one claim, before its quote is checked.

    Attributes:
        verdict: ``grounded``, ``contradicted`` or ``unverified``.
        source: the id of the source the quote is from ("" for ``unverified``).
        quote: the words of that source that ground or contradict the claim, verbatim.
        reason: the judge's reason, in words.
        error: set when there is no usable answer (a timeout, a refusal, an unparsable
            reply, no recorded answer); the verdict is then ``unverified``.
    """

    verdict: str
    source: str = ""
    quote: str = ""
    reason: str = ""
    error: str | None = None

    def to_dict(self) -> dict:
        """Plain dict with the attribute names as keys."""
        return asdict(self)

    @classmethod
    def failed(cls, error: str) -> "Judgment":
        """An answer that is no answer: the claim stays unverified, ``error`` says why."""
        return cls(verdict="unverified", error=error)


@runtime_checkable
class Judge(Protocol):
    """A judge backend (registered as ``sourced.judge.<name>.v1`` in ``spacy.registry.misc``).

    Attributes:
        backend: the backend's name (``anthropic``, ``callable``, ``replay``).
        model: the model it asks (for the report and the cache key).
        prompt_version: the prompt file's version (``judge-v1``), for the report and the cache key.
    """

    backend: str
    model: str
    prompt_version: str

    def judge(self, inputs: Sequence[JudgeInput], sources: Mapping[str, str]) -> list[Judgment]:
        """One judgment per input, in order; a failure is ``Judgment.failed(reason)``, never an
        exception. ``sources`` maps every source id of the check to its text."""
        ...


@dataclass
class Settled:
    """The outcome of one judgment after its quote was checked.

    Attributes:
        verdict: the claim's verdict now (``unverified`` unless the quote was verified).
        reason: why, in words (the judge's reason, or why its answer was discarded).
        judgment: the judge's answer.
        match: ``{"source", "start", "end", "text"}`` of the verified quote, or None.
    """

    verdict: str
    reason: str
    judgment: Judgment
    match: dict | None = field(default=None)
