"""Standard output whose reader may go away (``sourced ... | head``).

A broken pipe on standard output is not a failure: the reader has what it wanted. Every command
runs under :func:`reader_may_go`, which puts a stream in front of ``sys.stdout`` that, on the
first ``EPIPE``, points file descriptor 1 at ``/dev/null`` and drops the rest of the output. The
command itself never sees the broken pipe, so it runs to its end and its exit code stays the one
it would have given (the gate's 0 or 1, or 2 for an error), whenever the reader closed: before
the first write, in the middle, or after the last one (the final flush is done here, not by the
interpreter at exit, which would print "Exception ignored ... BrokenPipeError" and exit 120).
Any other write error (a full disk, ``/dev/full``) is raised as before. Importing this module
imports nothing beyond the standard library.
"""

from __future__ import annotations

import contextlib
import os
import sys
from typing import Any, Iterator


def quiet_stdout(stream: Any = None) -> None:
    """Point the file descriptor of ``stream`` (default ``sys.stdout``) at ``/dev/null``, so
    that nothing more written to it, nor the interpreter's last flush, fails again."""
    try:
        fd = (sys.stdout if stream is None else stream).fileno()
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, fd)
        finally:
            os.close(devnull)
    except (OSError, AttributeError, ValueError):
        pass


class ReaderMayGo:
    """A text stream in front of ``stream`` that drops its output once the reader has gone
    (``BrokenPipeError``); every other attribute is ``stream``'s.

    Attributes:
        gone: True once a write or flush met a broken pipe.
    """

    def __init__(self, stream: Any) -> None:
        self._stream = stream
        self.gone = False

    def _lost(self) -> None:
        self.gone = True
        quiet_stdout(self._stream)
        with contextlib.suppress(OSError, ValueError):
            self._stream.flush()  # what was still buffered goes to /dev/null now

    def write(self, data: str) -> int:
        """Write ``data``; after a broken pipe, count it as written and drop it."""
        if self.gone:
            return len(data)
        try:
            return self._stream.write(data)
        except BrokenPipeError:
            self._lost()
            return len(data)

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        """Flush ``stream``; a broken pipe is the reader gone, not an error."""
        if self.gone:
            return
        try:
            self._stream.flush()
        except BrokenPipeError:
            self._lost()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


@contextlib.contextmanager
def reader_may_go() -> Iterator[ReaderMayGo]:
    """Run the block with ``sys.stdout`` behind :class:`ReaderMayGo`; flush it at the end (a
    broken pipe then is quiet too) and put the old ``sys.stdout`` back."""
    old = sys.stdout
    guard = ReaderMayGo(old)
    sys.stdout = guard
    try:
        yield guard
    finally:
        guard.flush()
        if sys.stdout is guard:
            sys.stdout = old
