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

``strict`` (``sourced_verify``'s config, ``--strict``): :func:`strict_claim` keeps a ``grounded``
verdict only when its rule's measured precision is at least the level, else the claim becomes
``unverified`` with the rule ``unverified.strict`` (its evidence kept); :func:`check_strict`
validates the level.
"""

from __future__ import annotations

import bisect
import functools
import math
from collections.abc import Mapping
from typing import Any

from ..text.lexicons import lexicon_data

#: the measured precision a grounding's rule must have for ``strict`` (``--strict``) to keep it
STRICT_DEFAULT = 0.9
#: the rule of a grounding that ``strict`` took down (:func:`strict_claim`)
STRICT_RULE = "unverified.strict"
DECIDES = (STRICT_RULE,)


class PrecisionTable:
    """The measured precision of each rule (module docstring).

    Args:
        data: the parsed ``rule_precision.json`` (``{"rules": {name: {"precision", "low",
            "high", "fired", "right", "bands"?: {edge: {...}}}}, "bands": [edges], ...}``).
    """

    def __init__(self, data: Mapping[str, Any], name: str = "precision table") -> None:
        _validate(data, name)
        self.data = data
        self.rules: Mapping[str, Mapping[str, Any]] = data.get("rules") or {}
        # rounded: a JSON reader may give 0.95 as 0.9500000000000001, and a support of 0.95 must
        # fall in the band that starts there
        self.edges: list[float] = sorted(round(float(e), 6) for e in data.get("bands") or ())

    def entry(self, rule: str | None, support: float | None = None) -> Mapping[str, Any] | None:
        """The table's row for ``rule`` (in the band of ``support`` when the rule has bands and
        the band fired at least once); None for a rule the table does not hold."""
        row = self.rules.get(rule or "")
        if row is None:
            return None
        bands = row.get("bands")
        if bands and support is not None and self.edges:
            i = bisect.bisect_right(self.edges, round(float(support), 6)) - 1
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

    def contradicts(self, rule: str, *, guard: bool = False) -> bool:
        """Whether ``rule`` (a finding of the guard of grounded when ``guard``) may give
        ``contradicted``: every rule may unless the table's ``admission`` demotes it (its pooled
        precision's 95% interval reaches below 50% on natural text, and it is not a rule that
        fired fewer than 10 times, each time right). A table without ``admission`` demotes none."""
        adm = self.data.get("admission") or {}
        return rule not in (adm.get("guard" if guard else "rules") or {}).get("demote", ())

    def guard_of(self, rule: str) -> float | None:
        """The measured precision of a ``contradicted`` finding of the guard (``guard`` in the
        file: the guard and the ``contradicted`` rule give some names alike)."""
        row = (self.data.get("guard") or {}).get(rule)
        if not row or not row.get("fired"):
            return None
        return round(float(row["precision"]), 3)


def possible(reason: str, rule: str, precision: float | None, *, guard: bool = False) -> str:
    """The reason of a ``contradicted`` demoted to ``unverified.possible``: what was found, which
    rule found it and how often that rule is right on natural text.

    >>> possible("the source gives 8% where the claim says 12%", "contradicted.value", 0.31)
    'possible contradiction (contradicted.value, 31% right on natural text): the source gives 8% where the claim says 12%'
    """
    who = f"{rule} of the guard" if guard else rule
    figure = "unmeasured" if precision is None else f"{precision:.0%} right on natural text"
    return f"possible contradiction ({who}, {figure}): {reason}"


def _edge(x: float) -> str:
    """A band's key in the file: its lower edge as written (``"0.9"``)."""
    return f"{x:g}"


def _share(x: object) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and not math.isnan(x) and 0.0 <= x <= 1.0


def _validate(data: object, name: str) -> None:
    """Refuse a table that is not one: not an object, ``rules``/``guard`` not objects of rows, a
    row that fired with no ``precision`` in [0, 1], ``bands`` not a list of shares.

    Raises:
        ValueError: naming the table and what is wrong.
    """
    if not isinstance(data, Mapping):
        raise ValueError(f"{name}: a precision table must hold a JSON object, got {type(data).__name__}")
    bands = data.get("bands") or []
    if not isinstance(bands, list) or not all(_share(b) for b in bands):
        raise ValueError(f"{name}: 'bands' must be a list of numbers in [0, 1], got {bands!r}")
    for key in ("rules", "guard"):
        rows = data.get(key)
        rows = {} if rows is None else rows
        if not isinstance(rows, Mapping):
            raise ValueError(f"{name}: '{key}' must map rule names to rows, got {type(rows).__name__}")
        for rule, row in rows.items():
            bands_of = (row.get("bands") or {}) if isinstance(row, Mapping) else {}
            if not isinstance(bands_of, Mapping):
                raise ValueError(f"{name}: the bands of {rule} must map band edges to rows, got {bands_of!r}")
            for where, r in [(rule, row), *((f"{rule} band {b}", v) for b, v in bands_of.items())]:
                if not isinstance(r, Mapping):
                    raise ValueError(f"{name}: the row of {where} must be an object, got {r!r}")
                if r.get("fired") and not _share(r.get("precision")):
                    raise ValueError(
                        f"{name}: the row of {where} must give a precision in [0, 1], got {r.get('precision')!r}"
                    )


@functools.lru_cache(maxsize=8)
def _load(ref: str) -> PrecisionTable:
    try:
        data = lexicon_data(ref)
    except FileNotFoundError:
        raise FileNotFoundError(f"no precision table {ref!r}: not a bundled table and no such file") from None
    except ValueError as err:
        raise ValueError(f"precision table {ref!r}: {err}") from None
    if "rules" not in data:
        raise ValueError(
            f"precision table {ref!r} is no precision table: it has no 'rules' (bench/rule_precision.py --write-model writes one)"
        )
    return PrecisionTable(data, f"precision table {ref!r}")


def load_precision(ref: str | Mapping[str, Any] = "rule_precision") -> PrecisionTable:
    """The table of a bundled name or path (``"rule_precision"``: ``models/rule_precision.json``),
    or of already parsed data.

    Raises:
        FileNotFoundError: neither a bundled file nor a path.
        ValueError: a file that is not JSON, or no precision table (:func:`_validate`).
    """
    if isinstance(ref, Mapping):
        return PrecisionTable(ref)
    return _load(ref)


def default_precision() -> PrecisionTable:
    """The shipped table (``models/rule_precision.json``)."""
    return _load("rule_precision")


def check_strict(level: object, name: str = "sourced_verify config: strict", off: str = " or null") -> float | None:
    """``level`` as the strict level: a number in (0, 1], or None (strict off).

    Args:
        level: the value given (a config value, a ``--strict-level``).
        name: how the message names it.
        off: how the message names the value that turns strict off ("" where there is none).

    Returns:
        The level as a float, or None.

    Raises:
        ValueError: a bool, a string, NaN, or a number outside (0, 1], naming the value given.
    """
    if level is None:
        return None
    ok = (
        isinstance(level, (int, float)) and not isinstance(level, bool) and not math.isnan(level) and 0.0 < level <= 1.0
    )
    if not ok:
        raise ValueError(
            f"{name} must be a number in (0, 1] (the least measured precision of a grounding's rule)"
            f"{off}, got {level!r}"
        )
    return round(float(level), 12)  # a config read back through JSON may give 0.95 as 0.9500000000000001


def strict_claim(claim: Mapping[str, Any], level: float) -> dict | None:
    """The claim dict (``report["claims"]`` shape, ``rule_precision`` set) as ``strict`` at
    ``level`` leaves it: a ``grounded`` claim whose ``rule_precision`` is None or under ``level``
    becomes ``unverified`` with rule :data:`STRICT_RULE`, ``rule_precision`` None and a reason
    naming the rule, its figure and the level; its evidence, support and alignment are kept.
    None when the claim stays as it is (not grounded, or its rule precise enough)."""
    if claim.get("verdict") != "grounded":
        return None
    figure = claim.get("rule_precision")
    if figure is not None and figure >= level:
        return None
    rule = claim.get("rule") or "a rule not named"
    if figure is None:
        reason = f"grounded by {rule}, whose precision is not measured, so under the strict level {_pct(level)}"
    else:
        digits = 1 if _pct(figure) == _pct(level) else 0  # 89.6% under 90%: not "90% is below 90%"
        reason = (
            f"grounded by {rule}, whose measured precision {_pct(figure, digits)} is below the strict "
            f"level {_pct(level, digits)}"
        )
    return dict(claim, verdict="unverified", rule=STRICT_RULE, rule_precision=None, reason=reason)


def _pct(share: float, digits: int = 0) -> str:
    """A share in [0, 1] as a percentage: ``0.82`` -> ``"82%"``."""
    return f"{share:.{digits}%}"
