"""``sourced audit verify``: the hash chain of an audit log checked.

A Typer sub-app that :mod:`sourced_nlp.cli._util` registers. Exit 0 when the chain is intact,
1 naming the first broken record, 2 when the log is unreadable.
"""

from __future__ import annotations

from typing import Optional

import typer

audit_app = typer.Typer(
    name="audit",
    help="The hash-chained audit log (--audit FILE).",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
)


@audit_app.command("verify")
def verify_cmd(
    file: str = typer.Argument(..., metavar="FILE", help="An audit log written with --audit."),
    expect_head: Optional[str] = typer.Option(
        None,
        "--expect-head",
        metavar="HASH",
        help="A last hash kept outside the log (as verify printed it): it must still be in the chain, "
        "so that records cut off the end are seen even if FILE.head was cut too.",
    ),
) -> int:
    """Check the hash chain, and its end against FILE.head (written by every append) and
    --expect-head: exit 0 when intact, 1 naming the first broken record or the cut end, 2 when
    unreadable."""
    from ..evaluation.audit import verify

    code, message = verify(file, expect_head)
    typer.echo(message if code == 0 else f"broken: {file}: {message}", err=code != 0)
    return code
