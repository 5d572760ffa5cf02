"""The rules of the verdict, one module each (docs/rules.md lists every rule name and its module).

:data:`DEFAULT_RULES` is the decision order: the first rule that returns a result decides.
Each module's ``DECIDES`` names the rule names (``<verdict>.<kind>``) it may give.

May import the rest of :mod:`sourced_nlp.verdict` only.
"""

from __future__ import annotations

from ..context import Rule
from ..records.hours import closed_days
from ..records.rating import rating
from .cited import cited
from .contradicted import contradicted
from .empty import nothing_to_check
from .fused import fused
from .passage import grounded_passage
from .quote import quote
from .spread import spread
from .unread import unread_figure
from .unverified import unverified

#: the decision order, tried first to last
DEFAULT_RULES: tuple[Rule, ...] = (
    unread_figure,  # unverified.unread_figure: a veto only, a figure not read blocks grounded
    cited,  # grounded.cited / contradicted.cited: the cited sources first
    rating,  # records: contradicted.rating / unverified.rating
    closed_days,  # records: contradicted.hours / unverified.hours
    nothing_to_check,  # unverified.nothing_to_check
    quote,  # unverified.quote
    grounded_passage,  # grounded.passage / unverified.hedged
    contradicted,  # contradicted.value / .polarity / .antonym / .entity / .record_field
    fused,  # grounded.fused (records: contradicted.record_field / contradicted.hours)
    spread,  # grounded.spread
    unverified,  # unverified.no_passage / .missing / .polarity / .subject / .too_little
)

__all__ = ["DEFAULT_RULES"]
