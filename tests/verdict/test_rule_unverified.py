"""``verdict/rules/unverified.py``: the last rule, with the claim's shortfall as its rule name."""

from tables import check, name, rec, table_test

REVENUE = rec("Revenue rose in the quarter.", ["revenue", "rise", "quarter"], predicates=["rise"])

ROWS = [
    ("no shared word", rec("Weather was mild.", ["weather", "mild"]), [REVENUE], "unverified.no_passage", "unverified"),
    (
        "half the words",
        rec("Revenue rose in Europe and Asia.", ["revenue", "rise", "europe", "asia"]),
        [REVENUE],
        "unverified.too_little",
        "unverified",
    ),
    (
        "a name the passage lacks",
        rec(
            "Revenue rose in the quarter in Berlin.",
            ["revenue", "rise", "quarter"],
            entities=[name("Berlin", "GPE", "pobj")],
        ),
        [REVENUE],
        "unverified.missing",
        "unverified",
    ),
    (
        "a denial on an argument",
        rec("Revenue rose in the quarter.", ["revenue", "rise", "quarter"], predicates=["rise"]),
        [
            rec(
                "No revenue rose in the quarter.",
                ["revenue", "rise", "quarter"],
                predicates=["rise"],
                negated=True,
                cue="no",
            )
        ],
        "unverified.polarity",
        "unverified",
    ),
    (
        "another subject",
        rec("Costs rose in Europe.", ["cost", "rise", "europe"], subject=["cost"]),
        [rec("Revenue rose in Europe.", ["revenue", "rise", "europe"])],
        "unverified.subject",
        "unverified",
    ),
]


test_rows = table_test(ROWS)


def test_reasons_name_the_shortfall():
    assert check(ROWS[2][1], ROWS[2][2])["reason"] == "not named with the rest: Berlin"
    assert check(ROWS[0][1], ROWS[0][2]) == {
        "verdict": "unverified",
        "reason": "no source passage is about this claim",
        "support": 0.15,
        "evidence": [],
        "differs": [],
        "rule": "unverified.no_passage",
    }
    assert check(ROWS[1][1], ROWS[1][2])["reason"].startswith("too little of the claim is stated (coverage 0.")
