"""``sourced cite``: a cited ANSWER, each claim against the sources it cites, each citation
resolved; findings, score and citation coverage, and the gate's exit code.
"""

from __future__ import annotations

from typing import Optional

import typer

from .. import api
from . import judge as judging
from ._util import AUDIT, OUTPUT, VERBOSE, Format, app, check_and_gate
from .gate import FAIL_ON_HELP, FAIL_ON_METAVAR, FAIL_UNDER, MIN_COVERAGE, FailOn
from .meaning import MEANING
from .strict import STRICT, STRICT_LEVEL


@app.command()
def cite(
    answer: Optional[str] = typer.Argument(
        None,
        metavar="ANSWER",
        help='The cited answer: a UTF-8 file (text with [1], [S2: "quote"], (Passage 3) ... markers, '
        'or JSON {"claims": [{"text", "citations": [{"source", "quote"}]}]}), or - for stdin.',
    ),
    sources: Optional[list[str]] = typer.Argument(
        None, metavar="SOURCE...", help="Source files, in the order the answer numbers them."
    ),
    fmt: Format = typer.Option(Format.text, "--format", "-f", help="Output format."),
    fail_on: list[FailOn] = typer.Option([FailOn.medium], "--fail-on", metavar=FAIL_ON_METAVAR, help=FAIL_ON_HELP),
    fail_under: Optional[float] = FAIL_UNDER,
    min_coverage: Optional[float] = MIN_COVERAGE,
    json_input: Optional[str] = typer.Option(
        None,
        "--json-input",
        metavar="FILE",
        help='Instead of ANSWER SOURCE...: a JSON file (- for stdin) holding {"answer": str, "sources": [...]}.',
    ),
    out: Optional[str] = OUTPUT,
    audit: Optional[str] = AUDIT,
    verbose: bool = VERBOSE,
    judge: Optional[str] = judging.JUDGE,
    judge_model: Optional[str] = judging.JUDGE_MODEL,
    judge_concurrency: int = judging.JUDGE_CONCURRENCY,
    judge_file: Optional[str] = judging.JUDGE_FILE,
    judge_record: Optional[str] = judging.JUDGE_RECORD,
    judge_base_url: Optional[str] = judging.JUDGE_BASE_URL,
    judge_scope: judging.JudgeScope = judging.JUDGE_SCOPE,
    meaning: bool = MEANING,
    strict: bool = STRICT,
    strict_level: Optional[float] = STRICT_LEVEL,
) -> int:
    """Check a cited ANSWER: each claim against the sources it cites, each citation resolved
    and its quote located; findings with severities, a grounding score, citation coverage.

    Exit 0 when the gate passes (by default: no finding of medium or high severity), 1 when
    it fails, 2 on a usage or input error (among them an OUT that is one of the input files).
    """
    return check_and_gate(
        api.cite,
        "cite",
        answer,
        sources,
        json_input,
        fmt.value,
        fail_on,
        fail_under,
        min_coverage,
        out,
        audit,
        verbose,
        (judge, judge_model, judge_concurrency, judge_file, judge_record, judge_base_url, judge_scope.value),
        meaning,
        (strict, strict_level),
    )
