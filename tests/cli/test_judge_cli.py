"""``sourced check --judge replay`` on a real RAGTruth train record, ``--judge anthropic``
without a key, and ``sourced calibrate`` on the gold set drawn from ``../shared/data`` — all through
the real entry point, in this process (``bench/make_gold.py`` runs as a subprocess)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from rapidfuzz import fuzz

from conftest import ROOT, SHARED, invoke_cli_proc

DATA = SHARED / "data"
RECORDS = ("x555", "x561")  # RAGTruth train QA responses with several claims the rules leave unverified


def run(*args: str, env: dict | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """``sourced ARGS`` in this process (:func:`conftest.invoke_cli`); ``env`` is the whole
    environment, as for ``subprocess.run`` (a variable of this process that it lacks is unset)."""
    if env is not None:
        env = {**{k: None for k in os.environ if k not in env}, **env}
    return invoke_cli_proc(*args, env=env, cwd=cwd)


def _need_data():
    if not (DATA / "ragtruth" / "response.jsonl").is_file() or not (DATA / "dev").is_dir():
        pytest.skip(f"the shared data is not at {DATA}: the RAGTruth record and the gold set are drawn from it")


def _best_sentence(claim: str, sources: dict[str, str]) -> tuple[str, str]:
    """``(source id, sentence)``: the source sentence most like the claim (a real quote)."""
    sys.path.insert(0, str(ROOT / "bench"))
    from make_gold import sentences

    best = max(
        ((sid, text[s:e]) for sid, text in sources.items() for s, e in sentences(text)),
        key=lambda x: fuzz.token_set_ratio(claim, x[1]),
    )
    return best


@pytest.fixture(scope="module")
def record(tmp_path_factory):
    """A RAGTruth train record as files, and the JSON report of ``sourced check`` without a judge."""
    _need_data()
    sys.path.insert(0, str(ROOT / "bench"))
    from benchlib import load_ragtruth, sources_for

    responses, infos = load_ragtruth(DATA / "ragtruth", split="train")
    folder = tmp_path_factory.mktemp("record")
    for r in (r for r in responses if r["id"] in RECORDS):
        sources = {s["id"].replace(" ", "_") + ".txt": s["text"] for s in sources_for(infos[r["source_id"]])[0]}
        (folder / "answer.txt").write_text(r["response"], encoding="utf8")
        for name, text in sources.items():
            (folder / name).write_text(text, encoding="utf8")
        args = ["answer.txt", *sources]
        done = run("check", *args, "--format", "json", cwd=folder)
        assert done.returncode in (0, 1), done.stderr
        report = json.loads(done.stdout)
        undecided = [c for c in report["claims"] if c["verdict"] == "unverified"]
        if len(undecided) >= 6 and len(sources) >= 2:
            return folder, args, sources, report
    pytest.skip(f"none of the RAGTruth train records {RECORDS} leaves six claims unverified any more")


def _judged(folder: Path, args: list[str], answers: list[dict]) -> dict:
    (folder / "answers.jsonl").write_text("".join(json.dumps(a) + "\n" for a in answers), encoding="utf8")
    done = run("check", *args, "--judge", "replay", "--judge-file", "answers.jsonl", "--format", "json", cwd=folder)
    assert done.returncode in (0, 1), done.stderr
    return json.loads(done.stdout)


def test_replay_turns_undecided_claims_into_judged_verdicts_with_verified_quotes(record):
    folder, args, sources, before = record
    undecided = [c for c in before["claims"] if c["verdict"] == "unverified"]
    answers = []
    for c in undecided:
        sid, quote = _best_sentence(c["text"], sources)
        answers.append(
            {"claim": c["text"], "verdict": "grounded", "source": sid, "quote": quote, "reason": "paraphrase"}
        )
    after = _judged(folder, args, answers)
    assert len(after["claims"]) == len(before["claims"])
    unsourced = {f["claim"] for f in before["findings"] if f["kind"] in ("fabricated-number", "fabricated-quote")}
    judged = 0
    for i, (old, new) in enumerate(zip(before["claims"], after["claims"])):
        if old["verdict"] != "unverified":
            assert new == old  # a rule's verdict is never touched
            continue
        if i in unsourced:  # a figure no source has: no judge grounds it
            assert new["verdict"] == "unverified" and "the claim holds what no source has" in new["reason"]
            continue
        judged += 1
        assert new["verdict"] == "grounded" and new["rule"] == "grounded.judge"
        j = new["judge"]
        assert (j["backend"], j["prompt_version"], j["status"]) == ("replay", "judge-v1", "accepted")
        assert sources[j["source"]][j["start"] : j["end"]] == j["quote"]  # the quote is in the named source
        assert new["evidence"] == [{"source": j["source"], "start": j["start"], "end": j["end"], "text": j["quote"]}]
    assert judged >= 4 and after["counts"]["unverified"] == len(unsourced)
    assert {f["claim"] for f in after["findings"] if f["kind"] == "unsupported-claim"} == unsourced


def test_bad_replies_leave_claims_unverified_with_the_reason(record):
    folder, args, sources, before = record
    undecided = [c for c in before["claims"] if c["verdict"] == "unverified"]
    ids = sorted(sources)
    sid, quote = _best_sentence(undecided[1]["text"], sources)
    other = next(i for i in ids if i != sid)
    kinds = [
        (
            {"verdict": "grounded", "source": ids[0], "quote": "a sentence that appears in no source at all"},
            "judge's grounded discarded: the quote is in no source",
        ),
        ({"verdict": "grounded", "source": other, "quote": quote}, f"the quote is not in {other} (it is in {sid})"),
        (
            {"reply": '{"judgments": [{"claim": 0, "verdict": "grounded", "source": '},
            "unparsable reply: the reply is not JSON",
        ),
        ({"refusal": "I can't help with that."}, "the judge refused: I can't help with that."),
        ({"error": "timeout"}, "the judge timed out"),
    ]
    answers = [{"claim": c["text"], **reply} for c, (reply, _) in zip(undecided, kinds)]
    after = _judged(folder, args, answers)
    by_text = {c["text"]: c for c in after["claims"]}
    for c, (_, why) in zip(undecided, kinds):
        new = by_text[c["text"]]
        assert new["verdict"] == "unverified" and new["rule"] == c["rule"]  # the rules' own rule stands
        assert new["reason"] == f"{c['reason']}; " + new["reason"].split("; ", c["reason"].count("; ") + 1)[-1]
        assert why in new["reason"], new["reason"]
        assert new["judge"]["status"] in ("discarded", "failed")
    assert after["counts"] == before["counts"]
    text = run("check", *args, "--judge", "replay", "--judge-file", "answers.jsonl", cwd=folder).stdout
    assert all(why in text for _, why in kinds)  # the text report shows each reason too


def test_anthropic_without_a_key_stops_before_any_work(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN")}
    for cmd in ("check", "cite"):
        done = run(cmd, "no-such-answer.txt", "no-such-source.txt", "--judge", "anthropic", env=env, cwd=tmp_path)
        assert done.returncode == 2
        assert done.stderr == "error: --judge anthropic needs an API key: set ANTHROPIC_API_KEY (nothing was checked)\n"
        assert done.stdout == ""
    done = run("batch", "no-such.jsonl", "--judge", "anthropic", env=env, cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "ANTHROPIC_API_KEY" in done.stderr


@pytest.mark.parametrize(
    "args,message",
    [
        (["--judge", "oracle"], "error: unknown judge 'oracle': choose one of anthropic, openai, replay, callable"),
        (["--judge", "replay"], "error: --judge replay needs --judge-file FILE"),
        (["--judge", "replay", "--judge-file", "nope.jsonl"], "(no such file: nope.jsonl)"),
        (["--judge-file", "nope.jsonl"], "error: --judge-file and --judge-record need --judge NAME"),
        (["--judge", "callable"], 'error: --judge callable needs --judge-model "MODULE:FUNCTION"'),
        # --judge-model of callable, bad: one line, exit 2, never a traceback (cli-trial N3-55, N3-56)
        (
            ["--judge", "callable", "--judge-model", "./nojudge.py:ask"],
            "error: --judge-model: judge function './nojudge.py:ask' cannot be imported: judge function module file not "
            "found: ./nojudge.py",
        ),
        (
            ["--judge", "callable", "--judge-model", "myjudge:nope"],
            "error: --judge-model: judge function 'myjudge:nope' cannot be imported: myjudge has no attribute 'nope'",
        ),
        (["--judge", "callable", "--judge-model", "./myjudge.py:nope"], "./myjudge.py has no attribute 'nope'"),
        (
            ["--judge", "callable", "--judge-model", "myjudge:NOT_CALLABLE"],
            "judge function 'myjudge:NOT_CALLABLE' is not callable",
        ),
        (
            ["--judge", "callable", "--judge-model", "brokenjudge:ask"],
            "error: --judge-model: judge function 'brokenjudge:ask' cannot be imported: ModuleNotFoundError: No module "
            "named 'no_such_module_here'",
        ),
        (["--judge", "callable", "--judge-model", "./syntaxjudge.py:ask"], "cannot be imported: SyntaxError: "),
        (
            ["--judge", "callable", "--judge-model", "myjudge"],
            'error: --judge-model: judge function must be "MODULE:FUNCTION"',
        ),
    ],
)
def test_bad_judge_options(tmp_path, args, message):
    (tmp_path / "a.txt").write_text("Revenue rose 8%.", encoding="utf8")
    _judge_modules(tmp_path)
    done = run("check", "a.txt", "a.txt", *args, cwd=tmp_path)
    assert done.returncode == 2 and message in done.stderr and done.stderr.count("\n") == 1, done.stderr
    assert "Traceback" not in done.stderr


def _judge_modules(folder: Path) -> None:
    """Judge functions in ``folder``, the working directory of the test (a unique module name
    each, so that no module imported by another test is taken)."""
    (folder / "myjudge.py").write_text(
        "import pathlib\n"
        "NOT_CALLABLE = 3\n"
        "def ask(inp):\n"
        "    with open(pathlib.Path(__file__).with_name('asked.txt'), 'a') as fh:\n"
        "        fh.write(inp.claim + '\\n')\n"
        "    return {'verdict': 'unverified', 'reason': 'asked'}\n",
        encoding="utf8",
    )
    (folder / "brokenjudge.py").write_text("import no_such_module_here\n", encoding="utf8")
    (folder / "syntaxjudge.py").write_text("def ask(:\n", encoding="utf8")


@pytest.mark.parametrize("how", ["file", "module"])
def test_a_callable_judge_from_a_file_or_a_module_in_the_working_directory(tmp_path, how, monkeypatch):
    """``--judge-model ./myjudge.py:ask`` and ``--judge-model myjudge:ask`` with ``myjudge.py`` in
    the working directory (no PYTHONPATH): the function is imported and asked about the claim
    the rules leave unverified (cli-trial N3-55, N3-56)."""
    folder = tmp_path / how
    folder.mkdir()
    _judge_modules(folder)
    name = f"myjudge_{how}"
    (folder / f"{name}.py").write_text((folder / "myjudge.py").read_text(encoding="utf8"), encoding="utf8")
    (folder / "a.txt").write_text("Revenue rose 8%. The CEO resigned.", encoding="utf8")
    (folder / "s.txt").write_text("Revenue rose 8%.", encoding="utf8")
    ref = f"./{name}.py:ask" if how == "file" else f"{name}:ask"
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", ".", str(folder))])
    done = run("check", "a.txt", "s.txt", "--judge", "callable", "--judge-model", ref, cwd=folder)
    assert done.returncode == 0, done.stderr
    assert (folder / "asked.txt").read_text(encoding="utf8") == "The CEO resigned.\n"


@pytest.fixture(scope="module")
def gold(tmp_path_factory):
    _need_data()
    folder = tmp_path_factory.mktemp("gold")
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "bench" / "make_gold.py"),
            "--out",
            str(folder / "gold.jsonl"),
            "--answers",
            str(folder / "answers.jsonl"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return folder


def test_gold_set_is_drawn_the_same_every_time(gold, tmp_path):
    rows = [json.loads(line) for line in (gold / "gold.jsonl").read_text(encoding="utf8").splitlines()]
    assert len(rows) == 160 and len({r["id"] for r in rows}) == 160
    assert {r["label"] for r in rows} == {"grounded", "contradicted", "unverified"}
    assert {r["origin"].split("-")[0] for r in rows} == {"climate", "summedits", "ragtruth"}
    subprocess.run(
        [sys.executable, str(ROOT / "bench" / "make_gold.py"), "--out", str(tmp_path / "again.jsonl")],
        check=True,
        capture_output=True,
        timeout=300,
    )
    assert (tmp_path / "again.jsonl").read_bytes() == (gold / "gold.jsonl").read_bytes()


def test_calibrate_replay_prints_and_writes_its_table(gold):
    done = run(
        "calibrate", "gold.jsonl", "--judge", "replay", "--judge-file", "answers.jsonl", "-o", "replay.json", cwd=gold
    )
    assert done.returncode == 0, done.stderr
    result = json.loads((gold / "replay.json").read_text(encoding="utf8"))
    assert result["backend"] == "replay" and result["prompt_version"] == "judge-v1"
    assert result["model"] == "stand-in:token_set_ratio>=90" and result["n"] == 160
    confusion = result["confusion"]
    assert sum(sum(row.values()) for row in confusion.values()) == 160
    agree = sum(confusion[v][v] for v in confusion) / 160
    assert result["agreement"] == round(agree, 4)
    assert f"agreement {agree:.1%} on 160 claims" in done.stdout and "| precision |" in done.stdout
    assert sum(result["status"].values()) == 160
    assert _printed(done.stdout) in _quoted_in_docs(), (
        "docs/judges.md does not quote what calibrate --judge replay prints"
    )


def _printed(stdout: str) -> str:
    """What ``sourced calibrate`` prints, its head line and table (without what follows them)."""
    head, rest = stdout.split("\n\n", 1)
    table = [ln for ln in rest.splitlines()[:6] if ln.startswith("|")]
    return head + "\n\n" + "\n".join(table)


def _quoted_in_docs() -> list[str]:
    """The ``text`` blocks of docs/judges.md that quote a calibrate run."""
    import re

    text = (ROOT / "docs" / "judges.md").read_text(encoding="utf8")
    return [b.rstrip("\n") for b in re.findall(r"```text\n(.*?)```", text, re.S) if "agreement" in b]


def test_the_docs_quote_what_calibrate_prints(gold):
    """docs/judges.md quotes the rules' calibration whole, and the README and bench/RESULTS.md
    give its agreement: each the figure the command prints now."""
    done = run("calibrate", "gold.jsonl", "--no-meaning", "-o", "rules-docs.json", cwd=gold)
    assert done.returncode == 0, done.stderr
    assert _printed(done.stdout) in _quoted_in_docs(), done.stdout
    agree = done.stdout.split("agreement ")[1].split(" ")[0]
    assert f"| judge calibration, agreement with human labels (rules alone) | {agree} |" in (
        ROOT / "README.md"
    ).read_text(encoding="utf8")
    assert f"the 160 gold claims is {agree} for the rules alone" in " ".join(
        (ROOT / "bench" / "RESULTS.md").read_text(encoding="utf8").split()
    )


@pytest.mark.slow
@pytest.mark.parametrize(
    "argv, backend, meaning, head",
    [
        ([], "rules+meaning", "meaning-lr 1", "rules+meaning (meaning-lr 1): agreement"),
        (["--no-meaning"], "rules", None, "rules: agreement"),
    ],
)
def test_calibrate_rules_and_meaning_tier(gold, argv, backend, meaning, head):
    done = run("calibrate", "gold.jsonl", *argv, "-o", "rules.json", cwd=gold)
    assert done.returncode == 0, done.stderr
    result = json.loads((gold / "rules.json").read_text(encoding="utf8"))
    assert result["backend"] == backend and result["meaning"] == meaning and result["n"] == 160
    assert result["model"] is None and result["prompt_version"] is None
    assert done.stdout.startswith(head)


def test_calibrate_bad_input(tmp_path):
    done = run("calibrate", "missing.jsonl", cwd=tmp_path)
    assert (
        done.returncode == 2 and done.stderr == "error: gold file missing.jsonl: cannot read it (FileNotFoundError)\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("ANTHROPIC_")}
    done = run("calibrate", "missing.jsonl", "--judge", "anthropic", env=env, cwd=tmp_path)
    assert done.returncode == 2 and "needs an API key" in done.stderr  # before the gold file is read


# ----------------------------------------------- a judge whose every request fails (cli-trial N3-57)


def _failing_judge(folder: Path, name: str) -> str:
    (folder / f"{name}.py").write_text(
        "def ask(inp):\n    raise ConnectionError('Connection error.')\n", encoding="utf8"
    )
    (folder / "a.txt").write_text("Revenue rose 8%. The CEO resigned.", encoding="utf8")
    (folder / "s.txt").write_text("Revenue rose 8%.", encoding="utf8")
    return f"{name}:ask"


FAILED_LINE = (
    "judge: 1 of 1 claims got no verdict, every request failed (the judge function raised ConnectionError: "
    "Connection error.): they keep the rules' verdict (--fail-on judge-error fails the gate on this)\n"
)


def test_a_judge_whose_every_request_fails_is_said_on_stderr_and_can_fail_the_gate(tmp_path):
    ref = _failing_judge(tmp_path, "failjudge_check")
    args = ("check", "a.txt", "s.txt", "--judge", "callable", "--judge-model", ref)
    done = run(*args, cwd=tmp_path)
    assert done.returncode == 0 and done.stderr == FAILED_LINE, done.stderr
    done = run(*args, "--fail-on", "judge-error", cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert done.stderr == FAILED_LINE + "gate: the judge gave no verdict for 1 of 1 claims (its requests failed)\n"
    done = run(*args, "--fail-on", "judge-error", "--fail-on", "unverified", cwd=tmp_path)  # both gates
    assert done.returncode == 1 and "gate: 1 claim(s) unverified" in done.stderr, done.stderr
    done = run(
        "cite", "a.txt", "s.txt", "--judge", "callable", "--judge-model", ref, "--fail-on", "judge-error", cwd=tmp_path
    )
    assert done.returncode == 1 and "gate: the judge gave no verdict for 1 of 1 claims" in done.stderr, done.stderr


def test_a_batch_whose_judge_fails_says_it_in_its_summary(tmp_path):
    ref = _failing_judge(tmp_path, "failjudge_batch")
    record = {"output": "Revenue rose 8%. The CEO resigned.", "sources": ["Revenue rose 8%."]}
    (tmp_path / "r.jsonl").write_text(json.dumps(record) + "\n" + json.dumps(record) + "\n", encoding="utf8")
    args = ("batch", "r.jsonl", "-o", "out.jsonl", "--judge", "callable", "--judge-model", ref)
    done = run(*args, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines() == [
        FAILED_LINE.replace("1 of 1", "2 of 2").rstrip("\n"),
        "2 records: 2 checked, 0 failed the gate, 0 malformed; judge: 2 of 2 claims got no verdict",
    ]
    done = run(*args, "--fail-on", "judge-error", cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert "2 records: 2 checked, 2 failed the gate, 0 malformed; judge: 2 of 2" in done.stderr


def test_a_judge_that_answers_adds_no_line(tmp_path):
    _judge_modules(tmp_path)
    (tmp_path / "a.txt").write_text("Revenue rose 8%. The CEO resigned.", encoding="utf8")
    (tmp_path / "s.txt").write_text("Revenue rose 8%.", encoding="utf8")
    done = run(
        "check",
        "a.txt",
        "s.txt",
        "--judge",
        "callable",
        "--judge-model",
        "./myjudge.py:ask",
        "--fail-on",
        "judge-error",
        cwd=tmp_path,
    )
    assert done.returncode == 0 and done.stderr == "", done.stderr


# ------------------------------------------------------------ a judge that invents every quote

INVENTED_LINE = (
    "judge: 1 of 1 claims got no usable verdict, every quote failed the check against the sources (the "
    'quote is in no source: "the chief executive resigned in March"): they keep the rules\' verdict '
    "(--fail-on judge-error fails the gate on this)\n"
)


def _inventing_judge(folder: Path, name: str) -> str:
    (folder / f"{name}.py").write_text(
        "def ask(inp):\n"
        "    return {'verdict': 'grounded', 'source': 's.txt', 'quote': 'the chief executive resigned in March',\n"
        "            'reason': 'stated'}\n",
        encoding="utf8",
    )
    (folder / "a.txt").write_text("Revenue rose 8%. The CEO resigned.", encoding="utf8")
    (folder / "s.txt").write_text("Revenue rose 8%.", encoding="utf8")
    return f"{name}:ask"


def test_a_judge_that_invents_every_quote_is_said_on_stderr_and_can_fail_the_gate(tmp_path):
    ref = _inventing_judge(tmp_path, "inventjudge_check")
    args = ("check", "a.txt", "s.txt", "--judge", "callable", "--judge-model", ref)
    done = run(*args, cwd=tmp_path)
    assert done.returncode == 0 and done.stderr == INVENTED_LINE, done.stderr
    done = run(*args, "--fail-on", "judge-error", cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert done.stderr == INVENTED_LINE + (
        "gate: the judge's verdict was discarded for 1 of 1 claims (its quotes failed the check against the sources)\n"
    )


def test_a_batch_whose_judge_invents_its_quotes_counts_them_in_its_summary(tmp_path):
    ref = _inventing_judge(tmp_path, "inventjudge_batch")
    record = {"output": "Revenue rose 8%. The CEO resigned.", "sources": [{"id": "s.txt", "text": "Revenue rose 8%."}]}
    (tmp_path / "r.jsonl").write_text(json.dumps(record) + "\n" + json.dumps(record) + "\n", encoding="utf8")
    args = ("batch", "r.jsonl", "-o", "out.jsonl", "--judge", "callable", "--judge-model", ref)
    done = run(*args, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines() == [
        INVENTED_LINE.replace("1 of 1", "2 of 2").rstrip("\n"),
        "2 records: 2 checked, 0 failed the gate, 0 malformed; judge: 2 of 2 verdicts discarded",
    ]
    done = run(*args, "--fail-on", "judge-error", cwd=tmp_path)
    assert done.returncode == 1 and "2 records: 2 checked, 2 failed the gate" in done.stderr, done.stderr
