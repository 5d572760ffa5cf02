"""``verdict/records/hours.py``: closed days against a record's opening hours."""

from tables import check, name, rec, table_test, value


def day(text: str, **at) -> dict:
    return name(text, "DAY", "npadvmod", **at)


def hours(day_name: str, low: int, high: int) -> dict:
    text = f"hours {day_name}: {low // 60}:0-{high // 60}:0."
    return rec(
        text,
        ["hour"],
        entities=[day(day_name)],
        quantities=[value(f"{low // 60}:0-{high // 60}:0", "time", low, high, unit="minute")],
    )


RECORD = {
    "r1": (
        True,
        [
            rec("name: Finch & Fork.", ["name"], entities=[name("Finch & Fork", "ORG")]),
            hours("Monday", 540, 1020),
            hours("Tuesday", 540, 1020),
        ],
    )
}
NO_SUNDAY = {
    "r1": (
        True,
        [rec("name: Finch & Fork.", ["name"], entities=[name("Finch & Fork", "ORG")]), hours("Monday", 540, 1020)],
    )
}

ROWS = [
    (
        "closed on a day with hours",
        rec("It is closed on Mondays.", ["close"], entities=[day("Monday")]),
        RECORD,
        "contradicted.hours",
        "contradicted",
    ),
    (
        "closed on a day without hours",
        rec("It is closed on Sundays.", ["close"], entities=[day("Sunday")]),
        NO_SUNDAY,
        "unverified.hours",
        "unverified",
    ),
]


test_rows = table_test(ROWS)


def test_the_day_line_is_the_evidence():
    got = check(ROWS[0][1], ROWS[0][2])
    assert (
        got["evidence"][0]["text"] == "hours Monday: 9:0-17:0."
        and got["reason"] == "the record gives 9:0-17:0 for Monday"
    )
