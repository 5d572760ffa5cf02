"""``sourced_claims``: segmentation of LLM answers into claims and skipped segments.

Each row of a table is ``(answer, expected)``; the real pipeline (the ``nlp`` session fixture)
segments the answer and the claims / skipped segments it finds are compared as text.
"""

from __future__ import annotations

import pytest

from sourced_nlp.components.extensions import CLAIMS_KEY, SKIPPED_KEY


def claims_of(doc) -> list[str]:
    return [s.text for s in doc.spans[CLAIMS_KEY]]


def skipped_of(doc) -> list[tuple[str, str]]:
    return [(s.text, s._.claim_kind) for s in doc.spans[SKIPPED_KEY]]


# (answer, the claims it holds, in order)
SEGMENTATION = [
    # a citation marker inside a sentence ends nothing, glued to its figure or not
    ("Operating margin widened 3%[2] over the year.", ["Operating margin widened 3%[2] over the year."]),
    ("Operating margin widened 3% [2] over the year.", ["Operating margin widened 3% [2] over the year."]),
    # a line break ends a claim, with or without a final period ...
    (
        "Revenue rose 8% in 2023.\nProfit fell 2% in 2023.",
        ["Revenue rose 8% in 2023.", "Profit fell 2% in 2023."],
    ),
    (
        "Revenue rose 8% in 2023\nProfit fell 2% in 2023",
        ["Revenue rose 8% in 2023", "Profit fell 2% in 2023"],
    ),
    # ... unless it only wraps the sentence: the next line goes on in lower case, or the line is
    # as long as hard-wrapped lines are and ends no statement
    (
        "The plant in Ohio closed in April\nwhile the plant in Texas stayed open.",
        ["The plant in Ohio closed in April\nwhile the plant in Texas stayed open."],
    ),
    (
        "Contoso Ltd. reported revenue of $2.4 billion for the third quarter, up\n8% from a year "
        "earlier. Net income rose to $310 million, compared with $290\nmillion in the same period "
        "last year, as reported by the company on Tuesday in\nLisbon.\nStaff numbers grew to 400.",
        [
            "Contoso Ltd. reported revenue of $2.4 billion for the third quarter, up\n8% from a year earlier.",
            "Net income rose to $310 million, compared with $290\nmillion in the same period last year, as reported "
            "by the company on Tuesday in\nLisbon.",
            "Staff numbers grew to 400.",
        ],
    ),
    (  # a title line, a list, a table: never joined to the next line
        "Contoso Reports Record Third Quarter Results For Investors\nRevenue rose 8% in 2023.\n"
        "- Costs were cut by 5% in the same quarter of the year\n- Staff numbers grew to 400.",
        [
            "Contoso Reports Record Third Quarter Results For Investors",
            "Revenue rose 8% in 2023.",
            "Costs were cut by 5% in the same quarter of the year",
            "Staff numbers grew to 400.",
        ],
    ),
    # list markers are left out of the claim they start
    (
        "1. Revenue rose 8% in 2023.\n2) Profit fell 2% in 2023.\n- Costs were cut by 5% last year.\n"
        "* Staff numbers grew to 400 in March.",
        [
            "Revenue rose 8% in 2023.",
            "Profit fell 2% in 2023.",
            "Costs were cut by 5% last year.",
            "Staff numbers grew to 400 in March.",
        ],
    ),
    # abbreviations and decimals never split a sentence
    ("Dr. Jane Smith joined the board of Acme in 2020.", ["Dr. Jane Smith joined the board of Acme in 2020."]),
    ("Dr. Smith treated 40 patients in May.", ["Dr. Smith treated 40 patients in May."]),
    ("The U.S. economy grew 3% in 2023.", ["The U.S. economy grew 3% in 2023."]),
    ("Acme sells fruit, e.g. apples and pears, in Spain.", ["Acme sells fruit, e.g. apples and pears, in Spain."]),
    ("The deal was worth approx. 300 million dollars.", ["The deal was worth approx. 300 million dollars."]),
    ("The council spent £2.4m on the new bridge in 2021.", ["The council spent £2.4m on the new bridge in 2021."]),
    # a quote ending with the period inside still ends the sentence
    (
        'Engineers said the fix would take "four hours." The outage lasted 9 hours.',
        ['Engineers said the fix would take "four hours."', "The outage lasted 9 hours."],
    ),
    # a record's key and its value are one line, one claim, however long the key
    (
        "attributes business accepts credit cards: False.\nattributes restaurants good for groups: True.",
        ["attributes business accepts credit cards: False.", "attributes restaurants good for groups: True."],
    ),
    # plain two-sentence line
    (
        "Acme hired 200 engineers in 2022. The firm opened an office in Lisbon.",
        ["Acme hired 200 engineers in 2022.", "The firm opened an office in Lisbon."],
    ),
]


@pytest.mark.parametrize("text,expected", SEGMENTATION)
def test_segmentation(nlp, text, expected):
    doc = nlp(text)
    assert claims_of(doc) == expected
    assert all(s._.claim_kind == "claim" for s in doc.spans[CLAIMS_KEY])


# (answer, the claims it holds, the skipped segments: (text contained, kind))
SKIPPED = [
    (
        "# Results\nRevenue rose 8% in 2023.",
        ["Revenue rose 8% in 2023."],
        [("Results", "heading")],
    ),
    (
        "## Quarterly results\nRevenue rose 8% in 2023.",
        ["Revenue rose 8% in 2023."],
        [("Quarterly results", "heading")],
    ),
    (
        "Here's the summary within 66 words:\nThe plant in Ohio closed in April.",
        ["The plant in Ohio closed in April."],
        [("Here's the summary within 66 words:", "preamble")],
    ),
    (
        "Here is a summary of the passages:\nThe plant in Ohio closed in April.",
        ["The plant in Ohio closed in April."],
        [("Here is a summary of the passages:", "preamble")],
    ),
    (
        "Here is an overview of the plant based on the data: The plant in Ohio closed in April.",
        ["The plant in Ohio closed in April."],
        [("Here is an overview of the plant based on the data:", "preamble")],
    ),
    (
        "Here are the steps: preheat the oven.",
        [],
        [("Here are the steps: preheat the oven.", "preamble")],
    ),
    (
        "The truck's hours are as follows:\n* Monday: 11 AM to 2 PM",
        ["Monday: 11 AM to 2 PM"],
        [("The truck's hours are as follows:", "preamble")],
    ),
    (
        "The plant in Ohio closed in April. I hope this helps!",
        ["The plant in Ohio closed in April."],
        [("I hope this helps!", "greeting")],
    ),
    (
        "Why did the plant close? The plant in Ohio closed in April.",
        ["The plant in Ohio closed in April."],
        [("Why did the plant close?", "question")],
    ),
    (
        "The plant in Ohio closed in April.\nDid it reopen?",
        ["The plant in Ohio closed in April."],
        [("Did it reopen?", "question")],
    ),
]


@pytest.mark.parametrize("text,claims,skipped", SKIPPED)
def test_skipped_segments(nlp, text, claims, skipped):
    doc = nlp(text)
    assert claims_of(doc) == claims
    got = skipped_of(doc)
    assert len(got) == len(skipped), got
    for (got_text, got_kind), (want_text, want_kind) in zip(got, skipped):
        assert want_text in got_text
        assert got_kind == want_kind
    # skipped segments are reported as such, out of the counts
    report = doc._.report
    assert sum(report["counts"].values()) == len(claims)
    assert [s["kind"] for s in report["skipped"]] == [k for _, k in skipped]


def test_sure_here_is_the_answer(nlp):
    text = "Sure! Here is the answer:\nThe plant in Ohio closed in April."
    doc = nlp(text)
    assert claims_of(doc) == ["The plant in Ohio closed in April."]
    got = skipped_of(doc)
    assert got, "the opener must be kept as a skipped segment"
    assert all(kind in ("greeting", "preamble") for _, kind in got), got
    covered = " ".join(t for t, _ in got)
    assert "Sure!" in covered and "Here is the answer:" in covered


# (answer, claim text with its markers, the markers listed in span._.citations)
CITATIONS = [
    ("Revenue rose 8% in 2023 [1].", "Revenue rose 8% in 2023 [1].", ["[1]"]),
    ("Profit fell 2% in 2023 [S2].", "Profit fell 2% in 2023 [S2].", ["[S2]"]),
    ("Costs were cut by 5% in 2023 (Passage 2).", "Costs were cut by 5% in 2023 (Passage 2).", ["(Passage 2)"]),
    ("Revenue rose 8% in 2023 [1][2].", "Revenue rose 8% in 2023 [1][2].", ["[1]", "[2]"]),
]


@pytest.mark.parametrize("text,claim,markers", CITATIONS)
def test_citation_markers_stay_in_span(nlp, text, claim, markers):
    doc = nlp(text)
    spans = list(doc.spans[CLAIMS_KEY])
    assert [s.text for s in spans] == [claim]
    cits = spans[0]._.citations
    assert [c["marker"] for c in cits] == markers
    for c in cits:
        assert doc.text[c["start"] : c["end"]] == c["marker"]
        assert spans[0].start_char <= c["start"] < c["end"] <= spans[0].end_char


def test_citation_after_period_joins_its_claim(nlp):
    text = "Revenue rose 8% in 2023. [1] Profit fell 2% in 2023. [S2]"
    doc = nlp(text)
    assert claims_of(doc) == ["Revenue rose 8% in 2023. [1]", "Profit fell 2% in 2023. [S2]"]
    assert [[c["marker"] for c in s._.citations] for s in doc.spans[CLAIMS_KEY]] == [["[1]"], ["[S2]"]]
    assert not doc.spans[SKIPPED_KEY], "a lone marker is not a segment of its own"


ANSWERS = (
    [text for text, _ in SEGMENTATION]
    + [row[0] for row in SKIPPED]
    + [row[0] for row in CITATIONS]
    + [
        "Sure! Here is the answer:\n\n1. **Revenue** rose 8% [1].\n2. Dr. Lee left the U.S. in 2020.\n\nI hope this helps!",
        "  Leading spaces here.  \n\n\n   - Trailing spaces there.   ",
    ]
)


@pytest.mark.parametrize("text", ANSWERS)
def test_span_offsets_are_answer_offsets(nlp, text):
    doc = nlp(text)
    segments = sorted([*doc.spans[CLAIMS_KEY], *doc.spans[SKIPPED_KEY]], key=lambda s: s.start_char)
    assert segments
    prev_end = 0
    for s in segments:
        assert s.text == doc.text[s.start_char : s.end_char]
        assert s.text == s.text.strip(), "segments carry no outer whitespace"
        assert s.start_char >= prev_end, "segments do not overlap"
        prev_end = s.end_char
    report = doc._.report
    for item in [*report["claims"], *report["skipped"]]:
        assert item["text"] == text[item["start"] : item["end"]]


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_every_line_break_ends_a_claim(nlp, newline):
    doc = nlp(f"Revenue rose 12%{newline}Net income was $310 million.")
    assert [s.text for s in doc.spans["sourced_claims"]] == ["Revenue rose 12%", "Net income was $310 million."]


GLUED = [
    # text, the tokens it must give
    ("spent £2,980,815,The Greens", ["spent", "£", "2,980,815", ",", "The", "Greens"]),
    ("rose to 1,027,339.The figures", ["rose", "to", "1,027,339", ".", "The", "figures"]),
    ("use 192.168.0.1.Some routers", ["use", "192.168.0.1", ".", "Some", "routers"]),
    ("a rate of 3.5 and 3,000 units", ["a", "rate", "of", "3.5", "and", "3,000", "units"]),  # separators stay
    ("version 2.The end", ["version", "2", ".", "The", "end"]),
    # a citation marker glued to the word or figure before it comes off
    ("profit for 2023[4].", ["profit", "for", "2023", "[", "4", "]", "."]),
    ("offices in Porto[S2] and", ["offices", "in", "Porto", "[", "S2", "]", "and"]),
    ("closed in 1998.[^7]", ["closed", "in", "1998", ".", "[", "^7", "]"]),
    ("a list x[i] stays", ["a", "list", "x[i", "]", "stays"]),  # no marker: a letter, no number
]


@pytest.mark.parametrize("text,tokens", GLUED, ids=[g[0] for g in GLUED])
def test_a_figure_glued_to_the_next_sentence_is_split(nlp, text, tokens):
    assert [t.text for t in nlp.make_doc(text)] == tokens


def test_the_glued_figure_infix_is_added_once_and_saved(nlp, tmp_path):
    import spacy

    from sourced_nlp.components.claims import GLUED_FIGURE, GLUED_MARKER

    nlp.to_disk(tmp_path)
    loaded = spacy.load(tmp_path)
    assert loaded.tokenizer.infix_finditer.__self__.pattern.count(GLUED_FIGURE) == 1
    assert [t.text for t in loaded.make_doc("£2,980,815,The")] == ["£", "2,980,815", ",", "The"]
    assert loaded.tokenizer.infix_finditer.__self__.pattern.count(GLUED_MARKER) == 1


MARKED = [
    # answer, source: a claim whose year or name carries a glued citation marker is read as without it
    (
        "Halvorsen Steel posted a loss of $40 million in 2021[3].",
        "Halvorsen Steel posted a loss of $40 million in 2021.",
    ),
    (
        "Halvorsen Steel posted a loss of $40 million in 2021.[3]",
        "Halvorsen Steel posted a loss of $40 million in 2021.",
    ),
    ("The ferry runs between Tallinn[2] and Helsinki.", "The ferry runs between Tallinn and Helsinki."),
]


@pytest.mark.parametrize("answer,source", MARKED, ids=[m[0] for m in MARKED])
def test_a_glued_marker_leaves_the_year_or_name_read(nlp, answer, source):
    import sourced_nlp

    claim = sourced_nlp.check(answer, [source], nlp=nlp).claims[0]
    assert claim.verdict == "grounded", (claim.rule, claim.reason)
    assert [c["marker"] for c in claim.citations] == [answer[answer.index("[") : answer.index("]") + 1]]
