"""The Markdown view of a :class:`~sourced_nlp.report.Report`, for pull-request comments.

Pure module (no spaCy): a counts table, then one row per claim (mark, verdict, claim, evidence
``source:start-end``, reason); a report from a check adds its score, citation coverage and
findings per severity to the counts table, each claim's citation status, and a findings table.
A report whose claims carry their rules' measured precision (``rule_precision``) has a
``rule precision`` column after the verdict: ``93%``, or ``unmeasured`` for a rule never measured.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .findings import findings_markdown, severity_counts
from .marks import MARKS, differs_joined, md_cell, precision_cell
from .marks import measured as _measured

if TYPE_CHECKING:  # pragma: no cover
    from .data import ReportData as Report

__all__ = ["render_markdown"]


def render_markdown(report: Report) -> str:
    """The Markdown summary of ``report`` (see the module docstring); ends with a newline."""
    counts = report.counts
    measured = _measured(c.rule_precision for c in report.claims)
    lines = [
        "| grounded | contradicted | unverified | skipped |",
        "|---:|---:|---:|---:|",
        f"| {counts['grounded']} | {counts['contradicted']} | {counts['unverified']} | {len(report.skipped)} |",
        "",
        "| | verdict |" + (" rule precision |" if measured else "") + " claim | evidence | reason |",
        "|---|---|" + ("---:|" if measured else "") + "---|---|---|",
    ]
    for c in report.claims:
        ev = ", ".join(f"`{md_cell(e.source, code=True)}:{e.start}-{e.end}`" for e in c.evidence)
        reason = c.reason
        if c.differs:
            diff = differs_joined(c.differs)
            reason = f"{reason} ({diff})" if reason else diff
        if report.findings is not None and c.citation_status not in (None, "uncited"):
            reason = f"{reason} · citation {c.citation_status}" if reason else f"citation {c.citation_status}"
        trust = f" {precision_cell(c.rule_precision)} |" if measured else ""
        lines.append(f"| {MARKS[c.verdict]} | {c.verdict} |{trust} {md_cell(c.text)} | {ev} | {md_cell(reason)} |")
    if report.findings is not None:
        sev = severity_counts(report.findings)
        score = "n/a" if report.score is None else f"{report.score}/100"
        cov = "n/a" if report.coverage is None else f"{report.coverage:.0%}"  # as JSON's null, or its share
        lines[0] += " score | citation coverage | high | medium | low |"
        lines[1] += "---:|---:|---:|---:|---:|"
        lines[2] += f" {score} | {cov} | {sev['high']} | {sev['medium']} | {sev['low']} |"
        lines.append(findings_markdown(report.findings).rstrip("\n"))
    return "\n".join(lines) + "\n"
