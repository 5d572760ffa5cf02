"""Table-driven tests of the pure value parser and comparison (no spaCy)."""

from __future__ import annotations

import json
import math
from datetime import date

import pytest

from sourced_nlp.text.quantity import Quantity, comparable, compare, parse_quantity

INF = math.inf
D = lambda y, m, d: float(date(y, m, d).toordinal())  # noqa: E731

# (text, kind, low, high, unit)
PARSES = [
    # thousands separators and decimals
    ("1,000", "number", 1000, 1000, None),
    ("1,250,000", "number", 1250000, 1250000, None),
    ("1250000", "number", 1250000, 1250000, None),
    ("3.25", "number", 3.25, 3.25, None),
    # scale words and suffixes
    ("$56 billion", "money", 56e9, 56e9, "USD"),
    ("56B", "number", 56e9, 56e9, None),
    ("56B.", "number", 56e9, 56e9, None),
    ("56bn", "number", 56e9, 56e9, None),
    ("56 bn", "number", 56e9, 56e9, None),
    ("fifty-six billion dollars", "money", 56e9, 56e9, "USD"),
    ("£2.4m", "money", 2.4e6, 2.4e6, "GBP"),
    ("1.25 million", "number", 1.25e6, 1.25e6, None),
    ("$7.5 billion", "money", 7.5e9, 7.5e9, "USD"),
    ("56k", "number", 56e3, 56e3, None),
    # spelled-out numbers
    ("eight", "number", 8, 8, None),
    ("fifty-six", "number", 56, 56, None),
    ("four", "number", 4, 4, None),
    ("twenty-one", "number", 21, 21, None),
    ("a hundred", "number", 100, 100, None),
    ("one thousand two hundred", "number", 1200, 1200, None),
    ("one hundred and five", "number", 105, 105, None),
    ("two dozen", "number", 24, 24, None),
    # percent
    ("8%", "percent", 8, 8, "%"),
    ("8 percent", "percent", 8, 8, "%"),
    ("8 per cent", "percent", 8, 8, "%"),
    ("eight percent", "percent", 8, 8, "%"),
    ("41.5 per cent", "percent", 41.5, 41.5, "%"),
    ("-5%", "percent", -5, -5, "%"),
    ("2 percentage points", "percent", 2, 2, "pp"),
    # currencies
    ("$5", "money", 5, 5, "USD"),
    ("£5", "money", 5, 5, "GBP"),
    ("€5", "money", 5, 5, "EUR"),
    ("¥300", "money", 300, 300, "JPY"),
    ("US$3", "money", 3, 3, "USD"),
    ("USD 5", "money", 5, 5, "USD"),
    ("5 EUR", "money", 5, 5, "EUR"),
    ("5 dollars", "money", 5, 5, "USD"),
    ("5 pounds", "money", 5, 5, "GBP"),
    ("5 euros", "money", 5, 5, "EUR"),
    # units (pint base units)
    ("5 km", "measure", 5000, 5000, "meter"),
    ("5km", "measure", 5000, 5000, "meter"),
    ("5,000 m", "measure", 5000, 5000, "meter"),
    ("5 miles", "measure", 8046.72, 8046.72, "meter"),
    ("300 m", "measure", 300, 300, "meter"),
    ("0.3 km", "measure", 300, 300, "meter"),
    ("503 metres", "measure", 503, 503, "meter"),
    ("6 hours", "measure", 21600, 21600, "second"),
    ("four hours", "measure", 14400, 14400, "second"),
    ("10 kg", "measure", 10, 10, "kilogram"),
    ("3 feet", "measure", 0.9144, 0.9144, "meter"),
    # ranges
    ("8-10%", "percent", 8, 10, "%"),
    ("8–10%", "percent", 8, 10, "%"),
    ("8% to 10%", "percent", 8, 10, "%"),
    ("between 8 and 10 percent", "percent", 8, 10, "%"),
    ("from 8 to 10 percent", "percent", 8, 10, "%"),
    ("$5-7 million", "money", 5e6, 7e6, "USD"),
    # approximators
    ("about 50", "number", 45, 55, None),
    ("around 50", "number", 45, 55, None),
    ("approximately 50", "number", 45, 55, None),
    ("roughly 50", "number", 45, 55, None),
    ("some 50", "number", 45, 55, None),
    ("~50", "number", 45, 55, None),
    ("more than 1,000", "number", 1000, INF, None),
    ("over 1,000", "number", 1000, INF, None),
    ("above 1,000", "number", 1000, INF, None),
    ("at least 1,000", "number", 1000, INF, None),
    ("fewer than 500", "number", -INF, 500, None),
    ("less than 500", "number", -INF, 500, None),
    ("under 500", "number", -INF, 500, None),
    ("below 500", "number", -INF, 500, None),
    ("up to 50", "number", -INF, 50, None),
    ("nearly 50", "number", 45, 50, None),
    ("almost 50", "number", 45, 50, None),
    # dates
    ("March 3, 2021", "date", D(2021, 3, 3), D(2021, 3, 3), "day"),
    ("3/3/2021", "date", D(2021, 3, 3), D(2021, 3, 3), "day"),
    ("2021-03-03", "date", D(2021, 3, 3), D(2021, 3, 3), "day"),
    ("4 March 2021", "date", D(2021, 3, 4), D(2021, 3, 4), "day"),
    ("March 3rd, 2021", "date", D(2021, 3, 3), D(2021, 3, 3), "day"),
    ("2021", "date", D(2021, 1, 1), D(2021, 12, 31), "day"),
    ("in 2021", "date", D(2021, 1, 1), D(2021, 12, 31), "day"),
    ("March 2021", "date", D(2021, 3, 1), D(2021, 3, 31), "day"),
    ("the 1990s", "date", D(1990, 1, 1), D(1999, 12, 31), "day"),
    ("2019-2021", "date", D(2019, 1, 1), D(2021, 12, 31), "day"),
    ("Q3 2021", "date", D(2021, 7, 1), D(2021, 9, 30), "day"),
    ("May", "date", 501, 531, "yearday"),
    ("May 3", "date", 503, 503, "yearday"),
    # times of day
    ("5 PM", "time", 1020, 1020, "minute"),
    ("5:30 p.m.", "time", 1050, 1050, "minute"),
    ("17:30", "time", 1050, 1050, "minute"),
    ("17:0", "time", 1020, 1020, "minute"),
    ("17:0-21:0", "time", 1020, 1260, "minute"),
    ("5 PM to 9 PM", "time", 1020, 1260, "minute"),
    ("5-9 pm", "time", 1020, 1260, "minute"),
    # frequency words ("twice a year" is two times a year)
    ("twice", "number", 2, 2, None),
    ("once", "number", 1, 1, None),
    # a unit joined by a hyphen ("a 30-minute wait")
    ("30-minute", "measure", 1800, 1800, "second"),
    ("2-hour", "measure", 7200, 7200, "second"),
    # kitchen measures and a recipe's proper fractions (a cup is 236.6 ml, a teaspoon 4.93 ml)
    ("2 cups", "measure", 2 * 2.365882365e-4, 2 * 2.365882365e-4, "meter ** 3"),
    ("2 c.", "measure", 2 * 2.365882365e-4, 2 * 2.365882365e-4, "meter ** 3"),
    ("1/4 tsp", "measure", 0.25 * 4.92892159375e-6, 0.25 * 4.92892159375e-6, "meter ** 3"),
    ("3 tablespoons", "measure", 3 * 1.478676478125e-5, 3 * 1.478676478125e-5, "meter ** 3"),
    ("3/4", "number", 0.75, 0.75, None),
    # ordinals
    ("first", "ordinal", 1, 1, None),
    ("3rd", "ordinal", 3, 3, None),
    ("second", "ordinal", 2, 2, None),
    ("twenty-first", "ordinal", 21, 21, None),
]


@pytest.mark.parametrize("text,kind,low,high,unit", PARSES)
def test_parse(text, kind, low, high, unit):
    q = parse_quantity(text)
    assert q is not None, text
    assert (q.kind, q.unit) == (kind, unit)
    assert q.low == pytest.approx(low) and q.high == pytest.approx(high)


@pytest.mark.parametrize(
    "text",
    [
        "Q3",
        "GPT-4",
        "v2",
        "COVID-19",
        "next year",
        "last week",
        "yearly",
        "year over year",
        "quarterly",
        "a year earlier",
        "the fiscal quarter ending in March",
        "5 offices",
        "",
        "hello",
        "3:1",
        "1st place",
        "24/7",
    ],
)
def test_not_a_quantity(text):
    assert parse_quantity(text) is None


@pytest.mark.parametrize(
    "text,label,kind",
    [
        ("1932", "DATE", "date"),
        ("1000", None, "number"),
        ("1000", "DATE", "date"),
        ("1999", "CARDINAL", "number"),
        ("in 1999", "CARDINAL", "date"),
        ("2,021", "DATE", "number"),
    ],
)
def test_year_needs_a_date_reading(text, label, kind):
    assert parse_quantity(text, label).kind == kind


@pytest.mark.parametrize(
    "text,precision",
    [
        ("56.5 billion", 0.05e9),
        ("8%", 0.5),
        ("1,000", 0.5),
        ("1.8 million", 0.05e6),
        ("$56 billion", 0.5e9),
        ("0.3 km", 50),
        ("41.5%", 0.05),
        ("March 3, 2021", 0),
        ("fifty-six billion", 0.5e9),
        ("a hundred", 0.5),
    ],
)
def test_precision(text, precision):
    assert parse_quantity(text).precision == pytest.approx(precision)


@pytest.mark.parametrize(
    "text,approx",
    [
        ("about 50", "about"),
        ("more than 1,000", "more than"),
        ("over 5", "more than"),
        ("at least 3", "at least"),
        ("fewer than 500", "fewer than"),
        ("up to 50", "up to"),
        ("almost 50", "nearly"),
        ("50", None),
        ("before 2020", "before"),
    ],
)
def test_approximator_is_normalised(text, approx):
    assert parse_quantity(text).approx == approx


# (claim, source, expected)
COMPARISONS = [
    ("1.8 million", "1,812,000", "match"),
    ("about 50", "48", "match"),
    ("more than 1,000", "1,042", "match"),
    # a bound is stated as written: its end is not rounded ("more than 5%" is not 4.6%)
    ("more than 5%", "4.6%", "conflict"),
    ("at least 5%", "4.6%", "conflict"),
    ("over 5%", "5.2%", "match"),
    ("8% to 10%", "8-10%", "match"),
    ("between 8 and 10 percent", "8-10%", "match"),
    ("in 2021", "March 3, 2021", "match"),
    ("56B", "$56 billion", "match"),
    ("56bn", "$56 billion", "match"),
    ("fifty-six billion dollars", "$56 billion", "match"),
    ("5,000 m", "5 km", "match"),
    ("0.3 km", "300 m", "match"),
    ("1000", "1,000", "match"),
    ("1250000", "1,250,000", "match"),
    ("1.25 million", "1,250,000", "match"),
    ("8 percent", "8%", "match"),
    ("eight percent", "8%", "match"),
    ("41.5 per cent", "41.5%", "match"),
    ("3/3/2021", "March 3, 2021", "match"),
    ("2021-03-03", "March 3, 2021", "match"),
    ("USD 5", "$5", "match"),
    ("17:0-21:0", "5 PM to 9 PM", "match"),
    ("5:30 p.m.", "17:30", "match"),
    ("$56 billion", "$56.2 billion", "match"),
    ("3 minutes", "about 3 minutes", "match"),
    ("$2 billion", "$2.4 billion", "conflict"),
    ("2 kg", "2.4 kg", "conflict"),
    ("$56.5 billion", "$56 billion", "conflict"),
    ("8.1%", "8%", "conflict"),
    ("nine percent", "8%", "conflict"),
    ("5 miles", "5 km", "conflict"),
    ("4 March 2021", "March 3, 2021", "conflict"),
    ("fewer than 500", "1,042", "conflict"),
    ("12%", "8-10%", "conflict"),
    ("9 hours", "6 hours", "conflict"),
    ("1991", "1985", "conflict"),
    ("5", "56", "conflict"),
    ("221,000", "228,000", "conflict"),
    ("$40 million", "$12 million", "conflict"),
    ("21%", "12%", "conflict"),
    ("15", "12", "conflict"),
    ("March 3, 2021", "2021", "partial"),
    ("9%", "8-10%", "partial"),
    ("8%", "8", "incomparable"),
    ("$5", "5 EUR", "incomparable"),
    ("5 km", "5 kg", "incomparable"),
    ("May", "May 2021", "incomparable"),
    ("first", "1", "incomparable"),
    ("5 km", "5", "incomparable"),
]


@pytest.mark.parametrize("claim,source,expected", COMPARISONS)
def test_compare(claim, source, expected):
    a, b = parse_quantity(claim), parse_quantity(source)
    assert a is not None and b is not None
    assert compare(a, b) == expected


def test_comparable_number_and_money_but_not_percent():
    assert comparable(parse_quantity("56B"), parse_quantity("$56 billion"))
    assert not comparable(parse_quantity("8"), parse_quantity("8%"))
    assert not comparable(parse_quantity("8"), parse_quantity("8 km"))


@pytest.mark.parametrize("text", ["more than 1,000", "fewer than 500", "$5-7 million", "May", "5 km", "17:30"])
def test_dict_round_trip_is_json_safe(text):
    q = parse_quantity(text)
    d = q.to_dict()
    assert json.loads(json.dumps(d, allow_nan=False)) == d
    assert Quantity.from_dict(d) == q
    assert Quantity.from_dict({**d, "noun": "office"}) == q


@pytest.mark.parametrize(
    "claim,source,hours,expected",
    [
        ("10 AM", "10:0-23:0", True, "match"),
        ("3 PM", "10:0-23:0", True, "conflict"),
        ("until 11 PM", "10:0-23:0", True, "match"),
        ("until 10 PM", "10:0-23:0", True, "conflict"),
        ("11 AM to 11 PM", "11:0-22:0", True, "conflict"),
        # in prose a time inside a range is no conflict: "the fair runs from 10 AM to 11 PM", "at 3 PM"
        ("3 PM", "10:0-23:0", False, "partial"),
    ],
)
def test_compare_opening_hours(claim, source, hours, expected):
    """Against a record's opening hours a time of day names one end of the range."""
    assert compare(parse_quantity(claim), parse_quantity(source), hours=hours) == expected


# ---------------------------------------------------------------- as people write numbers


@pytest.mark.parametrize(
    "text,value",
    [
        ("1.200", 1200.0),
        ("1.200 employees", None),
        ("1.200.000", 1_200_000.0),
        ("€1.500", 1500.0),
        ("1.125 billion", 1.125e9),
        ("1.5", 1.5),
        ("0.125", 0.125),
        ("12.5%", 12.5),
    ],
)
def test_european_thousands_separator(text, value):
    q = parse_quantity(text)
    if value is None:
        assert q is None or q.low == 1200.0
    else:
        assert q is not None and q.low == pytest.approx(value)


def test_a_decimal_with_a_unit_stays_a_decimal():
    assert parse_quantity("2.375 inches").low == pytest.approx(2.375 * 0.0254)


@pytest.mark.parametrize(
    "claim,source,expected",
    [
        ("221,000", "$228,000", "incomparable"),  # a count in digits is no other value of an amount
        ("$228,000", "221,000", "incomparable"),
        ("2.4 billion", "$2.5 billion", "conflict"),  # an amount written without its currency
        ("56B", "$56 billion", "match"),
        ("228,000", "$228,000", "match"),
    ],
)
def test_bare_number_against_money(claim, source, expected):
    assert compare(parse_quantity(claim), parse_quantity(source)) == expected
