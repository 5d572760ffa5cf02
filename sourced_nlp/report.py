"""The report of one check: claims with verdicts and evidence, skipped segments, counts.

Pure module (no spaCy). The JSON shape is versioned by :data:`SCHEMA`::

    {"schema": "sourced.report/1",
     "answer": str,                                   # optional
     "sources": [{"id": str, "chars": int}],
     "claims": [{"text": str, "start": int, "end": int,
                 "verdict": "grounded" | "contradicted" | "unverified",
                 "reason": str, "support": float,     # support in [0, 1]
                 "evidence": [{"source": str, "start": int, "end": int, "text": str}],
                 "differs": [{"claim": str, "source": str, "kind": str}],
                 "citations": [dict]}],
     "skipped": [{"text": str, "start": int, "end": int, "kind": str}],
     "counts": {"grounded": int, "contradicted": int, "unverified": int},
     "findings": [{"kind", "severity", "claim": int | None, "message"}],  # from a check
     "score": int | None, "coverage": float | None}                       # ... likewise

``findings``, ``score`` (0-100, the share of claims grounded) and ``coverage`` (the share of
claims whose citations resolve and support them) are present when the report comes from a
check (:mod:`sourced_nlp.provenance`); claims then also carry ``citation_status``.

Claim ``start``/``end`` are character offsets into the answer; evidence ``start``/``end`` are
character offsets into the source named by ``source``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

SCHEMA = "sourced.report/1"
VERDICTS = ("grounded", "contradicted", "unverified")
FAIL_ON = ("contradicted", "unverified")
SEVERITIES = ("high", "medium", "low")

_MARKS = {"grounded": "✔", "contradicted": "✘", "unverified": "?"}


def check_fail_on(fail_on: Any) -> str:
    """``fail_on`` when it names a gate: a verdict of :data:`FAIL_ON` or a severity of
    :data:`SEVERITIES`.

    Raises:
        TypeError: not a string.
        ValueError: an unknown name; the message lists every one that works.
    """
    value = getattr(fail_on, "value", fail_on)  # the command line's enum members
    if not isinstance(value, str):
        raise TypeError(f"fail_on must be a string, got {type(fail_on).__name__}")
    if value not in FAIL_ON + SEVERITIES:
        raise ValueError(f"unknown fail_on {value!r}; expected one of {', '.join(FAIL_ON + SEVERITIES)}")
    return value


def check_thresholds(fail_under: Any = None, min_coverage: Any = None,
                     names: tuple[str, str] = ("fail_under", "min_coverage")) -> tuple[float | None, float | None]:
    """Validate the score and coverage gates, the same for the API and the command line.

    Args:
        fail_under: None, or a score in 0-100.
        min_coverage: None, or a share in 0-1; a value above 1 (up to 100) is a percentage.
        names: how the two are named in messages (``("--fail-under", "--min-coverage")`` on
            the command line).

    Returns:
        ``(fail_under, min_coverage)``, the coverage as a share in [0, 1].

    Raises:
        TypeError: a value that is not a number (a bool is not one either).
        ValueError: ``fail_under`` outside 0-100, ``min_coverage`` outside 0-100, or NaN.
    """
    for name, value in zip(names, (fail_under, min_coverage)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))):
            raise TypeError(f"{name} must be a number, got {type(value).__name__} {value!r}")
    if fail_under is not None and not (0 <= fail_under <= 100):  # also rejects nan
        raise ValueError(f"{names[0]} must be a score in 0-100, got {fail_under:g}")
    if min_coverage is not None:
        if not (0 <= min_coverage <= 100):
            raise ValueError(f"{names[1]} must be a share in 0-1 (or a percentage), got {min_coverage:g}")
        min_coverage = min_coverage / 100 if min_coverage > 1 else min_coverage
    return fail_under, min_coverage


@dataclass
class Evidence:
    """A source passage cited for a claim.

    Attributes:
        source: the source id (file name, mapping id, or index as a string).
        start: character offset of the passage start in that source.
        end: character offset just past the passage end.
        text: the passage text, ``source_text[start:end]``.
    """

    source: str
    start: int
    end: int
    text: str

    def to_dict(self) -> dict:
        return {"source": self.source, "start": self.start, "end": self.end, "text": self.text}

    @classmethod
    def from_dict(cls, d: dict) -> "Evidence":
        return cls(source=str(d["source"]), start=int(d["start"]), end=int(d["end"]), text=d["text"])


@dataclass
class ClaimResult:
    """One claim of the answer and its verdict.

    Attributes:
        text: the claim text, ``answer[start:end]``.
        start: character offset into the answer.
        end: character offset just past the claim.
        verdict: one of :data:`VERDICTS`.
        reason: why the verdict, in words.
        support: in [0, 1], higher = better supported.
        evidence: the supporting (grounded) or conflicting (contradicted) passages.
        differs: for a contradiction, ``{"claim": str, "source": str, "kind": str}`` per
            differing value (e.g. ``{"claim": "40%", "source": "8%", "kind": "quantity"}``).
        citations: citation markers found in the claim (see ``Span._.citations``), with their
            ``status`` once checked (:mod:`sourced_nlp.provenance`).
        citation_status: ``supported``, ``uncited``, ``broken``, ``contradicted``,
            ``elsewhere``, ``unsupported``; None when not checked.
        rule: the dotted name of what decided the verdict (``grounded.judge``), when known.
        judge: what a judge answered (:mod:`sourced_nlp.judges`), when one was asked.
    """

    text: str
    start: int
    end: int
    verdict: str
    reason: str = ""
    support: float = 0.0
    evidence: list[Evidence] = field(default_factory=list)
    differs: list[dict] = field(default_factory=list)
    citations: list[dict] = field(default_factory=list)
    citation_status: str | None = None
    rule: str | None = None
    judge: dict | None = None

    def __post_init__(self) -> None:
        if self.verdict not in VERDICTS:
            raise ValueError(f"unknown verdict {self.verdict!r}; expected one of {VERDICTS}")

    def to_dict(self) -> dict:
        d = {
            "text": self.text,
            "start": self.start,
            "end": self.end,
            "verdict": self.verdict,
            "reason": self.reason,
            "support": self.support,
            "evidence": [e.to_dict() for e in self.evidence],
            "differs": [dict(x) for x in self.differs],
            "citations": [dict(x) for x in self.citations],
        }
        if self.citation_status is not None:
            d["citation_status"] = self.citation_status
        if self.rule is not None:
            d["rule"] = self.rule
        if self.judge is not None:
            d["judge"] = dict(self.judge)
        return d

    @classmethod
    def from_dict(cls, d: dict) -> "ClaimResult":
        return cls(
            text=d["text"],
            start=int(d["start"]),
            end=int(d["end"]),
            verdict=d["verdict"],
            reason=d.get("reason") or "",
            support=float(d.get("support") or 0.0),
            evidence=[Evidence.from_dict(e) for e in d.get("evidence") or []],
            differs=[dict(x) for x in d.get("differs") or []],
            citations=[dict(x) for x in d.get("citations") or []],
            citation_status=d.get("citation_status"),
            rule=d.get("rule"),
            judge=dict(d["judge"]) if isinstance(d.get("judge"), dict) else None,
        )


@dataclass
class Skipped:
    """A segment of the answer that is not a claim.

    Attributes:
        text: the segment text.
        start: character offset into the answer.
        end: character offset just past the segment.
        kind: ``"preamble"``, ``"greeting"``, ``"question"``, ``"heading"``, ``"empty"``, ...
    """

    text: str
    start: int
    end: int
    kind: str

    def to_dict(self) -> dict:
        return {"text": self.text, "start": self.start, "end": self.end, "kind": self.kind}

    @classmethod
    def from_dict(cls, d: dict) -> "Skipped":
        return cls(text=d["text"], start=int(d["start"]), end=int(d["end"]), kind=d["kind"])


@dataclass
class Report:
    """The result of checking one answer against its sources.

    Attributes:
        answer: the answer text ("" when unknown; then omitted from :meth:`to_dict`).
        claims: one :class:`ClaimResult` per claim, in answer order.
        skipped: the non-claim segments, in answer order; excluded from :attr:`counts`.
        sources: ``{"id": str, "chars": int}`` per source, in the order given.
        findings: ``{"kind", "severity", "claim", "message"}`` from a check
            (:mod:`sourced_nlp.provenance`); None for a report built by hand.
    """

    answer: str = ""
    claims: list[ClaimResult] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    sources: list[dict] = field(default_factory=list)
    findings: list[dict] | None = None

    @property
    def score(self) -> int | None:
        """Grounding score 0-100: the share of claims that are grounded; 0 with no sources,
        None without claims."""
        if not self.claims:
            return None
        if any(f.get("kind") == "no-sources" for f in self.findings or []):
            return 0
        return round(100 * self.counts["grounded"] / len(self.claims))

    @property
    def coverage(self) -> float | None:
        """Citation coverage in [0, 1]: the share of claims whose citations resolve and support
        them; None without claims."""
        if not self.claims:
            return None
        return round(sum(1 for c in self.claims if c.citation_status == "supported") / len(self.claims), 4)

    def all_findings(self) -> list[dict]:
        """:attr:`findings`, or for a report without them, those its verdicts imply."""
        if self.findings is not None:
            return self.findings
        from .provenance import verdict_findings

        return [f for i, c in enumerate(self.claims) for f in verdict_findings(c.to_dict(), i)]

    def gate(self, fail_on: str = "contradicted", fail_under: float | None = None,
             min_coverage: float | None = None) -> list[str]:
        """Why the CI gate fails, in words (empty: it passes).

        Args:
            fail_on: a verdict (``contradicted``, ``unverified``; see :meth:`failing_claims`)
                or a severity (``high``, ``medium``, ``low``: a finding that severe or worse).
            fail_under: the :attr:`score` (0-100) must be at least this.
            min_coverage: the :attr:`coverage` must be at least this share (0-1; a value above
                1 is a percentage, as ``--min-coverage`` reads it: ``70`` is 0.7).

        Raises:
            ValueError: an unknown ``fail_on`` (the message lists the verdicts and severities
                that work), ``fail_under`` outside 0-100, ``min_coverage`` outside 0-100 (or
                NaN).
            TypeError: ``fail_on`` is not a string, or ``fail_under``/``min_coverage`` is not
                a number.
        """
        from .provenance import gate

        fail_on = check_fail_on(fail_on)
        fail_under, min_coverage = check_thresholds(fail_under, min_coverage)
        reasons = []
        if fail_on in SEVERITIES:
            reasons += gate(self.all_findings(), fail_on=fail_on)
        else:
            bad = self.failing_claims(fail_on)
            if bad:
                reasons.append(f"{len(bad)} claim(s) {' or '.join(sorted({c.verdict for c in bad}))}")
        return reasons + gate([], fail_under=fail_under, score_value=self.score,
                              min_coverage=min_coverage, coverage_value=self.coverage)

    @property
    def counts(self) -> dict[str, int]:
        """Claims per verdict; always has all three keys of :data:`VERDICTS`."""
        counts = {v: 0 for v in VERDICTS}
        for claim in self.claims:
            counts[claim.verdict] += 1
        return counts

    def to_dict(self) -> dict:
        """The report as plain JSON-able types, in the shape of the module docstring."""
        d: dict[str, Any] = {"schema": SCHEMA}
        if self.answer:
            d["answer"] = self.answer
        d["sources"] = [dict(s) for s in self.sources]
        d["claims"] = [c.to_dict() for c in self.claims]
        d["skipped"] = [s.to_dict() for s in self.skipped]
        d["counts"] = self.counts
        if self.findings is not None:
            d["findings"] = [dict(f) for f in self.findings]
            d["score"] = self.score
            d["coverage"] = self.coverage
        return d

    @classmethod
    def from_dict(cls, d: dict) -> "Report":
        """Rebuild a report from :meth:`to_dict` output.

        ``schema``, ``sources``, ``claims`` and ``skipped`` are required; ``answer``,
        ``counts`` (recomputed from the claims), ``findings``, ``score`` and ``coverage`` are
        optional.

        Raises:
            ValueError: ``d`` is not a mapping, or its ``"schema"`` is not :data:`SCHEMA`;
                ``"malformed report: ..."`` naming the field that is missing or has the wrong
                type (``claims[0].start``), or a claim's unknown verdict.
        """
        if not isinstance(d, dict):
            raise ValueError(f"a report must be a JSON object, got {_json_type(d)}")
        if d.get("schema") != SCHEMA:
            raise ValueError(f"unsupported report schema {d.get('schema')!r}; expected {SCHEMA!r}")
        _validate_report(d)
        return cls(
            answer=d.get("answer") or "",
            claims=[ClaimResult.from_dict(c) for c in d["claims"]],
            skipped=[Skipped.from_dict(s) for s in d["skipped"]],
            sources=[dict(s) for s in d["sources"]],
            findings=[dict(f) for f in d["findings"]] if d.get("findings") is not None else None,
        )

    def to_json(self, indent: int | None = 2) -> str:
        """Deterministic JSON: sorted keys, UTF-8 text kept; equal reports give equal strings."""
        return json.dumps(self.to_dict(), sort_keys=True, ensure_ascii=False, indent=indent)

    def failing_claims(self, fail_on: str = "contradicted") -> list[ClaimResult]:
        """The claims that fail the gate.

        Args:
            fail_on: ``"contradicted"`` (contradicted claims fail) or ``"unverified"``
                (contradicted and unverified claims fail).

        Raises:
            ValueError: an unknown ``fail_on``.
        """
        if fail_on not in FAIL_ON:
            raise ValueError(f"unknown fail_on {fail_on!r}; expected one of {FAIL_ON}")
        bad = {"contradicted"} if fail_on == "contradicted" else {"contradicted", "unverified"}
        return [c for c in self.claims if c.verdict in bad]

    def failed(self, fail_on: str = "contradicted") -> bool:
        """Whether the gate fails; see :meth:`failing_claims`, or for a severity :meth:`gate`.

        Raises:
            ValueError: an unknown ``fail_on``; TypeError: one that is not a string.
        """
        fail_on = check_fail_on(fail_on)
        if fail_on in SEVERITIES:
            return bool(self.gate(fail_on))
        return bool(self.failing_claims(fail_on))

    def to_html(self, standalone: bool = False, title: str = "sourced report") -> str:
        """The HTML view: counts, the answer with claims highlighted by verdict, then each
        claim with its reason and evidence; see :func:`sourced_nlp.html.render_html`.

        Args:
            standalone: a whole UTF-8 page instead of a fragment.
            title: the page title (standalone only).
        """
        from .html import render_html

        return render_html(self, standalone=standalone, title=title)

    def _repr_html_(self) -> str:
        """Jupyter's rich display: the fragment of :meth:`to_html`."""
        return self.to_html()

    def to_frame(self):
        """One row per claim as a ``pandas.DataFrame`` (needs the ``notebook`` extra).

        Columns: ``claim`` (0-based position), ``text``, ``start``, ``end`` (offsets into the
        answer), ``verdict`` (categorical, ordered as :data:`VERDICTS`), ``support``,
        ``reason``, ``differs`` (``"12% ≠ 8%"``, ``"; "``-joined, ``""`` if none),
        ``evidence_source``, ``evidence_start``, ``evidence_end``, ``evidence_text`` (the first
        evidence passage; ``None``/``<NA>`` without one) and ``n_evidence``.

        Raises:
            ImportError: pandas is not installed (``pip install 'sourced-nlp[notebook]'``).
        """
        return to_frame([self], _batch=False)

    def to_markdown(self) -> str:
        """A Markdown summary: a counts table, then one row per claim.

        Claim rows: mark, verdict, claim, evidence (``source:start-end``), reason. A report
        from a check also shows its score, citation coverage and findings per severity in the
        summary table, each claim's citation status, and a findings table (for PR comments).
        """
        counts = self.counts
        lines = [
            "| grounded | contradicted | unverified | skipped |",
            "|---:|---:|---:|---:|",
            f"| {counts['grounded']} | {counts['contradicted']} | {counts['unverified']} "
            f"| {len(self.skipped)} |",
            "",
            "| | verdict | claim | evidence | reason |",
            "|---|---|---|---|---|",
        ]
        for c in self.claims:
            ev = ", ".join(f"`{_md(e.source)}:{e.start}-{e.end}`" for e in c.evidence)
            reason = c.reason
            if c.differs:
                diff = "; ".join(f"claim {x.get('claim')} ≠ source {x.get('source')}" for x in c.differs)
                reason = f"{reason} ({diff})" if reason else diff
            if self.findings is not None and c.citation_status not in (None, "uncited"):
                reason = f"{reason} · citation {c.citation_status}" if reason else f"citation {c.citation_status}"
            lines.append(
                f"| {_MARKS[c.verdict]} | {c.verdict} | {_md(c.text)} | {ev} | {_md(reason)} |"
            )
        if self.findings is not None:
            from .provenance import findings_markdown

            sev = {s: sum(1 for f in self.findings if f.get("severity") == s) for s in SEVERITIES}
            score = "n/a" if self.score is None else f"{self.score}/100"
            cited = any(c.citations for c in self.claims)
            cov = "n/a" if self.coverage is None or not cited else f"{self.coverage:.0%}"
            lines[0] += " score | citation coverage | high | medium | low |"
            lines[1] += "---:|---:|---:|---:|---:|"
            lines[2] += f" {score} | {cov} | {sev['high']} | {sev['medium']} | {sev['low']} |"
            lines.append(findings_markdown(self.findings).rstrip("\n"))
        return "\n".join(lines) + "\n"


def _json_type(value: Any) -> str:
    """The JSON name of a value's type, for messages: object, array, string, ..."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, Mapping):
        return "object"
    if isinstance(value, (list, tuple)):
        return "array"
    return "string" if isinstance(value, str) else type(value).__name__


def _is_int(value: Any) -> bool:
    return (isinstance(value, int) and not isinstance(value, bool)) or (
        isinstance(value, float) and value.is_integer())


_KINDS = {
    "string": lambda v: isinstance(v, str),
    "integer": _is_int,
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "array": lambda v: isinstance(v, (list, tuple)),  # a tuple: a report back from a DocBin
    "object": lambda v: isinstance(v, Mapping),
    "source id": lambda v: isinstance(v, (str, int)) and not isinstance(v, bool),
}


def _field(obj: dict, key: str, where: str, kind: str, required: bool = True) -> None:
    """Check ``obj[key]`` is of ``kind`` (a key of ``_KINDS``); a missing (or, when not
    ``required``, null) value passes only when not ``required``."""
    name = f"{where}.{key}" if where else key
    if key not in obj:
        if required:
            raise ValueError(f"malformed report: {where or 'the report'} has no {key!r}")
        return
    value = obj[key]
    if value is None and not required:
        return
    if not _KINDS[kind](value):
        article = "an" if kind[0] in "aeiou" else "a"
        raise ValueError(f"malformed report: {name} must be {article} {kind}, got {_json_type(value)}")


def _objects(obj: dict, key: str, where: str, required: bool = True) -> list[tuple[str, dict]]:
    """The items of the array ``obj[key]``, each checked to be an object, with their names."""
    _field(obj, key, where, "array", required)
    name = f"{where}.{key}" if where else key
    items = obj.get(key) or []
    for i, item in enumerate(items):
        if not isinstance(item, Mapping):
            raise ValueError(f"malformed report: {name}[{i}] must be an object, got {_json_type(item)}")
    return [(f"{name}[{i}]", item) for i, item in enumerate(items)]


def _validate_report(d: dict) -> None:
    """Raise ValueError ``malformed report: ...`` naming the first field of a saved report
    that is missing or of the wrong type (the shape of the module docstring)."""
    _field(d, "answer", "", "string", required=False)
    _objects(d, "sources", "")
    for where, c in _objects(d, "claims", ""):
        _field(c, "text", where, "string")
        _field(c, "start", where, "integer")
        _field(c, "end", where, "integer")
        _field(c, "verdict", where, "string")
        if c["verdict"] not in VERDICTS:
            raise ValueError(f"malformed report: {where}.verdict {c['verdict']!r} is none of {', '.join(VERDICTS)}")
        _field(c, "reason", where, "string", required=False)
        _field(c, "support", where, "number", required=False)
        _field(c, "citation_status", where, "string", required=False)
        for ew, e in _objects(c, "evidence", where, required=False):
            _field(e, "source", ew, "source id")
            _field(e, "start", ew, "integer")
            _field(e, "end", ew, "integer")
            _field(e, "text", ew, "string")
        _objects(c, "differs", where, required=False)
        _objects(c, "citations", where, required=False)
    for where, s in _objects(d, "skipped", ""):
        _field(s, "text", where, "string")
        _field(s, "start", where, "integer")
        _field(s, "end", where, "integer")
        _field(s, "kind", where, "string")
    for where, f in _objects(d, "findings", "", required=False):
        _field(f, "kind", where, "string")
        _field(f, "severity", where, "string")
    _field(d, "counts", "", "object", required=False)


def _md(text: str) -> str:
    """Make text safe inside one Markdown table cell."""
    return " ".join(str(text).split()).replace("|", "\\|")


FRAME_COLUMNS = (
    "claim", "text", "start", "end", "verdict", "support", "reason", "differs",
    "evidence_source", "evidence_start", "evidence_end", "evidence_text", "n_evidence",
)


def _claim_row(i: int, c: ClaimResult) -> dict:
    e = c.evidence[0] if c.evidence else None
    return {
        "claim": i,
        "text": c.text,
        "start": c.start,
        "end": c.end,
        "verdict": c.verdict,
        "support": float(c.support),
        "reason": c.reason,
        "differs": "; ".join(f"{x.get('claim')} ≠ {x.get('source')}" for x in c.differs),
        "evidence_source": e.source if e else None,
        "evidence_start": e.start if e else None,
        "evidence_end": e.end if e else None,
        "evidence_text": e.text if e else None,
        "n_evidence": len(c.evidence),
    }


def to_frame(reports, *, _batch: bool = True):
    """Claims of many reports as one ``pandas.DataFrame``, one row per claim.

    Args:
        reports: an iterable of :class:`Report` (the ``report`` column is its position) or a
            mapping ``{id: Report}`` (the ``report`` column is the id).

    Returns:
        The columns of :meth:`Report.to_frame`, preceded by ``report``. ``verdict`` is a
        categorical with the categories of :data:`VERDICTS`, so ``value_counts`` and
        ``groupby`` list all three even when one is absent; offsets are nullable integers.

    Raises:
        ImportError: pandas is not installed (``pip install 'sourced-nlp[notebook]'``).
        TypeError: an item is not a :class:`Report`.
    """
    try:
        import pandas as pd
    except ImportError as err:  # pragma: no cover - depends on the environment
        raise ImportError(
            "to_frame needs pandas: pip install 'sourced-nlp[notebook]'"
        ) from err
    from collections.abc import Mapping

    items = reports.items() if isinstance(reports, Mapping) else enumerate(reports)
    rows = []
    for key, report in items:
        if not isinstance(report, Report):
            raise TypeError(f"expected a Report, got {type(report).__name__}")
        for i, c in enumerate(report.claims):
            row = _claim_row(i, c)
            if _batch:
                row = {"report": key, **row}
            rows.append(row)
    columns = (["report"] if _batch else []) + list(FRAME_COLUMNS)
    df = pd.DataFrame(rows, columns=columns)
    df["verdict"] = pd.Categorical(df["verdict"], categories=list(VERDICTS))
    for col in ("claim", "start", "end", "n_evidence"):
        df[col] = df[col].astype("int64")
    for col in ("evidence_start", "evidence_end"):
        df[col] = df[col].astype("Int64")
    df["support"] = df["support"].astype("float64")
    return df
