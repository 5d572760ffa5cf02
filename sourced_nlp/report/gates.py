"""The CI gate of a report: whether it fails, and why in words (``--fail-on``, ``--fail-under``,
``--min-coverage``).

Pure module. :class:`Gates` gives :class:`~sourced_nlp.report.Report` its methods
:meth:`~Gates.gate`, :meth:`~Gates.failing_claims`, :meth:`~Gates.failed` and
:meth:`~Gates.all_findings`, over the report's ``claims``, ``findings``, ``score`` and
``coverage``; the gates themselves (the verdicts and severities, the score and coverage floors)
are :mod:`sourced_nlp.report.findings`'.
"""

from __future__ import annotations

from .findings import (
    FAIL_ON,
    NO_CLAIM_REASON,
    SEVERITIES,
    STRICT_GATES,
    check_fail_on,
    check_thresholds,
    gate,
    verdict_findings,
)


class Gates:
    """The gate of a report (:class:`~sourced_nlp.report.Report`'s base): a subclass has
    ``claims``, ``findings``, ``score`` and ``coverage``."""

    def all_findings(self) -> list[dict]:
        """:attr:`findings`, or for a report without them, those its verdicts imply."""
        if self.findings is not None:
            return self.findings
        return [f for i, c in enumerate(self.claims) for f in verdict_findings(c.to_dict(), i)]

    def gate(
        self, fail_on: str = "contradicted", fail_under: float | None = None, min_coverage: float | None = None
    ) -> list[str]:
        """Why the CI gate fails, in words (empty: it passes).

        Args:
            fail_on: a verdict (``contradicted``, ``unverified``; see :meth:`failing_claims`)
                or a severity (``high``, ``medium``, ``low``: a finding that severe or worse).
            fail_under: the :attr:`score` (0-100) must be at least this.
            min_coverage: the :attr:`coverage` must be at least this share (0-1; a value above
                1 is a percentage, as ``--min-coverage`` reads it: ``70`` is 0.7).

        A strict ``fail_on`` (:data:`STRICT_GATES`) fails an answer with no claim (a preamble
        alone, a truncated reply) with the reason :data:`NO_CLAIM_REASON`.

        Raises:
            ValueError: an unknown ``fail_on`` (the message lists the verdicts and severities
                that work), ``fail_under`` outside 0-100, ``min_coverage`` outside 0-100 (or
                NaN).
            TypeError: ``fail_on`` is not a string, or ``fail_under``/``min_coverage`` is not
                a number.
        """
        fail_on = check_fail_on(fail_on)
        fail_under, min_coverage = check_thresholds(fail_under, min_coverage)
        reasons = []
        if fail_on in SEVERITIES:
            reasons += gate(self.all_findings(), fail_on=fail_on)
        else:
            bad = self.failing_claims(fail_on)
            if bad:
                reasons.append(f"{len(bad)} claim(s) {' or '.join(sorted({c.verdict for c in bad}))}")
        if not self.claims and fail_on in STRICT_GATES:
            reasons.append(NO_CLAIM_REASON)
        return reasons + gate(
            [], fail_under=fail_under, score_value=self.score, min_coverage=min_coverage, coverage_value=self.coverage
        )

    def failing_claims(self, fail_on: str = "contradicted") -> list:
        """The claims (each a :class:`~sourced_nlp.report.data.ClaimResult`) that fail the gate.

        Args:
            fail_on: ``"contradicted"`` (contradicted claims fail) or ``"unverified"``
                (contradicted and unverified claims fail).

        Raises:
            ValueError: an unknown ``fail_on``.
        """
        if fail_on not in FAIL_ON:
            raise ValueError(f"unknown fail_on {fail_on!r}; expected one of {FAIL_ON}")
        bad = {"contradicted"} if fail_on == "contradicted" else {"contradicted", "unverified"}
        return [c for c in self.claims if c.verdict in bad]

    def failed(self, fail_on: str = "contradicted") -> bool:
        """Whether the gate fails; see :meth:`failing_claims`, or for a severity :meth:`gate`.

        A strict gate (``unverified``, ``medium``, ``low``: one that fails an unverified claim)
        also fails an answer with no claim at all: it states nothing that could be checked.

        Raises:
            ValueError: an unknown ``fail_on``; TypeError: one that is not a string.
        """
        return bool(self.gate(fail_on))
