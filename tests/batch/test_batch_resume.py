"""``sourced batch`` streams its results, survives SIGINT/SIGTERM, and ``--resume`` completes a run.

Real subprocesses of the real command where a signal is the point (marked ``process``): results
are written one flushed line per record in input order, an interrupted run leaves whole result
lines for a prefix of the records and says how far it got on stderr, and ``--resume`` continues
from that output to a file byte-identical to an uninterrupted run. What needs no process of its
own runs in this process (``run_cli``): the uninterrupted run every output is compared with,
``--resume`` after a cut (by a signal or by hand), its refusals, blank lines. The processes set
``PYTHONHASHSEED=0`` and this one has its own seed: verdicts do not depend on it
(``test_hash_seed.py``), so a difference can only come from the run being cut and resumed.
Every signal is sent after a sign that the command is at the point the test is about (a result
in the file, the summary or the shutdown line on stderr), never after a fixed time.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import invoke_cli

N_RECORDS = 48
ENV = dict(os.environ, NO_COLOR="1", PYTHONHASHSEED="0")


def _records() -> list[dict]:
    cities = ["Lisbon", "Oslo", "Dublin", "Madrid", "Vienna", "Prague", "Warsaw", "Athens"]
    out = []
    for i in range(N_RECORDS):
        city = cities[i % len(cities)]
        source = (
            f"Contoso opened {i + 3} stores in {city} in 2023. Revenue there rose {i % 9 + 2}% to "
            f"${i + 1}.{i % 10} million. The stores employ {40 + i} people."
        )
        answer = (
            f"Contoso opened {i + 3 + (i % 3 == 0)} stores in {city}. Revenue rose {i % 9 + 2}%. "
            f"They employ {40 + i} people."
        )
        out.append({"id": f"r{i}", "output": answer, "sources": [source]})
    out.insert(5, {"id": "bad", "output": "Contoso rose.", "sources": [None]})  # an error result in place
    return out


@pytest.fixture(scope="module")
def batch_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("batch") / "records.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in _records()), encoding="utf-8")
    return path


def _cmd(*args) -> list[str]:
    return [sys.executable, "-m", "sourced_nlp.cli", "batch", *map(str, args)]


@pytest.fixture(scope="module")
def full_run(batch_file, tmp_path_factory):
    """The uninterrupted run (in this process): its output and stderr."""
    out = tmp_path_factory.mktemp("full") / "results.jsonl"
    code, _, err = invoke_cli("batch", batch_file, "-o", out)
    assert code == 2, err  # the record with a null source
    return out.read_bytes(), err


#: The first records, the malformed one among them (exit 2): for the tests of a signal once the
#: run is over, where how many records there are does not matter.
N_SHORT = 6


@pytest.fixture(scope="module")
def short_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("short") / "records.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in _records()[:N_SHORT]), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def short_run(short_file, tmp_path_factory):
    """The uninterrupted run of ``short_file`` (in this process): its output."""
    out = tmp_path_factory.mktemp("short-full") / "results.jsonl"
    code, _, err = invoke_cli("batch", short_file, "-o", out)
    assert code == 2, err
    assert f"{N_SHORT} records: {N_SHORT - 1} checked, " in err
    return out.read_bytes()


def _valid_prefix(data: bytes, full: bytes) -> int:
    """Check that ``data`` is whole result lines, the first ones of ``full``; return how many."""
    assert data.endswith(b"\n") or not data
    assert full.startswith(data)
    lines = data.decode().splitlines()
    for line in lines:
        row = json.loads(line)
        assert ("report" in row) != ("error" in row)
    return len(lines)


def test_every_record_has_its_result_in_order(full_run):
    data, err = full_run
    rows = [json.loads(line) for line in data.decode().splitlines()]
    assert [r["id"] for r in rows] == [r["id"] for r in _records()]
    assert rows[5]["error"] == "source 0 is null" and "report" not in rows[5]
    assert all("report" in r for i, r in enumerate(rows) if i != 5)
    assert "line 6: source 0 is null" in err
    assert f"{N_RECORDS + 1} records: {N_RECORDS} checked" in err


def _interrupt(batch_file, out, sig) -> tuple[int, str, bool]:
    """Run the batch, and send ``sig`` at a random point after its first result is written.
    Returns the exit code, stderr, and whether the file held some but not all results while
    the process was still running (the results are flushed as they are done)."""
    proc = subprocess.Popen(_cmd(batch_file, "-o", out), env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 600  # the ready sign: a first whole result in the file (or the run over)
    data = b""
    while b"\n" not in data and proc.poll() is None:
        if time.monotonic() > deadline:
            proc.kill()
            pytest.fail(f"no result in {out} after 600 s: {proc.communicate()[1].decode()[-2000:]}")
        time.sleep(0.02)
        data = out.read_bytes() if out.exists() else b""
    seen_partial = proc.poll() is None and 0 < data.count(b"\n") < N_RECORDS + 1
    time.sleep(random.uniform(0.0, 1.0))
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=300)
    return proc.returncode, err.decode(), seen_partial


@pytest.mark.process
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_interrupted_batch_leaves_a_valid_prefix_and_resume_completes_it(batch_file, full_run, tmp_path, sig, run_cli):
    full, _ = full_run
    out = tmp_path / "results.jsonl"
    code, err, seen_partial = _interrupt(batch_file, out, sig)
    assert seen_partial, "no partial results in the file while the batch ran: not flushed as they are done"
    partial = out.read_bytes()
    n = _valid_prefix(partial, full)
    if code in (0, 1, 2):  # it finished before the signal came: nothing to resume, but nothing lost
        assert partial == full
    else:
        assert code == 128 + sig, err
        assert "Traceback" not in err
        name = "SIGINT" if sig == signal.SIGINT else "SIGTERM"
        assert f"interrupted by {name}: {n} of {N_RECORDS + 1} records written to {out}" in err
        assert "--resume" in err
        assert 0 < n < N_RECORDS + 1
    code, _, err = run_cli("batch", batch_file, "-o", out, "--resume")
    assert code == 2, err  # the same exit as the whole run: one record is an error
    assert out.read_bytes() == full


def test_resume_rewrites_a_cut_off_last_line(batch_file, full_run, tmp_path, run_cli):
    full, _ = full_run
    lines = full.splitlines(keepends=True)
    out = tmp_path / "results.jsonl"
    out.write_bytes(b"".join(lines[:3]) + lines[3][:40])  # what kill -9 during a write may leave
    code, _, err = run_cli("batch", batch_file, "-o", out, "--resume")
    assert code == 2
    assert out.read_bytes() == full
    # the summary counts the whole output, and says what this run did and what it kept
    summary = err.splitlines()[-1]
    assert summary.startswith(f"{N_RECORDS + 1} records: {N_RECORDS} checked, ")
    assert summary.endswith(f"; {N_RECORDS + 1 - 3} done in this run, 3 kept from the earlier run"), summary


def test_blank_lines_are_skipped_and_resume_trusts_line_and_id(tmp_path, run_cli):
    """A blank line is not a record (no result; ``line`` keeps the file's numbering); --resume
    keeps a result whose line and id match, even when that record was edited since (as
    docs/batch.md says it does: the content is not compared)."""
    rec = {"id": "a", "output": "Contoso opened 3 stores.", "sources": ["Contoso opened 3 stores."]}
    path = tmp_path / "records.jsonl"
    path.write_text("\n" + json.dumps(rec) + "\n   \n" + json.dumps(dict(rec, id="b")) + "\n", encoding="utf-8")
    out = tmp_path / "results.jsonl"
    code, _, err = run_cli("batch", path, "-o", out)
    assert code == 0, err
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [(r["line"], r["id"]) for r in rows] == [(2, "a"), (4, "b")]
    assert err.splitlines()[-1] == "2 records: 2 checked, 0 failed the gate, 0 malformed"
    first = out.read_bytes().splitlines(keepends=True)[0]
    edited = dict(rec, output="Contoso opened 9 stores.")  # same line, same id: its result is kept
    path.write_text("\n" + json.dumps(edited) + "\n   \n" + json.dumps(dict(rec, id="b")) + "\n", encoding="utf-8")
    out.write_bytes(first)
    code, _, err = run_cli("batch", path, "-o", out, "--resume")
    assert code == 0, err
    assert out.read_bytes().startswith(first)
    assert err.splitlines()[-1].endswith("; 1 done in this run, 1 kept from the earlier run")


@pytest.mark.parametrize(
    "content,needle",
    [
        (b'{"line": 99, "id": "x", "report": {}}\n', "is the result of line 99"),
        (b"not json\n", "line 1 is not a batch result"),
    ],
)
def test_resume_refuses_another_batch_output(batch_file, tmp_path, content, needle, run_cli):
    out = tmp_path / "results.jsonl"
    out.write_bytes(content)
    code, _, err = run_cli("batch", batch_file, "-o", out, "--resume")
    assert code == 2 and needle in err and "Traceback" not in err
    assert out.read_bytes() == content  # nothing overwritten


def test_resume_needs_an_output_file(batch_file, run_cli):
    code, _, err = run_cli("batch", batch_file, "--resume")
    assert code == 2 and "--resume needs -o OUT" in err


@pytest.mark.slow(seconds=4)  # the interrupted runs above check it too, in the fast set
@pytest.mark.process
def test_results_are_flushed_as_they_are_done(batch_file, tmp_path):
    """The first results are in the file while later records are still being checked."""
    out = tmp_path / "results.jsonl"
    proc = subprocess.Popen(_cmd(batch_file, "-o", out), env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    seen_partial = False
    while proc.poll() is None:
        data = out.read_bytes() if out.exists() else b""
        if 0 < data.count(b"\n") < N_RECORDS + 1:
            seen_partial = True
            break
        time.sleep(0.01)
    proc.kill()
    proc.communicate()
    assert seen_partial


# An exit hook that holds the shutdown open until the test has sent its signal: it says so on
# stderr (the ready line), waits for the test's line on stdin (written once the signal is sent,
# so the signal is pending before the line can be read), then lingers a moment more, as a slow
# hook would, for a handler to act.
SLOW_SHUTDOWN = """
import atexit, sys, time
def slow():
    sys.stderr.write("shutting down\\n"); sys.stderr.flush()
    sys.stdin.readline()
    time.sleep(0.5)
atexit.register(slow)
from sourced_nlp.cli.console import main
main(sys.argv[1:])
"""


@pytest.mark.process
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_while_the_process_shuts_down_keeps_the_commands_exit_code(sig):
    """The command is done (exit 1: a claim is not grounded) when the signal comes, during the
    interpreter's shutdown (an atexit hook that waits for it): the exit code stays the command's."""
    root = Path(__file__).resolve().parents[2]
    argv = [
        sys.executable,
        "-c",
        SLOW_SHUTDOWN,
        "check",
        str(root / "examples" / "answer.txt"),
        str(root / "examples" / "source.txt"),
    ]
    proc = subprocess.Popen(argv, env=ENV, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    line = proc.stderr.readline()
    while line and b"shutting down" not in line:
        line = proc.stderr.readline()
    assert line, "the command never reached its shutdown"
    proc.send_signal(sig)
    out, err = proc.communicate(b"signal sent\n", timeout=60)
    assert proc.returncode == 1, err.decode()
    assert b"Traceback" not in err and b"Exception ignored" not in err


#: Each signal at once after the summary and a little later: both signals, and both ends of the
#: delays, run without the slow mark; the other pairs (each a batch process that loads spaCy,
#: ~4 s) run with the whole suite.
_AFTER_SUMMARY = [
    pytest.param(
        sig,
        delay,
        marks=() if (sig, delay) in {(signal.SIGINT, 0.0), (signal.SIGTERM, 0.05)} else pytest.mark.slow(seconds=4),
        id=f"{int(sig)}-{delay}",
    )
    for sig in (signal.SIGINT, signal.SIGTERM)
    for delay in (0.0, 0.01, 0.05)
]


@pytest.mark.process
@pytest.mark.parametrize("sig,delay", _AFTER_SUMMARY)
def test_a_signal_after_the_summary_keeps_the_exit_code_of_a_finished_batch(
    short_file, short_run, tmp_path, sig, delay
):
    """Every result written and the summary printed: a signal on the way out (Typer's Ctrl-C
    handling, the interpreter's teardown) changes neither the exit code nor the output."""
    full = short_run
    out = tmp_path / "results.jsonl"
    proc = subprocess.Popen(_cmd(short_file, "-o", out), env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    seen = b""
    while b" records: " not in seen:
        chunk = proc.stderr.read1(4096)
        if not chunk:
            break
        seen += chunk
    time.sleep(delay)
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 2, (seen + err).decode()  # one record is malformed: exit 2, as the whole run
    assert b"interrupted" not in seen + err and b"Traceback" not in seen + err
    assert out.read_bytes() == full


# ----------------------------------------- a record whose id cannot be written (cli-trial N3-52)

_SURROGATE_ID = (
    '{"id": "\\ud800", "output": "Revenue rose 8%.", "sources": ["Revenue rose 8%."]}\n'
    '{"id": "ok", "output": "Revenue rose 8%.", "sources": ["Revenue rose 8%."]}\n'
)


def test_a_record_whose_id_holds_an_unpaired_surrogate_is_an_error_result_and_the_run_goes_on(tmp_path, run_cli):
    """The id is echoed in the error result with the surrogate as its escape (six characters),
    the next record is checked, and ``--resume`` matches that result at its place."""
    (tmp_path / "sur.jsonl").write_text(_SURROGATE_ID, encoding="utf-8")
    code, _, err = run_cli("batch", "sur.jsonl", "-o", "out.jsonl", cwd=tmp_path)
    assert code == 2, err
    assert "Traceback" not in err and "codec" not in err
    assert "2 records: 1 checked, 0 failed the gate, 1 malformed" in err
    rows = [json.loads(ln) for ln in (tmp_path / "out.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [r["line"] for r in rows] == [1, 2]
    assert rows[0]["id"] == "\\ud800" and "unpaired surrogate" in rows[0]["error"]
    assert rows[1]["id"] == "ok" and "report" in rows[1]
    whole = (tmp_path / "out.jsonl").read_bytes()
    (tmp_path / "out.jsonl").write_bytes(whole.split(b"\n")[0] + b"\n")  # a run cut after its first result
    code, _, err = run_cli("batch", "sur.jsonl", "-o", "out.jsonl", "--resume", cwd=tmp_path)
    assert code == 2, err
    assert "2 records: 1 checked, 0 failed the gate, 1 malformed; 1 done in this run, 1 kept" in err
    assert (tmp_path / "out.jsonl").read_bytes() == whole


def test_a_result_that_cannot_be_written_as_utf8_becomes_an_error_result(tmp_path):
    """The last guard of the writer: a result that cannot be encoded (whatever let it through) is
    written as an error result for its line, never a crash that loses the rest of the run."""
    import io

    from sourced_nlp.cli._util import BatchFormat
    from sourced_nlp.cli.batch import _write_result

    fh = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    r = _write_result(
        fh,
        {"line": 3, "id": "a\udc80", "report": {"answer": "x\ud800"}},
        BatchFormat.json,
        None,
        "out.jsonl",
        "in.jsonl",
    )
    assert r == {"line": 3, "id": "a\\udc80", "error": "the result cannot be written as UTF-8: surrogates not allowed"}
    assert json.loads(fh.buffer.getvalue().decode("utf-8")) == r


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_during_a_write_is_counted_with_the_line_it_waited_for(
    batch_file, full_run, tmp_path, sig, run_cli, monkeypatch
):
    """A signal that arrives while a result line is written waits until the line is whole; the
    line on stderr then counts that result too, so its count is the number of lines in the file
    (a signal in that window once left one more line in the file than the message said)."""
    from sourced_nlp.cli import batch as batch_cli

    write, written = batch_cli._write_result, []

    def write_then_signal(fh, r, *args):
        r = write(fh, r, *args)
        written.append(r)
        if len(written) == 3:
            os.kill(os.getpid(), sig)  # held: the handler runs now, while the write is not over
        return r

    monkeypatch.setattr(batch_cli, "_write_result", write_then_signal)
    out = tmp_path / "results.jsonl"
    code, _, err = run_cli("batch", batch_file, "-o", out)
    assert code == 128 + sig, err
    n = _valid_prefix(out.read_bytes(), full_run[0])
    assert n == 3
    name = "SIGINT" if sig == signal.SIGINT else "SIGTERM"
    assert f"interrupted by {name}: 3 of {N_RECORDS + 1} records written to {out}" in err
