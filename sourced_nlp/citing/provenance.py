"""A claim's citations checked against the sources they name, and its citation status.

Pure module (no spaCy import): the claims, passages and verdicts come from the pipeline
(``sourced_verify`` calls :func:`check_citations` before a claim's verdict and
:func:`claim_outcome` after it); this module adds what a citation
means on top of them. One citation's status is :mod:`sourced_nlp.citing.citation_check`'s; the
findings, score, coverage and gates are :mod:`sourced_nlp.report.findings`'; structured fields are
:mod:`sourced_nlp.citing.fields`' and the prompting helpers :mod:`sourced_nlp.citing.prompts`' (their names
are importable from here too).

Claim citation status (``claim["citation_status"]``): ``supported`` (every citation resolves and
the cited sources ground the claim), ``uncited``, ``broken`` (a citation does not resolve, or
its quote is not in its source), ``contradicted`` (a cited source contradicts the claim),
``elsewhere`` (grounded only in a source it does not cite), ``unsupported`` (the cited sources
neither ground nor contradict it, and no other source grounds it).

Findings are ``{"kind", "severity", "claim": int | None, "message"}`` (claim = index into the
report's claims); kinds and severities are in :data:`SEVERITY`.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..report.findings import (
    SEVERITIES,
    SEVERITY,
    finding,
    findings_markdown,
    gate,
    require_citations,
    summarize,
    verdict_findings,
)
from ..text.citations import locate
from ..text.quantity import Quantity, compare
from ..verdict.rules.cited import decided_by_citation
from .citation_check import BAD_STATUSES, QUOTE_FOUND, check_citation, json_citation
from .citation_check import citation_findings as _citation_findings
from .fields import FieldsReport, check_fields, quantities_in
from .prompts import citation_instructions, json_reply, parse_claims, to_footnotes

__all__ = [
    "SEVERITY",
    "SEVERITIES",
    "check_citation",
    "check_citations",
    "cited_sources",
    "citation_status",
    "claim_outcome",
    "summarize",
    "require_citations",
    "gate",
    "check_fields",
    "FieldsReport",
    "citation_instructions",
    "parse_claims",
    "to_footnotes",
]
# names of the modules split out of this one, importable from here as before
__all__ += [
    "BAD_STATUSES",
    "QUOTE_FOUND",
    "finding",
    "findings_markdown",
    "json_citation",
    "json_reply",
    "quantities_in",
    "verdict_findings",
    "unsourced_figures",
    "claim_record",
]


# ---------------------------------------------------------------------------------------------
# one claim
# ---------------------------------------------------------------------------------------------


def _is_figure(qd: dict) -> bool:
    text = str(qd.get("text", ""))
    return qd.get("kind") != "ordinal" and (
        any(ch.isdigit() for ch in text) or qd.get("kind") in ("percent", "money", "measure")
    )


def _to_q(qd: dict) -> Quantity | None:
    try:
        return Quantity.from_dict(qd)
    except (KeyError, TypeError, ValueError):
        return None


def unsourced_figures(
    claim_quantities: list[dict],
    source_quantities: list[Quantity],
    source_texts: list[str],
    skip: frozenset[str] = frozenset(),
) -> list[dict]:
    """The figures of a claim that no source states.

    A figure is a quantity written with a digit, or a percentage, amount of money or measure;
    it is stated by a source when some source quantity matches or overlaps it
    (:func:`sourced_nlp.text.quantity.compare` gives ``match`` or ``partial``) or its text is found
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


def check_citations(
    citations: list[Mapping], sources: list[dict], claim_index: int | None = None
) -> tuple[list[dict], list[str], list[dict]]:
    """A claim's citations resolved against the sources (:func:`check_citation`), before its
    verdict.

    Returns:
        ``(checked, cited_ids, findings)``: each citation with its status, the ids of the sources
        they name (in order, once each; the verdict's ``cited`` rule judges the claim by these
        first, :mod:`sourced_nlp.verdict.rules.cited`), and the citations' findings.
    """
    findings: list[dict] = []
    checked = [check_citation(c, sources) for c in citations]
    for c in checked:
        findings.extend(_citation_findings(c, claim_index))
    return checked, cited_sources(checked), findings


def cited_sources(checked: list[Mapping]) -> list[str]:
    """The ids of the sources a claim's checked citations name, in order, once each."""
    return list(dict.fromkeys(sid for c in checked for sid in c.get("sources") or ()))


def claim_outcome(
    rec: Mapping,
    checked: list[dict],
    cited_ids: list[str],
    final: Mapping,
    sources: list[dict],
    source_quantities: list[Quantity],
    claim_index: int | None,
    findings: list[dict],
) -> dict:
    """What a claim's verdict means for its citations: its citation status (module docstring),
    and its findings added to ``findings`` (in place): a ``broken-citation`` when it is grounded
    only in a source it does not cite or contradicted by one it cites, a ``fabricated-quote`` for
    a quote in no source, a ``fabricated-number`` for a figure in no source, and the verdict's own.

    Args:
        rec: the claim's passage record (``quantities``, ``quotes``, ...).
        checked, cited_ids: from :func:`check_citations`.
        final: the claim's verdict (``Verifier.verify`` shape).
        sources: normalised sources.
        source_quantities: every quantity of every source, for ``fabricated-number``.
        claim_index: index of the claim in the report, for the findings.

    Returns:
        ``{"citations": [...checked], "citation_status": str}``, to merge into the claim dict.
    """
    i = claim_index
    status = _citation_status(checked, cited_ids, final, findings, i)
    texts = [s["text"] for s in sources]
    for quote in rec.get("quotes") or []:
        if quote.strip() and not any(locate(quote, t, min_score=0.9) for t in texts):
            findings.append(finding("fabricated-quote", f'the quote "{quote}" is in no source', i))
    skip = frozenset(d.get("claim") for d in final.get("differs") or [] if d.get("kind") == "quantity")
    for qd in unsourced_figures(list(rec.get("quantities") or []), source_quantities, texts, skip):
        findings.append(finding("fabricated-number", f"{qd.get('text')} is in no source", i))
    findings.extend(verdict_findings(final, i))
    return {"citations": checked, "citation_status": status}


def citation_status(checked: list[Mapping], cited_ids: list[str], final: Mapping) -> str:
    """A claim's citation status (module docstring), given its checked citations, the sources
    they name (:func:`cited_sources`) and its verdict: the one definition, for a verdict of the
    rules (:func:`claim_outcome`) and for one of the judge (``sourced_nlp.judges.tier``).

    The cited sources decided the verdict when the ``cited`` rule gave it
    (:func:`~sourced_nlp.verdict.rules.cited.decided_by_citation`), or when the judge gave it
    (rule ``*.judge``, or a judge's accepted answer that overruled the rules) on a quote found in a
    cited source.
    """
    if not checked:
        return "uncited"
    if not cited_ids:
        return "broken"
    bad = any(c["status"] in BAD_STATUSES for c in checked)
    if _by_cited_sources(final, cited_ids):
        if final["verdict"] == "grounded":
            return "broken" if bad else "supported"
        return "contradicted"
    if final["verdict"] == "grounded":
        return "elsewhere"
    return "broken" if bad else "unsupported"


def _by_cited_sources(final: Mapping, cited_ids: list[str]) -> bool:
    if decided_by_citation(final):
        return True
    evidence = final.get("evidence") or ()
    by_judge = str(final.get("rule") or "").endswith(".judge") or (final.get("judge") or {}).get("status") == "accepted"
    return by_judge and bool(evidence) and all(e["source"] in cited_ids for e in evidence)


def _citation_status(
    checked: list[dict], cited_ids: list[str], final: Mapping, findings: list[dict], i: int | None
) -> str:
    """:func:`citation_status`, adding the ``broken-citation`` finding it implies."""
    status = citation_status(checked, cited_ids, final)
    names = ", ".join(cited_ids)
    if status == "contradicted":
        findings.append(finding("broken-citation", f"contradicted by the source it cites ({names})", i))
    elif status == "elsewhere":
        where = ", ".join(dict.fromkeys(e["source"] for e in final["evidence"]))
        findings.append(
            finding("broken-citation", f"grounded only in {where}, which it does not cite (cites {names})", i)
        )
    return status
