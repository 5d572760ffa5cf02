"""One citation checked against the sources: what it names, where its quote is, its status.

Pure module (no spaCy). :func:`check_citation` resolves a citation's targets to sources and
locates its quote (:func:`sourced_nlp.text.citations.locate`); :func:`citation_findings` says what
is wrong with it, as findings of :mod:`sourced_nlp.report.findings`; :func:`json_citation` turns a
citation of a JSON reply or a filled schema into the same citation dict.

Citation status (one per citation, on ``claim["citations"][i]["status"]``):

================  ============================================================================
status            meaning
================  ============================================================================
``exact``         its quote is in the named source, character for character
``normalized``    ... after normalisation (case, whitespace, quotes, dashes, ligatures, NFKC)
``fuzzy``         ... with a word changed or missing (:func:`sourced_nlp.text.citations.locate`)
``relocated``     its source offsets point elsewhere; the quote is in the named source
``misattributed`` the quote is in another source than the one named
``not-found``     the quote is in no source
``out-of-range``  a number past the last source (``[7]`` of 3), or offsets past the text end
``missing-source`` no source has the id or label it names
``empty``         it names nothing and quotes nothing
``resolved``      it names a source and quotes nothing
================  ============================================================================
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ..report.findings import finding
from ..text.citations import NUMBERED_RE, locate, positional_ids, resolve_target

__all__ = ["QUOTE_FOUND", "BAD_STATUSES", "check_citation", "citation_findings", "json_citation"]

QUOTE_FOUND = ("exact", "normalized", "fuzzy", "relocated")
BAD_STATUSES = ("misattributed", "not-found", "out-of-range", "missing-source", "empty")
_QUOTE_MIN_SCORE = 0.8


def _resolve(target: str, ids: list[str]) -> tuple[int | None, str | None]:
    """``(index, None)`` for a target that names a source, else ``(None, status)``."""
    k = resolve_target(str(target), ids)
    if k is not None:
        return k, None
    t = str(target).strip()
    m = NUMBERED_RE.match(t)
    if m:
        # ids that are only list places ("0", "1": plain-string sources) are positions, not
        # ids of a numbered shape: a number past them is out of range
        named = [sid for sid, pos in zip(ids, positional_ids(ids)) if not pos]
        shape = re.sub(r"\d+$", "", t).casefold()
        same_shape = any(re.sub(r"\d+$", "", sid).casefold() == shape and sid[-1:].isdigit() for sid in named)
        if not same_shape:
            return None, "out-of-range"
    return None, "missing-source"


def _match_dict(source: str, m) -> dict:
    return {"source": source, "start": m.start, "end": m.end, "text": m.text, "method": m.method, "score": m.score}


def check_citation(citation: Mapping, sources: list[dict]) -> dict:
    """Resolve one citation and locate its quote.

    Args:
        citation: ``{"marker", "targets": [str], "quote": str | None, "start", "end"}`` as in
            ``Span._.citations``; optionally ``"source_start"``/``"source_end"``, the offsets
            the citation gives into its source (JSON replies).
        sources: normalised sources, ``[{"id", "text"}]``.

    Returns:
        A copy of ``citation`` with ``"sources"`` (the ids it resolves to, in order),
        ``"status"`` (see the module docstring) and ``"match"`` (where its quote was found:
        ``{"source", "start", "end", "text", "method", "score"}``, or None).
    """
    out = dict(citation)
    out["targets"] = [str(t) for t in citation.get("targets") or [] if str(t).strip()]
    ids = [s["id"] for s in sources]
    texts = {s["id"]: s["text"] for s in sources}
    quote = citation.get("quote")
    quote = quote.strip() if isinstance(quote, str) and quote.strip() else None
    s_start, s_end = citation.get("source_start"), citation.get("source_end")
    resolved: list[str] = []
    failure: str | None = None
    for t in out["targets"]:
        k, status = _resolve(t, ids)
        if k is None:
            failure = failure or status
        elif ids[k] not in resolved:
            resolved.append(ids[k])
    out["sources"] = resolved
    out["match"] = None
    if not out["targets"] and quote is None and s_start is None:
        out["status"] = "empty"
        return out
    named = resolved if out["targets"] else ids  # a quote with no source: any source
    if quote is None and s_start is not None:
        # offsets without a quote: they must lie inside the named source
        text = texts[named[0]] if named else ""
        try:
            a, b = int(s_start), int(s_end if s_end is not None else s_start)
        except (TypeError, ValueError):
            a, b = -1, -1
        if not named or not (0 <= a < b <= len(text)):
            out["status"] = failure or "out-of-range"
            return out
        quote = text[a:b]
        out["match"] = {"source": named[0], "start": a, "end": b, "text": quote, "method": "exact", "score": 1.0}
        out["status"] = failure or "exact"
        return out
    if quote is None:
        out["status"] = failure or "resolved"
        return out
    near = int(s_start) if isinstance(s_start, int) else None
    for sid in named:
        m = locate(quote, texts[sid], min_score=_QUOTE_MIN_SCORE, near=near)
        if m is not None:
            out["match"] = _match_dict(sid, m)
            if not out["targets"]:
                out["sources"] = [sid]
            status = m.method
            if near is not None and (m.start != near or (isinstance(s_end, int) and m.end != s_end)):
                status = "relocated"
            out["status"] = failure or status
            return out
    for sid in ids:
        if sid in named:
            continue
        m = locate(quote, texts[sid], min_score=_QUOTE_MIN_SCORE)
        if m is not None:
            out["match"] = _match_dict(sid, m)
            out["status"] = failure or "misattributed"
            return out
    out["status"] = failure or "not-found"
    return out


def citation_findings(c: dict, i: int | None) -> list[dict]:
    """The findings a checked citation (:func:`check_citation` output) gives: a quote in no
    source, a citation that does not resolve or is misattributed, an inexact or relocated
    quote; ``i`` is the claim index the findings name (None for a field)."""
    status = c["status"]
    marker = " ".join(str(c.get("marker") or "citation").split())  # a marker wrapped over two lines: one
    q = " ".join(c["quote"].split()) if isinstance(c.get("quote"), str) else c.get("quote")
    if status == "not-found":
        return [finding("fabricated-quote", f'{marker}: the quote "{q}" is in no source', i)]
    if status == "misattributed":
        m = c["match"]
        named = ", ".join(c["sources"]) or "the named source"
        return [
            finding(
                "broken-citation",
                f"{marker}: the quote is in {m['source']} ({m['start']}-{m['end']}), not in {named}",
                i,
            )
        ]
    if status == "missing-source":
        return [
            finding("broken-citation", f"{marker}: no source with id " + ", ".join(repr(t) for t in c["targets"]), i)
        ]
    if status == "out-of-range":
        return [finding("broken-citation", f"{marker}: points past the sources or their text", i)]
    if status == "empty":
        return [finding("broken-citation", f"{marker}: names no source and quotes nothing", i)]
    if status == "fuzzy":
        m = c["match"]
        return [
            finding(
                "inexact-quote",
                f'{marker}: the quote differs from its source, which says "{m["text"]}" (score {m["score"]:.2f})',
                i,
            )
        ]
    if status == "relocated":
        m = c["match"]
        return [
            finding(
                "relocated-quote",
                f"{marker}: the quote is at {m['start']}-{m['end']} of {m['source']}, not at the offsets given",
                i,
            )
        ]
    return []


def json_citation(c: Any, at: tuple[int, int] = (0, 0), label: str = "citation") -> dict:
    """A JSON citation (``{"source", "quote", "start"?, "end"?}``, or a bare source id/number)
    as a citation dict (:func:`check_citation` input); ``at`` is its place in the answer."""
    if not isinstance(c, Mapping):
        c = {"source": c}
    src = c.get("source", c.get("id", c.get("doc")))
    targets = [] if src is None or str(src).strip() == "" else [str(src)]
    quote = c.get("quote")
    out = {
        "marker": label,
        "targets": targets,
        "quote": quote if isinstance(quote, str) else None,
        "start": at[0],
        "end": at[1],
    }
    if isinstance(c.get("start"), int):
        out["source_start"] = c["start"]
        out["source_end"] = c.get("end") if isinstance(c.get("end"), int) else None
    return out
