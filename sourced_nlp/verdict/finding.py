"""What a finder of the guard (:mod:`sourced_nlp.verdict.guard`, one finder a module) returns."""

from __future__ import annotations

from typing import NamedTuple


class Finding(NamedTuple):
    """What the guard found: the verdict and rule it gives, its reason, and what differs. A
    ``verdict`` of ``"possible"`` takes nothing back: the guard shows it in the reason of the
    grounding it keeps ("possible: ..."), a finding of too little precision on natural text."""

    verdict: str
    rule: str
    reason: str
    differs: list[dict]
    passage: int
