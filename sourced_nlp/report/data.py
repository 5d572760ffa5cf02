"""The report of one check as data: claims with verdicts and evidence, skipped segments, counts.

Pure module (no spaCy), and it knows none of the report's views: they read it
(:mod:`.html`, :mod:`.markdown`, :mod:`.frame`, :mod:`.text`), and :class:`~.model.Report`
(what a check returns) is this data with its views' methods. The JSON shape, versioned by :data:`SCHEMA` (``"sourced.report/1"``), is
the one of these dataclasses: :class:`ReportData` holds ``answer``, ``sources`` (``{"id",
"chars"}``), ``claims`` (:class:`ClaimResult`, its :class:`Evidence`), ``skipped``
(:class:`Skipped`) and ``counts``; :meth:`ReportData.to_dict` writes it (``sourced_verify`` builds
its report through these classes) and :meth:`ReportData.from_dict` reads it back after
:func:`validate_report` checks it, a check read from these classes' fields
(:func:`~sourced_nlp.report.schema.check_shape`; what a type does not say is in a field's
``metadata``).

``findings``, ``score`` (0-100, the share of claims grounded) and ``coverage`` (the share of
claims whose citations resolve and support them) are present when the report comes from a
check (:mod:`sourced_nlp.citing.provenance`); claims then also carry ``citation_status``. A claim's
``rule`` (optional) is the dotted name of the rule that decided its verdict
(``grounded.passage``, ``contradicted.value``, ``unverified.too_little``, ...), and its
``rule_precision`` (optional) how often that rule's verdict was right on natural labelled text
(:mod:`sourced_nlp.verdict.precision`).

Claim ``start``/``end`` are character offsets into the answer; evidence ``start``/``end`` are
character offsets into the source named by ``source``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .findings import citation_coverage, grounding_score
from .gates import Gates
from .marks import VERDICTS
from .schema import check_field, check_shape, json_type

SCHEMA = "sourced.report/1"

__all__ = ["SCHEMA", "Evidence", "ClaimResult", "Skipped", "ReportData", "validate_report"]


@dataclass
class Evidence:
    """A source passage cited for a claim.

    Attributes:
        source: the source id (file name, mapping id, or index as a string).
        start: character offset of the passage start in that source.
        end: character offset just past the passage end.
        text: the passage text, ``source_text[start:end]``.
    """

    source: str = field(metadata={"kind": "source id"})  # a saved report may hold an int id
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
            ``status`` once checked (:mod:`sourced_nlp.citing.provenance`).
        citation_status: ``supported``, ``uncited``, ``broken``, ``contradicted``,
            ``elsewhere``, ``unsupported``; None when not checked.
        rule: the dotted name of the rule that decided the verdict (``grounded.passage``,
            ``contradicted.value``, ``unverified.too_little``, ...: the module of
            :mod:`sourced_nlp.verdict` that holds it); None for a report that does not name it.
        rule_precision: the measured precision in [0, 1] of a verdict given by ``rule`` (for a
            grounding rule, in the band of ``support``): how often the rule's verdict was right on
            natural labelled text (``models/rule_precision.json``, written by
            ``bench/rule_precision.py``; :mod:`sourced_nlp.verdict.precision`). None where the
            rule was never measured (or the report does not say).
        judge: what a judge answered (:mod:`sourced_nlp.judges`), when one was asked.
        meaning: the meaning tier's ``{"model", "version", "score"}`` when it decided the claim
            (``grounded.meaning`` / ``contradicted.meaning``, :mod:`sourced_nlp.verdict.rules.meaning`).
        alignment: the claim's content words and where its evidence holds each (``{"word",
            "start", "end", "how", "to"?}``; :func:`sourced_nlp.verdict.wordalign.alignment`), for a
            claim the rules grounded and the guard of grounded read.
    """

    text: str
    start: int
    end: int
    verdict: str = field(metadata={"one_of": VERDICTS})
    reason: str = ""
    support: float = 0.0
    evidence: list[Evidence] = field(default_factory=list)
    differs: list[dict] = field(default_factory=list)
    citations: list[dict] = field(default_factory=list)
    citation_status: str | None = None
    rule: str | None = None
    rule_precision: float | None = None
    judge: dict | None = None
    meaning: dict | None = field(
        default=None, metadata={"keys": {"model": "string", "version": "string", "score": "number"}}
    )
    alignment: list[dict] | None = field(
        default=None, metadata={"keys": {"word": "string", "start": "integer", "end": "integer", "how": "string"}}
    )

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
        for key in ("alignment", "citation_status", "rule_precision", "rule", "judge", "meaning"):
            if (value := getattr(self, key)) is not None:
                d[key] = (
                    dict(value)
                    if isinstance(value, dict)
                    else [dict(x) for x in value]
                    if isinstance(value, (list, tuple))
                    else value
                )
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
            rule_precision=float(d["rule_precision"]) if d.get("rule_precision") is not None else None,
            judge=dict(d["judge"]) if isinstance(d.get("judge"), dict) else None,
            meaning=dict(d["meaning"]) if isinstance(d.get("meaning"), dict) else None,
            alignment=[dict(x) for x in d["alignment"]] if isinstance(d.get("alignment"), (list, tuple)) else None,
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
class ReportData(Gates):
    """The result of checking one answer against its sources, as data (:class:`~.model.Report`
    is this with its views).

    Attributes:
        answer: the answer text ("" when unknown; then omitted from :meth:`to_dict`).
        claims: one :class:`ClaimResult` per claim, in answer order.
        skipped: the non-claim segments, in answer order; excluded from :attr:`counts`.
        sources: ``{"id": str, "chars": int}`` per source, in the order given.
        findings: ``{"kind", "severity", "claim", "message"}`` from a check
            (:mod:`sourced_nlp.citing.provenance`); None for a report built by hand.
    """

    answer: str = ""
    claims: list[ClaimResult] = field(default_factory=list, metadata={"required": True})
    skipped: list[Skipped] = field(default_factory=list, metadata={"required": True})
    sources: list[dict] = field(default_factory=list, metadata={"required": True})
    findings: list[dict] | None = field(default=None, metadata={"keys": {"kind": "string", "severity": "string"}})

    @property
    def score(self) -> int | None:
        """Grounding score 0-100: the share of claims that are grounded; 0 with no sources,
        None without claims (:func:`sourced_nlp.report.findings.grounding_score`)."""
        no_sources = any(f.get("kind") == "no-sources" for f in self.findings or [])
        return grounding_score([c.verdict for c in self.claims], no_sources=no_sources)

    @property
    def coverage(self) -> float | None:
        """Citation coverage in [0, 1]: the share of claims whose citations resolve and support
        them; None (JSON's null, "n/a" in every view) where nothing was asked: an answer that
        cites nothing (:func:`sourced_nlp.report.findings.citation_coverage`)."""
        return citation_coverage([c.citation_status for c in self.claims])

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
    def from_dict(cls, d: dict) -> "ReportData":
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
            raise ValueError(f"a report must be a JSON object, got {json_type(d)}")
        if d.get("schema") != SCHEMA:
            raise ValueError(f"unsupported report schema {d.get('schema')!r}; expected {SCHEMA!r}")
        validate_report(d)
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


def validate_report(d: Mapping) -> None:
    """Raise ValueError ``malformed report: ...`` naming the first field of a saved report that is
    missing or of the wrong type: :class:`ReportData`'s fields in order (:func:`.schema.check_shape`), then ``counts``."""
    check_shape(d, ReportData)
    check_field(d, "counts", "", "object", required=False)
