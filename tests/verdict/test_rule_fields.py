"""``verdict/records/fields.py``: a field the claim affirms against the record's false line or another value."""

from tables import check, name, rec, table_test


def record(*lines: dict) -> dict:
    return {"r1": (True, [rec("name: Finch & Fork.", ["name"], entities=[name("Finch & Fork", "ORG")]), *lines])}


RESERVATIONS = rec("attributes restaurants reservations: False.", ["attribute", "restaurant", "reservation", "false"])
ALCOHOL = rec("attributes alcohol: beer and wine.", ["attribute", "alcohol", "beer", "wine"])
DOGS = rec("attributes dogs allowed: False.", ["attribute", "dog", "allow", "false"])
WIFI = rec("attributes wifi: free.", ["attribute", "wifi", "free"])
TAKEOUT = rec("attributes restaurants take out: True.", ["attribute", "restaurant", "take", "true"])

ROWS = [
    (
        "affirms a false field",
        rec("It accepts reservations.", ["accept", "reservation"]),
        record(RESERVATIONS),
        "contradicted.record_field",
        "contradicted",
    ),
    (
        "another value of a field",
        rec("It has a full bar.", ["full", "bar"]),
        record(ALCOHOL),
        "contradicted.record_field",
        "contradicted",
    ),
    (
        "a fused claim with a denied part",
        rec("It has free wifi and take out, and dogs are welcome.", ["free", "wifi", "take", "dog"]),
        record(WIFI, TAKEOUT, DOGS),
        "contradicted.record_field",
        "contradicted",
    ),
    (
        "denies the false field",
        rec(
            "It does not accept reservations.",
            ["accept", "reservation"],
            negated=True,
            cue="not",
            negated_predicate="accept",
            predicates=["accept"],
        ),
        record(RESERVATIONS),
        "unverified.too_little",
        "unverified",
    ),
]


test_rows = table_test(ROWS)


def test_reasons():
    assert check(ROWS[0][1], ROWS[0][2])["reason"] == "the record says 'false' for attributes restaurants reservations"
    assert check(ROWS[1][1], ROWS[1][2])["differs"] == [
        {"claim": "full bar", "source": "beer and wine", "kind": "value"}
    ]
