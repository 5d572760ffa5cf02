"""``sourced cite``: a cited ANSWER, each claim against the sources it cites, each citation
resolved; findings, score and citation coverage, and the gate's exit code.
"""

from __future__ import annotations

from typing import Optional

import typer

from .. import api
from .. import audit as _audit
from . import judge as judging
from ._util import (AUDIT_HELP, FAIL_ON_HELP, FAIL_UNDER_HELP, MIN_COVERAGE_HELP, VERBOSE_HELP, FailOn, Format,
                    _emit_or_reader_gone, _gate, _inputs, _report_for, _validate_gates, app)
from .meaning import MEANING
from .outputs import _check_written

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
    report = _report_for(answer, sources, json_input, api.cite, nlp)
    _audit.log_files(audit, "cite", report, [answer, json_input, *(sources or [])])
    _emit_or_reader_gone(report, fmt.value, out, verbose)
    return _gate(report, fail_on.value, fail_under, min_coverage)
