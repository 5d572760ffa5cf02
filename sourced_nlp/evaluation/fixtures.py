"""Fixture answers checked against their sources: ``sourced eval fixtures`` and the pre-commit
hook. A fixture is a ``.json`` file holding ``{"answer" (or "output"), "sources": [...]}``, or
a ``.jsonl`` file with one such object a line."""

from __future__ import annotations

from typing import Iterator

from ..text.record import record_parts
from ..text.sources import SourceError
from .jsonl import iter_jsonl, read_json

__all__ = ["load_fixture", "check_fixtures"]


def _record(value, where: str) -> tuple[str, list]:
    if not isinstance(value, dict):
        raise SourceError(f"{where}: a fixture must be a JSON object with 'answer' and 'sources'")
    parts = record_parts(value)  # both 'answer' and 'output': 'answer' is read
    answer, sources = parts.answer, parts.sources
    if not isinstance(answer, str) or not answer.strip():
        raise SourceError(f"{where}: 'answer' must be a non-empty string")
    if not isinstance(sources, list) or not sources:
        raise SourceError(f"{where}: 'sources' must be a non-empty list")
    return answer, sources


def load_fixture(path: str) -> list[tuple[str, str, list]]:
    """``(label, answer, sources)`` per fixture record of a file (label ``PATH`` or ``PATH:LINE``).

    Raises:
        SourceError: unreadable or malformed, naming the file (and line).
    """
    if path.endswith(".jsonl"):
        return [(f"{path}:{n}", *_record(v, f"{path}: line {n}")) for n, v in iter_jsonl(path, "fixture file")]
    return [(path, *_record(read_json(path, "fixture file"), path))]


def check_fixtures(paths: list[str], fail_on: str, audit: str | None = None) -> Iterator[tuple[str, object, list[str]]]:
    """``(label, report, gate reasons)`` per fixture, every file read before any is checked.

    Raises:
        SourceError: a fixture file is unreadable or malformed; ValueError: an unknown ``fail_on``.
    """
    from .. import api
    from ..report.model import Report
    from ..text.sources import normalize_sources
    from .audit import log_report

    records = [r for p in paths for r in load_fixture(p)]
    Report().gate(fail_on)  # an unknown --fail-on fails before anything is checked
    for label, answer, sources in records:
        try:
            srcs = normalize_sources(sources)
            report = api.check(answer, srcs)
        except SourceError as err:
            raise SourceError(f"{label}: {err}") from err
        log_report(audit, report, command="eval fixtures", sources=srcs, record_id=label)
        yield label, report, report.gate(fail_on)
