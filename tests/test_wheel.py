"""The package as a user installs it from a built wheel: ``python -m build``, the wheel installed
in a fresh virtual environment, ``sourced --version`` and one check run there, with no source
tree on the path (README "Install").

The fresh environment installs the wheel alone (``--no-deps --no-index``: nothing is downloaded)
and reads the dependencies (spaCy, the model, ...) from this interpreter's site-packages through a
``.pth`` line, which adds that folder to the path without running the ``.pth`` files in it (so
not the editable install of this tree). About 15 s; ``-m "not wheel"`` leaves it out.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from conftest import ROOT

pytestmark = [pytest.mark.wheel, pytest.mark.process]


def _run(*argv, cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([str(a) for a in argv], cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def test_a_built_wheel_installs_and_runs_without_the_source_tree(tmp_path):
    src = tmp_path / "src"  # what the wheel is built from: a copy, so that the build writes nothing here
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, src / name)
    for folder in ("sourced_nlp", "models"):
        shutil.copytree(ROOT / folder, src / folder, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    dist = tmp_path / "dist"
    done = _run(
        sys.executable,
        "-m",
        "build",
        "--wheel",
        "--no-isolation",
        "--skip-dependency-check",
        "--outdir",
        dist,
        src,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    (wheel,) = dist.glob("sourced_nlp-*.whl")

    fresh = tmp_path / "venv"
    done = _run(sys.executable, "-m", "venv", "--without-pip", fresh, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    python = fresh / "bin" / "python"
    site = Path(
        _run(python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))", cwd=tmp_path).stdout.strip()
    )
    (site / "dependencies.pth").write_text(sysconfig.get_path("purelib") + "\n")
    done = _run(
        sys.executable,
        "-m",
        "pip",
        "--python",
        python,
        "install",
        "--quiet",
        "--no-deps",
        "--no-index",
        wheel,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr

    work = tmp_path / "work"  # no source tree here or on the path
    work.mkdir()
    for name in ("answer.txt", "source.txt"):
        shutil.copy(ROOT / "examples" / name, work / name)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    env["NO_COLOR"] = "1"
    where = _run(python, "-c", "import sourced_nlp; print(sourced_nlp.__file__)", cwd=work, env=env).stdout.strip()
    assert Path(where).is_relative_to(site), where
    sourced = fresh / "bin" / "sourced"
    done = _run(sourced, "--version", cwd=work, env=env)
    assert (done.returncode, done.stdout, done.stderr) == (0, "sourced 0.1.0\n", "")
    done = _run(sourced, "check", "answer.txt", "source.txt", "--format", "json", cwd=work, env=env)
    assert done.returncode == 1, done.stderr  # the example holds one contradicted claim
    assert '"contradicted": 1' in done.stdout and done.stderr == "gate: 1 claim(s) contradicted\n"
