"""``verdict/rules/unread.py``: a figure the reader could not read takes back ``grounded``."""

from tables import rec, table_test, value

ROWS = [
    (
        "a figure not read",
        rec("Fares rose 14\u2030 on the line.", ["fare", "rise", "line"], unread=["14\u2030"]),
        [rec("Fares rose 14\u2030 on the line.", ["fare", "rise", "line"])],
        "unverified.unread_figure",
        "unverified",
    ),
    (
        "every figure read",
        rec(
            "Fares rose 14% on the line.", ["fare", "rise", "line"], quantities=[value("14%", "percent", 14, unit="%")]
        ),
        [
            rec(
                "Fares rose 14% on the line.",
                ["fare", "rise", "line"],
                quantities=[value("14%", "percent", 14, unit="%")],
            )
        ],
        "grounded.passage",
        "grounded",
    ),
    (
        "a figure read that contradicts, beside one not read",
        rec(
            "Fares rose 14% and 3\u2030 on the line.",
            ["fare", "rise", "line"],
            unread=["3\u2030"],
            quantities=[value("14%", "percent", 14, unit="%")],
        ),
        [
            rec(
                "Fares rose 41% on the line.",
                ["fare", "rise", "line"],
                quantities=[value("41%", "percent", 41, unit="%")],
            )
        ],
        "contradicted.value",
        "contradicted",
    ),
]


test_rows = table_test(ROWS)
