"""``verdict/rules/fused.py``: grounded by two passages together (or several lines of a record)."""

from tables import check, name, rec, table_test

ALICE = name("Alice")
BOB = name("Bob")
FOUNDED = rec("Alice founded the company.", ["found", "company"], entities=[ALICE])
JOINED = rec("Bob joined the company.", ["join", "company"], entities=[BOB])
RECORD = {
    "r1": (
        True,
        [
            rec("name: Finch & Fork.", ["name"], entities=[name("Finch & Fork", "ORG")]),
            rec("attributes restaurants take out: True.", ["attribute", "restaurant", "take", "true"]),
            rec("attributes wifi: free.", ["attribute", "wifi", "free"]),
        ],
    )
}

ROWS = [
    (
        "two facts, two passages",
        rec("Alice founded it and Bob joined.", ["found", "join"], entities=[ALICE, BOB]),
        [FOUNDED, JOINED],
        "grounded.fused",
        "grounded",
    ),
    (
        "one fact missing",
        rec("Alice founded it and Bob left.", ["found", "leave"], entities=[ALICE, BOB]),
        [FOUNDED, JOINED],
        "unverified.missing",
        "unverified",
    ),
    (
        "two lines of a record",
        rec("Take out and free wifi.", ["take", "free", "wifi"]),
        RECORD,
        "grounded.fused",
        "grounded",
    ),
]


test_rows = table_test(ROWS)


def test_evidence_is_both_passages_in_order():
    got = check(ROWS[0][1], ROWS[0][2])
    assert [e["text"] for e in got["evidence"]] == [FOUNDED["text"], JOINED["text"]]
    assert got["reason"] == "stated across 2 source passages"
