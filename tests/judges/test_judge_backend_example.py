"""docs/judge-backend.md: the worked example of a new judge backend, run as written. Declaring
the backend is all it takes: ``--judge`` accepts it and lists it, its factory resolves from the
config, and its answers go through the quote check."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PAGE = REPO / "docs" / "judge-backend.md"


def example_module() -> str:
    """The first Python block of the page: the backend module."""
    return re.findall(r"```python\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.S)[0]


def test_the_page_shows_one_import_line():
    blocks = re.findall(r"```python\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.S)
    assert blocks[1].strip() == "from . import verbatim  # noqa: F401"


@pytest.mark.process  # registering a backend is process-wide: a fresh interpreter keeps it from other tests
@pytest.mark.process  # a fresh interpreter: the example's backend must not join this process's BACKENDS
def test_a_declared_backend_is_a_judge_of_the_command_line(tmp_path):
    """The example module, imported as the backends' __init__ would import it, makes
    ``--judge verbatim`` work end to end (a real process, the real pipeline)."""
    (tmp_path / "verbatim_backend.py").write_text(example_module(), encoding="utf-8")
    answer = tmp_path / "answer.txt"
    answer.write_text("The museum opened in 1902. It has a rooftop garden with olive trees.\n", encoding="utf-8")
    source = tmp_path / "source.txt"
    source.write_text("The museum opened in 1902. It has a rooftop garden with olive trees.\n", encoding="utf-8")
    run = (
        "import sys; sys.path.insert(0, sys.argv.pop(1)); import verbatim_backend; "
        "from sourced_nlp.cli import main; main()"
    )
    help_ = subprocess.run(
        [sys.executable, "-c", run, str(tmp_path), "check", "--help"], capture_output=True, text=True, timeout=300
    )
    assert "anthropic, openai, replay, callable or verbatim" in " ".join(help_.stdout.split())
    proc = subprocess.run(
        [
            sys.executable,
            "-c",
            run,
            str(tmp_path),
            "check",
            str(answer),
            str(source),
            "--judge",
            "verbatim",
            "--no-meaning",
            "-f",
            "json",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    import json

    report = json.loads(proc.stdout)
    assert report["counts"]["contradicted"] == 0
    unknown = subprocess.run(
        [sys.executable, "-c", run, str(tmp_path), "check", str(answer), str(source), "--judge", "nosuch"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert unknown.returncode == 2
    assert "choose one of anthropic, openai, replay, callable, verbatim" in unknown.stderr
