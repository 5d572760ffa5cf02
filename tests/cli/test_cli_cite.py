"""`sourced cite`, `sourced fields` and the severity / score / coverage gates, through real argv
(the real entry point, in this process: ``run_cli``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

SOURCES = {
    "a.txt": "Revenue rose 8% in 2023, the annual report said.",
    "b.txt": "Revenue rose 12% in 2023.",
}


@pytest.fixture
def run(run_cli):
    """``run(*args, stdin=None, cwd=None) -> (code, stdout, stderr)``: ``sourced ARGS`` in this
    process (:func:`conftest.run_cli`)."""

    def call(*args, stdin: str | None = None, cwd=None):
        return run_cli(*args, input=stdin, cwd=cwd)

    return call


@pytest.fixture
def srcs(tmp_path):
    for name, text in SOURCES.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path


def answer_file(tmp_path, text, name="answer.txt"):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def test_cite_passes_and_reports_json(run, srcs):
    ans = answer_file(srcs, 'Revenue rose 12% in 2023 [2]. Revenue rose 8% [S1: "Revenue rose 8% in 2023"].')
    code, out, err = run("cite", ans, srcs / "a.txt", srcs / "b.txt", "--format", "json")
    assert code == 0, err
    d = json.loads(out)
    assert d["schema"] == "sourced.report/1"
    assert d["findings"] == [] and d["score"] == 100 and d["coverage"] == 1.0
    assert [c["citations"][0]["status"] for c in d["claims"]] == ["resolved", "exact"]
    assert d["claims"][0]["evidence"][0]["source"] == "b.txt"


def test_cite_misattributed_fails_on_medium_not_high(run, srcs):
    ans = answer_file(srcs, 'Revenue rose 12% in 2023 [S1: "Revenue rose 12%"].')
    code, out, err = run("cite", ans, srcs / "a.txt", srcs / "b.txt")
    assert code == 1, err
    assert "misattributed" not in err and "gate: " in err and "broken-citation" in err
    assert "medium broken-citation claim 1" in out
    assert "score 0/100" in out
    # the cited source contradicts it: a high finding too
    code, _, err = run("cite", ans, srcs / "a.txt", srcs / "b.txt", "--fail-on", "high")
    assert code == 1 and "contradiction" in err


def test_cite_uncited_is_medium(run, srcs):
    ans = answer_file(srcs, "Revenue rose 12% in 2023.")
    code, _, err = run("cite", ans, srcs / "a.txt", srcs / "b.txt")
    assert code == 1 and "uncited" in err
    code, _, err = run("cite", ans, srcs / "a.txt", srcs / "b.txt", "--fail-on", "high")
    assert code == 0, err


def test_cite_marker_naming_a_source_file_is_no_number(run, tmp_path):
    # the source file is named 2023-report: its id, cited as [2023-report], is never the year 2023
    (tmp_path / "2023-report").write_text("Contoso's revenue was $2.4 billion.\n", encoding="utf-8")
    ans = answer_file(tmp_path, "Contoso's revenue was $2.4 billion [2023-report].\n", name="a.txt")
    code, out, err = run("cite", "a.txt", "2023-report", "--format", "json", cwd=tmp_path)
    assert code == 0, out + err
    d = json.loads(out)
    assert d["findings"] == [] and d["claims"][0]["verdict"] == "grounded"
    assert d["claims"][0]["citations"][0]["sources"] == ["2023-report"]
    assert ans.exists()


def test_check_severity_score_and_coverage_gates(run, srcs):
    ans = answer_file(srcs, "Revenue rose 12% in 2023. Acme plans a new office in Dublin.")
    base = ["check", ans, srcs / "b.txt"]
    assert run(*base)[0] == 0  # default: contradicted only
    assert run(*base, "--fail-on", "high")[0] == 0  # no high finding
    code, _, err = run(*base, "--fail-on", "medium")  # the Dublin claim is unsupported
    assert code == 1 and "unsupported-claim" in err
    code, _, err = run(*base, "--fail-under", "60")
    assert code == 1 and "score 50 < 60" in err
    assert run(*base, "--fail-under", "50")[0] == 0
    code, _, err = run(*base, "--min-coverage", "0.5")
    assert code == 1 and "coverage 0% < 50%" in err


def test_json_input_from_stdin_with_answer_key(run, srcs):
    record = {
        "answer": "Revenue rose 12% in 2023 [1].",
        "sources": [{"id": "q3", "text": SOURCES["a.txt"]}, {"id": "q4", "text": SOURCES["b.txt"]}],
    }
    code, out, err = run("cite", "--json-input", "-", "--format", "markdown", stdin=json.dumps(record))
    assert code == 1, err
    assert "| grounded | contradicted | unverified | skipped | score | citation coverage | high | medium | low |" in out
    assert "| 0 | 1 | 0 | 0 | 0/100 | 0% | 1 | 1 | 0 |" in out
    assert "| high | contradiction | 1 |" in out
    code, out, err = run("check", "--json-input", "-", "--format", "json", stdin=json.dumps(record))
    assert code == 1 and json.loads(out)["claims"][0]["verdict"] == "contradicted"


def test_cite_json_reply(run, srcs):
    reply = {
        "claims": [
            {
                "text": "Revenue rose 12% in 2023.",
                "citations": [{"source": "b.txt", "quote": "Revenue rose 12% in 2023"}],
            }
        ]
    }
    ans = answer_file(srcs, json.dumps(reply), name="reply.json")
    code, out, err = run("cite", ans, srcs / "a.txt", srcs / "b.txt", "--format", "json")
    assert code == 0, err
    claim = json.loads(out)["claims"][0]
    assert claim["verdict"] == "grounded" and claim["citations"][0]["status"] == "exact"


def test_fields_command(run, srcs):
    fields = {
        "growth": {"value": "12%", "citations": [{"source": "a.txt", "quote": "Revenue rose 8% in 2023"}]},
        "year": {"value": 2023, "citations": [{"source": "b.txt"}]},
    }
    f = answer_file(srcs, json.dumps(fields), name="fields.json")
    code, out, err = run("fields", f, srcs / "a.txt", srcs / "b.txt", "--format", "json")
    assert code == 1, err
    d = json.loads(out)
    assert [(x["field"], x["status"]) for x in d["fields"]] == [("growth", "elsewhere"), ("year", "found")]
    assert [x["kind"] for x in d["findings"]] == ["broken-citation"]
    assert run("fields", f, srcs / "a.txt", srcs / "b.txt", "--fail-on", "high")[0] == 0
    code, out, _ = run("fields", f, srcs / "a.txt", srcs / "b.txt")
    assert "elsewhere" in out and "growth" in out
    # one of the two values is in its cited passage: coverage 50%
    assert run("fields", f, srcs / "a.txt", srcs / "b.txt", "--fail-on", "high", "--min-coverage", "0.5")[0] == 0
    code, _, err = run("fields", f, srcs / "a.txt", srcs / "b.txt", "--fail-on", "high", "--min-coverage", "60")
    assert code == 1 and "gate: citation coverage 50% < 60%" in err


@pytest.mark.parametrize(
    "args, needle",
    [
        (["cite", "{a}"], "no SOURCE"),
        (["fields", "{bad}", "{a}"], "malformed JSON"),
        (["cite", "{ans}", "{a}", "--fail-on", "critical"], "critical"),
        (["check", "{ans}", "{a}", "--min-coverage", "250"], "min-coverage"),
    ],
)
def test_usage_errors_exit_2(run, srcs, args, needle):
    bad = answer_file(srcs, "{not json", name="bad.json")
    ans = answer_file(srcs, "Revenue rose 8%.")
    argv = [a.format(a=srcs / "a.txt", bad=bad, ans=ans) for a in args]
    code, _, err = run(*argv)
    assert code == 2, err
    assert "Traceback" not in err and needle in err


@pytest.mark.parametrize(
    "reply",
    [
        # cut off mid-string: read as prose it would be "grounded" sentences of JSON syntax
        '{"claims": [{"text": "Revenue rose 8% in 2023.", "citations": [{"source": "a.txt"}]}, {"text": "Revenue rose 12%',
        '{"claims": "Revenue rose 8% in 2023."}',
        '[{"text": 5}]',
    ],
)
def test_cite_refuses_a_malformed_json_reply(run, srcs, reply):
    ans = answer_file(srcs, reply, name="reply.json")
    code, out, err = run("cite", ans, srcs / "a.txt")
    assert code == 2, (out, err)
    assert err.startswith("error: ") and str(ans) in err and "JSON claims reply" in err
    assert "Traceback" not in err and out == ""


def test_docs_worked_example_prints_what_the_page_shows(run, tmp_path):
    """The `sourced cite` worked example of docs/citations.md, its files built from the page itself,
    prints exactly the block the page shows (a wrapped citation quote prints on one line)."""
    page = (Path(__file__).resolve().parents[2] / "docs" / "citations.md").read_text(encoding="utf-8")
    head = "$ sourced cite answer.txt q3.txt offices.txt\n"
    start = page.index(head) + len(head)
    shown = page[start : page.index("```", start)]
    opening = "and this answer:\n\n```\n"
    a = page.index(opening) + len(opening)
    answer = page[a : page.index("```", a)]
    (tmp_path / "q3.txt").write_text("Contoso revenue rose 8% to $2.4 billion in 2023.", encoding="utf-8")
    (tmp_path / "offices.txt").write_text("Contoso opened offices in Lisbon and Oslo.", encoding="utf-8")
    (tmp_path / "answer.txt").write_text(answer, encoding="utf-8")
    assert '[S1: "opened offices\nin Lisbon' in answer  # the page wraps inside the quote
    code, out, _ = run("cite", "answer.txt", "q3.txt", "offices.txt", cwd=tmp_path)
    assert code == 1
    assert out == shown
