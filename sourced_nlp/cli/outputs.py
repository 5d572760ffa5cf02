"""What the command line refuses before any work: the click usage errors in use, and the files a
command writes that would destroy one of its inputs (``-o``, ``--judge-record``, ``--record``).

A leaf module (the standard library and Typer only), so that :mod:`sourced_nlp.cli`,
:mod:`sourced_nlp.cli.eval` and :mod:`sourced_nlp.cli.judge` share it without importing each other.
"""

from __future__ import annotations

import os
import sys
from typing import Optional

import typer


def _click_modules() -> list:
    """The click exception modules in use: Typer >= 0.2x vendors its own click, older ones
    use the ``click`` package; usage errors come from the one Typer uses. The ``click``
    package is not imported beside a vendored click (it costs start-up time, and Typer never
    raises its exceptions then)."""
    mods = []
    try:
        from typer._click import exceptions as vendored

        mods.append(vendored)
    except ImportError:
        pass
    if not mods or "click" in sys.modules:
        try:
            from click import exceptions as real

            mods.append(real)
        except ImportError:
            pass
    return mods


_CLICK = _click_modules()
_USAGE_ERRORS = tuple(m.UsageError for m in _CLICK)
_CLICK_ERRORS = tuple(m.ClickException for m in _CLICK)
_ABORTS = tuple(m.Abort for m in _CLICK if hasattr(m, "Abort")) + (typer.Abort,)
_NO_ARGS = tuple(m.NoArgsIsHelpError for m in _CLICK if hasattr(m, "NoArgsIsHelpError"))
UsageError = _USAGE_ERRORS[0]


def _same_file(a: str, b: str) -> bool:
    """Whether two paths name one file (symlinks, ``..`` and hard links resolved); when one
    does not exist yet, whether they resolve to the same path (one file to be written)."""
    try:
        return os.path.samefile(a, b)
    except FileNotFoundError:
        return os.path.realpath(a) == os.path.realpath(b)
    except OSError:  # e.g. a file that cannot be stat'ed: compare the resolved paths
        from pathlib import Path

        return Path(a).resolve() == Path(b).resolve()


def _check_output(out: Optional[str], inputs: list[tuple[str, Optional[str]]], option: str = "--output") -> None:
    """Refuse an ``--output`` (or another file the command writes, named by ``option``) that
    would destroy an input or cannot be written, before any input is read or anything is written.

    Args:
        out: the path written, or None or ``-`` (stdout).
        inputs: ``(what, path)`` per file it must not be (``what`` as "answer file", "source
            file", ...); a None or ``-`` (stdin) path is skipped.
        option: the option that names ``out``, as the message names it.

    Raises:
        UsageError: ``out`` is the same file as one of ``inputs`` (compared by identity, not by
            spelling: symlinks, hard links and ``./`` paths are the same file), is a directory,
            or its directory does not exist.
    """
    if out is None or out == "-":
        return
    for what, path in inputs:
        if path is not None and path != "-" and _same_file(out, path):
            raise UsageError(
                f"{option} {out} is the {what} {path}: refusing to "
                + ("overwrite an input" if option == "--output" else "write to it")
            )
    if os.path.isdir(out):
        raise UsageError(f"{option} {out} is a directory, not a file")
    parent = os.path.dirname(out) or "."
    if not os.path.isdir(parent):
        why = "is not a directory" if os.path.exists(parent) else "does not exist"
        raise UsageError(f"{option} {out}: its directory {parent} {why}")


def _check_written(
    out: Optional[str],
    inputs: list[tuple[str, Optional[str]]],
    judge_file: Optional[str],
    judge_record: Optional[str],
    record_option: str = "--judge-record",
    audit: Optional[str] = None,
) -> None:
    """:func:`_check_output` for every file a command writes: ``--output`` must be none of
    ``inputs`` nor the judge's answers file (``--judge-file``, read by ``--judge replay``); the
    file the judge's answers are appended to (``record_option``) none of these nor ``--output``;
    the audit log (``--audit``) none of these nor the judge's record file.

    Raises:
        UsageError: as :func:`_check_output`, naming the option at fault.
    """
    answers = [("--judge-file", judge_file)]
    written = [("--output", None if out == "-" else out)]
    _check_output(out, inputs + answers)
    _check_output(judge_record, inputs + answers + written, record_option)
    _check_output(audit, inputs + answers + written + [(record_option, judge_record)], "--audit")
