"""How far each verdict can be trusted: the rules' precision measured on natural labelled text.

``models/rule_precision.json`` is written by ``bench/rule_precision.py`` (never by hand): for
every rule name (``grounded.passage``, ``contradicted.value``, ``unverified.unaligned``, ...), over
the natural labelled sets it was run on (RAGTruth train, the dev sets: see the file's ``sets``
and ``commit``), how often the rule decided a sentence and how often that verdict was right:

* a ``grounded`` verdict is right on a sentence nobody labelled hallucinated;
* a ``contradicted`` or ``unverified`` verdict is "right" on a hallucinated sentence (for
  ``unverified`` the figure is the hallucinated share of what the rule left unverified: it tells
  how much reason there is to look, not a claim of the verdict).

The figures are pooled over the sets, with a 95% Wilson interval (``low``, ``high``). A
grounding rule's figure is also given by band of ``support`` (``bands``: the lower edges), so a
claim grounded at support 0.97 reads the figure of its own band.

:class:`PrecisionTable` reads the file; :func:`default_precision` is the shipped one.
"""

from __future__ import annotations

import bisect
import functools
from collections.abc import Mapping
from typing import Any

from ..text.lexicons import lexicon_data

#: the measured precision a grounding's rule must have for ``strict`` (``--strict``) to keep it
STRICT_DEFAULT = 0.9


class PrecisionTable:
    """The measured precision of each rule (module docstring).

    Args:
        data: the parsed ``rule_precision.json`` (``{"rules": {name: {"precision", "low",
            "high", "fired", "right", "bands"?: {edge: {...}}}}, "bands": [edges], ...}``).
    """

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.data = data
        self.rules: Mapping[str, Mapping[str, Any]] = data.get("rules") or {}
        self.edges: list[float] = sorted(float(e) for e in data.get("bands") or ())

    def entry(self, rule: str | None, support: float | None = None) -> Mapping[str, Any] | None:
        """The table's row for ``rule`` (in the band of ``support`` when the rule has bands and
        the band fired at least once); None for a rule the table does not hold."""
        row = self.rules.get(rule or "")
        if row is None:
            return None
        bands = row.get("bands")
        if bands and support is not None and self.edges:
            i = bisect.bisect_right(self.edges, float(support)) - 1
            band = bands.get(_edge(self.edges[max(i, 0)]))
            if band and band.get("fired"):
                return band
        return row

    def of(self, rule: str | None, support: float | None = None) -> float | None:
        """The measured precision in [0, 1] of a verdict given by ``rule`` (at ``support``), rounded
        to 3 places; None where the rule never fired on the measured data."""
        row = self.entry(rule, support)
        if row is None or not row.get("fired"):
            return None
        return round(float(row["precision"]), 3)


def _edge(x: float) -> str:
    """A band's key in the file: its lower edge as written (``"0.9"``)."""
    return f"{x:g}"


@functools.lru_cache(maxsize=8)
def _load(ref: str) -> PrecisionTable:
    return PrecisionTable(lexicon_data(ref))


def load_precision(ref: str | Mapping[str, Any] = "rule_precision") -> PrecisionTable:
    """The table of a bundled name or path (``"rule_precision"``: ``models/rule_precision.json``),
    or of already parsed data.

    Raises:
        FileNotFoundError: neither a bundled file nor a path.
    """
    if isinstance(ref, Mapping):
        return PrecisionTable(ref)
    return _load(ref)


def default_precision() -> PrecisionTable:
    """The shipped table (``models/rule_precision.json``)."""
    return _load("rule_precision")
