"""Structured extraction checked against its sources: every field value in its cited passage.

Pure module (no spaCy). :func:`check_fields` takes a filled schema whose values cite their
sources (``{"name": {"value": ..., "citations": [{"source", "quote"}]}}``) and says, leaf value
by leaf value, whether the value is stated in the passage its citations point to; the result is
a :class:`FieldsReport` with findings of :mod:`sourced_nlp.report.findings` (a field finding names
its ``field``, not a claim).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..report.findings import SEVERITIES, SEVERITY, check_thresholds, findings_md_lines, gate, severity_counts
from ..report.marks import md_cell
from ..text.citations import locate
from ..text.quantity import Quantity, compare, parse_quantity
from ..text.sources import normalize_sources
from .citation_check import BAD_STATUSES, check_citation, citation_findings, json_citation

__all__ = ["FieldsReport", "check_fields", "quantities_in"]

_TOKEN = re.compile(r"\S+")
_EDGE = "\"'()[]{},;:!?\u201c\u201d\u2018\u2019"


def quantities_in(text: str) -> list[Quantity]:
    """Every quantity written with a digit in ``text`` (a light scan with
    :func:`sourced_nlp.text.quantity.parse_quantity` over windows of up to five words)."""
    toks = [(m.start(), m.end()) for m in _TOKEN.finditer(text)]
    out: list[Quantity] = []
    for i, (a, b) in enumerate(toks):
        if not any(ch.isdigit() for ch in text[a:b]):
            continue
        best: Quantity | None = None
        for lo in (i - 1, i):
            if lo < 0:
                continue
            for hi in range(min(len(toks), i + 4), i, -1):
                frag = text[toks[lo][0] : toks[hi - 1][1]].strip(_EDGE).rstrip(".")
                q = parse_quantity(frag)
                if q is not None:
                    best = q
                    break
            if best is not None:
                break
        if best is not None:
            out.append(best)
    return out


def _leaves(value: Any, path: str) -> list[tuple[str, Any]]:
    if isinstance(value, Mapping):
        out = []
        for k, v in value.items():
            out.extend(_leaves(v, f"{path}.{k}" if path else str(k)))
        return out
    if isinstance(value, (list, tuple)):
        out = []
        for j, v in enumerate(value):
            out.extend(_leaves(v, f"{path}[{j}]"))
        return out
    return [(path, value)]


def _leaf_quantity(value: Any) -> Quantity | None:
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)):
        if isinstance(value, float) and not math.isfinite(value):
            return None
        return parse_quantity(repr(value) if isinstance(value, float) else str(value))
    if isinstance(value, str) and any(ch.isdigit() for ch in value):
        return parse_quantity(value)
    return None


def _value_in(value: Any, vq: Quantity | None, text: str) -> bool:
    """Whether a leaf value is stated in ``text``: numbers by value and unit, strings by
    :func:`locate` (exact, normalised, or fuzzy for long strings)."""
    if vq is not None:
        return any(compare(vq, s) == "match" for s in quantities_in(text))
    if isinstance(value, str) and value.strip():
        return locate(value, text) is not None
    return False


def _field_nodes(fields: Any) -> list[tuple[str, Any, list[dict] | None]]:
    """``[(name, value, citations | None)]`` from ``{name: {"value", "citations"}}``, a list of
    ``{"field"|"name", "value", "citations"}``, or ``{"fields": ...}``.

    Raises:
        ValueError: ``fields`` is neither a mapping nor a list, or a list with an item that is
            not a mapping (named by its index)."""
    if isinstance(fields, Mapping) and "fields" in fields and len(fields) == 1:
        fields = fields["fields"]
    items: list[tuple[str, Any]] = []
    if isinstance(fields, Mapping):
        items = [(str(k), v) for k, v in fields.items()]
    elif isinstance(fields, (list, tuple)):
        for j, node in enumerate(fields):
            if not isinstance(node, Mapping):  # [1, 2] is no list of fields: refused, not fields "0", "1"
                raise ValueError(
                    f"fields list item {j} ({type(node).__name__}) is not a field object "
                    '{"field", "value", "citations"}'
                )
            items.append((str(node.get("field", node.get("name", str(j)))), node))
    else:
        raise ValueError("fields must be a JSON object or a list of field objects")
    out = []
    for name, node in items:
        if isinstance(node, Mapping) and "value" in node:
            cites = node.get("citations")
            if cites is None and ("source" in node or "quote" in node):
                cites = [{"source": node.get("source"), "quote": node.get("quote")}]
            if cites is not None and not isinstance(cites, list):
                cites = [cites]
            out.append((name, node["value"], cites))
        else:
            out.append((name, node, None))
    return out


def field_finding(kind: str, message: str, field_name: str | None) -> dict:
    """One field finding, ``{"kind", "severity", "field", "message"}``; the severity comes
    from :data:`sourced_nlp.report.findings.SEVERITY`."""
    return {"kind": kind, "severity": SEVERITY[kind], "field": field_name, "message": message}


@dataclass
class FieldsReport:
    """The result of :func:`check_fields`.

    Attributes:
        fields: one dict per leaf value: ``{"field": "a.b[0]", "value", "status",
            "citations": [checked citation], "passage": [{"source","start","end","text"}]}``;
            status ``found`` (in the cited passage; for a value that cites nothing, in a
            source, with an ``uncited`` finding), ``elsewhere`` (in a source, not in the cited
            passage), ``not-found`` (in no source, cited or not), or ``unchecked`` (booleans,
            nulls).
        findings: ``{"kind", "severity", "field", "message"}``.
        sources: ``{"id", "chars"}`` per source.
    """

    fields: list[dict] = field(default_factory=list)
    findings: list[dict] = field(default_factory=list)
    sources: list[dict] = field(default_factory=list)

    def _checkable(self) -> list[dict]:
        return [f for f in self.fields if f["status"] != "unchecked"]

    @property
    def score(self) -> int | None:
        """0-100: the share of checkable values found in their cited passage."""
        checkable = self._checkable()
        if not checkable:
            return None
        return round(100 * sum(1 for f in checkable if f["status"] == "found") / len(checkable))

    @property
    def coverage(self) -> float | None:
        """Citation coverage in [0, 1], rounded to 4 places: the share of checkable values
        whose citations resolve and support them (status ``found``); the :attr:`score` as a
        share, before rounding to a whole number. None when no value is checkable."""
        checkable = self._checkable()
        if not checkable:
            return None
        return round(sum(1 for f in checkable if f["status"] == "found") / len(checkable), 4)

    def to_dict(self) -> dict:
        """The report as plain JSON-able types (``"schema": "sourced.fields/1"``)."""
        return {
            "schema": "sourced.fields/1",
            "sources": self.sources,
            "fields": self.fields,
            "findings": self.findings,
            "score": self.score,
        }

    def to_json(self, indent: int | None = 2) -> str:
        """Deterministic JSON: sorted keys, UTF-8 text kept."""
        return json.dumps(self.to_dict(), sort_keys=True, ensure_ascii=False, indent=indent)

    def gate(
        self, fail_on: str = "medium", fail_under: float | None = None, min_coverage: float | None = None
    ) -> list[str]:
        """Why the gate fails (empty: it passes); see :func:`sourced_nlp.report.findings.gate`.

        Args:
            fail_on: a severity: findings of that severity or worse fail.
            fail_under: the :attr:`score` (0-100) must be at least this.
            min_coverage: the :attr:`coverage` must be at least this share (0-1; a value above
                1 is a percentage: ``70`` is 0.7).

        Raises:
            ValueError: an unknown severity ``fail_on``, ``fail_under`` outside 0-100, or
                ``min_coverage`` outside 0-100.
            TypeError: ``fail_under`` or ``min_coverage`` is not a number.
        """
        if fail_on not in SEVERITIES:
            raise ValueError(f"unknown fail_on {fail_on!r}; expected one of {', '.join(SEVERITIES)}")
        fail_under, min_coverage = check_thresholds(fail_under, min_coverage)
        return gate(
            self.findings,
            fail_on=fail_on,
            fail_under=fail_under,
            score_value=self.score,
            min_coverage=min_coverage,
            coverage_value=self.coverage,
        )

    def failed(
        self, fail_on: str = "medium", fail_under: float | None = None, min_coverage: float | None = None
    ) -> bool:
        """Whether a finding of severity ``fail_on`` or worse exists, or the score is below
        ``fail_under``, or the coverage below ``min_coverage``."""
        return bool(self.gate(fail_on, fail_under, min_coverage))

    def to_markdown(self) -> str:
        """A Markdown summary: score and findings per severity, one row per field value, then
        the findings table."""
        counts = severity_counts(self.findings)
        score_txt = "n/a" if self.score is None else str(self.score)
        lines = [
            "| score | high | medium | low |",
            "|---:|---:|---:|---:|",
            f"| {score_txt} | {counts['high']} | {counts['medium']} | {counts['low']} |",
            "",
            "| field | value | status | citation | passage |",
            "|---|---|---|---|---|",
        ]
        for f in self.fields:
            cites = ", ".join(f"{c.get('marker')}: {c['status']}" for c in f["citations"])
            passage = "; ".join(f"`{p['source']}:{p['start']}-{p['end']}`" for p in f["passage"])
            lines.append(
                f"| {md_cell(f['field'])} | {md_cell(json.dumps(f['value'], ensure_ascii=False))} | "
                f"{f['status']} | {md_cell(cites)} | {passage} |"
            )
        lines += findings_md_lines(self.findings, "field")
        return "\n".join(lines) + "\n"


def _cited_passages(checked: list[dict], texts: dict[str, str]) -> list[dict]:
    """The passages a field's checked citations point to: each quote where it was found, or
    the whole source for a citation without a quote; a citation that does not resolve, or a
    misattributed quote, points to none."""
    passages: list[dict] = []
    for c in checked:
        if c["status"] in BAD_STATUSES and c["status"] != "misattributed":
            continue
        if c["match"] is not None and c["status"] != "misattributed":
            m = c["match"]
            passages.append({"source": m["source"], "start": m["start"], "end": m["end"], "text": m["text"]})
        elif c["match"] is None:
            for sid in c["sources"]:
                passages.append({"source": sid, "start": 0, "end": len(texts[sid]), "text": texts[sid]})
    return passages


def _leaf_status(
    path: str, leaf: Any, checked: list[dict], passages: list[dict], texts: dict[str, str]
) -> tuple[str, dict | None]:
    """``(status, finding or None)`` of one leaf value (see :class:`FieldsReport`)."""
    vq = _leaf_quantity(leaf)
    checkable = vq is not None or (isinstance(leaf, str) and leaf.strip())
    if not checkable or not texts:
        return "unchecked", None
    if any(_value_in(leaf, vq, p["text"]) for p in passages):
        return "found", None
    where = next((sid for sid, t in texts.items() if _value_in(leaf, vq, t)), None)
    shown = json.dumps(leaf, ensure_ascii=False)
    if not checked:  # nothing cited: looked up in every source, so that a wrong value is not a right one
        if where is not None:
            return "found", field_finding("uncited", f"{path} = {shown} cites no source (it is in {where})", path)
        kind = "fabricated-number" if vq is not None else "unsupported-claim"
        return "not-found", field_finding(kind, f"{path} = {shown} cites no source and is in no source", path)
    if where is not None:
        cited_ids = {sid for c in checked for sid in c["sources"]}
        place = f"elsewhere in {where}" if where in cited_ids else f"in {where}"
        return "elsewhere", field_finding(
            "broken-citation", f"{path} = {shown} is not in the cited passage; it is {place}", path
        )
    kind = "fabricated-number" if vq is not None else "unsupported-claim"
    return "not-found", field_finding(kind, f"{path} = {shown} is in no source", path)


def _source_passage(leaf: Any, texts: dict[str, str], status: str) -> list[dict]:
    """The passage of a value that cites nothing and was ``found``: the first source that
    states it, whole (as for a citation without a quote); none otherwise."""
    if status != "found":
        return []
    vq = _leaf_quantity(leaf)
    sid = next(s for s, t in texts.items() if _value_in(leaf, vq, t))
    return [{"source": sid, "start": 0, "end": len(texts[sid]), "text": texts[sid]}]


def _is_empty_value(value: Any) -> bool:
    """A value that states nothing: ``""`` (or whitespace), ``[]``, ``{}``, or a list or
    object holding only such values and nulls."""
    if value is None:
        return True
    if isinstance(value, str):
        return not value.strip()
    if isinstance(value, Mapping):
        return all(_is_empty_value(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return all(_is_empty_value(v) for v in value)
    return False


def check_fields(fields: Any, sources: Any) -> FieldsReport:
    """Check a filled schema: every value must be stated in the passage its citations point to.

    Each field is ``{"value": ..., "citations": [{"source", "quote"}]}`` (also
    ``{"value", "source", "quote"}``); ``fields`` is a mapping of field names to fields, or a
    list of fields with a ``"field"`` name. Citations resolve as in answers (index, label,
    id); the cited passage is the quote where it is found, or the whole source when there is
    no quote. A value is checked leaf by leaf (arrays and objects): a number or a string with a
    digit by value and unit (:func:`sourced_nlp.text.quantity.compare`: ``$2.4 billion`` =
    ``2400000000`` ≠ ``2.4%``), other strings by :func:`~sourced_nlp.text.citations.locate`.

    Findings: ``fabricated-quote`` (a quote in no source), ``fabricated-number`` (a figure in no
    source), ``broken-citation`` (a citation that does not resolve, a misattributed quote, or a
    value that is in a source but not in the cited passage), ``unsupported-claim`` (a text
    value in no source), ``uncited``, ``no-sources``. A value that cites nothing is looked up in
    every source: stated in one, it is ``found`` with an ``uncited`` finding (medium); in none,
    ``not-found`` with ``fabricated-number`` (high) or ``unsupported-claim`` (medium), so that a
    wrong figure fails a ``high`` gate and a right one does not.

    Args:
        fields: the extracted fields (see above).
        sources: as for :func:`sourced_nlp.check`; an empty list gives a ``no-sources`` finding.

    Raises:
        ValueError: ``fields`` has no usable shape, no field at all (``{}``, ``[]``: a gate over
            no field would pass), or a field whose value is null or empty (``""``, ``[]``,
            ``{}``: it states nothing, so it could only pass unchecked), named.
        SourceError: a malformed source.
    """
    nodes = _field_nodes(fields)
    if not nodes:
        raise ValueError("no field to check (the fields are empty)")
    for name, value, _ in nodes:
        if value is None:
            raise ValueError(f"field {name!r} has a null value: nothing to check")
        if _is_empty_value(value):
            raise ValueError(f"field {name!r} has an empty value ({json.dumps(value)}): nothing to check")
    srcs = normalize_sources(sources) if sources else []
    rep = FieldsReport(sources=[{"id": s["id"], "chars": len(s["text"])} for s in srcs])
    if not srcs:
        rep.findings.append(field_finding("no-sources", "no sources were given: nothing can be grounded", None))
    texts = {s["id"]: s["text"] for s in srcs}
    for name, value, cites in nodes:
        checked = (
            [
                check_citation(json_citation(c, label=f"{name} citation {j + 1}"), srcs)
                for j, c in enumerate(cites or [])
            ]
            if srcs
            else []
        )
        for c in checked:
            for f in citation_findings(c, None):
                rep.findings.append(field_finding(f["kind"], f["message"], name))
        passages = _cited_passages(checked, texts)
        for path, leaf in _leaves(value, name):
            status, found = _leaf_status(path, leaf, checked, passages, texts)
            rep.fields.append(
                {
                    "field": path,
                    "value": leaf,
                    "citations": checked,
                    "passage": passages if checked else _source_passage(leaf, texts, status),
                    "status": status,
                }
            )
            if found is not None:
                rep.findings.append(found)
    return rep
