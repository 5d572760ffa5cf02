"""The guard's finders, under the names they had here before the guard became a package: each is
now a module of :mod:`sourced_nlp.verdict.guard` (one finder a module, each reading a
:class:`~sourced_nlp.verdict.guard.context.GuardContext`). Importable from here for one release.
"""

from __future__ import annotations

from .finding import Finding
from .guard.binding import bound_value, find_binding
from .guard.context import claim_hedged
from .guard.denied import find_denied
from .guard.dropped import find_attributed, find_dropped
from .guard.moved import find_moved
from .guard.roles import find_roles
from .guard.scope import find_scope

__all__ = [
    "Finding",
    "bound_value",
    "claim_hedged",
    "find_attributed",
    "find_binding",
    "find_denied",
    "find_dropped",
    "find_moved",
    "find_roles",
    "find_scope",
]
