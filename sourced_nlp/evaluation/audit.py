"""The audit log: one versioned, hash-chained JSON record per check (``--audit FILE``).

Each line of the log is one record (``"schema": "sourced.audit/1"``; docs/audit.md has every
field and the versioning rule)::

    {"schema", "seq", "time", "command", "id", "versions", "config_sha256", "inputs",
     "claims": [{"start", "end", "text", "verdict", "rule", "evidence": [{"source", "start", "end"}],
                 "citation_status"}],
     "counts", "findings", "judge", "prev", "hash"}

``hash`` is the SHA-256 of the record's canonical JSON (sorted keys, no spaces, UTF-8) without
the ``hash`` key; ``prev`` is the ``hash`` of the record before it (None for the first), and
``seq`` counts records from 1. Editing, removing or reordering a past record breaks the chain
at that record: :func:`verify` names it. (Cutting records off the end leaves a shorter chain
that still verifies; keep the last hash elsewhere to detect that.)
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import sys
from datetime import datetime, timezone
from typing import Any, Iterable

from ..errors import AuditError

__all__ = [
    "SCHEMA",
    "SUPPORTED",
    "record_hash",
    "make_record",
    "append",
    "verify",
    "log_report",
    "log_files",
    "log_batch",
    "AuditError",
]

SCHEMA = "sourced.audit/1"
#: The schema versions :func:`verify` reads.
SUPPORTED = (SCHEMA,)


#: the schema of the head file (``LOG.head``) that every append rewrites
HEAD_SCHEMA = "sourced.audit-head/1"


def _canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def sha256(data: bytes | str) -> str:
    """Hex SHA-256 of bytes, or of a string's UTF-8 encoding."""
    return hashlib.sha256(data.encode("utf-8") if isinstance(data, str) else data).hexdigest()


def record_hash(record: dict) -> str:
    """The ``hash`` of a record: SHA-256 of its canonical JSON without the ``hash`` key."""
    return sha256(_canonical({k: v for k, v in record.items() if k != "hash"}))


def _versions(nlp) -> dict:
    from importlib.metadata import PackageNotFoundError, version

    import spacy

    try:
        ours = version("sourced-nlp")
    except PackageNotFoundError:
        from .. import __version__ as ours
    meta = getattr(nlp, "meta", {}) or {}
    model = f"{meta.get('lang', '')}_{meta.get('name', '')} {meta.get('version', '')}".strip()
    return {
        "sourced-nlp": ours,
        "spacy": spacy.__version__,
        "model": model,
        "python": ".".join(map(str, sys.version_info[:3])),
    }


def _claims(report_dict: dict) -> list[dict]:
    out = []
    for c in report_dict.get("claims") or []:
        row = {
            "start": c["start"],
            "end": c["end"],
            "text": c["text"],
            "verdict": c["verdict"],
            "rule": c.get("rule"),
            "evidence": [
                {"source": e["source"], "start": e["start"], "end": e["end"]} for e in c.get("evidence") or []
            ],
        }
        if c.get("citation_status") is not None:
            row["citation_status"] = c["citation_status"]
        if c.get("judge"):
            row["judge"] = {k: c["judge"].get(k) for k in ("backend", "model", "prompt_version", "status")}
        out.append(row)
    return out


def _judge_of(claims: list[dict]) -> dict | None:
    """``{"name", "model", "prompt_version"}`` of the judge the claims of a report were put
    to (the first judged claim's), or None when no claim went to a judge."""
    for c in claims:
        j = c.get("judge")
        if j:
            return {"name": j.get("backend"), "model": j.get("model"), "prompt_version": j.get("prompt_version")}
    return None


def make_record(
    report, *, command: str, record_id: Any = None, inputs: dict | None = None, judge: dict | None = None, nlp=None
) -> dict:
    """The record of one checked report, without ``seq``, ``prev`` and ``hash`` (:func:`append`
    adds them).

    Args:
        report: a :class:`~sourced_nlp.report.Report` (or its ``to_dict()``).
        command: what checked it (``check``, ``cite``, ``batch``, ``eval score``).
        record_id: the record's or case's id, if it has one.
        inputs: input hashes; ``answer_sha256`` (of the answer text) is always added.
        judge: ``{"name", "model", "prompt_version"}`` of an LLM judge, when one was used
            (default: read from the report's judged claims).
        nlp: the pipeline that checked it (versions and config hash); default
            :func:`sourced_nlp.load_pipeline`.
    """
    from .. import api

    d = report if isinstance(report, dict) else report.to_dict()
    nlp = nlp or api.load_pipeline()
    ins = {"answer_sha256": sha256(d.get("answer") or ""), **(inputs or {})}
    return {
        "schema": SCHEMA,
        "time": datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z"),
        "command": command,
        "id": record_id,
        "versions": _versions(nlp),
        "config_sha256": sha256(nlp.config.to_str()),
        "inputs": ins,
        "claims": _claims(d),
        "counts": dict(d.get("counts") or {}),
        "findings": [
            {"kind": f.get("kind"), "severity": f.get("severity"), "claim": f.get("claim")}
            for f in d.get("findings") or []
        ],
        "judge": judge if judge is not None else _judge_of(d.get("claims") or []),
    }


@contextlib.contextmanager
def _locked(fh):
    try:
        import fcntl
    except ImportError:  # not POSIX: no advisory lock
        yield
        return
    fcntl.flock(fh.fileno(), fcntl.LOCK_EX)
    try:
        yield
    finally:
        fcntl.flock(fh.fileno(), fcntl.LOCK_UN)


def _last(data: bytes, path: str) -> tuple[int, str | None]:
    """``(seq, hash)`` of the last record of a log's bytes; ``(0, None)`` for an empty log."""
    lines = [ln for ln in data.splitlines() if ln.strip()]
    if not lines:
        return 0, None
    try:
        last = json.loads(lines[-1].decode("utf-8"))
        return int(last["seq"]), str(last["hash"])
    except (ValueError, KeyError, TypeError, UnicodeDecodeError):
        raise AuditError(
            f"cannot append to audit log {path}: its last record is malformed (see 'sourced audit verify {path}')"
        ) from None


def head_path(path: str) -> str:
    """The head file of the log at ``path``: ``PATH.head``, the ``seq`` and ``hash`` of its last
    record, rewritten by every append, so that ``verify`` sees records cut off the end."""
    return path + ".head"


def _write_head(path: str, seq: int, last: str | None) -> None:
    """Write the head file of ``path`` whole (a temporary file renamed over it); a failed write
    removes the temporary file and leaves the old head as it was."""
    head = head_path(path)
    tmp = f"{head}.{os.getpid()}.tmp"
    try:
        with open(tmp, "wb") as fh:
            fh.write(_canonical({"schema": HEAD_SCHEMA, "seq": seq, "hash": last}) + b"\n")
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, head)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _read_head(path: str) -> dict | None:
    """The head file of ``path`` as ``{"seq", "hash"}``, None when there is none.

    Raises:
        AuditError: it exists but cannot be read or is not a head file.
    """
    head = head_path(path)
    if not os.path.exists(head):
        return None
    try:
        with open(head, "rb") as fh:
            value = json.loads(fh.read().decode("utf-8"))
    except OSError as err:
        raise AuditError(f"cannot read the head file {head}: {err.strerror or err}") from err
    except (ValueError, UnicodeDecodeError):
        value = None
    if not (
        isinstance(value, dict)
        and value.get("schema") == HEAD_SCHEMA
        and isinstance(value.get("seq"), int)
        and isinstance(value.get("hash"), str)
    ):
        raise AuditError(f"{head} is not the head file of an audit log (delete it to verify {path} without it)")
    return value


def append(path: str, records: Iterable[dict]) -> list[dict]:
    """Append records to the log at ``path`` (created if missing), chaining each to the one
    before it; returns them with ``seq``, ``prev`` and ``hash`` set. The file is locked while
    it is read and written (``fcntl.flock``, where the platform has it), and the head file
    (:func:`head_path`) is rewritten with the new last record before the lock is let go.

    The records and the head are written together or not at all: when either write fails (a
    full disk), the log is cut back to its length before the append and the head left as it
    was, so that ``sourced audit verify`` still finds them matching.

    Raises:
        AuditError: the file cannot be opened or written (saying that nothing was appended, or,
            where even the cut failed, what was left), or its last record is malformed.
    """
    done = []
    try:
        fh = open(path, "a+b", buffering=0)  # unbuffered: what failed to reach the file is never written later
    except OSError as err:
        raise AuditError(f"cannot write audit log {path}: {err.strerror or err} (nothing was appended)") from err
    with fh, _locked(fh):
        fh.seek(0)
        data = fh.readall()
        seq, prev = _last(data, path)
        for rec in records:
            seq += 1
            rec = {**rec, "seq": seq, "prev": prev}
            rec["hash"] = prev = record_hash(rec)
            done.append(rec)
        if not done:
            return done
        try:
            payload = memoryview(b"".join(_canonical(rec) + b"\n" for rec in done))
            while payload:
                n = fh.write(payload)
                if not n:
                    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
                payload = payload[n:]
            os.fsync(fh.fileno())
            _write_head(path, seq, prev)
        except BaseException as err:
            _cut_back(fh, path, len(data), err)
            raise
    return done


def _cut_back(fh, path: str, size: int, err: BaseException) -> None:
    """After a failed append: cut the log at ``path`` back to ``size`` bytes (its length before
    the append). Raises the AuditError that says what was and was not written when ``err`` is
    an OSError; otherwise the caller raises ``err`` itself."""
    try:
        os.ftruncate(fh.fileno(), size)
    except OSError as cut:
        if isinstance(err, OSError):
            raise AuditError(
                f"cannot write audit log {path}: {err.strerror or err}; the records appended so far "
                f"could not be removed ({cut.strerror or cut}): "
                f"'sourced audit verify {path}' will report them"
            ) from err
        raise
    if isinstance(err, OSError):
        raise AuditError(
            f"cannot write audit log {path}: {err.strerror or err} (nothing was appended: "
            f"the log and {head_path(path)} are as they were)"
        ) from err


def _problem(rec: Any, n: int, prev: str | None) -> str | None:
    """Why the n-th record (from 1) does not continue the chain whose last hash is ``prev``."""
    if not isinstance(rec, dict):
        return "not a JSON object"
    if rec.get("schema") not in SUPPORTED:
        return f"unknown schema {rec.get('schema')!r}"
    if rec.get("seq") != n:
        return f"seq is {rec.get('seq')!r}, expected {n} (a record was removed or moved)"
    if rec.get("prev") != prev:
        return "prev does not match the hash of the record before it (a record was removed or moved)"
    if rec.get("hash") != record_hash(rec):
        return "its hash does not match its content (the record was edited)"
    return None


def verify(path: str, expect_head: str | None = None) -> tuple[int, str]:
    """Check the chain of the log at ``path``, then its end: against its head file
    (:func:`head_path`, when there is one: records cut off the end leave a chain shorter than
    it says), and against ``expect_head``, a hash kept outside the log (it must be the hash of
    a record of the chain: the last, or one that records appended since follow).

    Returns:
        ``(0, "intact: N records, last hash H")`` (with a note when there is neither a head
        file nor ``expect_head``: a cut end could not be seen), or ``(1, "record N (line L): why")`` for the
        first broken record, or ``(1, why)`` for a log whose end does not match.

    Raises:
        AuditError: the file is missing, unreadable, not UTF-8, or holds no record; the head
            file cannot be read or is not one.
    """
    if not os.path.isfile(path):
        raise AuditError(
            f"audit log not found: {path}" if not os.path.exists(path) else f"audit log is not a file: {path}"
        )
    try:
        with open(path, "rb") as fh:
            text = fh.read().decode("utf-8")
    except OSError as err:
        raise AuditError(f"cannot read audit log {path}: {err.strerror or err}") from err
    except UnicodeDecodeError as err:
        raise AuditError(f"{path}: not UTF-8 text (invalid byte at offset {err.start})") from err
    n, prev = 0, None
    hashes: set[str] = set()
    for line_no, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        n += 1
        try:
            rec = json.loads(line)
        except (ValueError, RecursionError):
            return 1, f"record {n} (line {line_no}): not JSON"
        why = _problem(rec, n, prev)
        if why:
            return 1, f"record {n} (line {line_no}): {why}"
        prev = rec["hash"]
        hashes.add(prev)
    if n == 0:
        raise AuditError(f"no records in audit log {path}")
    head = _read_head(path)
    if head is not None and (head["seq"], head["hash"]) != (n, prev):
        where = head_path(path)
        if head["seq"] > n:
            return 1, (
                f"the log ends at record {n}, but {where} says it ends at record {head['seq']} "
                f"(hash {head['hash']}): the last {head['seq'] - n} record(s) were removed"
            )
        if head["seq"] < n:
            return 1, (
                f"the log has {n} records, but {where} says it ends at record {head['seq']}: records "
                f"were appended without updating it (by hand, or an append was cut off)"
            )
        return 1, f"record {n} is not the last record {where} names (hash {head['hash']}): the log was rewritten"
    if expect_head is not None and expect_head not in hashes:
        return 1, (
            f"no record has the expected hash {expect_head}: records were removed from the end "
            f"(or the log was rewritten) since that hash was kept"
        )
    note = ""
    if head is None and expect_head is None:
        note = (
            f" (no head file {head_path(path)}: records cut off the end would not be seen; "
            f"give a last hash kept elsewhere as --expect-head)"
        )
    return 0, f"intact: {n} records, last hash {prev}{note}"


def _file_hashes(paths: Iterable[str | None]) -> list[dict]:
    out = []
    for p in paths:
        if p and p != "-" and os.path.isfile(p):
            with open(p, "rb") as fh:
                out.append({"path": p, "sha256": sha256(fh.read())})
    return out


def log_report(
    path: str | None, report, *, command: str, sources: list[dict] | None = None, record_id: Any = None
) -> None:
    """Append the record of one report (no-op when ``path`` is None); ``sources`` (``[{"id",
    "text"}]``) are hashed one by one into ``inputs.sources``."""
    if path is None:
        return
    inputs = {}
    if sources is not None:
        inputs["sources"] = [{"id": s["id"], "sha256": sha256(s["text"]), "chars": len(s["text"])} for s in sources]
    append(path, [make_record(report, command=command, record_id=record_id, inputs=inputs)])


def log_files(path: str | None, command: str, report, files: Iterable[str | None]) -> None:
    """``check``/``cite``: the record of ``report`` with the SHA-256 of each input file (the
    answer, sources, or ``--json-input`` file as given; standard input is not hashed)."""
    if path is None:
        return
    append(path, [make_record(report, command=command, inputs={"files": _file_hashes(files)})])


def log_batch(path: str | None, results: Iterable[dict], batch_file: str) -> None:
    """``batch``: one record per checked line (``{"line", "id", "report"}`` rows; error rows are
    skipped), with the SHA-256 of that line of the batch file (when it is a file)."""
    if path is None:
        return
    lines: list[bytes] = []
    if batch_file != "-" and os.path.isfile(batch_file):
        with open(batch_file, "rb") as fh:
            lines = fh.read().splitlines()
    recs = []
    for r in results:
        if "report" not in r:
            continue
        n = r["line"]
        inputs = {"batch_line": n, **({"line_sha256": sha256(lines[n - 1])} if 0 < n <= len(lines) else {})}
        recs.append(make_record(r["report"], command="batch", record_id=r.get("id"), inputs=inputs))
    append(path, recs)
