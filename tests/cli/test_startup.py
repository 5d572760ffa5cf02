"""Start-up: ``sourced --help``, ``--version`` and usage errors do not import spaCy.

Each case runs the real entry point (the console script's ``sourced_nlp.cli.console.main``, or
``python -m sourced_nlp.cli``) in a fresh interpreter and reads back which of the heavy
libraries it imported (``sys.modules`` at exit). A command that checks something must import
spaCy: that case shows the probe sees it.
"""

from __future__ import annotations

import importlib.metadata
import subprocess
import sys
from pathlib import Path

import pytest

import sourced_nlp

pytestmark = pytest.mark.process

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"

#: Imported only when a command needs the pipeline, a judge, Dask, a data frame or the web server.
HEAVY = (
    "spacy",
    "thinc",
    "srsly",
    "numpy",
    "pint",
    "rapidfuzz",
    "pandas",
    "dask",
    "distributed",
    "anthropic",
    "openai",
    "starlette",
    "uvicorn",
    "multipart",
    "python_multipart",
)

PROBE = f"""
import sys
try:
    {{entry}}
finally:
    sys.stderr.write("\\nIMPORTED " + ",".join(m for m in {HEAVY!r} if m in sys.modules) + "\\n")
"""
CONSOLE = "from sourced_nlp.cli.console import main; main()"
MODULE = "import runpy; runpy.run_module('sourced_nlp.cli', run_name='__main__')"


def run(entry: str, *args: str, cwd: Path = REPO) -> tuple[int, str, list[str], list[str]]:
    """``(exit code, stdout, stderr lines without the probe's, heavy modules imported)``."""
    proc = subprocess.run(
        [sys.executable, "-c", PROBE.format(entry=entry), *args], capture_output=True, text=True, cwd=cwd, timeout=300
    )
    lines = proc.stderr.splitlines()
    probe = [line for line in lines if line.startswith("IMPORTED ")]
    assert probe, proc.stderr
    imported = [m for m in probe[-1][len("IMPORTED ") :].split(",") if m]
    rest = [line for line in lines if line and not line.startswith("IMPORTED ")]
    return proc.returncode, proc.stdout, rest, imported


HELP = [
    (["--version"], 0, f"sourced {sourced_nlp.__version__}"),
    (["--help"], 0, "Commands"),
    (["check", "--help"], 0, "ANSWER"),
    (["cite", "--help"], 0, "ANSWER"),
    (["batch", "--help"], 0, "FILE.jsonl"),
    (["eval", "--help"], 0, "Usage"),
    (["calibrate", "--help"], 0, "GOLD.jsonl"),
    (["serve", "--help"], 0, "--port"),
]


def _help_cases():
    """Every case under both entry points. Past ``--version`` (which the console script answers
    itself) both run the same ``run_to_exit(cli_main, args)`` after the same imports, so the
    ``python -m`` run of a command's help other than ``check --help`` is a repeat: it runs with
    the whole suite only (``slow``), one fresh interpreter each."""
    for args, code, out_has in HELP:
        for entry, name in ((CONSOLE, "console"), (MODULE, "python -m")):
            repeat = entry == MODULE and len(args) > 1 and args[0] != "check"
            yield pytest.param(
                entry,
                args,
                code,
                out_has,
                marks=pytest.mark.slow(seconds=1) if repeat else (),
                id=f"{' '.join(args)}-{code}-{out_has}-{name}",
            )


@pytest.mark.parametrize("entry, args, code, out_has", list(_help_cases()))
def test_help_and_version_import_no_heavy_library(entry, args, code, out_has):
    rc, out, err, imported = run(entry, *args)
    assert rc == code, err
    assert out_has in out
    assert imported == []


@pytest.mark.parametrize(
    "args, message",
    [
        (
            ["check", "missing-answer.txt", str(EXAMPLES / "source.txt")],
            "error: answer file not found: missing-answer.txt",
        ),
        (["check", str(EXAMPLES / "answer.txt"), "missing-source.txt"], "missing-source.txt"),
        (["check", "--bogus"], "error: No such option: --bogus"),
        (["check", str(EXAMPLES / "answer.txt")], "error: no SOURCE given"),
        (["check", str(EXAMPLES / "answer.txt"), str(EXAMPLES / "source.txt"), "--fail-under", "300"], "--fail-under"),
        (["batch", "missing.jsonl"], "missing.jsonl"),
        (["cite", "--format", "pdf", "a", "b"], "error: Invalid value"),
        (["nonsense"], "error: No such command"),
        ([], "Usage: sourced"),
    ],
    ids=lambda v: " ".join(Path(a).name for a in v) if isinstance(v, list) else None,
)
def test_usage_errors_exit_2_with_one_line_without_spacy(args, message):
    rc, out, err, imported = run(CONSOLE, *args)
    assert rc == 2
    assert out == ""
    assert message in err[0]
    assert len(err) == 1 or not args, err  # `sourced` alone prints the help, then exits 2
    assert "spacy" not in imported and imported == [], imported


def test_a_check_imports_spacy():
    """The positive control: the probe sees spaCy when a command loads the pipeline."""
    rc, out, err, imported = run(CONSOLE, "check", str(EXAMPLES / "answer.txt"), str(EXAMPLES / "source.txt"))
    assert rc == 1, err  # the example has a contradicted claim
    assert "contradicted" in out
    assert "spacy" in imported


def test_import_package_and_public_names():
    """``import sourced_nlp`` imports no heavy library; every exported name still resolves,
    and a judge backend is registered once the verify component's module is imported."""
    code = f"""
import sys
import sourced_nlp
before = [m for m in {HEAVY!r} if m in sys.modules]
from sourced_nlp import *
names = [n for n in sourced_nlp.__all__ if getattr(sourced_nlp, n, None) is None]
assert set(sourced_nlp.__all__) <= set(dir(sourced_nlp)), set(sourced_nlp.__all__) - set(dir(sourced_nlp))
import sourced_nlp.components.extensions
assert sourced_nlp.components.extensions.CLAIMS_KEY == sourced_nlp.CLAIMS_KEY
try:
    sourced_nlp.no_such_name
except AttributeError as err:
    assert "no_such_name" in str(err)
else:
    raise AssertionError("no AttributeError")
import sourced_nlp.judges as judges
assert judges.ReplayJudge.__module__ == "sourced_nlp.judges.backends.replay"
import spacy
import sourced_nlp.components.verify  # noqa: F401
for name in ("replay", "callable", "anthropic", "openai"):
    assert spacy.registry.misc.get(f"sourced.judge.{{name}}.v1")
print(before, names)
"""
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[] []"


def test_fast_version_is_the_distribution_version():
    """``sourced --version`` is answered from ``sourced_nlp.__version__`` without reading the
    installed metadata: the two must agree."""
    assert importlib.metadata.version("sourced-nlp") == sourced_nlp.__version__
