"""A single-threaded child process that checks records for a host process with threads of its own.

A Dask worker runs its tasks in a thread beside its event loop, profiler and monitors. Checking
there costs about 10% more than in a plain process (``bench/RESULTS.md``, "Dask"): spaCy's
parser takes and releases the GIL in its inner loop (Cython ``nogil`` functions that check for
errors), and glibc takes those locks with atomic instructions once a process has had a second
thread. A :class:`CheckerProcess` is a fresh interpreter (``python -m
sourced_nlp.batch.child``) with one thread: the host sends it partitions of records through
a pipe and reads their results back, pickled, so they arrive exactly as
:func:`sourced_nlp.batch.results.results` made them. It loads the pipeline once and keeps it, with its
source cache, for every later partition; it is started without the variables of
:data:`UNSET_IN_CHILD`.

:func:`check` is what a host calls: one process per ``(model, config)`` in the calling process,
started on first use and started again if it has died. A host that dies closes the pipe: the
child finishes the partition it has (its reply finds the pipe broken) and exits. It is not tied
to the host by a death signal, which Linux sends when the *thread* that started the child ends,
and a task thread may end while its process lives on.
"""

from __future__ import annotations

import atexit
import os
import pickle
import struct
import subprocess
import sys
from typing import Any, BinaryIO, Optional, Sequence

from ..errors import CheckerProcessError

__all__ = ["CheckerProcess", "CheckerProcessError", "UNSET_IN_CHILD", "check"]

#: What the child is started without. Dask's nanny sets ``MALLOC_TRIM_THRESHOLD_=65536`` in
#: every worker (``distributed.nanny.pre-spawn-environ``): with glibc's trim threshold fixed,
#: its mmap threshold stops adapting, freed memory goes back to the system and is faulted in
#: afresh (13 times the page faults of a plain process), and a check is about 10% slower.
UNSET_IN_CHILD = ("MALLOC_TRIM_THRESHOLD_",)

_HEADER = struct.Struct("<Q")


def _frame(value: Any) -> bytes:
    blob = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    return _HEADER.pack(len(blob)) + blob


def _send(stream: BinaryIO, value: Any) -> None:
    stream.write(_frame(value))
    stream.flush()


def _receive_blob(stream: BinaryIO) -> bytes:
    head = stream.read(_HEADER.size)
    if len(head) < _HEADER.size:
        raise EOFError
    size = _HEADER.unpack(head)[0]
    blob = stream.read(size)
    if len(blob) < size:
        raise EOFError
    return blob


def _receive(stream: BinaryIO) -> Any:
    return pickle.loads(_receive_blob(stream))


class CheckerProcess:
    """One child process checking records with one pipeline.

    Args:
        model, config: the pipeline, as for :func:`sourced_nlp.load_pipeline`; loaded in the
            child when it starts.

    Raises:
        CheckerProcessError: the child exited before it was ready (its stderr is inherited,
            so its own message is printed there). An exception the child raised loading the
            pipeline (an unknown model, a bad config) is raised here as it was raised there.
    """

    def __init__(self, model: Optional[str] = None, config: Optional[dict] = None):
        env = {k: v for k, v in os.environ.items() if k not in UNSET_IN_CHILD}
        self._proc = subprocess.Popen(
            [sys.executable, "-m", "sourced_nlp.batch.child"], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE
        )
        try:
            self._call(("load", model, config))
        except BaseException:
            self.close()  # a child that could not load is no one's
            raise

    def _call(self, request: tuple) -> Any:
        try:
            _send(self._proc.stdin, request)
            ok, value = _receive(self._proc.stdout)
        except (EOFError, OSError):
            code = self._proc.wait()
            raise CheckerProcessError(f"the checking process exited with code {code}") from None
        if not ok:
            raise value
        return value

    def check(self, records: Sequence[Any], validated: bool = False) -> list[dict]:
        """The results of ``records``, in order (see :func:`sourced_nlp.batch.results.results`)."""
        return self._call(("check", list(records), validated))

    def cached_sources(self) -> int:
        """How many distinct sources the child's ``sourced_verify`` holds parsed (-1: no cache)."""
        return self._call(("cached_sources",))

    def alive(self) -> bool:
        return self._proc.poll() is None

    def close(self) -> None:
        """Close the pipe and wait for the child to exit."""
        if self._proc.stdin and not self._proc.stdin.closed:
            try:
                self._proc.stdin.close()
            except OSError:
                pass
        self._proc.wait()


_PROCESSES: dict[str, CheckerProcess] = {}


def process(model: Optional[str] = None, config: Optional[dict] = None) -> CheckerProcess:
    """This process's :class:`CheckerProcess` for ``(model, config)``, started if it is not running."""
    key = repr((model, sorted((config or {}).items())))
    proc = _PROCESSES.get(key)
    if proc is None or not proc.alive():
        if not _PROCESSES:
            atexit.register(_close_all)
        proc = _PROCESSES[key] = CheckerProcess(model, config)
    return proc


def check(
    records: Sequence[Any], model: Optional[str] = None, config: Optional[dict] = None, validated: bool = False
) -> list[dict]:
    """The results of ``records``, in order, checked in this process's :class:`CheckerProcess`.
    Unless ``validated``, the records are validated here first (an invalid one is its ``error``
    result, as :func:`sourced_nlp.batch.results.results` gives it), so that only plain values reach the
    child: a source may be an object of a class the child cannot import (a document class
    defined in the caller's script). A child that dies on them (killed for memory, say) is
    started again, and they are checked once more.

    Raises:
        CheckerProcessError: the second child died on them too (the next call starts another).
    """
    from .results import error_text, validate_slot

    slots = [validate_slot(value, validated) for value in records]
    good = [rec for _, rec, err in slots if err is None]
    done = iter(_check_validated(good, model, config) if good else [])
    return [next(done) if err is None else {"id": rid, "error": error_text(err)} for rid, _, err in slots]


def _check_validated(records: list[dict], model: Optional[str], config: Optional[dict]) -> list[dict]:
    try:
        return process(model, config).check(records, True)
    except CheckerProcessError:
        return process(model, config).check(records, True)


def _close_all() -> None:
    for proc in _PROCESSES.values():
        proc.close()
    _PROCESSES.clear()


def _cached_sources(nlp: Any) -> int:
    indexer = getattr(nlp.get_pipe("sourced_verify"), "indexer", None) if "sourced_verify" in nlp.pipe_names else None
    cache = getattr(indexer, "_cache", None)
    return len(cache) if cache is not None else -1


def serve(requests: BinaryIO, replies: BinaryIO) -> None:
    """The child's loop: answer each request with ``(True, value)``, or ``(False, exception)``
    for one that raised, until the host closes the pipe."""
    from .results import pipeline, results

    nlp = None
    while True:
        try:
            blob = _receive_blob(requests)
        except EOFError:
            return
        try:
            request = pickle.loads(blob)
            if request[0] == "load":
                nlp = pipeline(request[1], request[2])
                reply = _frame((True, True))
            elif request[0] == "check":
                reply = _frame((True, list(results(request[1], nlp=nlp, validated=request[2]))))
            else:
                reply = _frame((True, _cached_sources(nlp)))
        except Exception as err:  # noqa: BLE001 -- raised again in the host, as it was raised here
            reply = _error_frame(err)
        replies.write(reply)
        replies.flush()


def _error_frame(err: Exception) -> bytes:
    """The reply carrying ``err`` to the host: the exception itself when it survives pickling
    both ways, else (an exception that does not pickle, or whose class cannot be rebuilt from
    its pickle: confection's ``ConfigValidationError`` takes keyword arguments only) its text in
    the nearest built-in class it derives from (``ValueError`` for a bad config)."""
    try:
        reply = _frame((False, err))
        pickle.loads(reply[_HEADER.size :])
        return reply
    except Exception:  # noqa: BLE001 -- its text and built-in class do
        text = f"{type(err).__name__}: {err}"
        builtin = next(c for c in type(err).__mro__ if c.__module__ == "builtins")
        try:
            return _frame((False, builtin(text)))
        except Exception:  # noqa: BLE001 -- a built-in class that takes more than a text (UnicodeDecodeError)
            return _frame((False, RuntimeError(text)))


if __name__ == "__main__":
    import signal

    # Ctrl-C on a terminal reaches the whole process group: the host handles it, and this child
    # exits when the host closes the pipe
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # the replies get their own copy of stdout; anything printed in the child goes to stderr
    replies = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    try:
        serve(sys.stdin.buffer, replies)
    except BrokenPipeError:  # the host is gone
        pass
