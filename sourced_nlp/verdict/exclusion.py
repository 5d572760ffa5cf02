"""An alternative the evidence sets aside ("moved to Denver rather than Austin"): now
:mod:`sourced_nlp.verdict.guard.excluded`; importable from here for one release.
"""

from __future__ import annotations

from .guard.excluded import excluded_by, find_excluded

__all__ = ["excluded_by", "find_excluded"]
