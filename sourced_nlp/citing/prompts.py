"""Prompting helpers: the sources with labels and a citing rule for the prompt, the reply read
back into claims with checked citations, and a report as Markdown footnotes.

Pure module (no spaCy, no verdicts): :func:`sourced_nlp.cite` checks the claims.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from ..report.marks import differs_joined, mark
from ..text.citations import KEYWORDS, find_citations, strip_citations
from ..text.sources import SourceError, normalize_sources
from .citation_check import check_citation, json_citation

__all__ = ["citation_instructions", "json_reply", "parse_claims", "to_footnotes"]


def _label(i: int) -> str:
    return f"S{i + 1}"


def citation_instructions(sources: Any, style: str = "inline") -> str:
    """A prompt block: the sources with labels, and the rule for citing them.

    Args:
        sources: as for :func:`sourced_nlp.check`.
        style: ``"inline"`` (``[S1: "exact words"]`` after each sentence) or ``"json"`` (a
            ``{"claims": [{"text", "citations": [{"source", "quote"}]}]}`` reply).

    Returns:
        Text to put in the prompt; :func:`parse_claims` reads the reply back.
    """
    if style not in ("inline", "json"):
        raise ValueError(f"unknown style {style!r}; expected 'inline' or 'json'")
    srcs = normalize_sources(sources)
    lines = ["Sources:", ""]
    for i, s in enumerate(srcs):
        default = s["id"] == str(i)
        lines.append(f"[{_label(i)}]" + ("" if default else f" (id: {s['id']})"))
        lines.append(s["text"].strip())
        lines.append("")
    if style == "inline":
        lines += [
            "Answer only from the sources above. After every sentence, cite the source it comes "
            'from as [S1: "exact words"], where S1 is the source label and the words are copied '
            "exactly from that source and contain every name and number of the sentence. Cite "
            'several sources as [S1: "..."] [S2: "..."]. Never cite a source that does not '
            "state the sentence; if no source states it, do not write it.",
        ]
    else:
        lines += [
            "Answer only from the sources above. Reply with JSON only, in this shape:",
            '{"claims": [{"text": "one factual sentence", "citations": [{"source": "S1", '
            '"quote": "exact words copied from S1"}]}]}',
            "Every claim needs at least one citation; each quote must be copied exactly from the "
            "source it names and contain every name and number of the claim.",
        ]
    return "\n".join(lines).rstrip() + "\n"


_JSON_FENCE = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.DOTALL | re.IGNORECASE)
# a sentence ends after . ! ? and the markers that follow it ("[1]", "(Source 2)"; also at the
# end of the reply), or at a line break
_SENT_END = re.compile(
    r"(?<=[.!?])(?:\s*(?:\[[^\[\]\n]*\]|\((?:" + "|".join(KEYWORDS) + r")s?(?![a-z])[^()\n]*\)))*(?:\s+|\Z)|\n+",
    re.IGNORECASE,
)


_CLAIMS_OPENING = re.compile(r'^(?:\{\s*"claims"\s*:|\[\s*\{\s*"text"\s*:)')


def json_reply(reply: str) -> list[dict] | None:
    """The claims of a JSON-shaped reply (``{"claims": [...]}`` or a list of claims, possibly
    in a fenced code block), as ``[{"text", "citations": [raw citation]}]``; None when the
    reply is not that shape (text with citation markers).

    Raises:
        SourceError: a reply that opens as a claims reply (``{"claims"`` or ``[{"text"``) but is
            not one: malformed or cut-off JSON, ``claims`` not a list, a claim without a
            ``text`` string. Read as prose it would be checked as sentences of JSON syntax.
    """
    text = reply.strip()
    m = _JSON_FENCE.match(text)
    if m:
        text = m.group(1)
    if not text or text[0] not in "[{":
        return None
    claims_shaped = bool(_CLAIMS_OPENING.match(text))
    try:
        value = json.loads(text)
    except ValueError as err:
        if claims_shaped:
            raise SourceError(f"the reply is a JSON claims reply that does not parse ({err}); is it cut off?") from err
        return None
    return _reply_claims(value, claims_shaped)


def reply_claims(value: Any) -> list[dict]:
    """The claims of a claims reply already parsed from JSON (``{"claims": [...]}`` or a list
    of claims), as :func:`json_reply` gives them.

    Raises:
        SourceError: ``value`` is not that shape (named by its type).
    """
    claims = _reply_claims(value, False)
    if claims is None:
        raise SourceError(
            f"the reply is a {type(value).__name__} but not a JSON claims reply: expected "
            '{"claims": [{"text": str, "citations": [...]}, ...]} (or that JSON as text)'
        )
    return claims


def _reply_claims(value: Any, claims_shaped: bool) -> list[dict] | None:
    if isinstance(value, Mapping):
        value = value.get("claims")
    if not isinstance(value, list) or not all(isinstance(c, Mapping) and isinstance(c.get("text"), str) for c in value):
        if claims_shaped:
            raise SourceError(
                'the reply is a JSON claims reply of another shape: expected {"claims": [{"text": str, '
                '"citations": [...]}, ...]}'
            )
        return None
    out = []
    for c in value:
        cites = c.get("citations")
        if cites is None:
            cites = [] if c.get("source") is None else [{"source": c.get("source"), "quote": c.get("quote")}]
        out.append({"text": c["text"], "citations": list(cites) if isinstance(cites, list) else [cites]})
    return out


def parse_claims(reply: str, sources: Any) -> list[dict]:
    """Read a reply back into claims with resolved citations, whichever shape it has.

    A JSON reply (``{"claims": [{"text", "citations": [{"source", "quote"}]}]}``) gives its
    claims; a text reply is cut into sentences (a marker after the full stop stays with its
    sentence) with the markers of :func:`sourced_nlp.text.citations.find_citations`. No verdicts:
    :func:`sourced_nlp.cite` checks them.

    Returns:
        ``[{"text", "start", "end", "citations": [checked citation]}]``; for a text reply,
        ``reply[start:end]`` is the sentence as written, its markers included (so each
        citation's own ``start``/``end`` fall inside it), and ``text`` is that sentence with its
        markers removed: ``text`` is not ``reply[start:end]`` when the sentence has a marker.
        For a JSON reply they are offsets into the claim texts joined by newlines.

    Raises:
        TypeError: ``reply`` is not a str.
        SourceError: invalid ``sources`` (as for :func:`sourced_nlp.check`).
    """
    if not isinstance(reply, str):
        raise TypeError(f"parse_claims(): reply must be a str, not {type(reply).__name__}")
    srcs = normalize_sources(sources)
    claims = json_reply(reply)
    out: list[dict] = []
    if claims is not None:
        pos = 0
        for j, c in enumerate(claims):
            start, end = pos, pos + len(c["text"])
            cites = [
                check_citation(json_citation(x, (start, end), f"claims[{j}].citations[{k}]"), srcs)
                for k, x in enumerate(c["citations"])
            ]
            out.append({"text": c["text"], "start": start, "end": end, "citations": cites})
            pos = end + 1
        return out
    cits = find_citations(reply)
    flat = list(reply)  # a line break inside a marker ('[S1: "words\nwrapped"]') ends no sentence
    for c in cits:
        flat[c.start : c.end] = [" " if ch in "\r\n" else ch for ch in reply[c.start : c.end]]
    pos = 0
    bounds = [m.end() for m in _SENT_END.finditer("".join(flat))] + [len(reply)]
    for b in bounds:
        seg = reply[pos:b]
        if seg.strip():
            a = pos + len(seg) - len(seg.lstrip())
            e = pos + len(seg.rstrip())
            mine = [check_citation(c.to_dict(), srcs) for c in cits if a <= c.start and c.end <= e]
            out.append({"text": strip_citations(reply[a:e])[0].strip(), "start": a, "end": e, "citations": mine})
        pos = b
    return out


def to_footnotes(report) -> str:
    """The claims as Markdown with numbered footnotes that show each claim's evidence.

    Args:
        report: a :class:`sourced_nlp.report.Report` (or its dict).

    Returns:
        One paragraph of claims (citation markers removed), each followed by ``[^n]``, then the
        footnotes: ``[^n]: ✔ grounded — source 146-241: "passage"``, or the reason when there is
        no evidence.

    Raises:
        TypeError: ``report`` is neither a Report nor a mapping.
        ValueError: its ``"claims"`` is not a list.
    """
    if isinstance(report, Mapping):
        d = report
    elif callable(getattr(report, "to_dict", None)) and hasattr(report, "claims"):
        d = report.to_dict()
    else:
        raise TypeError(f"to_footnotes(): report must be a Report or its dict, not {type(report).__name__}")
    if not isinstance(d.get("claims", []), list):
        raise ValueError("to_footnotes(): report['claims'] must be a list of claims")
    body, notes = [], []
    for n, c in enumerate(d.get("claims") or [], start=1):
        text = strip_citations(c["text"])[0].strip()
        body.append(f"{text}[^{n}]")
        ev = c.get("evidence") or []
        head = f"[^{n}]: {mark(c['verdict'])} {c['verdict']}"
        if ev:
            parts = [f'{e["source"]} {e["start"]}-{e["end"]}: "{" ".join(e["text"].split())}"' for e in ev]
            note = head + " — " + "; ".join(parts)
        else:
            note = head + (f" — {c.get('reason')}" if c.get("reason") else "")
        if c.get("differs"):
            note += f" ({differs_joined(c['differs'])})"
        notes.append(note)
    return " ".join(body) + "\n\n" + "\n".join(notes) + "\n"
