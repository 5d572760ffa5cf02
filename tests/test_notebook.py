"""``examples/explore.ipynb`` executed headless with nbclient: any error in any cell fails.

The kernel is the ``python3`` kernelspec of the running environment (ipykernel, from the
``notebook`` extra); jupyter_client starts it with this interpreter, so it sees this install
of ``sourced_nlp``.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from conftest import SHARED

nbformat = pytest.importorskip("nbformat", reason="the notebook extra is not installed (pip install -e '.[notebook]')")
nbclient = pytest.importorskip("nbclient", reason="the notebook extra is not installed (pip install -e '.[notebook]')")
pytest.importorskip("ipykernel", reason="the notebook extra is not installed (pip install -e '.[notebook]')")

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
NOTEBOOK = EXAMPLES / "explore.ipynb"
RAGTRUTH = SHARED / "data" / "ragtruth"


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
