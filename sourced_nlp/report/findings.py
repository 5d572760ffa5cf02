"""Findings, their severities, the grounding score, citation coverage and the CI gates.

Pure module (no spaCy, nothing else of the package but :mod:`sourced_nlp.report.marks`): the report
(:mod:`sourced_nlp.report`), the citation checks (:mod:`sourced_nlp.citing.provenance`) and the
structured-field checks (:mod:`sourced_nlp.citing.fields`) all read these from here.

A finding is ``{"kind", "severity", "claim": int | None, "message"}`` (``claim`` = index into
the report's claims; a field finding has ``"field"`` instead); every kind has the severity of
:data:`SEVERITY`.

Score and coverage:
    - grounding score: 0-100, the share of claims that are grounded, rounded to a whole
      number; 0 when there were no sources; None without claims.
    - citation coverage: in [0, 1], the share of claims whose citations resolve and support
      them (``citation_status == "supported"``), rounded to 4 places; None without claims.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .marks import differs_joined, md_cell

__all__ = [
    "SEVERITY",
    "SEVERITIES",
    "FAIL_ON",
    "finding",
    "verdict_findings",
    "grounding_score",
    "citation_coverage",
    "report_findings",
    "summarize",
    "require_citations",
    "gate",
    "check_fail_on",
    "check_thresholds",
    "findings_md_lines",
    "findings_markdown",
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
#: The verdicts a gate can fail on: ``contradicted``, or ``unverified`` (contradicted or unverified).
FAIL_ON = ("contradicted", "unverified")
#: The gates that fail an unverified claim; they also fail an answer with no claim at all.
STRICT_GATES = ("unverified", "medium", "low")
NO_CLAIM_REASON = "the answer states nothing to check: no claim was found in it"
RANK = {s: i for i, s in enumerate(SEVERITIES)}


def finding(kind: str, message: str, claim: int | None = None, **extra: Any) -> dict:
    """One finding dict; the severity comes from :data:`SEVERITY`.

    Raises:
        KeyError: ``kind`` is not a finding kind of :data:`SEVERITY`.
    """
    return {"kind": kind, "severity": SEVERITY[kind], "claim": claim, "message": message, **extra}


def verdict_findings(claim: Mapping, i: int | None) -> list[dict]:
    """``contradiction`` for a contradicted claim, ``unsupported-claim`` for an unverified one."""
    if claim["verdict"] == "contradicted":
        diff = differs_joined(claim.get("differs"))
        return [finding("contradiction", diff or claim.get("reason") or "contradicted by a source", i)]
    if claim["verdict"] == "unverified":
        return [finding("unsupported-claim", claim.get("reason") or "not stated in the sources", i)]
    return []


# ---------------------------------------------------------------------------------------------
# score and coverage
# ---------------------------------------------------------------------------------------------


def grounding_score(verdicts: Sequence[str], no_sources: bool = False) -> int | None:
    """Grounding score 0-100: the share of ``verdicts`` that are ``grounded``, rounded to a
    whole number; 0 when ``no_sources`` (nothing could be grounded); None without claims."""
    if not verdicts:
        return None
    if no_sources:
        return 0
    return round(100 * sum(1 for v in verdicts if v == "grounded") / len(verdicts))


def citation_coverage(statuses: Sequence[str | None]) -> float | None:
    """Citation coverage in [0, 1]: the share of claim citation statuses that are
    ``supported``, rounded to 4 places; None where there is nothing to cover: no claims, or an
    answer that cites nothing (every status None or ``uncited``), which the views show as
    "n/a" (``cite`` still says each uncited claim in its findings, and a ``min_coverage`` gate
    counts None as 0)."""
    if all(s is None or s == "uncited" for s in statuses):
        return None
    return round(sum(1 for s in statuses if s == "supported") / len(statuses), 4)


def report_findings(findings: list[dict], sources: list[dict]) -> list[dict]:
    """A check's findings as its report holds them: no sources is a finding, first (a new list)."""
    out = list(findings)
    if not sources:
        out.insert(0, finding("no-sources", "no sources were given: nothing can be grounded"))
    return out


def summarize(claims: list[dict], findings: list[dict], sources: list[dict]) -> dict:
    """The report-level keys of claim dicts: ``{"findings", "score", "coverage"}``
    (:func:`report_findings`, :func:`grounding_score`, :func:`citation_coverage`, as
    ``Report.to_dict`` writes them; ``sourced_verify`` builds its report through ``Report``)."""
    return {
        "findings": report_findings(findings, sources),
        "score": grounding_score([c["verdict"] for c in claims], no_sources=not sources),
        "coverage": citation_coverage([c.get("citation_status") for c in claims]),
    }


def require_citations(report_dict: dict) -> dict:
    """Add an ``uncited`` finding for every claim without a citation (in place; returned)."""
    findings = report_dict.setdefault("findings", [])
    have = {(f["kind"], f["claim"]) for f in findings}
    for i, c in enumerate(report_dict.get("claims") or []):
        if not c.get("citations") and ("uncited", i) not in have:
            findings.append(finding("uncited", "the claim cites no source", i))
    findings.sort(key=lambda f: (f["claim"] is not None, f["claim"] if f["claim"] is not None else -1))
    return report_dict


# ---------------------------------------------------------------------------------------------
# gates
# ---------------------------------------------------------------------------------------------


def gate(
    findings: Iterable[Mapping],
    *,
    fail_on: str | None = None,
    fail_under: float | None = None,
    score_value: float | None = None,
    min_coverage: float | None = None,
    coverage_value: float | None = None,
) -> list[str]:
    """Why a CI gate fails (empty list: it passes).

    Args:
        findings: the findings.
        fail_on: a severity (``high``, ``medium``, ``low``): findings of that severity or worse fail.
        fail_under: the score (0-100) must be at least this.
        score_value: the score; None (an answer with no claim to check) fails ``fail_under``:
            a gate that asks for a score does not pass without one.
        min_coverage: the citation coverage must be at least this (a share in [0, 1]).
        coverage_value: the coverage.

    Raises:
        ValueError: ``fail_on`` is not a severity.
    """
    reasons = []
    if fail_on is not None:
        if fail_on not in RANK:
            raise ValueError(f"unknown severity {fail_on!r}; expected one of {SEVERITIES}")
        hit = [f for f in findings if RANK.get(f["severity"], 9) <= RANK[fail_on]]
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


def check_fail_on(fail_on: Any) -> str:
    """``fail_on`` when it names a gate: a verdict of :data:`FAIL_ON` or a severity of
    :data:`SEVERITIES`.

    Raises:
        TypeError: not a string.
        ValueError: an unknown name; the message lists every one that works.
    """
    value = getattr(fail_on, "value", fail_on)  # the command line's enum members
    if not isinstance(value, str):
        raise TypeError(f"fail_on must be a string, got {type(fail_on).__name__}")
    if value not in FAIL_ON + SEVERITIES:
        raise ValueError(f"unknown fail_on {value!r}; expected one of {', '.join(FAIL_ON + SEVERITIES)}")
    return value


def check_thresholds(
    fail_under: Any = None, min_coverage: Any = None, names: tuple[str, str] = ("fail_under", "min_coverage")
) -> tuple[float | None, float | None]:
    """Validate the score and coverage gates, the same for the API and the command line.

    Args:
        fail_under: None, or a score in 0-100.
        min_coverage: None, or a share in 0-1; a value above 1 (up to 100) is a percentage.
        names: how the two are named in messages (``("--fail-under", "--min-coverage")`` on
            the command line).

    Returns:
        ``(fail_under, min_coverage)``, the coverage as a share in [0, 1].

    Raises:
        TypeError: a value that is not a number (a bool is not one either).
        ValueError: ``fail_under`` outside 0-100, ``min_coverage`` outside 0-100, or NaN.
    """
    for name, value in zip(names, (fail_under, min_coverage)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))):
            raise TypeError(f"{name} must be a number, got {type(value).__name__} {value!r}")
    if fail_under is not None and not (0 <= fail_under <= 100):  # also rejects nan
        raise ValueError(f"{names[0]} must be a score in 0-100, got {fail_under:g}")
    if min_coverage is not None:
        if not (0 <= min_coverage <= 100):
            raise ValueError(f"{names[1]} must be a share in 0-1 (or a percentage), got {min_coverage:g}")
        min_coverage = min_coverage / 100 if min_coverage > 1 else min_coverage
    return fail_under, min_coverage


# ---------------------------------------------------------------------------------------------
# Markdown
# ---------------------------------------------------------------------------------------------


def severity_counts(findings: Iterable[Mapping]) -> dict[str, int]:
    """Findings per severity; always has every key of :data:`SEVERITIES`."""
    findings = list(findings)
    return {s: sum(1 for f in findings if f.get("severity") == s) for s in SEVERITIES}


def findings_md_lines(findings: list[Mapping], where: str = "claim") -> list[str]:
    """The lines of a Markdown findings table, most severe first, after a blank line;
    ``where`` names the column that places a finding (``claim``, numbered from 1, or
    ``field``). ``["", "No findings."]`` when there are none."""
    if not findings:
        return ["", "No findings."]
    lines = ["", f"| severity | finding | {where} | message |", "|---|---|---:|---|"]
    for f in sorted(findings, key=lambda f: RANK.get(f["severity"], 9)):
        at = f.get(where)
        at = "" if at is None else (str(at + 1) if isinstance(at, int) else md_cell(at))
        lines.append(f"| {f['severity']} | {f['kind']} | {at} | {md_cell(f['message'])} |")
    return lines


def findings_markdown(findings: list[Mapping]) -> str:
    """A Markdown table of findings, most severe first (claims numbered from 1)."""
    return "\n".join(findings_md_lines(findings)) + "\n"
