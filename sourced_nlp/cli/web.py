"""The web app of ``sourced serve`` (the command: :mod:`.serve`): a Starlette app over one
pipeline loaded before it starts.

Routes:
    ``GET /``: the page (:mod:`.webpage`): paste an answer, paste or upload sources.
    ``POST /``: the page again, with the HTML report of ``sourced check --format html`` (or
        ``cite``) under the form, or the one message that refused the input.
    ``GET /healthz``: ``{"ready", "workers", "busy", "free", "starting", "queued", ...}`` (see
        :meth:`.pool.Pool.health`), status 200 when a worker is up, else 503.
    ``POST /check``, ``POST /cite``: the report as ``sourced check --format json`` writes it
        (schema ``sourced.report/1``). The body is JSON ``{"answer": str, "sources": [...]}``
        (``"output"`` for ``"answer"`` also works; sources as strings, ``{id, text}`` mappings or
        JSON values, as ``--json-input`` reads them; for ``/cite`` the answer may also be the
        parsed claims reply), or a form (``answer``, ``source`` fields, ``file`` uploads) as the
        page sends it.

Input limits are the command line's: an answer of at most
:data:`~sourced_nlp.files.MAX_ANSWER_CHARS` characters, a source of at most
:data:`~sourced_nlp.text.sources.MAX_SOURCE_CHARS`, an uploaded file refused by its bytes as
a source file is; a request body larger than :data:`MAX_BODY` is refused before it is read whole.
A text too long is HTTP 413, any other input that cannot be used 400; either way one message
(``{"error": "..."}`` from the JSON API), the one ``sourced check`` would print after
``error:``.

The checks run in a :class:`~.pool.Pool` of worker processes (what ``sourced serve`` gives), each
request answered or refused within the pool's time limit (503), with a bounded queue (429 with
``Retry-After``); or, for an app made over a pipeline (``make_app(nlp)``), one at a time in a
thread of this process, with neither limit. ``GET /healthz`` says which workers are busy and how
many requests wait.

Imported only by :mod:`.serve`, once it has found the ``serve`` extra installed.
"""

from __future__ import annotations

import json
import os
import threading
from typing import Any, Callable

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData, UploadFile
from starlette.exceptions import HTTPException
from starlette.formparsers import MultiPartException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from ..batch.results import validate_record
from ..errors import SourceError, TextTooLongError, TooLargeError
from ..files import MAX_ANSWER_CHARS, _byte_bound, _decode, parse_json, source_from_bytes
from ..text.sources import normalize_sources
from .pool import Pool, Refused
from .webpage import UPLOAD_SUFFIXES, render_page
from .worker import render

__all__ = ["MAX_BODY", "MAX_FILES", "InProcess", "make_app"]


def _max_source_chars() -> int:
    from ..text.sources import MAX_SOURCE_CHARS

    return MAX_SOURCE_CHARS


#: The most bytes of one request: an answer and a source at their largest (each as many bytes as
#: its most characters can take in UTF-8), and room for the form around them.
MAX_BODY = _byte_bound(MAX_ANSWER_CHARS) + _byte_bound(_max_source_chars()) + 64 * 1024
#: The most uploaded files, and form fields, of one request.
MAX_FILES = 100
_FORMS = ("multipart/form-data", "application/x-www-form-urlencoded")
_MODES = ("check", "cite")
_REFUSED = (SourceError, ValueError, TypeError, HTTPException, MultiPartException, Refused)


def _one_line(message: Any) -> str:
    return " ".join(str(message).split()) or "unknown error"


def _status(err: BaseException) -> int:
    """413 for a text or request too long, 400 for any other input that cannot be used; a
    request the pool did not check, or a check that failed, has its own."""
    if isinstance(err, (TextTooLongError, TooLargeError)):
        return 413
    if isinstance(err, (Refused, _Failed)):  # the pool's or the worker's own status
        return err.status
    return err.status_code if isinstance(err, HTTPException) and err.status_code >= 400 else 400


def _message(err: BaseException) -> str:
    return _one_line(err.detail if isinstance(err, HTTPException) else err)


def _headers(err: BaseException) -> dict:
    """``Retry-After`` for a request refused for want of a worker, else none."""
    retry = getattr(err, "retry_after", None)
    return {"retry-after": str(retry)} if retry is not None else {}


async def _body(request: Request) -> bytes:
    """The request's body, refused past :data:`MAX_BODY` bytes without reading the rest.

    Raises:
        TooLargeError: a larger Content-Length, or more bytes arriving than it may have.
    """
    too_large = TooLargeError(
        f"the request is more than {MAX_BODY:,} bytes, more than an answer and a source "
        "at their largest take (not read further)"
    )
    length = request.headers.get("content-length", "")
    if length.isdigit() and int(length) > MAX_BODY:
        raise too_large
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise too_large
        chunks.append(chunk)
    return b"".join(chunks)


def _replayed(request: Request, body: bytes) -> Request:
    """``request`` with its body, already read, given again (for the form parser)."""
    sent = False

    async def receive() -> dict:
        nonlocal sent
        if sent:
            return {"type": "http.disconnect"}
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    return Request(request.scope, receive)


def _json_inputs(body: bytes, mode: str) -> tuple[str, list]:
    """The answer and the sources of a JSON body, read as ``--json-input`` reads a record.

    Raises:
        SourceError: not UTF-8, empty, malformed JSON, or not a record (named "the request body").
    """
    where = "the request body"
    text = _decode(body, where)
    if not text.strip():
        raise SourceError(f'{where} is empty: send JSON {{"answer": "...", "sources": ["..."]}}, or the form')
    value = parse_json(text, where)
    if mode == "cite" and isinstance(value, dict) and isinstance(value.get("answer"), (dict, list)):
        value = dict(value, answer=json.dumps(value["answer"]))  # the claims reply, parsed: cite reads its text
    try:
        record = validate_record(value)
    except SourceError as err:
        raise SourceError(f"{where}: {err}") from err
    return record["output"], record["sources"]


def _typed(text: Any) -> str:
    """A form's text as typed: a browser sends every line break of a textarea as CRLF."""
    return text.replace("\r\n", "\n") if isinstance(text, str) else ""


async def _uploaded(upload: UploadFile) -> dict:
    """One uploaded source file, read as ``sourced check`` reads a file of its name.

    Raises:
        SourceError: a type other than :data:`~.webpage.UPLOAD_SUFFIXES`, or a file that
            :func:`~sourced_nlp.files.source_from_bytes` refuses.
    """
    name = os.path.basename(upload.filename.replace("\\", "/"))
    if not name.lower().endswith(UPLOAD_SUFFIXES):
        raise SourceError(f"source file {name}: only {', '.join(UPLOAD_SUFFIXES)} files are read")
    return source_from_bytes(await upload.read(), name)


async def _form(request: Request, body: bytes) -> FormData:
    """The form of ``request``, whose body (already read) is ``body``.

    Raises:
        SourceError: the body is JSON sent as a form (``curl -d`` without a content type).
    """
    if request.headers.get("content-type", "").startswith("application/x-www-form-urlencoded") and body.lstrip()[
        :1
    ] in (b"{", b"["):
        raise SourceError(
            "the request body is JSON sent as a form (content-type: application/x-www-form-urlencoded, "
            "what curl -d sends): JSON needs content-type: application/json "
            "(curl -H 'content-type: application/json')"
        )
    return await _replayed(request, body).form(max_files=MAX_FILES, max_fields=MAX_FILES, max_part_size=MAX_BODY)


async def _form_inputs(form: FormData) -> tuple[str, list]:
    """The answer and the sources of a form (the page's): the pasted ones, then the uploaded.

    Raises:
        SourceError: no answer, no source, or a source that cannot be used.
    """
    if "answer" not in form:
        raise SourceError(
            "the form has no answer field: send answer and source fields (or file uploads), "
            "or JSON with content-type: application/json"
        )
    answer = form.get("answer")
    if isinstance(answer, UploadFile):  # curl -F answer=@answer.txt: the file's text
        answer = _decode(await answer.read(), f"answer file {answer.filename}")
    answer = _typed(answer)
    pasted = [_typed(text) for text in form.getlist("source")]
    sources: list = [{"id": f"pasted {n}", "text": text} for n, text in enumerate(pasted, start=1) if text.strip()]
    for upload in form.getlist("file"):
        if isinstance(upload, UploadFile) and upload.filename:
            sources.append(await _uploaded(upload))
    if not answer.strip():
        raise SourceError("the answer is empty: nothing to check")
    if not sources:
        raise SourceError(f"no source given: paste one, or upload a {', '.join(UPLOAD_SUFFIXES)} file")
    return answer, normalize_sources(sources)


class InProcess:
    """The pipeline ``nlp`` in this process, one check at a time in a thread (what
    ``make_app(nlp)`` serves): no time limit and no bound on the queue, as a
    :class:`~.pool.Pool` has."""

    def __init__(self, nlp: Any) -> None:
        self.nlp, self.lock, self.waiting = nlp, threading.Lock(), 0

    def _run(self, mode: str, answer: Any, sources: list, view: str) -> tuple[int, str]:
        with self.lock:
            return render(self.nlp, mode, answer, sources, view)

    async def check(self, mode: str, answer: Any, sources: list, view: str) -> tuple[int, str]:
        """:func:`~.worker.render`'s reply, as :meth:`.pool.Pool.check` gives it."""
        self.waiting += 1
        try:
            return await run_in_threadpool(self._run, mode, answer, sources, view)
        finally:
            self.waiting -= 1

    def health(self) -> dict:
        busy = int(self.waiting > 0)
        return {
            "ready": True,
            "workers": 1,
            "busy": busy,
            "free": 1 - busy,
            "starting": 0,
            "queued": max(0, self.waiting - 1),
            "queue_limit": None,
            "timeout_s": None,
            "replaced": 0,
        }


class _Failed(SourceError):
    """A check the worker refused: its status and one message."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


async def _checked(checker: Any, mode: str, answer: Any, sources: list, view: str) -> str:
    """The report in ``view`` (``"json"``, ``"html"``).

    Raises:
        Refused: the pool did not check it (429, 503, 500).
        _Failed: the check refused the input (400, 413) or failed (500).
    """
    status, text = await checker.check(mode, answer, sources, view)
    if status != 200:
        raise _Failed(status, text)
    return text


def _api_route(checker: Any, mode: str) -> Callable:
    async def endpoint(request: Request) -> Response:
        try:
            body = await _body(request)
            if request.headers.get("content-type", "").startswith(_FORMS):
                answer, sources = await _form_inputs(await _form(request, body))
            else:
                answer, sources = _json_inputs(body, mode)
            report = await _checked(checker, mode, answer, sources, "json")
        except _REFUSED as err:
            return JSONResponse({"error": _message(err)}, status_code=_status(err), headers=_headers(err))
        return Response(report, media_type="application/json")

    return endpoint


def _page_route(checker: Any, judge: str) -> Callable:
    async def endpoint(request: Request) -> Response:
        if request.method == "GET":
            return HTMLResponse(render_page(judge=judge))
        answer, pasted, mode = "", [], "check"
        try:
            form = await _form(request, await _body(request))
            mode = form.get("mode") if form.get("mode") in _MODES else "check"
            answer, pasted = _typed(form.get("answer")), [_typed(t) for t in form.getlist("source")]
            answer, sources = await _form_inputs(form)
            report = await _checked(checker, mode, answer, sources, "html")
        except _REFUSED as err:
            return HTMLResponse(
                render_page(answer, pasted, mode, error=_message(err), judge=judge),
                status_code=_status(err),
                headers=_headers(err),
            )
        return HTMLResponse(render_page(answer, pasted, mode, report_html=report, judge=judge))

    return endpoint


def _health_route(checker: Any) -> Callable:
    async def endpoint(request: Request) -> Response:
        health = checker.health()
        return JSONResponse(health, status_code=200 if health["ready"] else 503)

    return endpoint


def make_app(checker: Any, judge: str = "") -> Starlette:
    """The app over ``checker``: a started :class:`~.pool.Pool` (``sourced serve``'s), or a
    pipeline (one with ``sourced_verify``, loaded once by the caller:
    :func:`sourced_nlp.api.load_pipeline` for the default), checked in this process
    (:class:`InProcess`). ``judge``: the judge the pipelines ask, named on the page (none: the
    page says nothing leaves the machine)."""
    if not isinstance(checker, (Pool, InProcess)):
        checker = InProcess(checker)
    return Starlette(
        routes=[
            Route("/", _page_route(checker, judge), methods=["GET", "POST"]),
            Route("/check", _api_route(checker, "check"), methods=["POST"]),
            Route("/cite", _api_route(checker, "cite"), methods=["POST"]),
            Route("/healthz", _health_route(checker), methods=["GET"]),
        ]
    )
