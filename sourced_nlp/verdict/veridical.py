"""Whether the evidence asserts what the claim states: now :mod:`sourced_nlp.verdict.guard.unasserted`
(:func:`find_unasserted`), :mod:`sourced_nlp.verdict.guard.dropped` (:func:`find_attributed`) and
:mod:`sourced_nlp.verdict.guard.context` (:func:`claim_hedged`); importable from here for one release.
"""

from __future__ import annotations

from .guard.context import claim_hedged
from .guard.dropped import find_attributed
from .guard.unasserted import APPROXIMATORS, COMPLEMENT, CONDITION, find_unasserted

__all__ = ["APPROXIMATORS", "COMPLEMENT", "CONDITION", "claim_hedged", "find_attributed", "find_unasserted"]
