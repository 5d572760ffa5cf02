"""``sourced fields``: extracted field values, each in the passage it cites."""

from __future__ import annotations

import sys
from typing import Optional

import typer

from ..errors import SourceError
from ..files import read_stdin
from ._util import FieldsFormat, _load_sources, _quiet_stdout, _stdout_console, _where, app
from .gate import Severity, _gate, _validate_gates
from .outputs import UsageError


@app.command()
def fields(
    fields_file: str = typer.Argument(
        ...,
        metavar="FIELDS.json",
        help='Extracted fields: {"name": {"value": ..., "citations": [{"source", "quote"}]}, ...} '
        'or a list of such objects with a "field" name; - for stdin.',
    ),
    sources: Optional[list[str]] = typer.Argument(None, metavar="SOURCE...", help="Source files."),
    fmt: FieldsFormat = typer.Option(FieldsFormat.text, "--format", "-f", help="Output format (text, json, markdown)."),
    fail_on: Severity = typer.Option(Severity.medium, "--fail-on", help="The finding severity that fails the gate."),
    fail_under: Optional[float] = typer.Option(
        None,
        "--fail-under",
        metavar="N",
        help="Fail when the score (the share of values found in their cited passage, 0-100) is below N.",
    ),
    min_coverage: Optional[float] = typer.Option(
        None,
        "--min-coverage",
        metavar="SHARE",
        help="Fail when the share of values found in their cited passage is below this share: 0-1, or a percentage when above 1 (0.9 and 90 are 90%; 1 is all, 1.5 is 1.5%).",
    ),
) -> int:
    """Check extracted FIELDS against SOURCE files: every value must be in the passage it cites
    (numbers by value and unit, arrays and objects leaf by leaf).

    Exit 0 when the gate passes, 1 when it fails, 2 on a usage or input error.
    """
    from ..citing.fields import check_fields
    from ..files import _read_utf8, parse_json

    _validate_gates(fail_under, min_coverage)
    if not sources:
        raise UsageError("no SOURCE given: need at least one source file")
    where = _where(fields_file)
    text = read_stdin("fields") if fields_file == "-" else _read_utf8(fields_file, "fields")
    value = parse_json(text, where)
    source_list = _load_sources(sources)
    try:
        rep = check_fields(value, source_list)
    except ValueError as err:  # no usable shape, or nothing to check (the sources were checked above)
        raise SourceError(f"{where}: {err}") from err
    try:
        _emit_fields(rep, fmt)
    except BrokenPipeError:
        _quiet_stdout()
    return _gate(rep, fail_on.value, fail_under, min_coverage)


def _emit_fields(rep, fmt: "FieldsFormat") -> None:
    """Write a fields report to standard output (flushed)."""
    if fmt == FieldsFormat.json:
        sys.stdout.write(rep.to_json() + "\n")
    elif fmt == FieldsFormat.markdown:
        sys.stdout.write(rep.to_markdown())
    else:
        from ..report.text import render_fields

        render_fields(rep, _stdout_console())
    sys.stdout.flush()
