"""Terminal rendering of a :class:`~sourced_nlp.report.Report` with rich.

Every verdict has a mark *and* a colour (✔ grounded green, ✘ contradicted red, ? unverified
yellow), so the report stays readable without colour (``NO_COLOR``, a pipe, a log file).
User text (claims, passages, reasons, source ids) is escaped, so ``[bold]`` in an answer is
printed as written, never interpreted as rich markup.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Console
from rich.markup import escape

from .marks import MARKS, VERDICTS, differs_text, mark, measured, precision_words
from .marks import shorten as _shorten

if TYPE_CHECKING:  # pragma: no cover
    from .data import ReportData as Report

__all__ = ["STYLES", "MARKS", "shorten", "render_text", "render_findings", "render_fields"]

STYLES = {"grounded": "green", "contradicted": "red", "unverified": "yellow"}
MAX_PASSAGE = 200


def shorten(text: str, limit: int = MAX_PASSAGE) -> str:
    """Collapse whitespace and cut ``text`` to about ``limit`` characters, on a word boundary."""
    return _shorten(text, limit)


def render_text(report: Report, console: Console, *, show_skipped: bool = True, verbose: bool = False) -> None:
    """Print ``report`` to ``console``.

    Layout: one line per claim (mark, verdict, claim text, support), then indented lines with
    the evidence (``source start–end: passage``, passage shortened to ~200 chars) and, for a
    contradiction, what differs (``claim 40% ≠ source 8%``), else the reason; skipped segments
    dimmed with their kind; then a counts line. ``verbose`` adds, under each claim, the rule
    that decided its verdict, when the report names it, with that rule's measured precision on
    natural text when the report carries the figures (``rule grounded.passage · 93% precise on
    natural text``; ``unmeasured`` for a rule never measured), and the words of the claim its evidence does not hold (its
    ``alignment``).

    Args:
        report: the report to show.
        console: where to print; colour follows the console (off for ``NO_COLOR`` or a pipe).
        show_skipped: also list the skipped (non-claim) segments.
        verbose: also show each claim's rule and its precision (``sourced check -v``).
    """
    # Claims and skipped segments in answer order.
    items: list[tuple[int, int, object]] = [(c.start, 0, c) for c in report.claims]
    if show_skipped:
        items += [(s.start, 1, s) for s in report.skipped]
    items.sort(key=lambda t: (t[0], t[1]))
    figures = measured(c.rule_precision for c in report.claims)

    for _, is_skipped, item in items:
        if is_skipped:
            console.print(
                f"[dim]  · skipped ({escape(item.kind)}): {escape(shorten(item.text, 120))}[/dim]",
                highlight=False,
            )
            continue
        c = item
        style = STYLES.get(c.verdict, "white")
        console.print(
            f"[bold {style}]{mark(c.verdict)} {c.verdict:<12}[/bold {style}] {escape(' '.join(c.text.split()))} "
            f"[dim](support {c.support:.2f})[/dim]",
            highlight=False,
        )
        for e in c.evidence:
            console.print(
                f"    [cyan]{escape(e.source)}[/cyan] [dim]{e.start}–{e.end}[/dim]: {escape(shorten(e.text))}",
                highlight=False,
            )
        if c.differs:
            for d in c.differs:
                kind = f" [dim]({escape(str(d.get('kind')))})[/dim]" if d.get("kind") else ""
                console.print(f"    [{style}]{escape(differs_text(d))}[/{style}]{kind}", highlight=False)
        elif c.reason:
            console.print(f"    [dim]{escape(c.reason)}[/dim]", highlight=False)
        if verbose and c.rule:
            trust = f" · {precision_words(c.rule_precision)}" if figures else ""
            console.print(f"    [dim]rule {escape(c.rule)}{trust}[/dim]", highlight=False)
        unaligned = [w["word"] for w in c.alignment or () if w.get("how") == "unaligned"]
        if verbose and unaligned:  # the guard of grounded: the words the evidence does not hold
            console.print(f"    [dim]not in the evidence: {escape(', '.join(unaligned))}[/dim]", highlight=False)

    counts = report.counts
    parts = [f"[{STYLES[v]}]{MARKS[v]} {counts[v]} {v}[/{STYLES[v]}]" for v in VERDICTS]
    if report.skipped:
        parts.append(f"[dim]{len(report.skipped)} skipped[/dim]")
    if not report.claims:
        parts.append("[dim](no claims found)[/dim]")
    console.print("  ".join(parts), highlight=False)


def render_findings(report, console: Console) -> None:
    """Findings, most severe first, and the score, after the text report."""
    findings = report.findings if report.findings is not None else None
    if findings is None:
        return
    colours = {"high": "red", "medium": "yellow", "low": "dim"}
    order = {"high": 0, "medium": 1, "low": 2}
    for f in sorted(findings, key=lambda f: order.get(f["severity"], 3)):
        at = f" claim {f['claim'] + 1}" if isinstance(f.get("claim"), int) else ""
        at = at or (f" {f['field']}" if f.get("field") else "")
        c = colours.get(f["severity"], "white")
        console.print(
            f"[{c}]{f['severity']:<6} {escape(f['kind'])}[/{c}]{escape(at)}: {escape(f['message'])}", highlight=False
        )
    score = getattr(report, "score", None)
    cov = getattr(report, "coverage", None)
    parts = [f"score {score}/100" if score is not None else "score n/a"]
    if cov is not None:  # None (JSON's null): no claim was checked against a citation
        parts.append(f"citation coverage {cov:.0%}")
    parts.append(f"{len(findings)} finding(s)")
    console.print("  ".join(parts), highlight=False)


def render_fields(rep, console: Console) -> None:
    """Print a fields report (:class:`~sourced_nlp.citing.fields.FieldsReport`) to ``console``: one
    line per field (status mark, name, value, its citations' statuses), then the findings."""
    import json

    marks = {
        "found": "[green]✔[/green]",
        "elsewhere": "[yellow]✘[/yellow]",
        "not-found": "[red]✘[/red]",
        "uncited": "[yellow]?[/yellow]",
        "unchecked": "[dim]·[/dim]",
    }
    for f in rep.fields:
        cites = ", ".join(f"{c['status']}" for c in f["citations"]) or "no citation"
        console.print(
            f"{marks.get(f['status'], '?')} {f['status']:<10} {escape(f['field'])} = "
            f"{escape(json.dumps(f['value'], ensure_ascii=False))} [dim]({escape(cites)})[/dim]",
            highlight=False,
        )
    render_findings(rep, console)
