"""``sourced eval score``: the scorecard of a captured run, re-scored offline with the checker.

Every answered case is checked with :func:`sourced_nlp.cite` (``require_citations=False``)
against the contexts the system said it answered from, or the case's sources when it gave
none; citation markers in the answer, or the output's ``citations`` (then attached to every
claim of the answer), are resolved source by source. The scorecard (``"schema":
"sourced.scorecard/1"``) has one entry per case and an ``overall`` block; the definitions
(docs/eval.md, "The scorecard"):

- ``grounded_share``: grounded claims / claims, over the answered cases (micro-average);
  per case, its own claims. None without claims.
- ``contradicted``: claims contradicted; ``fabricated_numbers`` / ``fabricated_quotes``: the
  ``fabricated-number`` / ``fabricated-quote`` findings (a figure or quote in no source).
- ``citation_accuracy``: claims whose citations resolve to sources that ground them (claim
  ``citation_status == "supported"``) / claims that cite something. Source-scoped: a real quote
  attributed to the wrong document (citation status ``misattributed``) or a claim grounded only
  in a document it does not cite (``elsewhere``) is wrong. ``misattributed`` counts those quotes.
- ``must_cite_met``: cases with ``expect.must_cite`` whose answer cites every one of those ids.
- ``abstention_accuracy``: cases where the system answered an answerable case or abstained on an
  unanswerable one / cases that did not error; ``answered_unanswerable`` and
  ``abstained_answerable`` count the two mistakes; ``errors`` counts the calls that raised,
  timed out or returned an unreadable shape.
- ``latency_p50_ms`` / ``latency_p95_ms``: nearest-rank percentiles of the captured
  ``latency_ms`` of the cases with an output (the value at rank ceil(p/100 * n) when sorted).
- ``input_tokens`` / ``output_tokens``: sums of the reported usage (None when no case reports it).
- ``cost``: only with a prices file; a case's cost is input_tokens * input_per_1m / 1e6 +
  output_tokens * output_per_1m / 1e6; the overall cost is the sum, or None when a case with an
  output did not report both token counts (a cost is never guessed).
"""

from __future__ import annotations

import math
from typing import Any, Callable

from ..text.sources import SourceError
from .adapter import Output
from .cases import Case, parse_case
from .jsonl import iter_jsonl, read_json
from .run import RUN_SCHEMA

__all__ = ["SCORECARD_SCHEMA", "load_run", "load_prices", "score_run", "percentile"]

SCORECARD_SCHEMA = "sourced.scorecard/1"
CLAIM_KEYS = (
    "claims",
    "grounded",
    "contradicted",
    "unverified",
    "fabricated_numbers",
    "fabricated_quotes",
    "cited_claims",
    "correctly_cited",
    "misattributed",
)


def load_run(path: str) -> list[tuple[Case, Output | None, str | None]]:
    """``(case, output, error)`` for every record of a run file, in order.

    Raises:
        SourceError: ``"PATH: line N: ..."``: not a ``sourced.run/1`` record, a malformed case
            or output; a missing, unreadable or empty file.
    """
    rows = []
    for n, value in iter_jsonl(path, "run file"):
        try:
            if not isinstance(value, dict) or value.get("schema") != RUN_SCHEMA:
                got = value.get("schema") if isinstance(value, dict) else None
                raise SourceError(f"not a run record (schema {got!r}; expected {RUN_SCHEMA!r})")
            case = parse_case(value.get("case"))
            out, err = value.get("output"), value.get("error")
            if (out is None) == (err is None):
                raise SourceError("a run record has either an 'output' or an 'error'")
            rows.append((case, Output.from_dict(out) if out is not None else None, err and str(err)))
        except (SourceError, TypeError, AttributeError) as e:
            raise SourceError(f"{path}: line {n}: {e}") from e
    return rows


def load_prices(path: str) -> dict:
    """A prices file: ``{"input_per_1m": number, "output_per_1m": number, "currency"?: str}``
    (prices per million tokens).

    Raises:
        SourceError: unreadable, malformed, a price missing, negative or not a number.
    """
    value = read_json(path, "prices file")
    if not isinstance(value, dict):
        raise SourceError(f"{path}: prices must be a JSON object with input_per_1m and output_per_1m")
    for key in ("input_per_1m", "output_per_1m"):
        v = value.get(key)
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or v < 0:
            raise SourceError(f"{path}: {key!r} must be a number >= 0 (price per million tokens)")
    return {
        "input_per_1m": float(value["input_per_1m"]),
        "output_per_1m": float(value["output_per_1m"]),
        "currency": str(value.get("currency") or "USD"),
    }


def percentile(values: list[float], p: float) -> float | None:
    """Nearest-rank percentile: the value at rank ``ceil(p / 100 * n)`` of the sorted values
    (rank 1 for p = 0); None for no values."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, math.ceil(p / 100.0 * len(ordered)))
    return ordered[rank - 1]


def _share(num: int, den: int) -> float | None:
    return round(num / den, 4) if den else None


def _checked(text: str, out: Output, case: Case) -> tuple[str, list[dict]]:
    """The reply to check and its sources: the structured citations, when the answer gives
    some outside its text, become a JSON claims reply whose claims all carry them."""
    import json

    sources = out.contexts or case.sources
    if out.citations:
        cites = [{"source": c["source"], **({"quote": c["quote"]} if "quote" in c else {})} for c in out.citations]
        text = json.dumps({"claims": [{"text": text, "citations": cites}]}, ensure_ascii=False)
    return text, sources


def _claim_figures(report) -> tuple[dict, list[dict], set[str]]:
    """Counts of :data:`CLAIM_KEYS`, the claim rows, and the ids the claims cite."""
    d = report.to_dict()
    kinds = [f.get("kind") for f in d.get("findings") or []]
    fig = {k: 0 for k in CLAIM_KEYS}
    rows, cited = [], set()
    for c in d["claims"]:
        fig["claims"] += 1
        fig[c["verdict"]] += 1
        cites = c.get("citations") or []
        if cites:
            fig["cited_claims"] += 1
            fig["correctly_cited"] += c.get("citation_status") == "supported"
        fig["misattributed"] += sum(1 for x in cites if x.get("status") == "misattributed")
        cited.update(str(s) for x in cites for s in x.get("sources") or [])
        rows.append(
            {
                "text": c["text"],
                "verdict": c["verdict"],
                "rule": c.get("rule"),
                "citation_status": c.get("citation_status"),
            }
        )
    fig["fabricated_numbers"] = kinds.count("fabricated-number")
    fig["fabricated_quotes"] = kinds.count("fabricated-quote")
    return fig, rows, cited


def _cost(usage: dict, prices: dict | None) -> float | None:
    if prices is None or "input_tokens" not in usage or "output_tokens" not in usage:
        return None
    return round(
        usage["input_tokens"] * prices["input_per_1m"] / 1e6 + usage["output_tokens"] * prices["output_per_1m"] / 1e6,
        10,
    )


def _abstention(case: Case, out: Output | None) -> tuple[str, str | None]:
    """``(outcome, judgement)``: answered / abstained / error, and correct /
    answered-unanswerable / abstained-answerable (None for an error)."""
    if out is None:
        return "error", None
    if out.abstained:
        return "abstained", "correct" if not case.answerable else "abstained-answerable"
    return "answered", "correct" if case.answerable else "answered-unanswerable"


def score_case(
    case: Case, out: Output | None, error: str | None, prices: dict | None, on_report: Callable[..., Any] | None = None
) -> dict:
    """The scorecard entry of one case (the keys of the module docstring, per case, plus
    ``verdicts``: ``{"text", "verdict", "rule", "citation_status"}`` per claim)."""
    from .. import api

    outcome, judgement = _abstention(case, out)
    fig, rows, cited = {k: 0 for k in CLAIM_KEYS}, [], set()
    if outcome == "answered":
        text, sources = _checked(out.answer, out, case)
        report = api.cite(text, sources, require_citations=False)
        fig, rows, cited = _claim_figures(report)
        if on_report is not None:
            on_report(case, report, text, sources)
    must = None
    if case.must_cite:
        missing = [m for m in case.must_cite if m not in cited]
        must = {"required": list(case.must_cite), "missing": missing, "met": outcome == "answered" and not missing}
    usage = out.usage if out is not None else {}
    return {
        "id": case.id,
        "answerable": case.answerable,
        "outcome": outcome,
        "abstention": judgement,
        "error": error,
        **fig,
        "grounded_share": _share(fig["grounded"], fig["claims"]),
        "citation_accuracy": _share(fig["correctly_cited"], fig["cited_claims"]),
        "must_cite": must,
        "latency_ms": out.latency_ms if out is not None else None,
        "input_tokens": usage.get("input_tokens"),
        "output_tokens": usage.get("output_tokens"),
        "cost": _cost(usage, prices),
        "verdicts": rows,
    }


def _sum_known(entries: list[dict], key: str) -> int | None:
    known = [e[key] for e in entries if e[key] is not None]
    return sum(known) if known else None


def overall(entries: list[dict], prices: dict | None) -> dict:
    """The ``overall`` block from the case entries (definitions in the module docstring)."""
    tot = {k: sum(e[k] for e in entries) for k in CLAIM_KEYS}
    ran = [e for e in entries if e["outcome"] != "error"]
    must = [e for e in entries if e["must_cite"] is not None]
    lat = [e["latency_ms"] for e in ran]
    costs = [e["cost"] for e in ran]
    cost = round(sum(costs), 10) if prices is not None and all(c is not None for c in costs) else None
    return {
        "cases": len(entries),
        "answered": sum(e["outcome"] == "answered" for e in entries),
        "abstained": sum(e["outcome"] == "abstained" for e in entries),
        "errors": len(entries) - len(ran),
        **tot,
        "grounded_share": _share(tot["grounded"], tot["claims"]),
        "citation_accuracy": _share(tot["correctly_cited"], tot["cited_claims"]),
        "must_cite_cases": len(must),
        "must_cite_met": sum(1 for e in must if e["must_cite"]["met"]),
        "abstention_accuracy": _share(sum(e["abstention"] == "correct" for e in ran), len(ran)),
        "answered_unanswerable": sum(e["abstention"] == "answered-unanswerable" for e in entries),
        "abstained_answerable": sum(e["abstention"] == "abstained-answerable" for e in entries),
        "latency_p50_ms": percentile(lat, 50),
        "latency_p95_ms": percentile(lat, 95),
        "input_tokens": _sum_known(ran, "input_tokens"),
        "output_tokens": _sum_known(ran, "output_tokens"),
        "cost": cost,
        "currency": prices["currency"] if prices is not None else None,
    }


def score_run(
    rows: list[tuple[Case, Output | None, str | None]],
    prices: dict | None = None,
    *,
    run_file: str | None = None,
    on_report: Callable[..., Any] | None = None,
) -> dict:
    """The scorecard of a run (:func:`load_run` rows).

    Args:
        rows: ``(case, output, error)`` per case.
        prices: :func:`load_prices`; None: every cost is None.
        run_file: the run's path, recorded in the scorecard.
        on_report: called as ``on_report(case, report, checked_text, sources)`` after each
            answered case is checked (the audit log hooks in here).
    """
    entries = [score_case(c, o, e, prices, on_report) for c, o, e in rows]
    return {
        "schema": SCORECARD_SCHEMA,
        "run": run_file,
        "prices": prices,
        "overall": overall(entries, prices),
        "cases": entries,
    }
