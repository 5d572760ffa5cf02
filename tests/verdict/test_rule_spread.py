"""``verdict/rules/spread.py``: most of a prose claim in one passage, the rest beside it."""

from tables import check, rec, table_test

WORDS = ["storm", "flood", "coast", "village", "road", "bridge", "power"]
CLAIM = rec("The storm flooded coast villages, cut roads, a bridge and power.", WORDS)
MOST = rec("The storm flooded coast villages and cut roads.", WORDS[:5])
REST = rec("A bridge lost power.", WORDS[5:] + ["lose"])

ROWS = [
    ("five words here, two beside", CLAIM, [MOST, REST], "grounded.spread", "grounded"),
    ("turned off", CLAIM, [MOST, REST], "unverified.too_little", "unverified", {"spread_support": 1.0}),
    ("the rest nowhere", CLAIM, [MOST], "unverified.too_little", "unverified"),
]


test_rows = table_test(ROWS)


def test_support_is_capped_below_grounded():
    got = check(CLAIM, [MOST, REST])
    assert 0.55 <= got["support"] <= 0.69 and len(got["evidence"]) == 2
