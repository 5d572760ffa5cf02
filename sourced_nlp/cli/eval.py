"""``sourced eval`` (run / score / gate / diff / fixtures).

A Typer sub-app that :mod:`sourced_nlp.cli._util` registers. Exit codes as for every ``sourced`` command:
0 passed, 1 the gate failed (``gate``: a metric fell; ``fixtures``: a fixture failed; ``diff --exit-code``: a case changed), 2 a usage or input error
(raised here as :class:`~sourced_nlp.text.sources.SourceError` or ``ValueError``; ``cli.main`` prints
the one line).
"""

from __future__ import annotations

import json
import os
import sys
from enum import Enum
from typing import Optional

import typer

from ..text.sources import SourceError

eval_app = typer.Typer(
    name="eval",
    help="Score a whole RAG system: run, score, gate, diff.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
)


class ScoreFormat(str, Enum):
    table = "table"
    markdown = "markdown"
    json = "json"


class DiffFormat(str, Enum):
    text = "text"
    json = "json"


def _check_out(path: str, inputs: tuple[str, ...] = (), option: str = "--output") -> None:
    """Refuse an output (named by ``option`` in messages) that is one of ``inputs`` (symlinks,
    hard links and ``./`` paths resolved), a directory, or in a missing directory, before
    anything runs.

    Raises:
        SourceError: naming the option, the output and why.
    """
    from .outputs import _same_file

    for p in inputs:
        if os.path.exists(p) and _same_file(path, p):
            why = (
                "refusing to overwrite an input" if option in ("--output", "--markdown") else "refusing to write to it"
            )
            raise SourceError(f"{option} {path} is the input {p}: {why}")
    if os.path.isdir(path):
        raise SourceError(f"{option} {path} is a directory, not a file")
    parent = os.path.dirname(path) or "."
    if not os.path.isdir(parent):
        raise SourceError(f"{option} {path}: its directory {parent} does not exist")


def _write(path: str, text: str, inputs: tuple[str, ...] = (), option: str = "--output") -> None:
    """Write ``text`` to ``path`` (UTF-8, overwritten), refusing to overwrite an input.

    Raises:
        SourceError: ``path`` is one of ``inputs`` (:func:`_check_out`), or cannot be written.
    """
    from .whole import whole_file

    _check_out(path, inputs, option)
    with whole_file(path) as fh:  # the old file, or none, when it cannot be written whole
        fh.write(text)


def _console():
    from rich.console import Console

    return Console(file=sys.stdout, highlight=False, soft_wrap=True)


@eval_app.command("run")
def run_cmd(
    cases_file: str = typer.Argument(
        ..., metavar="CASES.jsonl", help='One {"id", "question", "sources", "expect"} a line.'
    ),
    target: str = typer.Option(
        ...,
        "--target",
        metavar="MODULE:CALLABLE",
        help="The system: called as CALLABLE(question, sources) (or CALLABLE(question)).",
    ),
    out: str = typer.Option(..., "--output", "-o", metavar="RUN.jsonl", help="Where the captured run is written."),
    concurrency: int = typer.Option(1, "--concurrency", metavar="N", help="Calls at a time (threads)."),
    timeout: Optional[float] = typer.Option(
        None, "--timeout", metavar="SECONDS", help="A call running longer is an error case."
    ),
) -> int:
    """Call the system once per case and capture what it returned (RUN.jsonl, "sourced.run/1").

    A call that raises, times out or returns an unreadable shape is captured as an error case.
    Exit 0 when every case was captured, 2 on a usage or input error.
    """
    from ..evaluation.cases import load_cases
    from ..evaluation.jsonl import dumps
    from ..evaluation.run import load_target, run_cases

    _check_out(out, (cases_file,))
    cases = load_cases(cases_file)
    fn = load_target(target)
    records = run_cases(fn, cases, target, concurrency=concurrency, timeout=timeout)
    _write(out, "".join(dumps(r) + "\n" for r in records), (cases_file,))
    errors = sum(1 for r in records if r["error"] is not None)
    typer.echo(f"{len(records)} cases run: {len(records) - errors} captured, {errors} error(s) -> {out}", err=True)
    return 0


def _audit_hook(audit: Optional[str]):
    """``on_report`` for :func:`score_run` that logs each checked case (None without ``--audit``)."""
    if audit is None:
        return None
    from ..evaluation.audit import log_report

    return lambda case, report, text, sources: log_report(
        audit, report, command="eval score", sources=sources, record_id=case.id
    )


@eval_app.command("score")
def score_cmd(
    run_file: str = typer.Argument(..., metavar="RUN.jsonl", help="A run captured by 'sourced eval run'."),
    prices: Optional[str] = typer.Option(
        None,
        "--prices",
        metavar="PRICES.json",
        help='{"input_per_1m", "output_per_1m", "currency"?}: without it, no cost.',
    ),
    out: Optional[str] = typer.Option(
        None, "--output", "-o", metavar="SCORECARD.json", help="Write the JSON scorecard here."
    ),
    markdown: Optional[str] = typer.Option(
        None, "--markdown", metavar="FILE", help="Also write the Markdown scorecard here."
    ),
    fmt: ScoreFormat = typer.Option(ScoreFormat.table, "--format", "-f", help="What goes to stdout."),
    audit: Optional[str] = typer.Option(
        None, "--audit", metavar="FILE", help="Append one audit record per checked case."
    ),
) -> int:
    """Re-score a captured run offline with the checker's verdicts: the scorecard.

    Exit 0 when scored, 2 on a usage or input error (the gate is 'sourced eval gate').
    """
    from ..evaluation.score import load_prices, load_run, score_run
    from ..evaluation.view import print_table, to_markdown

    if out:
        _check_out(out, (run_file,))
    if markdown:
        _check_out(markdown, (run_file,), "--markdown")
        if out:
            from .outputs import _same_file

            if _same_file(markdown, out):
                raise SourceError(f"--markdown {markdown} is the --output {out}: give them two files")
    if audit:
        from .outputs import _same_file

        _check_out(audit, (run_file, *((prices,) if prices else ())), "--audit")
        for option, path in (("--output", out), ("--markdown", markdown)):
            if path and _same_file(audit, path):
                raise SourceError(f"--audit {audit} is the {option} {path}: give them two files")
    rows = load_run(run_file)
    price = load_prices(prices) if prices else None
    card = score_run(rows, price, run_file=run_file, on_report=_audit_hook(audit))
    text = json.dumps(card, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    if out:
        _write(out, text, (run_file,))
    if markdown:
        _write(markdown, to_markdown(card), (run_file,), "--markdown")
    if fmt == ScoreFormat.json:
        sys.stdout.write(text)
    elif fmt == ScoreFormat.markdown:
        sys.stdout.write(to_markdown(card))
    else:
        print_table(card, _console())
    return 0


@eval_app.command("gate")
def gate_cmd(
    scorecard: str = typer.Argument(..., metavar="SCORECARD.json"),
    baseline: str = typer.Option(..., "--baseline", metavar="BASE.json", help="The scorecard to compare with."),
    max_drop: Optional[list[str]] = typer.Option(
        None,
        "--max-drop",
        metavar="[METRIC=]AMOUNT",
        help="How far a metric may fall (repeatable); a bare AMOUNT applies to every share metric. Default 0.",
    ),
) -> int:
    """Compare SCORECARD with a baseline: exit 1 with one line per metric that fell, else 0."""
    from ..evaluation.gate import load_scorecard, parse_max_drop, regressions

    allowed = parse_max_drop(max_drop or [])
    now, base = load_scorecard(scorecard), load_scorecard(baseline)
    lines, compared = regressions(now["overall"], base["overall"], allowed)
    for line in lines:
        typer.echo(line)
    if lines:
        typer.echo(f"gate failed: {len(lines)} of {compared} metrics fell against {baseline}", err=True)
        return 1
    typer.echo(f"gate passed: {compared} metrics held against {baseline}")
    return 0


@eval_app.command("diff")
def diff_cmd(
    a: str = typer.Argument(..., metavar="A.json", help="The earlier scorecard."),
    b: str = typer.Argument(..., metavar="B.json", help="The later scorecard."),
    fmt: DiffFormat = typer.Option(DiffFormat.text, "--format", "-f"),
    exit_code: bool = typer.Option(False, "--exit-code", help="Exit 1 when a case changed."),
) -> int:
    """List the cases whose verdicts (or outcome) changed from A to B."""
    from ..evaluation.diff import diff_scorecards, format_changes
    from ..evaluation.gate import load_scorecard

    changes = diff_scorecards(load_scorecard(a), load_scorecard(b))
    if fmt == DiffFormat.json:
        sys.stdout.write(json.dumps(changes, indent=2, ensure_ascii=False) + "\n")
    else:
        for line in format_changes(changes):
            typer.echo(line)
        typer.echo(f"{len(changes)} case(s) changed", err=True)
    return 1 if exit_code and changes else 0


@eval_app.command("fixtures")
def fixtures_cmd(
    files: list[str] = typer.Argument(
        ..., metavar="FIXTURE...", help='.json files holding {"answer", "sources"}, or .jsonl with one a line.'
    ),
    fail_on: str = typer.Option("contradicted", "--fail-on", help="A verdict or severity, as for 'sourced check'."),
    audit: Optional[str] = typer.Option(None, "--audit", metavar="FILE", help="Append one audit record per fixture."),
) -> int:
    """Check fixture answers against their sources (the pre-commit hook): exit 1 when one fails."""
    from ..evaluation.fixtures import check_fixtures

    if audit:
        _check_out(audit, tuple(files), "--audit")
    failed = 0
    for label, report, reasons in check_fixtures(files, fail_on, audit):
        c = report.counts
        mark = "FAIL" if reasons else "ok  "
        typer.echo(
            f"{mark} {label}: {c['grounded']} grounded, {c['contradicted']} contradicted, "
            f"{c['unverified']} unverified" + (f" ({'; '.join(reasons)})" if reasons else "")
        )
        failed += bool(reasons)
    return 1 if failed else 0
