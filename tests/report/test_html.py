"""The notebook views: ``Report._repr_html_`` / ``to_html``, ``displacy_options``, ``to_frame``,
and ``sourced check --format html -o``."""

import html
import os
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

import sourced_nlp
from conftest import invoke_cli_proc
from sourced_nlp.report import VERDICTS, ClaimResult, Evidence, Report, Skipped
from sourced_nlp.report.html import COLORS, MARKS, TINTS, displacy_options, emphasise

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


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
                rule="contradicted.value",
            ),
            ClaimResult(
                text="Net income was $310 million.",
                start=37,
                end=65,
                verdict="grounded",
                reason="all anchors found",
                support=0.93,
                evidence=[Evidence("source.txt", 63, 90, "Net income was $310 million")],
                rule="grounded.passage",
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


class _Collect(HTMLParser):
    """Parses HTML strictly enough to catch unbalanced tags; collects tags and text."""

    VOID = {"meta", "br", "img", "hr", "link", "input"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.tags: list[tuple[str, dict]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        assert self.stack and self.stack[-1] == tag, f"unbalanced </{tag}>, open: {self.stack[-3:]}"
        self.stack.pop()

    def handle_data(self, data):
        self.text.append(data)


def parse(markup: str) -> _Collect:
    p = _Collect()
    p.feed(markup)
    p.close()
    assert p.stack == [], f"unclosed tags: {p.stack}"
    return p


def test_repr_html_highlights_every_claim_with_mark_and_colour():
    report = make_report()
    markup = report._repr_html_()
    p = parse(markup)
    marks = [a for t, a in p.tags if t == "mark"]
    assert [a["data-verdict"] for a in marks] == ["contradicted", "grounded", "unverified"]
    for a in marks:
        v = a["data-verdict"]
        assert TINTS[v] in a["style"] and COLORS[v] in a["style"]
        assert MARKS[v] in a["title"]  # hover text starts with the mark and verdict
    text = "".join(p.text)
    # The answer is shown whole (claims, skipped preamble and all), in order.
    flat = re.sub(r"[✔✘?]\d", "", text)
    assert "Here is a summary: Revenue rose 12%. Net income was $310 million. It has 5 offices." in flat
    # Counts on top, marks beside the words: colour is never the only cue.
    assert text.index("✔ 1 grounded") < text.index("Revenue rose 12%")
    assert "✘ 1 contradicted" in text and "? 1 unverified" in text and "1 skipped" in text
    for v in VERDICTS:
        assert f"{MARKS[v]} {v}" in text


def test_html_shows_reason_evidence_offsets_and_matched_words():
    markup = make_report().to_html()
    text = "".join(parse(markup).text)
    assert "no passage mentions offices" in text
    assert "source.txt 40–62" in text and "source.txt 63–90" in text
    assert "claim 12% ≠ source 8%" in text
    # Words shared with the claim are emphasised in the passage; stop words are not.
    assert "<strong" in markup
    assert re.search(r"<strong[^>]*>Net</strong> <strong[^>]*>income</strong> was", markup)
    assert re.search(r"<strong[^>]*>310</strong>", markup)
    # The differing source value is marked.
    assert re.search(r'class="sourced-differs-value"[^>]*>8%</span>', markup)


def test_html_names_the_rule_of_each_claim_that_has_one():
    markup = make_report().to_html()
    cards = re.findall(r'<li class="sourced-card.*?</li>', markup)
    assert len(cards) == 3
    assert re.search(r'class="sourced-rule-name"[^>]*>contradicted\.value</span>', cards[0])
    assert re.search(r'class="sourced-rule-name"[^>]*>grounded\.passage</span>', cards[1])
    assert "sourced-rule" not in cards[2]  # a claim without a rule shows none
    assert "rule grounded.passage" in markup  # and in the hover text of the highlight
    evil = Report(claims=[ClaimResult(text="x", start=0, end=1, verdict="grounded", rule="<b>r</b>")]).to_html()
    assert "<b>" not in evil and "&lt;b&gt;r&lt;/b&gt;" in evil


def test_emphasise_is_case_insensitive_and_escapes():
    out = emphasise("REVENUE <b>rose</b> & fell", "revenue rose")
    assert out.startswith('<strong style="font-weight:700;">REVENUE</strong> &lt;b&gt;')
    assert "&amp; fell" in out and "<b>" not in out


def test_html_escapes_user_text_and_is_self_contained():
    evil = '<script>alert("x")</script> & <img src=x onerror=alert(1)>'
    report = Report(
        answer=evil + " Done.",
        claims=[
            ClaimResult(
                text=evil,
                start=0,
                end=len(evil),
                verdict="unverified",
                reason=evil,
                evidence=[Evidence('"><script>', 0, 5, evil)],
            )
        ],
        sources=[{"id": "<b>src</b>", "chars": 5}],
    )
    for markup in (report.to_html(), report.to_html(standalone=True, title=evil)):
        assert "<script" not in markup.lower()
        assert "<img" not in markup.lower()
        assert "<b>" not in markup
        assert "&lt;script&gt;" in markup
        tags = parse(markup).tags
        assert {t for t, _ in tags} <= {
            "html",
            "head",
            "meta",
            "title",
            "body",
            "div",
            "span",
            "mark",
            "sup",
            "strong",
            "em",
            "ol",
            "li",
        }
        # Nothing is fetched: no attribute points anywhere, no event handlers.
        for _, attrs in tags:
            assert not {"src", "href", "onerror", "onload"} & set(attrs)
        assert "http://" not in markup and "https://" not in markup and "@import" not in markup


def test_standalone_page():
    page = make_report().to_html(standalone=True, title="my report")
    assert page.startswith("<!DOCTYPE html>")
    assert '<meta charset="utf-8">' in page and "<title>my report</title>" in page
    assert page.rstrip().endswith("</html>")
    parse(page)


def test_html_without_answer_text_or_claims():
    d = make_report().to_dict()
    del d["answer"]
    markup = Report.from_dict(d).to_html()
    assert len(re.findall(r"<mark ", markup)) == 3
    empty = Report(answer="Hello!", skipped=[Skipped("Hello!", 0, 6, "greeting")])
    text = "".join(parse(empty.to_html()).text)
    assert "no claims found" in text and "Hello!" in text


def test_html_survives_bad_offsets():
    report = make_report()
    report.claims.append(ClaimResult(text="ghost", start=500, end=505, verdict="grounded"))
    report.claims.append(ClaimResult(text="overlap", start=20, end=30, verdict="grounded"))
    markup = report.to_html()
    parse(markup)
    # Out-of-range and overlapping spans are not highlighted, but keep their card.
    assert len(re.findall(r"<mark ", markup)) == 3
    assert markup.count('class="sourced-card') == 5


def test_html_is_deterministic():
    assert make_report().to_html() == make_report().to_html()


def test_displacy_options():
    opts = sourced_nlp.displacy_options()
    assert opts == {"spans_key": "sourced_claims", "colors": dict(COLORS)}
    assert set(opts["colors"]) == set(VERDICTS)
    assert len(set(opts["colors"].values())) == 3
    opts["colors"]["grounded"] = "red"
    assert displacy_options()["colors"]["grounded"] == COLORS["grounded"]


def test_displacy_renders_verdict_spans(nlp):
    from spacy import displacy

    doc = nlp.make_doc((EXAMPLES / "answer.txt").read_text(encoding="utf8"))
    doc._.sources = [{"id": "source.txt", "text": (EXAMPLES / "source.txt").read_text(encoding="utf8")}]
    doc = nlp(doc)
    labels = {s.label_ for s in doc.spans["sourced_claims"]}
    assert labels == set(VERDICTS)
    markup = displacy.render(doc, style="span", options=displacy_options(), jupyter=False)
    for v in VERDICTS:
        assert v in markup and COLORS[v] in markup


def test_frame_one_row_per_claim():
    pd = pytest.importorskip("pandas")
    df = make_report().to_frame()
    assert list(df.columns) == [
        "claim",
        "text",
        "start",
        "end",
        "verdict",
        "support",
        "reason",
        "differs",
        "evidence_source",
        "evidence_start",
        "evidence_end",
        "evidence_text",
        "n_evidence",
        "rule",
        "rule_precision",
    ]
    assert len(df) == 3
    assert list(df["rule"][:2]) == ["contradicted.value", "grounded.passage"] and pd.isna(df.loc[2, "rule"])
    assert list(df["verdict"]) == ["contradicted", "grounded", "unverified"]
    assert list(df["verdict"].cat.categories) == list(VERDICTS)
    assert df.loc[0, "differs"] == "12% ≠ 8%"
    assert (df.loc[0, "evidence_source"], df.loc[0, "evidence_start"], df.loc[0, "evidence_end"]) == (
        "source.txt",
        40,
        62,
    )
    assert pd.isna(df.loc[2, "evidence_start"]) and df.loc[2, "n_evidence"] == 0
    assert list(df["start"]) == [19, 37, 66]
    counts = df["verdict"].value_counts()
    assert counts["grounded"] == 1 and counts["contradicted"] == 1 and counts["unverified"] == 1


def test_frame_batch_and_empty():
    pytest.importorskip("pandas")
    r = make_report()
    df = sourced_nlp.to_frame([r, Report(), r])
    assert list(df["report"]) == [0, 0, 0, 2, 2, 2]
    assert df.columns[0] == "report"
    by_id = sourced_nlp.to_frame({"a": r, "b": r})
    assert list(by_id["report"]) == ["a"] * 3 + ["b"] * 3
    empty = sourced_nlp.to_frame([])
    assert len(empty) == 0 and "verdict" in empty.columns
    assert list(empty["verdict"].cat.categories) == list(VERDICTS)
    mix = df.groupby("report")["verdict"].value_counts().unstack()
    assert list(mix.columns) == list(VERDICTS)
    with pytest.raises(TypeError):
        sourced_nlp.to_frame([r.to_dict()])


def _sourced(*args, cwd=None):
    """``sourced ARGS`` in this process (:func:`conftest.invoke_cli`), with this process's own
    NO_COLOR and COLUMNS (as the subprocess these tests once started inherited them)."""
    env = {name: os.environ.get(name) for name in ("NO_COLOR", "COLUMNS")}
    return invoke_cli_proc(*args, cwd=cwd, env=env)


def test_cli_html_output_file(tmp_path):
    out = tmp_path / "report.html"
    r = _sourced(
        "check", str(EXAMPLES / "answer.txt"), str(EXAMPLES / "source.txt"), "--format", "html", "-o", str(out)
    )
    assert r.returncode == 1, r.stderr  # the example has a contradicted claim
    assert r.stdout == "" and "Traceback" not in r.stderr
    page = out.read_text(encoding="utf8")
    assert page.startswith("<!DOCTYPE html>")
    parse(page)
    verdicts = re.findall(r'<mark [^>]*data-verdict="(\w+)"', page)
    assert sorted(set(verdicts)) == sorted(VERDICTS)


def test_cli_html_stdout_and_output_for_other_formats(tmp_path):
    r = _sourced("check", str(EXAMPLES / "answer.txt"), str(EXAMPLES / "source.txt"), "-f", "html")
    assert r.returncode == 1 and r.stdout.startswith("<!DOCTYPE html>")
    out = tmp_path / "report.json"
    r = _sourced(
        "check", str(EXAMPLES / "answer.txt"), str(EXAMPLES / "source.txt"), "-f", "json", "--output", str(out)
    )
    assert r.returncode == 1 and r.stdout == ""
    assert Report.from_dict(__import__("json").loads(out.read_text(encoding="utf8"))).counts["contradicted"] >= 1
    txt = tmp_path / "report.txt"
    r = _sourced("check", str(EXAMPLES / "answer.txt"), str(EXAMPLES / "source.txt"), "-o", str(txt))
    assert r.returncode == 1
    body = txt.read_text(encoding="utf8")
    assert "✘ contradicted" in body and "\x1b[" not in body


def test_cli_output_to_missing_directory_is_input_error(tmp_path):
    r = _sourced(
        "check",
        str(EXAMPLES / "answer.txt"),
        str(EXAMPLES / "source.txt"),
        "-f",
        "html",
        "-o",
        str(tmp_path / "nope" / "report.html"),
    )
    assert r.returncode == 2
    assert r.stderr.startswith("error:") and "Traceback" not in r.stderr


def _cards(markup: str) -> list[str]:
    return re.findall(r'<li class="sourced-card.*?</li>', markup)


def test_contradicted_card_says_the_contradiction_once():
    """N3-61: the card shows what differs; the reason, which says the same again, is left out (as
    in the text view); a claim with nothing that differs keeps its reason."""
    cards = _cards(make_report().to_html())
    assert "claim 12% ≠ source 8%" in "".join(parse(cards[0]).text)
    assert "sourced-reason" not in cards[0] and "another value for revenue growth" not in cards[0]
    assert "no passage mentions offices" in cards[2]


def test_html_of_a_report_with_findings_shows_score_coverage_and_findings():
    """N3-61: what the text view prints after the claims (score, citation coverage, each finding,
    most severe first), so that the page says why a gate failed; a report built by hand has none."""
    report = make_report()
    assert "sourced-findings" not in report.to_html() and "score" not in "".join(parse(report.to_html()).text)
    report.claims[1].citations = [{"source": "source.txt", "status": "exact"}]
    report.claims[1].citation_status = "supported"  # a claim that cites: the coverage is a share, not null
    report.findings = [
        {"kind": "uncited", "severity": "low", "claim": 2, "message": "the claim cites no source"},
        {"kind": "contradiction", "severity": "high", "claim": 0, "message": "claim 12% ≠ source 8%"},
        {"kind": "broken-citation", "severity": "medium", "claim": 1, "message": "[7]: no source with id '7' <b>"},
    ]
    markup = report.to_html()
    text = "".join(parse(markup).text)
    assert f"score {report.score}/100  ·  citation coverage {report.coverage:.0%}  ·  3 finding(s)" in text
    assert re.findall(r'class="sourced-finding sourced-(\w+)"', markup) == ["high", "medium", "low"]
    assert "medium broken-citation claim 2: [7]: no source with id '7' <b>" in text  # escaped
    assert "<b>" not in markup
    assert text.index("3 finding(s)") < text.index("Here is a summary")  # on top, before the answer


def test_cli_cite_html_shows_what_the_text_view_shows(tmp_path, run_cli):
    answer = tmp_path / "ans.md"
    answer.write_text(
        "Contoso revenue rose 8% in 2023 [1]. It has 12 offices [7]. The CEO is Ann Lee.", encoding="utf8"
    )
    source = tmp_path / "q3.txt"
    source.write_text("Contoso revenue rose 8% to $2.4 billion in 2023.", encoding="utf8")
    code, out, _ = run_cli("cite", str(answer), str(source))
    summary = out.strip().splitlines()[-1]  # "score 33/100  citation coverage 33%  4 finding(s)"
    assert "citation coverage" in summary and "broken-citation" in out
    page = tmp_path / "cite.html"
    code_html, _, _ = run_cli("cite", str(answer), str(source), "--format", "html", "-o", str(page))
    assert code_html == code == 1
    text = "".join(parse(page.read_text(encoding="utf8")).text)
    assert "  ·  ".join(summary.split("  ")) in text
    for line in out.splitlines():
        if line.split(" ", 1)[0] in ("high", "medium", "low"):
            assert " ".join(line.split()) in " ".join(text.split())


# ---------------------------------------------------------------- an answer written in Markdown

MD_ANSWER = (
    "# Quarterly results\n\n"
    "The **revenue** rose 12% in 2023.\n\n"
    "- Net income was $310 million.\n"
    "- It has *five* offices.\n\n"
    "| Year | Revenue |\n|---|--:|\n| 2023 | **$2.4B** |\n"
)


def md_claim(answer: str, text: str, verdict: str) -> ClaimResult:
    start = answer.index(text)
    return ClaimResult(text=text, start=start, end=start + len(text), verdict=verdict, reason="r", support=0.5)


def md_report(answer: str = MD_ANSWER, *claims: tuple[str, str]) -> Report:
    claims = claims or (
        ("The **revenue** rose 12% in 2023.", "contradicted"),
        ("Net income was $310 million.", "grounded"),
        ("It has *five* offices.", "unverified"),
    )
    return Report(answer=answer, claims=[md_claim(answer, t, v) for t, v in claims])


def answer_div(markup: str) -> str:
    start = markup.index('<div class="sourced-answer')
    return markup[start : markup.index('<ol class="sourced-claims"', start)]


def marked(markup: str) -> list[tuple[str, str]]:
    """``(verdict, text)`` of each <mark> piece of the answer, its number (``✘1``) left out."""
    div = re.sub(r"<sup[^>]*>.*?</sup>", "", answer_div(markup))
    return [
        (v, html.unescape(re.sub(r"<[^>]+>", "", inner)))
        for v, inner in re.findall(r'<mark class="sourced-claim sourced-(\w+)"[^>]*>(.*?)</mark>', div, re.S)
    ]


def test_markdown_answer_renders_headings_bold_lists_and_tables():
    markup = md_report().to_html()
    div = answer_div(markup)
    parse(markup)  # well nested: every highlight closes inside the element it opened in
    assert 'class="sourced-answer sourced-markdown"' in div and "pre-wrap" not in div.split(">")[0]
    assert re.search(r"<h1[^>]*>Quarterly results</h1>", div)
    assert re.search(r"<strong[^>]*>revenue</strong>", div) and re.search(r"<em[^>]*>five</em>", div)
    assert len(re.findall(r"<li[ >]", div)) == 2 and "<ul" in div
    assert re.search(r"<th[^>]*>Year</th>", div) and re.search(r'<td style="[^"]*text-align:right;">', div)
    assert re.search(r"<td[^>]*><strong[^>]*>\$2\.4B</strong></td>", div)
    # the markup characters are gone
    text = "".join(parse(div).text)
    assert "**" not in text and "#" not in text and "|" not in text and "- Net" not in text


def test_markdown_answer_keeps_each_highlight_on_its_words():
    markup = md_report().to_html()
    assert marked(markup) == [
        ("contradicted", "The revenue rose 12% in 2023."),
        ("grounded", "Net income was $310 million."),
        ("unverified", "It has five offices."),
    ]
    div = answer_div(markup)
    # the bold word is inside the highlight, the claim's number after its last word
    assert re.search(
        r'<mark class="sourced-claim sourced-contradicted"[^>]*>The <strong[^>]*>revenue</strong> '
        r"rose 12% in 2023\.<sup[^>]*>✘1</sup></mark>",
        div,
    )
    assert re.search(r"offices\.<sup[^>]*>\?3</sup></mark></li>", div)


def test_markdown_highlight_cut_where_an_element_closes_and_across_blocks():
    answer = "Sales **rose 8%** in May.\n\nThey fell in June.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"
    report = md_report(answer, ("rose 8%** in May", "contradicted"), ("May.\n\nThey fell", "grounded"))
    # overlapping spans: the second is not highlighted; take a claim across two paragraphs alone
    assert marked(report.to_html()) == [("contradicted", "rose 8%"), ("contradicted", " in May")]
    across = md_report(answer, ("in May.\n\nThey fell", "grounded"), ("1 | 2", "unverified"))
    markup = across.to_html()
    parse(markup)
    assert marked(markup) == [
        ("grounded", "in May."),
        ("grounded", "They fell"),
        ("unverified", "1"),
        ("unverified", "2"),
    ]
    # one number per claim, after its last piece
    assert answer_div(markup).count("✔1") == 1 and answer_div(markup).count("?2") == 1
    assert re.search(r"They fell<sup[^>]*>✔1</sup></mark> in June", answer_div(markup))


def test_plain_answer_renders_as_before():
    report = make_report()  # no Markdown syntax: the answer as written, in a pre-wrap block
    div = answer_div(report.to_html())
    assert div.startswith('<div class="sourced-answer" style="white-space:pre-wrap;')
    assert "<p" not in div and "sourced-markdown" not in div
    two = Report(
        answer="First line.\nSecond line,\n\nand a 2nd paragraph & more.",
        claims=[ClaimResult(text="Second line,", start=12, end=24, verdict="grounded")],
    )
    div = answer_div(two.to_html())
    assert "<p" not in div and "First line.\n<mark" in div and "\n\nand a 2nd paragraph &amp; more." in div


def test_markdown_answer_escapes_raw_html_and_fetches_nothing():
    answer = (
        '## Note\n\n<script>alert("x")</script>\n\n- <img src=x onerror=alert(1)> **bold**\n'
        "- [click](javascript:alert(1)) and ![pic](http://example.com/p.png)\n"
    )
    report = md_report(answer, ("<script>alert", "unverified"))
    markup = report.to_html()
    p = parse(markup)
    tags = {t for t, _ in p.tags}
    assert "script" not in tags and "img" not in tags and "<script>" not in markup
    assert "&lt;script&gt;" in markup and "&lt;img src=x onerror=alert(1)&gt;" in markup
    for _, attrs in p.tags:
        assert not {"src", "onerror", "onload"} & set(attrs)
        assert "javascript:" not in attrs.get("href", "")
    assert "http://example.com" not in markup  # the image shows its alt text
    assert marked(markup) == [("unverified", "<script>alert")]


def test_markdown_link_keeps_its_text_and_the_highlight_skips_its_url():
    answer = "See [the report](http://x.org/revenue-rose) and `code`: revenue rose 8%.\n\n1. Done.\n"
    markup = md_report(answer, ("revenue rose 8%.", "grounded")).to_html()
    parse(markup)
    assert re.search(
        r'<a href="http://x\.org/revenue-rose" rel="noopener noreferrer nofollow"[^>]*>the report</a>', markup
    )
    assert marked(markup) == [("grounded", "revenue rose 8%.")]
    assert re.search(r"<code[^>]*>code</code>", answer_div(markup))
