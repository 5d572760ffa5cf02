"""Property-based tests (Hypothesis): quantity parsing, segmentation and the whole ``check`` on
generated text raise nothing but the documented errors, and keep their offsets.

Example counts are small (the suite runs on two cores); each property is still checked on a few
dozen texts built from the pieces answers are made of: sentences with figures, line breaks that
wrap or end a sentence, list markers, Markdown and HTML markup, citation markers, odd characters.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import sourced_nlp
from sourced_nlp.components.extensions import CLAIMS_KEY, SKIPPED_KEY
from sourced_nlp.text.markup import reading_text
from sourced_nlp.text.quantity import Quantity, compare, parse_quantity

FAST = settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=12, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])

# ------------------------------------------------------------------------------- quantities

NUMBER_TEXT = st.one_of(
    st.integers(0, 10**9).map(lambda n: f"{n:,}"),
    st.integers(0, 10**6).map(str),
    st.floats(0, 1e6, allow_nan=False).map(lambda x: f"{x:.2f}"),
    st.integers(1, 999).map(lambda n: f"{n}.{n % 1000:03d}"),
)
AFFIX = st.sampled_from(["", "$", "€", "about ", "more than ", "~"])
SUFFIX = st.sampled_from(["", "%", " million", " billion", "bn", " km", " employees", " per cent", "m", " to 12"])


@FAST
@given(st.text(max_size=40))
def test_parse_quantity_never_raises_on_any_text(text):
    q = parse_quantity(text)
    assert q is None or isinstance(q, Quantity)
    if q is not None:
        assert not (math.isnan(q.low) or math.isnan(q.high)) and q.low <= q.high


@FAST
@given(AFFIX, NUMBER_TEXT, SUFFIX)
def test_a_parsed_value_matches_itself(affix, number, suffix):
    q = parse_quantity(affix + number + suffix)
    if q is not None:
        assert q.low <= q.high
        assert compare(q, q) == "match"


@FAST
@given(st.integers(1, 10**9))
def test_thousands_separators_are_read_as_such(n):
    assert parse_quantity(f"{n:,}").low == n
    if n >= 1000:
        assert parse_quantity(f"{n:,}".replace(",", ".")).low == n  # "1.200", "1.200.000"


# ----------------------------------------------------------------------- generated answers

SENTENCES = [
    "Contoso revenue rose 8% to $2.4 billion in 2023.",
    "The company has 1.200 employees in Lisbon and Oslo.",
    "Net income fell to $310 million, compared with $290 million a year earlier.",
    "It did not open a store in Dublin.",
    "Dr. Smith said the plant in Ohio closed in April.",
    "Sure! Here is the answer:",
    "What did the report say?",
]
PIECES = st.one_of(
    st.sampled_from(SENTENCES),
    st.sampled_from(
        [
            "\n",
            "\n\n",
            " ",
            "\r\n",
            "- ",
            "1. ",
            "## ",
            "**",
            "<b>",
            "</b>",
            "<p>",
            "<br>",
            "[1]",
            "[1,\n2]",
            "(Passage\n1)",
            "| Year | Revenue |\n|---|---|\n",
            "```\nx = 1\n```\n",
            "\ufeff",
            "\u00a0",
            '[S1: "rose 8%"]',
            "“",
            "—",
        ]
    ),
    st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=12),
)
ANSWERS = st.lists(PIECES, min_size=1, max_size=8).map("".join)
SOURCE = (
    "Contoso revenue rose 8% to $2.4 billion in 2023. The company has 1,200 employees in Lisbon\n"
    "and Oslo. Net income rose to $310 million, compared with $290\nmillion a year earlier."
)


@SLOW
@given(ANSWERS)
@example(
    '\u00a4\u00f6[S1: "rose 8%"]The company has 1.200 employees in Lisbon and Oslo.'
)  # a token across a marker's end
def test_segments_keep_offsets(nlp, text):
    doc = nlp(text)
    spans = sorted([*doc.spans[CLAIMS_KEY], *doc.spans[SKIPPED_KEY]], key=lambda s: s.start_char)
    last = 0
    for span in spans:
        assert 0 <= span.start_char < span.end_char <= len(text)
        assert span.start_char >= last  # no two segments overlap
        assert span.text == text[span.start_char : span.end_char]
        assert span.text.strip()
        last = span.end_char


@SLOW
@given(ANSWERS)
def test_check_raises_only_documented_errors(nlp, answer):
    try:
        report = sourced_nlp.check(answer, [SOURCE], nlp=nlp)
    except sourced_nlp.SourceError as err:  # an empty answer, an unpaired surrogate: documented
        assert str(err)
        return
    assert report.answer == answer
    for c in [*report.claims, *report.skipped]:
        assert c.text == answer[c.start : c.end]
    for c in report.claims:
        assert c.verdict in ("grounded", "contradicted", "unverified")
        for e in c.evidence:
            assert e.text == SOURCE[e.start : e.end]


@FAST
@given(st.text(max_size=60))
def test_reading_text_keeps_every_offset(text):
    out = reading_text(text)
    assert len(out) == len(text)
    for a, b in zip(text, out):
        assert a == b or b in " \n"


@pytest.mark.parametrize("answer", ["", "  \n", None, 3, b"bytes"])
def test_check_on_no_text(nlp, answer):
    with pytest.raises((sourced_nlp.SourceError, TypeError)):
        sourced_nlp.check(answer, [SOURCE], nlp=nlp)
