"""``examples/explore.ipynb`` executed headless with nbclient: any error in any cell fails.

The kernel is ipykernel (from the ``notebook`` extra) run by this very interpreter, so it sees
this install of ``sourced_nlp``: a ``python3`` kernelspec naming ``sys.executable`` is put first
on ``JUPYTER_PATH``, ahead of any user-level ``python3`` kernel that may point elsewhere.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

from conftest import SHARED

pytestmark = pytest.mark.process

nbformat = pytest.importorskip("nbformat", reason="the notebook extra is not installed (pip install -e '.[notebook]')")
nbclient = pytest.importorskip("nbclient", reason="the notebook extra is not installed (pip install -e '.[notebook]')")
pytest.importorskip("ipykernel", reason="the notebook extra is not installed (pip install -e '.[notebook]')")

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
NOTEBOOK = EXAMPLES / "explore.ipynb"
RAGTRUTH = SHARED / "data" / "ragtruth"


@pytest.fixture(scope="module", autouse=True)
def this_python_kernel(tmp_path_factory):
    kernels = tmp_path_factory.mktemp("jupyter") / "kernels" / "python3"
    kernels.mkdir(parents=True)
    spec = {
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "Python 3 (ipykernel)",
        "language": "python",
    }
    (kernels / "kernel.json").write_text(json.dumps(spec), encoding="utf8")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("JUPYTER_PATH", str(kernels.parent.parent))
        mp.setenv("PYDEVD_DISABLE_FILE_VALIDATION", "1")
        yield


def run_notebook(workdir: Path):
    nb = nbformat.read(NOTEBOOK, as_version=4)
    client = nbclient.NotebookClient(
        nb, timeout=900, kernel_name="python3", resources={"metadata": {"path": str(workdir)}}
    )
    client.execute()  # raises CellExecutionError on the first failing cell
    return nb


def outputs(nb, mime: str) -> list[str]:
    found = []
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            if out.get("output_type") == "error":
                pytest.fail(f"cell error: {out.get('ename')}: {out.get('evalue')}")
            data = out.get("data", {})
            if mime in data:
                value = data[mime]
                found.append("".join(value) if isinstance(value, list) else value)
    return found


def test_notebook_is_clean_in_the_repository():
    nb = nbformat.read(NOTEBOOK, as_version=4)
    nbformat.validate(nb)
    assert nb.metadata["kernelspec"]["name"] == "python3"
    assert all(not c.get("outputs") for c in nb.cells if c.cell_type == "code"), "commit it without outputs"


@pytest.mark.slow(seconds=8)  # a Jupyter kernel runs the whole notebook, spaCy loaded in it
def test_notebook_runs_headless():
    nb = run_notebook(EXAMPLES)
    html = "\n".join(outputs(nb, "text/html"))
    # The report's own view, then displaCy's span view with the verdict labels.
    assert 'class="sourced-report"' in html and 'data-verdict="contradicted"' in html
    assert "spans" in html and "grounded" in html
    if (RAGTRUTH / "response.jsonl").is_file():
        assert outputs(nb, "image/png"), "the verdict mix per task was not plotted"
        assert html.count('class="sourced-report"') >= 2  # the example and one RAGTruth report
    else:
        assert any("RAGTruth data not found" in m for m in outputs(nb, "text/markdown"))


@pytest.mark.slow(seconds=8)  # a Jupyter kernel runs the whole notebook, spaCy loaded in it
def test_notebook_without_ragtruth_degrades_to_a_note(tmp_path):
    """A copy of examples/ with no shared data beside it: a markdown note, no error."""
    work = tmp_path / "repo" / "examples"
    work.mkdir(parents=True)
    for name in ("answer.txt", "source.txt", "explore.ipynb"):
        shutil.copy(EXAMPLES / name, work / name)
    nb = run_notebook(work)
    notes = "\n".join(outputs(nb, "text/markdown"))
    assert "RAGTruth data not found" in notes
    assert not outputs(nb, "image/png")
    assert 'class="sourced-report"' in "\n".join(outputs(nb, "text/html"))


def test_kernel_is_this_interpreter():
    from nbformat.v4 import new_code_cell, new_notebook

    nb = new_notebook(cells=[new_code_cell("import sys, sourced_nlp; print(sys.executable)")])
    nbclient.NotebookClient(nb, timeout=120, kernel_name="python3").execute()
    printed = "".join(o.get("text", "") for o in nb.cells[0].outputs).strip()
    assert Path(printed).resolve() == Path(sys.executable).resolve()
