"""The ``sourced`` command line run: the commands registered on one Typer app, and every error
turned into its exit code and one line.

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

import sys
from typing import Any, Optional

from ..errors import SourceError

# the commands register on the app as they are imported, in the order --help lists them
# isort: off
from . import check, cite, fields, batch, calibrate, serve  # noqa: F401

# isort: on
from ._util import INPUT_ERRORS, app
from .outputs import _ABORTS, _CLICK_ERRORS, _NO_ARGS, _USAGE_ERRORS
from .signals import _FINISHED
from .stdout import quiet_stdout, reader_may_go


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
