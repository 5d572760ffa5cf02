"""``verdict/rules/passage.py``: grounded by one passage; a hedged claim against an unhedged one."""

from tables import check, rec, table_test, value

REVENUE = rec("Revenue rose in the quarter.", predicates=["rise"], lemmas=["revenue", "rise", "quarter"])

ROWS = [
    (
        "same words",
        rec("Revenue rose in the quarter.", ["revenue", "rise", "quarter"], predicates=["rise"]),
        [REVENUE],
        "grounded.passage",
        "grounded",
    ),
    (
        "matched value, half the words",
        rec(
            "Revenue rose 8% in Europe.",
            ["revenue", "rise", "europe", "growth"],
            quantities=[value("8%", "percent", 8, unit="%")],
        ),
        [rec("Revenue rose 8%.", ["revenue", "rise"], quantities=[value("8%", "percent", 8, unit="%")])],
        "grounded.passage",
        "grounded",
    ),
    (
        "hedged claim, plain source",
        rec("Revenue may have risen in the quarter.", ["revenue", "rise", "quarter"], predicates=["rise"], hedged=True),
        [REVENUE],
        "unverified.hedged",
        "unverified",
    ),
    (
        "two of four words",
        rec("Revenue rose in Europe and Asia.", ["revenue", "rise", "europe", "asia"]),
        [REVENUE],
        "unverified.too_little",
        "unverified",
    ),
]


test_rows = table_test(ROWS)


def test_support_and_evidence():
    got = check(ROWS[0][1], ROWS[0][2])
    assert got["support"] == 1.0 and got["reason"] == "stated in the source"
    assert got["evidence"] == [{"source": "s1", "start": 0, "end": len(REVENUE["text"]), "text": REVENUE["text"]}]
