"""What every ``sourced`` command shares: the Typer ``app`` (with the ``eval`` and ``audit``
sub-apps), the options' choices and help texts, the version, a report written to a file or to
standard output in any format, the input of ``check`` and ``cite`` (ANSWER SOURCE... or
``--json-input``) and the gate's exit code.

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
from ..report.findings import check_thresholds
from ..report.model import Report
from ..files import load_source_file, read_answer, read_stdin
from ..text.sources import normalize_sources
from .audit import audit_app
from .eval import eval_app
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


class FailOn(str, Enum):
    contradicted = "contradicted"
    unverified = "unverified"
    high = "high"
    medium = "medium"
    low = "low"
    judge_error = "judge-error"


class Severity(str, Enum):
    high = "high"
    medium = "medium"
    low = "low"


FAIL_ON_HELP = (
    "What fails the gate (exit 1): a verdict (contradicted; unverified = contradicted or "
    "unverified) or a finding severity (high; medium = high or medium; low = any finding); "
    "repeat it to add judge-error: a claim the judge gave no verdict for (its request failed) fails it too."
)

FAIL_ON_METAVAR = "<" + "|".join(f.value for f in FailOn) + ">"


def fail_on_gates(values: Optional[list], default: str) -> tuple[str, bool]:
    """``--fail-on`` given (repeatable): ``(the verdict or severity gate, whether judge-error was
    added)``; ``default`` (the command's) when no verdict or severity is named.

    Raises:
        UsageError: two different verdicts or severities.
    """
    names = [v.value if isinstance(v, Enum) else str(v) for v in values or []]
    gates = list(dict.fromkeys(n for n in names if n != FailOn.judge_error.value))
    if len(gates) > 1:
        raise UsageError(f"--fail-on takes one verdict or severity, got {' and '.join(gates)} "
                         f"(judge-error may be added to one)")
    return (gates[0] if gates else default), FailOn.judge_error.value in names


def judge_failures(report: Report) -> tuple[int, int, Optional[str]]:
    """``(claims the judge gave no verdict for because its request failed, claims it was asked
    about, the first failure's words)`` in ``report``."""
    asked = [c.judge for c in report.claims if c.judge]
    failed = [j for j in asked if j.get("status") == "failed"]
    return len(failed), len(asked), (str(failed[0].get("reason") or "") if failed else None)


def judge_failure_line(failed: int, asked: int, first: Optional[str]) -> str:
    """The stderr line of a run whose judge failed (``failed`` > 0)."""
    every = "every request" if failed == asked else "requests"
    return (f"judge: {failed} of {asked} claims got no verdict, {every} failed ({first}): they keep the rules' "
            f"verdict (--fail-on judge-error fails the gate on this)")

FAIL_UNDER_HELP = "Fail the gate when the grounding score (0-100, the share of claims grounded) is below N."

MIN_COVERAGE_HELP = (
    "Fail the gate when the citation coverage (the share of claims whose citations resolve and "
    "support them) is below this share: 0-1, or a percentage when above 1 (0.9 and 90 are 90%; 1 is all, "
    "1.5 is 1.5%)."
)

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
def _output(out: Optional[str]):
    """The stream to write a result to: the file ``out`` (opened, then closed), or stdout for
    None or ``-`` (flushed).

    Raises:
        SourceError: ``out`` (or standard output) cannot be opened or written (a full disk,
            ``/dev/full``), naming it and the reason. A closed pipe on stdout stays a
            BrokenPipeError (``main`` stops quietly).
    """
    out = None if out == "-" else out
    name = out or "standard output"
    fh = _open_output(out) if out else sys.stdout
    try:
        try:
            yield fh
        finally:
            if out:
                fh.close()
            else:
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
            malformed JSON, a malformed saved report, or a malformed record.
    """
    from ..files import _read_utf8, parse_json

    where = _where(path)
    text = read_stdin("JSON input") if path == "-" else _read_utf8(path, "JSON input")
    value = parse_json(text, where)
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


def _inputs(answer: Optional[str], sources: Optional[list[str]], json_input: Optional[str]) -> list[tuple[str, Optional[str]]]:
    """The input files of ``check``/``cite``, as ``(what, path)`` for :func:`_check_output`."""
    return [("answer file", answer), ("JSON input file", json_input)] + [
        ("source file", p) for p in sources or []
    ]


def _report_for(answer: Optional[str], sources: Optional[list[str]], json_input: Optional[str],
                how: Callable[..., Report], nlp: Any = None) -> Report:
    """The report for ``check``/``cite`` (``how``: :func:`sourced_nlp.api.check` or
    :func:`~sourced_nlp.api.cite`): a saved report or a record from ``--json-input``, else
    ANSWER checked against the SOURCE files.

    Raises:
        UsageError: both or neither of ``--json-input`` and ANSWER SOURCE... given.
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
        raise UsageError(f"ANSWER {_where(path)} is a JSON record with its sources: give it as --json-input "
                         f"{path}, without SOURCE files")


def _validate_gates(fail_under: Optional[float], min_coverage: Optional[float]) -> None:
    """Reject a gate that can never fail or never pass, before anything is written (the
    checks of :func:`sourced_nlp.report.check_thresholds`, as ``Report.gate`` makes them).

    Raises:
        UsageError: ``--fail-under`` outside 0-100 or not a number; a bad ``--min-coverage``.
    """
    try:
        check_thresholds(fail_under, min_coverage, names=("--fail-under", "--min-coverage"))
    except (TypeError, ValueError) as err:
        raise UsageError(str(err)) from err


def _gate(report, fail_on: str, fail_under: Optional[float], min_coverage: Optional[float],
          judge_error: bool = False) -> int:
    """Exit code of the gate; each reason it fails is one ``gate: ...`` line on stderr.
    ``min_coverage`` above 1 is a percentage (``Report.gate`` reads it so). With
    ``judge_error``, a claim the judge gave no verdict for (a failed request) fails it too."""
    if min_coverage is not None:
        min_coverage = check_thresholds(None, min_coverage)[1]
    reasons = report.gate(fail_on, fail_under=fail_under, min_coverage=min_coverage)
    if judge_error:
        failed, asked, _ = judge_failures(report)
        if failed:
            reasons = [*reasons, f"the judge gave no verdict for {failed} of {asked} claims (its requests failed)"]
    for r in reasons:
        typer.echo(f"gate: {r}", err=True)
    return 1 if reasons else 0


#: The options ``check`` and ``cite`` share, written once.
FAIL_UNDER = typer.Option(None, "--fail-under", metavar="N", help=FAIL_UNDER_HELP)
MIN_COVERAGE = typer.Option(None, "--min-coverage", metavar="SHARE", help=MIN_COVERAGE_HELP)
OUTPUT = typer.Option(None, "--output", "-o", metavar="OUT", help="Write the report here, not to stdout.")
AUDIT = typer.Option(None, "--audit", metavar="FILE", help=AUDIT_HELP)
VERBOSE = typer.Option(False, "--verbose", "-v", help=VERBOSE_HELP)


def check_and_gate(how: Callable[..., Report], command: str, answer: Optional[str], sources: Optional[list[str]],
                   json_input: Optional[str], fmt: str, fail_on: Any, fail_under: Optional[float],
                   min_coverage: Optional[float], out: Optional[str], audit: Optional[str], verbose: bool,
                   judge: Optional[tuple] = None, meaning: bool = True) -> int:
    """The body of ``check`` and ``cite`` (``how``: :func:`sourced_nlp.api.check` or
    :func:`~sourced_nlp.api.cite`; ``command`` names it in the audit log): outputs refused
    first, the pipeline for the judge options (``judge``: ``(name, model, concurrency, file,
    record)``) and ``meaning``, the gates checked, the report made, logged, written, and the
    gate's exit code returned. ``fail_on``: the ``--fail-on`` values given (a list; the first
    of ``DEFAULT_FAIL_ON[command]`` when none names a verdict), or one gate as a string.
    A judge whose requests failed is said on stderr (one line), whatever the gate."""
    from ..evaluation import audit as _audit
    from . import judge as judging
    from .outputs import _check_written

    name, model, concurrency, file, record = judge or (None, None, 4, None, None)
    _check_written(out, _inputs(answer, sources, json_input), file, record)
    fail_on, judge_error = fail_on_gates([fail_on] if isinstance(fail_on, str) else fail_on, DEFAULT_FAIL_ON[command])
    nlp = judging.pipeline(name, model, concurrency, file, record, meaning)
    _validate_gates(fail_under, min_coverage)
    report = _report_for(answer, sources, json_input, how, nlp)
    _audit.log_files(audit, command, report, [answer, json_input, *(sources or [])])
    _emit_or_reader_gone(report, fmt, out, verbose)
    failed, asked, first = judge_failures(report)
    if failed:
        typer.echo(judge_failure_line(failed, asked, first), err=True)
    return _gate(report, fail_on, fail_under, min_coverage, judge_error)


#: the gate of each command when --fail-on names no verdict or severity
DEFAULT_FAIL_ON = {"check": "contradicted", "cite": "medium", "batch": "contradicted"}
