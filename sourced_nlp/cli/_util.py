"""What every ``sourced`` command shares: the Typer ``app`` (with the ``eval`` and ``audit``
sub-apps), the options' choices and help texts, the version, a report written to a file or to
standard output in any format, the input of ``check`` and ``cite`` (ANSWER SOURCE... or
``--json-input``) and the body of both (:func:`check_and_gate`; the gate itself, ``--fail-on``
and its exit code, is :mod:`.gate`).

The commands are one module each (:mod:`.check`, :mod:`.cite`, :mod:`.fields`, :mod:`.batch`,
:mod:`.calibrate`, :mod:`.eval`, :mod:`.audit`); :mod:`._main` registers them on :data:`app`.
"""

from __future__ import annotations

import contextlib
import os
import sys
from enum import Enum
from typing import Any, Callable, Optional

import typer

from ..batch.results import validate_record as _validate_record
from ..errors import SourceError, TextTooLongError
from ..files import load_source_file, read_answer, read_stdin
from ..report.model import Report
from ..text.sources import normalize_sources
from .audit import audit_app
from .eval import eval_app
from .gate import DEFAULT_FAIL_ON, _gate, _validate_gates, fail_on_gates, judge_lines
from .outputs import UsageError, _same_file
from .stdout import quiet_stdout

app = typer.Typer(
    name="sourced",
    help="Check an LLM answer against its sources, claim by claim: "
    "grounded, contradicted or unverified, with evidence.",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

app.add_typer(eval_app)
app.add_typer(audit_app)

INPUT_ERRORS = (SourceError, ValueError, OSError, UnicodeDecodeError)

AUDIT_HELP = "Append a hash-chained audit record per check to FILE (see 'sourced audit verify')."


class Format(str, Enum):
    text = "text"
    json = "json"
    markdown = "markdown"
    html = "html"


class FieldsFormat(str, Enum):
    """``fields`` has no HTML view: text, JSON or Markdown."""

    text = "text"
    json = "json"
    markdown = "markdown"


class BatchFormat(str, Enum):
    json = "json"
    text = "text"


VERBOSE_HELP = "Text format: also show, under each claim, the rule that decided its verdict."


def _version() -> str:
    try:
        from importlib.metadata import version

        return version("sourced-nlp")
    except Exception:  # not installed as a distribution: fall back to the package attribute
        from .. import __version__

        return __version__


def _version_callback(value: bool) -> None:
    if value:
        typer.echo(f"sourced {_version()}")
        raise typer.Exit(0)


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", help="Show the version and exit.", callback=_version_callback, is_eager=True
    ),
) -> None:
    """Check an LLM answer against its sources, claim by claim."""


def _stdout_console():
    """A rich console on standard output whose broken pipe is a ``BrokenPipeError`` (rich
    itself would exit 1, which reads as a failed gate), handled by each command."""
    from rich.console import Console

    class _Console(Console):
        def on_broken_pipe(self) -> None:
            self.quiet = True
            raise BrokenPipeError("standard output: broken pipe")

    return _Console(file=sys.stdout, highlight=False, soft_wrap=True)


def _where(path: str) -> str:
    """How an input is named in a message: its path, or "standard input" for ``-``."""
    return "standard input" if path == "-" else path


def _open_output(out: str):
    """Open ``out`` for writing (UTF-8, overwritten).

    Raises:
        SourceError: the file cannot be opened, naming it and the reason.
    """
    try:
        return open(out, "w", encoding="utf-8")
    except OSError as err:
        raise SourceError(f"cannot write {out}: {err.strerror or err}") from err


@contextlib.contextmanager
def _output(out: Optional[str], whole: bool = True):
    """The stream to write a result to: the file ``out``, or stdout for None or ``-`` (flushed).
    With ``whole`` (a report), ``out`` gets the result only once all of it is written
    (:func:`.whole.whole_file`: a failed write leaves the old file, or none); without it (the
    results ``batch`` streams, line by line), ``out`` is opened, written as it goes and closed.

    Raises:
        SourceError: ``out`` (or standard output) cannot be opened or written (a full disk,
            ``/dev/full``), naming it and the reason. A closed pipe on stdout stays a
            BrokenPipeError (``main`` stops quietly).
    """
    out = None if out == "-" else out
    name = out or "standard output"
    if out and whole:
        from .whole import whole_file

        opened = whole_file(out)
    else:
        opened = contextlib.closing(_open_output(out)) if out else contextlib.nullcontext(sys.stdout)
    try:
        with opened as fh:
            try:
                yield fh
            finally:
                if not out:
                    fh.flush()
    except BrokenPipeError:
        if out:
            raise SourceError(f"cannot write {name}: broken pipe") from None
        raise
    except OSError as err:
        if isinstance(err, SourceError):
            raise
        raise SourceError(f"cannot write {name}: {err.strerror or err}") from err


def _load_sources(paths: list[str]) -> list[dict]:
    """Load source files; ids are base names, or the path as given when base names collide.

    Raises:
        SourceError: naming the file: one that :func:`load_source_file` rejects, the same
            file given twice, or two files with the same id (a JSON source naming its own id).
    """
    loaded = [load_source_file(p) for p in paths]
    names = [os.path.basename(p) for p in paths]
    for src, path, name in zip(loaded, paths, names):
        if src["id"] == name and names.count(name) > 1:
            src["id"] = path
    seen: dict[str, int] = {}
    for i, src in enumerate(loaded):
        j = seen.setdefault(src["id"], i)
        if j != i:
            if _same_file(paths[i], paths[j]):
                raise SourceError(f"source file {paths[i]} is given twice (SOURCE {j + 1} and {i + 1})")
            raise SourceError(f"source files {paths[j]} and {paths[i]} have the same id {src['id']!r}")
    return normalize_sources(loaded)


def _read_json_input(path: str) -> tuple[Optional[Report], Optional[dict]]:
    """A ``--json-input`` file: a saved report, or a record ``{"output", "sources"}``.

    Raises:
        SourceError: naming the file (or standard input): unreadable, not UTF-8, empty,
            malformed JSON (a key given twice included), JSON Lines (pointing to ``sourced batch``),
            a malformed saved report, or a malformed record.
    """
    from ..files import _read_utf8, parse_json

    where = _where(path)
    text = read_stdin("JSON input") if path == "-" else _read_utf8(path, "JSON input")
    try:
        value = parse_json(text, where)
    except SourceError as err:
        if _json_lines(text):
            raise SourceError(
                f"{where} holds one JSON record a line (JSON Lines): --json-input reads one record "
                f"or saved report; check every line with 'sourced batch {path}'"
            ) from err
        raise
    if isinstance(value, dict) and "schema" in value:
        try:
            return Report.from_dict(value), None
        except ValueError as err:
            msg = str(err)
            if not msg.startswith(("malformed report", "unsupported report schema", "a report must")):
                msg = f"malformed report: {msg}"
            raise SourceError(f"{where}: {msg}") from err
    try:
        return None, _validate_record(value)
    except SourceError as err:
        raise SourceError(f"{where}: {err}") from err


def _json_lines(text: str) -> bool:
    """Whether ``text`` is JSON Lines: more than one line, each a JSON object."""
    import json

    lines = [ln for ln in text.splitlines() if ln.strip()]
    try:
        return len(lines) > 1 and all(isinstance(json.loads(ln), dict) for ln in lines[:2])
    except (ValueError, RecursionError):
        return False


def _emit(report: Report, fmt: str, out: Optional[str] = None, verbose: bool = False) -> None:
    """Write ``report`` in format ``fmt`` to stdout, or to the file ``out`` (UTF-8, overwritten;
    text then has no colour codes). ``html`` is a whole self-contained page; ``verbose`` text
    also names each claim's rule.

    Raises:
        SourceError: ``out`` cannot be opened for writing (named in the message).
    """
    out = None if out == "-" else out  # "-o -": standard output, as for the inputs
    with _output(out) as fh:
        if fmt == Format.json.value:
            fh.write(report.to_json() + "\n")
        elif fmt == Format.markdown.value:
            fh.write(report.to_markdown())
        elif fmt == Format.html.value:
            fh.write(report.to_html(standalone=True))
        else:
            from ..report.text import render_findings, render_text

            if out:
                from rich.console import Console

                console = Console(file=fh, highlight=False, soft_wrap=True, no_color=True)
            else:
                console = _stdout_console()
            render_text(report, console, verbose=verbose)
            render_findings(report, console)


_quiet_stdout = quiet_stdout  # after a broken pipe on standard output: fd 1 to /dev/null


def _emit_or_reader_gone(report: Report, fmt: str, out: Optional[str], verbose: bool = False) -> None:
    """:func:`_emit`; a broken pipe on standard output (``| head``) stops the output quietly:
    the reader has what it wanted, and the exit code stays the gate's."""
    try:
        _emit(report, fmt, out, verbose)
    except BrokenPipeError:
        _quiet_stdout()


def _inputs(
    answer: Optional[str], sources: Optional[list[str]], json_input: Optional[str]
) -> list[tuple[str, Optional[str]]]:
    """The input files of ``check``/``cite``, as ``(what, path)`` for :func:`_check_output`."""
    return [("answer file", answer), ("JSON input file", json_input)] + [("source file", p) for p in sources or []]


def _report_for(
    answer: Optional[str],
    sources: Optional[list[str]],
    json_input: Optional[str],
    how: Callable[..., Report],
    nlp: Any = None,
) -> Report:
    """The report for ``check``/``cite`` (``how``: :func:`sourced_nlp.api.check` or
    :func:`~sourced_nlp.api.cite`): a saved report or a record from ``--json-input``, else
    ANSWER checked against the SOURCE files.

    Raises:
        UsageError: both or neither of ``--json-input`` and ANSWER SOURCE... given; a SOURCE
            that is ``-``.
        SourceError: an unreadable answer or source file.
    """
    if json_input is not None:
        if answer is not None or sources:
            raise UsageError("give either --json-input or ANSWER SOURCE..., not both")
        report, record = _read_json_input(json_input)
        if report is not None:
            return report
        answer_text, source_list = record["output"], record["sources"]
    else:
        if answer is None:
            raise UsageError("missing ANSWER (a file path, or - for stdin)")
        if not sources:
            raise UsageError("no SOURCE given: need at least one source file")
        if "-" in sources:  # standard input is the answer's, or --json-input's
            raise UsageError(
                "a SOURCE cannot be - (standard input): give source files; only ANSWER may be -, "
                "or give answer and sources as one JSON record with --json-input -"
            )
        answer_text = read_answer(answer)
        _refuse_record_as_answer(answer_text, answer)
        source_list = _load_sources(sources)
    try:
        return how(answer_text, source_list, nlp=nlp)
    except TextTooLongError as err:  # name the file, not the id
        if json_input is not None:
            raise SourceError(f"{_where(json_input)}: {err}") from err
        path = answer if err.index is None else sources[err.index]
        raise err.named(_where(path)) from err
    except SourceError as err:
        if str(err).startswith("the reply is a JSON claims reply"):  # about the answer itself
            where = json_input if json_input is not None else answer
            raise SourceError(f"{_where(where)}: {err}") from err
        raise


def _refuse_record_as_answer(text: str, path: str) -> None:
    """Refuse an ANSWER file that is a whole JSON record (``{"answer", "sources"}``): checked
    as prose, its sources would be ignored and its JSON read as the answer's words.

    Raises:
        UsageError: naming the file and the option that reads it.
    """
    t = text.strip()
    if not (t.startswith("{") and t.endswith("}")):
        return
    import json

    try:
        value = json.loads(t)
    except ValueError:
        return
    from ..text.record import is_record

    if is_record(value):
        raise UsageError(
            f"ANSWER {_where(path)} is a JSON record with its sources: give it as --json-input "
            f"{path}, without SOURCE files"
        )


#: The options ``check`` and ``cite`` share, written once (the gate's: :mod:`.gate`).
OUTPUT = typer.Option(None, "--output", "-o", metavar="OUT", help="Write the report here, not to stdout.")
AUDIT = typer.Option(None, "--audit", metavar="FILE", help=AUDIT_HELP)
VERBOSE = typer.Option(False, "--verbose", "-v", help=VERBOSE_HELP)


def check_and_gate(
    how: Callable[..., Report],
    command: str,
    answer: Optional[str],
    sources: Optional[list[str]],
    json_input: Optional[str],
    fmt: str,
    fail_on: Any,
    fail_under: Optional[float],
    min_coverage: Optional[float],
    out: Optional[str],
    audit: Optional[str],
    verbose: bool,
    judge: Optional[tuple] = None,
    meaning: bool = True,
    strict: tuple = (False, None),
) -> int:
    """The body of ``check`` and ``cite`` (``how``: :func:`sourced_nlp.api.check` or
    :func:`~sourced_nlp.api.cite`; ``command`` names it in the audit log): outputs refused
    first, the pipeline for the judge options (``judge``: ``(name, model, concurrency, file,
    record, base_url, scope)``), ``meaning`` and ``strict`` (``(--strict, --strict-level)``,
    :mod:`.strict`; a saved report from ``--json-input`` is shown as saved), the gates checked, the report made, logged, written, and the
    gate's exit code returned. ``fail_on``: the ``--fail-on`` values given (a list; the first
    of ``DEFAULT_FAIL_ON[command]`` when none names a verdict), or one gate as a string.
    A judge whose requests failed, or whose verdicts were discarded, is said on stderr (a line each), whatever the gate."""
    from ..evaluation import audit as _audit
    from . import judge as judging
    from .outputs import _check_written
    from .strict import strict_level

    name, model, concurrency, file, record, base_url, scope = judge or (None, None, 4, None, None, None, "unverified")
    _check_written(out, _inputs(answer, sources, json_input), file, record, audit=audit)
    fail_on, judge_error = fail_on_gates([fail_on] if isinstance(fail_on, str) else fail_on, DEFAULT_FAIL_ON[command])
    level = strict_level(*strict)
    nlp = judging.pipeline(name, model, concurrency, file, record, meaning, base_url, scope, level)
    _validate_gates(fail_under, min_coverage)
    report = _report_for(answer, sources, json_input, how, nlp)
    _audit.log_files(audit, command, report, [answer, json_input, *(sources or [])])
    _emit_or_reader_gone(report, fmt, out, verbose)
    for line in judge_lines([report])[0]:
        typer.echo(line, err=True)
    return _gate(report, fail_on, fail_under, min_coverage, judge_error)
