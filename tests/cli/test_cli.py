"""The ``sourced`` command line on real files, run in this process through its real entry point
(``sourced_nlp.cli.main``, the ``run_cli`` fixture): the process itself is tested elsewhere.

Input errors must exit 2 with one ``error: ...`` line on stderr and no traceback. Tests that
need the real verifier run on the bundled example; the CLI logic itself (formats, gate, batch
order and errors) is also exercised with a stand-in ``check`` so it does not depend on the model.
"""

import json
import os
from pathlib import Path

import pytest

import sourced_nlp

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
ANSWER = EXAMPLES / "answer.txt"
SOURCE = EXAMPLES / "source.txt"

needs_check = pytest.mark.skipif(not hasattr(sourced_nlp, "check"), reason="sourced_nlp.check is not available yet")


# A stand-in verifier: one claim per answer, verdict from a keyword in the answer.
def _fake_check(answer, sources, nlp=None):
    from sourced_nlp.report import ClaimResult, Evidence, Report, Skipped
    from sourced_nlp.text.sources import normalize_sources

    srcs = normalize_sources(sources)
    text = answer.strip()
    if "BOOM" in text:
        raise ValueError("cannot check this record")
    verdict = "contradicted" if "WRONG" in text else "unverified" if "MAYBE" in text else "grounded"
    ev = [Evidence(srcs[0]["id"], 0, min(5, len(srcs[0]["text"])), srcs[0]["text"][:5])]
    differs = [{"claim": "40%", "source": "8%", "kind": "quantity"}] if verdict == "contradicted" else []
    return Report(
        answer=answer,
        claims=[
            ClaimResult(
                text, 0, len(text), verdict, reason="stand-in [b]x[/b]", support=0.5, evidence=ev, differs=differs
            )
        ],
        skipped=[Skipped("Hi.", 0, 3, "greeting")],
        sources=[{"id": s["id"], "chars": len(s["text"])} for s in srcs],
    )


def _fake_check_many(records, nlp=None, n_process=1, on_error="raise"):
    out = []
    for answer, sources in records:
        try:
            out.append(_fake_check(answer, sources, nlp=nlp))
        except ValueError as err:
            if on_error == "raise":
                raise
            out.append(err)
    return out


@pytest.fixture
def run(run_cli, monkeypatch):
    """``run(*args, stdin=None, fake=None, env=None) -> (code, stdout, stderr)``: the command line
    in this process (:func:`conftest.run_cli`); ``fake`` ("one" or "many") swaps in the stand-in
    verifier for that call (the command line checks through ``sourced_nlp.api``): "one" has no
    ``check_many``, so batch checks record by record; "many" has both."""
    import sourced_nlp.api as api

    def call(*args, stdin: str | bytes | None = None, fake: str | None = None, env=None):
        with monkeypatch.context() as mp:
            if fake:
                for where in (sourced_nlp, api):  # the package first: its lazy names resolve through api
                    mp.setattr(where, "check", _fake_check)
                    mp.setattr(where, "check_many", _fake_check_many if fake == "many" else None)
            return run_cli(*args, input=stdin, env=env)

    return call


def assert_input_error(code, err, *needles):
    assert code == 2, err
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("error: ")
    for needle in needles:
        assert needle in lines[0], lines[0]


@pytest.fixture
def files(tmp_path):
    answer = tmp_path / "answer.txt"
    answer.write_text("Revenue rose 8%.", encoding="utf-8")
    source = tmp_path / "source.txt"
    source.write_text("Revenue rose 8% to $2.4 billion.", encoding="utf-8")
    return tmp_path, answer, source


# ------------------------------------------------------------ input and usage errors (exit 2)


def test_version(run):
    code, out, err = run("--version")
    assert code == 0
    assert out.strip() == f"sourced {sourced_nlp.__version__}"


def test_help_lists_commands(run):
    code, out, _ = run("--help")
    assert code == 0
    assert "check" in out and "batch" in out


def test_missing_answer_file(run, files):
    tmp, _, source = files
    code, _, err = run("check", tmp / "nope.txt", source)
    assert_input_error(code, err, "answer file not found", "nope.txt")


def test_answer_text_is_not_taken_literally(run, files):
    _, _, source = files
    code, _, err = run("check", "Revenue rose 8%.", source)
    assert_input_error(code, err, "not found")


def test_missing_source_file(run, files):
    tmp, answer, _ = files
    code, _, err = run("check", answer, tmp / "missing.txt")
    assert_input_error(code, err, "source file not found", "missing.txt")


def test_empty_source(run, files):
    tmp, answer, _ = files
    empty = tmp / "empty.txt"
    empty.write_text("  \n", encoding="utf-8")
    code, _, err = run("check", answer, empty)
    assert_input_error(code, err, "empty", "empty.txt")


def test_non_utf8_source(run, files):
    tmp, answer, _ = files
    bad = tmp / "bad.txt"
    bad.write_bytes(b"\xff\xfe\x00bad")
    code, _, err = run("check", answer, bad)
    assert_input_error(code, err, "not UTF-8", "bad.txt")


def test_non_utf8_answer(run, files):
    tmp, _, source = files
    bad = tmp / "bad-answer.txt"
    bad.write_bytes(b"\xff\xfe\x00bad")
    code, _, err = run("check", bad, source)
    assert_input_error(code, err, "not UTF-8")


def test_malformed_json_source(run, files):
    tmp, answer, _ = files
    bad = tmp / "bad.json"
    bad.write_text('{"name": "Joe",\n "hours": }', encoding="utf-8")
    code, _, err = run("check", answer, bad)
    assert_input_error(code, err, "malformed JSON", "bad.json", "line 2")


def test_source_is_directory(run, files):
    tmp, answer, _ = files
    code, _, err = run("check", answer, tmp)
    assert_input_error(code, err, "directory")


def test_no_source_given(run, files):
    _, answer, _ = files
    code, _, err = run("check", answer)
    assert_input_error(code, err, "no SOURCE")


def test_no_answer_given(run):
    code, _, err = run("check")
    assert_input_error(code, err, "ANSWER")


def test_empty_stdin_answer(run, files):
    _, _, source = files
    code, _, err = run("check", "-", source, stdin="")
    assert_input_error(code, err, "empty")


@pytest.mark.parametrize(
    "args,needle",
    [
        (["--format", "xml"], "--format"),
        (["--fail-on", "grounded"], "--fail-on"),
        (["--bogus"], "--bogus"),
    ],
)
def test_bad_option(run, files, args, needle):
    _, answer, source = files
    code, _, err = run("check", answer, source, *args)
    assert_input_error(code, err, needle)


def test_unknown_command(run):
    code, _, err = run("frobnicate")
    assert_input_error(code, err, "frobnicate")


def test_no_arguments_is_usage_error(run):
    code, _, err = run()
    assert code == 2
    assert "Traceback" not in err and "check" in err


# ------------------------------------------------------------ check with a stand-in verifier


@pytest.mark.parametrize(
    "answer_text,fail_on,expected",
    [
        ("Revenue rose 8%.", "contradicted", 0),
        ("MAYBE revenue rose.", "contradicted", 0),
        ("MAYBE revenue rose.", "unverified", 1),
        ("Revenue rose WRONG.", "contradicted", 1),
        ("Revenue rose WRONG.", "unverified", 1),
    ],
)
def test_check_gate_exit_codes(run, files, answer_text, fail_on, expected):
    _, answer, source = files
    answer.write_text(answer_text, encoding="utf-8")
    code, out, err = run("check", answer, source, "--fail-on", fail_on, "--format", "json", fake="one")
    assert code == expected, err
    assert json.loads(out)["schema"] == "sourced.report/1"


def test_check_formats(run, files):
    _, answer, source = files
    answer.write_text("Revenue rose WRONG.", encoding="utf-8")
    code, out, err = run("check", answer, source, fake="one")
    assert code == 1, err
    assert "✘" in out and "contradicted" in out
    assert "claim 40% ≠ source 8%" in out
    assert "source.txt" in out and "0–5" in out
    assert "skipped (greeting)" in out
    assert "\x1b[" not in out  # NO_COLOR / not a terminal: no escape codes, marks kept

    code, out, _ = run("check", answer, source, "--format", "markdown", fake="one")
    assert code == 1
    assert "| grounded | contradicted | unverified | skipped |" in out
    assert "`source.txt:0-5`" in out

    code, out1, _ = run("check", answer, source, "--format", "json", fake="one")
    code2, out2, _ = run("check", answer, source, "--format", "json", fake="one")
    assert out1 == out2
    assert json.loads(out1)["counts"] == {"grounded": 0, "contradicted": 1, "unverified": 0}


def test_text_output_escapes_markup(run, files):
    _, answer, source = files
    answer.write_text("MAYBE [bold]not markup[/bold].", encoding="utf-8")
    code, out, err = run("check", answer, source, fake="one")
    assert code == 0, err
    assert "[bold]not markup[/bold]" in out
    assert "stand-in [b]x[/b]" in out


def test_check_answer_from_stdin(run, files):
    _, _, source = files
    code, out, err = run("check", "-", source, "--format", "json", stdin="Revenue rose 8%.", fake="one")
    assert code == 0, err
    assert json.loads(out)["claims"][0]["text"] == "Revenue rose 8%."


def test_check_json_source(run, files):
    tmp, answer, _ = files
    src = tmp / "biz.json"
    src.write_text(json.dumps({"name": "Joe's", "hours": {"Monday": "9:0-17:0"}}), encoding="utf-8")
    code, out, err = run("check", answer, src, "--format", "json", fake="one")
    assert code == 0, err
    report = json.loads(out)
    assert report["sources"] == [{"id": "biz.json", "chars": len("name: Joe's.\nhours Monday: 9:0-17:0.")}]


def test_same_basename_sources_get_distinct_ids(run, files):
    tmp, answer, _ = files
    (tmp / "a").mkdir()
    (tmp / "b").mkdir()
    (tmp / "a" / "s.txt").write_text("One.", encoding="utf-8")
    (tmp / "b" / "s.txt").write_text("Two.", encoding="utf-8")
    code, out, err = run("check", answer, tmp / "a" / "s.txt", tmp / "b" / "s.txt", "--format", "json", fake="one")
    assert code == 0, err
    ids = [s["id"] for s in json.loads(out)["sources"]]
    assert len(set(ids)) == 2


def test_json_input_record_and_report(run, files):
    tmp, _, _ = files
    rec = tmp / "rec.json"
    rec.write_text(json.dumps({"output": "Revenue rose WRONG.", "sources": ["Revenue rose 8%."]}), encoding="utf-8")
    code, out, err = run("check", "--json-input", rec, "--format", "json", fake="one")
    assert code == 1, err
    saved = tmp / "report.json"
    saved.write_text(out, encoding="utf-8")
    # a saved report is rendered and gated again, without checking
    code, out2, err = run("check", "--json-input", saved, "--format", "json")
    assert code == 1, err
    assert out2 == out
    code, out3, _ = run("check", "--json-input", saved, "--format", "markdown")
    assert code == 1 and "| ✘ | contradicted |" in out3


@pytest.mark.parametrize(
    "content,needle",
    [
        ('{"schema": "sourced.report/9"}', "schema"),
        ('{"output": 3, "sources": ["x"]}', "'output' must be a string"),
        ('{"output": "x", "sources": []}', "no sources"),
        ("{oops", "malformed JSON"),
        ('{"sources": ["x"]}', "missing 'answer' (or 'output')"),
        ('{"output": "x"}', "missing 'sources'"),
        ('{"output": "x", "sources": [null]}', "source 0 is null"),
        ("[1, 2]", "expected a JSON object"),
        ('{"output": "A \\ud800 b", "sources": ["x"]}', "unpaired surrogate escape \\ud800"),
    ],
)
def test_json_input_errors(run, files, content, needle):
    """Every error in a --json-input file names the file."""
    tmp, _, _ = files
    bad = tmp / "in.json"
    bad.write_text(content, encoding="utf-8")
    code, _, err = run("check", "--json-input", bad, fake="one")
    assert_input_error(code, err, f"{bad}: ", needle)


def test_json_input_with_answer_is_usage_error(run, files):
    tmp, answer, source = files
    code, _, err = run("check", answer, source, "--json-input", answer)
    assert_input_error(code, err, "not both")


# ------------------------------------------------------------ batch


def write_batch(tmp: Path, lines: list) -> Path:
    path = tmp / "batch.jsonl"
    with path.open("wb") as fh:
        for line in lines:
            if isinstance(line, bytes):
                fh.write(line + b"\n")
            elif isinstance(line, str):
                fh.write(line.encode("utf-8") + b"\n")
            else:
                fh.write(json.dumps(line).encode("utf-8") + b"\n")
    return path


@pytest.mark.parametrize("mode", ["one", "many"])
def test_batch_malformed_line_keeps_order(run, tmp_path, mode):
    path = write_batch(
        tmp_path,
        [
            {"id": "a", "output": "Revenue rose 8%.", "sources": ["Revenue rose 8%."]},
            '{"id": "b", "output": ',  # line 2: malformed JSON
            {"id": "c", "output": "It rose WRONG.", "sources": [{"id": "s", "text": "It rose 8%."}]},
            "",  # line 4: blank, not a record
            {"id": "d", "output": "x", "sources": []},  # line 5: no sources
            b"\xff\xfe\x00bad",  # line 6: not UTF-8
            {"output": "MAYBE.", "sources": [{"k": "v"}]},  # line 7: structured source, no id
            '{"id": "e", "output": "A \\ud800", "sources": ["x"]}',  # line 8: no character of text
        ],
    )
    code, out, err = run("batch", path, fake=mode)
    assert code == 2, err
    assert "Traceback" not in err
    rows = [json.loads(line) for line in out.splitlines()]
    assert [r["line"] for r in rows] == [1, 2, 3, 5, 6, 7, 8]
    assert [r.get("id") for r in rows] == ["a", None, "c", "d", None, None, "e"]
    assert "unpaired surrogate escape \\ud800" in rows[6]["error"]
    assert rows[0]["report"]["counts"]["grounded"] == 1
    assert "error" in rows[1] and "malformed JSON" in rows[1]["error"]
    assert rows[2]["report"]["counts"]["contradicted"] == 1
    assert "no sources" in rows[3]["error"]
    assert "UTF-8" in rows[4]["error"]
    assert rows[5]["report"]["schema"] == "sourced.report/1"
    for n in (2, 5, 6, 8):
        assert f"line {n}:" in err
    assert "4 malformed" in err


@pytest.mark.parametrize("mode", ["one", "many"])
def test_batch_gate(run, tmp_path, mode):
    good = {"output": "Revenue rose 8%.", "sources": ["Revenue rose 8%."]}
    maybe = {"output": "MAYBE.", "sources": ["Revenue rose 8%."]}
    wrong = {"output": "WRONG.", "sources": ["Revenue rose 8%."]}
    assert run("batch", write_batch(tmp_path, [good, maybe]), fake=mode)[0] == 0
    assert run("batch", write_batch(tmp_path, [good, maybe]), "--fail-on", "unverified", fake=mode)[0] == 1
    assert run("batch", write_batch(tmp_path, [good, wrong]), fake=mode)[0] == 1


def test_batch_record_the_verifier_rejects(run, tmp_path):
    path = write_batch(
        tmp_path,
        [
            {"output": "fine.", "sources": ["x."]},
            {"output": "BOOM.", "sources": ["x."]},
            {"output": "fine too.", "sources": ["x."]},
        ],
    )
    for mode in ("one", "many"):
        code, out, err = run("batch", path, fake=mode)
        assert code == 2, err
        rows = [json.loads(line) for line in out.splitlines()]
        assert [("report" in r, "error" in r) for r in rows] == [(True, False), (False, True), (True, False)]
        assert "line 2:" in err and "cannot check" in err


def test_batch_output_file_and_text(run, tmp_path):
    path = write_batch(tmp_path, [{"id": 1, "output": "WRONG.", "sources": ["x."]}, "[1, 2]"])
    out_path = tmp_path / "out.jsonl"
    code, out, err = run("batch", path, "-o", out_path, fake="one")
    assert code == 2
    assert out == ""
    rows = [json.loads(line) for line in out_path.read_text(encoding="utf-8").splitlines()]
    assert [r["line"] for r in rows] == [1, 2]
    assert "expected a JSON object" in rows[1]["error"]

    code, out, err = run("batch", path, "--format", "text", fake="one")
    assert code == 2
    assert "line 1 (id 1)" in out and "✘" in out
    assert "line 2: error:" in out


@pytest.mark.parametrize(
    "content,needle",
    [(b"", "no records"), (b"\n\n", "no records")],
)
def test_batch_file_errors(run, tmp_path, content, needle):
    path = tmp_path / "b.jsonl"
    path.write_bytes(content)
    code, _, err = run("batch", path, fake="one")
    assert_input_error(code, err, needle)


def test_batch_missing_file(run, tmp_path):
    code, _, err = run("batch", tmp_path / "nope.jsonl")
    assert_input_error(code, err, "not found")


# ------------------------------------------------------------ the real verifier on the example


@needs_check
def test_example_report_shape(run):
    code, out, err = run("check", ANSWER, SOURCE, "--format", "json")
    assert code in (0, 1), err
    assert "Traceback" not in err
    report = json.loads(out)
    assert report["schema"] == "sourced.report/1"
    assert report["sources"] == [{"id": "source.txt", "chars": len(SOURCE.read_text(encoding="utf-8"))}]
    assert any(s["kind"] == "preamble" for s in report["skipped"])
    answer = ANSWER.read_text(encoding="utf-8")
    source = SOURCE.read_text(encoding="utf-8")
    for c in report["claims"]:
        assert answer[c["start"] : c["end"]] == c["text"]
        for e in c["evidence"]:
            assert source[e["start"] : e["end"]] == e["text"]
    assert code == (1 if report["counts"]["contradicted"] else 0)


@needs_check
def test_example_has_all_three_verdicts(run):
    """The bundled example: a grounded fact, a wrong revenue growth (12% vs 8%), a new fact."""
    code, out, err = run("check", ANSWER, SOURCE, "--format", "json")
    report = json.loads(out)
    verdicts = {c["text"]: c["verdict"] for c in report["claims"]}
    assert set(verdicts.values()) == {"grounded", "contradicted", "unverified"}, verdicts
    assert all(report["counts"][v] >= 1 for v in ("grounded", "contradicted", "unverified"))
    assert [t for t, v in verdicts.items() if v == "contradicted"] == ["Revenue rose 12% to $2.4 billion."]
    assert verdicts["The company plans to open a new data center in Dublin next year."] == "unverified"
    assert code == 1, err  # the gate fails on the contradiction
    code, _, _ = run("check", ANSWER, SOURCE, "--format", "json", "--fail-on", "unverified")
    assert code == 1


@needs_check
def test_example_text_and_markdown(run):
    code_json, out, _ = run("check", ANSWER, SOURCE, "--format", "json")
    report = json.loads(out)
    code, out, err = run("check", ANSWER, SOURCE)
    assert code == code_json, err
    marks = {"grounded": "✔", "contradicted": "✘", "unverified": "?"}
    for c in report["claims"]:
        assert f"{marks[c['verdict']]} {c['verdict']}" in out
    assert "skipped (preamble)" in out
    code, out, err = run("check", ANSWER, SOURCE, "--format", "markdown")
    assert code == code_json, err
    assert "| grounded | contradicted | unverified | skipped |" in out


@needs_check
def test_example_deterministic_and_stdin(run):
    code1, out1, _ = run("check", ANSWER, SOURCE, "--format", "json")
    code2, out2, _ = run("check", "-", SOURCE, "--format", "json", stdin=ANSWER.read_text(encoding="utf-8"))
    assert code1 == code2
    assert out1 == out2


@needs_check
def test_example_batch(run, tmp_path):
    answer = ANSWER.read_text(encoding="utf-8")
    source = SOURCE.read_text(encoding="utf-8")
    record = {"id": "ex", "output": answer, "sources": [{"id": "source.txt", "text": source}]}
    path = write_batch(tmp_path, [record, "nope", record])
    code, out, err = run("batch", path)
    assert code == 2
    assert "line 2:" in err
    rows = [json.loads(line) for line in out.splitlines()]
    assert [r["line"] for r in rows] == [1, 2, 3]
    assert rows[0]["id"] == "ex" and rows[0]["report"]["schema"] == "sourced.report/1"
    assert rows[0]["report"] == rows[2]["report"]
    assert "error" in rows[1]
    _, single, _ = run("check", ANSWER, SOURCE, "--format", "json")
    assert rows[0]["report"] == json.loads(single)


def test_deeply_nested_json_source_is_an_input_error(run, tmp_path):
    answer = tmp_path / "a.txt"
    answer.write_text("Revenue rose 8%.", encoding="utf8")
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100000 + "]" * 100000, encoding="utf8")
    code, _, err = run("check", answer, deep)
    assert code == 2
    assert "Traceback" not in err and "nested too deeply" in err


def test_binary_source_and_bad_gate_are_input_errors(run, tmp_path):
    answer = tmp_path / "a.txt"
    answer.write_text("Revenue rose 8%.", encoding="utf8")
    nuls = tmp_path / "nuls.txt"
    nuls.write_bytes(b"\x00" * 100)
    code, _, err = run("check", answer, nuls)
    assert code == 2 and "binary" in err
    out = tmp_path / "out.txt"
    code, _, err = run("check", answer, answer, "--fail-under", "nan", "-o", out)
    assert code == 2 and not out.exists()


# ------------------------------------------------------------ --output never overwrites an input


def _unchanged(*paths):
    """Snapshot of the files' bytes, to show that a refused run wrote nothing."""
    return {p: Path(p).read_bytes() for p in paths}


@pytest.mark.parametrize("command", ["check", "cite"])
@pytest.mark.parametrize("target", ["answer", "source", "dotted", "symlink", "hardlink"])
def test_output_that_is_an_input_is_refused(run, files, command, target):
    tmp, answer, source = files
    (tmp / "sub").mkdir()
    out = {
        "answer": answer,
        "source": source,
        "dotted": tmp / "sub" / ".." / "source.txt",  # another spelling of the source's path
        "symlink": tmp / "link.txt",
        "hardlink": tmp / "hard.txt",
    }[target]
    if target == "symlink":
        out.symlink_to(source)
    if target == "hardlink":
        os.link(source, out)
    before = _unchanged(answer, source)
    code, stdout, err = run(command, answer, source, "--format", "json", "-o", out, fake="one")
    what, named = ("answer file", answer) if target == "answer" else ("source file", source)
    assert_input_error(code, err, f"--output {out}", f"is the {what} {named}", "refusing to overwrite")
    assert stdout == ""
    assert _unchanged(answer, source) == before


def test_output_that_is_the_json_input_is_refused(run, files):
    tmp, _, _ = files
    rec = tmp / "rec.json"
    rec.write_text(json.dumps({"output": "Revenue rose 8%.", "sources": ["Revenue rose 8%."]}), encoding="utf-8")
    before = _unchanged(rec)
    code, _, err = run("check", "--json-input", rec, "-o", rec, fake="one")
    assert_input_error(code, err, f"is the JSON input file {rec}", "refusing to overwrite")
    assert _unchanged(rec) == before


def test_output_that_is_the_batch_file_is_refused(run, tmp_path):
    path = write_batch(tmp_path, [{"output": "Revenue rose 8%.", "sources": ["Revenue rose 8%."]}])
    before = _unchanged(path)
    code, _, err = run("batch", path, "-o", tmp_path / "." / path.name, fake="one")
    assert_input_error(code, err, f"is the batch file {path}", "refusing to overwrite")
    assert _unchanged(path) == before


REPLAY = ["--judge", "replay", "--judge-file", "ans.jsonl"]
WRITTEN = [  # (argv, the one error line's needles): every file a command writes is refused as an input
    (["calibrate", "gold.jsonl", "-o", "gold.jsonl"], ["--output gold.jsonl is the gold file gold.jsonl"]),
    (["calibrate", "gold.jsonl", "-o", "./sub/../gold.jsonl"], ["is the gold file gold.jsonl"]),
    (
        ["calibrate", "gold.jsonl", *REPLAY, "--record", "gold.jsonl", "-o", "c.json"],
        ["--record gold.jsonl is the gold file gold.jsonl", "refusing to write to it"],
    ),
    (
        ["calibrate", "gold.jsonl", *REPLAY, "--record", "link.jsonl", "-o", "c.json"],
        ["--record link.jsonl is the --judge-file"],
    ),
    (["calibrate", "gold.jsonl", *REPLAY, "-o", "ans.jsonl"], ["--output ans.jsonl is the --judge-file ans.jsonl"]),
    (
        ["calibrate", "gold.jsonl", *REPLAY, "--record", "new.jsonl", "-o", "./new.jsonl"],
        ["--record new.jsonl is the --output"],
    ),
    (
        ["check", "answer.txt", "source.txt", *REPLAY, "--judge-record", "ans.jsonl"],
        ["--judge-record ans.jsonl is the --judge-file ans.jsonl"],
    ),
    (
        ["cite", "answer.txt", "source.txt", *REPLAY, "--judge-record", "hard.jsonl"],
        ["--judge-record hard.jsonl is the --judge-file"],
    ),
    (
        ["batch", "batch.jsonl", *REPLAY, "--judge-record", "ans.jsonl", "-o", "r.jsonl"],
        ["--judge-record ans.jsonl is the --judge-file"],
    ),
    (["check", "answer.txt", "source.txt", *REPLAY, "--judge-record", "source.txt"], ["is the source file source.txt"]),
    (["cite", "answer.txt", "source.txt", *REPLAY, "--judge-record", "answer.txt"], ["is the answer file answer.txt"]),
    (
        ["batch", "batch.jsonl", *REPLAY, "--judge-record", "batch.jsonl"],
        ["--judge-record batch.jsonl is the batch file"],
    ),
    (
        ["check", "answer.txt", "source.txt", *REPLAY, "--judge-record", "./r.json", "-o", "r.json"],
        ["is the --output r.json"],
    ),
    (
        ["check", "answer.txt", "source.txt", *REPLAY, "-o", "ans.jsonl"],
        ["--output ans.jsonl is the --judge-file ans.jsonl"],
    ),
    (["batch", "batch.jsonl", *REPLAY, "-o", "link.jsonl"], ["--output link.jsonl is the --judge-file ans.jsonl"]),
    # the audit log is appended to: it is none of the inputs and none of the other files written
    (
        ["check", "answer.txt", "source.txt", "--audit", "source.txt"],
        ["--audit source.txt is the source file source.txt", "refusing to write to it"],
    ),
    (
        ["cite", "answer.txt", "source.txt", "--audit", "./answer.txt"],
        ["--audit ./answer.txt is the answer file answer.txt"],
    ),
    (
        ["check", "answer.txt", "source.txt", "-o", "r.json", "--audit", "./r.json"],
        ["--audit ./r.json is the --output r.json"],
    ),
    (
        ["check", "answer.txt", "source.txt", *REPLAY, "--audit", "hard.jsonl"],
        ["--audit hard.jsonl is the --judge-file ans.jsonl"],
    ),
    (
        ["check", "answer.txt", "source.txt", *REPLAY, "--judge-record", "j.jsonl", "--audit", "j.jsonl"],
        ["--audit j.jsonl is the --judge-record j.jsonl"],
    ),
    (["batch", "batch.jsonl", "--audit", "batch.jsonl"], ["--audit batch.jsonl is the batch file batch.jsonl"]),
    (["batch", "batch.jsonl", "-o", "r.jsonl", "--audit", "r.jsonl"], ["--audit r.jsonl is the --output r.jsonl"]),
    (
        ["eval", "fixtures", "batch.jsonl", "--audit", "batch.jsonl"],
        ["--audit batch.jsonl is the input batch.jsonl", "refusing to write to it"],
    ),
    (["eval", "score", "ans.jsonl", "--audit", "link.jsonl"], ["--audit link.jsonl is the input ans.jsonl"]),
    (
        ["eval", "score", "ans.jsonl", "-o", "sc.json", "--audit", "./sc.json"],
        ["--audit ./sc.json is the --output sc.json"],
    ),
    (
        ["eval", "score", "ans.jsonl", "--markdown", "sc.md", "--audit", "sc.md"],
        ["--audit sc.md is the --markdown sc.md"],
    ),
]


@pytest.mark.parametrize("argv, needles", WRITTEN, ids=[" ".join(a) for a, _ in WRITTEN])
def test_written_file_that_is_an_input_is_refused(run, files, monkeypatch, argv, needles):
    """-o, --judge-record, --audit and calibrate's --record are refused when they are an input (the gold,
    answer, source or batch file, the replayed --judge-file, through a symlink, a hard link or a
    ./ path) or each other; nothing is read or written."""
    tmp, _, _ = files
    (tmp / "sub").mkdir()
    (tmp / "gold.jsonl").write_text(
        json.dumps(
            {"claim": "Revenue rose 8%.", "sources": [{"id": "s", "text": "Revenue rose 8%."}], "label": "grounded"}
        )
        + "\n",
        encoding="utf-8",
    )
    (tmp / "ans.jsonl").write_text('{"claim": "x"}\n', encoding="utf-8")
    (tmp / "link.jsonl").symlink_to(tmp / "ans.jsonl")
    os.link(tmp / "ans.jsonl", tmp / "hard.jsonl")
    write_batch(tmp, [{"output": "Revenue rose 8%.", "sources": ["Revenue rose 8%."]}])
    before = {p.name: p.read_bytes() for p in tmp.iterdir() if p.is_file()}
    monkeypatch.chdir(tmp)
    code, stdout, err = run(*argv)
    assert_input_error(code, err, *needles)
    assert stdout == ""
    assert {p.name: p.read_bytes() for p in tmp.iterdir() if p.is_file()} == before


def test_output_beside_the_inputs_is_written(run, files):
    tmp, answer, source = files
    out = tmp / "report.json"
    code, stdout, err = run("check", answer, source, "--format", "json", "-o", out, fake="one")
    assert code == 0, err
    assert stdout == ""
    assert json.loads(out.read_text(encoding="utf-8"))["schema"] == "sourced.report/1"


@pytest.mark.parametrize("command", ["check", "batch"])
def test_output_that_cannot_be_written_is_refused_before_checking(run, files, command):
    tmp, answer, source = files
    args = [answer, source] if command == "check" else [write_batch(tmp, [{"output": "x.", "sources": ["y."]}])]
    code, _, err = run(command, *args, "-o", tmp, fake="one")
    assert_input_error(code, err, f"--output {tmp} is a directory")
    code, _, err = run(command, *args, "-o", tmp / "nowhere" / "r.json", fake="one")
    assert_input_error(code, err, f"its directory {tmp / 'nowhere'} does not exist")
    assert not (tmp / "nowhere").exists()


# ------------------------------------------------------------ every input error names its file


@pytest.mark.parametrize(
    "content,needles",
    [
        ('{"schema": "sourced.report/9"}', ["unsupported report schema"]),
        ('{"schema": "sourced.report/1", "claims": [{"text": "x"}]}', ["malformed report"]),
        ('{"schema": "sourced.report/1", "sources": [[1]]}', ["malformed report"]),
    ],
)
def test_bad_saved_report_names_the_file(run, files, content, needles):
    tmp, _, _ = files
    bad = tmp / "saved.json"
    bad.write_text(content, encoding="utf-8")
    for command in ("check", "cite"):
        code, _, err = run(command, "--json-input", bad)
        assert_input_error(code, err, f"{bad}: ", *needles)


@pytest.mark.parametrize(
    "setup,needles",
    [
        ("missing", ["JSON input file not found", "in.json"]),
        ("directory", ["JSON input is a directory", "in.json"]),
        ("latin1", ["JSON input file", "in.json", "not UTF-8"]),
        ("empty", ["JSON input file is empty", "in.json"]),
    ],
)
def test_unreadable_json_input_names_the_file(run, files, setup, needles):
    tmp, _, _ = files
    path = tmp / "in.json"
    if setup == "directory":
        path.mkdir()
    elif setup == "latin1":
        path.write_bytes(b'{"output": "caf\xe9"}')
    elif setup == "empty":
        path.write_text(" \n", encoding="utf-8")
    code, _, err = run("check", "--json-input", path, fake="one")
    assert_input_error(code, err, *needles)


def test_json_input_on_stdin_is_named_as_such(run):
    code, _, err = run("check", "--json-input", "-", stdin='{"output": ', fake="one")
    assert_input_error(code, err, "malformed JSON in standard input", "line 1")
    code, _, err = run("check", "--json-input", "-", stdin="  ", fake="one")
    assert_input_error(code, err, "JSON input on standard input is empty")


def test_answer_given_as_a_directory_names_it(run, files):
    tmp, _, source = files
    (tmp / "answers").mkdir()
    code, _, err = run("check", tmp / "answers", source)
    assert_input_error(code, err, "answer is a directory", "answers")


def test_sources_with_one_id_name_both_files(run, files):
    tmp, answer, source = files
    named = tmp / "named.json"
    named.write_text(json.dumps({"id": "source.txt", "text": "Costs fell."}), encoding="utf-8")
    code, _, err = run("check", answer, source, named, fake="one")
    assert_input_error(code, err, f"source files {source} and {named} have the same id 'source.txt'")
    code, _, err = run("check", answer, source, source, fake="one")
    assert_input_error(code, err, f"source file {source} is given twice")


def test_fields_of_no_usable_shape_name_the_file(run, files):
    tmp, _, source = files
    bad = tmp / "fields.json"
    bad.write_text('"just a string"', encoding="utf-8")
    code, _, err = run("fields", bad, source)
    assert_input_error(code, err, f"{bad}: fields must be")
    code, _, err = run("fields", "-", source, stdin="[1,")
    assert_input_error(code, err, "malformed JSON in standard input")


def test_batch_errors_name_the_file_and_line(run, tmp_path):
    path = write_batch(tmp_path, [{"output": "Revenue rose 8%.", "sources": ["Revenue rose 8%."]}, '{"output": 1}'])
    code, _, err = run("batch", path, fake="one")
    assert code == 2
    assert f"error: {path}: line 2: 'output' must be a string" in err
    (tmp_path / "dir.jsonl").mkdir()
    code, _, err = run("batch", tmp_path / "dir.jsonl")
    assert_input_error(code, err, "batch file is a directory", "dir.jsonl")


def test_batch_on_stdin_is_named_as_such(run):
    code, out, err = run("batch", "-", stdin='{"output": "x.", "sources": ["y."]}\n{"output": \n', fake="one")
    assert code == 2
    assert "error: standard input: line 2: malformed JSON" in err
    assert [json.loads(line)["line"] for line in out.splitlines()] == [1, 2]
    code, _, err = run("batch", "-", stdin="\n\n", fake="one")
    assert_input_error(code, err, "no records on standard input")


def test_output_dash_is_standard_output(run, files):
    tmp, answer, source = files
    code, out, err = run("check", answer, source, "-o", "-", "--format", "json")
    assert code in (0, 1), err
    assert json.loads(out)["schema"] == "sourced.report/1"
    assert not (tmp / "-").exists() and not Path("-").exists()


def test_an_answer_with_no_claim_fails_a_score_gate(run, tmp_path, files):
    _, _, source = files
    answer = tmp_path / "preamble.txt"
    answer.write_text("Here is the summary:", encoding="utf-8")
    code, out, err = run("check", answer, source, "--fail-under", "80")
    assert code == 1, (out, err)
    assert "gate: no score (no claim to check)" in err
    code, out, err = run("check", answer, source)
    assert code == 0, (out, err)  # no claim, nothing contradicted: the default gate passes


def test_fields_offers_no_html(run, tmp_path, files):
    _, _, source = files
    fields = tmp_path / "fields.json"
    fields.write_text('{"revenue": {"value": "8%", "citations": [{"source": "source.txt"}]}}', encoding="utf-8")
    code, out, err = run("fields", fields, source, "-f", "html")
    assert code == 2 and "Traceback" not in err and "html" in err


# ------------------------------------------------------------ a new user's bad inputs

HUGE = "Contoso rose. " * 150_000  # 2,100,000 characters: more than spaCy's nlp.max_length
BIG = "Contoso rose. " * 715_000  # 10,010,000 characters: more than a source may have (parsed in parts below that)


@pytest.mark.parametrize("which", ["answer", "source"])
def test_text_longer_than_the_model_reads_names_the_file(run, files, which):
    tmp, answer, source = files
    huge = tmp / "huge.txt"
    huge.write_text(HUGE if which == "answer" else BIG, encoding="utf-8")
    args = [huge, source] if which == "answer" else [answer, huge]
    code, _, err = run("check", *args)
    if which == "answer":
        assert_input_error(
            code, err, f"{huge}: 2,100,000 characters, more than the 1,000,000 the language model reads at once"
        )
    else:
        assert_input_error(code, err, f"{huge}: 10,010,000 characters, more than the 10,000,000 a source may have")
    assert "E088" not in err


def test_batch_text_longer_than_the_model_reads_is_one_line_error(run, tmp_path):
    path = write_batch(
        tmp_path,
        [
            {"output": HUGE, "sources": ["Contoso rose."]},
            {"output": "Contoso rose.", "sources": ["Contoso rose."]},
            {"id": "x", "output": "Contoso rose.", "sources": [{"id": "big", "text": BIG}]},
        ],
    )
    code, out, err = run("batch", path)
    assert code == 2, err
    rows = [json.loads(line) for line in out.splitlines()]
    assert [("report" in r, r["line"]) for r in rows] == [(False, 1), (True, 2), (False, 3)]
    assert rows[0]["error"] == "answer: 2,100,000 characters, more than the 1,000,000 the language model reads at once"
    assert rows[2]["error"] == "source 'big': 10,010,000 characters, more than the 10,000,000 a source may have"
    assert "E088" not in err and "Traceback" not in err


@pytest.mark.parametrize(
    "content,needle",
    [
        ('{"schema": "sourced.report/1"}', "malformed report: the report has no 'claims'"),
        (
            '{"schema": "sourced.report/1", "sources": [], "claims": null, "skipped": []}',
            "malformed report: claims must be an array, got null",
        ),
        (
            '{"schema": "sourced.report/1", "sources": [], "skipped": [], "claims": [{"text": "x"}]}',
            "malformed report: claims[0] has no 'start'",
        ),
        (
            '{"schema": "sourced.report/1", "sources": [], "skipped": [], "claims": [{"text": "x", "start": 0, '
            '"end": 1, "verdict": "grounded", "evidence": [null]}]}',
            "malformed report: claims[0].evidence[0] must be an object, got null",
        ),
        (
            '{"schema": "sourced.report/1", "sources": [], "skipped": [], "claims": [{"text": "x", "start": "0", '
            '"end": 1, "verdict": "grounded"}]}',
            "malformed report: claims[0].start must be an integer, got string",
        ),
    ],
)
def test_saved_report_missing_or_mistyped_field_is_named(run, files, content, needle):
    tmp, _, _ = files
    bad = tmp / "r.json"
    bad.write_text(content, encoding="utf-8")
    code, out, err = run("check", "--json-input", bad, fake="one")
    assert_input_error(code, err, f"{bad}: {needle}")
    assert "KeyError" not in err and "TypeError" not in err and "no claims found" not in out


def test_json_input_source_with_id_but_no_text(run, files):
    tmp, _, _ = files
    rec = tmp / "rec.json"
    rec.write_text('{"output": "Contoso rose.", "sources": [{"id": "a"}]}', encoding="utf-8")
    code, _, err = run("check", "--json-input", rec, fake="one")
    assert_input_error(code, err, f"{rec}: source 'a' has an id but no text")


def test_batch_line_that_is_not_json_gets_the_json_module_message(run, tmp_path):
    path = tmp_path / "b.jsonl"
    path.write_text('not json\n{"output": "abc\n', encoding="utf-8")
    code, out, err = run("batch", path, fake="one")
    assert code == 2
    rows = [json.loads(line) for line in out.splitlines()]
    assert rows[0]["error"] == "malformed JSON: Expecting value at column 1"
    assert rows[1]["error"] == "malformed JSON: Unterminated string starting at column 12"
    assert "decoding" not in err and "Unmatched" not in err


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("command", ["check", "batch"])
def test_output_on_a_full_disk_names_the_file(run, files, command):
    tmp, answer, source = files
    args = [answer, source] if command == "check" else [write_batch(tmp, [{"output": "x.", "sources": ["y."]}])]
    code, _, err = run(command, *args, "-o", "/dev/full", fake="one")
    assert_input_error(code, err, "cannot write /dev/full: No space left on device")


@pytest.mark.parametrize(
    "content,needle",
    [
        ("{}", "no field to check"),
        ("[]", "no field to check"),
        ('{"a": null}', "field 'a' has a null value"),
        ('{"a": {"value": null}}', "field 'a' has a null value"),
    ],
)
def test_fields_with_nothing_to_check_is_an_input_error(run, files, content, needle):
    tmp, _, source = files
    path = tmp / "f.json"
    path.write_text(content, encoding="utf-8")
    code, out, err = run("fields", path, source)
    assert_input_error(code, err, f"{path}: {needle}")
    assert "score" not in out


def test_fields_fail_under_out_of_range(run, files):
    tmp, _, source = files
    path = tmp / "f.json"
    path.write_text('{"a": "8%"}', encoding="utf-8")
    code, _, err = run("fields", path, source, "--fail-under", "500")
    assert_input_error(code, err, "--fail-under must be a score in 0-100, got 500")


def _saved_report_with_rules(tmp_path) -> Path:
    """A saved report whose claims name their rules (one does not), as ``sourced check
    --format json`` writes it."""
    report = {
        "schema": "sourced.report/1",
        "answer": "Revenue rose 12%. Net income was $310 million. It has 5 offices.",
        "sources": [{"id": "q3.txt", "chars": 60}],
        "claims": [
            {
                "text": "Revenue rose 12%.",
                "start": 0,
                "end": 17,
                "verdict": "contradicted",
                "reason": "another value",
                "support": 0.1,
                "evidence": [{"source": "q3.txt", "start": 0, "end": 15, "text": "Revenue rose 8%"}],
                "differs": [{"claim": "12%", "source": "8%", "kind": "quantity"}],
                "citations": [],
                "rule": "contradicted.value",
            },
            {
                "text": "Net income was $310 million.",
                "start": 18,
                "end": 46,
                "verdict": "grounded",
                "reason": "all anchors found",
                "support": 0.9,
                "evidence": [{"source": "q3.txt", "start": 16, "end": 43, "text": "Net income was $310 million"}],
                "differs": [],
                "citations": [],
                "rule": "grounded.passage",
            },
            {
                "text": "It has 5 offices.",
                "start": 47,
                "end": 64,
                "verdict": "unverified",
                "reason": "no passage mentions offices",
                "support": 0.0,
                "evidence": [],
                "differs": [],
                "citations": [],
            },
        ],
        "skipped": [],
    }
    path = tmp_path / "saved.json"
    path.write_text(json.dumps(report), encoding="utf8")
    return path


def test_verbose_text_names_each_claims_rule(run, tmp_path):
    saved = _saved_report_with_rules(tmp_path)
    code, plain, err = run("check", "--json-input", saved)
    assert code == 1, err  # the contradiction fails the default gate
    assert "rule " not in plain  # the rule is shown only on request
    for flag in ("-v", "--verbose"):
        code, out, err = run("check", "--json-input", saved, flag)
        assert code == 1, err
        lines = out.splitlines()
        at = {
            name: next(i for i, line in enumerate(lines) if name in line)
            for name in ("Revenue rose 12%", "Net income", "It has 5 offices")
        }
        rules = [(i, line.strip()) for i, line in enumerate(lines) if line.strip().startswith("rule ")]
        # each rule line stands under its own claim, before the next one; the claim without one has none
        assert [r for _, r in rules] == ["rule contradicted.value", "rule grounded.passage"]
        assert at["Revenue rose 12%"] < rules[0][0] < at["Net income"] < rules[1][0] < at["It has 5 offices"]
    code, out, _ = run("check", "--json-input", saved, "--format", "json")
    assert [c.get("rule") for c in json.loads(out)["claims"]] == ["contradicted.value", "grounded.passage", None]


def test_a_saved_report_with_a_rule_that_is_no_string_is_an_input_error(run, tmp_path):
    saved = _saved_report_with_rules(tmp_path)
    report = json.loads(saved.read_text(encoding="utf8"))
    report["claims"][0]["rule"] = 7
    saved.write_text(json.dumps(report), encoding="utf8")
    code, out, err = run("check", "--json-input", saved)
    assert code == 2 and out == ""
    assert err.strip().endswith("malformed report: claims[0].rule must be a string, got number")
    assert "Traceback" not in err


def test_bundled_example_json_names_the_rule_of_every_claim(run):
    """``make run``'s example as JSON: every claim names the rule that decided it, a dotted name
    whose first part is the verdict, and the rule table of docs/rules.md lists each of them."""
    code, out, err = run("check", ANSWER, SOURCE, "--format", "json")
    assert code == 1, err  # the example has a contradicted claim
    claims = json.loads(out)["claims"]
    assert len(claims) == 5
    rules = [c["rule"] for c in claims]
    assert rules == [
        "grounded.fused",
        "contradicted.value",
        "grounded.passage",
        "unverified.missing",
        "grounded.passage",
    ], rules
    assert all(r.split(".")[0] == c["verdict"] for r, c in zip(rules, claims))
    table = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    for r in set(rules):
        assert f"| `{r}` |" in table, r


# ------------------------------------------------------------ --min-coverage: a share, or a percentage above 1

MIN_COVERAGE = [(0, 0.0), (0.9, 0.9), (1, 1.0), (1.5, 0.015), (90, 0.9), (100, 1.0)]


@pytest.mark.parametrize("value, share", MIN_COVERAGE)
def test_min_coverage_is_a_share_or_above_1_a_percentage(value, share):
    """The rule docs/citations.md and --help state: 0-1 is a share, above 1 (to 100) a percentage, so
    1 is all claims and 1.5 is 1.5%."""
    from sourced_nlp.report.findings import check_thresholds

    assert check_thresholds(None, value)[1] == pytest.approx(share)


def test_min_coverage_rule_is_stated_where_it_is_given():
    from sourced_nlp.cli import MIN_COVERAGE_HELP

    assert "1 is all, 1.5 is 1.5%" in MIN_COVERAGE_HELP
    page = " ".join((ROOT / "docs" / "citations.md").read_text(encoding="utf-8").split())
    assert "`1` means all claims, and `1.5` means 1.5%, not 150%" in page


def test_fields_without_citations_are_looked_up_in_the_sources(run_cli, tmp_path):
    """``sourced fields`` on an extractor's output with no citations: a value in no source is a
    high finding (exit 1 at --fail-on high), a value in a source is found (exit 0 there)
    (cli-trial N3-62)."""
    (tmp_path / "q3.txt").write_text("Contoso revenue rose 8% to $2.4 billion in 2023.", encoding="utf-8")
    (tmp_path / "f.json").write_text('{"revenue": "$2.6 billion"}', encoding="utf-8")
    (tmp_path / "g.json").write_text('{"revenue": "$2.4 billion"}', encoding="utf-8")
    code, out, err = run_cli("fields", "f.json", "q3.txt", "--fail-on", "high", cwd=tmp_path)
    assert code == 1 and "not-found" in out and "fabricated-number" in out, out + err
    code, out, err = run_cli("fields", "g.json", "q3.txt", "--fail-on", "high", cwd=tmp_path)
    assert code == 0 and "found" in out and "score 100/100" in out, out + err
    code, out, err = run_cli("fields", "g.json", "q3.txt", "-f", "json", cwd=tmp_path)
    assert code == 1 and json.loads(out)["fields"][0]["status"] == "found"  # the uncited finding is medium
