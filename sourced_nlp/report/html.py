"""HTML views of a :class:`~sourced_nlp.report.Report`, for notebooks and standalone pages.

Pure module (no spaCy, no network). :func:`render_html` gives the view behind
``Report._repr_html_()`` (Jupyter) and ``sourced check --format html``: the counts on top, with
the score, citation coverage and findings of a report from a check (``sourced cite``'s broken
citations, say: why a gate failed); the answer with every claim highlighted by verdict; then one
card per claim with what differs (else its reason: a contradiction is said once), and the
evidence passages (source id, character offsets, and the words the passage shares with the claim
in bold); each card names the rule that decided the verdict and, in a report that carries the
figures, that rule's measured precision on natural text ("93% precise on natural text", or
"unmeasured"). Such a report of two claims or more can show its cards in answer order (the
default) or least trusted first (ascending measured precision, the unmeasured first:
:func:`~sourced_nlp.report.marks.trust_order`), a choice of two radio buttons that works by CSS
alone (:mod:`.card_order`). :func:`displacy_options` gives the matching colours for
``displacy.render(doc, style="span", ...)``.

Readability rules:
    - The palette is Okabe–Ito (Okabe & Ito 2008, "Color Universal Design"), whose hues stay
      apart for the common forms of colour blindness. Colour is never the only cue: every
      verdict also has a mark (✔ ✘ ?), its name in words, and its own underline style
      (solid, double, dashed).
    - Every piece of user text (answer, claims, passages, reasons, source ids) goes through
      :func:`html.escape`; the output holds no script and fetches nothing: styles are inline,
      so the view survives notebook viewers that drop ``<style>`` blocks. The one ``<style>``
      block (:data:`~.card_order.ORDER_STYLE`) is the order control's: it shows the control
      and reorders the cards, so where it is dropped the control stays hidden and the cards
      keep answer order.
"""

from __future__ import annotations

import html
import re
from typing import TYPE_CHECKING, Any

from .answer_md import render_markdown_answer
from .card_order import card_ranks, order_control
from .findings import RANK
from .marks import MARKS, VERDICTS, differs_text, measured, precision_words, shorten

if TYPE_CHECKING:  # pragma: no cover
    from .data import ClaimResult
    from .data import ReportData as Report

__all__ = [
    "COLORS",
    "TINTS",
    "BADGE_TEXT",
    "UNDERLINES",
    "MARKS",
    "VERDICTS",
    "displacy_options",
    "content_words",
    "emphasise",
    "render_html",
]

#: The strong colour of each verdict (badges, underlines, displaCy labels): Okabe–Ito blue,
#: vermillion and orange.
COLORS = {"grounded": "#0072B2", "contradicted": "#D55E00", "unverified": "#E69F00"}
#: The light background of a highlighted claim: a tint of the same hue.
TINTS = {"grounded": "#D4E6F4", "contradicted": "#F6D2B8", "unverified": "#FBEFC2"}
#: Text colour on a badge of :data:`COLORS` (contrast >= 4.5:1).
BADGE_TEXT = {"grounded": "#FFFFFF", "contradicted": "#FFFFFF", "unverified": "#1A1A1A"}
#: Underline style of a highlighted claim, a second cue besides the colour.
UNDERLINES = {"grounded": "solid", "contradicted": "double", "unverified": "dashed"}

SPANS_KEY = "sourced_claims"  # extensions.CLAIMS_KEY, which imports spaCy
MAX_PASSAGE = 600

# Words too common to count as shared between a claim and a passage.
_STOPWORDS = frozenset(
    "a an and are as at be been by for from had has have in is it its of on or that the their "
    "this to was were which with will would".split()
)
_WORD = re.compile(r"\w+(?:[.,'’]\w+)*", re.UNICODE)

_FONT = "font-family: system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif"


def displacy_options(spans_key: str = SPANS_KEY) -> dict[str, Any]:
    """Options for ``displacy.render(doc, style="span", options=...)`` on a checked doc.

    ``sourced_verify`` labels each span of ``doc.spans["sourced_claims"]`` with its verdict;
    these options pick that key and give each verdict its colour of :data:`COLORS`.

    Returns:
        ``{"spans_key": "sourced_claims", "colors": {"grounded": ..., "contradicted": ...,
        "unverified": ...}}``; a fresh dict each call, safe to modify.
    """
    return {"spans_key": spans_key, "colors": dict(COLORS)}


def _esc(text: Any) -> str:
    return html.escape(str(text), quote=True)


def _shorten(text: str, limit: int = MAX_PASSAGE) -> str:
    return shorten(text, limit)


def content_words(text: str) -> set[str]:
    """The lower-cased words of ``text`` that are not stop words (numbers kept: ``2.4``, ``12``)."""
    return {w.lower() for w in _WORD.findall(text) if w.lower() not in _STOPWORDS}


def emphasise(passage: str, claim: str, differs: Any = ()) -> str:
    """Escape ``passage``; put in ``<strong>`` each word it shares with ``claim``, and mark
    each source value of ``differs`` (what a contradiction found instead of the claim's value).

    Words are compared case-insensitively (``\\w+`` runs, with inner ``.``/``,``/apostrophe
    kept so that ``2.4`` and ``1,200`` stay whole); stop words are never emphasised. A
    ``differs`` value (``{"source": "8%", ...}``) is found case-insensitively and shown with a
    vermillion double underline.
    """
    shared = content_words(claim)
    marked: list[tuple[int, int]] = []
    low = passage.lower()
    for d in differs or ():
        value = str(d.get("source") or "").strip() if isinstance(d, dict) else ""
        if not value:
            continue
        i = low.find(value.lower())
        while i >= 0:
            j = i + len(value)
            if all(j <= a or i >= b for a, b in marked):
                marked.append((i, j))
            i = low.find(value.lower(), j)
    marked.sort()

    def words(segment: str) -> str:
        out: list[str] = []
        pos = 0
        for m in _WORD.finditer(segment):
            out.append(_esc(segment[pos : m.start()]))
            word = m.group(0)
            if word.lower() in shared:
                out.append(f'<strong style="font-weight:700;">{_esc(word)}</strong>')
            else:
                out.append(_esc(word))
            pos = m.end()
        out.append(_esc(segment[pos:]))
        return "".join(out)

    out: list[str] = []
    pos = 0
    for a, b in marked:
        out.append(words(passage[pos:a]))
        out.append(
            f'<span class="sourced-differs-value" style="font-weight:700; '
            f'border-bottom:3px double {COLORS["contradicted"]};">{_esc(passage[a:b])}</span>'
        )
        pos = b
    out.append(words(passage[pos:]))
    return "".join(out)


def _badge(verdict: str, *, label: str | None = None) -> str:
    text = f"{MARKS[verdict]} {label if label is not None else verdict}"
    return (
        f'<span class="sourced-badge sourced-{verdict}" style="display:inline-block; '
        f"background:{COLORS[verdict]}; color:{BADGE_TEXT[verdict]}; border-radius:4px; "
        f'padding:1px 7px; font-weight:600; font-size:0.85em; white-space:nowrap;">{_esc(text)}</span>'
    )


def _claim_title(claim: "ClaimResult") -> str:
    """The hover text of a highlighted claim: verdict, support, reason, first passage."""
    parts = [f"{MARKS[claim.verdict]} {claim.verdict} (support {claim.support:.2f})"]
    if claim.reason:
        parts.append(claim.reason)
    if claim.rule:
        parts.append(f"rule {claim.rule}")
    for d in claim.differs:
        parts.append(differs_text(d))
    if claim.evidence:
        e = claim.evidence[0]
        parts.append(f"{e.source} {e.start}–{e.end}: {_shorten(e.text, 200)}")
    return "\n".join(parts)


def _mark_open(claim: "ClaimResult") -> str:
    v = claim.verdict
    return (
        f'<mark class="sourced-claim sourced-{v}" data-verdict="{v}" title="{_esc(_claim_title(claim))}" '
        f'style="background:{TINTS[v]}; color:inherit; border-bottom:3px {UNDERLINES[v]} {COLORS[v]}; '
        f'padding:1px 2px; border-radius:2px;">'
    )


def _mark_close(claim: "ClaimResult", number: int) -> str:
    """The end of a claim's highlight: its mark and number (``✘1``), then ``</mark>``."""
    v = claim.verdict
    return (
        f'<sup style="font-weight:700; color:{COLORS[v] if v != "unverified" else "#8A5A00"}; '
        f'margin-left:2px;">{MARKS[v]}{number}</sup></mark>'
    )


def _highlight(claim: "ClaimResult", text: str, number: int) -> str:
    return _mark_open(claim) + _esc(text) + _mark_close(claim, number)


def _skipped_open(item: Any) -> str:
    return f'<span class="sourced-skipped" title="{_esc("skipped: " + item.kind)}" style="color:#6B6B6B;">'


def _opener(entry: tuple[int, Any]) -> str:
    """The opening tag of one piece of a highlight in a Markdown answer (:mod:`.answer_md`)."""
    n, item = entry
    return _mark_open(item) if n else _skipped_open(item)


def _closer(entry: tuple[int, Any], last: bool) -> str:
    """The closing tag of one piece: the claim's number after its last piece only."""
    n, item = entry
    if not n:
        return "</span>"
    return _mark_close(item, n) if last else "</mark>"


def _answer_html(report: "Report") -> tuple[str, bool]:
    """The answer text with claims highlighted and skipped segments dimmed, and whether it
    was rendered as Markdown (an answer with Markdown syntax: :mod:`.answer_md`; any other is
    shown as written).

    Spans with offsets outside the answer, or overlapping an earlier span, are not
    highlighted (they still have their card). Without an answer text (a report rebuilt from
    JSON without ``"answer"``), the claims are shown one after another.
    """
    answer = report.answer
    numbered = list(enumerate(report.claims, start=1))
    if not answer:
        return " ".join(_highlight(c, c.text, n) for n, c in sorted(numbered, key=lambda t: t[1].start)), False
    items: list[tuple[int, int, int, Any]] = []
    for n, c in numbered:
        items.append((c.start, c.end, n, c))
    for s in report.skipped:
        items.append((s.start, s.end, 0, s))
    items.sort(key=lambda t: (t[0], -t[1], t[2] == 0))
    kept: list[tuple[int, int, int, Any]] = []
    pos = 0
    for start, end, n, item in items:
        if start < pos or end <= start or end > len(answer):
            continue
        kept.append((start, end, n, item))
        pos = end
    rendered = render_markdown_answer(answer, [(a, b, (n, item)) for a, b, n, item in kept], _opener, _closer)
    if rendered is not None:
        return rendered, True
    out: list[str] = []
    pos = 0
    for start, end, n, item in kept:
        out.append(_esc(answer[pos:start]))
        text = answer[start:end]
        if n:
            out.append(_highlight(item, text, n))
        else:
            out.append(f"{_skipped_open(item)}{_esc(text)}</span>")
        pos = end
    out.append(_esc(answer[pos:]))
    return "".join(out), False


def _counts_html(report: "Report") -> str:
    counts = report.counts
    parts = [_badge(v, label=f"{counts[v]} {v}") for v in VERDICTS]
    extra = f"{len(report.skipped)} skipped" if report.skipped else ""
    if not report.claims:
        extra = (extra + " · " if extra else "") + "no claims found"
    if extra:
        parts.append(f'<span style="color:#555; font-size:0.9em;">{_esc(extra)}</span>')
    return (
        '<div class="sourced-counts" style="display:flex; flex-wrap:wrap; gap:8px; align-items:center; margin-bottom:10px;">'
        + "".join(parts)
        + "</div>"
    )


def _card_html(claim: "ClaimResult", number: int, rank: int | None = None, figures: bool = False) -> str:
    """One claim's card. ``rank`` (its place least trusted first, 0-based) is its flex ``order``,
    which counts only once the order control has made the list a flex column; with ``figures``
    (the report carries its rules' measured precision) the rule is followed by its figure."""
    v = claim.verdict
    rows = [
        '<div style="display:flex; gap:8px; align-items:baseline; flex-wrap:wrap;">'
        f'<span style="color:#555; font-variant-numeric:tabular-nums;">{number}.</span>'
        f"{_badge(v)}"
        f'<span class="sourced-claim-text" style="flex:1 1 20em;">{_esc(claim.text)}</span>'
        f'<span style="color:#555; font-size:0.85em; white-space:nowrap;">support {claim.support:.2f} · '
        f"answer {claim.start}–{claim.end}</span></div>"
    ]
    detail: list[str] = []
    for d in claim.differs:
        kind = f" ({_esc(d.get('kind'))})" if d.get("kind") else ""
        both = str(d.get("claim") or "").strip() and str(d.get("source") or "").strip()  # else one side only, in words
        detail.append(
            f'<div class="sourced-differs">claim <strong>{_esc(d.get("claim"))}</strong> ≠ source <strong>'
            f"{_esc(d.get('source'))}</strong>{kind}</div>"
            if both
            else f'<div class="sourced-differs">{_esc(differs_text(d))}{kind}</div>'
        )
    if claim.reason and not claim.differs:  # what differs says the contradiction; the reason would say it again
        detail.append(f'<div class="sourced-reason" style="color:#333;"><em>Why:</em> {_esc(claim.reason)}</div>')
    if claim.rule:
        detail.append(
            '<div class="sourced-rule" style="color:#555; font-size:0.85em;">rule '
            f'<span class="sourced-rule-name" style="font-family:ui-monospace, SFMono-Regular, Menlo, Consolas, '
            f'monospace;">{_esc(claim.rule)}</span>'
            + (
                f' · <span class="sourced-rule-precision">{_esc(precision_words(claim.rule_precision))}</span>'
                if figures
                else ""
            )
            + "</div>"
        )
    unaligned = [w["word"] for w in claim.alignment or () if w.get("how") == "unaligned"]
    if unaligned:  # the guard of grounded: the claim's words its evidence does not hold
        detail.append(
            '<div class="sourced-unaligned" style="color:#555; font-size:0.85em;">not in the evidence: '
            + ", ".join(f"<strong>{_esc(w)}</strong>" for w in unaligned)
            + "</div>"
        )
    for e in claim.evidence:
        detail.append(
            '<div class="sourced-evidence" style="margin-top:4px; padding:4px 8px; background:#F6F6F6; '
            'border-radius:3px;">'
            f'<span class="sourced-source" style="font-family:ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; '
            f'font-size:0.85em; color:#333;">{_esc(e.source)} {e.start}–{e.end}</span> '
            f'<span class="sourced-passage">{emphasise(_shorten(e.text), claim.text, claim.differs)}</span></div>'
        )
    if not claim.evidence and v != "grounded":
        detail.append('<div style="color:#555; font-size:0.9em;">no evidence passage</div>')
    rows.append('<div style="margin:4px 0 0 1.6em;">' + "".join(detail) + "</div>")
    order = f" order:{rank};" if rank is not None else ""
    return (
        f'<li class="sourced-card sourced-{v}" style="list-style:none; margin:0 0 8px 0; padding:6px 10px; '
        f'border-left:5px {UNDERLINES[v]} {COLORS[v]}; background:#FFFFFF;{order}">' + "".join(rows) + "</li>"
    )


#: Colour of each finding severity (high: the contradicted hue; the word is always written too).
SEVERITY_COLORS = {"high": "#D55E00", "medium": "#8A5A00", "low": "#555555"}


def _findings_html(report: "Report") -> str:
    """The score, citation coverage and findings of a report from a check (what the text view
    prints after the claims: ``score 29/100  citation coverage 14%  10 finding(s)``, and one
    line per finding, most severe first); "" for a report without findings (built by hand)."""
    findings = report.findings
    if findings is None:
        return ""
    score = report.score
    parts = [f"score {score}/100" if score is not None else "score n/a"]
    if report.coverage is not None:  # None (JSON's null): no claim was checked against a citation
        parts.append(f"citation coverage {report.coverage:.0%}")
    parts.append(f"{len(findings)} finding(s)")
    rows = []
    for f in sorted(findings, key=lambda f: RANK.get(f.get("severity"), len(RANK))):
        sev = str(f.get("severity"))
        at = f" claim {f['claim'] + 1}" if isinstance(f.get("claim"), int) else ""
        at = at or (f" {f['field']}" if f.get("field") else "")
        rows.append(
            f'<li class="sourced-finding sourced-{_esc(sev)}" style="list-style:none; margin:0;">'
            f'<span style="color:{SEVERITY_COLORS.get(sev, "#555555")}; font-weight:600;">{_esc(sev)} '
            f"{_esc(f.get('kind'))}</span>{_esc(at)}: {_esc(f.get('message'))}</li>"
        )
    listing = f'<ul class="sourced-findings" style="padding:0; margin:4px 0 0 0;">{"".join(rows)}</ul>' if rows else ""
    return (
        '<div class="sourced-summary" style="margin-bottom:10px;">'
        f'<div class="sourced-score" style="font-weight:600;">{_esc("  ·  ".join(parts))}</div>{listing}</div>'
    )


def render_html(report: "Report", *, standalone: bool = False, title: str = "sourced report") -> str:
    """The HTML view of ``report``.

    Args:
        report: the report to show.
        standalone: a whole page (``<!DOCTYPE html>`` ... ``</html>``, UTF-8) instead of a
            fragment for a notebook cell.
        title: the page title (standalone only).

    Returns:
        Self-contained HTML: inline styles (and the order control's one ``<style>`` block), no
        scripts, no external resources. The cards are in answer order; with two claims or more
        and their rules' measured precision, the order control can show them least trusted first.
    """
    sources = ""
    if report.sources:
        ids = ", ".join(f"{_esc(s.get('id'))} ({int(s.get('chars') or 0):,} chars)" for s in report.sources)
        sources = f'<div style="color:#555; font-size:0.85em; margin-bottom:8px;">Sources: {ids}</div>'
    figures = measured(c.rule_precision for c in report.claims)
    ranks = card_ranks(report)  # the order control, and each card's place in it; None: no control
    cards = "".join(_card_html(c, n, (ranks or {}).get(n - 1), figures) for n, c in enumerate(report.claims, start=1))
    answer, markdown = _answer_html(report)
    if markdown:  # block elements: no pre-wrap, or the lines between them would show as blank lines
        answer_div = (
            '<div class="sourced-answer sourced-markdown" style="padding:10px 12px; border:1px solid #DDD; '
            'border-radius:4px; margin-bottom:12px; line-height:1.9;">'
        )
    else:
        answer_div = (
            '<div class="sourced-answer" style="white-space:pre-wrap; padding:10px 12px; border:1px solid #DDD; '
            'border-radius:4px; margin-bottom:12px; line-height:1.9;">'
        )
    body = (
        f'<div class="sourced-report" style="{_FONT}; color:#1A1A1A; background:#FFFFFF; '
        'line-height:1.55; padding:12px; max-width:100%; box-sizing:border-box;">'
        + _counts_html(report)
        + _findings_html(report)
        + sources
        + answer_div
        + answer.strip("\n")
        + "</div>"
        + (order_control(report) if ranks is not None else "")
        + (f'<ol class="sourced-claims" style="padding:0; margin:0;">{cards}</ol>' if cards else "")
        + "</div>"
    )
    if not standalone:
        return body
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{_esc(title)}</title>\n</head>\n"
        f'<body style="margin:0; padding:16px; background:#FFFFFF;">\n{body}\n</body>\n</html>\n'
    )
