"""Two ``sourced batch`` runs writing the same ``-o OUT`` (cli-trial N3-53): the first holds a
lock on OUT for its run; the second refuses at once, exit 2, with one line naming the holder's
pid, and writes nothing (the first run's output stays whole)."""

from __future__ import annotations

import fcntl
import json
import os
import signal
import subprocess
import sys
import time

import pytest

ENV = dict(os.environ, NO_COLOR="1", PYTHONHASHSEED="0")
RECORD = {"output": "Revenue rose 8% to $2.4 billion in 2023.", "sources": ["Revenue rose 8% to $2.4 billion in 2023."]}


def _batch_file(path, n: int):
    path.write_text("".join(json.dumps({"id": f"r{i}", **RECORD}) + "\n" for i in range(n)), encoding="utf-8")
    return path


def test_a_second_writer_of_a_locked_output_refuses_naming_the_holder(tmp_path, run_cli):
    """The lock is held here (as a running batch holds it): the run refuses before touching OUT."""
    _batch_file(tmp_path / "in.jsonl", 2)
    out = tmp_path / "same.jsonl"
    out.write_text("kept\n", encoding="utf-8")
    for extra in ([], ["--resume"]):
        with open(out, "a") as held:
            fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
            code, _, err = run_cli("batch", "in.jsonl", "-o", "same.jsonl", *extra, cwd=tmp_path)
        assert code == 2, err
        assert err == (
            f"error: same.jsonl is being written by another run (pid {os.getpid()}): refusing to write it "
            "at the same time; wait for that run to end or give another -o\n"
        )
        assert out.read_text(encoding="utf-8") == "kept\n"
    code, _, err = run_cli("batch", "in.jsonl", "-o", "same.jsonl", cwd=tmp_path)  # released: written
    assert code == 0, err
    assert len(out.read_text(encoding="utf-8").splitlines()) == 2


def test_dev_null_and_stdout_are_not_locked(tmp_path, run_cli):
    _batch_file(tmp_path / "in.jsonl", 1)
    with open(os.devnull, "a") as held:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        code, _, err = run_cli("batch", "in.jsonl", "-o", os.devnull, cwd=tmp_path)
    assert code == 0, err


@pytest.mark.process
def test_two_batch_processes_on_one_output(tmp_path):
    """A real run holds the lock while it writes (the sign: its first result is in OUT); a second
    real run refuses with the first's pid, and the first goes on to a whole output."""
    first_in = _batch_file(tmp_path / "long.jsonl", 400)
    second_in = _batch_file(tmp_path / "short.jsonl", 3)
    out = tmp_path / "same.jsonl"
    cmd = [sys.executable, "-m", "sourced_nlp.cli", "batch"]
    first = subprocess.Popen(
        [*cmd, str(first_in), "-o", str(out)], env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    try:
        deadline = time.monotonic() + 600
        while not (out.exists() and out.read_bytes().count(b"\n") >= 1):  # the ready sign: a result written
            assert first.poll() is None, first.communicate()
            assert time.monotonic() < deadline, "the first run wrote nothing"
            time.sleep(0.05)
        second = subprocess.run([*cmd, str(second_in), "-o", str(out)], env=ENV, capture_output=True, timeout=600)
        assert first.poll() is None, "the first run ended before the second started: the test proves nothing"
        err = second.stderr.decode()
        assert second.returncode == 2, err
        assert err == (
            f"error: {out} is being written by another run (pid {first.pid}): refusing to write it "
            "at the same time; wait for that run to end or give another -o\n"
        )
    finally:
        first.send_signal(signal.SIGINT)
        _, err1 = first.communicate(timeout=600)
    assert first.returncode in (0, 130), err1.decode()
    lines = out.read_bytes().splitlines()
    assert all(json.loads(ln)["id"].startswith("r") for ln in lines)
    assert [json.loads(ln)["line"] for ln in lines] == list(range(1, len(lines) + 1))
