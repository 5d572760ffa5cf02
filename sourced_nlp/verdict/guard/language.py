"""Finder ``unverified.language``: the claim is not in English (two function words of another
language, ``foreign_function_words`` of ``models/guard.json``): the rules read English only. Its
finding is the only one (:data:`~sourced_nlp.verdict.guard.ALONE`).

Measured on natural labelled text (``python bench/rule_precision.py``, 2026-12-07: RAGTruth train
and the five dev sets, pooled; ``bench/RESULTS.md``): 1 grounding taken back, hallucinated.
"""

from __future__ import annotations

from ..finding import Finding
from .context import GuardContext

DECIDES = ("unverified.language",)


def find_language(gctx: GuardContext) -> list[Finding]:
    """``[Finding("unverified", "unverified.language", ...)]`` when two words of the claim or
    more are function words of another language, else ``[]``."""
    if sum(t.raw in gctx.lex.foreign for t in gctx.claim) >= 2:
        return [Finding("unverified", "unverified.language", "the claim is not in English; the rules read English only", [], 0)]
    return []
