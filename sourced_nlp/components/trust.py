"""Each claim's measured precision and the ``strict`` setting of ``sourced_verify``.

:class:`Trusted` is the part of :class:`~sourced_nlp.components.verify.Verify` that reads the
table of the rules' measured precision on natural text (:mod:`sourced_nlp.verdict.precision`):
every claim's ``rule_precision``, after the rules and the judge, and with ``strict`` set, a
``grounded`` claim whose rule is under the level (or unmeasured) taken down to ``unverified``,
rule ``unverified.strict``, its evidence kept.
"""

from __future__ import annotations

from ..citing import provenance
from ..judges.tier import refresh_findings
from ..verdict.precision import PrecisionTable, check_strict, strict_claim


class Trusted:
    """The precision table and the strict level of a verdict component (its ``precision`` and
    ``strict``); a subclass sets both in ``__init__`` and calls :meth:`_trusted` on its claims
    last. Setting the table reaches the subclass's ``verifier`` (and its guard) when it has one.
    """

    @property
    def strict(self) -> float | None:
        """The strict level: None (off), or the least measured precision in (0, 1] a grounding's
        rule must have (module docstring); setting it takes effect at once.

        Raises:
            ValueError: set to a value that is neither None nor a number in (0, 1].
        """
        return self._strict

    @strict.setter
    def strict(self, level: float | None) -> None:
        self._strict = check_strict(level)

    @property
    def precision(self) -> PrecisionTable:
        """The table of the rules' measured precision: each claim's ``rule_precision`` and the
        admission of contradicting rules (:meth:`~sourced_nlp.verdict.verifier.Verifier.admitted`);
        setting it takes effect at once."""
        return self._precision

    @precision.setter
    def precision(self, table: PrecisionTable) -> None:
        self._precision = table
        verifier = getattr(self, "verifier", None)
        if verifier is not None:
            verifier.precision = table
            if verifier.guard is not None:
                verifier.guard.precision = table

    def _trusted(self, claims: list[dict], findings: list[dict]) -> list[dict]:
        """Each claim dict with ``rule_precision``: the measured precision of the rule that
        decided it last (the judge's, when the judge changed it), in the band of its support,
        from :attr:`precision`; None for a rule the table does not hold. With :attr:`strict`, a
        grounded claim under the level becomes ``unverified.strict``
        (:func:`~sourced_nlp.verdict.precision.strict_claim`), its citation status and its
        findings (``findings``, in place) those of its new verdict."""
        out = []
        for i, claim in enumerate(claims):
            claim = dict(claim, rule_precision=self.precision.of(claim.get("rule"), claim.get("support")))
            strict = strict_claim(claim, self.strict) if self.strict is not None else None
            if strict is not None:
                strict["rule_precision"] = self.precision.of(strict["rule"], strict.get("support"))
                if strict.get("citations"):
                    checked = strict["citations"]
                    strict["citation_status"] = provenance.citation_status(
                        checked, provenance.cited_sources(checked), strict
                    )
                refresh_findings(findings, i, claim, strict)
                claim = strict
            out.append(claim)
        return out
