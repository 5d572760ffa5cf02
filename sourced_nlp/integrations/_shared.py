"""What both integrations share: the pipeline loaded once (on first use) or given, one check at
a time, the gate of :meth:`~sourced_nlp.report.model.Report.gate`, the feedback lines."""

from __future__ import annotations

import threading
from typing import Any

#: one check at a time: a spaCy pipeline is not made to be called from two threads at once, and
#: both libraries run a synchronous step in a thread pool (``ainvoke``, ``batch``, ``aevaluate``)
_LOCK = threading.Lock()


def missing(package: str, extra: str, module: str) -> str:
    """The message of the ImportError of an integration whose library is not installed."""
    return (
        f"{module} needs {package}, which is not installed: pip install 'sourced-nlp[{extra}]' "
        f"(or pip install '{package}')"
    )


class Checker:
    """A check and its gate: ``nlp`` (default :func:`sourced_nlp.load_pipeline`, loaded on the
    first check), and the gate's ``fail_on``, ``fail_under`` and ``min_coverage`` as
    :meth:`Report.gate <sourced_nlp.report.model.Report.gate>` reads them.

    Raises:
        ValueError, TypeError: a gate that :meth:`Report.gate` refuses, at once.
    """

    def __init__(
        self,
        nlp: Any = None,
        fail_on: str = "contradicted",
        fail_under: float | None = None,
        min_coverage: float | None = None,
    ) -> None:
        from ..report.model import Report

        Report().gate(fail_on, fail_under, min_coverage)  # a wrong gate fails here, not at the first check
        self._nlp = nlp
        self.fail_on, self.fail_under, self.min_coverage = fail_on, fail_under, min_coverage

    @property
    def nlp(self) -> Any:
        """The pipeline: the one given, or the default loaded on first use."""
        if self._nlp is None:
            from ..api import load_pipeline

            self._nlp = load_pipeline()
        return self._nlp

    def check(self, answer: str, sources: Any):
        """``(report, reasons)``: the :class:`~sourced_nlp.report.model.Report` of
        :func:`sourced_nlp.check` and why it fails the gate (empty: it passes).

        Raises:
            SourceError: sources or an answer that cannot be checked, as for :func:`sourced_nlp.check`.
        """
        from ..api import check

        with _LOCK:
            report = check(answer, sources, nlp=self.nlp)
        return report, report.gate(self.fail_on, self.fail_under, self.min_coverage)


def claim_lines(report) -> list[str]:
    """One line per claim that is not grounded: verdict, rule, the claim and the reason."""
    return [
        f"{c.verdict} ({c.rule or 'no rule'}): {c.text!r}: {c.reason}" for c in report.claims if c.verdict != "grounded"
    ]


def feedback(report, reasons: list[str]) -> str:
    """The claim lines of :func:`claim_lines` (or that every claim is grounded, or that there is
    no claim), then why the gate fails when it does."""
    lines = claim_lines(report)
    if not lines:
        lines = [f"all {len(report.claims)} claim(s) grounded" if report.claims else "no claim to check"]
    if reasons:
        lines.append("fails the gate: " + "; ".join(reasons))
    return "\n".join(lines)
