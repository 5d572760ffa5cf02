"""``verdict/rules/quote.py``: a quote of the claim that no source holds."""

from tables import check, rec, table_test

SOURCE = rec('The mayor called the plan "a bold step".', ["mayor", "call", "plan", "bold", "step"])

ROWS = [
    (
        "a quote in no source",
        rec('The mayor called the plan "a disaster".', ["mayor", "call", "plan", "disaster"], quotes=["a disaster"]),
        [SOURCE],
        "unverified.quote",
        "unverified",
    ),
    (
        "a quote the source holds",
        rec(
            'The mayor called the plan "a bold step".',
            ["mayor", "call", "plan", "bold", "step"],
            quotes=["a bold step"],
        ),
        [SOURCE],
        "grounded.passage",
        "grounded",
    ),
]


test_rows = table_test(ROWS)


def test_reason_names_the_quote():
    assert check(ROWS[0][1], ROWS[0][2])["reason"] == 'quote not found in any source: "a disaster"'
