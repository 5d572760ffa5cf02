"""The ``openai`` judge backend through the real ``openai`` SDK, against a chat-completions server
started in this process (``http.server`` on 127.0.0.1, a port of its own): good answers, a
made-up quote, malformed JSON, a refusal, a 429 then an answer, a timeout, a server that refuses
structured output, a dead port; and ``sourced check --judge openai`` (``--judge-scope all``
among it) through the real entry point. Nothing leaves the machine."""

from __future__ import annotations

import json
import re
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from conftest import invoke_cli

pytest.importorskip("openai", reason="the openai extra is not installed: pip install 'sourced-nlp[openai]'")

from sourced_nlp.judges.backends.openai import OpenAIJudge  # noqa: E402
from sourced_nlp.judges.base import JudgeInput  # noqa: E402
from sourced_nlp.judges.quotes import settle  # noqa: E402

SOURCE = "Contoso opened offices in Lisbon and Oslo in March."
SOURCES = {"s": SOURCE}
# a claim the rules ground on the words it shares with the source, though "on" schedule is not
# "behind" it (a preposition the guard does not read; "ahead of" is the converse of "behind", which
# it does; no case of shared/cases/traps.jsonl is grounded by the rules today)
LATE_SOURCE = "The bridge project was completed behind schedule in January."
LATE_CLAIM = "The bridge project was completed on schedule in January."


def _judgment(verdict: str, quote: str = "", reason: str = "") -> dict:
    return {"verdict": verdict, "source": "", "quote": quote, "reason": reason}


#: What the server answers for a claim holding the key (the first key found in the request's
#: claims): a judgment, or a behaviour: ``raw`` content, a ``refusal``, ``status`` for the first
#: ``times`` calls, a ``sleep`` first, ``no_schema`` (400 to a json_schema response_format).
TABLE = {
    "two European capitals": {
        "judgment": _judgment("grounded", "opened offices in Lisbon and Oslo", "Lisbon and Oslo are capitals")
    },
    "three Nordic capitals": {"judgment": _judgment("grounded", "opened offices in Stockholm and Oslo", "made up")},
    "malformed": {"raw": '{"judgments": [{"claim": 0, "verdict": "grounded"'},
    "refused": {"refusal": "I can't help with that."},
    "rate limited": {"status": 429, "times": 1, "judgment": _judgment("grounded", "opened offices in Lisbon and Oslo")},
    "slow": {"sleep": 1.5, "judgment": _judgment("unverified")},
    "newer model": {"no_max_tokens": True, "judgment": _judgment("grounded", "opened offices in Lisbon and Oslo")},
    "plain server": {"no_schema": True, "judgment": _judgment("grounded", "opened offices in Lisbon and Oslo")},
    "completed on": {"judgment": _judgment("unverified", reason="on schedule is not behind it")},
    "finished on": {
        "judgment": _judgment("contradicted", "The bridge project was completed behind schedule", "behind, not on")
    },
}


def _named(judgment: dict, system: str) -> dict:
    """The judgment with its ``source`` the id of the source in the system message that holds its
    quote (else the first source's): the table is written once for any file names."""
    if not judgment["quote"]:
        return judgment
    found = re.findall(r'<source id="([^"]*)">\n(.*?)\n</source>', system, flags=re.S)
    sid = next((i for i, text in found if judgment["quote"] in text), found[0][0])
    return {**judgment, "source": sid}


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), Handler)
        self.requests: list[dict] = []  # the request bodies, in order
        self.calls: dict[str, int] = {}  # calls per table key
        self.seen: list[tuple] = []  # (path, api-key header, Authorization header) of each request
        self.lock = threading.Lock()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"


class Handler(BaseHTTPRequestHandler):
    server: Server

    def log_message(self, *args) -> None:  # quiet
        pass

    def _send(self, status: int, body: dict, headers: dict | None = None) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.server.seen.append((self.path, self.headers.get("api-key"), self.headers.get("Authorization")))
        if self.path.split("?")[0] not in ("/v1/chat/completions", "/openai/deployments/m/chat/completions"):
            return self._send(404, {"error": {"message": f"no route {self.path}"}})
        user = next(m["content"] for m in body["messages"] if m["role"] == "user")
        claims = json.loads(user.split("\n", 1)[1])["claims"]
        with self.server.lock:
            self.server.requests.append(body)
            keys = [next((k for k in TABLE if k in c["text"]), None) for c in claims]
            first = next((k for k in keys if k), None)
            n = self.server.calls[first] = self.server.calls.get(first, 0) + 1
        entry = TABLE.get(first, {})
        if entry.get("no_schema") and body.get("response_format", {}).get("type") == "json_schema":
            return self._send(
                400,
                {"error": {"message": "response_format json_schema is not supported", "type": "invalid_request_error"}},
            )
        if entry.get("no_max_tokens") and "max_tokens" in body:
            return self._send(
                400,
                {
                    "error": {
                        "message": "Unsupported parameter: 'max_tokens' is not supported with this "
                        "model. Use 'max_completion_tokens' instead."
                    }
                },
            )
        if "status" in entry and n <= entry["times"]:
            return self._send(entry["status"], {"error": {"message": "slow down"}}, {"retry-after-ms": "10"})
        time.sleep(entry.get("sleep", 0))
        message: dict = {"role": "assistant", "content": None, "refusal": None}
        if "refusal" in entry:
            message["refusal"] = entry["refusal"]
        elif "raw" in entry:
            message["content"] = entry["raw"]
        else:
            system = body["messages"][0]["content"]
            message["content"] = json.dumps(
                {
                    "judgments": [
                        {
                            "claim": c["id"],
                            **_named(
                                TABLE[k]["judgment"] if k else _judgment("unverified", reason="not in the table"),
                                system,
                            ),
                        }
                        for c, k in zip(claims, keys)
                    ]
                }
            )
        self._send(
            200,
            {
                "id": "chatcmpl-1",
                "object": "chat.completion",
                "created": 0,
                "model": body["model"],
                "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
                "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
            },
        )


@pytest.fixture
def server():
    srv = Server()
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield srv
    srv.shutdown()
    srv.server_close()


@pytest.fixture(autouse=True)
def env(monkeypatch, tmp_path):
    """A key (the local server takes any), the judgment cache in a folder of this test, and no
    other server named by the environment."""
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    for name in ("OPENAI_BASE_URL", "AZURE_OPENAI_ENDPOINT", "AZURE_OPENAI_API_KEY", "OPENAI_API_VERSION"):
        monkeypatch.delenv(name, raising=False)


def _ask(server: Server, claim: str, **options) -> tuple:
    judge = OpenAIJudge(model="m", base_url=server.url, **options)
    (judgment,) = judge.judge([JudgeInput(0, claim)], SOURCES)
    return judge, judgment, settle(judgment, SOURCES)


def test_a_good_answer_is_accepted_on_its_real_quote_asked_as_structured_output(server):
    _, judgment, settled = _ask(server, "Contoso expanded into two European capitals.")
    assert judgment.error is None and settled.verdict == "grounded"
    assert SOURCE[settled.match["start"] : settled.match["end"]] == "opened offices in Lisbon and Oslo"
    (body,) = server.requests
    assert body["model"] == "m" and body["response_format"]["type"] == "json_schema"
    assert body["messages"][0]["role"] == "system" and SOURCE in body["messages"][0]["content"]


def test_a_made_up_quote_is_refused_by_the_quote_check(server):
    _, judgment, settled = _ask(server, "Contoso expanded into three Nordic capitals.")
    assert judgment.verdict == "grounded" and judgment.error is None  # the judge said so ...
    assert settled.verdict == "unverified" and settled.match is None  # ... and was not believed
    assert "the quote is in no source" in settled.reason


def test_malformed_json_fails_the_claim_with_the_reason(server):
    _, judgment, settled = _ask(server, "A malformed reply comes back.")
    assert judgment.error.startswith("unparsable reply: the reply is not JSON")
    assert settled.verdict == "unverified"


def test_a_refusal_fails_the_claim(server):
    _, judgment, _ = _ask(server, "This claim is refused.")
    assert judgment.error == "the judge refused to answer: I can't help with that."


def test_a_429_is_retried_with_backoff_then_answered(server):
    _, judgment, settled = _ask(server, "Contoso was rate limited in Lisbon.")
    assert server.calls["rate limited"] == 2
    assert settled.verdict == "grounded"


def test_a_429_with_no_retries_left_fails_the_claim(server):
    _, judgment, _ = _ask(server, "Contoso was rate limited again.", max_retries=0)
    assert server.calls["rate limited"] == 1
    assert judgment.error.startswith("the request failed (RateLimitError")


def test_a_reply_slower_than_the_timeout_fails_the_claim(server):
    started = time.monotonic()
    _, judgment, _ = _ask(server, "A slow reply.", timeout=0.4, max_retries=0)
    assert judgment.error == "the judge timed out (after 0.4 s)"
    assert time.monotonic() - started < 1.4  # it did not wait for the reply


def test_a_server_without_structured_output_is_asked_in_json_mode_and_remembered(server):
    judge, judgment, settled = _ask(server, "A plain server grounds Lisbon.")
    assert settled.verdict == "grounded" and judge.format == "json_object"
    assert [b.get("response_format", {}).get("type") for b in server.requests] == ["json_schema", "json_object"]
    judge.judge([JudgeInput(0, "A plain server again.")], SOURCES)
    assert server.requests[-1]["response_format"]["type"] == "json_object"  # not asked with a schema again


def test_a_model_that_wants_max_completion_tokens_gets_it_and_keeps_structured_output(server):
    judge, _, settled = _ask(server, "A newer model grounds Lisbon.")
    assert settled.verdict == "grounded" and judge.tokens == "max_completion_tokens" and judge.format == "json_schema"
    assert [("max_tokens" in b, b["response_format"]["type"]) for b in server.requests] == [
        (True, "json_schema"),
        (False, "json_schema"),
    ]


def test_more_claims_than_max_claims_go_in_concurrent_requests(server):
    judge = OpenAIJudge(model="m", base_url=server.url, max_claims=1, concurrency=3)
    inputs = [JudgeInput(i, f"Contoso expanded into two European capitals ({i}).") for i in range(3)]
    answers = judge.judge(inputs, SOURCES)
    assert len(server.requests) == 3 and [a.verdict for a in answers] == ["grounded"] * 3


def test_azure_openai_through_the_sdks_own_client_and_variables(server, monkeypatch, files):
    monkeypatch.delenv("OPENAI_API_KEY")
    monkeypatch.setenv("AZURE_OPENAI_ENDPOINT", f"http://127.0.0.1:{server.server_address[1]}")
    monkeypatch.setenv("AZURE_OPENAI_API_KEY", "azure-key")
    code, _, err = _check(files, "answer.txt", "source.txt", "--judge", "openai")
    assert code == 2 and "on Azure (AZURE_OPENAI_ENDPOINT) needs --judge-model DEPLOYMENT" in err
    code, _, err = _check(files, "answer.txt", "source.txt", "--judge", "openai", "--judge-model", "m")
    assert code == 2 and "on Azure (AZURE_OPENAI_ENDPOINT) needs OPENAI_API_VERSION" in err
    monkeypatch.setenv("OPENAI_API_VERSION", "2024-10-21")
    code, report, err = _check(
        files, "answer.txt", "source.txt", "--judge", "openai", "--judge-model", "m", "--format", "json"
    )
    assert code == 0 and report["claims"][0]["rule"] == "grounded.judge", err
    assert server.seen == [("/openai/deployments/m/chat/completions?api-version=2024-10-21", "azure-key", None)]


# ------------------------------------------------------------------ the command line


@pytest.fixture
def files(tmp_path):
    (tmp_path / "answer.txt").write_text("Contoso expanded into two European capitals.\n", encoding="utf8")
    (tmp_path / "source.txt").write_text(SOURCE + "\n", encoding="utf8")
    (tmp_path / "late-answer.txt").write_text(LATE_CLAIM + "\n", encoding="utf8")
    (tmp_path / "late-finished.txt").write_text(
        "The bridge project finished on schedule in January.\n", encoding="utf8"
    )
    (tmp_path / "late.txt").write_text(LATE_SOURCE + "\n", encoding="utf8")
    return tmp_path


def _check(files, *args: str) -> tuple[int, dict | str, str]:
    code, out, err = invoke_cli("check", *args, cwd=files)
    return code, (json.loads(out) if "json" in args and out else out), err


def test_check_judge_openai_grounds_on_a_verified_quote(server, files):
    code, report, err = _check(
        files,
        "answer.txt",
        "source.txt",
        "--judge",
        "openai",
        "--judge-base-url",
        server.url,
        "--judge-model",
        "m",
        "--format",
        "json",
    )
    assert code == 0, err
    (claim,) = report["claims"]
    assert claim["verdict"] == "grounded" and claim["rule"] == "grounded.judge"
    assert claim["judge"]["backend"] == "openai" and claim["judge"]["model"] == "m"
    assert claim["evidence"][0]["text"] == "opened offices in Lisbon and Oslo"


def test_check_judge_openai_is_cached_and_recorded_for_replay(server, files):
    args = [
        "answer.txt",
        "source.txt",
        "--judge",
        "openai",
        "--judge-base-url",
        server.url,
        "--judge-model",
        "m",
        "--format",
        "json",
    ]
    first = _check(files, *args, "--judge-record", "answers.jsonl")
    again = _check(files, *args)
    assert len(server.requests) == 1  # the second check was answered from the cache
    assert first[1] == again[1]
    replayed = _check(
        files, "answer.txt", "source.txt", "--judge", "replay", "--judge-file", "answers.jsonl", "--format", "json"
    )
    assert replayed[1]["claims"][0]["rule"] == "grounded.judge"
    assert replayed[1]["claims"][0]["judge"]["model"] == "m"


def test_a_dead_port_is_exit_2_with_one_line_before_any_work(files):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again: nothing listens there
    url = f"http://127.0.0.1:{port}/v1"
    code, out, err = _check(
        files, "missing-answer.txt", "source.txt", "--judge", "openai", "--judge-base-url", url, "--judge-model", "m"
    )
    assert code == 2 and out == ""
    assert err.splitlines() == [
        f"error: --judge openai cannot reach {url} (connection refused): start the server or "
        f"give the right --judge-base-url (nothing was checked)"
    ]


def test_no_key_is_exit_2_with_one_line_before_any_work(server, files, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY")
    code, out, err = _check(
        files,
        "missing-answer.txt",
        "source.txt",
        "--judge",
        "openai",
        "--judge-base-url",
        server.url,
        "--judge-model",
        "m",
    )
    assert code == 2 and out == "" and len(err.splitlines()) == 1
    assert "needs an API key: set OPENAI_API_KEY" in err
    assert server.requests == []


def test_base_url_is_refused_for_another_backend_and_needs_a_model(server, files):
    code, _, err = _check(
        files,
        "answer.txt",
        "source.txt",
        "--judge",
        "replay",
        "--judge-file",
        "source.txt",
        "--judge-base-url",
        server.url,
    )
    assert code == 2 and err.strip() == "error: --judge-base-url is for --judge openai, not --judge replay"
    code, _, err = _check(files, "answer.txt", "source.txt", "--judge", "openai", "--judge-base-url", server.url)
    assert code == 2 and "needs --judge-model NAME" in err and len(err.splitlines()) == 1
    for option, value in (("--judge-base-url", server.url), ("--judge-scope", "all")):
        code, _, err = _check(files, "answer.txt", "source.txt", option, value)
        assert code == 2 and err.splitlines() == [
            f"error: {option}{' all' if value == 'all' else ''} needs --judge NAME"
        ]
    assert server.requests == []


def test_scope_all_takes_a_claim_the_rules_ground_down_to_unverified(server, files):
    base = ["late-answer.txt", "late.txt", "--format", "json"]
    code, rules, _ = _check(files, *base)
    assert [(c["verdict"], c["rule"]) for c in rules["claims"]] == [("grounded", "grounded.passage")]
    judge = ["--judge", "openai", "--judge-base-url", server.url, "--judge-model", "m"]
    code, judged, err = _check(files, *base, *judge, "--judge-scope", "all")
    (claim,) = judged["claims"]
    assert (claim["verdict"], claim["rule"]) == ("unverified", "unverified.judge_not_supported"), err
    assert claim["judge"]["backend"] == "openai" and claim["judge"]["status"] == "unverified"
    assert "not supported by the judge" in claim["reason"]
    assert [f["kind"] for f in judged["findings"] if f.get("claim") == 0] == ["unsupported-claim"]


def test_scope_all_takes_a_grounded_claim_down_to_contradicted_on_a_verified_quote(server, files):
    code, report, err = _check(
        files,
        "late-finished.txt",
        "late.txt",
        "--format",
        "json",
        "--judge",
        "openai",
        "--judge-base-url",
        server.url,
        "--judge-model",
        "m",
        "--judge-scope",
        "all",
    )
    (claim,) = report["claims"]
    assert code == 1, err  # the default gate fails on a contradicted claim
    assert (claim["verdict"], claim["rule"]) == ("contradicted", "contradicted.judge_overruled")
    assert claim["evidence"][0]["text"] == "The bridge project was completed behind schedule"


def test_scope_unverified_sends_no_grounded_claim_and_changes_no_output(server, files):
    base = ["late-answer.txt", "late.txt", "--format", "json"]
    without = _check(files, *base)
    judged = _check(files, *base, "--judge", "openai", "--judge-base-url", server.url, "--judge-model", "m")
    scoped = _check(
        files,
        *base,
        "--judge",
        "openai",
        "--judge-base-url",
        server.url,
        "--judge-model",
        "m",
        "--judge-scope",
        "unverified",
    )
    assert server.requests == []
    assert without == judged == scoped


def test_batch_takes_the_judge_options_too(server, files):
    record = {"id": "r1", "output": LATE_CLAIM, "sources": [{"id": "late", "text": LATE_SOURCE}]}
    (files / "r.jsonl").write_text(json.dumps(record) + "\n", encoding="utf8")
    code, out, err = invoke_cli(
        "batch",
        "r.jsonl",
        "--judge",
        "openai",
        "--judge-base-url",
        server.url,
        "--judge-model",
        "m",
        "--judge-scope",
        "all",
        cwd=files,
    )
    (result,) = [json.loads(line) for line in out.splitlines()]
    assert code == 0, err
    assert [c["rule"] for c in result["report"]["claims"]] == ["unverified.judge_not_supported"]


# ------------------------------------------------------------------ the scope, on the tier alone

GROUNDED = {
    "text": "Contoso has offices in Lisbon and Oslo.",
    "verdict": "grounded",
    "rule": "grounded.passage",
    "reason": "stated",
    "support": 0.9,
    "evidence": [{"source": "s", "start": 0, "end": 51, "text": SOURCE}],
}
CLAIMS = [
    {"text": "Contoso closed its Oslo office.", "verdict": "contradicted", "rule": "contradicted.value", "reason": "x"},
    GROUNDED,
    {
        "text": "Contoso expanded into two capitals.",
        "verdict": "unverified",
        "rule": "unverified.too_little",
        "reason": "x",
    },
]
REAL = "opened offices in Lisbon and Oslo"


@pytest.mark.parametrize(
    "answer, verdict, rule",
    [
        ({"verdict": "grounded", "source": "s", "quote": REAL}, "grounded", "grounded.passage"),
        (RuntimeError("no network"), "grounded", "grounded.passage"),
        ({"verdict": "unverified"}, "unverified", "unverified.judge_not_supported"),
        (
            {"verdict": "contradicted", "source": "s", "quote": "closed offices in Lisbon and Oslo"},
            "unverified",
            "unverified.judge_not_supported",
        ),
        ({"verdict": "contradicted", "source": "s", "quote": REAL}, "contradicted", "contradicted.judge_overruled"),
    ],
    ids=["grounded", "failed", "unverified", "contradicted-discarded", "contradicted-verified"],
)
def test_scope_all_only_takes_grounded_claims_down_and_leaves_the_rest_as_the_default_scope(answer, verdict, rule):
    from sourced_nlp.judges import CallableJudge, apply_judge
    from sourced_nlp.judges.backends.spec import recording

    def function(inp):
        asked.append(inp.claim)
        if isinstance(answer, Exception):
            raise answer
        return answer if inp.index == 1 else {"verdict": "grounded", "source": "s", "quote": REAL}

    asked: list[str] = []
    default = apply_judge(recording(CallableJudge(function, concurrency=1), None), CLAIMS, {}, SOURCES)
    assert asked == [CLAIMS[2]["text"]]
    asked.clear()
    findings: list[dict] = []
    out = apply_judge(recording(CallableJudge(function, concurrency=1), None, "all"), CLAIMS, {}, SOURCES, findings)
    assert asked == [c["text"] for c in CLAIMS[1:]]  # a contradicted claim is never sent
    assert out[0] is CLAIMS[0] and out[2] == default[2]  # the unverified claim: as under the default scope
    assert (out[1]["verdict"], out[1]["rule"]) == (verdict, rule)
    assert out[1]["judge"]["backend"] == "callable"
    if verdict == "grounded":
        assert {k: v for k, v in out[1].items() if k != "judge"} == GROUNDED and findings == []
    else:
        assert "grounded by grounded.passage" in out[1]["reason"]
        assert [f["kind"] for f in findings] == ["contradiction" if verdict == "contradicted" else "unsupported-claim"]


def test_calibrate_tiered_with_scope_all_asks_the_judge_about_the_rules_groundings(server, files):
    row = {"claim": LATE_CLAIM, "sources": [{"id": "late", "text": LATE_SOURCE}], "label": "unverified"}
    (files / "gold.jsonl").write_text(json.dumps(row) + "\n", encoding="utf8")
    judge = ["--judge", "openai", "--judge-base-url", server.url, "--judge-model", "m", "--tiered"]
    confusion = {}
    for scope in ("unverified", "all"):
        code, _, err = invoke_cli(
            "calibrate", "gold.jsonl", *judge, "--judge-scope", scope, "-o", f"{scope}.json", cwd=files
        )
        assert code == 0, err
        confusion[scope] = json.loads((files / f"{scope}.json").read_text())["confusion"]["unverified"]
    assert confusion["unverified"]["grounded"] == 1 and confusion["all"]["unverified"] == 1
    assert len(server.requests) == 1  # the default scope did not send the grounded claim
    code, _, err = invoke_cli("calibrate", "gold.jsonl", *judge[:-1], "--judge-scope", "all", cwd=files)
    assert code == 2 and err.splitlines() == [
        "error: --judge-scope all needs --tiered (a judge alone is asked about every gold claim)"
    ]
