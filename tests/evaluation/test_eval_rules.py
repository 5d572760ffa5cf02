"""The rules of ``sourced eval`` and the audit chain, table-driven on hand-written records
(no model): the adapter, abstention, percentiles, the gate, the diff, the cases file, the chain."""

from __future__ import annotations

import json
import re
from types import SimpleNamespace

import pytest

from sourced_nlp.evaluation import audit
from sourced_nlp.evaluation.adapter import is_abstention, normalize
from sourced_nlp.evaluation.cases import parse_case
from sourced_nlp.evaluation.diff import diff_scorecards
from sourced_nlp.evaluation.gate import parse_max_drop, regressions
from sourced_nlp.evaluation.run import load_target, run_case
from sourced_nlp.evaluation.score import percentile
from sourced_nlp.text.sources import SourceError


@pytest.mark.parametrize(
    "value, answer, contexts, citations, usage, latency, abstained",
    [
        ("Paris.", "Paris.", [], [], {}, 7.0, False),
        ({"output": "Paris.", "latency_ms": 3}, "Paris.", [], [], {}, 3.0, False),
        (
            {"answer": "Paris.", "contexts": ["a", {"source": "s2", "page_content": "b"}]},
            "Paris.",
            [{"id": "ctx0", "text": "a"}, {"id": "s2", "text": "b"}],
            [],
            {},
            7.0,
            False,
        ),
        (
            {"answer": "x", "citations": ["s1", {"id": "s2", "quote": "q"}]},
            "x",
            [],
            [{"source": "s1"}, {"source": "s2", "quote": "q"}],
            {},
            7.0,
            False,
        ),
        (
            {"answer": "x", "usage": {"prompt_tokens": 10, "completion_tokens": 2}},
            "x",
            [],
            [],
            {"input_tokens": 10, "output_tokens": 2},
            7.0,
            False,
        ),
        ({"answer": "x", "usage": {"input_tokens": 5}}, "x", [], [], {"input_tokens": 5}, 7.0, False),
        (
            SimpleNamespace(answer="x", usage=SimpleNamespace(input_tokens=1, output_tokens=2)),
            "x",
            [],
            [],
            {"input_tokens": 1, "output_tokens": 2},
            7.0,
            False,
        ),
        ({"answer": None}, None, [], [], {}, 7.0, True),
        ({"answer": "Paris.", "abstained": True}, "Paris.", [], [], {}, 7.0, True),
        ("I don't know.", "I don't know.", [], [], {}, 7.0, True),
    ],
)
def test_normalize(value, answer, contexts, citations, usage, latency, abstained):
    out = normalize(value, 7.0)
    assert (out.answer, out.contexts, out.citations, out.usage, out.latency_ms, out.abstained) == (
        answer,
        contexts,
        citations,
        usage,
        latency,
        abstained,
    )


@pytest.mark.parametrize(
    "value, message",
    [
        (None, "returned NoneType"),
        (42, "returned int"),
        ({"answer": 3}, "'answer' must be a string"),
        ({"answer": "x", "contexts": "text"}, "'contexts' must be a list"),
        ({"answer": "x", "contexts": [{"id": "a"}]}, "contexts[0] has no text"),
        ({"answer": "x", "citations": [{"quote": "q"}]}, "citations[0] names no source"),
    ],
)
def test_normalize_refuses(value, message):
    with pytest.raises(TypeError, match=re.escape(message)):
        normalize(value, 1.0)


@pytest.mark.parametrize(
    "answer, abstained",
    [
        ("", True),
        ("   ", True),
        ("I cannot answer this from the sources.", True),
        ("I don\u2019t know.", True),
        ("Not enough information to say.", True),
        ("Revenue was $4.2 billion.", False),
        ("Revenue was $4.2 billion; " + "the rest of the report is long " * 5 + "and I don't know the margin.", False),
    ],
)
def test_is_abstention(answer, abstained):
    assert is_abstention(answer) is abstained


@pytest.mark.parametrize(
    "values, p, expected",
    [
        ([], 50, None),
        ([3.0], 95, 3.0),
        ([1, 2, 3, 4], 50, 2),
        ([1, 2, 3, 4], 95, 4),
        ([5, 5, 170, 180, 180, 180, 180, 210], 50, 180),
        (list(range(1, 21)), 95, 19),
        ([9, 1], 0, 1),
    ],
)
def test_percentile_nearest_rank(values, p, expected):
    assert percentile(values, p) == expected


@pytest.mark.parametrize(
    "now, base, drops, lines",
    [
        ({"grounded_share": 0.5}, {"grounded_share": 0.5}, [], []),
        ({"grounded_share": 0.4}, {"grounded_share": 0.5}, [], ["fell: grounded_share 0.5 -> 0.4 (-0.1, allowed 0)"]),
        ({"grounded_share": 0.48}, {"grounded_share": 0.5}, ["0.05"], []),
        ({"contradicted": 3}, {"contradicted": 2}, [], ["fell: contradicted 2 -> 3 (+1, allowed 0)"]),
        ({"contradicted": 1}, {"contradicted": 2}, [], []),
        ({"citation_accuracy": None}, {"citation_accuracy": 0.5}, [], ["fell: citation_accuracy 0.5 -> none"]),
        ({"citation_accuracy": 0.2}, {"citation_accuracy": None}, [], []),
        ({"latency_p95_ms": 900.0}, {"latency_p95_ms": 200.0}, [], []),
        (
            {"latency_p95_ms": 900.0},
            {"latency_p95_ms": 200.0},
            ["latency-p95-ms=100"],
            ["fell: latency_p95_ms 200 -> 900 (+700, allowed 100)"],
        ),
    ],
)
def test_regressions(now, base, drops, lines):
    assert regressions(now, base, parse_max_drop(drops))[0] == lines


@pytest.mark.parametrize(
    "item, message", [("x", "expected METRIC=AMOUNT"), ("-1", ">= 0"), ("speed=1", "unknown metric 'speed'")]
)
def test_parse_max_drop_refuses(item, message):
    with pytest.raises(ValueError, match=message):
        parse_max_drop([item])


def _card(*cases):
    return {
        "cases": [{"id": i, "outcome": o, "verdicts": [{"text": t, "verdict": v} for t, v in vs]} for i, o, vs in cases]
    }


def test_diff_matches_claims_by_text():
    a = _card(
        ("q1", "answered", [("A.", "grounded"), ("B.", "grounded")]),
        ("q2", "abstained", []),
        ("q3", "answered", [("C.", "grounded")]),
    )
    b = _card(
        ("q1", "answered", [("A.", "grounded"), ("B.", "contradicted")]), ("q2", "abstained", []), ("q4", "error", [])
    )
    assert diff_scorecards(a, b) == [
        {
            "id": "q1",
            "outcome": ["answered", "answered"],
            "claims": [{"text": "B.", "before": "grounded", "after": "contradicted"}],
        },
        {"id": "q3", "outcome": ["answered", None], "claims": []},
        {"id": "q4", "outcome": [None, "error"], "claims": []},
    ]


@pytest.mark.parametrize(
    "case, message",
    [
        ([], "a case must be a JSON object"),
        ({"question": "q", "sources": ["s"], "expect": {"answerable": True}}, "'id'"),
        ({"id": "a", "question": " ", "sources": ["s"], "expect": {"answerable": True}}, "'question'"),
        ({"id": "a", "question": "q", "sources": "s", "expect": {"answerable": True}}, "'sources' must be a list"),
        ({"id": "a", "question": "q", "sources": ["s"]}, "'expect' must be an object"),
        ({"id": "a", "question": "q", "sources": ["s"], "expect": {"answerable": "yes"}}, "true or false"),
        (
            {"id": "a", "question": "q", "sources": ["s"], "expect": {"answerable": True, "must_cite": ["9"]}},
            "names '9', which is not a source id",
        ),
    ],
)
def test_parse_case_refuses(case, message):
    with pytest.raises(SourceError, match=re.escape(message)):
        parse_case(case)


def test_run_case_question_only_target_and_measured_latency():
    case = parse_case({"id": "a", "question": "What?", "sources": ["s"], "expect": {"answerable": False}})
    rec = run_case(load_target("tests.eval_targets:question_only"), case, "t")
    assert rec["output"]["answer"] == "I don't know." and rec["output"]["abstained"] is True
    assert rec["output"]["latency_ms"] >= 0 and rec["error"] is None


def _chain(tmp_path, n=3):
    log = tmp_path / "audit.jsonl"
    audit.append(str(log), [{"schema": audit.SCHEMA, "claims": [{"verdict": "grounded"}], "id": i} for i in range(n)])
    return log


def test_chain_intact(tmp_path):
    log = _chain(tmp_path)
    code, message = audit.verify(str(log))
    recs = [json.loads(x) for x in log.read_text().splitlines()]
    assert code == 0 and message == f"intact: 3 records, last hash {recs[-1]['hash']}"
    audit.append(str(log), [{"schema": audit.SCHEMA, "id": 3}])  # appending continues the chain
    assert audit.verify(str(log))[0] == 0
    assert json.loads(log.read_text().splitlines()[-1])["prev"] == recs[-1]["hash"]


@pytest.mark.parametrize(
    "tamper, expected",
    [
        (
            lambda ls: [ls[0], ls[1].replace("grounded", "contradicted"), ls[2]],
            "record 2 (line 2): its hash does not match",
        ),
        (lambda ls: [ls[0], ls[2]], "record 2 (line 2): seq is 3, expected 2"),
        (lambda ls: [ls[1], ls[0], ls[2]], "record 1 (line 1): seq is 2, expected 1"),
        (lambda ls: [ls[0], ls[1], "{not json"], "record 3 (line 3): not JSON"),
        (
            lambda ls: [ls[0], ls[1], ls[2].replace("sourced.audit/1", "sourced.audit/9")],
            "record 3 (line 3): unknown schema",
        ),
    ],
)
def test_chain_broken(tmp_path, tamper, expected):
    log = _chain(tmp_path)
    log.write_text("\n".join(tamper(log.read_text().splitlines())) + "\n")
    code, message = audit.verify(str(log))
    assert code == 1 and message.startswith(expected)


def test_edit_with_recomputed_hash_breaks_the_next_link(tmp_path):
    log = _chain(tmp_path)
    recs = [json.loads(x) for x in log.read_text().splitlines()]
    recs[0]["claims"][0]["verdict"] = "contradicted"
    recs[0]["hash"] = audit.record_hash(recs[0])
    log.write_text("".join(json.dumps(r) + "\n" for r in recs))
    assert audit.verify(str(log)) == (
        1,
        "record 2 (line 2): prev does not match the hash of the record before it (a record was removed or moved)",
    )


def test_a_cut_tail_is_seen_through_the_head_file(tmp_path):
    """Records removed from the end leave a chain that still links; the head file every append
    rewrites says where it ended (cli-trial N3-63)."""
    log = _chain(tmp_path, n=6)
    head = json.loads((tmp_path / "audit.jsonl.head").read_text())
    lines = log.read_text().splitlines()
    assert head == {"schema": audit.HEAD_SCHEMA, "seq": 6, "hash": json.loads(lines[-1])["hash"]}
    log.write_text("\n".join(lines[:-2]) + "\n")  # head -n -2
    assert audit.verify(str(log)) == (
        1,
        f"the log ends at record 4, but {log}.head says it ends at record 6 "
        f"(hash {head['hash']}): the last 2 record(s) were removed",
    )
    log.write_text("\n".join(lines) + "\n")
    assert audit.verify(str(log))[0] == 0
    extra = dict(json.loads(lines[-1]), seq=7, prev=head["hash"])
    extra["hash"] = audit.record_hash(extra)
    log.write_text("\n".join(lines) + "\n" + json.dumps(extra) + "\n")  # appended by hand, head not updated
    code, message = audit.verify(str(log))
    assert code == 1 and "the log has 7 records, but" in message and "says it ends at record 6" in message


def test_a_cut_tail_is_seen_through_a_hash_kept_elsewhere(tmp_path):
    log = _chain(tmp_path, n=3)
    lines = log.read_text().splitlines()
    kept = json.loads(lines[1])["hash"]  # the last hash at some point, kept in a CI log
    (tmp_path / "audit.jsonl.head").unlink()  # cut too
    assert audit.verify(str(log), expect_head=kept)[0] == 0  # extended since: fine
    code, message = audit.verify(str(log))
    assert code == 0 and message.endswith(
        "(no head file " + str(log) + ".head: records cut off the end would not "
        "be seen; give a last hash kept elsewhere as --expect-head)"
    )
    log.write_text(lines[0] + "\n")
    assert audit.verify(str(log), expect_head=kept) == (
        1,
        f"no record has the expected hash {kept}: records were removed from the end (or the log was "
        "rewritten) since that hash was kept",
    )


def test_audit_verify_command_reports_a_cut_tail(tmp_path, run_cli):
    log = _chain(tmp_path, n=3)
    lines = log.read_text().splitlines()
    log.write_text("\n".join(lines[:-1]) + "\n")
    code, out, err = run_cli("audit", "verify", "audit.jsonl", cwd=tmp_path)
    assert code == 1 and err.startswith("broken: audit.jsonl: the log ends at record 2, but audit.jsonl.head"), err
    (tmp_path / "audit.jsonl.head").unlink()
    code, out, err = run_cli(
        "audit", "verify", "audit.jsonl", "--expect-head", json.loads(lines[-1])["hash"], cwd=tmp_path
    )
    assert code == 1 and "no record has the expected hash" in err, err


def test_unreadable_logs(tmp_path):
    (tmp_path / "empty.jsonl").write_text("\n")
    (tmp_path / "bin.jsonl").write_bytes(b"\xff\xfe")
    for name, message in [
        ("none.jsonl", "audit log not found"),
        ("empty.jsonl", "no records"),
        ("bin.jsonl", "not UTF-8"),
    ]:
        with pytest.raises(audit.AuditError, match=message):
            audit.verify(str(tmp_path / name))
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{oops\n")
    with pytest.raises(audit.AuditError, match="its last record is malformed"):
        audit.append(str(bad), [{"schema": audit.SCHEMA}])
