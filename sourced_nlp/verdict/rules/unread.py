"""Rule ``unverified.unread_figure``: a figure the reader could not read blocks ``grounded``.

A claim token that looks like a figure ("+12%" in a form the quantity reader does not know,
see :func:`sourced_nlp.components.quantity_tokens.unread_figure`) but was read as no value
would otherwise drop out of the comparison, and the claim could be grounded on its words with a
wrong figure. The rule decides nothing on its own; as a veto it takes back a ``grounded``
result of a claim that holds such a token: ``unverified`` with the reason "a figure that could
not be read: …" (evidence kept). A passage that states otherwise may still contradict the claim.
"""

from __future__ import annotations

from ..context import ClaimContext
from ..types import Result, result

DECIDES = ("unverified.unread_figure",)


class UnreadFigure:
    """The rule (module docstring): ``rule(ctx)`` decides nothing, :meth:`veto` takes back."""

    __name__ = "unread_figure"  # the name ``sourced.rules.v1`` excludes it by

    def __call__(self, ctx: ClaimContext) -> Result | None:
        return None

    def veto(self, ctx: ClaimContext, res: Result) -> Result | None:
        """``unverified.unread_figure`` for a grounded ``res`` whose claim holds a figure that
        was not read; None: ``res`` stands."""
        unread = ctx.claim.get("unread") or ()
        if res["verdict"] != "grounded" or not unread:
            return None
        reason = "a figure that could not be read: " + ", ".join(dict.fromkeys(unread))
        return result(
            "unverified",
            reason,
            min(res["support"], 0.5),
            res["evidence"],
            res["differs"],
            rule="unverified.unread_figure",
        )


unread_figure = UnreadFigure()
