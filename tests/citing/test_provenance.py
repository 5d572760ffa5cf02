"""Citations checked against the sources they name, findings, score, fields, prompting helpers.

Each case is the smallest real input that shows its status or finding.
"""

from __future__ import annotations

import json

import pytest
import spacy

import sourced_nlp
from sourced_nlp.citing.provenance import SEVERITY, check_citation, json_citation, json_reply
from sourced_nlp.text.citations import find_citations

# ---------------------------------------------------------------------------------------------
# locate (the public API)
# ---------------------------------------------------------------------------------------------

BRIDGE = (
    "The Golden Gate Bridge opened to traffic on May 28, 1937, after four years of\n"
    "construction. Its color, \u201cInternational Orange\u201d, was chosen by the consulting "
    "architect Irving Morrow."
)


@pytest.mark.parametrize(
    "quote, method, found",
    [
        (
            'its color, "International Orange", was chosen',
            "normalized",
            "Its color, \u201cInternational Orange\u201d, was chosen",
        ),
        ("after four years of construction", "normalized", "after four years of\nconstruction"),
        (
            "was chosen by the famous architect Irving Morrow",
            "fuzzy",
            "was chosen by the consulting architect Irving Morrow",
        ),
        ("was chosen by the architect Irving Morrow", "fuzzy", "was chosen by the consulting architect Irving Morrow"),
        ("opened to traffic", "exact", "opened to traffic"),
    ],
)
def test_locate_public(quote, method, found):
    m = sourced_nlp.locate(quote, BRIDGE)
    assert (m.method, m.text) == (method, found)
    assert BRIDGE[m.start : m.end] == found


def test_locate_short_quote_must_be_exact_and_near_picks_occurrence():
    assert sourced_nlp.locate("opened to trafic", BRIDGE) is None
    text = "Sales rose. Then sales rose again."
    assert sourced_nlp.locate("sales rose", text, near=30).start == text.rindex("sales rose")


# ---------------------------------------------------------------------------------------------
# citation statuses (one citation, real markers)
# ---------------------------------------------------------------------------------------------

TWO = [
    {"id": "a", "text": "Revenue rose 8% in 2023, the annual report said."},
    {"id": "b", "text": "Revenue rose 12% in 2023."},
]
MARKER_CASES = [
    # (answer with one marker, expected status, expected sources)
    ('Up [S1: "Revenue rose 8%"].', "exact", ["a"]),
    ('Up [S1: "revenue  ROSE 8%"].', "normalized", ["a"]),
    ('Up [S1: "Revenue rose 8% in 2023, the yearly report said"].', "fuzzy", ["a"]),
    ('Up [S1: "Revenue rose 12%"].', "misattributed", ["a"]),
    ('Up [S2: "Profit fell sharply"].', "not-found", ["b"]),
    ("Up [7].", "out-of-range", []),
    ("Up [annual-report].", "missing-source", []),
    ("Up [2].", "resolved", ["b"]),
    ("Up (Passage 1).", "resolved", ["a"]),
    ("Up [^2].", "resolved", ["b"]),
    ("Up [b].", None, None),  # a one-letter bracket is not a marker
]


@pytest.mark.parametrize("answer, status, sources", MARKER_CASES)
def test_marker_status(answer, status, sources):
    cits = find_citations(answer)
    if status is None:
        assert cits == []
        return
    c = check_citation(cits[0].to_dict(), TWO)
    assert (c["status"], c["sources"]) == (status, sources)
    if status in ("exact", "normalized", "fuzzy", "misattributed"):
        m = c["match"]
        text = {s["id"]: s["text"] for s in TWO}[m["source"]]
        assert text[m["start"] : m["end"]] == m["text"]


def test_citation_by_id_and_label():
    srcs = [{"id": "doc-1", "text": "A."}, {"id": "doc-2", "text": "B."}]
    assert check_citation(find_citations("x [doc-2].")[0].to_dict(), srcs)["sources"] == ["doc-2"]
    assert check_citation(find_citations("x [doc-3].")[0].to_dict(), srcs)["status"] == "missing-source"
    assert check_citation(find_citations("x [1, 2].")[0].to_dict(), srcs)["sources"] == ["doc-1", "doc-2"]


def test_json_citation_statuses():
    text = TWO[0]["text"]
    at = text.index("rose 8%")
    ok = check_citation(json_citation({"source": "a", "quote": "rose 8%", "start": at, "end": at + 7}), TWO)
    assert ok["status"] == "exact"
    moved = check_citation(json_citation({"source": "a", "quote": "rose 8%", "start": 0, "end": 7}), TWO)
    assert moved["status"] == "relocated" and moved["match"]["start"] == at
    assert check_citation(json_citation({"source": "", "quote": ""}), TWO)["status"] == "empty"
    past = check_citation(json_citation({"source": "a", "start": 10, "end": 999}), TWO)
    assert past["status"] == "out-of-range"
    assert check_citation(json_citation(2), TWO)["sources"] == ["b"]


# ---------------------------------------------------------------------------------------------
# claims: source first, findings
# ---------------------------------------------------------------------------------------------


def kinds(report, claim=None):
    return sorted(f["kind"] for f in report.findings if claim is None or f["claim"] == claim)


def test_misattribution_is_source_scoped(nlp):
    # two sources that disagree: the claim is judged against the one it cites
    right = sourced_nlp.cite("Revenue rose 12% in 2023 [2].", TWO, nlp=nlp)
    assert right.claims[0].verdict == "grounded"
    assert right.claims[0].citation_status == "supported"
    assert right.claims[0].evidence[0].source == "b"
    assert right.findings == [] and right.score == 100 and right.coverage == 1.0

    wrong = sourced_nlp.cite("Revenue rose 12% in 2023 [1].", TWO, nlp=nlp)
    c = wrong.claims[0]
    assert c.verdict == "contradicted" and c.citation_status == "contradicted"
    assert c.evidence[0].source == "a"
    assert kinds(wrong) == ["broken-citation", "contradiction"]
    assert {f["severity"] for f in wrong.findings} == {"high", "medium"}

    quoted = sourced_nlp.cite('Revenue rose 12% in 2023 [S1: "Revenue rose 12%"].', TWO, nlp=nlp)
    assert quoted.claims[0].citations[0]["status"] == "misattributed"
    assert quoted.claims[0].citations[0]["match"]["source"] == "b"
    assert "broken-citation" in kinds(quoted)


def test_grounded_only_in_a_source_it_does_not_cite(nlp):
    srcs = ["Profit was $5 million in 2023.", "The firm employs 300 people."]
    r = sourced_nlp.cite("Profit was $5 million in 2023 [2].", srcs, nlp=nlp)
    c = r.claims[0]
    assert c.verdict == "grounded" and c.citation_status == "elsewhere"
    assert c.evidence[0].source == "0"
    assert kinds(r) == ["broken-citation"]
    assert "does not cite" in r.findings[0]["message"]
    assert r.score == 100 and r.coverage == 0.0


SRC0 = "Contoso revenue rose 8% in 2023."
JSON0 = json.dumps(
    {
        "claims": [
            {"text": "Contoso revenue rose 8% in 2023.", "citations": [{"source": "0", "quote": "revenue rose 8%"}]}
        ]
    }
)


@pytest.mark.parametrize(
    "answer, sources",
    [
        (JSON0, [{"id": "0", "text": SRC0}]),  # a JSON citation of the id "0"
        (JSON0, [SRC0]),  # ... of a plain-string source (id "0")
        (JSON0, [{"id": 0, "text": SRC0}]),
        ("Contoso revenue rose 8% in 2023 [0].", [{"id": "0", "text": SRC0}]),
        ("Contoso revenue rose 8% in 2023 [0].", [SRC0]),
    ],
)
def test_source_with_id_zero_resolves(nlp, answer, sources):
    r = sourced_nlp.cite(answer, sources, nlp=nlp)
    c = r.claims[0]
    assert [x["sources"] for x in c.citations] == [["0"]]
    assert c.citation_status == "supported" and kinds(r) == []


@pytest.mark.parametrize(
    "sources, cited",
    [
        ([SRC0, {"id": "x", "text": "Other."}], "0"),  # a plain string, then an {"id", "text"}
        ([{"id": "x", "text": SRC0}, "Other."], "x"),  # the other way round: [1] is still the first
    ],
)
def test_numbered_marker_with_mixed_sources_is_a_position(nlp, sources, cited):
    r = sourced_nlp.cite("Contoso revenue rose 8% in 2023 [1].", sources, nlp=nlp)
    c = r.claims[0]
    assert [x["sources"] for x in c.citations] == [[cited]]
    assert c.citation_status == "supported" and kinds(r) == []
    assert c.citations[0]["status"] == "resolved"


def test_number_past_plain_string_sources_is_out_of_range():
    c = check_citation(find_citations("Up [7].")[0].to_dict(), [{"id": "0", "text": "A."}, {"id": "1", "text": "B."}])
    assert (c["status"], c["sources"]) == ("out-of-range", [])


# the worked example of docs/citations.md, as printed: the marker's quote is wrapped over two lines
WRAPPED = (
    'Contoso revenue rose 8% to $2.4 billion [1]. It opened an office in Oslo [S1: "opened offices\n'
    'in Lisbon and Oslo"]. Contoso plans 40 new stores.'
)
EXAMPLE_SOURCES = [
    {"id": "q3.txt", "text": "Contoso revenue rose 8% to $2.4 billion in 2023."},
    {"id": "offices.txt", "text": "Contoso opened offices in Lisbon and Oslo."},
]


def test_line_break_inside_a_marker_quote_ends_no_claim(nlp):
    r = sourced_nlp.cite(WRAPPED, EXAMPLE_SOURCES, nlp=nlp)
    assert [c.verdict for c in r.claims] == ["grounded", "grounded", "unverified"]
    c = r.claims[1]
    assert c.text.startswith("It opened") and c.text.endswith('Oslo"].')
    assert [(x["status"], x["match"]["source"]) for x in c.citations] == [("misattributed", "offices.txt")]
    assert kinds(r) == ["broken-citation", "broken-citation", "fabricated-number", "uncited", "unsupported-claim"]
    assert r.score == 67 and r.coverage == pytest.approx(1 / 3, abs=1e-3)
    assert any(
        f["message"].startswith('[S1: "opened offices in Lisbon and Oslo"]: the quote is in offices.txt')
        for f in r.findings
    )
    parsed = sourced_nlp.parse_claims(WRAPPED, EXAMPLE_SOURCES)
    assert [p["text"] for p in parsed] == [
        "Contoso revenue rose 8% to $2.4 billion.",
        "It opened an office in Oslo.",
        "Contoso plans 40 new stores.",
    ]
    assert [x["status"] for x in parsed[1]["citations"]] == ["misattributed"]


def test_uncited_only_when_citations_are_required(nlp):
    src = ["Profit was $5 million in 2023."]
    assert kinds(sourced_nlp.cite("Profit was $5 million in 2023.", src, nlp=nlp)) == ["uncited"]
    plain = sourced_nlp.check("Profit was $5 million in 2023.", src, nlp=nlp)
    assert plain.findings == [] and plain.claims[0].citation_status == "uncited"


def test_claim_without_citation_keeps_its_verdict(nlp):
    answer, src = "Revenue rose 12% in 2023.", ["Revenue rose 8% in 2023."]
    r = sourced_nlp.check(answer, src, nlp=nlp)
    assert r.claims[0].verdict == "contradicted" and r.claims[0].citations == []
    assert kinds(r) == ["contradiction"]


@pytest.mark.parametrize(
    "answer, sources, expected",
    [
        (
            "Acme opened 12 stores in Ohio [1].",
            ["Acme opened stores in Ohio."],
            {"fabricated-number", "unsupported-claim"},
        ),
        ('Acme sells tea [S1: "Acme sells green tea and coffee beans"].', ["Acme sells tea."], {"fabricated-quote"}),
        ('The CEO called it "a historic turning point" [1].', ["The CEO called it a good year."], {"fabricated-quote"}),
        ("Revenue rose 12% in 2023 [1].", ["Revenue rose 8% in 2023."], {"contradiction", "broken-citation"}),
        ("Acme plans a new office in Dublin [1].", ["Acme sells tea."], {"unsupported-claim"}),
        ("Acme sells tea [4].", ["Acme sells tea."], {"broken-citation"}),
    ],
)
def test_findings(nlp, answer, sources, expected):
    r = sourced_nlp.cite(answer, sources, nlp=nlp)
    assert expected <= set(kinds(r)), r.findings
    for f in r.findings:
        assert f["severity"] == SEVERITY[f["kind"]]
        assert f["claim"] == 0


def test_inexact_and_relocated_quotes_are_low(nlp):
    r = sourced_nlp.cite(
        'Revenue rose 8% in 2023 [S1: "Revenue rose 8% in 2023, the yearly report said"].', TWO[:1], nlp=nlp
    )
    assert r.claims[0].citations[0]["status"] == "fuzzy"
    assert [(f["kind"], f["severity"]) for f in r.findings] == [("inexact-quote", "low")]
    assert r.claims[0].citation_status == "supported"
    assert r.gate("medium") == [] and r.gate("low")


def test_no_sources_is_a_high_finding(nlp):
    doc = nlp.make_doc("Revenue rose 8%.")
    doc = nlp(doc)
    report = doc._.report
    assert report["findings"][0]["kind"] == "no-sources"
    assert report["findings"][0]["severity"] == "high"
    assert report["score"] == 0
    with pytest.raises(sourced_nlp.SourceError):
        sourced_nlp.check("Revenue rose 8%.", [], nlp=nlp)


def test_score_coverage_and_gates(nlp):
    srcs = ["Revenue rose 8% in 2023.", "Profit was $5 million in 2023."]
    answer = "Revenue rose 8% in 2023 [1]. Profit was $5 million in 2023 [1]. Acme plans a Dublin office."
    r = sourced_nlp.cite(answer, srcs, nlp=nlp)
    assert [c.citation_status for c in r.claims] == ["supported", "elsewhere", "uncited"]
    assert r.score == 67 and r.coverage == pytest.approx(1 / 3, abs=1e-4)
    assert r.failed("medium") and not r.failed("high")
    assert r.gate("high", fail_under=60) == []
    assert r.gate("high", fail_under=70) == ["score 67 < 70"]
    assert r.gate("high", min_coverage=0.5)
    d = r.to_dict()
    assert list(d)[:6] == ["schema", "answer", "sources", "claims", "skipped", "counts"]
    assert d["score"] == 67 and len(d["findings"]) == len(r.findings)
    again = sourced_nlp.Report.from_dict(json.loads(r.to_json()))
    assert again == r and again.score == 67
    md = r.to_markdown()
    assert "| grounded | contradicted | unverified | skipped | score | citation coverage | high | medium | low |" in md
    assert "| 2 | 0 | 1 | 0 | 67/100 | 33% | 0 | 3 | 0 |" in md
    assert "| medium | broken-citation | 2 |" in md


def test_report_is_deterministic_and_survives_docbin(nlp):
    from spacy.tokens import DocBin

    doc = nlp.make_doc('Revenue rose 12% in 2023 [S1: "Revenue rose 12%"].')
    doc._.sources = TWO
    doc = nlp(doc)
    again = DocBin(store_user_data=True, docs=[doc]).to_bytes()
    back = list(DocBin().from_bytes(again).get_docs(nlp.vocab))[0]
    assert json.dumps(back._.report, sort_keys=True) == json.dumps(doc._.report, sort_keys=True)


def test_require_citations_config():
    nlp2 = spacy.blank("en")
    assert "require_citations" in nlp2.get_factory_meta("sourced_verify").default_config


# ---------------------------------------------------------------------------------------------
# JSON replies, prompting helpers
# ---------------------------------------------------------------------------------------------

REPLY = json.dumps(
    {
        "claims": [
            {"text": "Revenue rose 8% in 2023.", "citations": [{"source": "S1", "quote": "Revenue rose 8%"}]},
            {"text": "Revenue rose 12% in 2023.", "citations": [{"source": "S1", "quote": "Revenue rose 12%"}]},
        ]
    }
)


def test_json_reply_checked(nlp):
    r = sourced_nlp.cite(REPLY, TWO, nlp=nlp)
    assert [c.text for c in r.claims] == ["Revenue rose 8% in 2023.", "Revenue rose 12% in 2023."]
    assert [c.citations[0]["status"] for c in r.claims] == ["exact", "misattributed"]
    assert [c.verdict for c in r.claims] == ["grounded", "contradicted"]
    assert [c.citation_status for c in r.claims] == ["supported", "contradicted"]


@pytest.mark.parametrize("parsed", [json.loads(REPLY), json.loads(REPLY)["claims"]], ids=["dict", "list"])
def test_json_reply_parsed_is_checked_as_its_text(nlp, parsed):
    """N3-67: the docs say cite() takes "the JSON reply"; the dict json.loads gives is that reply."""
    assert sourced_nlp.cite(parsed, TWO, nlp=nlp).to_dict() == sourced_nlp.cite(REPLY, TWO, nlp=nlp).to_dict()


def test_json_reply_shapes():
    assert json_reply("```json\n" + REPLY + "\n```")[0]["text"] == "Revenue rose 8% in 2023."
    assert json_reply('[{"text": "A.", "source": 1}]') == [{"text": "A.", "citations": [{"source": 1, "quote": None}]}]
    assert json_reply("Revenue rose [1].") is None
    assert json_reply('{"answer": "x"}') is None


def test_parse_claims_reads_both_shapes():
    inline = sourced_nlp.parse_claims('Revenue rose 8% [S1: "Revenue rose 8%"]. It rose 12% (Source 2).', TWO)
    assert [c["text"] for c in inline] == ["Revenue rose 8%.", "It rose 12%."]
    assert [c["citations"][0]["status"] for c in inline] == ["exact", "resolved"]
    assert inline[1]["citations"][0]["sources"] == ["b"]
    from_json = sourced_nlp.parse_claims(REPLY, TWO)
    assert [c["citations"][0]["status"] for c in from_json] == ["exact", "misattributed"]


@pytest.mark.parametrize(
    "reply, texts, markers",
    [
        # a marker after the full stop stays with its sentence, for every citation keyword
        (
            "Revenue rose 8%. (Source 1) It rose 12%. (Passage 2)",
            ["Revenue rose 8%.", "It rose 12%."],
            [["(Source 1)"], ["(Passage 2)"]],
        ),
        (
            "Revenue rose 8%. (Reference 1) It rose 12%. (Documents 2, 3)",
            ["Revenue rose 8%.", "It rose 12%."],
            [["(Reference 1)"], ["(Documents 2, 3)"]],
        ),
        ("Revenue rose 8%. [1] It rose 12%. [2]", ["Revenue rose 8%.", "It rose 12%."], [["[1]"], ["[2]"]]),
        # a parenthesis that is no marker opens the next sentence ("sourced" is no keyword)
        (
            "Revenue rose 8%. (Sourced from the filing, it rose.)",
            ["Revenue rose 8%.", "(Sourced from the filing, it rose.)"],
            [[], []],
        ),
    ],
)
def test_parse_claims_keeps_a_trailing_marker_with_its_sentence(reply, texts, markers):
    parsed = sourced_nlp.parse_claims(reply, TWO)
    assert [c["text"] for c in parsed] == texts
    assert [[x["marker"] for x in c["citations"]] for c in parsed] == markers


def test_citation_instructions():
    srcs = [{"id": "q3.txt", "text": "Revenue rose 8%."}, "Profit was $5 million."]
    inline = sourced_nlp.citation_instructions(srcs)
    assert "[S1] (id: q3.txt)\nRevenue rose 8%." in inline
    assert "[S2]" in inline and '[S1: "exact words"]' in inline
    js = sourced_nlp.citation_instructions(srcs, style="json")
    assert '{"claims": [{"text"' in js
    with pytest.raises(ValueError):
        sourced_nlp.citation_instructions(srcs, style="xml")


def test_to_footnotes(nlp):
    r = sourced_nlp.cite("Revenue rose 8% in 2023 [1]. Revenue rose 12% in 2023 [1].", TWO[:1], nlp=nlp)
    md = sourced_nlp.to_footnotes(r)
    body, notes = md.split("\n\n", 1)
    assert body == "Revenue rose 8% in 2023.[^1] Revenue rose 12% in 2023.[^2]"
    assert notes.splitlines()[0] == '[^1]: ✔ grounded — a 0-48: "Revenue rose 8% in 2023, the annual report said."'
    assert notes.splitlines()[1].startswith("[^2]: ✘ contradicted — a 0-48:")
    assert "claim 12% ≠ source 8%" in notes


# ---------------------------------------------------------------------------------------------
# structured extraction
# ---------------------------------------------------------------------------------------------

Q = [
    {"id": "q3", "text": "Revenue rose 8% to $2.4 billion in the third quarter. The company has 56 offices in Europe."},
    {"id": "q4", "text": "Revenue rose 12% to $2.7 billion in the fourth quarter."},
]


def field_row(rep, name):
    return next(f for f in rep.fields if f["field"] == name)


def test_fields_real_quote_wrong_value():
    rep = sourced_nlp.check_fields(
        {"growth": {"value": "12%", "citations": [{"source": "q3", "quote": "Revenue rose 8% to $2.4 billion"}]}}, Q
    )
    row = field_row(rep, "growth")
    assert row["citations"][0]["status"] == "exact"
    assert row["status"] == "elsewhere"
    assert [(f["kind"], f["field"]) for f in rep.findings] == [("broken-citation", "growth")]
    assert "q4" in rep.findings[0]["message"]
    assert rep.failed("medium") and rep.score == 0


def test_fields_value_by_value_and_unit():
    quote = [{"source": "S1", "quote": "Revenue rose 8% to $2.4 billion"}]
    rep = sourced_nlp.check_fields(
        {
            "revenue": {"value": 2400000000, "citations": quote},
            "revenue_text": {"value": "$2.4bn", "citations": quote},
            "growth": {"value": 8, "citations": quote},  # a bare 8 is not 8%
        },
        Q,
    )
    assert field_row(rep, "revenue")["status"] == "found"
    assert field_row(rep, "revenue_text")["status"] == "found"
    assert field_row(rep, "growth")["status"] == "not-found"
    assert [f["kind"] for f in rep.findings] == ["fabricated-number"]


def test_fields_leaf_by_leaf_and_findings():
    rep = sourced_nlp.check_fields(
        [
            {
                "field": "offices",
                "value": {"count": 56, "region": "Europe", "open": True},
                "citations": [{"source": "q3"}],
            },
            {
                "field": "headcount",
                "value": [9999],
                "citations": [{"source": "q3", "quote": "The company has 56 offices"}],
            },
            {"field": "ceo", "value": "Jane Roe", "citations": [{"source": "q9"}]},
            {"field": "note", "value": "Europe"},
            {
                "field": "fake",
                "value": "x",
                "citations": [{"source": "q3", "quote": "The company has 99 branches in Asia"}],
            },
        ],
        Q,
    )
    assert [(f["field"], f["status"]) for f in rep.fields] == [
        ("offices.count", "found"),
        ("offices.region", "found"),
        ("offices.open", "unchecked"),
        ("headcount[0]", "not-found"),
        ("ceo", "not-found"),
        ("note", "found"),
        ("fake", "not-found"),
    ]  # "note" cites nothing: looked up in every source, it is in q3 (with an uncited finding)
    assert sorted(f["kind"] for f in rep.findings) == [
        "broken-citation",
        "fabricated-number",
        "fabricated-quote",
        "uncited",
        "unsupported-claim",
        "unsupported-claim",
    ]
    d = json.loads(rep.to_json())
    assert d["schema"] == "sourced.fields/1" and d["score"] == rep.score == 50


@pytest.mark.parametrize(
    "value, status, finding",
    [
        ("$2.4 billion", "found", ("uncited", "medium", 'revenue = "$2.4 billion" cites no source (it is in q3)')),
        (
            "$2.6 billion",
            "not-found",
            ("fabricated-number", "high", 'revenue = "$2.6 billion" cites no source and is in no source'),
        ),
        (2400000000, "found", ("uncited", "medium", "revenue = 2400000000 cites no source (it is in q3)")),
        ("Asia", "not-found", ("unsupported-claim", "medium", 'revenue = "Asia" cites no source and is in no source')),
    ],
)
def test_an_uncited_field_value_is_looked_up_in_the_sources(value, status, finding):
    """A value given without citations (the usual shape of an extractor's output) is looked up in
    every source: a wrong one and a right one are told apart (cli-trial N3-62)."""
    rep = sourced_nlp.check_fields(
        {"revenue": value}, [{"id": "q3", "text": "Contoso revenue rose 8% to $2.4 billion."}]
    )
    assert [f["status"] for f in rep.fields] == [status]
    assert [(f["kind"], f["severity"], f["message"]) for f in rep.findings] == [finding]
    assert rep.failed("high") == (finding[0] == "fabricated-number")
    if status == "found":
        assert rep.fields[0]["passage"] == [
            {"source": "q3", "start": 0, "end": 40, "text": "Contoso revenue rose 8% to $2.4 billion."}
        ]


@pytest.mark.parametrize(
    "min_coverage, reasons",
    [
        (None, []),
        (0.3, []),  # 1 of 3 checkable values found: 33%
        (0.5, ["citation coverage 33% < 50%"]),
        (50, ["citation coverage 33% < 50%"]),  # above 1: a percentage
        (0.34, ["citation coverage 33% < 34%"]),  # the share, not the rounded score
    ],
)
def test_fields_gate_min_coverage(min_coverage, reasons):
    rep = sourced_nlp.check_fields(
        {
            "revenue": {
                "value": "$2.4 billion",
                "citations": [{"source": "q3", "quote": "Revenue rose 8% to $2.4 billion"}],
            },
            "growth": {"value": "12%", "citations": [{"source": "q3", "quote": "Revenue rose 8% to $2.4 billion"}]},
            "ceo": {"value": "Jane Roe", "citations": [{"source": "q3"}]},
            "public": {"value": True, "citations": [{"source": "q3"}]},  # unchecked: not counted
        },
        Q,
    )
    assert [f["status"] for f in rep.fields] == ["found", "elsewhere", "not-found", "unchecked"]
    assert rep.coverage == 0.3333 and rep.score == 33
    assert rep.gate("high", min_coverage=min_coverage) == reasons
    assert rep.failed("high", min_coverage=min_coverage) is bool(reasons)


def test_fields_gate_min_coverage_is_validated_and_none_without_checkable_values():
    rep = sourced_nlp.check_fields({"public": {"value": True, "citations": [{"source": "q3"}]}}, Q)
    assert rep.coverage is None and rep.gate("high", min_coverage=0.5) == ["citation coverage 0% < 50%"]
    with pytest.raises(ValueError, match="min_coverage"):
        rep.gate("high", min_coverage=250)
    with pytest.raises(TypeError, match="min_coverage"):
        rep.gate("high", min_coverage="half")


def test_fields_without_sources_fail():
    rep = sourced_nlp.check_fields({"a": {"value": 1, "citations": [{"source": "S1"}]}}, [])
    assert rep.findings[0]["kind"] == "no-sources" and rep.failed("high")


PARSED_SPANS = [  # (a text reply, each claim's (text, reply[start:end])), as parse_claims documents
    (
        "Revenue rose 8% [1]. Offices opened [2].",
        [("Revenue rose 8%.", "Revenue rose 8% [1]."), ("Offices opened.", "Offices opened [2].")],
    ),
    (
        "Revenue rose 8%. [1] Offices opened.",
        [("Revenue rose 8%.", "Revenue rose 8%. [1]"), ("Offices opened.", "Offices opened.")],
    ),
]


@pytest.mark.parametrize("reply, spans", PARSED_SPANS)
def test_parse_claims_span_covers_the_markers_and_text_drops_them(reply, spans):
    claims = sourced_nlp.parse_claims(reply, ["Revenue rose 8%.", "Offices opened."])
    assert [(c["text"], reply[c["start"] : c["end"]]) for c in claims] == spans
    for c in claims:
        assert all(c["start"] <= x["start"] < x["end"] <= c["end"] for x in c["citations"])
