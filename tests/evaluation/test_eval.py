"""``sourced eval`` end to end, through the real entry point in this process, on the bundled
example system (examples/eval/: a deterministic callable over a corpus with conflicting documents and two
unanswerable cases), with the scorecard checked against figures counted by hand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import invoke_cli_proc

ROOT = Path(__file__).resolve().parents[2]
EVAL = ROOT / "examples" / "eval"
CASES = EVAL / "cases.jsonl"


def sourced(*args, cwd=ROOT, timeout=None):
    """``sourced ARGS`` in this process (:func:`conftest.invoke_cli`, usable from the
    module-scoped fixture); the result as a completed process."""
    return invoke_cli_proc(*args, cwd=cwd)


def ok(proc, code=0):
    assert proc.returncode == code, (proc.returncode, proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr
    return proc


@pytest.fixture(scope="module")
def example(tmp_path_factory):
    """The example system run, scored (with prices and an audit log), and its eager variant."""
    d = tmp_path_factory.mktemp("eval")
    ok(sourced("eval", "run", CASES, "--target", "examples.eval.system:answer", "-o", d / "run.jsonl"))
    ok(
        sourced(
            "eval",
            "run",
            CASES,
            "--target",
            "examples.eval.system:answer_eager",
            "-o",
            d / "eager.jsonl",
            "--concurrency",
            "4",
        )
    )
    ok(
        sourced(
            "eval",
            "score",
            d / "run.jsonl",
            "--prices",
            EVAL / "prices.json",
            "-o",
            d / "card.json",
            "--markdown",
            d / "card.md",
            "--audit",
            d / "audit.jsonl",
            "--format",
            "json",
        )
    )
    ok(sourced("eval", "score", d / "eager.jsonl", "-o", d / "eager.json"))
    return d


def test_run_captures_every_case_in_order(example):
    rows = [json.loads(line) for line in (example / "run.jsonl").read_text().splitlines()]
    assert [r["case"]["id"] for r in rows] == [
        "revenue",
        "record-revenue",
        "leave",
        "kettle-capacity",
        "delivery",
        "returns",
        "ceo",
        "warranty-quote",
    ]
    assert all(r["schema"] == "sourced.run/1" and r["error"] is None for r in rows)
    by_id = {r["case"]["id"]: r["output"] for r in rows}
    assert by_id["kettle-capacity"]["abstained"] and by_id["ceo"]["abstained"]
    assert by_id["revenue"]["answer"] == (
        "Northwind Traders reported revenue of $4.2 billion for 2023 [annual-report-2023]."
    )


def test_scorecard_matches_hand_count(example):
    card = json.loads((example / "card.json").read_text())
    o = card["overall"]
    # 8 cases; "kettle-capacity" (shares 2 words with the question) and "ceo" abstain.
    assert (o["cases"], o["answered"], o["abstained"], o["errors"]) == (8, 6, 2, 0)
    # one claim per answer: revenue, leave, warranty-quote grounded; record-revenue ($4.6bn from
    # the press draft, cited to the annual report's $4.2bn) and delivery (canned "2 business
    # days" against "3 to 5") contradicted; returns (canned "60 days") unverified.
    assert (o["claims"], o["grounded"], o["contradicted"], o["unverified"]) == (6, 3, 2, 1)
    assert o["grounded_share"] == 0.5
    assert (o["fabricated_numbers"], o["fabricated_quotes"]) == (1, 0)  # the 60 of "returns"
    # all 6 claims cite; only revenue and leave cite a source that grounds them. The warranty
    # quote is real but attributed to shipping-policy: misattributed, and the claim "elsewhere".
    assert (o["cited_claims"], o["correctly_cited"], o["citation_accuracy"]) == (6, 2, 0.3333)
    assert o["misattributed"] == 1
    assert (o["must_cite_cases"], o["must_cite_met"]) == (5, 3)  # leave, warranty-quote miss theirs
    assert (o["abstention_accuracy"], o["answered_unanswerable"], o["abstained_answerable"]) == (0.75, 1, 1)
    # latencies 180 180 210 180 5 5 180 170: sorted, rank 4 of 8 is 180, rank ceil(7.6) = 8 is 210
    assert (o["latency_p50_ms"], o["latency_p95_ms"]) == (180.0, 210.0)
    # question words + source words; answer words
    assert (o["input_tokens"], o["output_tokens"]) == (420, 77)
    assert o["cost"] == pytest.approx(420 * 0.15e-6 + 77 * 0.60e-6) and o["currency"] == "USD"
    cases = {c["id"]: c for c in card["cases"]}
    assert cases["warranty-quote"]["verdicts"][0]["citation_status"] == "elsewhere"
    assert cases["leave"]["must_cite"]["missing"] == ["hr-memo-2024"]
    assert cases["returns"]["abstention"] == "answered-unanswerable"
    assert cases["kettle-capacity"]["abstention"] == "abstained-answerable"


def test_rescoring_is_reproducible_and_baseline_is_current(example):
    card = json.loads((example / "card.json").read_text())
    base = json.loads((EVAL / "baseline.json").read_text())
    assert card["overall"] == base["overall"]
    assert [c["verdicts"] for c in card["cases"]] == [c["verdicts"] for c in base["cases"]]


def test_no_prices_no_cost(example):
    o = json.loads((example / "eager.json").read_text())["overall"]
    assert o["cost"] is None and o["currency"] is None
    assert o["input_tokens"] is not None


def test_markdown_scorecard(example):
    md = (example / "card.md").read_text()
    assert "| grounded share | 50.0% |" in md
    assert "| citation accuracy (source-scoped) | 33.3% |" in md
    assert "| returns | answered (answered-unanswerable) | 0/1 | 0% | 0 | 1 | 0/1 | 5 |  |" in md


def test_gate_passes_against_itself_and_fails_on_the_eager_variant(example):
    passed = ok(sourced("eval", "gate", example / "card.json", "--baseline", EVAL / "baseline.json"))
    assert passed.stdout.startswith("gate passed: 11 metrics held")
    failed = ok(sourced("eval", "gate", example / "eager.json", "--baseline", example / "card.json"), 1)
    assert failed.stdout.splitlines() == ["fell: answered_unanswerable 1 -> 2 (+1, allowed 0)"]
    allowed = ok(
        sourced(
            "eval",
            "gate",
            example / "eager.json",
            "--baseline",
            example / "card.json",
            "--max-drop",
            "answered_unanswerable=1",
        )
    )
    assert "gate passed" in allowed.stdout


def test_diff_lists_the_cases_whose_verdicts_changed(example):
    proc = ok(sourced("eval", "diff", example / "card.json", example / "eager.json", "--exit-code"), 1)
    assert proc.stdout.splitlines() == [
        "kettle-capacity: abstained -> answered",
        "  absent -> grounded: The Aurora kettle holds 1.7 litres [product-faq].",
        "ceo: abstained -> answered",
        "  absent -> grounded: Northwind Traders reported revenue of $4.2 billion for 2023 [annual-report-2023].",
    ]
    same = ok(sourced("eval", "diff", example / "card.json", EVAL / "baseline.json", "--exit-code"))
    assert same.stdout == ""


def test_score_audit_log_is_intact_then_tampering_is_caught(example, tmp_path):
    log = example / "audit.jsonl"
    assert ok(sourced("audit", "verify", log)).stderr == ""
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert len(records) == 6 and [r["seq"] for r in records] == [1, 2, 3, 4, 5, 6]
    assert records[0]["prev"] is None and records[1]["prev"] == records[0]["hash"]
    assert records[1]["id"] == "record-revenue" and records[1]["claims"][0]["verdict"] == "contradicted"
    assert "rule" in records[1]["claims"][0] and records[1]["schema"] == "sourced.audit/1"
    lines = log.read_text().splitlines()
    edited = tmp_path / "edited.jsonl"
    edited.write_text("\n".join(lines[:1] + [lines[1].replace('"contradicted"', '"grounded"')] + lines[2:]) + "\n")
    proc = ok(sourced("audit", "verify", edited), 1)
    assert "record 2 (line 2)" in proc.stderr and "edited" in proc.stderr
    dropped = tmp_path / "dropped.jsonl"
    dropped.write_text("\n".join(lines[:2] + lines[3:]) + "\n")
    assert "record 3 (line 3)" in ok(sourced("audit", "verify", dropped), 1).stderr
    missing = ok(sourced("audit", "verify", tmp_path / "nope.jsonl"), 2)
    assert missing.stderr.startswith("error: audit log not found")


def test_targets_of_every_shape_raise_and_time_out(tmp_path):
    cases = tmp_path / "cases.jsonl"
    src = [{"id": "hr-memo", "text": "From 2024, employees receive 27 days of paid leave per year."}]
    qs = ["shape str", "shape dict", "shape object", "raise", "bad shape", "sleep"]
    cases.write_text(
        "".join(
            json.dumps({"id": q.replace(" ", "-"), "question": q, "sources": src, "expect": {"answerable": True}})
            + "\n"
            for q in qs
        )
    )
    run = tmp_path / "run.jsonl"
    ok(
        sourced(
            "eval",
            "run",
            cases,
            "--target",
            ROOT / "tests" / "eval_targets.py:dispatch",
            "-o",
            run,
            "--timeout",
            "2",
            "--concurrency",
            "2",
            timeout=100,
        )
    )
    rows = {json.loads(line)["case"]["id"]: json.loads(line) for line in run.read_text().splitlines()}
    text = src[0]["text"]
    assert rows["shape-str"]["output"]["answer"] == text[:-1] + " [hr-memo]."
    d = rows["shape-dict"]["output"]
    assert (d["answer"], d["citations"], d["usage"], d["latency_ms"]) == (
        text,
        [{"source": "hr-memo", "quote": text}],
        {"input_tokens": 20, "output_tokens": 5},
        42.0,
    )
    o = rows["shape-object"]["output"]
    assert (o["answer"], o["contexts"], o["usage"]) == (
        text,
        [{"id": "ctx0", "text": text}],
        {"input_tokens": 11, "output_tokens": 4},
    )
    assert rows["raise"]["output"] is None
    assert rows["raise"]["error"] == "RuntimeError: the model backend is down"
    assert rows["bad-shape"]["error"].startswith("TypeError: the target returned int")
    assert rows["sleep"]["error"] == "timed out after 2 s"
    card = tmp_path / "card.json"
    ok(sourced("eval", "score", run, "-o", card, "--format", "json"))
    c = {e["id"]: e for e in json.loads(card.read_text())["cases"]}
    assert c["shape-str"]["grounded"] == 1 and c["shape-str"]["correctly_cited"] == 1
    assert c["shape-dict"]["grounded"] == 1 and c["shape-dict"]["cited_claims"] == 1
    assert c["shape-object"]["verdicts"][0]["verdict"] == "grounded"
    assert json.loads(card.read_text())["overall"]["errors"] == 3


@pytest.mark.parametrize(
    "args, message",
    [
        (["eval", "run", "{cases}", "--target", "examples.eval.system", "-o", "{out}"], "expected MODULE:CALLABLE"),
        (["eval", "run", "{cases}", "--target", "no_such_module_x:f", "-o", "{out}"], "cannot import no_such_module_x"),
        (
            ["eval", "run", "{missing}", "--target", "examples.eval.system:answer", "-o", "{out}"],
            "cases file not found",
        ),
        (["eval", "run", "{cases}", "--target", "examples.eval.system:answer", "-o", "{nodir}"], "does not exist"),
        (
            ["eval", "run", "{cases}", "--target", "examples.eval.system:answer", "-o", "{cases}"],
            "refusing to overwrite",
        ),
        (["eval", "score", "{cases}"], "line 1: not a run record"),
        (["eval", "score", "{cases}", "-o", "{out}", "--markdown", "{cases}"], "error: --markdown "),
        (["eval", "score", "{cases}", "-o", "{out}", "--markdown", "{out}"], "is the --output"),
        (["eval", "score", "{cases}", "--markdown", "{nodir}"], "error: --markdown "),
        (["eval", "gate", "{cases}", "--baseline", "{cases}"], "malformed JSON"),
        (["eval", "gate", "{base}", "--baseline", "{base}", "--max-drop", "speed=3"], "unknown metric 'speed'"),
    ],
)
def test_bad_input_exits_2_with_one_line(tmp_path, args, message):
    values = {
        "cases": CASES,
        "out": tmp_path / "o.jsonl",
        "missing": tmp_path / "none.jsonl",
        "base": EVAL / "baseline.json",
        "nodir": tmp_path / "no" / "run.jsonl",
    }
    proc = ok(sourced(*[a.format(**values) for a in args]), 2)
    assert message in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


def test_the_score_table_is_whole_when_stdout_is_no_terminal(example, run_cli):
    """``sourced eval score run.jsonl | cat`` at the default 80 columns: no case id, header or
    outcome cut to ``reven…`` (cli-trial N3-66)."""
    code, out, err = run_cli("eval", "score", example / "run.jsonl", env={"COLUMNS": None})
    assert code == 0, err
    assert "…" not in out, out
    rows = [json.loads(line) for line in (example / "run.jsonl").read_text().splitlines()]
    for case_id in (r["case"]["id"] for r in rows):
        assert case_id in out, (case_id, out)
    assert "abstained (abstained-answerable)" in out and "contradicted" in out  # outcomes and headers whole
