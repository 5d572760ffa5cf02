"""The scorecard shown: Markdown (for a pull-request comment or a job summary) and a rich table."""

from __future__ import annotations

__all__ = ["ROWS", "to_markdown", "print_table"]

#: ``(key, label)`` of the overall rows, in the order shown.
ROWS = (
    ("cases", "cases"),
    ("answered", "answered"),
    ("abstained", "abstained"),
    ("errors", "errors"),
    ("claims", "claims"),
    ("grounded_share", "grounded share"),
    ("contradicted", "claims contradicted"),
    ("fabricated_numbers", "fabricated figures"),
    ("fabricated_quotes", "fabricated quotes"),
    ("citation_accuracy", "citation accuracy (source-scoped)"),
    ("misattributed", "misattributed quotes"),
    ("must_cite_met", "must-cite cases met"),
    ("abstention_accuracy", "abstention accuracy"),
    ("answered_unanswerable", "answered an unanswerable case"),
    ("abstained_answerable", "abstained on an answerable case"),
    ("latency_p50_ms", "latency p50 (ms)"),
    ("latency_p95_ms", "latency p95 (ms)"),
    ("input_tokens", "input tokens"),
    ("output_tokens", "output tokens"),
    ("cost", "cost"),
)
_SHARES = {"grounded_share", "citation_accuracy", "abstention_accuracy"}


def _cell(key: str, o: dict) -> str:
    v = o.get(key)
    if v is None:
        return ""
    if key in _SHARES:
        return f"{v:.1%}"
    if key == "must_cite_met":
        return f"{v}/{o.get('must_cite_cases', 0)}"
    if key == "cost":
        return f"{v:.6f} {o.get('currency') or ''}".strip()
    if isinstance(v, float):
        return f"{v:g}"
    return str(v)


def _case_cells(e: dict) -> list[str]:
    share = "" if e["grounded_share"] is None else f"{e['grounded_share']:.0%}"
    judged = "" if e["abstention"] in (None, "correct") else e["abstention"]
    return [
        e["id"],
        e["outcome"] + (f" ({judged})" if judged else ""),
        f"{e['grounded']}/{e['claims']}",
        share,
        str(e["contradicted"]),
        str(e["fabricated_numbers"] + e["fabricated_quotes"]),
        f"{e['correctly_cited']}/{e['cited_claims']}",
        "" if e["latency_ms"] is None else f"{e['latency_ms']:g}",
        e["error"] or "",
    ]


_CASE_HEAD = ["case", "outcome", "grounded", "share", "contradicted", "fabricated", "cited right", "ms", "error"]


def _md_escape(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def to_markdown(card: dict) -> str:
    """The scorecard as Markdown: the overall table, then one row per case (a blank cell: no
    value, e.g. a cost without prices)."""
    o = card["overall"]
    lines = ["## sourced eval scorecard", "", "| metric | value |", "|---|---:|"]
    lines += [f"| {label} | {_cell(key, o)} |" for key, label in ROWS]
    lines += ["", "| " + " | ".join(_CASE_HEAD) + " |", "|" + "---|" * len(_CASE_HEAD)]
    lines += ["| " + " | ".join(_md_escape(c) for c in _case_cells(e)) + " |" for e in card["cases"]]
    return "\n".join(lines) + "\n"


def _print_whole(console, table) -> None:
    """Print ``table`` on ``console``; where the console is no terminal (a pipe, a CI log) as
    wide as its cells need, never cut to the console's width (``revenue-q3`` is no ``reven…``)."""
    if console.is_terminal:
        console.print(table)
        return
    from rich.measure import Measurement

    need = Measurement.get(console, console.options.update_width(1_000_000), table).maximum
    width = console.width
    console.width = max(width, need)
    try:
        console.print(table)
    finally:
        console.width = width


def print_table(card: dict, console) -> None:
    """The scorecard as two rich tables on ``console`` (on a terminal, fitted to its width;
    elsewhere, as wide as the cells need)."""
    from rich.table import Table

    o = card["overall"]
    t = Table(title="sourced eval scorecard", show_header=True)
    t.add_column("metric")
    t.add_column("value", justify="right")
    for key, label in ROWS:
        t.add_row(label, _cell(key, o))
    _print_whole(console, t)
    cases = Table(show_header=True)
    for h in _CASE_HEAD:
        cases.add_column(h)
    for e in card["cases"]:
        cases.add_row(*_case_cells(e))
    _print_whole(console, cases)
