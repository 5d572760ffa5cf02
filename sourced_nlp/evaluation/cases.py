"""The cases file of ``sourced eval run``: JSONL, one case a line.

A case is ``{"id": str, "question": str, "sources": [...], "expect": {"answerable": bool,
"must_cite"?: [source id, ...], "reference"?: str}}``:

- ``sources``: the documents the system may answer from: strings (ids ``"0"``, ``"1"``, ...),
  ``{"id", "text"}`` mappings or JSON values, as for :func:`sourced_nlp.check`.
- ``expect.answerable``: whether the sources answer the question; an unanswerable case is
  passed when the system abstains.
- ``expect.must_cite``: source ids an answer must cite (each an id of ``sources``).
- ``expect.reference``: a reference answer, kept in the run for readers; it is not scored.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..text.sources import SourceError, normalize_sources
from .jsonl import iter_jsonl

__all__ = ["Case", "load_cases", "parse_case"]


@dataclass
class Case:
    """One case: a question, its sources (normalised ``[{"id", "text"}]``) and what is expected."""

    id: str
    question: str
    sources: list[dict]
    answerable: bool
    must_cite: list[str] = field(default_factory=list)
    reference: str | None = None

    def to_dict(self) -> dict:
        expect: dict[str, Any] = {"answerable": self.answerable}
        if self.must_cite:
            expect["must_cite"] = list(self.must_cite)
        if self.reference is not None:
            expect["reference"] = self.reference
        return {"id": self.id, "question": self.question, "sources": [dict(s) for s in self.sources], "expect": expect}


def _expect(value: Any, ids: list[str]) -> tuple[bool, list[str], str | None]:
    """``(answerable, must_cite, reference)`` of an ``expect`` object.

    Raises:
        SourceError: ``expect`` is not an object, ``answerable`` missing or not a boolean,
            ``must_cite`` not a list of ids of the case's sources, ``reference`` not a string.
    """
    if not isinstance(value, dict):
        raise SourceError("'expect' must be an object with 'answerable'")
    answerable = value.get("answerable")
    if not isinstance(answerable, bool):
        raise SourceError("'expect.answerable' must be true or false")
    must = value.get("must_cite") or []
    if not isinstance(must, list) or not all(isinstance(m, str) for m in must):
        raise SourceError("'expect.must_cite' must be a list of source ids")
    unknown = [m for m in must if m not in ids]
    if unknown:
        raise SourceError(f"'expect.must_cite' names {unknown[0]!r}, which is not a source id of the case")
    reference = value.get("reference")
    if reference is not None and not isinstance(reference, str):
        raise SourceError("'expect.reference' must be a string")
    return answerable, list(must), reference


def parse_case(value: Any) -> Case:
    """One case from its JSON value.

    Raises:
        SourceError: not an object; ``id`` missing or not a string or number; ``question``
            missing or empty; ``sources`` missing, empty or invalid (as for
            :func:`~sourced_nlp.text.sources.normalize_sources`); a bad ``expect`` (:func:`_expect`).
    """
    if not isinstance(value, dict):
        raise SourceError("a case must be a JSON object")
    cid = value.get("id")
    if isinstance(cid, bool) or not isinstance(cid, (str, int)) or str(cid).strip() == "":
        raise SourceError("'id' must be a non-empty string")
    question = value.get("question")
    if not isinstance(question, str) or not question.strip():
        raise SourceError("'question' must be a non-empty string")
    raw = value.get("sources")
    if not isinstance(raw, list):
        raise SourceError("'sources' must be a list")
    sources = normalize_sources(raw)
    answerable, must, reference = _expect(value.get("expect"), [s["id"] for s in sources])
    return Case(str(cid), question, sources, answerable, must, reference)


def load_cases(path: str) -> list[Case]:
    """Every case of a cases file, in file order.

    Raises:
        SourceError: ``"PATH: line N: ..."`` for the first malformed line or a repeated id;
            a missing, unreadable or empty file (:func:`~.jsonl.iter_jsonl`).
    """
    cases: list[Case] = []
    seen: dict[str, int] = {}
    for n, value in iter_jsonl(path, "cases file"):
        try:
            case = parse_case(value)
        except SourceError as err:
            raise SourceError(f"{path}: line {n}: {err}") from err
        if case.id in seen:
            raise SourceError(f"{path}: line {n}: id {case.id!r} is already used on line {seen[case.id]}")
        seen[case.id] = n
        cases.append(case)
    return cases
