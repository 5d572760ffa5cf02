"""``verdict/rules/cited.py``: the cited sources first; the rest of the order when they do not decide."""

from tables import check, rec, table_test, value

CLAIM = rec(
    "Revenue rose 8% in the quarter.",
    ["revenue", "rise", "quarter"],
    quantities=[value("8%", "percent", 8, unit="%", head="rise")],
)
STATES = rec(
    "Revenue rose 8% in the quarter.",
    ["revenue", "rise", "quarter"],
    quantities=[value("8%", "percent", 8, unit="%", head="rise")],
)
DIFFERS = rec(
    "Revenue rose 5% in the quarter.",
    ["revenue", "rise", "quarter"],
    quantities=[value("5%", "percent", 5, unit="%", head="rise")],
)
SILENT = rec("The weather was mild.", ["weather", "mild"])
SOURCES = {"s1": (False, [DIFFERS]), "s2": (False, [STATES]), "s3": (False, [SILENT])}

ROWS = [
    ("the cited source states it", CLAIM, SOURCES, "grounded.cited", "grounded", {"cited": ["s2"]}),
    (
        "the cited source contradicts it",
        CLAIM,
        {"s1": (False, [DIFFERS]), "s3": (False, [SILENT])},
        "contradicted.cited",
        "contradicted",
        {"cited": ["s1"]},
    ),
    (
        "the cited source is silent",
        CLAIM,
        {"s2": (False, [STATES]), "s3": (False, [SILENT])},
        "grounded.passage",
        "grounded",
        {"cited": ["s3"]},
    ),
    ("no citation", CLAIM, {"s2": (False, [STATES])}, "grounded.passage", "grounded"),
]


test_rows = table_test(ROWS)


def test_the_cited_verdict_is_kept_whole():
    got = check(CLAIM, SOURCES, cited=["s2"])
    assert got["evidence"][0]["source"] == "s2" and got["reason"] == "stated in the source" and got["support"] == 1.0
