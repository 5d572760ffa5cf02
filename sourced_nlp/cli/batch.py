"""``sourced batch``: many records from a JSONL file, one result per non-blank line, in order;
interrupted whole-line by whole-line, resumed, or checked on a Dask cluster.
"""

from __future__ import annotations

import contextlib
import sys
from typing import Any, Optional

import typer

from ..batch.output import OutputLock, result_line, resume_prefix, resume_stream, writable
from ..batch.results import error_text
from ..batch.results import results as _results
from ..batch.results import validate_record as _validate_record
from ..errors import SourceError
from ..evaluation import audit as _audit
from ..files import read_stdin_bytes
from ..report.model import Report
from . import judge as judging
from ._util import AUDIT_HELP, BatchFormat, _output, _stdout_console, _where, app
from .gate import DEFAULT_FAIL_ON, FAIL_ON_METAVAR, FailOn, fail_on_gates, judge_discards, judge_failures, judge_lines
from .meaning import MEANING
from .outputs import UsageError, _check_written
from .signals import _FINISHED, Interrupted, _Signals
from .strict import STRICT, STRICT_LEVEL, strict_config, strict_level


def _parse_line(line: str) -> tuple[Any, Optional[str]]:
    """One JSONL line parsed: ``(value, None)``, or ``(None, error)`` when it is not JSON or an
    object in it gives a key twice (``"output"`` twice: which one is meant?).

    The standard ``json`` module reads it (its C scanner, refusing a key given twice); a line
    it refuses is read again by srsly, so that a line only that parser reads is still read.
    """
    import json

    import srsly

    from ..files import DuplicateKey, unique_keys

    try:
        return json.loads(line, object_pairs_hook=unique_keys), None
    except DuplicateKey as err:
        return None, f"ambiguous record: {err}"
    except RecursionError:
        return None, "malformed JSON: nested too deeply to read"
    except json.JSONDecodeError as jerr:
        try:
            return srsly.json_loads(line), None
        except ValueError:
            msg = jerr.msg[:-3] if jerr.msg.endswith(" at") else jerr.msg
            return None, f"malformed JSON: {msg} at column {jerr.colno}"


def _read_batch(path: str) -> list[tuple[int, Any, Optional[dict], Optional[str]]]:
    """Parse a JSONL file into ``(line_no, id, record | None, error | None)`` per non-blank line.

    Lines are numbered from 1, counting blank lines, which are not records and are skipped.
    A line that is not UTF-8, not JSON, or not a valid record gets an error instead.

    Raises:
        SourceError: naming the file: it is missing, a directory, or unreadable.
    """
    from ..files import read_file_bytes
    from ..text.sources import unpaired_surrogate

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
            rid = writable(value.get("id")) if isinstance(value, dict) else None
            rows.append((n, rid, None, f"malformed JSON: {problem}"))
            continue
        rid = value.get("id") if isinstance(value, dict) else None
        try:
            rows.append((n, rid, _validate_record(value), None))
        except SourceError as err:
            rows.append((n, rid, None, str(err)))
    return rows


RESUME = typer.Option(
    False,
    "--resume",
    help="Continue an interrupted run: keep the results already in OUT (needs -o OUT and --format json) "
    "and check only the records after them.",
)
DASK = typer.Option(
    None,
    "--dask",
    metavar="ADDRESS",
    help="Check on a Dask cluster: a scheduler's address (tcp://host:8786), or local:N for N local worker "
    "processes (needs the dask extra: pip install 'sourced-nlp[dask]'). The output is the same.",
)
PARTITION_SIZE = typer.Option(
    32,
    "--partition-size",
    min=1,
    metavar="N",
    help="With --dask: records per task, at least N (a task is cut where the sources change; at most 2N).",
)


@app.command()
def batch(
    file: str = typer.Argument(
        ..., metavar="FILE.jsonl", help='JSONL, one {"id"?, "output" (or "answer"), "sources"} per line; - for stdin.'
    ),
    fmt: BatchFormat = typer.Option(BatchFormat.json, "--format", "-f", help="Output format."),
    fail_on: list[FailOn] = typer.Option(
        [FailOn.contradicted],
        "--fail-on",
        metavar=FAIL_ON_METAVAR,
        help="Which verdicts fail the gate (exit 1); repeat it to add judge-error: a record with a claim the judge "
        "gave no verdict for (its request failed) fails it too.",
    ),
    out: Optional[str] = typer.Option(None, "--output", "-o", metavar="OUT", help="Write here, not stdout."),
    audit: Optional[str] = typer.Option(None, "--audit", metavar="FILE", help=AUDIT_HELP),
    resume: bool = RESUME,
    judge: Optional[str] = judging.JUDGE,
    judge_model: Optional[str] = judging.JUDGE_MODEL,
    judge_concurrency: int = judging.JUDGE_CONCURRENCY,
    judge_file: Optional[str] = judging.JUDGE_FILE,
    judge_record: Optional[str] = judging.JUDGE_RECORD,
    judge_base_url: Optional[str] = judging.JUDGE_BASE_URL,
    judge_scope: judging.JudgeScope = judging.JUDGE_SCOPE,
    meaning: bool = MEANING,
    strict: bool = STRICT,
    strict_level_: Optional[float] = STRICT_LEVEL,
    dask: Optional[str] = DASK,
    partition_size: int = PARTITION_SIZE,
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
    _check_written(out, [("batch file", file)], judge_file, judge_record, audit=audit)
    gates = fail_on_gates(fail_on, DEFAULT_FAIL_ON["batch"])
    judged = (judge, judge_model, judge_concurrency, judge_file, judge_record)
    level = strict_level(strict, strict_level_)
    nlp = judging.pipeline(*judged, meaning, judge_base_url, judge_scope.value, level)
    judge_cfg = _worker_config(*judged, meaning, judge_base_url, judge_scope.value, level)
    if dask is not None:
        _dask_batch().parse_address(dask)
    out = None if out == "-" else out  # "-o -": standard output, as for the inputs
    if resume and (out is None or fmt != BatchFormat.json):
        raise UsageError("--resume needs -o OUT and --format json: it continues the results in OUT")
    rows = _read_batch(file)
    if not rows:
        raise SourceError("no records on standard input" if file == "-" else f"no records in batch file {file}")
    with OutputLock(out):  # before OUT is read or cut, held until the run ends: a second writer refuses
        return _run(file, rows, out, fmt, gates, audit, resume, nlp, judge_cfg, dask, partition_size)


def _run(
    file: str,
    rows: list,
    out: Optional[str],
    fmt: BatchFormat,
    gates: tuple[str, bool],
    audit: Optional[str],
    resume: bool,
    nlp: Any,
    judge_cfg: Optional[dict],
    dask: Optional[str],
    partition_size: int,
) -> int:
    """The run of :func:`batch` once its records are read and OUT is locked."""
    results, size = resume_prefix(out, rows, _where(file)) if resume else ([], 0)
    stream = resume_stream(out, size) if resume else _output(out, whole=False)  # streamed, resumable
    todo = rows[len(results) :]
    first_new = len(results)  # the results this run adds (the audit log gets only these)
    good = [rec for _, _, rec, err in todo if err is None]
    name = out or "standard output"
    with _Signals() as signals:
        with stream as fh, contextlib.ExitStack() as stack:
            advance = _progress(stack, len(todo))
            console = _text_console(fh, out) if fmt == BatchFormat.text else None
            try:
                done = _engine(stack, good, nlp, dask, partition_size, judge_cfg)  # a signal while connecting
                for r in _in_order(todo, done, file):
                    with signals.whole():  # a signal held during the write is raised after it is counted
                        r = _write_result(fh, r, fmt, console, name, file)
                        results.append(r)
                    advance("error" in r)
                signals.writing = True  # every result is written: a signal from here on changes nothing
            except Interrupted as stop:
                typer.echo(_interrupted(stop.signum, results, len(rows), name, out, fmt), err=True)
                _audit.log_batch(audit, results[first_new:], file)
                return 128 + stop.signum

        _audit.log_batch(audit, results[first_new:], file)
        code = _summary(results, first_new if resume else None, *gates)
        _FINISHED.append(code)  # a signal on the way out (outside _Signals) keeps this code: main()
        return code


def _dask_batch():
    """The Dask layer (:mod:`sourced_nlp.batch.dask`), or exit 2 naming the extra it needs."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise SourceError("--dask needs the dask extra: pip install 'sourced-nlp[dask]'") from None
    from ..batch import dask as dask_batch

    return dask_batch


def _engine(
    stack: contextlib.ExitStack,
    good: list[dict],
    nlp: Any,
    dask: Optional[str],
    partition_size: int,
    config: Optional[dict],
):
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

    bar = stack.enter_context(
        Progress(
            TextColumn("checking"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("records"),
            TextColumn("{task.fields[rate]} records/s, {task.fields[errors]} errors"),
            TimeElapsedColumn(),
            console=Console(file=sys.stderr),
            transient=True,
        )
    )
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


def _write_result(fh, r: dict, fmt: "BatchFormat", console, name: str, file: str) -> dict:
    """Write one batch result and flush it (JSON: one line; text: the rendered report); returns
    the result written: ``r``, or, for a result that cannot be written as UTF-8, an error result
    in its place (also said on stderr), so that the record is not lost and the run goes on.

    Raises:
        SourceError: the output cannot be written (a full disk), naming it. A closed pipe on
            standard output stays a BrokenPipeError.
    """
    try:
        if fmt == BatchFormat.json:
            line = result_line(r)
            try:
                line.encode("utf-8")
            except UnicodeEncodeError as err:
                r = {
                    "line": r["line"],
                    "id": writable(r.get("id")),
                    "error": error_text(f"the result cannot be written as UTF-8: {err.reason}"),
                }
                typer.echo(f"error: {_where(file)}: line {r['line']}: {r['error']}", err=True)
                line = result_line(r)
            fh.write(line)
        else:
            from ..report.text import render_text

            label = f"line {r['line']}" + (f" (id {r['id']})" if r["id"] is not None else "")
            if "error" in r:
                console.print(f"── {label}: error: {r['error']}", markup=False, highlight=False)
            else:
                console.print(f"── {label}", markup=False, highlight=False)
                render_text(_report(r["report"]), console)
        fh.flush()
        return r
    except BrokenPipeError:
        raise
    except OSError as err:
        raise SourceError(f"cannot write {name}: {err.strerror or err}") from err


def _worker_config(
    judge: Optional[str],
    model: Optional[str],
    concurrency: int,
    file: Optional[str],
    record: Optional[str],
    meaning: bool,
    base_url: Optional[str] = None,
    scope: str = "unverified",
    strict: Optional[float] = None,
) -> Optional[dict]:
    """The ``sourced_verify`` config every Dask worker builds its pipeline with: the judge's
    entry, ``meaning: null`` for the rules only, and the ``strict`` level when one is set; None
    for the default pipeline."""
    cfg = {"judge": judging.judge_config(judge, model, concurrency, file, record, base_url, scope)} if judge else None
    if not meaning:  # the rules only: the config of every worker too
        cfg = {**(cfg or {}), "meaning": None}
    if strict is not None:
        cfg = {**(cfg or {}), **strict_config(strict)}
    return cfg


def _interrupted(signum: int, results: list[dict], total: int, name: str, out: Optional[str], fmt: BatchFormat) -> str:
    """The one line of a run stopped by a signal: how far it got, and how to go on."""
    import signal

    what = "SIGINT" if signum == signal.SIGINT else "SIGTERM"
    last = f"up to line {results[-1]['line']}" if results else "none"
    hint = f"; run again with --resume -o {out} to continue" if out and fmt == BatchFormat.json else ""
    return f"interrupted by {what}: {len(results)} of {total} records written to {name} ({last}){hint}"


def _summary(results: list[dict], kept: Optional[int], fail_on: str, judge_error: bool = False) -> int:
    """Print the run's summary on stderr (with ``kept``, the results kept from an earlier run
    by ``--resume``) and return its exit code: 2 when a record was malformed, else 1 when a
    report failed the gate (with ``judge_error``, also one with a claim the judge gave no verdict
    for), else 0. Claims the judge gave no verdict for are counted on the summary line, and said
    on a line of their own before it."""
    errors = [r for r in results if "error" in r]
    checked = [_report(r["report"]) for r in results if "report" in r]
    failing = sum(
        1
        for rep in checked
        if rep.failed(fail_on) or (judge_error and (judge_failures(rep)[0] or judge_discards(rep)[0]))
    )
    done = f"; {len(results) - kept} done in this run, {kept} kept from the earlier run" if kept is not None else ""
    lines, failed, discarded, asked = judge_lines(checked)
    judge = f"; judge: {failed} of {asked} claims got no verdict" if failed else ""
    judge += f"; judge: {discarded} of {asked} verdicts discarded" if discarded else ""
    for line in lines:
        typer.echo(line, err=True)
    typer.echo(
        f"{len(results)} records: {len(checked)} checked, {failing} failed the gate, "
        f"{len(errors)} malformed{done}{judge}",
        err=True,
    )
    return 2 if errors else 1 if failing else 0


def _text_console(fh, out: Optional[str]):
    """The rich console of ``--format text``: on the file OUT without colour, or on stdout."""
    from rich.console import Console

    return Console(file=fh, highlight=False, soft_wrap=True, no_color=bool(out)) if out else _stdout_console()


def _in_order(todo: list[tuple[int, Any, Optional[dict], Optional[str]]], done, file: str):
    """One result per row of ``todo``, in order: the next checked result of ``done`` for a good
    record, the error for a bad one (also said on stderr with its line number)."""
    for n, rid, _rec, err in todo:
        r = {"line": n, **next(done)} if err is None else {"line": n, "id": rid, "error": error_text(err)}
        if "error" in r:
            typer.echo(f"error: {_where(file)}: line {n}: {r['error']}", err=True)
        yield r
