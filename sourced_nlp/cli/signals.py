"""How the ``sourced`` process ends: a signal that comes once a command is over keeps its exit code.

A leaf module (standard library only), shared by the console script (:mod:`sourced_nlp.cli.console`),
``python -m sourced_nlp.cli`` and ``batch``'s signal handling.
"""

from __future__ import annotations

import contextlib
import sys
from typing import Any, Optional

_DONE: list[int] = []  # the exit code, once the command is over
AS_SCRIPT: list[bool] = []  # this process runs the command line and ends with it (run_to_exit)


@contextlib.contextmanager
def interrupt_from_here():
    """Around the whole ``sourced`` process, from its first instruction: a Ctrl-C (SIGINT) ends
    it with exit 130 and the one line ``interrupted by SIGINT`` on stderr, wherever it comes:
    while the command line is imported, while the pipeline loads, while a claim is checked. The
    signal raises :class:`Interrupted`, which no ``except KeyboardInterrupt`` on the way (Typer's,
    Click's) turns into a silent exit; ``batch`` handles it itself (whole results, then its own
    line). A SIGINT the process was started with ignored (a script's background job) stays
    ignored. One that comes on the way out of a finished ``batch`` keeps its exit code.
    """
    import signal

    try:
        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            signal.signal(signal.SIGINT, _raise_interrupted)
    except (ValueError, OSError):  # not the main thread: signals stay as they are
        pass
    try:
        yield
    except (Interrupted, KeyboardInterrupt) as stop:
        if isinstance(stop, Interrupted) and stop.signum != signal.SIGINT:
            raise
        if _FINISHED:  # on the way out of a batch that had written every result
            sys.exit(_FINISHED[-1])
        try:
            sys.stderr.write("interrupted by SIGINT\n")
            sys.stderr.flush()
        except Exception:  # noqa: BLE001 -- a closed stderr: the exit code still says it
            pass
        sys.exit(130)


def _raise_interrupted(signum, frame) -> None:
    raise Interrupted(signum)


def run_to_exit(command, args: list[str]) -> None:
    """Run ``command(args)`` (which ends with ``sys.exit``) so that a SIGINT or SIGTERM that
    comes once it is over keeps its exit code (:func:`exit_at_once_on_a_signal`)."""
    import atexit

    atexit.register(_ignore_signals_when_done)  # registered first, so it runs after every other hook
    AS_SCRIPT.append(True)
    try:
        command(args)
    except SystemExit as done:
        exit_at_once_on_a_signal(done.code)
        raise


def _ignore_signals_when_done() -> None:
    """The last exit hook: past it, the interpreter puts the signals back to their default
    action (death by the signal) while it tears its modules down, which takes a while after a
    pipeline was loaded; ignored, they cannot change the exit code any more."""
    import signal

    if _DONE:
        for sig in (signal.SIGINT, signal.SIGTERM):
            try:
                signal.signal(sig, signal.SIG_IGN)
            except (ValueError, OSError):
                pass


def exit_at_once_on_a_signal(code: object) -> None:
    """The command is over and its exit code decided: a SIGINT or SIGTERM that arrives while the
    interpreter shuts down (threads joined, exit hooks run) exits at once with that code, and
    one during the teardown after the last hook is ignored: never a traceback or a death by the
    signal. Standard output and error are flushed first, as the exit would flush them."""
    import os
    import signal

    status = code if isinstance(code, int) else (0 if code is None else 1)
    _DONE.append(status)
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # noqa: BLE001 -- a closed or broken stream: nothing left to flush
            pass
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            signal.signal(sig, lambda *_: os._exit(status))
        except (ValueError, OSError):  # not the main thread
            pass


class Interrupted(BaseException):
    """SIGINT or SIGTERM arrived during ``batch``; ``signum`` says which. A BaseException, as
    KeyboardInterrupt is, so that no ``except Exception`` on the way takes it for a record's
    error."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


class _Signals:
    """While active, SIGINT and SIGTERM raise :class:`Interrupted` in the main thread, but never
    in the middle of writing a result line: a signal that arrives while a line is written is
    raised once the line is written and flushed, so the output is always whole lines. Once every
    result is written (``writing`` left True), a signal is held and never raised, and in the
    ``sourced`` process (:func:`sourced_nlp.cli.signals.run_to_exit`) the handlers stay so until the
    exit, which keeps the finished run's exit code."""

    def __init__(self) -> None:
        self.writing = False
        self.pending: Optional[int] = None
        self._old: dict[int, Any] = {}

    def __enter__(self) -> "_Signals":
        import signal

        for sig in (signal.SIGINT, signal.SIGTERM):
            try:
                if signal.getsignal(sig) != signal.SIG_IGN:  # started ignored (a background job): it stays so
                    self._old[sig] = signal.signal(sig, self._handle)
            except (ValueError, OSError):  # not the main thread: signals stay as they are
                pass
        return self

    def __exit__(self, *exc) -> None:
        import signal

        if self.writing and exc[0] is None and AS_SCRIPT:
            return  # the run is over and so is the process: a signal from here on is held, unraised
        for sig, old in self._old.items():
            signal.signal(sig, old)

    def _handle(self, signum, frame) -> None:
        if self.writing:
            self.pending = signum
        else:
            raise Interrupted(signum)

    @contextlib.contextmanager
    def whole(self):
        """Write one result with signals held back until it is written."""
        self.writing = True
        try:
            yield
        finally:
            self.writing = False
        if self.pending is not None:
            signum, self.pending = self.pending, None
            raise Interrupted(signum)


#: the exit code of a command that has done all its work (batch), for a signal that comes on the
#: way out of it: main() exits with this code, not as interrupted
_FINISHED: list[int] = []
