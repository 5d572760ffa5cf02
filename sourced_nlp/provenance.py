"""Citations checked against the sources they name: statuses, findings, score, fields, prompts.

Pure module (no spaCy import): the claims, passages and verdicts come from the pipeline
(``sourced_verify`` calls :func:`check_claim` for every claim); this module adds what a citation
means on top of them.

Citation status (one per citation, on ``claim["citations"][i]["status"]``):

================  ============================================================================
status            meaning
================  ============================================================================
``exact``         its quote is in the named source, character for character
``normalized``    ... after normalisation (case, whitespace, quotes, dashes, ligatures, NFKC)
``fuzzy``         ... with a word changed or missing (:func:`sourced_nlp.citations.locate`)
``relocated``     its source offsets point elsewhere; the quote is in the named source
``misattributed`` the quote is in another source than the one named
``not-found``     the quote is in no source
``out-of-range``  a number past the last source (``[7]`` of 3), or offsets past the text end
``missing-source`` no source has the id or label it names
``empty``         it names nothing and quotes nothing
``resolved``      it names a source and quotes nothing
================  ============================================================================

Claim citation status (``claim["citation_status"]``): ``supported`` (every citation resolves and
the cited sources ground the claim), ``uncited``, ``broken`` (a citation does not resolve, or
its quote is not in its source), ``contradicted`` (a cited source contradicts the claim),
``elsewhere`` (grounded only in a source it does not cite), ``unsupported`` (the cited sources
neither ground nor contradict it, and no other source grounds it).

Findings are ``{"kind", "severity", "claim": int | None, "message"}`` (claim = index into the
report's claims); kinds and severities are in :data:`SEVERITY`.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .citations import find_citations, locate, positional_ids, resolve_target, strip_citations
from .quantity import Quantity, compare, parse_quantity
from .sources import SourceError

__all__ = [
    "SEVERITY",
    "SEVERITIES",
    "check_citation",
    "check_claim",
    "summarize",
    "require_citations",
    "gate",
    "check_fields",
    "FieldsReport",
    "citation_instructions",
    "parse_claims",
    "to_footnotes",
]

#: Severity of every finding kind.
SEVERITY = {
    "no-sources": "high",
    "fabricated-number": "high",
    "fabricated-quote": "high",
    "contradiction": "high",
    "broken-citation": "medium",
    "unsupported-claim": "medium",
    "uncited": "medium",
    "inexact-quote": "low",
    "relocated-quote": "low",
}
#: Severities, most severe first; ``--fail-on medium`` fails on high and medium findings.
SEVERITIES = ("high", "medium", "low")
_RANK = {s: i for i, s in enumerate(SEVERITIES)}

QUOTE_FOUND = ("exact", "normalized", "fuzzy", "relocated")
BAD_STATUSES = ("misattributed", "not-found", "out-of-range", "missing-source", "empty")
_QUOTE_MIN_SCORE = 0.8
_NUMBERED = re.compile(
    r"^(?:(?:source|passage|document|doc|reference|ref|context|chunk|excerpt|snippet|citation"
    r"|src|s|p|d)s?[\s\-_#.:]*)?(\d+)$", re.IGNORECASE)


def finding(kind: str, message: str, claim: int | None = None, **extra: Any) -> dict:
    """One finding dict; the severity comes from :data:`SEVERITY`."""
    return {"kind": kind, "severity": SEVERITY[kind], "claim": claim, "message": message, **extra}


# ---------------------------------------------------------------------------------------------
# one citation
# ---------------------------------------------------------------------------------------------


def _resolve(target: str, ids: list[str]) -> tuple[int | None, str | None]:
    """``(index, None)`` for a target that names a source, else ``(None, status)``."""
    k = resolve_target(str(target), ids)
    if k is not None:
        return k, None
    t = str(target).strip()
    m = _NUMBERED.match(t)
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
    return {"source": source, "start": m.start, "end": m.end, "text": m.text, "method": m.method,
            "score": m.score}


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


def _citation_findings(c: dict, i: int | None) -> list[dict]:
    status = c["status"]
    marker = " ".join(str(c.get("marker") or "citation").split())  # a marker wrapped over two lines: one
    q = " ".join(c["quote"].split()) if isinstance(c.get("quote"), str) else c.get("quote")
    if status == "not-found":
        return [finding("fabricated-quote", f'{marker}: the quote "{q}" is in no source', i)]
    if status == "misattributed":
        m = c["match"]
        named = ", ".join(c["sources"]) or "the named source"
        return [finding("broken-citation", f'{marker}: the quote is in {m["source"]} '
                        f'({m["start"]}-{m["end"]}), not in {named}', i)]
    if status == "missing-source":
        return [finding("broken-citation", f"{marker}: no source with id "
                        + ", ".join(repr(t) for t in c["targets"]), i)]
    if status == "out-of-range":
        return [finding("broken-citation", f"{marker}: points past the sources or their text", i)]
    if status == "empty":
        return [finding("broken-citation", f"{marker}: names no source and quotes nothing", i)]
    if status == "fuzzy":
        m = c["match"]
        return [finding("inexact-quote", f'{marker}: the quote differs from its source, which says '
                        f'"{m["text"]}" (score {m["score"]:.2f})', i)]
    if status == "relocated":
        m = c["match"]
        return [finding("relocated-quote", f"{marker}: the quote is at {m['start']}-{m['end']} of "
                        f"{m['source']}, not at the offsets given", i)]
    return []


# ---------------------------------------------------------------------------------------------
# one claim
# ---------------------------------------------------------------------------------------------


def _is_figure(qd: dict) -> bool:
    text = str(qd.get("text", ""))
    return qd.get("kind") != "ordinal" and (any(ch.isdigit() for ch in text)
                                            or qd.get("kind") in ("percent", "money", "measure"))


def _to_q(qd: dict) -> Quantity | None:
    try:
        return Quantity.from_dict(qd)
    except (KeyError, TypeError, ValueError):
        return None


def unsourced_figures(claim_quantities: list[dict], source_quantities: list[Quantity],
                      source_texts: list[str], skip: frozenset[str] = frozenset()) -> list[dict]:
    """The figures of a claim that no source states.

    A figure is a quantity written with a digit, or a percentage, amount of money or measure;
    it is stated by a source when some source quantity matches or overlaps it
    (:func:`sourced_nlp.quantity.compare` gives ``match`` or ``partial``) or its text is found
    in a source (exact or normalised).

    Args:
        claim_quantities: ``Span._.quantity`` dicts of the claim.
        source_quantities: every quantity of every source.
        source_texts: the source texts.
        skip: quantity texts already reported otherwise (the claim side of a contradiction).
    """
    out = []
    for qd in claim_quantities:
        if not _is_figure(qd) or qd.get("text") in skip:
            continue
        q = _to_q(qd)
        if q is None:
            continue
        if any(compare(q, s) in ("match", "partial") for s in source_quantities):
            continue
        text = str(qd.get("text") or "").strip()
        if text and any(locate(text, t, fuzzy=False) for t in source_texts):
            continue
        out.append(qd)
    return out


def claim_record(rec: Mapping, citations: list[Mapping] | None) -> Mapping:
    """The claim record without the quotes of its citation markers (``[S2: "words"]``): such a
    quote points at evidence and is checked as the citation's quote, not as words the claim
    quotes. A record without marker quotes is returned as it is."""
    marker_quotes = {" ".join(str(c.get("quote")).split()) for c in citations or [] if c.get("quote")}
    if not marker_quotes or not rec.get("quotes"):
        return rec
    kept = [q for q in rec["quotes"] if " ".join(q.split()) not in marker_quotes]
    return rec if len(kept) == len(rec["quotes"]) else {**rec, "quotes": kept}


def check_claim(
    rec: Mapping,
    citations: list[Mapping],
    result: dict,
    sources: list[dict],
    verify_cited: Callable[[list[str]], dict],
    source_quantities: list[Quantity],
    claim_index: int | None = None,
) -> tuple[dict, dict, list[dict]]:
    """Check one claim's citations and settle its verdict, source first.

    The verdict is computed against the cited sources first (``verify_cited``): when they
    ground or contradict the claim, that is the verdict; else the verdict against every source
    (``result``) stands. A claim grounded only in a source it does not cite, or contradicted
    by a source it cites, gets a ``broken-citation`` finding. A claim without citations keeps
    ``result`` unchanged.

    Args:
        rec: the claim's passage record (``quantities``, ``quotes``, ...).
        citations: the claim's citation dicts (``Span._.citations``).
        result: the verdict against every source (``Verifier.verify`` shape).
        sources: normalised sources.
        verify_cited: ``verify_cited(source_ids) -> result`` against those sources only.
        source_quantities: every quantity of every source, for ``fabricated-number``.
        claim_index: index of the claim in the report, for the findings.

    Returns:
        ``(result, extra, findings)``: the final verdict dict; ``{"citations": [...checked],
        "citation_status": str}`` to merge into the claim dict; the claim's findings.
    """
    i = claim_index
    findings: list[dict] = []
    checked = [check_citation(c, sources) for c in citations]
    for c in checked:
        findings.extend(_citation_findings(c, i))
    bad = any(c["status"] in BAD_STATUSES for c in checked)
    final = result
    if not checked:
        status = "uncited"
    else:
        cited_ids: list[str] = []
        for c in checked:
            for sid in c["sources"]:
                if sid not in cited_ids:
                    cited_ids.append(sid)
        cited = verify_cited(cited_ids) if cited_ids else None
        names = ", ".join(cited_ids)
        if cited is not None and cited["verdict"] in ("grounded", "contradicted"):
            final = cited
        if cited is None:
            status = "broken"
        elif cited["verdict"] == "grounded":
            status = "broken" if bad else "supported"
        elif cited["verdict"] == "contradicted":
            status = "contradicted"
            findings.append(finding("broken-citation", f"contradicted by the source it cites ({names})", i))
        elif result["verdict"] == "grounded":
            status = "elsewhere"
            where = ", ".join(dict.fromkeys(e["source"] for e in result["evidence"]))
            findings.append(finding("broken-citation",
                                    f"grounded only in {where}, which it does not cite (cites {names})", i))
        else:
            status = "broken" if bad else "unsupported"
    texts = [s["text"] for s in sources]
    for quote in rec.get("quotes") or []:
        if quote.strip() and not any(locate(quote, t, min_score=0.9) for t in texts):
            findings.append(finding("fabricated-quote", f'the quote "{quote}" is in no source', i))
    skip = frozenset(d.get("claim") for d in final.get("differs") or [] if d.get("kind") == "quantity")
    for qd in unsourced_figures(list(rec.get("quantities") or []), source_quantities, texts, skip):
        findings.append(finding("fabricated-number", f"{qd.get('text')} is in no source", i))
    findings.extend(verdict_findings(final, i))
    extra = {"citations": checked, "citation_status": status}
    return final, extra, findings


def verdict_findings(claim: Mapping, i: int | None) -> list[dict]:
    """``contradiction`` for a contradicted claim, ``unsupported-claim`` for an unverified one."""
    if claim["verdict"] == "contradicted":
        diff = "; ".join(f"claim {d.get('claim')} ≠ source {d.get('source')}" for d in claim.get("differs") or [])
        return [finding("contradiction", diff or claim.get("reason") or "contradicted by a source", i)]
    if claim["verdict"] == "unverified":
        return [finding("unsupported-claim", claim.get("reason") or "not stated in the sources", i)]
    return []


# ---------------------------------------------------------------------------------------------
# a whole report
# ---------------------------------------------------------------------------------------------


def score(claims: list[Mapping]) -> int | None:
    """Grounding score 0-100: the share of claims that are grounded (None without claims)."""
    if not claims:
        return None
    return round(100 * sum(1 for c in claims if c["verdict"] == "grounded") / len(claims))


def coverage(claims: list[Mapping]) -> float | None:
    """Citation coverage in [0, 1]: the share of claims whose citations resolve and support
    them (``citation_status == "supported"``); None without claims."""
    if not claims:
        return None
    return round(sum(1 for c in claims if c.get("citation_status") == "supported") / len(claims), 4)


def summarize(claims: list[dict], findings: list[dict], sources: list[dict]) -> dict:
    """The report-level keys: ``{"findings", "score", "coverage"}``; no sources is a finding."""
    out = list(findings)
    if not sources:
        out.insert(0, finding("no-sources", "no sources were given: nothing can be grounded"))
    return {"findings": out, "score": 0 if not sources and claims else score(claims),
            "coverage": coverage(claims)}


def require_citations(report_dict: dict) -> dict:
    """Add an ``uncited`` finding for every claim without a citation (in place; returned)."""
    findings = report_dict.setdefault("findings", [])
    have = {(f["kind"], f["claim"]) for f in findings}
    for i, c in enumerate(report_dict.get("claims") or []):
        if not c.get("citations") and ("uncited", i) not in have:
            findings.append(finding("uncited", "the claim cites no source", i))
    findings.sort(key=lambda f: (f["claim"] is not None, f["claim"] if f["claim"] is not None else -1))
    return report_dict


def gate(findings: list[Mapping], *, fail_on: str | None = None, fail_under: float | None = None,
         score_value: float | None = None, min_coverage: float | None = None,
         coverage_value: float | None = None) -> list[str]:
    """Why a CI gate fails (empty list: it passes).

    Args:
        findings: the findings.
        fail_on: a severity (``high``, ``medium``, ``low``): findings of that severity or worse fail.
        fail_under: the score (0-100) must be at least this.
        score_value: the score; None (an answer with no claim to check) fails ``fail_under``:
            a gate that asks for a score does not pass without one.
        min_coverage: the citation coverage must be at least this (a share in [0, 1]).
        coverage_value: the coverage.
    """
    reasons = []
    if fail_on is not None:
        if fail_on not in _RANK:
            raise ValueError(f"unknown severity {fail_on!r}; expected one of {SEVERITIES}")
        hit = [f for f in findings if _RANK.get(f["severity"], 9) <= _RANK[fail_on]]
        if hit:
            kinds = sorted({f["kind"] for f in hit})
            reasons.append(f"{len(hit)} finding(s) of severity {fail_on} or worse: {', '.join(kinds)}")
    if fail_under is not None and score_value is None:
        reasons.append(f"no score (no claim to check) where at least {fail_under:g} is required")
    elif fail_under is not None and score_value < fail_under:
        reasons.append(f"score {score_value} < {fail_under:g}")
    if min_coverage is not None and (coverage_value or 0.0) < min_coverage:
        reasons.append(f"citation coverage {coverage_value or 0.0:.0%} < {min_coverage:.0%}")
    return reasons


# ---------------------------------------------------------------------------------------------
# structured extraction
# ---------------------------------------------------------------------------------------------

_TOKEN = re.compile(r"\S+")
_EDGE = "\"'()[]{},;:!?\u201c\u201d\u2018\u2019"


def quantities_in(text: str) -> list[Quantity]:
    """Every quantity written with a digit in ``text`` (a light scan with
    :func:`sourced_nlp.quantity.parse_quantity` over windows of up to five words)."""
    toks = [(m.start(), m.end()) for m in _TOKEN.finditer(text)]
    out: list[Quantity] = []
    for i, (a, b) in enumerate(toks):
        if not any(ch.isdigit() for ch in text[a:b]):
            continue
        best: Quantity | None = None
        for lo in (i - 1, i):
            if lo < 0:
                continue
            for hi in range(min(len(toks), i + 4), i, -1):
                frag = text[toks[lo][0]:toks[hi - 1][1]].strip(_EDGE).rstrip(".")
                q = parse_quantity(frag)
                if q is not None:
                    best = q
                    break
            if best is not None:
                break
        if best is not None:
            out.append(best)
    return out


def _leaves(value: Any, path: str) -> list[tuple[str, Any]]:
    if isinstance(value, Mapping):
        out = []
        for k, v in value.items():
            out.extend(_leaves(v, f"{path}.{k}" if path else str(k)))
        return out
    if isinstance(value, (list, tuple)):
        out = []
        for j, v in enumerate(value):
            out.extend(_leaves(v, f"{path}[{j}]"))
        return out
    return [(path, value)]


def _leaf_quantity(value: Any) -> Quantity | None:
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)):
        if isinstance(value, float) and not math.isfinite(value):
            return None
        return parse_quantity(repr(value) if isinstance(value, float) else str(value))
    if isinstance(value, str) and any(ch.isdigit() for ch in value):
        return parse_quantity(value)
    return None


def _value_in(value: Any, vq: Quantity | None, text: str) -> bool:
    """Whether a leaf value is stated in ``text``: numbers by value and unit, strings by
    :func:`locate` (exact, normalised, or fuzzy for long strings)."""
    if vq is not None:
        return any(compare(vq, s) == "match" for s in quantities_in(text))
    if isinstance(value, str) and value.strip():
        return locate(value, text) is not None
    return False


def _field_nodes(fields: Any) -> list[tuple[str, Any, list[dict] | None]]:
    """``[(name, value, citations | None)]`` from ``{name: {"value", "citations"}}``, a list of
    ``{"field"|"name", "value", "citations"}``, or ``{"fields": ...}``."""
    if isinstance(fields, Mapping) and "fields" in fields and len(fields) == 1:
        fields = fields["fields"]
    items: list[tuple[str, Any]] = []
    if isinstance(fields, Mapping):
        items = [(str(k), v) for k, v in fields.items()]
    elif isinstance(fields, (list, tuple)):
        for j, node in enumerate(fields):
            name = node.get("field", node.get("name", str(j))) if isinstance(node, Mapping) else str(j)
            items.append((str(name), node))
    else:
        raise ValueError("fields must be a JSON object or a list of field objects")
    out = []
    for name, node in items:
        if isinstance(node, Mapping) and "value" in node:
            cites = node.get("citations")
            if cites is None and ("source" in node or "quote" in node):
                cites = [{"source": node.get("source"), "quote": node.get("quote")}]
            if cites is not None and not isinstance(cites, list):
                cites = [cites]
            out.append((name, node["value"], cites))
        else:
            out.append((name, node, None))
    return out


def json_citation(c: Any, at: tuple[int, int] = (0, 0), label: str = "citation") -> dict:
    """A JSON citation (``{"source", "quote", "start"?, "end"?}``, or a bare source id/number)
    as a citation dict (:func:`check_citation` input); ``at`` is its place in the answer."""
    if not isinstance(c, Mapping):
        c = {"source": c}
    src = c.get("source", c.get("id", c.get("doc")))
    targets = [] if src is None or str(src).strip() == "" else [str(src)]
    quote = c.get("quote")
    out = {"marker": label, "targets": targets, "quote": quote if isinstance(quote, str) else None,
           "start": at[0], "end": at[1]}
    if isinstance(c.get("start"), int):
        out["source_start"] = c["start"]
        out["source_end"] = c.get("end") if isinstance(c.get("end"), int) else None
    return out


def _field_finding(kind: str, message: str, field_name: str | None) -> dict:
    return {"kind": kind, "severity": SEVERITY[kind], "field": field_name, "message": message}


@dataclass
class FieldsReport:
    """The result of :func:`check_fields`.

    Attributes:
        fields: one dict per leaf value: ``{"field": "a.b[0]", "value", "status",
            "citations": [checked citation], "passage": [{"source","start","end","text"}]}``;
            status ``found`` (in the cited passage), ``elsewhere`` (in a source, not in the
            cited passage), ``not-found`` (in no source), ``uncited`` or ``unchecked``
            (booleans, nulls).
        findings: ``{"kind", "severity", "field", "message"}``.
        sources: ``{"id", "chars"}`` per source.
    """

    fields: list[dict] = field(default_factory=list)
    findings: list[dict] = field(default_factory=list)
    sources: list[dict] = field(default_factory=list)

    @property
    def score(self) -> int | None:
        """0-100: the share of checkable values found in their cited passage."""
        checkable = [f for f in self.fields if f["status"] != "unchecked"]
        if not checkable:
            return None
        return round(100 * sum(1 for f in checkable if f["status"] == "found") / len(checkable))

    def to_dict(self) -> dict:
        return {"schema": "sourced.fields/1", "sources": self.sources, "fields": self.fields,
                "findings": self.findings, "score": self.score}

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), sort_keys=True, ensure_ascii=False, indent=indent)

    def gate(self, fail_on: str = "medium", fail_under: float | None = None,
             min_coverage: float | None = None) -> list[str]:
        """Why the gate fails (empty: it passes); see :func:`gate`.

        Raises:
            ValueError: an unknown severity ``fail_on``, or ``fail_under`` outside 0-100.
            TypeError: ``fail_under`` is not a number.
        """
        from .report import check_thresholds

        if fail_on not in SEVERITIES:
            raise ValueError(f"unknown fail_on {fail_on!r}; expected one of {', '.join(SEVERITIES)}")
        fail_under, _ = check_thresholds(fail_under)
        return gate(self.findings, fail_on=fail_on, fail_under=fail_under, score_value=self.score)

    def failed(self, fail_on: str = "medium", fail_under: float | None = None) -> bool:
        """Whether a finding of severity ``fail_on`` or worse exists, or the score is below
        ``fail_under``."""
        return bool(self.gate(fail_on, fail_under))

    def to_markdown(self) -> str:
        counts = {s: sum(1 for f in self.findings if f["severity"] == s) for s in SEVERITIES}
        score_txt = "n/a" if self.score is None else str(self.score)
        lines = ["| score | high | medium | low |", "|---:|---:|---:|---:|",
                 f"| {score_txt} | {counts['high']} | {counts['medium']} | {counts['low']} |", "",
                 "| field | value | status | citation | passage |", "|---|---|---|---|---|"]
        for f in self.fields:
            cites = ", ".join(f"{c.get('marker')}: {c['status']}" for c in f["citations"])
            passage = "; ".join(f"`{p['source']}:{p['start']}-{p['end']}`" for p in f["passage"])
            lines.append(f"| {_md(f['field'])} | {_md(json.dumps(f['value'], ensure_ascii=False))} | "
                         f"{f['status']} | {_md(cites)} | {passage} |")
        lines += _findings_md(self.findings, "field")
        return "\n".join(lines) + "\n"


def _is_empty_value(value: Any) -> bool:
    """A value that states nothing: ``""`` (or whitespace), ``[]``, ``{}``, or a list or
    object holding only such values and nulls."""
    if value is None:
        return True
    if isinstance(value, str):
        return not value.strip()
    if isinstance(value, Mapping):
        return all(_is_empty_value(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return all(_is_empty_value(v) for v in value)
    return False


def check_fields(fields: Any, sources: Any) -> FieldsReport:
    """Check a filled schema: every value must be stated in the passage its citations point to.

    Each field is ``{"value": ..., "citations": [{"source", "quote"}]}`` (also
    ``{"value", "source", "quote"}``); ``fields`` is a mapping of field names to fields, or a
    list of fields with a ``"field"`` name. Citations resolve as in answers (index, label,
    id); the cited passage is the quote where it is found, or the whole source when there is
    no quote. A value is checked leaf by leaf (arrays and objects): a number or a string with a
    digit by value and unit (:func:`sourced_nlp.quantity.compare`: ``$2.4 billion`` =
    ``2400000000`` ≠ ``2.4%``), other strings by :func:`~sourced_nlp.citations.locate`.

    Findings: ``fabricated-quote`` (a quote in no source), ``fabricated-number`` (a figure in no
    source), ``broken-citation`` (a citation that does not resolve, a misattributed quote, or a
    value that is in a source but not in the cited passage), ``unsupported-claim`` (a text
    value in no source), ``uncited``, ``no-sources``.

    Args:
        fields: the extracted fields (see above).
        sources: as for :func:`sourced_nlp.check`; an empty list gives a ``no-sources`` finding.

    Raises:
        ValueError: ``fields`` has no usable shape, no field at all (``{}``, ``[]``: a gate over
            no field would pass), or a field whose value is null or empty (``""``, ``[]``,
            ``{}``: it states nothing, so it could only pass unchecked), named.
        SourceError: a malformed source.
    """
    from .sources import normalize_sources

    nodes = _field_nodes(fields)
    if not nodes:
        raise ValueError("no field to check (the fields are empty)")
    for name, value, _ in nodes:
        if value is None:
            raise ValueError(f"field {name!r} has a null value: nothing to check")
        if _is_empty_value(value):
            raise ValueError(f"field {name!r} has an empty value ({json.dumps(value)}): nothing to check")
    srcs = normalize_sources(sources) if sources else []
    rep = FieldsReport(sources=[{"id": s["id"], "chars": len(s["text"])} for s in srcs])
    if not srcs:
        rep.findings.append(_field_finding("no-sources", "no sources were given: nothing can be grounded", None))
    texts = {s["id"]: s["text"] for s in srcs}
    for name, value, cites in nodes:
        checked = [check_citation(json_citation(c, label=f"{name} citation {j + 1}"), srcs)
                   for j, c in enumerate(cites or [])] if srcs else []
        for c in checked:
            for f in _citation_findings(c, None):
                rep.findings.append(_field_finding(f["kind"], f["message"], name))
        passages: list[dict] = []
        for c in checked:
            if c["status"] in BAD_STATUSES and c["status"] != "misattributed":
                continue
            if c["match"] is not None and c["status"] != "misattributed":
                m = c["match"]
                passages.append({"source": m["source"], "start": m["start"], "end": m["end"], "text": m["text"]})
            elif c["match"] is None:
                for sid in c["sources"]:
                    passages.append({"source": sid, "start": 0, "end": len(texts[sid]), "text": texts[sid]})
        for path, leaf in _leaves(value, name):
            vq = _leaf_quantity(leaf)
            row = {"field": path, "value": leaf, "citations": checked, "passage": passages}
            checkable = vq is not None or (isinstance(leaf, str) and leaf.strip())
            if not checkable or not srcs:
                row["status"] = "unchecked"
            elif any(_value_in(leaf, vq, p["text"]) for p in passages):
                row["status"] = "found"
            else:
                where = next((sid for sid, t in texts.items() if _value_in(leaf, vq, t)), None)
                shown = json.dumps(leaf, ensure_ascii=False)
                if not checked:
                    row["status"] = "uncited"
                    rep.findings.append(_field_finding("uncited", f"{path} = {shown} cites no source", path))
                elif where is not None:
                    row["status"] = "elsewhere"
                    cited_ids = {sid for c in checked for sid in c["sources"]}
                    place = f"elsewhere in {where}" if where in cited_ids else f"in {where}"
                    rep.findings.append(_field_finding(
                        "broken-citation", f"{path} = {shown} is not in the cited passage; it is {place}", path))
                else:
                    row["status"] = "not-found"
                    kind = "fabricated-number" if vq is not None else "unsupported-claim"
                    rep.findings.append(_field_finding(kind, f"{path} = {shown} is in no source", path))
            rep.fields.append(row)
    return rep


# ---------------------------------------------------------------------------------------------
# prompting helpers
# ---------------------------------------------------------------------------------------------


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
    from .sources import normalize_sources

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
            "several sources as [S1: \"...\"] [S2: \"...\"]. Never cite a source that does not "
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
_SENT_END = re.compile(r"(?<=[.!?])(?:\s*(?:\[[^\[\]\n]*\]|\((?:source|passage|doc)[^()\n]*\)))*\s+|\n+", re.IGNORECASE)


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
    if isinstance(value, Mapping):
        value = value.get("claims")
    if not isinstance(value, list) or not all(isinstance(c, Mapping) and isinstance(c.get("text"), str)
                                              for c in value):
        if claims_shaped:
            raise SourceError('the reply is a JSON claims reply of another shape: expected {"claims": [{"text": str, '
                              '"citations": [...]}, ...]}')
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
    sentence) with the markers of :func:`sourced_nlp.citations.find_citations`. No verdicts:
    :func:`sourced_nlp.cite` checks them.

    Returns:
        ``[{"text", "start", "end", "citations": [checked citation]}]``; for a text reply,
        ``start``/``end`` are offsets into ``reply`` and ``text`` has its markers removed;
        for a JSON reply they are offsets into the claim texts joined by newlines.

    Raises:
        TypeError: ``reply`` is not a str.
        SourceError: invalid ``sources`` (as for :func:`sourced_nlp.check`).
    """
    from .sources import normalize_sources

    if not isinstance(reply, str):
        raise TypeError(f"parse_claims(): reply must be a str, not {type(reply).__name__}")
    srcs = normalize_sources(sources)
    claims = json_reply(reply)
    out: list[dict] = []
    if claims is not None:
        pos = 0
        for j, c in enumerate(claims):
            start, end = pos, pos + len(c["text"])
            cites = [check_citation(json_citation(x, (start, end), f"claims[{j}].citations[{k}]"), srcs)
                     for k, x in enumerate(c["citations"])]
            out.append({"text": c["text"], "start": start, "end": end, "citations": cites})
            pos = end + 1
        return out
    cits = find_citations(reply)
    flat = list(reply)  # a line break inside a marker ('[S1: "words\nwrapped"]') ends no sentence
    for c in cits:
        flat[c.start:c.end] = [" " if ch in "\r\n" else ch for ch in reply[c.start:c.end]]
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
    marks = {"grounded": "✔", "contradicted": "✘", "unverified": "?"}
    body, notes = [], []
    for n, c in enumerate(d.get("claims") or [], start=1):
        text = strip_citations(c["text"])[0].strip()
        body.append(f"{text}[^{n}]")
        ev = c.get("evidence") or []
        head = f"[^{n}]: {marks.get(c['verdict'], '?')} {c['verdict']}"
        if ev:
            parts = [f'{e["source"]} {e["start"]}-{e["end"]}: "{" ".join(e["text"].split())}"' for e in ev]
            note = head + " — " + "; ".join(parts)
        else:
            note = head + (f" — {c.get('reason')}" if c.get("reason") else "")
        if c.get("differs"):
            note += " (" + "; ".join(f"claim {x.get('claim')} ≠ source {x.get('source')}" for x in c["differs"]) + ")"
        notes.append(note)
    return " ".join(body) + "\n\n" + "\n".join(notes) + "\n"


# ---------------------------------------------------------------------------------------------
# Markdown pieces
# ---------------------------------------------------------------------------------------------


def _md(text: Any) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def _findings_md(findings: list[Mapping], where: str = "claim") -> list[str]:
    if not findings:
        return ["", "No findings."]
    lines = ["", f"| severity | finding | {where} | message |", "|---|---|---:|---|"]
    for f in sorted(findings, key=lambda f: _RANK.get(f["severity"], 9)):
        at = f.get(where)
        at = "" if at is None else (str(at + 1) if isinstance(at, int) else _md(at))
        lines.append(f"| {f['severity']} | {f['kind']} | {at} | {_md(f['message'])} |")
    return lines


def findings_markdown(findings: list[Mapping]) -> str:
    """A Markdown table of findings, most severe first (claims numbered from 1)."""
    return "\n".join(_findings_md(findings)) + "\n"
