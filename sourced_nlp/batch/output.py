"""The file a batch run writes (``sourced batch -o OUT``): the lock held on it for the whole run
(:class:`OutputLock`), its result lines (:func:`result_line`, :func:`writable`), and what an
interrupted run left in it, read back and cut for ``--resume`` (:func:`resume_prefix`,
:func:`resume_stream`).

The command (:mod:`sourced_nlp.cli.batch`) opens, locks and writes it through these; nothing
here imports the command line.
"""

from __future__ import annotations

import contextlib
import os
from typing import Any, Optional

from ..errors import SourceError
from ..report.model import Report

__all__ = ["OutputLock", "lock_holder", "writable", "result_line", "resume_prefix", "resume_stream"]


def lock_holder(fd: int) -> Optional[int]:
    """The pid of the process that holds the ``flock`` on the open file ``fd``, from the
    system's lock table (``/proc/locks``, Linux); None where it cannot be told."""
    st = os.fstat(fd)
    dev = f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:{st.st_ino}"
    try:
        with open("/proc/locks", encoding="ascii", errors="replace") as fh:
            for line in fh:
                parts = line.split()
                if "->" in parts:  # a waiter, not the holder
                    continue
                if len(parts) >= 6 and parts[1] == "FLOCK" and parts[5] == dev and parts[4].isdigit():
                    return int(parts[4])
    except OSError:
        pass
    return None


class OutputLock:
    """The run's hold on the file it writes (``batch -o OUT``): an exclusive ``flock`` taken
    before the file is read (``--resume``) or cut, and kept until the run ends, so that a
    second run writing the same file refuses at once instead of interleaving its lines with
    the first's. Only a regular file is locked (or one to be created): ``/dev/null``, a pipe or
    standard output are not. Where ``fcntl`` is missing (Windows), nothing is locked.

    Raises (on entry):
        SourceError: another process holds the lock; the one line names it (its pid, where the
            system tells it).
    """

    def __init__(self, out: Optional[str]) -> None:
        self.out = None if out == "-" else out
        self.fd: Optional[int] = None

    def __enter__(self) -> "OutputLock":
        try:
            import fcntl
        except ImportError:  # no flock on this system
            return self
        out = self.out
        if out is None:
            return self
        try:
            import stat

            if not stat.S_ISREG(os.stat(out).st_mode):
                return self
        except FileNotFoundError:
            pass
        except OSError:
            return self  # the writer says why it cannot be written
        try:
            fd = os.open(out, os.O_WRONLY | os.O_CREAT, 0o666)
        except OSError as err:
            raise SourceError(f"cannot write {out}: {err.strerror or err}") from err
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = lock_holder(fd)
            os.close(fd)
            who = f"another run (pid {holder})" if holder is not None else "another run"
            raise SourceError(
                f"{out} is being written by {who}: refusing to write it at the same time; "
                f"wait for that run to end or give another -o"
            ) from None
        self.fd = fd
        return self

    def __exit__(self, *exc) -> None:
        if self.fd is not None:
            os.close(self.fd)  # closing the last descriptor of the lock releases it
            self.fd = None


def writable(value: Any) -> Any:
    """A JSON value with every unpaired surrogate in its strings written as its escape (the six
    characters ``\\ud800``), so that it can be written as UTF-8: the id of a record refused for
    one is echoed in its error result like this (and matched like this by ``--resume``)."""
    if isinstance(value, str):
        return value.encode("utf-8", "backslashreplace").decode("utf-8")
    if isinstance(value, list):
        return [writable(v) for v in value]
    if isinstance(value, dict):
        return {writable(k): writable(v) for k, v in value.items()}
    return value


def result_line(r: dict) -> str:
    """One batch result as its JSON line (keys sorted, UTF-8, newline-terminated)."""
    import json

    row = dict(r)
    if isinstance(row.get("report"), Report):
        row["report"] = row["report"].to_dict()
    return json.dumps(row, sort_keys=True, ensure_ascii=False) + "\n"


def resume_prefix(
    out: str, rows: list[tuple[int, Any, Optional[dict], Optional[str]]], where: str
) -> tuple[list[dict], int]:
    """The results an interrupted run left in ``out``, checked against the batch ``rows``.

    Returns:
        ``(results, size)``: the whole result lines found, parsed (a report as a
        :class:`Report`), and the byte length of those lines (a cut-off last line, as a
        ``kill -9`` may leave, is not counted and will be written again). No file, or an empty
        one: ``([], 0)``.

    Raises:
        SourceError: ``out`` cannot be read, or it does not hold this batch's results: a line
            that is not a result, or results for other lines or ids than the batch file (named ``where``) has, or more
            results than records.
    """
    import json

    if not os.path.exists(out):
        return [], 0
    try:
        with open(out, "rb") as fh:
            data = fh.read()
    except OSError as err:
        raise SourceError(f"--resume: cannot read {out}: {err.strerror or err}") from err
    results: list[dict] = []
    size = 0
    for k, raw in enumerate(data.split(b"\n")[:-1], start=1):  # the part after the last newline is cut off
        try:
            row = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            raise SourceError(
                f"--resume: {out} line {k} is not a batch result; it is not the output of 'sourced batch --format json'"
            ) from None
        if not isinstance(row, dict) or "line" not in row or ("report" in row) == ("error" in row):
            raise SourceError(f"--resume: {out} line {k} is not a batch result")
        if k > len(rows):
            raise SourceError(f"--resume: {out} holds more results than {where} has records ({len(rows)})")
        n, rid = rows[k - 1][0], rows[k - 1][1]
        if row["line"] != n or row.get("id") != rid:
            raise SourceError(
                f"--resume: {out} line {k} is the result of line {row['line']} (id {row.get('id')!r}), "
                f"but record {k} of {where} is line {n} (id {rid!r}): not this batch's output"
            )
        if "report" in row:
            try:
                row["report"] = Report.from_dict(row["report"])
            except (TypeError, ValueError) as err:
                raise SourceError(f"--resume: {out} line {k}: {err}") from err
        results.append(row)
        size += len(raw) + 1
    return results, size


def resume_stream(out: str, size: int):
    """OUT cut to its first ``size`` bytes (the whole results kept), open for appending.

    Raises:
        SourceError: OUT cannot be written, naming it.
    """
    try:
        fh = open(out, "r+b" if os.path.exists(out) else "wb")
        fh.truncate(size)
        fh.seek(size)
        fh.close()
        fh = open(out, "a", encoding="utf-8")
    except OSError as err:
        raise SourceError(f"cannot write {out}: {err.strerror or err}") from err
    return contextlib.nullcontext(fh)
