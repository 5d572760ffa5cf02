"""Finder ``unverified.language``: the claim is not in English (two different function words of
another language, ``foreign_function_words`` of ``models/guard.json``, neither the prefix of a
hyphenated word): the rules read English only. Its
finding is the only one (:data:`~sourced_nlp.verdict.guard.ALONE`).

Measured on natural labelled text (``python bench/rule_precision.py``, 2026-12-07: RAGTruth train
and the five dev sets, pooled): it fires on none. Its one firing before different words were
required was an English claim quoting the song "Ddu-Du Ddu-Du" ("du" twice), whose verdict is
now the rules' (``grounded.passage``, wrong there: factcheck-gpt item 1370).
"""

from __future__ import annotations

from ..finding import Finding
from .context import GuardContext

DECIDES = ("unverified.language",)


def foreign_words(claim: list, foreign: frozenset[str]) -> set[str]:
    """The different words of ``foreign`` (function words of another language) among the
    claim's tokens (:class:`~sourced_nlp.verdict.tree.Token` records, read by ``raw``), leaving
    out a word written as the prefix of a hyphenated English word: "non" of "non-negative" (and
    of "non-negligible" after it) is no Italian."""
    return {t.raw for i, t in enumerate(claim) if t.raw in foreign and not _prefix(claim, i)}


def _prefix(claim: list, i: int) -> bool:
    """Whether token ``i`` is joined by a hyphen to the word after it (``non-``, ``pre-``)."""
    nxt = claim[i + 1] if i + 1 < len(claim) else None
    return nxt is not None and nxt.raw in ("-", "\u2010", "\u2011") and nxt.start == claim[i].end


def find_language(gctx: GuardContext) -> list[Finding]:
    """``[Finding("unverified", "unverified.language", ...)]`` when the claim holds two
    different function words of another language or more (:func:`foreign_words`: never one
    word counted twice, never the prefix of a hyphenated word), else ``[]``."""
    if len(foreign_words(gctx.claim, gctx.lex.foreign)) >= 2:
        return [
            Finding(
                "unverified", "unverified.language", "the claim is not in English; the rules read English only", [], 0
            )
        ]
    return []
