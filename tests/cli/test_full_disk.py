"""Nothing half-written when the disk is full: a report file (``-o``) and an audit log with its
head file are written whole or not at all.

A full disk is made two ways, neither needing root: a file size limit (``RLIMIT_FSIZE``, with
``SIGXFSZ`` ignored) on a real ``sourced`` process, under which a write past the limit fails
with EFBIG half-way as one past the end of a full disk fails with ENOSPC; and, in this process, an
``open`` whose writes fail with ENOSPC for the one file a test aims at (the head's temporary file).
``-o /dev/full`` is tests/cli/test_cli.py's.
"""

from __future__ import annotations

import errno
import json
import os
import resource
import signal
import subprocess
import sys

import pytest

from conftest import ROOT
from sourced_nlp.evaluation import audit

ANSWER, SOURCE = ROOT / "examples" / "answer.txt", ROOT / "examples" / "source.txt"
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1", "PYTHONDONTWRITEBYTECODE": "1"}


def _sourced_with_limit(limit: int, *args, cwd) -> subprocess.CompletedProcess:
    """``sourced ARGS`` in a process that cannot write a file past ``limit`` bytes."""

    def start():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # the write fails with EFBIG instead of killing
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return subprocess.run(
        [sys.executable, "-m", "sourced_nlp.cli", *map(str, args)],
        cwd=cwd,
        env=ENV,
        capture_output=True,
        text=True,
        timeout=300,
        preexec_fn=start,
    )


def _left(folder) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


@pytest.mark.process
@pytest.mark.parametrize("old", ["an old report\n", None])
def test_a_report_that_cannot_be_written_whole_leaves_the_old_file_or_none(tmp_path, old):
    out = tmp_path / "report.json"
    if old is not None:
        out.write_text(old)
    proc = _sourced_with_limit(200, "check", ANSWER, SOURCE, "--format", "json", "-o", out, cwd=tmp_path)
    kept = f"{out} is as it was" if old is not None else f"no {out} was made"
    assert (proc.returncode, proc.stderr) == (
        2,
        f"error: cannot write {out}: File too large (nothing was written: {kept})\n",
    ), proc.stderr
    assert _left(tmp_path) == (["report.json"] if old is not None else [])  # no temporary file either
    if old is not None:
        assert out.read_text() == old


def test_a_report_written_whole_replaces_the_old_one_keeping_its_mode(tmp_path, run_cli):
    out = tmp_path / "report.json"
    out.write_text("old")
    out.chmod(0o640)
    code, _, err = run_cli("check", ANSWER, SOURCE, "--format", "json", "-o", out)
    assert code == 1, err
    assert json.loads(out.read_text())["counts"]["contradicted"] == 1
    assert (out.stat().st_mode & 0o777, _left(tmp_path)) == (0o640, ["report.json"])


@pytest.mark.process
def test_an_audit_record_cut_off_by_a_full_disk_is_taken_back(tmp_path, run_cli):
    log = tmp_path / "audit.jsonl"
    code, _, err = run_cli("check", ANSWER, SOURCE, "--audit", log, "-o", tmp_path / "r.txt")
    assert code == 1, err
    before, head = log.read_bytes(), (tmp_path / "audit.jsonl.head").read_bytes()
    # room for the report and part of a second record: the record is cut off half-way
    proc = _sourced_with_limit(
        len(before) + 300, "check", ANSWER, SOURCE, "--audit", log, "-o", tmp_path / "r.txt", cwd=tmp_path
    )
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.splitlines()[-1] == (
        f"error: cannot write audit log {log}: File too large (nothing was "
        f"appended: the log and {log}.head are as they were)"
    )
    assert (log.read_bytes(), (tmp_path / "audit.jsonl.head").read_bytes()) == (before, head)
    assert _left(tmp_path) == ["audit.jsonl", "audit.jsonl.head", "r.txt"]
    assert audit.verify(str(log))[0] == 0


def _full_for(suffix: str):
    """``open`` whose files named ``*suffix`` take no byte: their writes fail with ENOSPC."""
    real = open

    class Full:
        def __init__(self, fh):
            self._fh = fh

        def write(self, data):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

        def __getattr__(self, name):
            return getattr(self._fh, name)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self._fh.close()

    def fake(path, *args, **kwargs):
        fh = real(path, *args, **kwargs)
        return Full(fh) if str(path).endswith(suffix) else fh

    return fake


def test_an_audit_head_that_cannot_be_written_takes_its_record_back(tmp_path, run_cli, monkeypatch):
    log = tmp_path / "audit.jsonl"
    assert run_cli("check", ANSWER, SOURCE, "--audit", log, "-o", tmp_path / "r.txt")[0] == 1
    before, head = log.read_bytes(), (tmp_path / "audit.jsonl.head").read_bytes()
    monkeypatch.setattr(audit, "open", _full_for(".tmp"), raising=False)
    code, _, err = run_cli("check", ANSWER, SOURCE, "--audit", log, "-o", tmp_path / "r.txt")
    monkeypatch.undo()
    assert code == 2
    assert err.splitlines()[-1] == (
        f"error: cannot write audit log {log}: No space left on device (nothing was "
        f"appended: the log and {log}.head are as they were)"
    )
    assert (log.read_bytes(), (tmp_path / "audit.jsonl.head").read_bytes()) == (before, head)
    assert _left(tmp_path) == ["audit.jsonl", "audit.jsonl.head", "r.txt"]  # no audit.jsonl.head.NNN.tmp
    assert run_cli("audit", "verify", log)[1].startswith("intact: 1 records")
