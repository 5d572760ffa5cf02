"""``sourced check`` (the real entry point, in this process) on real RAGTruth records written to files.

One record per task: QA (each ``passage N:`` of the record is its own source file), Summary
(the article as a ``.txt``) and Data2txt (the business record as a ``.json`` source, which the
CLI linearises). The record is the task's first train-split response; a task with no
train-split response in the shared copy falls back to its first response.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from conftest import SHARED, invoke_cli_proc
from sourced_nlp.files import load_source_file

RAGTRUTH = SHARED / "data" / "ragtruth"
RESPONSES = RAGTRUTH / "response.jsonl"
SOURCE_INFO = RAGTRUTH / "source_info.jsonl"

if not (RESPONSES.is_file() and SOURCE_INFO.is_file()):
    pytest.skip(f"RAGTruth data not found under {RAGTRUTH}", allow_module_level=True)

TASKS = ("QA", "Summary", "Data2txt")
VERDICTS = ("grounded", "contradicted", "unverified")
MARKS = {"grounded": "✔", "contradicted": "✘", "unverified": "?"}
_PASSAGE = re.compile(r"(?:^|\n)\s*passage\s+(\d+)\s*:", re.IGNORECASE)


def pick_records() -> dict[str, tuple[dict, dict]]:
    """``{task: (response, source)}``: the first train-split response of each task."""
    sources = {}
    with SOURCE_INFO.open(encoding="utf8") as fh:
        for line in fh:
            if line.strip():
                s = json.loads(line)
                sources[s["source_id"]] = s
    first: dict[str, tuple[dict, dict]] = {}
    first_train: dict[str, tuple[dict, dict]] = {}
    with RESPONSES.open(encoding="utf8") as fh:
        for line in fh:
            if not line.strip():
                continue
            r = json.loads(line)
            s = sources.get(r["source_id"])
            if s is None or not r["response"].strip():
                continue
            task = s["task_type"]
            first.setdefault(task, (r, s))
            if r.get("split") == "train":
                first_train.setdefault(task, (r, s))
    return {t: first_train.get(t) or first[t] for t in TASKS if t in first_train or t in first}


def split_passages(text: str) -> list[tuple[str, str]]:
    """``[(number, passage text)]`` from a QA ``passages`` string (``passage 1:... passage 2:...``)."""
    marks = list(_PASSAGE.finditer(text))
    out = []
    for m, nxt in zip(marks, [*marks[1:], None]):
        body = text[m.end() : nxt.start() if nxt else len(text)].strip()
        if body:
            out.append((m.group(1), body))
    return out


def write_record(task: str, response: dict, source: dict, folder: Path) -> tuple[Path, list[Path]]:
    folder.mkdir(parents=True, exist_ok=True)
    answer = folder / "answer.txt"
    answer.write_text(response["response"], encoding="utf8")
    info = source["source_info"]
    paths: list[Path] = []
    if task == "QA":
        for n, body in split_passages(info["passages"]):
            p = folder / f"passage_{n}.txt"
            p.write_text(body, encoding="utf8")
            paths.append(p)
    elif task == "Summary":
        p = folder / "article.txt"
        p.write_text(info, encoding="utf8")
        paths.append(p)
    else:
        p = folder / "business.json"
        p.write_text(json.dumps(info, ensure_ascii=False, indent=1), encoding="utf8")
        paths.append(p)
    assert paths, f"{task}: no source written"
    return answer, paths


def run_check(answer: Path, sources: list[Path], fmt: str) -> subprocess.CompletedProcess:
    """``sourced check ANSWER SOURCES --format FMT`` in this process (:func:`conftest.invoke_cli`:
    UTF-8 streams, NO_COLOR, COLUMNS=200)."""
    return invoke_cli_proc("check", answer, *sources, "--format", fmt)


RECORDS = pick_records()


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """``{task: (answer, sources, json run, text run)}``, each CLI run done once."""
    root = tmp_path_factory.mktemp("ragtruth")
    out = {}
    for task, (response, source) in RECORDS.items():
        answer, paths = write_record(task, response, source, root / task)
        out[task] = (answer, paths, run_check(answer, paths, "json"), run_check(answer, paths, "text"))
    return out


def test_every_task_has_a_record():
    assert set(RECORDS) == set(TASKS)


def test_qa_passages_are_split():
    response, source = RECORDS["QA"]
    passages = split_passages(source["source_info"]["passages"])
    assert len(passages) >= 2
    assert all(not body.lower().startswith("passage") for _, body in passages)


@pytest.mark.parametrize("task", TASKS)
def test_check_json(runs, task):
    answer, paths, proc, _ = runs[task]
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode in (0, 1), proc.stderr
    report = json.loads(proc.stdout)
    assert report["schema"] == "sourced.report/1"
    answer_text = answer.read_text(encoding="utf8")
    claims = report["claims"]
    assert claims, "a real answer has at least one claim"
    assert report["counts"] == {v: sum(c["verdict"] == v for c in claims) for v in VERDICTS}
    # the gate: exit 1 exactly when a claim is contradicted
    assert proc.returncode == (1 if report["counts"]["contradicted"] else 0)
    by_id = {p.name: p for p in paths}
    assert [s["id"] for s in report["sources"]] == list(by_id)
    for c in claims:
        assert c["verdict"] in VERDICTS
        assert answer_text[c["start"] : c["end"]] == c["text"]
        assert isinstance(c["reason"], str) and c["reason"]
        assert 0.0 <= c["support"] <= 1.0
        if c["verdict"] != "unverified":
            assert c["evidence"], c
        for e in c["evidence"]:
            assert e["source"] in by_id, e["source"]
            assert e["text"].strip()
            path = by_id[e["source"]]
            if path.suffix == ".json":
                # offsets refer to the linearised record, as the CLI loads it
                linear = load_source_file(str(path))["text"]
                assert linear[e["start"] : e["end"]] == e["text"]
            else:
                assert path.read_text(encoding="utf8")[e["start"] : e["end"]] == e["text"]
    for s in report["skipped"]:
        assert answer_text[s["start"] : s["end"]] == s["text"]
        assert s["kind"]


@pytest.mark.parametrize("task", TASKS)
def test_check_text_marks_each_claim(runs, task):
    _, _, json_proc, proc = runs[task]
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode == json_proc.returncode
    claims = json.loads(json_proc.stdout)["claims"]
    lines = proc.stdout.splitlines()
    claim_lines = [ln for ln in lines if re.match(r"^[✔✘?] (grounded|contradicted|unverified)\b", ln)]
    assert len(claim_lines) == len(claims), proc.stdout
    for line, c in zip(claim_lines, claims):
        assert line.startswith(f"{MARKS[c['verdict']]} {c['verdict']}")
        first_words = " ".join(c["text"].split()[:3])
        assert first_words in " ".join(line.split())


@pytest.mark.parametrize("task", TASKS)
def test_labelled_hallucinations_are_not_grounded(runs, task):
    """A claim that holds a span RAGTruth's annotators marked as a hallucination is never
    ``grounded`` (a false grounded is the worst error)."""
    answer, _, proc, _ = runs[task]
    response, _ = RECORDS[task]
    text = answer.read_text(encoding="utf8")
    claims = json.loads(proc.stdout)["claims"]
    for label in response["labels"]:
        assert text[label["start"] : label["end"]] == label["text"]
        holding = [c for c in claims if c["start"] < label["end"] and label["start"] < c["end"]]
        assert holding, f"the labelled span {label['text']!r} is in no claim"
        for c in holding:
            assert c["verdict"] != "grounded", (label["label_type"], label["text"], c["text"])


def _hours(value: str) -> str:
    """``"9:0-14:0"`` -> ``"9:00 to 14:00"``."""
    a, b = value.split("-")
    fmt = lambda hm: "{}:{:02d}".format(*map(int, hm.split(":")))  # noqa: E731
    return f"{fmt(a)} to {fmt(b)}"


def test_structured_source_claims(tmp_path):
    """Hand-written claims about the Data2txt business record, checked against its ``.json``:
    two stated fields are grounded (evidence in the linearised record), and RAGTruth's labelled
    conflict (Monday's hours given as another day's) is contradicted."""
    _, source = RECORDS["Data2txt"]
    info = source["source_info"]
    hours = info["hours"]
    other = next(day for day in ("Tuesday", "Wednesday", "Thursday", "Friday") if hours[day] != hours["Monday"])
    claims = [
        (f"The address of {info['name']} is {info['address']}.", "grounded"),
        (f"On Sunday, {info['name']} is open from {_hours(hours['Sunday'])}.", "grounded"),
        (f"On Monday, {info['name']} is open from {_hours(hours[other])}.", "contradicted"),
    ]
    answer = tmp_path / "answer.txt"
    answer.write_text("\n".join(c for c, _ in claims) + "\n", encoding="utf8")
    business = tmp_path / "business.json"
    business.write_text(json.dumps(info, ensure_ascii=False), encoding="utf8")
    proc = run_check(answer, [business], "json")
    assert "Traceback" not in proc.stderr, proc.stderr
    report = json.loads(proc.stdout)
    got = [(c["text"], c["verdict"]) for c in report["claims"]]
    assert got == claims, [
        (c["text"], c["verdict"], c["reason"], [e["text"] for e in c["evidence"]]) for c in report["claims"]
    ]
    assert proc.returncode == 1
    linear = load_source_file(str(business))["text"]
    for c in report["claims"]:
        assert c["evidence"]
        for e in c["evidence"]:
            assert e["source"] == "business.json"
            assert e["text"].strip()
            assert linear[e["start"] : e["end"]] == e["text"]
