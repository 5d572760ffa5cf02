"""The report of one check, as :func:`sourced_nlp.check` returns it: :class:`Report`, the data of
:mod:`.data` (its claims, evidence, skipped segments and counts, the ``sourced.report/1`` shape)
with its views' methods: :meth:`Report.to_html` (and Jupyter's ``_repr_html_``),
:meth:`Report.to_markdown` and :meth:`Report.to_frame`. The data knows none of its views; the
views read the data; this module puts the two together.

Pure module (no spaCy). ``Evidence``, ``ClaimResult``, ``Skipped``, ``SCHEMA`` and
``validate_report`` are :mod:`.data`'s, importable from here as before.
"""

from __future__ import annotations

from collections.abc import Mapping

from .data import SCHEMA, ClaimResult, Evidence, ReportData, Skipped, validate_report
from .findings import FAIL_ON, SEVERITIES, check_fail_on, check_thresholds
from .frame import claim_row, claims_frame
from .html import render_html
from .markdown import render_markdown
from .marks import VERDICTS

__all__ = [
    "SCHEMA",
    "VERDICTS",
    "FAIL_ON",
    "SEVERITIES",
    "Evidence",
    "ClaimResult",
    "Skipped",
    "Report",
    "to_frame",
    "check_fail_on",
    "check_thresholds",
    "validate_report",
]


class Report(ReportData):
    """The result of checking one answer against its sources: the fields, counts, score,
    coverage, gates and JSON of :class:`~.data.ReportData`, and its views."""

    def to_html(self, standalone: bool = False, title: str = "sourced report") -> str:
        """The HTML view: counts, the answer with claims highlighted by verdict, then each
        claim with its reason and evidence; see :func:`sourced_nlp.report.html.render_html`.

        Args:
            standalone: a whole UTF-8 page instead of a fragment.
            title: the page title (standalone only).
        """
        return render_html(self, standalone=standalone, title=title)

    def _repr_html_(self) -> str:
        """Jupyter's rich display: the fragment of :meth:`to_html`."""
        return self.to_html()

    def to_frame(self):
        """One row per claim as a ``pandas.DataFrame`` (needs the ``notebook`` extra).

        Columns: ``claim`` (0-based position), ``text``, ``start``, ``end`` (offsets into the
        answer), ``verdict`` (categorical, ordered as :data:`VERDICTS`), ``support``,
        ``reason``, ``differs`` (``"12% ≠ 8%"``, ``"; "``-joined, ``""`` if none),
        ``evidence_source``, ``evidence_start``, ``evidence_end``, ``evidence_text`` (the first
        evidence passage; ``None``/``<NA>`` without one), ``n_evidence``, ``rule`` (the
        rule that decided the verdict; ``None`` when the report does not name it) and
        ``rule_precision`` (that rule's measured precision in [0, 1] on natural text, float;
        NaN where unmeasured).

        Raises:
            ImportError: pandas is not installed (``pip install 'sourced-nlp[notebook]'``).
        """
        return to_frame([self], _batch=False)

    def to_markdown(self) -> str:
        """A Markdown summary: a counts table, then one row per claim.

        Claim rows: mark, verdict, claim, evidence (``source:start-end``), reason. A report
        from a check also shows its score, citation coverage and findings per severity in the
        summary table, each claim's citation status, and a findings table (for PR comments).
        """
        return render_markdown(self)


def to_frame(reports, *, _batch: bool = True):
    """Claims of many reports as one ``pandas.DataFrame``, one row per claim.

    Args:
        reports: an iterable of :class:`Report` (the ``report`` column is its position) or a
            mapping ``{id: Report}`` (the ``report`` column is the id).

    Returns:
        The columns of :meth:`Report.to_frame`, preceded by ``report``. ``verdict`` is a
        categorical with the categories of :data:`VERDICTS`, so ``value_counts`` and
        ``groupby`` list all three even when one is absent; offsets are nullable integers.

    Raises:
        ImportError: pandas is not installed (``pip install 'sourced-nlp[notebook]'``).
        TypeError: an item is not a :class:`Report`.
    """
    items = reports.items() if isinstance(reports, Mapping) else enumerate(reports)
    rows = []
    for key, report in items:
        if not isinstance(report, Report):
            raise TypeError(f"expected a Report, got {type(report).__name__}")
        for i, c in enumerate(report.claims):
            row = claim_row(i, c)
            if _batch:
                row = {"report": key, **row}
            rows.append(row)
    return claims_frame(rows, batch=_batch)
