"""A report file written whole or not at all (``-o FILE``).

The report goes to a temporary file beside ``FILE`` (``.FILE.PID.tmp``, in the same folder, so
on the same file system), which is renamed over ``FILE`` once every byte is written and flushed.
A write that fails half-way (a full disk, a file size limit, an interrupt) removes the temporary
file and leaves ``FILE`` as it was: the old report, or no file. A path that is not a regular
file (``/dev/stdout``, ``/dev/full``, a named pipe) is written directly, as before.
"""

from __future__ import annotations

import contextlib
import errno
import os
from typing import IO, Iterator

from ..errors import SourceError


def _target(out: str) -> str | None:
    """The regular file that ``out`` names (a symbolic link's target), or None when ``out``
    names something else (a device, a pipe): that is written in place."""
    real = os.path.realpath(out)
    if os.path.exists(real) and not os.path.isfile(real):
        return None
    return real


@contextlib.contextmanager
def whole_file(out: str) -> Iterator[IO[str]]:
    """Open ``out`` for writing (UTF-8 text); what is written lands in ``out`` only when the
    ``with`` block ends without an exception and the text is flushed to the file system.

    Raises:
        SourceError: the file (or its temporary file) cannot be created or written: ``cannot
            write OUT: REASON (nothing was written: OUT is as it was)``. An exception of the
            block is raised as it is, with the temporary file removed and ``out`` untouched.
    """
    target = _target(out)
    if target is None:
        try:
            fh = open(out, "w", encoding="utf-8")
        except OSError as err:
            raise SourceError(f"cannot write {out}: {err.strerror or err}") from err
        with fh:
            yield fh
        return
    folder, name = os.path.split(target)
    tmp = os.path.join(folder, f".{name}.{os.getpid()}.tmp")
    existed = os.path.exists(target)
    if existed and not os.access(target, os.W_OK):  # a file made read-only is refused, as open() refuses it
        raise SourceError(f"cannot write {out}: {os.strerror(errno.EACCES)}")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666)  # the umask applies, as to open()
    except OSError as err:
        raise SourceError(f"cannot write {out}: {err.strerror or err}") from err
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        if existed:
            with contextlib.suppress(OSError):  # keep the old file's permissions
                os.chmod(tmp, os.stat(target).st_mode & 0o7777)
        os.replace(tmp, target)
    except BaseException as err:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(err, OSError) and not isinstance(err, (SourceError, BrokenPipeError)):
            kept = f"{out} is as it was" if existed else f"no {out} was made"
            raise SourceError(f"cannot write {out}: {err.strerror or err} (nothing was written: {kept})") from err
        raise
