"""The ``sourced`` command line: ``sourced check`` and ``sourced batch``.

Exit codes (the same for every command):
    0: the gate passed (no claim failed it).
    1: the gate failed: a claim is contradicted (``--fail-on contradicted``, the default), or
       contradicted or unverified (``--fail-on unverified``).
    2: a usage or input error: a missing, empty, non-UTF-8 or malformed input, no sources, a
       text longer than the language model reads at once, an unknown option, an ``--output``
       that is one of the input files or cannot be written. One line ``error: ...``
       on stderr, naming the file (and, in a JSONL file, the line), never a traceback. In
       ``batch``, any malformed line makes the run exit 2, after every good line has been checked.
       A closed standard input or output is an input/output error too.
    130, 143: interrupted by SIGINT or SIGTERM (``batch`` leaves whole results of a prefix and
       says how far it got; ``--resume`` continues).

A broken pipe on standard output (``| head``), in any command, stops the output quietly and keeps
the exit code the command would have given (:mod:`sourced_nlp.cli.stdout`): ``batch`` still checks
every record, so that its exit code is the whole batch's. Any other exception is a bug and
surfaces with its traceback (in ``batch``, a record that raises one gets an ``internal error``
result in its place instead).
"""

from __future__ import annotations

import contextlib
import os
import sys
from enum import Enum
from typing import Any, Optional

import typer

from .. import audit as _audit
from .stdout import quiet_stdout, reader_may_go
from .eval import audit_app, eval_app
from ..report.findings import check_thresholds
from ..report.model import Report
from ..batch.results import error_text, results as _results, validate_record as _validate_record
from ..text.sources import (SourceError, TextTooLongError, load_source_file, normalize_sources, read_answer, read_stdin,
                      read_stdin_bytes)
from . import judge as judging
from .meaning import MEANING
from .outputs import _ABORTS, _CLICK_ERRORS, _NO_ARGS, _USAGE_ERRORS, UsageError, _check_written, _same_file

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


class Severity(str, Enum):
    high = "high"
    medium = "medium"
    low = "low"


FAIL_ON_HELP = (
    "What fails the gate (exit 1): a verdict (contradicted; unverified = contradicted or "
    "unverified) or a finding severity (high; medium = high or medium; low = any finding)."
)
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
    from ..text.sources import _read_utf8, parse_json

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
            from ..report.text import render_text

            if out:
                from rich.console import Console

                console = Console(file=fh, highlight=False, soft_wrap=True, no_color=True)
            else:
                console = _stdout_console()
            render_text(report, console, verbose=verbose)
            _show_findings(report, console)


_quiet_stdout = quiet_stdout  # after a broken pipe on standard output: fd 1 to /dev/null


def _emit_or_reader_gone(report: Report, fmt: str, out: Optional[str], verbose: bool = False) -> None:
    """:func:`_emit`; a broken pipe on standard output (``| head``) stops the output quietly:
    the reader has what it wanted, and the exit code stays the gate's."""
    try:
        _emit(report, fmt, out, verbose)
    except BrokenPipeError:
        _quiet_stdout()


@app.command()
def check(
    answer: Optional[str] = typer.Argument(
        None, metavar="ANSWER", help="The answer to check: a UTF-8 text file, or - for stdin."
    ),
    sources: Optional[list[str]] = typer.Argument(
        None, metavar="SOURCE...", help="Source files: plain UTF-8 text, or .json (linearised)."
    ),
    fmt: Format = typer.Option(Format.text, "--format", "-f", help="Output format."),
    fail_on: FailOn = typer.Option(FailOn.contradicted, "--fail-on", help=FAIL_ON_HELP),
    fail_under: Optional[float] = typer.Option(None, "--fail-under", metavar="N", help=FAIL_UNDER_HELP),
    min_coverage: Optional[float] = typer.Option(None, "--min-coverage", metavar="SHARE", help=MIN_COVERAGE_HELP),
    json_input: Optional[str] = typer.Option(
        None,
        "--json-input",
        metavar="FILE",
        help='Instead of ANSWER SOURCE...: a JSON file (- for stdin) holding {"answer": str, "sources": [...]} '
        '("output" for "answer" also works; sources as strings, {id, text} mappings or JSON values), '
        'or a saved report ("schema": "sourced.report/1") to render and gate again.',
    ),
    out: Optional[str] = typer.Option(
        None, "--output", "-o", metavar="OUT", help="Write the report here, not to stdout."
    ),
    audit: Optional[str] = typer.Option(None, "--audit", metavar="FILE", help=AUDIT_HELP),
    verbose: bool = typer.Option(False, "--verbose", "-v", help=VERBOSE_HELP),
    judge: Optional[str] = judging.JUDGE, judge_model: Optional[str] = judging.JUDGE_MODEL,
    judge_concurrency: int = judging.JUDGE_CONCURRENCY, judge_file: Optional[str] = judging.JUDGE_FILE,
    judge_record: Optional[str] = judging.JUDGE_RECORD,
    meaning: bool = MEANING,
) -> int:
    """Check ANSWER against SOURCE files and print the report.

    Exit 0 when the gate passes, 1 when it fails, 2 on a usage or input error (among them an
    OUT that is one of the input files: refused before anything is read or written).
    """
    _check_written(out, _inputs(answer, sources, json_input), judge_file, judge_record)
    nlp = judging.pipeline(judge, judge_model, judge_concurrency, judge_file, judge_record, meaning)
    _validate_gates(fail_under, min_coverage)
    report = _report_for(answer, sources, json_input, "check", nlp)
    _audit.log_files(audit, "check", report, [answer, json_input, *(sources or [])])
    _emit_or_reader_gone(report, fmt.value, out, verbose)
    return _gate(report, fail_on.value, fail_under, min_coverage)


def _inputs(answer: Optional[str], sources: Optional[list[str]], json_input: Optional[str]) -> list[tuple[str, Optional[str]]]:
    """The input files of ``check``/``cite``, as ``(what, path)`` for :func:`_check_output`."""
    return [("answer file", answer), ("JSON input file", json_input)] + [
        ("source file", p) for p in sources or []
    ]


def _report_for(answer: Optional[str], sources: Optional[list[str]], json_input: Optional[str], how: str,
                nlp: Any = None) -> Report:
    """The report for ``check``/``cite`` (``how``): a saved report or a record from
    ``--json-input``, else ANSWER checked against the SOURCE files.

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
    import sourced_nlp

    try:
        return getattr(sourced_nlp, how)(answer_text, source_list, nlp=nlp)
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
    if isinstance(value, dict) and "sources" in value and ("answer" in value or "output" in value):
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


def _gate(report, fail_on: str, fail_under: Optional[float], min_coverage: Optional[float]) -> int:
    """Exit code of the gate; each reason it fails is one ``gate: ...`` line on stderr.
    ``min_coverage`` above 1 is a percentage (``Report.gate`` reads it so)."""
    if min_coverage is not None:
        min_coverage = check_thresholds(None, min_coverage)[1]
    reasons = report.gate(fail_on, fail_under=fail_under, min_coverage=min_coverage)
    for r in reasons:
        typer.echo(f"gate: {r}", err=True)
    return 1 if reasons else 0


def _show_findings(report, console) -> None:
    """Findings, most severe first, and the score, after the text report."""
    from rich.markup import escape

    findings = report.findings if report.findings is not None else None
    if findings is None:
        return
    colours = {"high": "red", "medium": "yellow", "low": "dim"}
    order = {"high": 0, "medium": 1, "low": 2}
    for f in sorted(findings, key=lambda f: order.get(f["severity"], 3)):
        at = f" claim {f['claim'] + 1}" if isinstance(f.get("claim"), int) else ""
        at = at or (f" {f['field']}" if f.get("field") else "")
        c = colours.get(f["severity"], "white")
        console.print(f"[{c}]{f['severity']:<6} {escape(f['kind'])}[/{c}]{escape(at)}: {escape(f['message'])}",
                      highlight=False)
    score = getattr(report, "score", None)
    cov = getattr(report, "coverage", None)
    parts = [f"score {score}/100" if score is not None else "score n/a"]
    if cov is not None and any(c.citations for c in getattr(report, "claims", [])):
        parts.append(f"citation coverage {cov:.0%}")
    parts.append(f"{len(findings)} finding(s)")
    console.print("  ".join(parts), highlight=False)


@app.command()
def cite(
    answer: Optional[str] = typer.Argument(
        None, metavar="ANSWER",
        help='The cited answer: a UTF-8 file (text with [1], [S2: "quote"], (Passage 3) ... markers, '
        'or JSON {"claims": [{"text", "citations": [{"source", "quote"}]}]}), or - for stdin.',
    ),
    sources: Optional[list[str]] = typer.Argument(
        None, metavar="SOURCE...", help="Source files, in the order the answer numbers them."
    ),
    fmt: Format = typer.Option(Format.text, "--format", "-f", help="Output format."),
    fail_on: FailOn = typer.Option(FailOn.medium, "--fail-on", help=FAIL_ON_HELP),
    fail_under: Optional[float] = typer.Option(None, "--fail-under", metavar="N", help=FAIL_UNDER_HELP),
    min_coverage: Optional[float] = typer.Option(None, "--min-coverage", metavar="SHARE", help=MIN_COVERAGE_HELP),
    json_input: Optional[str] = typer.Option(
        None, "--json-input", metavar="FILE",
        help='Instead of ANSWER SOURCE...: a JSON file (- for stdin) holding {"answer": str, "sources": [...]}.',
    ),
    out: Optional[str] = typer.Option(
        None, "--output", "-o", metavar="OUT", help="Write the report here, not to stdout."
    ),
    audit: Optional[str] = typer.Option(None, "--audit", metavar="FILE", help=AUDIT_HELP),
    verbose: bool = typer.Option(False, "--verbose", "-v", help=VERBOSE_HELP),
    judge: Optional[str] = judging.JUDGE, judge_model: Optional[str] = judging.JUDGE_MODEL,
    judge_concurrency: int = judging.JUDGE_CONCURRENCY, judge_file: Optional[str] = judging.JUDGE_FILE,
    judge_record: Optional[str] = judging.JUDGE_RECORD,
    meaning: bool = MEANING,
) -> int:
    """Check a cited ANSWER: each claim against the sources it cites, each citation resolved
    and its quote located; findings with severities, a grounding score, citation coverage.

    Exit 0 when the gate passes (by default: no finding of medium or high severity), 1 when
    it fails, 2 on a usage or input error (among them an OUT that is one of the input files).
    """
    _check_written(out, _inputs(answer, sources, json_input), judge_file, judge_record)
    nlp = judging.pipeline(judge, judge_model, judge_concurrency, judge_file, judge_record, meaning)
    _validate_gates(fail_under, min_coverage)
    report = _report_for(answer, sources, json_input, "cite", nlp)
    _audit.log_files(audit, "cite", report, [answer, json_input, *(sources or [])])
    _emit_or_reader_gone(report, fmt.value, out, verbose)
    return _gate(report, fail_on.value, fail_under, min_coverage)


@app.command()
def fields(
    fields_file: str = typer.Argument(
        ..., metavar="FIELDS.json",
        help='Extracted fields: {"name": {"value": ..., "citations": [{"source", "quote"}]}, ...} '
        "or a list of such objects with a \"field\" name; - for stdin.",
    ),
    sources: Optional[list[str]] = typer.Argument(None, metavar="SOURCE...", help="Source files."),
    fmt: FieldsFormat = typer.Option(FieldsFormat.text, "--format", "-f", help="Output format (text, json, markdown)."),
    fail_on: Severity = typer.Option(Severity.medium, "--fail-on", help="The finding severity that fails the gate."),
    fail_under: Optional[float] = typer.Option(
        None, "--fail-under", metavar="N", help="Fail when the score (the share of values found in their cited passage, 0-100) is below N."
    ),
    min_coverage: Optional[float] = typer.Option(
        None, "--min-coverage", metavar="SHARE",
        help="Fail when the share of values found in their cited passage is below this share: 0-1, or a percentage when above 1 (0.9 and 90 are 90%; 1 is all, 1.5 is 1.5%).",
    ),
) -> int:
    """Check extracted FIELDS against SOURCE files: every value must be in the passage it cites
    (numbers by value and unit, arrays and objects leaf by leaf).

    Exit 0 when the gate passes, 1 when it fails, 2 on a usage or input error.
    """
    import sourced_nlp

    from ..text.sources import _read_utf8, parse_json

    _validate_gates(fail_under, min_coverage)
    if not sources:
        raise UsageError("no SOURCE given: need at least one source file")
    where = _where(fields_file)
    text = read_stdin("fields") if fields_file == "-" else _read_utf8(fields_file, "fields")
    value = parse_json(text, where)
    source_list = _load_sources(sources)
    try:
        rep = sourced_nlp.check_fields(value, source_list)
    except ValueError as err:  # no usable shape, or nothing to check (the sources were checked above)
        raise SourceError(f"{where}: {err}") from err
    try:
        _emit_fields(rep, fmt)
    except BrokenPipeError:
        _quiet_stdout()
    return _gate(rep, fail_on.value, fail_under, min_coverage)


def _emit_fields(rep, fmt: "FieldsFormat") -> None:
    """Write a fields report to standard output (flushed)."""
    import json

    if fmt == FieldsFormat.json:
        sys.stdout.write(rep.to_json() + "\n")
    elif fmt == FieldsFormat.markdown:
        sys.stdout.write(rep.to_markdown())
    else:
        from rich.markup import escape

        console = _stdout_console()
        marks = {"found": "[green]✔[/green]", "elsewhere": "[yellow]✘[/yellow]", "not-found": "[red]✘[/red]",
                 "uncited": "[yellow]?[/yellow]", "unchecked": "[dim]·[/dim]"}
        for f in rep.fields:
            cites = ", ".join(f"{c['status']}" for c in f["citations"]) or "no citation"
            console.print(f"{marks.get(f['status'], '?')} {f['status']:<10} {escape(f['field'])} = "
                          f"{escape(json.dumps(f['value'], ensure_ascii=False))} [dim]({escape(cites)})[/dim]",
                          highlight=False)
        _show_findings(rep, console)
    sys.stdout.flush()


def _parse_line(line: str) -> tuple[Any, Optional[str]]:
    """One JSONL line parsed: ``(value, None)``, or ``(None, error)`` when it is not JSON.

    The fast parser (srsly) reads it first; when it fails, the standard ``json`` module reads
    it again, so that the message is that module's (its words and column), and a line only the
    fast parser refuses is still read.
    """
    import json

    import srsly

    try:
        return srsly.json_loads(line), None
    except ValueError as err:
        try:
            return json.loads(line), None
        except json.JSONDecodeError as jerr:
            msg = jerr.msg[:-3] if jerr.msg.endswith(" at") else jerr.msg
            return None, f"malformed JSON: {msg} at column {jerr.colno}"
        except RecursionError:
            return None, "malformed JSON: nested too deeply to read"
        except ValueError:
            return None, f"malformed JSON: {err}"


def _read_batch(path: str) -> list[tuple[int, Any, Optional[dict], Optional[str]]]:
    """Parse a JSONL file into ``(line_no, id, record | None, error | None)`` per non-blank line.

    Lines are numbered from 1, counting blank lines, which are not records and are skipped.
    A line that is not UTF-8, not JSON, or not a valid record gets an error instead.

    Raises:
        SourceError: naming the file: it is missing, a directory, or unreadable.
    """
    from ..text.sources import read_file_bytes, unpaired_surrogate

    if path == "-":
        data = read_stdin_bytes("batch")
    else:
        data = read_file_bytes(path, "batch file")
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    rows: list[tuple[int, Any, Optional[dict], Optional[str]]] = []
    for n, raw in enumerate(data.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as err:
            rows.append((n, None, None, f"not UTF-8 text (invalid byte at column {err.start + 1})"))
            continue
        value, problem = _parse_line(line)
        if problem:
            rows.append((n, None, None, problem))
            continue
        problem = unpaired_surrogate(value)
        if problem:
            rows.append((n, value.get("id") if isinstance(value, dict) else None, None, f"malformed JSON: {problem}"))
            continue
        rid = value.get("id") if isinstance(value, dict) else None
        try:
            rows.append((n, rid, _validate_record(value), None))
        except SourceError as err:
            rows.append((n, rid, None, str(err)))
    return rows


class Interrupted(BaseException):
    """SIGINT or SIGTERM arrived during ``batch``; ``signum`` says which. A BaseException, as
    KeyboardInterrupt is, so that no ``except Exception`` on the way takes it for a record's
    error."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


class _Signals:
    """While active, SIGINT and SIGTERM raise :class:`Interrupted` in the main thread, but never
    in the middle of writing a result line: a signal that arrives while a line is written is
    raised once the line is written and flushed, so the output is always whole lines. Once every
    result is written (``writing`` left True), a signal is held and never raised, and in the
    ``sourced`` process (:func:`sourced_nlp.cli.signals.run_to_exit`) the handlers stay so until the
    exit, which keeps the finished run's exit code."""

    def __init__(self) -> None:
        self.writing = False
        self.pending: Optional[int] = None
        self._old: dict[int, Any] = {}

    def __enter__(self) -> "_Signals":
        import signal

        for sig in (signal.SIGINT, signal.SIGTERM):
            try:
                self._old[sig] = signal.signal(sig, self._handle)
            except (ValueError, OSError):  # not the main thread: signals stay as they are
                pass
        return self

    def __exit__(self, *exc) -> None:
        import signal

        from .signals import AS_SCRIPT

        if self.writing and exc[0] is None and AS_SCRIPT:
            return  # the run is over and so is the process: a signal from here on is held, unraised
        for sig, old in self._old.items():
            signal.signal(sig, old)

    def _handle(self, signum, frame) -> None:
        if self.writing:
            self.pending = signum
        else:
            raise Interrupted(signum)

    @contextlib.contextmanager
    def whole(self):
        """Write one result with signals held back until it is written."""
        self.writing = True
        try:
            yield
        finally:
            self.writing = False
        if self.pending is not None:
            signum, self.pending = self.pending, None
            raise Interrupted(signum)


def _result_line(r: dict) -> str:
    """One batch result as its JSON line (keys sorted, UTF-8, newline-terminated)."""
    import json

    row = dict(r)
    if isinstance(row.get("report"), Report):
        row["report"] = row["report"].to_dict()
    return json.dumps(row, sort_keys=True, ensure_ascii=False) + "\n"


def _resume_prefix(out: str, rows: list[tuple[int, Any, Optional[dict], Optional[str]]], file: str) -> tuple[list[dict], int]:
    """The results an interrupted run left in ``out``, checked against the batch ``rows``.

    Returns:
        ``(results, size)``: the whole result lines found, parsed (a report as a
        :class:`Report`), and the byte length of those lines (a cut-off last line, as a
        ``kill -9`` may leave, is not counted and will be written again). No file, or an empty
        one: ``([], 0)``.

    Raises:
        SourceError: ``out`` cannot be read, or it does not hold this batch's results: a line
            that is not a result, or results for other lines or ids than ``file`` has, or more
            results than records.
    """
    import json

    if not os.path.exists(out):
        return [], 0
    try:
        with open(out, "rb") as fh:
            data = fh.read()
    except OSError as err:
        raise SourceError(f"--resume: cannot read {out}: {err.strerror or err}") from err
    results: list[dict] = []
    size = 0
    for k, raw in enumerate(data.split(b"\n")[:-1], start=1):  # the part after the last newline is cut off
        try:
            row = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            raise SourceError(f"--resume: {out} line {k} is not a batch result; it is not the output of "
                              f"'sourced batch --format json'") from None
        if not isinstance(row, dict) or "line" not in row or ("report" in row) == ("error" in row):
            raise SourceError(f"--resume: {out} line {k} is not a batch result")
        if k > len(rows):
            raise SourceError(f"--resume: {out} holds more results than {_where(file)} has records ({len(rows)})")
        n, rid = rows[k - 1][0], rows[k - 1][1]
        if row["line"] != n or row.get("id") != rid:
            raise SourceError(f"--resume: {out} line {k} is the result of line {row['line']} (id {row.get('id')!r}), "
                              f"but record {k} of {_where(file)} is line {n} (id {rid!r}): not this batch's output")
        if "report" in row:
            try:
                row["report"] = Report.from_dict(row["report"])
            except (TypeError, ValueError) as err:
                raise SourceError(f"--resume: {out} line {k}: {err}") from err
        results.append(row)
        size += len(raw) + 1
    return results, size


@app.command()
def batch(
    file: str = typer.Argument(
        ..., metavar="FILE.jsonl", help='JSONL, one {"id"?, "output" (or "answer"), "sources"} per line; - for stdin.'
    ),
    fmt: BatchFormat = typer.Option(BatchFormat.json, "--format", "-f", help="Output format."),
    fail_on: FailOn = typer.Option(
        FailOn.contradicted, "--fail-on", help="Which verdicts fail the gate (exit 1)."
    ),
    out: Optional[str] = typer.Option(None, "--output", "-o", metavar="OUT", help="Write here, not stdout."),
    audit: Optional[str] = typer.Option(None, "--audit", metavar="FILE", help=AUDIT_HELP),
    resume: bool = typer.Option(
        False, "--resume",
        help="Continue an interrupted run: keep the results already in OUT (needs -o OUT and --format json) "
        "and check only the records after them.",
    ),
    judge: Optional[str] = judging.JUDGE, judge_model: Optional[str] = judging.JUDGE_MODEL,
    judge_concurrency: int = judging.JUDGE_CONCURRENCY, judge_file: Optional[str] = judging.JUDGE_FILE,
    judge_record: Optional[str] = judging.JUDGE_RECORD,
    meaning: bool = MEANING,
    dask: Optional[str] = typer.Option(
        None, "--dask", metavar="ADDRESS",
        help="Check on a Dask cluster: a scheduler's address (tcp://host:8786), or local:N for N local worker "
        "processes (needs the dask extra: pip install 'sourced-nlp[dask]'). The output is the same.",
    ),
    partition_size: int = typer.Option(
        32, "--partition-size", min=1, metavar="N",
        help="With --dask: records per task, at least N (a task is cut where the sources change; at most 2N)."),
) -> int:
    """Check many records from a JSONL file, one result per non-blank input line, in order.

    Every non-blank line gives one result: ``{"line": n, "id": ..., "report": {...}}``, or
    ``{"line": n, "id": ..., "error": "..."}`` for a malformed line or a record that cannot be
    checked (also reported on stderr with its line number). Blank lines are not records and are
    skipped. Results are written in input order as they are done, one flushed line each, so a
    run stopped by SIGINT or SIGTERM leaves whole results for a prefix of the records (it says
    how far it got on stderr and exits 130 or 143); ``--resume`` continues it. Exit 2 when any
    line is malformed (after checking all the others), else 1 if any report fails the gate,
    else 0; exit 2 before anything is read when OUT is the batch file itself. ``--resume`` trusts
    the results in OUT whose line number and id match the record at their place: a record edited
    in place (same line, same id) keeps its earlier result. The summary on stderr counts the
    whole OUT; with ``--resume`` it also says how many records were done in this run and how
    many results were kept from the earlier one.
    """
    _check_written(out, [("batch file", file)], judge_file, judge_record)
    nlp = judging.pipeline(judge, judge_model, judge_concurrency, judge_file, judge_record, meaning)
    judge_cfg = {"judge": judging.judge_config(judge, judge_model, judge_concurrency, judge_file, judge_record)} \
        if judge else None
    if not meaning:  # the rules only: the config of every worker too
        judge_cfg = {**(judge_cfg or {}), "meaning": None}
    if dask is not None:
        _dask_batch().parse_address(dask)
    out = None if out == "-" else out  # "-o -": standard output, as for the inputs
    if resume and (out is None or fmt != BatchFormat.json):
        raise UsageError("--resume needs -o OUT and --format json: it continues the results in OUT")
    rows = _read_batch(file)
    if not rows:
        raise SourceError("no records on standard input" if file == "-" else f"no records in batch file {file}")
    results, size = _resume_prefix(out, rows, file) if resume else ([], 0)
    stream = _resume_stream(out, size) if resume else _output(out)
    todo = rows[len(results):]
    first_new = len(results)  # the results this run adds (the audit log gets only these)
    good = [rec for _, _, rec, err in todo if err is None]
    name = out or "standard output"
    with _Signals() as signals:
        with stream as fh, contextlib.ExitStack() as stack:
            advance = _progress(stack, len(todo))
            console = None
            if fmt == BatchFormat.text:
                from rich.console import Console

                console = Console(file=fh, highlight=False, soft_wrap=True, no_color=bool(out)) if out else _stdout_console()
            try:
                done = _engine(stack, good, nlp, dask, partition_size, judge_cfg)  # a signal while connecting
                for n, rid, rec, err in todo:
                    if err is None:
                        r = {"line": n, **next(done)}
                    else:
                        r = {"line": n, "id": rid, "error": error_text(err)}
                    if "error" in r:
                        typer.echo(f"error: {_where(file)}: line {n}: {r['error']}", err=True)
                    with signals.whole():
                        _write_result(fh, r, fmt, console, name)
                    results.append(r)
                    advance("error" in r)
                signals.writing = True  # every result is written: a signal from here on changes nothing
            except Interrupted as stop:
                import signal

                what = "SIGINT" if stop.signum == signal.SIGINT else "SIGTERM"
                last = f"up to line {results[-1]['line']}" if results else "none"
                hint = f"; run again with --resume -o {out} to continue" if out and fmt == BatchFormat.json else ""
                typer.echo(f"interrupted by {what}: {len(results)} of {len(rows)} records written to {name} "
                           f"({last}){hint}", err=True)
                _audit.log_batch(audit, results[first_new:], file)
                return 128 + stop.signum

        _audit.log_batch(audit, results[first_new:], file)
        errors = [r for r in results if "error" in r]
        checked = [_report(r["report"]) for r in results if "report" in r]
        failing = sum(1 for rep in checked if rep.failed(fail_on.value))
        kept = f"; {len(results) - first_new} done in this run, {first_new} kept from the earlier run" if resume else ""
        typer.echo(
            f"{len(results)} records: {len(checked)} checked, {failing} failed the gate, "
            f"{len(errors)} malformed{kept}",
            err=True,
        )
        code = 2 if errors else 1 if failing else 0
        _FINISHED.append(code)  # a signal on the way out (outside _Signals) keeps this code: main()
        return code


#: the exit code of a command that has done all its work (batch), for a signal that comes on the
#: way out of it: main() exits with this code, not as interrupted
_FINISHED: list[int] = []


def _resume_stream(out: str, size: int):
    """OUT cut to its first ``size`` bytes (the whole results kept), open for appending.

    Raises:
        SourceError: OUT cannot be written, naming it.
    """
    try:
        fh = open(out, "r+b" if os.path.exists(out) else "wb")
        fh.truncate(size)
        fh.seek(size)
        fh.close()
        fh = open(out, "a", encoding="utf-8")
    except OSError as err:
        raise SourceError(f"cannot write {out}: {err.strerror or err}") from err
    return contextlib.nullcontext(fh)


def _dask_batch():
    """The Dask layer (:mod:`sourced_nlp.batch.dask`), or exit 2 naming the extra it needs."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise SourceError("--dask needs the dask extra: pip install 'sourced-nlp[dask]'") from None
    from ..batch import dask as dask_batch

    return dask_batch


def _engine(stack: contextlib.ExitStack, good: list[dict], nlp: Any, dask: Optional[str], partition_size: int,
            config: Optional[dict]):
    """The results of the validated records ``good``, in order (:func:`sourced_nlp.batch.results.results`):
    in this process, or on the Dask cluster ``dask`` (closed when ``stack`` closes)."""
    if dask is None or not good:
        return _results(good, nlp=nlp, validated=True)
    dask_batch = _dask_batch()
    client = stack.enter_context(dask_batch.connect(dask))
    return dask_batch.stream(client, good, partition_size=partition_size, config=config, validated=True)


def _progress(stack: contextlib.ExitStack, total: int):
    """On a terminal (stderr), a progress line (records done, records/s, errors) kept by
    ``stack``; returns ``advance(error: bool)``, a no-op elsewhere or for one record."""
    if not (sys.stderr.isatty() and total > 1):
        return lambda error=False: None
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    bar = stack.enter_context(Progress(
        TextColumn("checking"), BarColumn(), MofNCompleteColumn(), TextColumn("records"),
        TextColumn("{task.fields[rate]} records/s, {task.fields[errors]} errors"), TimeElapsedColumn(),
        console=Console(file=sys.stderr), transient=True))
    task = bar.add_task("checking", total=total, rate="-", errors=0)
    errors = [0]

    def advance(error: bool = False) -> None:
        errors[0] += bool(error)
        t = bar.tasks[0]
        rate = f"{(t.completed + 1) / t.elapsed:.1f}" if t.elapsed else "-"
        bar.update(task, advance=1, rate=rate, errors=errors[0])

    return advance


def _report(report: Any) -> Report:
    return report if isinstance(report, Report) else Report.from_dict(report)
app.command("calibrate")(judging.calibrate_command)


def _write_result(fh, r: dict, fmt: "BatchFormat", console, name: str) -> None:
    """Write one batch result and flush it (JSON: one line; text: the rendered report).

    Raises:
        SourceError: the output cannot be written (a full disk), naming it. A closed pipe on
            standard output stays a BrokenPipeError.
    """
    try:
        if fmt == BatchFormat.json:
            fh.write(_result_line(r))
        else:
            from ..report.text import render_text

            label = f"line {r['line']}" + (f" (id {r['id']})" if r["id"] is not None else "")
            if "error" in r:
                console.print(f"── {label}: error: {r['error']}", markup=False, highlight=False)
            else:
                console.print(f"── {label}", markup=False, highlight=False)
                render_text(_report(r["report"]), console)
        fh.flush()
    except BrokenPipeError:
        raise
    except OSError as err:
        raise SourceError(f"cannot write {name}: {err.strerror or err}") from err


def _one_line(message: Any) -> str:
    text = " ".join(str(message).split()).replace("Value error, ", "")
    return text or "unknown error"


class _ClosedStream:
    """Standard output when the process was started with it closed: writing to it is an
    input/output error (exit 2) that names it, not an AttributeError on None."""

    def __init__(self, name: str) -> None:
        self.name = name

    def write(self, data: str) -> int:
        raise SourceError(f"cannot write {self.name}: it is closed")

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False

    def fileno(self) -> int:
        raise OSError(f"{self.name} is closed")


def main(argv: Optional[list[str]] = None) -> None:
    """Entry point of the ``sourced`` console script; exits with the codes of the module doc."""
    args = sys.argv[1:] if argv is None else list(argv)
    _FINISHED.clear()
    if sys.stdout is None:  # started with standard output closed (">&-")
        sys.stdout = _ClosedStream("standard output")
    try:
        with reader_may_go():  # a broken pipe on stdout is quiet and keeps the command's exit code
            rv = app(args=args, prog_name="sourced", standalone_mode=False)
    except _NO_ARGS as err:
        # `sourced` alone: show the help, but it is still a usage error (exit 2).
        sys.stderr.write(err.format_message().rstrip("\n") + "\n")
        sys.exit(2)
    except _USAGE_ERRORS as err:
        hint = ""
        if getattr(err, "ctx", None) is not None:
            hint = f" (see '{err.ctx.command_path} --help')"
        sys.stderr.write(f"error: {_one_line(err.format_message())}{hint}\n")
        sys.exit(2)
    except _CLICK_ERRORS as err:
        sys.stderr.write(f"error: {_one_line(err.format_message())}\n")
        sys.exit(2)
    except _ABORTS:
        if _FINISHED:  # Ctrl-C on the way out of a command that had done its work (click's Abort)
            sys.exit(_FINISHED[-1])
        sys.stderr.write("error: aborted\n")
        sys.exit(2)
    except BrokenPipeError as err:
        # Standard output's broken pipe never gets here (reader_may_go drops it): this is some
        # other pipe, an input/output error whose outcome is unknown, so never a pass.
        quiet_stdout()
        sys.stderr.write(f"error: {_one_line(err.strerror or err)}\n")
        sys.exit(2)
    except RecursionError:
        sys.stderr.write("error: the input is nested too deeply to read\n")
        sys.exit(2)
    except KeyboardInterrupt:  # Ctrl-C outside batch (which stops after whole results itself)
        if _FINISHED:  # on the way out of a batch that had written every result
            sys.exit(_FINISHED[-1])
        sys.stderr.write("interrupted by SIGINT\n")
        sys.exit(130)
    except INPUT_ERRORS as err:
        if isinstance(err, OSError) and not isinstance(err, SourceError):
            name = f" {err.filename}" if getattr(err, "filename", None) else ""
            message = f"{err.strerror or err}:{name}" if name else (err.strerror or str(err))
        else:
            message = str(err)
        sys.stderr.write(f"error: {_one_line(message)}\n")
        sys.exit(2)
    if rv == 130 and _FINISHED:  # Typer's Exit(130) for a Ctrl-C on the way out of a finished batch
        rv = _FINISHED[-1]
    sys.exit(rv if isinstance(rv, int) else 0)

