"""Shared fixtures: the real pipeline, loaded once per test session."""

from __future__ import annotations

import functools
import io
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"


@pytest.fixture(scope="session")
def nlp():
    """The default pipeline (en_core_web_sm 3.8 + every sourced component)."""
    import sourced_nlp

    return sourced_nlp.load_pipeline()


def pytest_addoption(parser):
    parser.addoption(
        "--network",
        action="store_true",
        default=False,
        help="also run the tests marked network (a real service, a paid API)",
    )


def pytest_configure(config):
    """Under ``--dist loadfile`` pytest-xdist hands out whole files, by default the files with
    the most tests first; that puts the files of a few long tests (the ``slow`` end-to-end runs,
    the ``process`` tests that each start spaCy in a fresh interpreter) last, where one of them
    keeps one worker busy while the other has nothing left. The files are handed out in the
    order :func:`pytest_collection_modifyitems` gives them instead: the longest first."""
    if hasattr(config.option, "loadscopereorder"):
        config.option.loadscopereorder = False


#: A rough cost per test, by mark, to order the files longest first: a ``slow`` test runs for
#: tens of seconds, a ``process`` test starts an interpreter (most of them load spaCy there). A
#: mark's ``seconds`` keyword overrides it: ``slow(seconds=4)`` is a test kept out of the fast
#: set that is not itself long (one more process like the ones the fast set runs).
_COST = {"slow": 40.0, "process": 4.0}
_COST_OTHER = 0.15
#: Files long without those marks (seconds on two cores, 2026-12-03): the meaning tier over 24
#: RAGTruth records under several configs; Chromium's screenshots.
_LONG_FILES = {"tests/verdict/test_meaning.py": 15.0, "tests/report/test_browser.py": 12.0}


def _cost(item) -> float:
    marks = [(item.get_closest_marker(mark), c) for mark, c in _COST.items()]
    return max((m.kwargs.get("seconds", c) for m, c in marks if m is not None), default=_COST_OTHER)


def _file_costs(items) -> dict[str, float]:
    costs: dict[str, float] = {}
    for item in items:
        path = item.nodeid.split("::")[0]
        costs[path] = costs.get(path, _LONG_FILES.get(path, 0.0)) + _cost(item)
    return costs


@pytest.hookimpl(trylast=True)  # after ``-m`` has deselected: the order of what runs
def pytest_collection_modifyitems(config, items):
    """Tests marked ``network`` are skipped unless ``--network`` is given. Under pytest-xdist
    the files are put in order of their estimated time, the longest first (the tests of a file
    keep their order), so that a worker of ``-n 2 --dist loadfile`` does not end the run alone
    on a long file."""
    if hasattr(config, "workerinput"):  # a pytest-xdist worker; a run in one process keeps its order (--ff)
        by_file = _file_costs(items)
        items.sort(key=lambda item: -by_file[item.nodeid.split("::")[0]])  # stable: a file's own order kept
    if config.getoption("--network"):
        return
    skip = pytest.mark.skip(reason="needs the network and a paid API: run with --network")
    for item in items:
        if "network" in item.keywords:
            item.add_marker(skip)


# ------------------------------------------------------------ the command line, in this process


def _text_stream(data: bytes = b"", errors: str = "strict") -> io.TextIOWrapper:
    """A real text stream over bytes, with the ``.buffer`` that ``sourced`` reads standard input
    from, as a process's standard streams are (UTF-8; stderr with ``backslashreplace``)."""
    return io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", errors=errors, write_through=True)


def _show_warning(message, category, filename, lineno, file=None, line=None):
    """Warnings go to (the captured) standard error, as in a ``sourced`` process."""
    sys.stderr.write(warnings.formatwarning(message, category, filename, lineno, line))


def invoke_cli(*args, input=None, cwd=None, env=None) -> tuple[int, str, str]:
    """``sourced ARGS`` run in this process through the real entry point
    :func:`sourced_nlp.cli.main`; returns ``(exit code, stdout, stderr)``.

    Standard input is ``input`` (str or bytes; empty when None), standard output and error are
    captured as real text streams over bytes and decoded as UTF-8; the exit code is
    ``SystemExit``'s (``main`` always exits). The environment has ``NO_COLOR=1`` and
    ``COLUMNS=200`` (as the process tests give), plus ``env`` (a value of None removes the
    variable); ``cwd`` is the working directory for the call. Warnings are printed to stderr with
    Python's default filters, as a fresh process prints them. Everything is put back afterwards.
    The pipeline is the process's (``load_pipeline`` keeps it), so a call after the first loads
    nothing; a call with ``--judge`` builds its own, as a process would. An exception that ``main`` lets through (a bug: a traceback in a real process)
    propagates. Use the ``run_cli`` fixture in a test; this function where no fixture reaches
    (a module-scoped fixture).
    """
    from sourced_nlp.cli import main

    data = input.encode("utf-8") if isinstance(input, str) else (input or b"")
    stdin, stdout, stderr = _text_stream(data), _text_stream(), _text_stream(errors="backslashreplace")
    with pytest.MonkeyPatch.context() as mp, warnings.catch_warnings():
        warnings.resetwarnings()
        for category in (DeprecationWarning, PendingDeprecationWarning, ImportWarning, ResourceWarning):
            warnings.simplefilter("ignore", category)
        warnings.simplefilter("default", append=True)
        mp.setattr(warnings, "showwarning", _show_warning)
        for key, value in {"NO_COLOR": "1", "COLUMNS": "200", **(env or {})}.items():
            if value is None:
                mp.delenv(key, raising=False)
            else:
                mp.setenv(key, str(value))
        if cwd is not None:
            mp.chdir(cwd)
        if any(str(a) == "--judge" or str(a).startswith("--judge=") for a in args):
            # A judge reads its --judge-file when it is built and writes its --judge-record as it
            # goes: a pipeline cached by an earlier call (same config, same relative path) would
            # carry that call's files. A process builds its own, and so does this call.
            import sourced_nlp.api as api

            mp.setattr(api, "_load_pipeline", functools.lru_cache(maxsize=4)(api._load_pipeline.__wrapped__))
        mp.setattr(sys, "stdin", stdin)
        mp.setattr(sys, "stdout", stdout)
        mp.setattr(sys, "stderr", stderr)
        try:
            main([str(a) for a in args])
            code = 0
        except SystemExit as done:
            if done.code is None or isinstance(done.code, int):
                code = done.code or 0
            else:  # sys.exit("message"): printed, exit 1, as the interpreter does
                stderr.write(f"{done.code}\n")
                code = 1
        finally:
            for stream in (stdout, stderr):
                stream.flush()
    return code, stdout.buffer.getvalue().decode("utf-8"), stderr.buffer.getvalue().decode("utf-8")


def invoke_cli_proc(*args, input=None, cwd=None, env=None) -> subprocess.CompletedProcess:
    """:func:`invoke_cli` with its result as a ``CompletedProcess`` (text), for tests written
    against ``subprocess.run(..., capture_output=True, text=True)``."""
    code, out, err = invoke_cli(*args, input=input, cwd=cwd, env=env)
    return subprocess.CompletedProcess(["sourced", *map(str, args)], code, out, err)


@pytest.fixture
def run_cli():
    """``run_cli(*args, input=None, cwd=None, env=None) -> (code, stdout, stderr)``: the command
    line in this process (:func:`invoke_cli`), as ``sourced ARGS`` would run."""
    return invoke_cli
