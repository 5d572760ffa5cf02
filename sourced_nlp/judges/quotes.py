"""The check that keeps a judge honest: its quote must be in the source it names.

A judge's ``grounded`` or ``contradicted`` stands only when its quote is found, with
:func:`sourced_nlp.text.citations.locate`, in the text of the source the judgment names: exactly or
after normalisation (case, whitespace, curly quotes, dashes; no fuzzy step, so no word of the
quote may differ) and at least :data:`MIN_QUOTE_WORDS` words long. Otherwise the judgment is
discarded and the claim stays ``unverified``, with the reason.
"""

from __future__ import annotations

import re
from typing import Mapping

from ..text.citations import locate
from .base import Judgment, Settled

MIN_QUOTE_WORDS = 3
_WORD = re.compile(r"\w+")


def _where_else(quote: str, sources: Mapping[str, str], named: str) -> list[str]:
    """The other sources that hold the quote."""
    return [sid for sid, text in sources.items() if sid != named and locate(quote, text, fuzzy=False)]


def settle(judgment: Judgment, sources: Mapping[str, str]) -> Settled:
    """Check one judgment against the sources of its check.

    Args:
        judgment: the judge's answer for a claim.
        sources: ``{source_id: text}`` of every source of the check.

    Returns:
        :class:`Settled`: ``grounded``/``contradicted`` with the quote's offsets in the named
        source when the quote is verified; else ``unverified`` with the reason (the judge's
        failure, its own ``unverified`` reason, or why the quote was discarded).
    """
    if judgment.error is not None:
        return Settled("unverified", f"judge gave no verdict: {judgment.error}", judgment)
    if judgment.verdict == "unverified":
        return Settled("unverified", f"judge: {judgment.reason or 'not shown by the sources'}", judgment)
    why = _discard_reason(judgment, sources)
    if why is not None:
        return Settled("unverified", f"judge's {judgment.verdict} discarded: {why}", judgment)
    m = locate(judgment.quote, sources[judgment.source], fuzzy=False)
    assert m is not None  # _discard_reason located it
    match = {"source": judgment.source, "start": m.start, "end": m.end, "text": m.text}
    return Settled(judgment.verdict, f"judge: {judgment.reason or 'stated in the quote'}", judgment, match)


def _discard_reason(judgment: Judgment, sources: Mapping[str, str]) -> str | None:
    """Why a ``grounded``/``contradicted`` judgment cannot stand (None: its quote is verified)."""
    quote, named = judgment.quote.strip(), judgment.source
    if not quote:
        return "no quote"
    if named not in sources:
        return f"it names no source of this check ({named!r})"
    words = len(_WORD.findall(quote))
    if words < MIN_QUOTE_WORDS:
        return f'the quote has {words} word(s), fewer than {MIN_QUOTE_WORDS}: "{quote}"'
    if locate(quote, sources[named], fuzzy=False) is not None:
        return None
    elsewhere = _where_else(quote, sources, named)
    if elsewhere:
        return f'the quote is not in {named} (it is in {", ".join(elsewhere)}): "{quote}"'
    return f'the quote is in no source: "{quote}"'
