"""A checking worker of ``sourced serve`` (:mod:`.pool` starts them, as ``python -m
sourced_nlp.cli.worker SERVER_PID``): one thread, one pipeline, and a pipe each way to the server.

Each message is a length (8 bytes, little-endian: :data:`HEADER`) and a pickle:

* server to worker: ``("load", config)`` once (the ``sourced_verify`` config overrides), then
  ``(mode, answer, sources, view)`` a check (``mode`` ``"check"`` or ``"cite"``; ``view``
  ``"json"`` or ``"html"``);
* worker to server: ``("ready", pid)`` or ``("failed", message)`` for the load, then
  ``(status, text)`` a check: :func:`render`'s reply.

A worker ignores SIGINT (Ctrl-C on a terminal reaches the whole process group: the server stops
its workers itself), exits when the server closes its pipe, and on Linux is killed when the
server dies. Anything printed in it goes to standard error.
"""

from __future__ import annotations

import os
import pickle
import signal
import struct
import sys
from typing import Any, BinaryIO

__all__ = ["HEADER", "render", "work"]

#: The length before each pickle.
HEADER = struct.Struct("<Q")


def _one_line(message: Any) -> str:
    return " ".join(str(message).split()) or "unknown error"


def render(nlp: Any, mode: str, answer: Any, sources: list, view: str) -> tuple[int, str]:
    """One check of ``answer`` against ``sources`` with ``nlp``, as the server answers it.

    Args:
        mode: ``"check"`` (:func:`sourced_nlp.api.check`) or ``"cite"`` (:func:`sourced_nlp.api.cite`).
        view: ``"json"`` (the report as ``sourced check --format json`` writes it, and a line
            break) or ``"html"`` (the report's HTML fragment).

    Returns:
        ``(200, the report)``; ``(413, message)`` for a text too long; ``(400, message)`` for any
        other input that cannot be used; ``(500, message)`` for an error that is not the input's.
        A message is one line.
    """
    from .. import api
    from ..errors import SourceError, TextTooLongError, TooLargeError

    try:
        report = (api.cite if mode == "cite" else api.check)(answer, sources, nlp=nlp)
    except (SourceError, ValueError, TypeError) as err:
        return (413 if isinstance(err, (TextTooLongError, TooLargeError)) else 400), _one_line(err)
    except Exception as err:  # noqa: BLE001 -- the request gets it; the worker goes on
        return 500, _one_line(f"the check failed: {type(err).__name__}: {err}")
    return 200, (report.to_html() if view == "html" else report.to_json() + "\n")


def _send(stream: BinaryIO, value: Any) -> None:
    blob = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(HEADER.pack(len(blob)) + blob)
    stream.flush()


def _receive(stream: BinaryIO) -> Any:
    head = stream.read(HEADER.size)
    if len(head) < HEADER.size:
        raise EOFError
    size = HEADER.unpack(head)[0]
    blob = stream.read(size)
    if len(blob) < size:
        raise EOFError
    return pickle.loads(blob)


def _end_with(server_pid: int) -> None:
    """On Linux, have the kernel kill this process when the server (its parent) dies."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # not Linux
        return
    if os.getppid() != server_pid:  # it died before the call
        os._exit(0)


def work(requests: BinaryIO, replies: BinaryIO) -> None:
    """The worker's loop (see the module's doc), until the server closes the pipe."""
    from .. import api

    try:
        _, config = _receive(requests)
    except EOFError:
        return
    try:
        nlp = api.load_pipeline(config=config)
    except Exception as err:  # noqa: BLE001 -- the server says it, in one line
        _send(replies, ("failed", _one_line(err)))
        return
    _send(replies, ("ready", os.getpid()))
    while True:
        try:
            mode, answer, sources, view = _receive(requests)
        except EOFError:
            return
        _send(replies, render(nlp, mode, answer, sources, view))


if __name__ == "__main__":
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _end_with(int(sys.argv[1]))
    # the replies get their own copy of stdout; anything printed in the worker goes to stderr
    _replies = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    try:
        work(sys.stdin.buffer, _replies)
    except BrokenPipeError:  # the server is gone
        pass
