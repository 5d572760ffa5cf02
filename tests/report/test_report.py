"""Report: the JSON shape, its round trip, determinism, the gate, Markdown."""

import json

import pytest

from sourced_nlp.report import SCHEMA, VERDICTS, ClaimResult, Evidence, Report, Skipped


def make_report() -> Report:
    answer = "Here is a summary: Revenue rose 12%. Net income was $310 million. It has 5 offices."
    return Report(
        answer=answer,
        claims=[
            ClaimResult(
                text="Revenue rose 12%.",
                start=19,
                end=36,
                verdict="contradicted",
                reason="the source gives another value for revenue growth",
                support=0.1,
                evidence=[Evidence("source.txt", 40, 62, "Revenue rose 8% to $2.4B")],
                differs=[{"claim": "12%", "source": "8%", "kind": "quantity"}],
            ),
            ClaimResult(
                text="Net income was $310 million.",
                start=37,
                end=65,
                verdict="grounded",
                reason="all anchors found",
                support=0.93,
                evidence=[Evidence("source.txt", 63, 90, "Net income was $310 million")],
                citations=[{"marker": "[1]", "target": "1", "start": 64, "end": 67}],
            ),
            ClaimResult(
                text="It has 5 offices.",
                start=66,
                end=83,
                verdict="unverified",
                reason="no passage mentions offices",
                support=0.0,
            ),
        ],
        skipped=[Skipped("Here is a summary:", 0, 18, "preamble")],
        sources=[{"id": "source.txt", "chars": 120}],
    )


def test_to_dict_shape():
    d = make_report().to_dict()
    assert list(d) == ["schema", "answer", "sources", "claims", "skipped", "counts"]
    assert d["schema"] == SCHEMA == "sourced.report/1"
    assert set(d["claims"][0]) == {
        "text",
        "start",
        "end",
        "verdict",
        "reason",
        "support",
        "evidence",
        "differs",
        "citations",
    }
    assert d["claims"][0]["evidence"] == [
        {"source": "source.txt", "start": 40, "end": 62, "text": "Revenue rose 8% to $2.4B"}
    ]
    assert d["skipped"] == [{"text": "Here is a summary:", "start": 0, "end": 18, "kind": "preamble"}]
    assert d["counts"] == {"grounded": 1, "contradicted": 1, "unverified": 1}


def test_counts_always_has_all_verdicts():
    assert Report().counts == {v: 0 for v in VERDICTS}
    assert "answer" not in Report().to_dict()


def test_rule_is_an_optional_key_kept_through_json():
    d = make_report().to_dict()
    assert all("rule" not in c for c in d["claims"])  # a report that names no rule has no key
    d["claims"][0]["rule"] = "contradicted.value"
    d["claims"][1]["rule"] = None  # null: the same as absent
    report = Report.from_dict(json.loads(json.dumps(d)))
    assert [c.rule for c in report.claims] == ["contradicted.value", None, None]
    again = report.to_dict()
    assert again["claims"][0]["rule"] == "contradicted.value"
    assert list(again["claims"][0])[-1] == "rule"
    assert "rule" not in again["claims"][1] and "rule" not in again["claims"][2]
    assert Report.from_dict(json.loads(report.to_json())) == report


def test_round_trip():
    report = make_report()
    again = Report.from_dict(json.loads(report.to_json()))
    assert again == report
    assert again.to_dict() == report.to_dict()


@pytest.mark.parametrize("bad", [{}, {"schema": "sourced.report/2"}, {"schema": None}, [], "x"])
def test_from_dict_rejects_wrong_schema(bad):
    with pytest.raises(ValueError):
        Report.from_dict(bad)


def test_unknown_verdict_rejected():
    with pytest.raises(ValueError):
        ClaimResult(text="x", start=0, end=1, verdict="maybe")


def test_to_json_deterministic():
    a, b = make_report().to_json(), make_report().to_json()
    assert a == b
    assert a.encode("utf-8") == b.encode("utf-8")
    assert json.loads(a)["schema"] == SCHEMA
    # keys sorted at every level
    assert a == json.dumps(json.loads(a), sort_keys=True, ensure_ascii=False, indent=2)


def test_to_json_keeps_unicode():
    r = Report(answer="Ünïcode – ok", claims=[ClaimResult("Ünïcode – ok", 0, 12, "unverified")])
    assert "Ünïcode – ok" in r.to_json()


@pytest.mark.parametrize(
    "verdicts,fail_on,expected",
    [
        ([], "contradicted", False),
        ([], "unverified", True),  # a strict gate fails an answer with no claim: it states nothing
        (["grounded"], "contradicted", False),
        (["grounded"], "unverified", False),
        (["grounded", "unverified"], "contradicted", False),
        (["grounded", "unverified"], "unverified", True),
        (["contradicted"], "contradicted", True),
        (["contradicted"], "unverified", True),
    ],
)
def test_failed_gate(verdicts, fail_on, expected):
    r = Report(claims=[ClaimResult(f"c{i}", i, i + 1, v) for i, v in enumerate(verdicts)])
    assert r.failed(fail_on) is expected
    assert bool(r.failing_claims(fail_on)) is (expected and bool(verdicts))


def test_failing_claims_and_default():
    r = make_report()
    assert r.failed() is True
    assert [c.verdict for c in r.failing_claims()] == ["contradicted"]
    assert [c.verdict for c in r.failing_claims("unverified")] == ["contradicted", "unverified"]
    with pytest.raises(ValueError):
        r.failed("grounded")


def test_markdown_table():
    md = make_report().to_markdown()
    lines = md.splitlines()
    assert lines[0] == "| grounded | contradicted | unverified | skipped |"
    assert "| 1 | 1 | 1 | 1 |" in md
    assert "| | verdict | claim | evidence | reason |" in md
    row = next(line for line in lines if "contradicted | Revenue" in line)
    assert row.startswith("| ✘ |")
    assert "`source.txt:40-62`" in row
    assert "claim 12% ≠ source 8%" in row
    assert any(line.startswith("| ✔ | grounded |") for line in lines)
    assert any(line.startswith("| ? | unverified |") for line in lines)


def test_markdown_escapes_pipes():
    r = Report(claims=[ClaimResult("a | b\nc", 0, 7, "unverified", reason="x|y")])
    row = r.to_markdown().splitlines()[-1]
    assert "a \\| b c" in row and "x\\|y" in row


@pytest.mark.parametrize(
    "text",
    [
        "It ships <img src=x onerror=alert(1)> today.",
        "See <script>alert(1)</script> here.",
        "Read [the terms](https://example.com/x) first.",
        "Totals are *bold* and _slanted_ with `code`.",
        "AT&T&#60;b&#62; sold 5 units.",
    ],
)
def test_markdown_shows_the_answers_text_as_written_and_runs_none_of_it(text):
    """A claim or reason holding HTML, a link, emphasis or an entity: rendered as CommonMark
    with tables (markdown-it, as a pull-request page renders it), the page shows the text as
    written and holds no tag, link or emphasis of it."""
    import html as html_lib

    from markdown_it import MarkdownIt

    r = Report(
        claims=[
            ClaimResult(
                text,
                0,
                len(text),
                "unverified",
                reason=f"the claim says '{text}'",
                evidence=[Evidence("<b>src</b>`x`.txt", 0, 3, "abc")],
            )
        ]
    )
    html = MarkdownIt("commonmark").enable("table").render(r.to_markdown())
    for tag in ("<img", "<script", "<a ", "<em>", "<strong>", "<b>"):
        assert tag not in html, (tag, html)
    assert html.count("<code>") == 1  # the evidence's source:start-end, nothing of the text
    assert text in html_lib.unescape(html)  # shown as written


# ---------------------------------------------------------------- from_dict names the bad field


def _saved(**over):
    d = make_report().to_dict()
    d.update(over)
    return d


@pytest.mark.parametrize(
    "d,needle",
    [
        ({"schema": SCHEMA}, "the report has no 'claims'"),  # the fields in Report's order
        ({"schema": SCHEMA, "claims": [], "skipped": []}, "the report has no 'sources'"),
        ({"schema": SCHEMA, "sources": [], "skipped": []}, "the report has no 'claims'"),
        (_saved(claims=None), "claims must be an array, got null"),
        (_saved(claims=[{"text": "x"}]), "claims[0] has no 'start'"),
        (
            _saved(claims=[{"text": "x", "start": 0, "end": 1, "verdict": "grounded", "evidence": [None]}]),
            "claims[0].evidence[0] must be an object, got null",
        ),
        (
            _saved(claims=[{"text": "x", "start": 0, "end": 1, "verdict": "maybe"}]),
            "claims[0].verdict 'maybe' is none of grounded, contradicted, unverified",
        ),
        (_saved(sources=[[1]]), "sources[0] must be an object, got array"),
        (_saved(skipped=[{"text": "Hi", "start": 0, "end": 2}]), "skipped[0] has no 'kind'"),
        (_saved(answer=3), "answer must be a string, got number"),
        (
            _saved(claims=[{"text": "x", "start": 0, "end": 1, "verdict": "grounded", "rule": ["grounded"]}]),
            "claims[0].rule must be a string, got array",
        ),
        (
            _saved(claims=[{"text": "x", "start": 0, "end": 1, "verdict": "grounded", "judge": "yes"}]),
            "claims[0].judge must be an object, got string",
        ),
        (
            _saved(claims=[{"text": "x", "start": 0, "end": 1, "verdict": "grounded", "meaning": {"model": "m"}}]),
            "claims[0].meaning has no 'version'",
        ),
        (_saved(findings=[{"kind": "uncited"}]), "findings[0] has no 'severity'"),
        (_saved(counts=[]), "counts must be an object, got array"),
    ],
)
def test_from_dict_names_the_missing_or_mistyped_field(d, needle):
    with pytest.raises(ValueError) as info:
        Report.from_dict(d)
    assert str(info.value) == f"malformed report: {needle}"


# ---------------------------------------------------------------- the gate validates like the CLI


@pytest.mark.parametrize(
    "kwargs,error,needle",
    [
        ({"fail_under": 500}, ValueError, "fail_under must be a score in 0-100, got 500"),
        ({"fail_under": -5}, ValueError, "fail_under must be a score in 0-100, got -5"),
        ({"fail_under": float("nan")}, ValueError, "fail_under must be a score in 0-100"),
        ({"fail_under": "x"}, TypeError, "fail_under must be a number, got str 'x'"),
        ({"min_coverage": 250}, ValueError, "min_coverage must be a share in 0-1 (or a percentage), got 250"),
        ({"min_coverage": True}, TypeError, "min_coverage must be a number, got bool"),
        (
            {"fail_on": "bogus"},
            ValueError,
            "unknown fail_on 'bogus'; expected one of contradicted, unverified, high, medium, low",
        ),
        ({"fail_on": 3}, TypeError, "fail_on must be a string, got int"),
    ],
)
def test_gate_refuses_bad_arguments(kwargs, error, needle):
    with pytest.raises(error) as info:
        make_report().gate(**kwargs)
    assert needle in str(info.value)


def test_gate_reads_min_coverage_above_one_as_a_percentage():
    report = make_report()
    assert report.gate("high", min_coverage=7) == report.gate("high", min_coverage=0.07)
    assert report.gate("high", min_coverage=7)[-1] == "citation coverage 0% < 7%"
    with pytest.raises(ValueError, match="unknown fail_on 'bogus'"):
        report.failed("bogus")


@pytest.mark.parametrize(
    "command, answer, shown",
    [
        ("check", "Revenue rose 8% to $2.4 billion.", None),  # nothing cited: null, n/a
        ("cite", "Revenue rose 8% to $2.4 billion.", None),  # nothing cited: the findings say so
        ("cite", "Revenue rose 8% to $2.4 billion [1].", 1.0),
        ("cite", "Revenue rose 8% to $2.4 billion [1]. Costs fell.", 0.5),
    ],
)
def test_coverage_is_the_same_in_every_view(command, answer, shown, tmp_path, run_cli):
    from conftest import ROOT

    (tmp_path / "a.txt").write_text(answer)
    views = {
        fmt: run_cli(command, tmp_path / "a.txt", ROOT / "examples" / "source.txt", "--format", fmt)[1]
        for fmt in ("json", "markdown", "text", "html")
    }
    assert json.loads(views["json"])["coverage"] == shown
    table = views["markdown"].splitlines()
    cell = dict(zip(table[0].split("|"), table[2].split("|")))[" citation coverage "].strip()
    assert cell == ("n/a" if shown is None else f"{shown:.0%}")
    for fmt in ("text", "html"):
        assert ("citation coverage" in views[fmt]) == (shown is not None), fmt
        if shown is not None:
            assert f"citation coverage {shown:.0%}" in views[fmt], fmt
