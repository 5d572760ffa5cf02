"""``sourced serve``: the JSON API and the page in this process (Starlette's TestClient over the
app of :mod:`sourced_nlp.cli.web`, on the session's pipeline), the limits and refusals (413 for a
text or request too long, 400 for any other input, one message each), and the command itself:
its help, the missing extra, the address it listens on. The page in a real browser, over a real
``sourced serve`` process: ``tests/cli/test_serve_browser.py``.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="starlette is in the serve and dev extras (pip install -e '.[serve]')")
pytest.importorskip("multipart", reason="python-multipart is in the serve and dev extras")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx")

from starlette.testclient import TestClient  # noqa: E402

from sourced_nlp.cli import pool as pool_module  # noqa: E402
from sourced_nlp.cli import serve as serve_cmd  # noqa: E402
from sourced_nlp.cli import web  # noqa: E402
from sourced_nlp.files import MAX_ANSWER_CHARS  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
ANSWER = (EXAMPLES / "answer.txt").read_text(encoding="utf-8")
SOURCE = (EXAMPLES / "source.txt").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def client(nlp):
    with TestClient(web.make_app(nlp)) as c:
        yield c


def refused(response, status: int, *words: str) -> str:
    """The one message of a refused request, after checking its status and shape."""
    assert response.status_code == status, response.text
    body = response.json()
    assert list(body) == ["error"] and "\n" not in body["error"], body
    for word in words:
        assert word in body["error"], body
    return body["error"]


# ------------------------------------------------------------------ the JSON API


def test_check_gives_the_report_of_check_format_json(client, run_cli):
    r = client.post("/check", json={"answer": ANSWER, "sources": [{"id": "source.txt", "text": SOURCE}]})
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/json")
    code, out, err = run_cli("check", EXAMPLES / "answer.txt", EXAMPLES / "source.txt", "--format", "json")
    assert code == 1, err  # the example has a contradicted claim
    assert r.json() == json.loads(out)
    assert r.json()["schema"] == "sourced.report/1"
    assert "contradicted" in {c["verdict"] for c in r.json()["claims"]}


def test_cite_gives_the_report_of_cite_format_json(client, run_cli, tmp_path):
    cited = "Contoso reported net income of $310 million [1]. Revenue rose 12% to $2.4 billion [1].\n"
    (tmp_path / "cited.txt").write_text(cited, encoding="utf-8")
    (tmp_path / "source.txt").write_text(SOURCE, encoding="utf-8")
    r = client.post("/cite", json={"answer": cited, "sources": [{"id": "source.txt", "text": SOURCE}]})
    assert r.status_code == 200, r.text
    _, out, err = run_cli("cite", tmp_path / "cited.txt", tmp_path / "source.txt", "--format", "json")
    assert r.json() == json.loads(out), err
    assert r.json()["findings"] is not None and r.json()["score"] is not None


def test_cite_takes_the_claims_reply_parsed(client):
    reply = {
        "claims": [
            {"text": "Revenue rose 12% to $2.4 billion.", "citations": [{"source": "s", "quote": "Revenue rose 8%"}]}
        ]
    }
    r = client.post("/cite", json={"answer": reply, "sources": [{"id": "s", "text": SOURCE}]})
    assert r.status_code == 200, r.text
    assert [c["verdict"] for c in r.json()["claims"]] == ["contradicted"]


RECORD = {"company": "Contoso Ltd.", "quarter": "Q3 2024", "revenue": "$2.4 billion", "revenue_growth": "8%"}


def test_json_sources_are_read_as_json_input_reads_them(client, run_cli, tmp_path):
    body = {"output": "Contoso's revenue grew 8% in Q3 2024.", "sources": [RECORD, {"id": "notes", "text": SOURCE}]}
    r = client.post("/check", json=body)
    assert r.status_code == 200, r.text
    (tmp_path / "record.json").write_text(json.dumps(body), encoding="utf-8")
    _, out, err = run_cli("check", "--json-input", tmp_path / "record.json", "--format", "json")
    assert r.json() == json.loads(out), err
    assert [s["id"] for s in r.json()["sources"]] == ["0", "notes"]


def test_the_form_with_an_uploaded_json_file(client, run_cli, tmp_path):
    (tmp_path / "figures.json").write_text(json.dumps(RECORD), encoding="utf-8")
    (tmp_path / "answer.txt").write_text("Contoso's revenue grew 8% in Q3 2024.", encoding="utf-8")
    r = client.post(
        "/check",
        data={"answer": "Contoso's revenue grew 8% in Q3 2024."},
        files=[("file", ("figures.json", (tmp_path / "figures.json").read_bytes(), "application/json"))],
    )
    assert r.status_code == 200, r.text
    _, out, err = run_cli("check", tmp_path / "answer.txt", tmp_path / "figures.json", "--format", "json")
    assert r.json() == json.loads(out), err
    assert r.json()["sources"][0]["id"] == "figures.json"


@pytest.mark.parametrize(
    "body, words",
    [
        (b"{bad", ["malformed JSON in the request body", "line 1"]),
        (b"", ["the request body is empty"]),
        (b"\xff\xfe{}", ["not UTF-8"]),
        (b"[1, 2]", ["the request body: expected a JSON object, got array"]),
        (b'{"answer": "Revenue rose 12%."}', ["missing 'sources'"]),
        (b'{"answer": "Revenue rose 12%.", "sources": []}', ["no sources"]),
        (b'{"answer": "  ", "sources": ["a"]}', ["'answer' is empty"]),
        (b'{"answer": 3, "sources": ["a"]}', ["'answer' must be a string"]),
        (b'{"answer": "Revenue rose 12%.", "sources": [null]}', ["source 0"]),
        (b'{"answer": "Revenue rose 12%.", "sources": ["a", {"id": "x"}]}', ["text"]),
    ],
    ids=[
        "malformed",
        "empty",
        "not-utf8",
        "array",
        "no-sources",
        "empty-sources",
        "blank-answer",
        "answer-not-str",
        "null-source",
        "source-without-text",
    ],
)
def test_bad_json_is_400_with_one_message(client, body, words):
    refused(client.post("/check", content=body, headers={"content-type": "application/json"}), 400, *words)


JSON_BODY = json.dumps({"answer": "Revenue rose 12%.", "sources": ["Revenue rose 8%."]})


def test_json_sent_as_a_form_says_it_needs_the_json_content_type(client):
    """curl -d '{...}' without -H sends the JSON as application/x-www-form-urlencoded."""
    for body in (JSON_BODY, "  [" + JSON_BODY + "]"):
        refused(
            client.post("/check", content=body, headers={"content-type": "application/x-www-form-urlencoded"}),
            400,
            "JSON sent as a form",
            "content-type: application/json",
        )
    refused(
        client.post("/check", data={"text": "Revenue rose 12%.", "source": SOURCE}),
        400,
        "the form has no answer field",
        "content-type: application/json",
    )


@pytest.mark.parametrize("encoding, name", [("utf-16", "UTF-16"), ("utf-16-be", "UTF-16"), ("utf-32", "UTF-32")])
def test_a_utf16_upload_or_body_is_named_by_its_byte_order_mark(client, run_cli, tmp_path, encoding, name):
    data = ("\ufeff" if encoding.endswith("-be") else "") + "Revenue rose 8% to $2.4 billion."
    refused(
        client.post(
            "/check",
            data={"answer": "Revenue rose 12%."},
            files=[("file", ("notes.txt", data.encode(encoding), "text/plain"))],
        ),
        400,
        f"source file notes.txt is {name} text (its byte-order mark says so), not UTF-8",
    )
    body = ("\ufeff" if encoding.endswith("-be") else "") + JSON_BODY
    refused(
        client.post("/check", content=body.encode(encoding), headers={"content-type": "application/json"}),
        400,
        f"the request body is {name} text",
    )
    (tmp_path / "notes.txt").write_bytes(data.encode(encoding))  # and sourced check says the same
    code, _, err = run_cli("check", EXAMPLES / "answer.txt", tmp_path / "notes.txt")
    assert code == 2 and f"is {name} text (its byte-order mark says so)" in err, err


def test_bad_form_is_400_with_one_message(client):
    refused(client.post("/check", data={"answer": "Revenue rose 12%."}), 400, "no source given")
    refused(client.post("/check", data={"answer": " ", "source": SOURCE}), 400, "the answer is empty")
    refused(
        client.post(
            "/check",
            data={"answer": "Revenue rose 12%."},
            files=[("file", ("report.pdf", b"%PDF-1.4", "application/pdf"))],
        ),
        400,
        "source file report.pdf: only .txt, .md, .json files are read",
    )
    refused(
        client.post(
            "/check", data={"answer": "Revenue rose 12%."}, files=[("file", ("bad.json", b"{nope", "application/json"))]
        ),
        400,
        "malformed JSON in source file bad.json",
    )
    refused(
        client.post(
            "/check",
            data={"answer": "Revenue rose 12%."},
            files=[("file", ("latin.txt", "Umsatz für".encode("latin-1"), "text/plain"))],
        ),
        400,
        "source file latin.txt is not UTF-8",
    )


def test_an_answer_too_long_is_413_with_the_command_lines_message(client):
    r = client.post("/check", json={"answer": "a" * (MAX_ANSWER_CHARS + 1), "sources": [SOURCE]})
    refused(r, 413, f"answer: {MAX_ANSWER_CHARS + 1:,} characters, more than the {MAX_ANSWER_CHARS:,}")


def test_a_source_too_long_is_413(client, monkeypatch, nlp):
    import sourced_nlp.text.sources as sources

    monkeypatch.setattr(sources, "MAX_SOURCE_CHARS", 100)
    monkeypatch.setattr(nlp, "max_length", 100)  # a source may have the larger of the two
    refused(
        client.post("/check", json={"answer": "Revenue rose 12%.", "sources": ["x " * 60]}),
        413,
        "source '0': 120 characters, more than the 100 a source may have",
    )
    refused(
        client.post(
            "/check", data={"answer": "Revenue rose 12%."}, files=[("file", ("big.txt", b"x" * 404, "text/plain"))]
        ),
        413,
        "source file big.txt: more than 403 bytes, so more than the 100 characters a source may have",
    )


def test_a_request_too_large_is_413_before_it_is_read(client, monkeypatch):
    monkeypatch.setattr(web, "MAX_BODY", 1000)
    refused(client.post("/check", json={"answer": "x" * 2000, "sources": ["y"]}), 413, "more than 1,000 bytes")
    r = client.post("/", data={"answer": "x" * 2000, "source": "y"})
    assert r.status_code == 413 and "more than 1,000 bytes" in r.text


def test_no_request_loads_a_pipeline(client, monkeypatch):
    import sourced_nlp.api as api

    def refuse(*args, **kwargs):
        raise AssertionError("a request loaded a pipeline")

    monkeypatch.setattr(api, "load_pipeline", refuse)
    assert (
        client.post("/check", json={"answer": "Revenue rose 12%.", "sources": ["Revenue rose 8%."]}).status_code == 200
    )
    assert client.post("/", data={"answer": "Revenue rose 12% [1].", "source": "Revenue rose 8%."}).status_code == 200


def test_healthz_of_an_app_over_a_pipeline(client):
    r = client.get("/healthz")
    assert r.status_code == 200
    assert r.json() == {
        "ready": True,
        "workers": 1,
        "busy": 0,
        "free": 1,
        "starting": 0,
        "queued": 0,
        "queue_limit": None,
        "timeout_s": None,
        "replaced": 0,
    }


# ------------------------------------------------------------------ the page


def test_the_page_is_a_form(client):
    r = client.get("/")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    for part in ('name="answer"', 'name="source"', 'type="file"', 'accept=".txt,.md,.json"', 'value="cite"'):
        assert part in r.text


def test_the_page_names_the_judge_where_it_would_say_nothing_leaves(nlp):
    assert "Nothing leaves this machine." in TestClient(web.make_app(nlp)).get("/").text
    page = TestClient(web.make_app(nlp, judge="anthropic")).get("/").text
    assert "Nothing leaves" not in page and "put to the anthropic judge" in page


def test_the_page_shows_the_html_report(client, nlp):
    from sourced_nlp import check

    r = client.post("/", data={"answer": ANSWER.replace("\n", "\r\n"), "source": SOURCE, "mode": "check"})
    assert r.status_code == 200
    assert check(ANSWER, [{"id": "pasted 1", "text": SOURCE}], nlp=nlp).to_html() in r.text
    assert "sourced-card sourced-contradicted" in r.text


def test_the_page_checks_a_cited_answer(client):
    r = client.post("/", data={"answer": "Revenue rose 12% to $2.4 billion [1].", "source": SOURCE, "mode": "cite"})
    assert r.status_code == 200
    assert 'value="cite" checked' in r.text and "sourced-score" in r.text and "sourced-contradicted" in r.text


def test_the_page_says_why_it_refused_and_keeps_the_answer(client):
    r = client.post("/", data={"answer": "Revenue rose <b>12%</b>.", "source": "  "})
    assert r.status_code == 400
    assert 'role="alert">no source given' in r.text
    assert "Revenue rose &lt;b&gt;12%&lt;/b&gt;." in r.text and "<b>12%</b>" not in r.text


# ------------------------------------------------------------------ the command


def test_serve_help_documents_the_options(run_cli):
    code, out, _ = run_cli("serve", "--help")
    assert code == 0
    for part in (
        "--port",
        "--host",
        "127.0.0.1",
        "POST /check",
        "GET /healthz",
        "serve extra",
        "--workers",
        "--timeout",
        "--queue",
        "Retry-After",
        "--judge",
        "--judge-model",
        "--judge-base-url",
    ):
        assert part in out


@pytest.mark.parametrize(
    "host, local",
    [("127.0.0.1", True), ("localhost", True), ("::1", True), ("0.0.0.0", False), ("::", False), ("192.0.2.7", False)],
)
def test_local_addresses(host, local):
    assert serve_cmd.is_local(host) is local


def test_a_port_in_use_is_one_line_and_exit_2(run_cli):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        code, out, err = run_cli("serve", "--port", port)
    assert code == 2 and out == ""
    assert err.startswith(f"error: cannot listen on 127.0.0.1:{port}: ") and err.count("\n") == 1, err


def test_a_non_local_address_is_warned_about(run_cli, monkeypatch):
    served = []
    monkeypatch.setattr(serve_cmd, "_run", lambda sock, pool, judge: served.append((serve_cmd.url_of(sock), pool)))
    code, _, err = run_cli("serve", "--host", "0.0.0.0", "--port", "0")
    assert code == 0 and served and served[0][0].startswith("http://0.0.0.0:")
    assert "warning: listening on 0.0.0.0, not only this machine" in err
    code, _, err = run_cli("serve", "--port", "0")
    assert code == 0 and "warning" not in err


def test_the_pool_gets_the_options(run_cli, monkeypatch, tmp_path):
    served = []
    monkeypatch.setattr(serve_cmd, "_run", lambda sock, pool, judge: served.append((pool, judge)))
    code, _, err = run_cli("serve", "--port", "0")
    pool, judge = served.pop()
    assert code == 0 and judge == "" and pool.config == {}
    assert (pool.size, pool.timeout, pool.queue_limit) == (pool_module.default_workers(), 60.0, 16)
    assert "starting" in err and "checking worker" in err
    (tmp_path / "answers.jsonl").write_text("", encoding="utf-8")
    code, _, err = run_cli(
        "serve",
        "--port",
        "0",
        "--workers",
        "3",
        "--timeout",
        "2.5",
        "--queue",
        "0",
        "--strict",
        "--judge",
        "replay",
        "--judge-file",
        tmp_path / "answers.jsonl",
        "--judge-scope",
        "all",
    )
    pool, judge = served.pop()
    assert code == 0 and judge == "replay", err
    assert (pool.size, pool.timeout, pool.queue_limit) == (3, 2.5, 0)
    assert pool.config["judge"]["@misc"] == "sourced.judge.replay.v1" and pool.config["judge"]["scope"] == "all"
    assert pool.config["strict"] > 0


@pytest.mark.parametrize(
    "args, words",
    [
        (["--judge", "nosuch"], "unknown judge 'nosuch'"),
        (["--judge-file", "answers.jsonl"], "--judge-file needs --judge NAME"),
        (["--judge-base-url", "http://localhost:11434/v1"], "--judge-base-url needs --judge NAME"),
        (["--judge-scope", "all"], "--judge-scope all needs --judge NAME"),
        (["--judge", "replay", "--judge-base-url", "http://localhost:11434/v1"], "--judge-base-url is for --judge"),
        (["--workers", "0"], "--workers"),
        (["--timeout", "0"], "--timeout"),
        (["--queue", "-1"], "--queue"),
    ],
    ids=[
        "unknown-judge",
        "file-alone",
        "base-url-alone",
        "scope-alone",
        "base-url-replay",
        "no-workers",
        "no-time",
        "negative-queue",
    ],
)
def test_bad_serve_options_are_one_line_and_exit_2(run_cli, monkeypatch, args, words):
    monkeypatch.setattr(serve_cmd, "_run", lambda *a: pytest.fail("served with bad options"))
    code, out, err = run_cli("serve", "--port", "0", *args)
    assert code == 2 and out == "" and err.startswith("error: ") and err.count("\n") == 1, err
    assert words in err, err


BLOCK_EXTRA = """
import sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("starlette", "uvicorn", "multipart"):
            raise ModuleNotFoundError(name)
sys.meta_path.insert(0, Block())
from sourced_nlp.cli.console import main
main()
"""


@pytest.mark.process
def test_without_the_extra_serve_exits_2_naming_it():
    proc = subprocess.run(
        [sys.executable, "-c", BLOCK_EXTRA, "serve"], capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr == "error: sourced serve needs the serve extra: pip install 'sourced-nlp[serve]'\n"
