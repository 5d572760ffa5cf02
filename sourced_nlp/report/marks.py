"""The words and marks every view of a report shares (text, Markdown, HTML, footnotes).

Pure module, no imports from the package: the report, the findings, the terminal, HTML and
Markdown views all take these from here, so a verdict has one mark and a difference one
wording everywhere.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

#: The three verdicts, in the order every view lists them.
VERDICTS = ("grounded", "contradicted", "unverified")
#: The mark of each verdict, a cue that needs no colour.
MARKS = {"grounded": "✔", "contradicted": "✘", "unverified": "?"}


def mark(verdict: str) -> str:
    """The mark of ``verdict``; ``?`` for a name that is no verdict."""
    return MARKS.get(verdict, "?")


def differs_text(d: Mapping[str, Any], *, sides: bool = True) -> str:
    """One differing value in words: ``claim 40% ≠ source 8%`` (``40% ≠ 8%`` without
    ``sides``), from a ``differs`` dict ``{"claim", "source", "kind"}``. A side that is empty
    (a hedge of the source the claim drops) is not shown as a blank: ``only the source says
    may`` (``may, not in the claim`` without ``sides``)."""
    claim, source = str(d.get("claim") or "").strip(), str(d.get("source") or "").strip()
    if not claim or not source:
        side, word, other = ("source", source, "claim") if source else ("claim", claim, "source")
        return f"only the {side} says {word or '(nothing)'}" if sides else f"{word or '(nothing)'}, not in the {other}"
    if sides:
        return f"claim {claim} ≠ source {source}"
    return f"{claim} ≠ {source}"


def differs_joined(differs: Iterable[Mapping[str, Any]] | None, *, sides: bool = True) -> str:
    """Every differing value of a claim, ``"; "``-joined (``""`` when none)."""
    return "; ".join(differs_text(d, sides=sides) for d in differs or ())


# what an answer or a source may hold that Markdown or the HTML it allows would act on: a tag
# ("<script>", "<img onerror=...>"), an entity, a link or image ("[x](url)"), emphasis, a code span
_MD_ACTIVE = str.maketrans(
    {
        "\\": "\\\\",
        "|": "\\|",
        "`": "\\`",
        "*": "\\*",
        "_": "\\_",
        "[": "\\[",
        "]": "\\]",
        "<": "&lt;",
        ">": "&gt;",
        "&": "&amp;",
    }
)


def md_cell(text: Any, *, code: bool = False) -> str:
    """``text`` made safe inside one Markdown table cell: whitespace runs (line breaks
    included) folded to one space, and every character Markdown or its inline HTML acts on
    escaped (``<`` ``>`` ``&`` as entities; ``|``, backslash, backtick, ``*``, ``_``, ``[``,
    ``]`` with a backslash), so an answer's ``<script>`` or ``[link](url)`` shows as written
    and does nothing. ``code``: for inside a code span, where escapes are shown as written:
    only ``|`` is escaped and a backtick becomes ``'``."""
    folded = " ".join(str(text).split())
    if code:
        return folded.replace("`", "'").replace("|", "\\|")
    return folded.translate(_MD_ACTIVE)


def shorten(text: Any, limit: int) -> str:
    """``text`` with whitespace runs folded to one space, cut to about ``limit`` characters on
    a word boundary and ended with `` …`` when cut (the passages of the text and HTML views)."""
    text = " ".join(str(text).split())
    if len(text) <= limit:
        return text
    cut = text[:limit].rsplit(" ", 1)[0] or text[:limit]
    return cut + " …"


#: What a claim whose rule has no measured precision shows in place of a figure.
UNMEASURED = "unmeasured"


def measured(precisions: Iterable[float | None]) -> bool:
    """Whether a report's claims carry their rules' measured precision (``rule_precision``): one
    figure at least. The views show the figures, and ``unmeasured`` for a claim without one, only
    then, so a report saved before the figures existed reads as it did."""
    return any(p is not None for p in precisions)


def precision_words(share: float | None) -> str:
    """A rule's measured precision in words: ``0.93`` -> ``"93% precise on natural text"``;
    :data:`UNMEASURED` for None (a rule never measured)."""
    if share is None:
        return UNMEASURED
    return f"{share:.0%} precise on natural text"


def precision_cell(share: float | None) -> str:
    """A rule's measured precision as a table cell: ``0.93`` -> ``"93%"``; :data:`UNMEASURED`
    for None."""
    return UNMEASURED if share is None else f"{share:.0%}"


def trust_order(precisions: Iterable[float | None]) -> list[int]:
    """The positions of claims ordered for review, the least trusted first: ascending measured
    precision of their rules (``rule_precision``, a share in [0, 1]), the claims with no figure
    before every measured one, ties kept in answer order.

    Args:
        precisions: each claim's ``rule_precision``, in answer order.

    Returns:
        The claims' positions (0-based), least trusted first.
    """
    values = list(precisions)
    return sorted(range(len(values)), key=lambda i: (values[i] is not None, values[i] or 0.0, i))
