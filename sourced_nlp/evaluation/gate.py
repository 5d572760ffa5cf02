"""``sourced eval gate``: the metrics of a scorecard that fell against a baseline scorecard.

Gated by default (any fall fails, unless ``--max-drop`` allows some):

- higher is better: ``grounded_share``, ``citation_accuracy``, ``abstention_accuracy`` (shares,
  0-1), ``must_cite_met`` (cases);
- lower is better: ``contradicted``, ``fabricated_numbers``, ``fabricated_quotes``,
  ``misattributed``, ``answered_unanswerable``, ``abstained_answerable``, ``errors`` (counts).

``latency_p50_ms``, ``latency_p95_ms``, ``input_tokens``, ``output_tokens`` and ``cost`` are gated
only when a ``--max-drop`` names them (their "drop" is a rise, in their own unit). A metric the
baseline does not have (None) is not compared; one the baseline has and the scorecard lacks
has fallen.
"""

from __future__ import annotations

import math

from ..text.sources import SourceError
from .jsonl import read_json
from .score import SCORECARD_SCHEMA

__all__ = ["HIGHER", "LOWER", "OPTIONAL", "load_scorecard", "parse_max_drop", "regressions"]

HIGHER = ("grounded_share", "citation_accuracy", "abstention_accuracy", "must_cite_met")
LOWER = (
    "contradicted",
    "fabricated_numbers",
    "fabricated_quotes",
    "misattributed",
    "answered_unanswerable",
    "abstained_answerable",
    "errors",
)
OPTIONAL = ("latency_p50_ms", "latency_p95_ms", "input_tokens", "output_tokens", "cost")
_SHARES = ("grounded_share", "citation_accuracy", "abstention_accuracy")


def load_scorecard(path: str) -> dict:
    """A scorecard written by ``sourced eval score -o``.

    Raises:
        SourceError: unreadable or malformed JSON, not ``sourced.scorecard/1``, or without an
            ``overall`` object or a ``cases`` list; naming the file.
    """
    value = read_json(path, "scorecard")
    if not isinstance(value, dict) or value.get("schema") != SCORECARD_SCHEMA:
        got = value.get("schema") if isinstance(value, dict) else None
        raise SourceError(f"{path}: not a scorecard (schema {got!r}; expected {SCORECARD_SCHEMA!r})")
    if not isinstance(value.get("overall"), dict) or not isinstance(value.get("cases"), list):
        raise SourceError(f"{path}: malformed scorecard: needs an 'overall' object and a 'cases' list")
    return value


def parse_max_drop(items: list[str]) -> dict[str, float]:
    """``--max-drop`` values: ``METRIC=AMOUNT`` per metric, or a bare ``AMOUNT`` for every share
    metric; returns the allowance of every gated metric (0 where none is given).

    Raises:
        ValueError: an unknown metric name, or an amount that is not a number >= 0.
    """
    allowed = {m: 0.0 for m in HIGHER + LOWER}
    for item in items:
        name, sep, amount = item.rpartition("=")
        try:
            value = float(amount)
        except ValueError:
            raise ValueError(f"--max-drop {item!r}: expected METRIC=AMOUNT or AMOUNT (a number)") from None
        if not math.isfinite(value) or value < 0:
            raise ValueError(f"--max-drop {item!r}: the amount must be a number >= 0")
        if not sep:
            allowed.update({m: value for m in _SHARES})
            continue
        name = name.strip().replace("-", "_")
        if name not in HIGHER + LOWER + OPTIONAL:
            raise ValueError(
                f"--max-drop {item!r}: unknown metric {name!r}; expected one of " + ", ".join(HIGHER + LOWER + OPTIONAL)
            )
        allowed[name] = value
    return allowed


def _fmt(v) -> str:
    if v is None:
        return "none"
    return f"{v:.4f}".rstrip("0").rstrip(".") if isinstance(v, float) else str(v)


def regressions(current: dict, baseline: dict, allowed: dict[str, float]) -> tuple[list[str], int]:
    """``(lines, compared)``: one line per metric that fell by more than it is allowed, and how
    many metrics were compared. ``current``/``baseline`` are scorecards' ``overall`` blocks."""
    lines, compared = [], 0
    for name, allow in allowed.items():
        base, now = baseline.get(name), current.get(name)
        if base is None:
            continue
        compared += 1
        if now is None:
            lines.append(f"fell: {name} {_fmt(base)} -> none")
            continue
        drop = (base - now) if name in HIGHER else (now - base)
        if drop > allow + 1e-9:
            lines.append(
                f"fell: {name} {_fmt(base)} -> {_fmt(now)} "
                f"({'-' if name in HIGHER else '+'}{_fmt(round(drop, 6))}, allowed {_fmt(allow)})"
            )
    return lines, compared
