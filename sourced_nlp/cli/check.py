"""``sourced check``: ANSWER checked against SOURCE files, the report in any format, the
gate's exit code.
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
def check(
    answer: Optional[str] = typer.Argument(
        None, metavar="ANSWER", help="The answer to check: a UTF-8 text file, or - for stdin."
    ),
    sources: Optional[list[str]] = typer.Argument(
        None, metavar="SOURCE...", help="Source files: plain UTF-8 text, or .json (linearised)."
    ),
    fmt: Format = typer.Option(Format.text, "--format", "-f", help="Output format."),
    fail_on: list[FailOn] = typer.Option(
        [FailOn.contradicted], "--fail-on", metavar=FAIL_ON_METAVAR, help=FAIL_ON_HELP
    ),
    fail_under: Optional[float] = FAIL_UNDER,
    min_coverage: Optional[float] = MIN_COVERAGE,
    json_input: Optional[str] = typer.Option(
        None,
        "--json-input",
        metavar="FILE",
        help='Instead of ANSWER SOURCE...: a JSON file (- for stdin) holding {"answer": str, "sources": [...]} '
        '("output" for "answer" also works; sources as strings, {id, text} mappings or JSON values), '
        'or a saved report ("schema": "sourced.report/1") to render and gate again.',
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
    """Check ANSWER against SOURCE files and print the report.

    Exit 0 when the gate passes, 1 when it fails, 2 on a usage or input error (among them an
    OUT that is one of the input files: refused before anything is read or written).
    """
    return check_and_gate(
        api.check,
        "check",
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
