"""The order of the HTML view's claim cards: answer order, or least trusted first.

Pure module. A report of two claims or more that carries its rules' measured precision gets a
choice of two radio buttons above its cards, answer order (the default) or least trusted first
(ascending measured precision, the unmeasured first: :func:`~sourced_nlp.report.marks.trust_order`).
It works by CSS alone (:data:`ORDER_STYLE`, the view's one ``<style>`` block): where a notebook
viewer drops the block, the control stays hidden and the cards keep answer order.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

from .marks import measured, trust_order

if TYPE_CHECKING:  # pragma: no cover
    from .data import ReportData as Report

#: The order control's CSS: the control, hidden by its inline style, shows; with "least trusted
#: first" checked the list of cards becomes a flex column, so each card's inline ``order`` (its
#: place least trusted first) places it. No script: it works offline and in a sandboxed page.
ORDER_STYLE = (
    ".sourced-order-control{display:inline-block !important;}"
    ".sourced-order-trust:checked~.sourced-claims{display:flex;flex-direction:column;}"
)


def card_ranks(report: "Report") -> dict[int, int] | None:
    """Each claim's place least trusted first (0-based, by its 0-based position), its card's flex
    ``order``; None where the report gets no order control (fewer than two claims, or none with
    its rule's measured precision)."""
    if not (measured(c.rule_precision for c in report.claims) and len(report.claims) > 1):
        return None
    return {i: r for r, i in enumerate(trust_order(c.rule_precision for c in report.claims))}


def order_control(report: "Report") -> str:
    """The two radio buttons that order the cards (answer order, least trusted first), with
    their ``<style>`` (for a report of two claims or more that carries its rules' measured
    precision). Their ids are made from the report's claims, so equal reports give equal HTML."""
    key = "\n".join(f"{c.start}:{c.end}:{c.verdict}:{c.rule}:{c.rule_precision}:{c.text}" for c in report.claims)
    name = "sourced-order-" + hashlib.sha1(key.encode("utf-8")).hexdigest()[:10]
    hidden = 'style="display:none; margin:0 4px 8px 0; font-weight:normal; color:#333; font-size:0.9em;"'
    out = [f"<style>{ORDER_STYLE}</style>", f'<span class="sourced-order-control" {hidden}>Order claims:</span>']
    for value, words, checked in (("answer", "answer order", " checked"), ("trust", "least trusted first", "")):
        out.append(
            f'<input type="radio" class="sourced-order-control sourced-order-{value}" name="{name}" '
            f'id="{name}-{value}" value="{value}"{checked} style="display:none; margin:0 3px 8px 12px;">'
            f'<label class="sourced-order-control" for="{name}-{value}" {hidden}>{words}</label>'
        )
    return "".join(out)
