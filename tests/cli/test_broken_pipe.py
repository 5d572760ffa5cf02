"""A broken pipe on standard output (``sourced ... | head -0``) in every command, as real
subprocesses: the output stops quietly and the exit code is the one the command gives with its
output read (the gate's 0 or 1, 2 for an input error), never a traceback nor Python's
"Exception ignored ... BrokenPipeError" at exit. The reader is gone before the command starts
(its standard output is a pipe whose read end is already closed), so the first write fails."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import invoke_cli

pytestmark = pytest.mark.process

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
EVAL = EXAMPLES / "eval"
SOURCE = EXAMPLES / "source.txt"  # "Revenue rose 8% to $2.4 billion ..."
CLI = ["-m", "sourced_nlp.cli"]
CONSOLE = ["-c", "from sourced_nlp.cli.console import main; main()"]  # the `sourced` script


def run(prefix: list[str], args: list[str], stdout="broken", cwd=ROOT) -> tuple[int, str]:
    """``python PREFIX ARGS`` with standard output a pipe whose reader has gone (``"broken"``)
    or read to its end (``"read"``); (exit code, stderr)."""
    cmd = [sys.executable, *prefix, *map(str, args)]
    env = dict(os.environ, NO_COLOR="1")
    if stdout == "read":
        proc = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, env=env, timeout=600)
        return proc.returncode, proc.stderr
    r, w = os.pipe()
    os.close(r)  # the reader is gone before the command writes anything
    try:
        proc = subprocess.run(cmd, stdout=w, stderr=subprocess.PIPE, text=True, cwd=cwd, env=env, timeout=600)
    finally:
        os.close(w)
    return proc.returncode, proc.stderr


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("pipe")
    (d / "good.txt").write_text("Revenue rose 8% to $2.4 billion.\n", encoding="utf-8")
    (d / "cited.txt").write_text("Revenue rose 8% to $2.4 billion [1].\n", encoding="utf-8")
    (d / "bad.txt").write_text("Revenue rose 12% to $2.4 billion.\n", encoding="utf-8")
    src = SOURCE.read_text(encoding="utf-8")
    good = {"id": "good", "output": "Revenue rose 8% to $2.4 billion.", "sources": [src]}
    bad = {"id": "bad", "output": "Revenue rose 12% to $2.4 billion.", "sources": [src]}
    (d / "pass.jsonl").write_text(json.dumps(good) + "\n", encoding="utf-8")
    (d / "fail.jsonl").write_text(json.dumps(good) + "\n" + json.dumps(bad) + "\n", encoding="utf-8")
    (d / "malformed.jsonl").write_text(json.dumps(good) + "\n{not json\n", encoding="utf-8")
    # an intact audit log, written by a passing check whose output is read (in this process:
    # the log is the input of a case, not one)
    code, _, err = invoke_cli("check", d / "good.txt", SOURCE, "--audit", d / "audit.jsonl", "-o", d / "r.txt")
    assert code == 0, err
    return d


#: Variants that go the same way as a case kept in the fast set run only with the whole suite
#: (``slow``: each starts spaCy in a fresh interpreter): a passing batch as the failing one (the
#: gate's outcome only picks the exit code); ``eval score --format json`` writes its card to
#: ``sys.stdout`` as ``check --format json`` and ``eval gate`` do (``eval score -o`` stays: its
#: table goes through a rich console of its own).
REPEAT = pytest.mark.slow(seconds=4)

CASES = [
    # id, entry point, argv ({d}: the files above), exit code under a broken pipe, marks
    ("version", CONSOLE, ["--version"], 0, ()),
    ("version via cli", CLI, ["--version"], 0, ()),
    ("check help", CONSOLE, ["check", "--help"], 0, ()),
    ("check passing", CLI, ["check", "{d}/good.txt", SOURCE], 0, ()),
    ("check failing json", CLI, ["check", "{d}/bad.txt", SOURCE, "--format", "json"], 1, ()),
    ("cite passing", CLI, ["cite", "{d}/cited.txt", SOURCE], 0, ()),
    ("batch passing", CLI, ["batch", "{d}/pass.jsonl"], 0, REPEAT),
    ("batch failing", CLI, ["batch", "{d}/fail.jsonl"], 1, ()),
    ("batch failing text", CLI, ["batch", "{d}/fail.jsonl", "--format", "text"], 1, ()),
    ("batch malformed line", CLI, ["batch", "{d}/malformed.jsonl"], 2, ()),
    ("audit verify intact", CLI, ["audit", "verify", "{d}/audit.jsonl"], 0, ()),
    ("eval score -o", CLI, ["eval", "score", EVAL / "run.jsonl", "-o", "{d}/card.json"], 0, ()),
    ("eval score json", CLI, ["eval", "score", EVAL / "run.jsonl", "--format", "json"], 0, REPEAT),
    ("eval fixtures", CLI, ["eval", "fixtures", EVAL / "fixtures" / "leave.json"], 0, ()),
    ("eval gate passing", CLI, ["eval", "gate", EVAL / "baseline.json", "--baseline", EVAL / "baseline.json"], 0, ()),
]


@pytest.mark.parametrize("name,prefix,argv,code", [pytest.param(*c[:4], id=c[0], marks=c[4]) for c in CASES])
def test_broken_pipe_keeps_the_exit_code(files, name, prefix, argv, code):
    args = [str(a).replace("{d}", str(files)) for a in argv]
    got, err = run(prefix, args)
    assert got == code, err
    assert "Traceback" not in err and "Exception ignored" not in err, err


def test_batch_with_output_file_writes_every_result_under_a_broken_pipe(files, tmp_path):
    """With ``-o FILE`` standard output carries no results, so its reader does not matter."""
    out = tmp_path / "results.jsonl"
    code, err = run(CLI, ["batch", files / "fail.jsonl", "-o", out])
    assert code == 1, err
    assert [json.loads(line)["id"] for line in out.read_text(encoding="utf-8").splitlines()] == ["good", "bad"]
    assert "2 records: 2 checked, 1 failed the gate, 0 malformed" in err


def test_closed_stdout_stays_an_output_error():
    """``>&-`` is no broken pipe: nothing can be written at all, exit 2 with one line."""
    proc = subprocess.run(
        ["sh", "-c", 'exec "$0" -m sourced_nlp.cli check --help >&-', sys.executable],
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        timeout=600,
    )
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.strip().splitlines() == ["error: cannot write standard output: it is closed"]
