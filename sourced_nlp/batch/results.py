"""Records in, one JSON-able result per record out, in order: the one entry point that every
engine maps (``sourced batch`` on one machine, Dask, Ray Data, Spark).

A record is ``{"id"?, "output" (or "answer"), "sources"}``, the shape of a ``sourced batch``
line. Its result is ``{"id": ..., "report": {...}}`` (``Report.to_dict()``), or ``{"id": ...,
"error": "..."}`` for a record that cannot be checked; ``sourced batch`` adds ``"line"``.

The pipeline is loaded lazily, once per process (:func:`sourced_nlp.load_pipeline` keeps it),
and only its name and config travel to another process: never ``nlp`` nor a ``Doc``. Keeping
one pipeline per process also keeps its source cache, so a source repeated across records is
parsed once per process.
"""

from __future__ import annotations

from typing import Any, Iterable, Iterator, Optional

from ..report.schema import json_type
from ..text.record import record_parts
from ..text.sources import SourceError, normalize_sources

__all__ = ["BATCH_CHUNK", "validate_record", "validate_slot", "check_reports", "results", "pipeline"]

#: Records per ``check_many`` call: small, so that results stream out as they are done.
BATCH_CHUNK = 8


def validate_record(value: Any) -> dict:
    """Check one batch record (its parts read by :func:`~sourced_nlp.text.record.record_parts`);
    returns ``{"id", "output", "sources"}`` with sources normalised.

    Raises:
        SourceError: not a JSON object; both ``answer`` and ``output``; the answer missing,
            null, not a str or empty (named by the key the record uses); ``sources`` missing,
            not a list or empty; a source that :func:`normalize_sources` rejects.
    """
    if not isinstance(value, dict):
        raise SourceError(f"expected a JSON object, got {json_type(value)}")
    parts = record_parts(value)
    if parts.both:
        raise SourceError("both 'answer' and 'output' are given: give the answer once")
    key, output = parts.key, parts.answer
    if output is None:
        raise SourceError(f"'{key}' is null" if key is not None else "missing 'answer' (or 'output')")
    if not isinstance(output, str):
        raise SourceError(f"'{key}' must be a string, got {json_type(output)}")
    if not output.strip():
        raise SourceError(f"'{key}' is empty")
    srcs = parts.sources
    if srcs is None:
        raise SourceError("missing 'sources'")
    if not isinstance(srcs, list):
        raise SourceError(f"'sources' must be a list, got {json_type(srcs)}")
    return {"id": parts.id, "output": output, "sources": normalize_sources(srcs)}


def pipeline(model: Optional[str] = None, config: Optional[dict] = None):
    """This process's pipeline for ``(model, config)``: loaded on the first call, the same
    object after (:func:`sourced_nlp.load_pipeline` caches it), so its source cache is kept."""
    from .. import api

    return api.load_pipeline(model, config)


def check_reports(records: list[dict], nlp: Any = None) -> Iterator[Any]:
    """Check validated records in order, yielding one report (or an ``Exception`` for a record
    that cannot be checked) per record as soon as it is done.

    Records go in chunks of :data:`BATCH_CHUNK` through ``sourced_nlp.check_many(pairs,
    nlp, n_process=1, on_error="return")``. A chunk that raises (an error of the checker
    itself) is checked again one record at a time, so that the error lands on its own record
    and every other record is still checked.
    """
    from .. import api

    for i in range(0, len(records), BATCH_CHUNK):
        chunk = records[i : i + BATCH_CHUNK]
        try:
            done: Optional[list[Any]] = list(
                api.check_many([(r["output"], r["sources"]) for r in chunk], nlp=nlp, n_process=1, on_error="return")
            )
        except Exception:  # noqa: BLE001 -- retried one by one below, so the error is placed
            done = None
        if done is not None and len(done) != len(chunk):
            raise RuntimeError(f"check_many returned {len(done)} reports for {len(chunk)} records")
        if done is None:
            for r in chunk:
                yield _check_one(api, r, nlp)
        else:
            for rep in done:
                yield getattr(rep, "cause", None) or rep if isinstance(rep, Exception) else rep


def _check_one(api, record: dict, nlp: Any = None) -> Any:
    """One record checked alone: its report, or the exception it raised (an input error, or
    ``internal error: ...`` for an error of the checker itself)."""
    try:
        return api.check(record["output"], record["sources"], nlp=nlp)
    except ValueError as err:
        return err
    except Exception as err:  # noqa: BLE001 -- one record's failure must not lose the others
        return RuntimeError(f"internal error: {type(err).__name__}: {err}")


def error_text(err: Any) -> str:
    """An error as the one line a result carries (whitespace runs folded to one space)."""
    return " ".join(str(err).split())


def validate_slot(value: Any, validated: bool = False) -> tuple[Any, Optional[dict], Optional[str]]:
    """``(id, record, None)`` for a record :func:`validate_record` accepts (as given, when
    ``validated``), ``(id, None, message)`` for one it refuses; ``id`` is the record's own, or None."""
    rid = value.get("id") if isinstance(value, dict) else None
    try:
        return rid, value if validated else validate_record(value), None
    except SourceError as err:
        return rid, None, str(err)


def results(
    records: Iterable[Any],
    model: Optional[str] = None,
    config: Optional[dict] = None,
    nlp: Any = None,
    validated: bool = False,
) -> Iterator[dict]:
    """Check records, yielding one JSON-able result per record, in order, as each is done.

    Args:
        records: ``{"id"?, "output" (or "answer"), "sources"}`` mappings (a batch file's
            lines, a Dask partition, a pandas frame's rows as dicts); read lazily, a chunk of
            :data:`BATCH_CHUNK` at a time.
        model, config: the pipeline, as for :func:`sourced_nlp.load_pipeline`; loaded once per
            process on the first record that needs it.
        nlp: a pipeline to use instead (in this process only).
        validated: the records were already checked by :func:`validate_record`.

    Returns:
        An iterator of ``{"id", "report": Report.to_dict()}`` or ``{"id", "error": str}`` (an
        invalid record, or one the checker cannot check): never raises for a record.
    """
    chunk: list[tuple[Any, Optional[dict], Optional[str]]] = []
    for value in records:
        chunk.append(validate_slot(value, validated))
        if len(chunk) == BATCH_CHUNK:
            yield from _chunk_results(chunk, model, config, nlp)
            chunk = []
    yield from _chunk_results(chunk, model, config, nlp)


def _chunk_results(chunk: list, model: Optional[str], config: Optional[dict], nlp: Any) -> Iterator[dict]:
    good = [rec for _, rec, err in chunk if err is None]
    if good and nlp is None:
        nlp = pipeline(model, config)
    reports = check_reports(good, nlp)
    for rid, _rec, err in chunk:
        if err is None:
            rep = next(reports)
            if not isinstance(rep, Exception):
                yield {"id": rid, "report": rep.to_dict()}
                continue
            err = str(rep)
        yield {"id": rid, "error": error_text(err)}
