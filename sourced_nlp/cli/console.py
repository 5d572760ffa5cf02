"""The ``sourced`` console script.

``sourced --version`` is answered here, before the command line is built: importing Typer and
building the commands (:mod:`sourced_nlp.cli`) is most of a fresh process's start-up, and the
version needs neither. Every other call, and a ``--version`` whose output cannot be written,
goes to :func:`sourced_nlp.cli.main`, which gives the same output and exit codes as before.
Neither path imports spaCy: the pipeline is loaded only by a command that checks something.
A Ctrl-C from the first instruction on ends the process with exit 130 and one line
(:func:`sourced_nlp.cli.signals.interrupt_from_here`), also while the command line is imported.
"""

from __future__ import annotations

import sys
from typing import Optional


def main(argv: Optional[list[str]] = None) -> None:
    """Entry point of the ``sourced`` console script; exits with the codes of :mod:`sourced_nlp.cli`.

    Args:
        argv: the arguments after the program name; default ``sys.argv[1:]``.
    """
    from .signals import interrupt_from_here

    with interrupt_from_here():
        _main(sys.argv[1:] if argv is None else list(argv))


def _main(args: list[str]) -> None:
    if args == ["--version"] and sys.stdout is not None:
        from .. import __version__
        from .stdout import reader_may_go

        try:
            with reader_may_go():  # a broken pipe (| head) is quiet and still exit 0
                sys.stdout.write(f"sourced {__version__}\n")
        except OSError:  # a closed stdout, a full disk: the command line says so, as it always did
            pass
        else:
            sys.exit(0)
    from ._main import main as cli_main
    from .signals import run_to_exit

    run_to_exit(cli_main, args)
