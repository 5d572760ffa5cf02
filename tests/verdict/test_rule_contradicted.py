"""``verdict/rules/contradicted.py``: a passage about the same thing states something incompatible."""

import pytest
from tables import check, name, rec, table_test, value


def pct(n, **extra):
    return value(f"{n}%", "percent", n, unit="%", head="rise", **extra)


def rise(*quantities):
    return rec("Unemployment rose in the year.", ["unemployment", "rise", "year"], quantities=list(quantities))


#: "rose from 4% to 6%": a change stated by its two levels
LEVELS = [rise(pct(4, change="from"), pct(6, change="to"))]


ROWS = [
    (
        "another percent",
        rec("Revenue rose 8% in the quarter.", ["revenue", "rise", "quarter"], quantities=[pct(8)]),
        [rec("Revenue rose 5% in the quarter.", ["revenue", "rise", "quarter"], quantities=[pct(5)])],
        "contradicted.value",
        "contradicted",
    ),
    (
        "the predicate denied",
        rec("Revenue rose in the quarter.", ["revenue", "rise", "quarter"], predicates=["rise"]),
        [
            rec(
                "Revenue did not rise in the quarter.",
                ["revenue", "rise", "quarter"],
                predicates=["rise"],
                negated=True,
                cue="not",
                negated_predicate="rise",
            )
        ],
        "contradicted.polarity",
        "contradicted",
    ),
    (
        "the predicate denied of another value",
        rec(
            "The discount applies to orders over $50.",
            ["discount", "apply", "order"],
            predicates=["apply"],
            quantities=[value("over $50", "money", 50, float("inf"), unit="USD")],
        ),
        [
            rec(
                "The discount does not apply to orders under $50.",
                ["discount", "apply", "order"],
                predicates=["apply"],
                negated=True,
                cue="not",
                negated_predicate="apply",
                quantities=[value("under $50", "money", float("-inf"), 50, unit="USD")],
            )
        ],
        "unverified.missing",
        "unverified",
    ),
    (
        "the predicate denied at every time",
        rec(
            "The firm paid a dividend in 2019.",
            ["firm", "pay", "dividend"],
            predicates=["pay"],
            quantities=[value("2019", "date", 737060, 737424, unit="day")],
        ),
        [
            rec(
                "The firm has never paid a dividend.",
                ["firm", "pay", "dividend"],
                predicates=["pay"],
                negated=True,
                cue="never",
                negated_predicate="pay",
            )
        ],
        "contradicted.polarity",
        "contradicted",
    ),
    (
        "an antonym",
        rec("Revenue rose in the quarter.", ["revenue", "rise", "quarter"], predicates=["rise"]),
        [rec("Revenue fell in the quarter.", ["revenue", "fall", "quarter"], predicates=["fall"])],
        "contradicted.antonym",
        "contradicted",
    ),
    (
        "another name in the same role",
        rec(
            "The product was announced by CEO Sundar Pichai.",
            ["product", "announce", "ceo"],
            entities=[name("Sundar Pichai", role="pobj")],
        ),
        [
            rec(
                "The product was announced by CEO Satya Nadella.",
                ["product", "announce", "ceo"],
                entities=[name("Satya Nadella", role="pobj")],
            )
        ],
        "contradicted.entity",
        "contradicted",
    ),
    (
        "a value said of another step",
        rec(
            "Cook for 5 minutes.",
            ["cook", "minute", "pasta", "sauce"],
            quantities=[value("5 minutes", "measure", 300, unit="second")],
        ),
        [
            rec(
                "Cook for 10 minutes.",
                ["cook", "minute", "rice", "water"],
                quantities=[value("10 minutes", "measure", 600, unit="second")],
            )
        ],
        "unverified.too_little",
        "unverified",
    ),
    # an amount of change is compared with the change the levels make, never with a level
    ("a relative change of the levels", rise(pct(50, change="by")), LEVELS, "grounded.passage", "grounded"),
    ("another relative change", rise(pct(40, change="by")), LEVELS, "contradicted.value", "contradicted"),
    (
        "a change in points",
        rise(value("2 percentage points", "percent", 2, unit="pp", head="rise", change="by")),
        LEVELS,
        "grounded.passage",
        "grounded",
    ),
    ("'2%' may mean 2 points", rise(pct(2, change="by")), LEVELS, "unverified.missing", "unverified"),
    ("a level against levels", rise(pct(50)), LEVELS, "contradicted.value", "contradicted"),
    (
        "a level of a change against an amount",
        rise(pct(4, change="to")),
        [rise(pct(4, change="by"))],
        "unverified.missing",
        "unverified",
    ),
    (
        "a value of no known role against an amount",
        rise(pct(4)),
        [rise(pct(4, change="by"))],
        "grounded.passage",
        "grounded",
    ),
    (
        "a change against another",
        rise(pct(12, change="by")),
        [rise(pct(15, change="by"))],
        "contradicted.value",
        "contradicted",
    ),
]


test_rows = table_test(ROWS)


def test_differs_and_support():
    got = check(ROWS[0][1], ROWS[0][2])
    assert got["differs"] == [{"claim": "8%", "source": "5%", "kind": "quantity"}]
    assert got["reason"] == "the source gives 5% where the claim says 8%" and got["support"] == 0.0


def test_a_change_names_its_levels():
    got = check(rise(pct(40, change="by")), LEVELS)
    assert got["reason"] == "the source gives 4% to 6% (50%) where the claim says 40%"


def test_a_provisional_figure_does_not_resolve_a_conflict():
    """A passage that states the claim's value but marks it as not final ("preliminary,
    superseded") holds nothing against one that states another value flatly."""
    from tables import _index, verifier

    from sourced_nlp.verdict.rules.contradicted import contradicted

    def revenue(n, *words):
        v = value(f"${n} billion", "money", n * 1e9, unit="USD")
        r = rec(f"Revenue was ${n} billion {' '.join(words)}.", ["revenue", "billion", *words], quantities=[v])
        return dict(r, tokens=[[w, "ADJ", "JJ", "amod", 0, 0, 0, "", w] for w in words])

    claim = revenue(2.2)
    for words, expected in ((("preliminary",), "contradicted.value"), ((), None)):
        index, texts = _index({"report": (False, [revenue(2.4)]), "draft": (False, [revenue(2.2, *words)])})
        got = contradicted(verifier().context(claim, index, texts))
        assert (got and got["rule"]) == expected, got


@pytest.mark.parametrize(
    "a,b,expected",
    [
        ("by", "by", True),
        (None, None, True),
        (None, "by", True),
        ("to", None, True),
        ("from", "to", True),
        ("by", "from", False),
        ("to", "by", False),
    ],
)
def test_roles_compatible(a, b, expected):
    """An amount of change is never compared with a level of a change, in either order."""
    from sourced_nlp.verdict.values import roles_compatible

    assert roles_compatible({"change": a}, {"change": b}) is expected
