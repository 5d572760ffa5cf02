"""The judge tier on hand-written records: the quote check, reply parsing, the cache, the tier's
guarantees (never a rule's verdict overridden, never grounded without a verified quote), the
backends, and calibration's arithmetic."""

from __future__ import annotations

import json
import threading

import pytest
import spacy

import sourced_nlp
from sourced_nlp.evaluation.calibrate import metrics, overall, read_gold, table
from sourced_nlp.judges import (
    AnthropicJudge,
    CallableJudge,
    Candidate,
    JudgeInput,
    Judgment,
    JudgmentCache,
    ReplayJudge,
    apply_judge,
    ask,
    cache_key,
    load_prompt,
    parse_reply,
    settle,
)

SOURCES = {
    "q3.txt": "Contoso revenue rose 8% to $2.4 billion in 2023. The firm opened offices in Lisbon and Oslo.",
    "hr.txt": "Contoso employs 5,000 people. Its chief executive is Ana Ruiz.",
}


def _j(verdict="grounded", source="q3.txt", quote="opened offices in Lisbon and Oslo", reason="r", error=None):
    return Judgment(verdict=verdict, source=source, quote=quote, reason=reason, error=error)


# -- the quote check ------------------------------------------------------------------------
SETTLE_CASES = [
    # (judgment, expected verdict, words expected in the reason)
    (_j(), "grounded", "judge: r"),
    (_j(quote="OPENED offices in  Lisbon and Oslo"), "grounded", "judge: r"),  # normalised: case, spaces
    (_j(verdict="contradicted", quote="Contoso employs 5,000 people", source="hr.txt"), "contradicted", "judge: r"),
    (_j(quote="opened offices in Lisbon and Paris"), "unverified", "in no source"),  # made up (one word off)
    (_j(quote="Its chief executive is Ana Ruiz"), "unverified", "not in q3.txt (it is in hr.txt)"),  # wrong source
    (_j(source="notes.txt"), "unverified", "names no source of this check"),
    (_j(quote=""), "unverified", "no quote"),
    (_j(quote="Oslo"), "unverified", "fewer than 3"),
    (_j(verdict="unverified", source="", quote="", reason="not stated"), "unverified", "judge: not stated"),
    (Judgment.failed("the judge timed out"), "unverified", "the judge timed out"),
]


@pytest.mark.parametrize("judgment,verdict,why", SETTLE_CASES)
def test_settle(judgment, verdict, why):
    s = settle(judgment, SOURCES)
    assert s.verdict == verdict
    assert why in s.reason
    if verdict == "unverified":
        assert s.match is None
    else:
        text = SOURCES[s.match["source"]]
        assert text[s.match["start"] : s.match["end"]] == s.match["text"]
        assert s.match["text"].lower().split() == judgment.quote.lower().split()


# -- replies ----------------------------------------------------------------------------------
REPLY_CASES = [
    (
        '{"judgments": [{"claim": 1, "verdict": "grounded", "source": "a", "quote": "q w e", "reason": "r"}]}',
        [1],
        {1: ("grounded", None)},
    ),
    (
        '```json\n[{"claim": 1, "verdict": "contradicted", "source": "a", "quote": "q", "reason": "r"}]\n```',
        [1],
        {1: ("contradicted", None)},
    ),
    ('{"verdict": "unverified", "reason": "nothing"}', [4], {4: ("unverified", None)}),  # one object, one claim
    (
        '{"judgments": [{"claim": 1, "verdict": "grounded"',
        [1, 2],
        {1: ("unverified", "not JSON"), 2: ("unverified", "not JSON")},
    ),
    ("I cannot help with that.", [1], {1: ("unverified", "not JSON")}),
    ('{"answers": []}', [1], {1: ("unverified", 'no "judgments"')}),
    ('{"judgments": [{"claim": 1, "verdict": "true"}]}', [1], {1: ("unverified", "no known verdict")}),
    ('{"judgments": [{"claim": 1, "verdict": "grounded", "quote": 5}]}', [1], {1: ("unverified", "must be strings")}),
    (
        '{"judgments": [{"claim": 2, "verdict": "grounded"}]}',
        [1, 2],
        {1: ("unverified", "no judgment for this claim"), 2: ("grounded", None)},
    ),
]


@pytest.mark.parametrize("reply,indexes,expected", REPLY_CASES)
def test_parse_reply(reply, indexes, expected):
    got = parse_reply(reply, indexes)
    assert set(got) == set(indexes)
    for i, (verdict, error) in expected.items():
        assert got[i].verdict == verdict
        assert (got[i].error is None) if error is None else (error in got[i].error)


def test_prompt_is_versioned_file():
    version, text = load_prompt()
    assert version == "judge-v1" and "verbatim" in text
    with pytest.raises(FileNotFoundError, match="judge-v9"):
        load_prompt("judge-v9")


# -- the cache --------------------------------------------------------------------------------
def test_cache_key_changes_with_each_part():
    inp = JudgeInput(0, "Contoso opened two offices.", (Candidate("q3.txt", 49, 93, SOURCES["q3.txt"][49:93]),))
    base = cache_key("anthropic", "m", "judge-v1", inp, SOURCES)
    assert base == cache_key("anthropic", "m", "judge-v1", JudgeInput(7, inp.claim, inp.candidates), SOURCES)
    others = {
        cache_key("replay", "m", "judge-v1", inp, SOURCES),
        cache_key("anthropic", "m2", "judge-v1", inp, SOURCES),
        cache_key("anthropic", "m", "judge-v2", inp, SOURCES),
        cache_key("anthropic", "m", "judge-v1", JudgeInput(0, "Contoso opened three offices."), SOURCES),
        cache_key(
            "anthropic", "m", "judge-v1", JudgeInput(0, inp.claim, (Candidate("q3.txt", 0, 5, "Conto"),)), SOURCES
        ),
        cache_key("anthropic", "m", "judge-v1", inp, {**SOURCES, "q3.txt": SOURCES["q3.txt"] + " More."}),
    }
    assert base not in others and len(others) == 6


class Counting:
    """A judge that counts its calls and answers every claim with the same judgment."""

    backend, model, prompt_version = "counting", "m", "judge-v1"

    def __init__(self, answer: Judgment, cache=None):
        self.answer, self.cache, self.calls = answer, cache, []

    def judge(self, inputs, sources):
        self.calls.append([i.index for i in inputs])
        return [self.answer for _ in inputs]


def test_cache_serves_answers_and_not_failures(tmp_path):
    inputs = [JudgeInput(0, "Contoso opened two offices.")]
    j = Counting(_j(), cache=JudgmentCache(tmp_path))
    assert ask(j, inputs, SOURCES) == [_j()]
    assert ask(j, inputs, SOURCES) == [_j()]
    assert j.calls == [[0]]  # the second check was served from disk
    failing = Counting(Judgment.failed("the judge timed out"), cache=JudgmentCache(tmp_path / "f"))
    ask(failing, inputs, SOURCES)
    ask(failing, inputs, SOURCES)
    assert failing.calls == [[0], [0]]  # a failure is asked again


# -- the tier ---------------------------------------------------------------------------------
def _claims():
    return [
        {
            "text": "Contoso revenue rose 8%.",
            "verdict": "grounded",
            "reason": "stated in the source",
            "support": 1.0,
            "evidence": [{"source": "q3.txt", "start": 0, "end": 48, "text": SOURCES["q3.txt"][:48]}],
            "differs": [],
        },
        {
            "text": "Revenue rose 12%.",
            "verdict": "contradicted",
            "reason": "12% ≠ 8%",
            "support": 0.0,
            "evidence": [],
            "differs": [{"claim": "12%", "source": "8%", "kind": "quantity"}],
        },
        {
            "text": "Contoso expanded into two European capitals.",
            "verdict": "unverified",
            "reason": "too little of the claim is stated",
            "support": 0.3,
            "evidence": [],
            "differs": [],
        },
    ]


def test_tier_asks_only_unverified_claims_and_never_changes_a_rule_verdict():
    j = Counting(_j(verdict="contradicted", source="hr.txt", quote="Contoso employs 5,000 people"))
    findings = [{"kind": "unsupported-claim", "severity": "medium", "claim": 2, "message": "m"}]
    claims = _claims()
    out = apply_judge(j, claims, {}, SOURCES, findings)
    assert j.calls == [[2]]  # one call, for the one undecided claim
    assert out[0] is claims[0] and out[1] is claims[1]
    assert out[2]["verdict"] == "contradicted" and out[2]["rule"] == "contradicted.judge"
    assert out[2]["judge"] | {} == {
        "backend": "counting",
        "model": "m",
        "prompt_version": "judge-v1",
        "verdict": "contradicted",
        "quote": "Contoso employs 5,000 people",
        "start": 0,
        "end": 28,
        "source": "hr.txt",
        "reason": "r",
        "status": "accepted",
    }
    assert [f["kind"] for f in findings] == ["contradiction"]


def test_tier_grounds_only_with_a_verified_quote():
    findings = [{"kind": "unsupported-claim", "severity": "medium", "claim": 2, "message": "m"}]
    out = apply_judge(Counting(_j(quote="opened offices in Madrid and Rome")), _claims(), {}, SOURCES, findings)
    assert out[2]["verdict"] == "unverified" and "rule" not in out[2]
    assert out[2]["reason"].startswith(
        "too little of the claim is stated; judge's grounded discarded: the quote is in no source"
    )
    assert out[2]["judge"]["status"] == "discarded" and out[2]["judge"]["start"] is None
    assert [f["kind"] for f in findings] == ["unsupported-claim"]
    good = apply_judge(Counting(_j()), _claims(), {}, SOURCES)[2]
    assert good["verdict"] == "grounded" and good["rule"] == "grounded.judge"
    assert good["evidence"] == [
        {"source": "q3.txt", "start": 58, "end": 91, "text": "opened offices in Lisbon and Oslo"}
    ]


def test_tier_never_grounds_a_claim_with_a_figure_in_no_source():
    findings = [
        {"kind": "fabricated-number", "severity": "high", "claim": 2, "message": "40 is in no source"},
        {"kind": "unsupported-claim", "severity": "medium", "claim": 2, "message": "m"},
    ]
    out = apply_judge(Counting(_j()), _claims(), {}, SOURCES, findings)[2]
    assert out["verdict"] == "unverified" and "claim holds what no source has (fabricated-number)" in out["reason"]
    assert out["judge"]["status"] == "discarded" and len(findings) == 2


@pytest.mark.parametrize(
    "judgment, cites, before, status, findings",
    [
        (_j(), ["q3.txt"], "unsupported", "supported", []),  # grounded on a quote of the source it cites
        (_j(), ["hr.txt"], "unsupported", "elsewhere", ["broken-citation"]),  # grounded in another source
        (
            _j(verdict="contradicted", source="hr.txt", quote="Contoso employs 5,000 people"),
            ["hr.txt"],
            "unsupported",
            "contradicted",
            [],
        ),  # the tier adds no broken-citation for a cited contradiction
        (
            _j(verdict="contradicted", source="hr.txt", quote="Contoso employs 5,000 people"),
            ["q3.txt"],
            "unsupported",
            "unsupported",
            [],
        ),
        (_j(), ["hr.txt"], "broken", "broken", []),  # only an unsupported status is looked at again
    ],
)
def test_tier_citation_status_after_the_judge(judgment, cites, before, status, findings):
    """The judge tier's citation status is provenance.citation_status's, for a claim the rules left
    unsupported; every other status stays."""
    claims = _claims()
    claims[2].update(
        citation_status=before,
        citations=[{"marker": "[1]", "sources": cites, "status": "broken" if before == "broken" else "resolved"}],
    )
    found = []
    out = apply_judge(Counting(judgment), claims, {}, SOURCES, found)[2]
    assert out["citation_status"] == status
    assert [f["kind"] for f in found if f["kind"] == "broken-citation"] == findings


def test_tier_survives_a_judge_that_raises_or_miscounts():
    class Raising(Counting):
        def judge(self, inputs, sources):
            raise ConnectionError("no route")

    class Short(Counting):
        def judge(self, inputs, sources):
            return []

    for judge, why in ((Raising(_j()), "the judge raised ConnectionError: no route"), (Short(_j()), "0 answers for 1")):
        out = apply_judge(judge, _claims(), {}, SOURCES)[2]
        assert out["verdict"] == "unverified" and why in out["reason"] and out["judge"]["status"] == "failed"


# -- backends ---------------------------------------------------------------------------------
def test_callable_backend_reads_each_kind_of_answer():
    answers = {
        0: lambda inp: _j(),
        1: lambda inp: json.dumps(
            {"verdict": "grounded", "source": "q3.txt", "quote": "opened offices in Lisbon and Oslo"}
        ),
        2: lambda inp: {"verdict": "unverified", "reason": "no"},
        3: lambda inp: 42,
        4: lambda inp: (_ for _ in ()).throw(TimeoutError()),
        5: lambda inp: (_ for _ in ()).throw(KeyError("x")),
    }
    threads = set()

    def fn(inp):
        threads.add(threading.get_ident())
        return answers[inp.index](inp)

    got = CallableJudge(fn, concurrency=3).judge([JudgeInput(i, "c") for i in range(6)], SOURCES)
    assert [g.verdict for g in got] == ["grounded", "grounded", "unverified", "unverified", "unverified", "unverified"]
    assert "returned a int" in got[3].error and got[4].error == "the judge timed out" and "KeyError" in got[5].error
    with pytest.raises(ValueError, match="concurrency"):
        CallableJudge(fn, concurrency=0)


def test_replay_backend(tmp_path):
    f = tmp_path / "answers.jsonl"
    f.write_text(
        "\n".join(
            json.dumps(r)
            for r in [
                {
                    "claim": "A  claim.",
                    "verdict": "grounded",
                    "source": "q3.txt",
                    "quote": "q w e",
                    "model": "claude-x",
                },
                {"claim": "Refused.", "refusal": "I can't"},
                {"claim": "Slow.", "error": "timeout"},
                {"claim": "Garbled.", "reply": "{not json"},
            ]
        )
        + "\n",
        encoding="utf8",
    )
    judge = ReplayJudge(f)
    assert (judge.backend, judge.model, judge.prompt_version) == ("replay", "claude-x", "judge-v1")
    got = judge.judge(
        [JudgeInput(i, c) for i, c in enumerate(["A claim.", "Refused.", "Slow.", "Garbled.", "New."])], {}
    )
    assert got[0].verdict == "grounded" and got[0].quote == "q w e"
    assert [g.error for g in got[1:3]] == ["the judge refused: I can't", "the judge timed out"]
    assert "not JSON" in got[3].error and "no recorded answer" in got[4].error
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"claim": "x"}\n[1]\n', encoding="utf8")
    with pytest.raises(ValueError, match="line 2"):
        ReplayJudge(bad)


class FakeMessages:
    """``client.messages`` of the Anthropic SDK: records each request, answers from a script."""

    def __init__(self, script):
        self.script, self.requests = list(script), []

    def create(self, **kwargs):
        self.requests.append(kwargs)
        step = self.script.pop(0)
        if isinstance(step, Exception):
            raise step
        text, stop = step
        block = type("Block", (), {"type": "text", "text": text})()
        return type("Message", (), {"content": [block], "stop_reason": stop})()


class APITimeoutError(Exception):
    """Named as the SDK's timeout error is."""


def _anthropic(script, **kw):
    client = type("Client", (), {})()
    client.messages = FakeMessages(script)
    return AnthropicJudge(client=client, **kw), client.messages


def test_anthropic_backend_one_cached_request_for_all_claims():
    reply = json.dumps(
        {
            "judgments": [
                {
                    "claim": 2,
                    "verdict": "grounded",
                    "source": "q3.txt",
                    "quote": "opened offices in Lisbon and Oslo",
                    "reason": "r",
                },
                {"claim": 5, "verdict": "unverified", "source": "", "quote": "", "reason": "not there"},
            ]
        }
    )
    judge, messages = _anthropic([(reply, "end_turn")], model="claude-test")
    got = judge.judge([JudgeInput(2, "Two capitals."), JudgeInput(5, "A third.")], SOURCES)
    assert [g.verdict for g in got] == ["grounded", "unverified"]
    (req,) = messages.requests
    assert req["model"] == "claude-test"
    assert req["system"][0]["cache_control"] == {"type": "ephemeral"}
    assert all(text in req["system"][0]["text"] for text in SOURCES.values())
    assert json.loads(req["messages"][0]["content"].split("\n", 1)[1])["claims"][1] == {
        "id": 5,
        "text": "A third.",
        "passages": [],
    }


@pytest.mark.parametrize(
    "step,why",
    [
        (("", "refusal"), "the judge refused to answer"),
        (('{"judgments": [', "max_tokens"), "cut short"),
        (("Sure! Here is my answer.", "end_turn"), "unparsable reply: the reply is not JSON"),
        (APITimeoutError("read timed out"), "the judge timed out (after 60 s)"),
        (OSError("connection reset"), "the request failed (OSError: connection reset)"),
    ],
)
def test_anthropic_backend_failures_leave_claims_unverified(step, why):
    judge, _ = _anthropic([step])
    got = judge.judge([JudgeInput(0, "a"), JudgeInput(1, "b")], SOURCES)
    assert all(g.verdict == "unverified" and why in g.error for g in got)


def test_anthropic_splits_many_claims(monkeypatch):
    replies = [
        (json.dumps([{"claim": i, "verdict": "unverified"} for i in range(k, k + 2)]), "end_turn") for k in (0, 2, 4)
    ]
    judge, messages = _anthropic(replies, max_claims=2, concurrency=1)
    got = judge.judge([JudgeInput(i, f"c{i}") for i in range(6)], SOURCES)
    assert len(messages.requests) == 3 and all(g.error is None for g in got)


def test_registry_entries_resolve(tmp_path):
    f = tmp_path / "a.jsonl"
    f.write_text('{"claim": "x", "verdict": "unverified"}\n', encoding="utf8")
    cfg = {
        "r": {"@misc": "sourced.judge.replay.v1", "path": str(f)},
        "c": {"@misc": "sourced.judge.callable.v1", "function": "json:dumps", "concurrency": 2},
        "a": {"@misc": "sourced.judge.anthropic.v1", "model": "claude-x", "cache_dir": None},
    }
    got = spacy.registry.resolve(cfg)
    assert [got[k].backend for k in "rca"] == ["replay", "callable", "anthropic"]
    assert got["a"].model == "claude-x" and got["a"].cache is None and got["c"].concurrency == 2


# -- the spaCy component ------------------------------------------------------------------------
def test_component_with_a_judge_in_its_config(tmp_path):
    f = tmp_path / "answers.jsonl"
    f.write_text(
        json.dumps(
            {
                "claim": "The company expanded into two European capitals.",
                "verdict": "grounded",
                "source": "q3.txt",
                "quote": "opened offices in Lisbon and Oslo",
                "reason": "capitals",
            }
        )
        + "\n",
        encoding="utf8",
    )
    nlp = sourced_nlp.load_pipeline(config={"judge": {"@misc": "sourced.judge.replay.v1", "path": str(f)}})
    doc = nlp.make_doc("Contoso revenue rose 8% to $2.4 billion. The company expanded into two European capitals.")
    doc._.sources = [{"id": "q3.txt", "text": SOURCES["q3.txt"]}]
    doc = nlp(doc)
    spans = list(doc.spans["sourced_claims"])
    assert [s.label_ for s in spans] == ["grounded", "grounded"]
    assert spans[1]._.evidence == [
        {"source": "q3.txt", "start": 58, "end": 91, "text": "opened offices in Lisbon and Oslo"}
    ]
    claims = doc._.report["claims"]
    assert claims[0]["rule"] == "grounded.passage" and claims[1]["rule"] == "grounded.judge"
    assert doc._.report["counts"] == {"grounded": 2, "contradicted": 0, "unverified": 0}
    report = sourced_nlp.Report.from_dict(doc._.report)
    assert report.claims[1].judge["prompt_version"] == "judge-v1"
    assert report.to_dict()["claims"][1]["rule"] == "grounded.judge"
    assert sourced_nlp.load_pipeline().get_pipe("sourced_verify").judge is None


# -- calibration ------------------------------------------------------------------------------
def test_metrics_by_hand():
    labels = ["grounded", "grounded", "contradicted", "unverified", "unverified"]
    verdicts = ["grounded", "unverified", "grounded", "unverified", "unverified"]
    m = metrics(labels, verdicts)
    assert m["n"] == 5 and m["agreement"] == 0.6
    assert m["confusion"]["grounded"] == {"grounded": 1, "contradicted": 0, "unverified": 1}
    assert m["per_verdict"]["grounded"] == {"predicted": 2, "correct": 1, "precision": 0.5, "recall": 0.5}
    assert m["per_verdict"]["contradicted"] == {"predicted": 0, "correct": 0, "precision": None, "recall": 0.0}
    assert m["per_verdict"]["unverified"]["precision"] == round(2 / 3, 4)
    text = table({"backend": "replay", "model": "x", "prompt_version": "judge-v1", **m})
    assert "agreement 60.0% on 5 claims" in text and "| precision | 50.0% | — | 66.7% | |" in text


@pytest.mark.parametrize(
    "verdicts,expected",
    [
        (["grounded", "grounded"], "grounded"),
        (["grounded", "unverified"], "unverified"),
        (["grounded", "contradicted"], "contradicted"),
        ([], "unverified"),
    ],
)
def test_overall(verdicts, expected):
    assert overall(verdicts) == expected


GOOD = '{"claim": "c", "sources": [{"id": "a", "text": "t"}], "label": "grounded"}'
GOLD_ROWS = [  # (a gold row, the sources read from it, or the words of the error on its line)
    ('{"claim": "c", "sources": [{"id": "a", "text": "t"}], "label": "grounded"}', [{"id": "a", "text": "t"}]),
    (
        '{"claim": "c", "sources": ["t", "u"], "label": "grounded"}',
        [{"id": "0", "text": "t"}, {"id": "1", "text": "u"}],
    ),
    (
        '{"claim": "c", "sources": [{"text": "t"}, "u"], "label": "unverified"}',
        [{"id": "0", "text": "t"}, {"id": "1", "text": "u"}],
    ),
    ('{"claim": "c", "sources": [{"page_content": "t", "id": 7}], "label": "grounded"}', [{"id": "7", "text": "t"}]),
    ('{"claim": "c", "sources": [], "label": "grounded"}', 'non-empty "sources" list'),
    ('{"claim": "c", "sources": "t", "label": "grounded"}', 'non-empty "sources" list'),
    ('{"claim": "c", "sources": ["t"], "label": "maybe"}', "label in"),
    ('{"sources": ["t"], "label": "grounded"}', 'needs "claim"'),
    ('{"claim": "c", "sources": ["  "], "label": "grounded"}', "empty"),
    ('{"claim": "c", "sources": [null], "label": "grounded"}', "null"),
    ('{"claim": "c", "sources": ["t", {"id": "0", "text": "u"}], "label": "grounded"}', "duplicate source id"),
    ('{"claim": "c", "sources": [{"id": "a", "text": 5}], "label": "grounded"}', "'text' must be a string"),
]


@pytest.mark.parametrize("row, expected", GOLD_ROWS, ids=[r for r, _ in GOLD_ROWS])
def test_read_gold_takes_the_package_source_shapes(tmp_path, row, expected):
    """A gold row's sources take the shapes every other command accepts (plain strings among
    them); what normalize_sources refuses is an error naming the gold file and the line."""
    f = tmp_path / "g.jsonl"
    f.write_text(GOOD + "\n\n" + row + "\n", encoding="utf8")
    if isinstance(expected, str):
        with pytest.raises(ValueError) as info:
            read_gold(f)
        assert str(info.value).startswith(f"gold file {f}: line 3") and expected in str(info.value), info.value
    else:
        assert read_gold(f)[1]["sources"] == expected


def test_audit_record_names_the_judge_of_judged_claims():
    """An audit record of a report whose claims went to a judge names that judge, its model
    and prompt version (issue: "judge/prompt version where one was used"); none otherwise."""
    import spacy

    from sourced_nlp.evaluation.audit import make_record

    judged = {"backend": "replay", "model": "recorded", "prompt_version": "judge-v1", "status": "verified"}
    claim = {
        "text": "A.",
        "start": 0,
        "end": 2,
        "verdict": "grounded",
        "rule": "grounded.judge",
        "evidence": [],
        "judge": judged,
    }
    plain = dict(claim, verdict="unverified", rule="unverified.too_little", judge=None)
    nlp = spacy.blank("en")
    rec = make_record({"answer": "A.", "claims": [plain, claim]}, command="check", nlp=nlp)
    assert rec["judge"] == {"name": "replay", "model": "recorded", "prompt_version": "judge-v1"}
    assert rec["claims"][1]["judge"]["prompt_version"] == "judge-v1" and "judge" not in rec["claims"][0]
    assert make_record({"answer": "A.", "claims": [plain]}, command="check", nlp=nlp)["judge"] is None
