"""Ctrl-C at any moment of a ``sourced`` process, from the first instruction of its entry point:
exit 130 and one line, never a traceback and never a silent exit.

The signal is sent by the process to itself at a chosen point (when a chosen module is first
imported: Typer while the command line is built, spaCy while the pipeline loads), so that each
moment is hit every time, whatever the machine's speed.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap

import pytest

from conftest import ROOT

ENV = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1", "PYTHONDONTWRITEBYTECODE": "1"}

#: Runs the console script's entry point as ``sourced ARGS`` does, with SIGINT sent when the
#: module named by argv[1] is first imported (none: the entry point's first instruction).
_AT_IMPORT = textwrap.dedent("""
    import os, signal, sys

    when, args = sys.argv[1], sys.argv[2:]

    class Finder:
        def find_spec(self, name, path=None, target=None):
            if name == when:
                sys.meta_path.remove(self)
                os.kill(os.getpid(), signal.SIGINT)
            return None

    sys.meta_path.insert(0, Finder())
    from sourced_nlp.cli.console import main
    sys.argv[0] = "sourced"
    main(args)
""")

ARGS = ["check", "examples/answer.txt", "examples/source.txt"]


def _run(when: str, *, ignored: bool = False) -> subprocess.CompletedProcess:
    def start():
        if ignored:  # as a script's background job starts
            signal.signal(signal.SIGINT, signal.SIG_IGN)

    return subprocess.run(
        [sys.executable, "-c", _AT_IMPORT, when, *ARGS],
        cwd=ROOT,
        env=ENV,
        capture_output=True,
        text=True,
        timeout=300,
        preexec_fn=start,
    )


@pytest.mark.process
@pytest.mark.parametrize(
    "when",
    [
        "sourced_nlp.cli._main",  # the first import after the entry point's first instruction
        "typer",  # the command line is being imported (a traceback on c788cc9)
        "spacy",  # the pipeline is being loaded (exit 130, silent, on c788cc9)
        "sourced_nlp.verdict.verifier",  # a component of the pipeline is being read
    ],
)
def test_ctrl_c_at_any_moment_is_exit_130_and_one_line(when):
    proc = _run(when)
    assert (proc.returncode, proc.stderr) == (130, "interrupted by SIGINT\n"), proc.stderr[-3000:]
    assert proc.stdout == ""


@pytest.mark.process
def test_ctrl_c_ignored_from_the_start_stays_ignored():
    proc = _run("spacy", ignored=True)
    assert proc.returncode == 1, proc.stderr[-3000:]  # the check ran to its end: the example has a contradiction
    assert proc.stderr.splitlines()[-1].startswith("gate: "), proc.stderr
