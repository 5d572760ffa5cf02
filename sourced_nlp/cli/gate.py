"""The gate of every ``sourced`` command: the ``--fail-on`` choices and their parsing
(:func:`fail_on_gates`, each command's default in :data:`DEFAULT_FAIL_ON`), ``--fail-under`` and
``--min-coverage`` checked before any work (:func:`_validate_gates`), the claims a judge gave no
verdict for (:func:`judge_failures`) or whose verdict was discarded (:func:`judge_discards`) and the gate's exit code with its ``gate: ...`` lines on
stderr (:func:`_gate`).
"""

from __future__ import annotations

from enum import Enum
from typing import Optional

import typer

from ..report.findings import check_thresholds
from ..report.model import Report
from .outputs import UsageError


class FailOn(str, Enum):
    contradicted = "contradicted"
    unverified = "unverified"
    high = "high"
    medium = "medium"
    low = "low"
    judge_error = "judge-error"


class Severity(str, Enum):
    high = "high"
    medium = "medium"
    low = "low"


FAIL_ON_HELP = (
    "What fails the gate (exit 1): a verdict (contradicted; unverified = contradicted or "
    "unverified) or a finding severity (high; medium = high or medium; low = any finding); "
    "repeat it to add judge-error: a claim the judge gave no verdict for (its request failed) fails it too."
)

FAIL_ON_METAVAR = "<" + "|".join(f.value for f in FailOn) + ">"


def fail_on_gates(values: Optional[list], default: str) -> tuple[str, bool]:
    """``--fail-on`` given (repeatable): ``(the verdict or severity gate, whether judge-error was
    added)``; ``default`` (the command's) when no verdict or severity is named.

    Raises:
        UsageError: two different verdicts or severities.
    """
    names = [v.value if isinstance(v, Enum) else str(v) for v in values or []]
    gates = list(dict.fromkeys(n for n in names if n != FailOn.judge_error.value))
    if len(gates) > 1:
        raise UsageError(
            f"--fail-on takes one verdict or severity, got {' and '.join(gates)} (judge-error may be added to one)"
        )
    return (gates[0] if gates else default), FailOn.judge_error.value in names


def judge_failures(report: Report) -> tuple[int, int, Optional[str]]:
    """``(claims the judge gave no verdict for because its request failed, claims it was asked
    about, the first failure's words)`` in ``report``."""
    asked = [c.judge for c in report.claims if c.judge]
    failed = [j for j in asked if j.get("status") == "failed"]
    return len(failed), len(asked), (str(failed[0].get("reason") or "") if failed else None)


def judge_failure_line(failed: int, asked: int, first: Optional[str]) -> str:
    """The stderr line of a run whose judge failed (``failed`` > 0)."""
    every = "every request" if failed == asked else "requests"
    return (
        f"judge: {failed} of {asked} claims got no verdict, {every} failed ({first}): they keep the rules' "
        f"verdict (--fail-on judge-error fails the gate on this)"
    )


_DISCARDED = "discarded: "


def judge_discards(report: Report) -> tuple[int, int, Optional[str]]:
    """``(claims whose judge's verdict was discarded because its quote did not check out (not in
    the source it names, too short, no quote), claims the judge was asked about, why the first
    was discarded)`` in ``report``. A judge that invents its quotes gives no usable verdict, as
    one whose requests fail."""
    asked = [c for c in report.claims if c.judge]
    gone = [c for c in asked if c.judge.get("status") == "discarded"]
    why = None
    if gone:
        reason = str(gone[0].reason or "")
        why = (
            reason[reason.rindex(_DISCARDED) + len(_DISCARDED) :]
            if _DISCARDED in reason
            else "its quote did not check out"
        )
    return len(gone), len(asked), why


def judge_discard_line(discarded: int, asked: int, first: Optional[str]) -> str:
    """The stderr line of a run whose judge's verdicts were discarded (``discarded`` > 0)."""
    every = "every quote" if discarded == asked else "their quotes"
    return (
        f"judge: {discarded} of {asked} claims got no usable verdict, {every} failed the check against the "
        f"sources ({first}): they keep the rules' verdict (--fail-on judge-error fails the gate on this)"
    )


def judge_lines(reports: list[Report]) -> tuple[list[str], int, int, int]:
    """``(the stderr lines about the judge of these reports, claims with no verdict, claims
    with a discarded verdict, claims asked)``: one line for failed requests, one for discarded
    verdicts, none for a judge that answered (or none asked)."""
    failures = [judge_failures(r) for r in reports]
    discards = [judge_discards(r) for r in reports]
    failed, discarded = sum(f[0] for f in failures), sum(d[0] for d in discards)
    asked = sum(f[1] for f in failures)
    lines = []
    if failed:
        lines.append(judge_failure_line(failed, asked, next(f[2] for f in failures if f[0])))
    if discarded:
        lines.append(judge_discard_line(discarded, asked, next(d[2] for d in discards if d[0])))
    return lines, failed, discarded, asked


FAIL_UNDER_HELP = "Fail the gate when the grounding score (0-100, the share of claims grounded) is below N."

MIN_COVERAGE_HELP = (
    "Fail the gate when the citation coverage (the share of claims whose citations resolve and "
    "support them) is below this share: 0-1, or a percentage when above 1 (0.9 and 90 are 90%; 1 is all, "
    "1.5 is 1.5%)."
)


def _validate_gates(fail_under: Optional[float], min_coverage: Optional[float]) -> None:
    """Reject a gate that can never fail or never pass, before anything is written (the
    checks of :func:`sourced_nlp.report.check_thresholds`, as ``Report.gate`` makes them).

    Raises:
        UsageError: ``--fail-under`` outside 0-100 or not a number; a bad ``--min-coverage``.
    """
    try:
        check_thresholds(fail_under, min_coverage, names=("--fail-under", "--min-coverage"))
    except (TypeError, ValueError) as err:
        raise UsageError(str(err)) from err


def _gate(
    report, fail_on: str, fail_under: Optional[float], min_coverage: Optional[float], judge_error: bool = False
) -> int:
    """Exit code of the gate; each reason it fails is one ``gate: ...`` line on stderr.
    ``min_coverage`` above 1 is a percentage (``Report.gate`` reads it so). With
    ``judge_error``, a claim the judge gave no verdict for (a failed request) or no usable one (a
    quote that failed the check) fails it too."""
    if min_coverage is not None:
        min_coverage = check_thresholds(None, min_coverage)[1]
    reasons = report.gate(fail_on, fail_under=fail_under, min_coverage=min_coverage)
    if judge_error:
        failed, asked, _ = judge_failures(report)
        if failed:
            reasons = [*reasons, f"the judge gave no verdict for {failed} of {asked} claims (its requests failed)"]
        discarded, asked, _ = judge_discards(report)
        if discarded:
            reasons = [
                *reasons,
                f"the judge's verdict was discarded for {discarded} of {asked} claims "
                f"(its quotes failed the check against the sources)",
            ]
    for r in reasons:
        typer.echo(f"gate: {r}", err=True)
    return 1 if reasons else 0


#: The gate options ``check`` and ``cite`` share, written once.
FAIL_UNDER = typer.Option(None, "--fail-under", metavar="N", help=FAIL_UNDER_HELP)
MIN_COVERAGE = typer.Option(None, "--min-coverage", metavar="SHARE", help=MIN_COVERAGE_HELP)


#: the gate of each command when --fail-on names no verdict or severity
DEFAULT_FAIL_ON = {"check": "contradicted", "cite": "medium", "batch": "contradicted"}
