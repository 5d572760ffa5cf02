"""The denominator of a rate ("$30 per month" is not "$30 per year"): now
:mod:`sourced_nlp.verdict.guard.rate`; importable from here for one release.
"""

from __future__ import annotations

from .guard.rate import denominator, find_rate

__all__ = ["denominator", "find_rate"]
